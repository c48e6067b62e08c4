"""Undo tells the table what to put back (issue 14 item 3): engine/put_back/ compares the game before an
undo with the game after its replay and says every difference the table can see, in printed terms."""

from __future__ import annotations

import random

import pytest
from babel.messages.pofile import read_po

from companion.catalog import default_catalog
from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.engine.twin import NOTHING, changes, put_back, undone_log
from tables import IDS, WORD
from tables import JOINED, POT, templates_in


def played(players: int, seed: int, steps: int = 400, **options) -> list:
    """Every state of a seeded random game, one per decision (the first is the new game)."""
    rng = random.Random(seed)
    state = new_game(options_for(players, **options), seed, default_catalog())
    states = [state.clone()]
    while state.phase != "over" and len(states) <= steps:
        menu = legal_actions(state, pending(state)[0]["who"])
        apply(state, rng.choice([o for o in menu if o["available"]])["action"])
        states.append(state.clone())
    return states


def first(states: list, test) -> int:
    """The index of the first state reached by a decision for which `test(before, after)` holds."""
    return next(i for i in range(1, len(states)) if test(states[i - 1], states[i]))


GAMES = [(1, 11, {}), (2, 12, {}), (3, 13, {}), (4, 14, {}), (3, 15, {"advanced": True}),
         (2, 16, {"priority_tile": True}), (4, 17, {"advanced": True})]


@pytest.mark.parametrize("players,seed,options", GAMES)
def test_every_difference_is_named_and_no_id_is_shown(players, seed, options):
    """Undo 1..3 decisions at random points of whole games: every difference between the pieces before
    and after is said by at least one line, no line names an internal id, and the log after the replay
    is the log before with the undone entries cut off."""
    states = played(players, seed, 900, **options)
    rng = random.Random(seed)
    differences = 0
    with POT.open("rb") as f:
        extracted = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(f) if m.id}
    for _ in range(40):
        i = rng.randrange(4, len(states))
        before, after = states[i], states[i - rng.randint(1, 3)]
        for key, lines in changes(before, after):
            assert lines, f"{key} differs but no line says so"
            differences += 1
        for ln in put_back(before, after):
            shown = {w for w in WORD.findall(ln["text"])} & IDS
            assert not shown, (ln["text"], shown)
            missing = [m for m in templates_in(ln) if m not in extracted and not JOINED.match(m)]
            assert not missing, f"not in messages.pot (translatable): {missing}"
        kept, gone = undone_log(before, after)
        assert after.log == before.log[:kept] and before.log[kept:] == gone
    assert differences > 40


def test_an_undo_with_no_physical_effect_says_so():
    """A decision that moves nothing on the table (a choice that only opens the next question) is undone
    with one line that says there is nothing to put back."""
    states = played(3, 21)
    i = first(states, lambda b, a: not changes(b, a))
    assert put_back(states[i], states[i - 1]) == [{"seat": None, "text": str(NOTHING), "msg": NOTHING.msg,
                                                   "args": {}}]


def test_a_lieutenant_stood_on_a_hex_goes_back_and_is_marked():
    """R-TURN-1 / R-TURN-MOVE-2: a turn stands a lieutenant on a hex; undone, the seat takes it back from
    that hex (marked on the map, named by its colour and rat, never by id)."""
    states = played(3, 22)
    i = first(states, lambda b, a: any(lt.where.startswith("hex:") and lt.used for s in a.seats
                                       for lt in s.lieutenants) and b.phase == "play")
    lines = put_back(states[i], states[i - 1])
    lt = next(ln for ln in lines if "take the lieutenant standing on the marked" in ln["text"])
    seat = lt["seat"]
    assert lt["text"].startswith(states[i].seats[seat].name)
    assert any(p.startswith("hex:") for p in lt["places"])
    assert "hex" in lt["text"] or "harbor" in lt["text"]


def test_a_recall_gives_back_its_coin():
    """R-TURN-RECALL-1: a recall stands the lieutenant beside the board and gives 1 coin; its undo says
    that seat gives back 1 coin and where the lieutenant goes back to."""
    states = played(2, 20)
    i = first(states, lambda b, a: any("recalls a lieutenant" in e["text"] for e in a.log[len(b.log):]))
    texts = [ln["text"] for ln in put_back(states[i], states[i - 1])]
    who = next(t.split(" returns")[0] for t in texts if "returns 1 coin to the supply." in t)
    assert any(t.startswith(f"{who}: take the lieutenant standing beside the board") for t in texts)


def test_a_citizen_rescued_into_quarantine_goes_back_to_its_hex():
    """R-CIT-1 / R-CIT-3: a citizen rescued from a plagued hex enters quarantine space I; undone, it goes
    from that cabin space back onto the marked hex."""
    states = played(3, 24)
    i = first(states, lambda b, a: any(c.citizen and c.space == 1 for s in a.seats for c in s.cabins) and
              sum(len(h.citizens) for h in a.hexes.values()) < sum(len(h.citizens) for h in b.hexes.values()))
    moved = [ln for ln in put_back(states[i], states[i - 1]) if ", space I: put it on the marked" in ln["text"]]
    assert moved and all(p.startswith("hex:") for ln in moved for p in ln["places"])


def test_drawn_tiles_go_back_on_top_of_their_stack():
    """R-NEXT: a new round draws boats from the boat stacks; undoing into the previous round puts them back
    face down on top of their stack and turns the round counter back."""
    states = played(3, 25, 2000)
    i = first(states, lambda b, a: a.round == b.round + 1)
    texts = [ln["text"] for ln in put_back(states[i], states[i - 1])]
    assert f"Move the round counter to round {'I' * states[i - 1].round}." in texts
    assert any(t.startswith("Put face down on top of the boat stack with back") for t in texts)


def test_lines_are_grouped_game_first_then_by_seat_in_play_order():
    states = played(4, 26)
    i = first(states, lambda b, a: len({ln["seat"] for ln in put_back(a, b)}) >= 2)
    seats = [ln["seat"] for ln in put_back(states[i], states[i - 1])]
    order = [None] + list(states[i - 1].order)
    assert seats == sorted(seats, key=order.index)
