"""The setup and upkeep lines say what the table does in the game's draw mode, for every player count (issue 33
items 4 and 7), checked sentence by sentence against the rulebook's setup and end-of-round chapters:

- when the companion draws (C-1, C-22), every line names the tile and where it goes, and none tells the table to
  shuffle, deal at random or pick any window: the companion chose, and names each hidden tile when it turns up;
- when the table draws, the line telling it to shuffle and deal comes before the host is asked what was dealt;
- solo (R-SOLO-2, R-SOLO-3): the opponent's counters only on the play-order indicator and the popularity
  register, your counter alone on the city and church registers and the scoring track, its lieutenants per
  round said at setup and at the upkeep into rounds IV and VI, spare tokens for b boards' single-use squares;
- advanced (R-ADV-1): colours and boards are handed out before anyone takes the pieces of their colour;
- no absent seat is named (R-SETUP-19: P3 and P4 only when they play)."""

from __future__ import annotations

import random
import re

import pytest

from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.engine.rulebook import SOLO_LIEUTENANTS
from scenario import CATALOG

#: words that send the table to chance, which the companion's draws never leave to it
CHANCE = re.compile(r"shuffl|at random|random|any window|any order", re.I)


def played(players: int, seed: int, until_round: int = 7, **options):
    """A seeded random game; returns the state and every host question asked, in log order: (log length when
    asked, the question)."""
    rng = random.Random(seed)
    state = new_game(options_for(players, **options), seed, CATALOG)
    asked = []
    while state.phase != "over" and state.round < until_round:
        q = pending(state)[0]
        if q["who"] == "host" and q["kind"] not in ("table_ready", "opponent_done"):  # the table's word (C-18, C-23)
            asked.append((len(state.log), q))
        apply(state, rng.choice([o for o in legal_actions(state, q["who"]) if o["available"]])["action"])
    return state, asked


def table_lines(state) -> list[dict]:
    """Every line told to the table so far: setup steps and each upkeep's report (the log keeps them all)."""
    return [e for e in state.log if (e.get("data") or {}).get("table")]


@pytest.mark.parametrize("players,advanced", [(1, False), (1, True), (2, False), (2, True), (3, False), (4, True)])
def test_C_22_when_the_companion_draws_no_line_leaves_anything_to_chance(players, advanced):
    """R-SETUP-2/3/6/7/8/9/10/11, R-NEXT-5/6/8, R-SOLO-2/5, R-ADV-1: a whole game's setup and upkeep lines."""
    for seed in (1, 7):
        state, asked = played(players, seed, advanced=advanced)
        assert state.phase == "over" and not asked, "the companion drew every tile"
        chance = [e["text"] for e in table_lines(state) if CHANCE.search(e["text"])]
        assert chance == []


def test_R_SETUP_2_9_11_the_companion_names_each_tile_and_where_it_goes():
    """The start city a hex a step, each on its marked space (R-SETUP-2); the three improvements, then the rest
    face down below them (R-SETUP-9); each workshop put face up on its own stack (R-SETUP-11); the wheel's window
    (R-SETUP-6)."""
    state, _ = played(3, 7, until_round=1)
    steps = state.setup_steps
    start = {t for t, h in state.hexes.items() if h.space.startswith("s")}
    deal = [s for s in steps if s["rule"] == "R-SETUP-2" and s.get("data", {}).get("space")]
    assert {s["data"]["tile"] for s in deal} == start and all("marked start space" in s["text"] for s in deal)
    assert sum("the B hex" in s["text"] for s in deal) == 1
    improvements = [s for s in steps if s["rule"] == "R-SETUP-9"]
    assert [s["data"].get("tile") for s in improvements[1:4]] == [st.up for st in state.improvements]
    assert "3 stacks of 4" in improvements[-1]["text"]
    workshops = [s for s in steps if s["rule"] == "R-SETUP-11" and s.get("data", {}).get("tile")]
    assert [s["data"]["tile"] for s in workshops] == [st.up for st in state.workshops.values()]
    assert all("face up on top of the" in s["text"] for s in workshops)
    (wheel,) = [s for s in steps if s["rule"] == "R-SETUP-6"]
    assert wheel["data"]["window"] == CATALOG.wheel[(state.wheel - 1) % len(CATALOG.wheel)].id


