"""The table's twin (issue 33): after every move, every difference the table can see between the game before
and after is told as a physical act — by a step the engine wrote by hand (which says what it moves) or by the
twin's own line — in the order the move made them; none is left to the log alone, and none is told twice.
engine/twin/told.py; the same readers and speakers say what an undo puts back (tests/engine/test_put_back.py)."""

from __future__ import annotations

import random

import pytest

from companion.engine.state import CLASSES
from companion.engine.twin import Recorder, told
from companion.engine.twin.compare import changes, subjects, snapshot
from companion.simulate import POLICIES, play_game
from companion.sweep import KINDS, STARTS
from companion.words import faces_in

from scenario import (CATALOG, add_workshop, apply, available, citizens, cubes, find, game, give, grant, in_cabin,
                      kind, pending, pick, produce, scenario, set_registers, turn_for, whose)


def move(state, action) -> list[dict]:
    """Apply one action as the store does (a recorder on the state) and give what it tells the table."""
    before, state._twin = state.clone(), None
    state._twin = Recorder(state)
    apply(state, action)
    rec, state._twin = state._twin, None
    return told(before, state, rec)


def tap(state, who, match) -> list[dict]:
    return move(state, find(state, who, match)["action"])


def acts(items) -> list[str]:
    return [it["act"]["msg"] for it in items if "act" in it]


def steps(items) -> list[str]:
    return [it["step"].get("msg") for it in items if "step" in it and not it["note"]]


def uncovered(before, after, items) -> list:
    """The differences no item tells: neither a twin's line with the speaker's own words nor a step (not a
    note) that says it moves what the difference is about."""
    said = {(ln["msg"], repr(ln.get("args"))) for ln in (it["act"] for it in items if "act" in it)}
    claimed = {s for it in items if "step" in it for s in it["moves"]}  # a note: what the table did already
    start, end = snapshot(before), snapshot(after)
    out = []
    for (kind_, key), lines in changes(before, after):
        if subjects(kind_, key, start[kind_].get(key), end[kind_].get(key)) & claimed:
            continue
        if not lines or any((ln["msg"], repr(ln.get("args"))) not in said for ln in lines):
            out.append((kind_, key, [ln["text"] for ln in lines]))
    return out


def test_R_BUILD_4_a_build_tells_the_payment_the_tile_and_the_tile_turned_up_in_that_order():
    s = scenario(3, seed=3)
    give(s, 0, coins=9)
    grant(s, 0, "build")
    up = s.workshops["aristocrat"].up
    items = tap(s, 0, {"build": "workshop", "cls": "aristocrat"})
    assert acts(items)[:2] == ["{who} returns {what} to the supply.", "Put the {tile} on {who}'s estate."]
    assert [it["step"]["rule"] for it in items if "step" in it] == ["R-BUILD-4"], "the turn-up is the step by hand"
    assert f"workshop:{up}" in faces_in(items[1]["act"]["args"]) and items[1]["act"]["estate"]
    assert items[0]["act"]["estate"] and items[0]["act"]["seat"] == 0
    assert "stack:workshops-aristocrat" in items[-1]["moves"] and items[-1]["list"] is None
    assert not any("off the" in m for m in acts(items)), "the stack's change is the step's, told once"


def test_R_TURN_RESCUE_3_a_citizen_rescued_into_a_cabin_is_told_with_its_hex_marked():
    s = scenario(3, seed=4)
    hexes = [t for t in s.hexes if t in s.catalog.hexes and s.catalog.hexes[t].colour != "harbor"]
    tile = hexes[0]
    citizens(s, tile, "nun")
    cubes(s, tile, 1)
    turn_for(s, 0)
    items = tap(s, 0, {"go": "hex", "tile": tile})
    while whose(s) == 0 and kind(s) in ("send", "rescue"):
        items += tap(s, 0, available(s, 0)[0]["value"])
    moved = [it["act"] for it in items if "act" in it and it["act"]["msg"] == "Move the {cls} {now}: put it {then}."]
    assert moved and moved[0]["places"] == [f"hex:{tile}"] and "cabin" in moved[0]["text"]
    assert not moved[0].get("estate"), "a citizen off a hex is a shared act: the host's moment says it"


def test_R_ACT_6_a_lieutenant_taken_from_the_supply_is_told():
    s = scenario(3, seed=5)
    before = s.clone()
    grant(s, 0, "lieutenant")
    assert sum(lt.where == "supply" for lt in before.seats[0].lieutenants) > \
        sum(lt.where == "supply" for lt in s.seats[0].lieutenants)
    said = [ln for (k, _), lines in changes(before, s) for ln in lines]
    taken = [ln for ln in said if ln["msg"] == "{who}: take the lieutenant {now} and put it {then}."]
    assert taken and "in the supply" in taken[0]["text"] and not taken[0].get("estate"), \
        "the supply is shared: the host's moment says it"