@pytest.mark.parametrize("players,advanced", [(1, True), (2, True), (3, False), (4, False)])
def test_C_1_when_the_table_draws_it_is_told_to_shuffle_and_deal_before_the_host_is_asked(players, advanced):
    """R-SETUP-2 (the city), R-SETUP-6 (the wheel), R-SETUP-17 (the play order), R-ADV-1 (colours and boards):
    the step that sends the table to chance is in the checklist before the host's question about its result."""
    state, asked = played(players, 3, until_round=2, advanced=advanced, draw="table")
    first_asked = {}
    for at, q in asked:
        first_asked.setdefault(q["rule"], at)
    expected = {"R-SETUP-2", "R-SETUP-6"} | ({"R-SETUP-17"} if players > 1 else set()) | \
        ({"R-ADV-1"} if advanced else set())
    assert expected <= set(first_asked)
    for rule in expected:
        told = [n for n, e in enumerate(state.log) if e.get("rule") == rule and (e.get("data") or {}).get("table")
                and CHANCE.search(e["text"])]
        assert told and told[0] < first_asked[rule], f"{rule}: the table is told to draw before the host is asked"


def test_R_SOLO_2_R_SOLO_3_solo_setup_registers_scoring_track_and_lieutenants():
    """R-SOLO-2: a 2-player set-up in which the opponent has counters only on the play-order indicator and the
    popularity register; your counter alone on the city and church registers and the scoring track. R-SOLO-3:
    3 opponent lieutenants in rounds I–III, 4 in IV–V, 5 in VI, said at setup."""
    state, _ = played(1, 4, until_round=1, advanced=True)
    steps = [s["text"] for s in state.setup_steps]
    said = " ".join(steps)
    assert "stack one counter of each player" not in said.lower(), "no line puts opponent counters on every register"
    (opponent,) = [s for s in steps if s.startswith("The virtual opponent plays")]
    assert "play-order indicator" in opponent and "popularity register" in opponent
    assert "none on the city and church registers or the scoring track" in opponent
    (registers,) = [s for s in steps if "space I of the popularity register" in s]
    assert "only your counter on space I of the city and church registers" in registers
    assert any("your counter on space 0 of the scoring track" in s for s in steps)
    assert any(f"{SOLO_LIEUTENANTS[0]} lieutenants in rounds I–III, {SOLO_LIEUTENANTS[3]} in rounds IV–V and "
               f"{SOLO_LIEUTENANTS[5]} in round VI" in s for s in steps)
    assert any("spare tokens" in s and "single-use square" in s for s in steps), "R-SOLO-2 / R-ADV-2 with b boards"
    plain, _ = played(1, 4, until_round=1)
    assert not any("single-use" in s["text"] for s in plain.setup_steps), "a boards have no single-use squares"


def test_R_SOLO_3_the_upkeep_into_rounds_IV_and_VI_adds_an_opponent_lieutenant():
    state, _ = played(1, 5)
    more = [(e["round"], e["text"]) for e in table_lines(state) if e.get("rule") == "R-SOLO-3" and "more" in e["text"]]
    assert more == [(4, "From round IV the opponent uses 4 lieutenants: put 1 more on its board."),
                    (6, "From round VI the opponent uses 5 lieutenants: put 1 more on its board.")]


@pytest.mark.parametrize("draw", ["app", "table"])
def test_R_ADV_1_colours_and_boards_are_handed_out_before_anyone_takes_their_pieces(draw):
    state, _ = played(2, 3, until_round=2, advanced=True, draw=draw)
    rules = [s["rule"] for s in state.setup_steps]
    boards = [n for n, r in enumerate(rules) if r == "R-ADV-1"]
    pieces = rules.index("R-SETUP-14")
    assert boards and max(boards) < pieces < rules.index("R-SETUP-15")
    for s, seat in zip([state.setup_steps[n] for n in boards if "plays" in state.setup_steps[n]["text"]],
                       state.seats):
        assert s["text"].startswith(f"{seat.name} plays {seat.colour}:") and "at random" not in s["text"]
    assert "player board" not in state.setup_steps[pieces]["text"], "the boards were handed out already"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_SETUP_19_names_no_absent_seat(players):
    """P3's counter sits on P1's and P4's on P2's only when those seats play."""
    state, _ = played(players, 2, until_round=1)
    (score,) = [s["text"] for s in state.setup_steps if s["rule"] == "R-SETUP-19"]
    for pos in range(1, 5):
        assert (f"P{pos}" in score) == (pos <= players), score