def test_R_EOR_2_production_register_moves_are_told_in_the_upkeep_checklist():
    s = scenario(2, seed=6)
    add_workshop(s, 0, "ws1-a3", "aristocrat", upgraded=True)  # each round: free city or church advance
    set_registers(s, 0, city=1, church=1)
    from companion.engine import start_upkeep
    s.lanes.clear()
    before, s._twin = s.clone(), Recorder(s)
    start_upkeep(s)
    rec, s._twin = s._twin, None
    items = told(before, s, rec)
    while whose(s) == 0 and kind(s) in ("production", "reward_choice", "register"):
        items += tap(s, 0, available(s, 0)[0]["value"])
    lines = [it for it in items if "act" in it and it["act"]["msg"].startswith("Move {who}'s counter on the")]
    assert lines and all(it["list"] == "upkeep-3" for it in lines), "on the checklist of the round set up"
    produced = [it for it in items if "step" in it and it["list"] == "upkeep-3" and it["note"]]
    assert produced, "'… produces: …' heads the seat's production acts: a note, not a step to tick"


def test_C_23_the_solo_opponents_turn_is_told_step_by_step_and_holds_the_next_turn():
    s = game(1, seed=2)
    assert s.hold_opponent
    you = pending(s)[0]
    assert you["who"] == 0 and you["kind"] == "turn"
    items = []
    rng = random.Random(2)
    while not (pending(s) and pending(s)[0]["kind"] == "opponent_done"):
        who = pending(s)[0]["who"]
        items = move(s, rng.choice(available(s, who))["action"])
    said = steps(items)
    assert "Opponent reveals {tile}: it takes the marked {hex}. Set the tile aside and stand an opponent " \
           "lieutenant on that hex." in said or "No solo tile names an available hex: the opponent loses this turn." \
           in said
    assert all(it["list"] is None for it in items), "held on the host's moment, not in a checklist"
    assert [o["value"] for o in available(s, "host")] == ["done"] and pending(s)[0]["who"] == "host"
    pick(s, "host", "done")
    assert pending(s)[0]["who"] == 0, "your turn comes once the host says the table has moved the opponent"


def test_C_23_a_solo_game_saved_before_plays_the_opponent_on_without_waiting():
    s = game(1, seed=2)
    s.hold_opponent = False
    rng = random.Random(2)
    for _ in range(60):
        p = pending(s)
        if not p or s.phase != "play":
            break
        assert p[0]["kind"] != "opponent_done"
        apply(s, rng.choice(available(s, p[0]["who"]))["action"])


def test_R_BUILD_2_cycling_tells_the_payment_and_the_tiles_put_under():
    s = scenario(3, seed=3)
    give(s, 0, coins=9)
    grant(s, 0, "build")
    items = tap(s, 0, {"cycle": "workshops", "pay": "coins"})
    assert acts(items) == ["{who} returns {what} to the supply."]
    assert steps(items)[0] == "Put each face-up workshop face down under its stack: {tiles}."
    assert [it["moves"] for it in items if "step" in it][1:] == [[f"stack:workshops-{c}"] for c in CLASSES]


def test_C_18_a_move_that_changes_no_piece_tells_nothing():
    s = game(3, seed=3, ready=False)
    assert kind(s) == "table_ready"
    assert move(s, available(s, "host")[0]["action"]) == []


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_difference_of_every_move_of_the_coverage_sweep_is_told(players):
    """Done-when (issue 33): the games of CI's coverage sweep (every decision kind, both draw modes, solo,
    advanced, every policy and seeded start), after every move: every difference is covered by a line shown
    to the table (the host's moment, a checklist or the seat's phone), none left to the log alone."""
    moves = 0
    problems = []

    def check(before, after, items):
        nonlocal moves
        moves += 1
        for gap in uncovered(before, after, items):
            problems.append((after.round, after.phase, gap))
        for it in items:  # every item goes to a screen: a checklist, the host's moment, or its seat's phone
            line = it.get("act") or it.get("step")
            assert it["list"] is not None or not it.get("act", {}).get("estate") or line.get("seat") is not None

    for k in (k for k in KINDS if k.players == players):
        play_game(k.players, 1, k.advanced, k.priority_tile, k.draw, check=False, roundtrip=False,
                  choose=POLICIES[k.policy](random.Random(1)), catalog=CATALOG, position=STARTS[k.start],
                  on_told=check)
    assert moves > 1000
    assert not problems, problems[:5]
