"""Upkeep holds the table (issue 14, item 2; our ruling C-18): between two rounds the host works through the
upkeep checklist, and the next round's first turn waits until the host taps "the table is ready". Each
line of the checklist names whose pieces move."""

from __future__ import annotations

from companion.engine import legal_actions, pending, seat_view, table_view
from companion.engine import state_from_dict
from companion.engine.flow import MAIN, push, run
from companion.engine.view import whose_turn

from scenario import (CATALOG, add_workshop, answer_all, game, in_cabin, neighbourhoods, on_square, only_the_table_is_asked,
                      open_decisions, pick, report_with, set_round, squares_of, stand, to_upkeep, upkeep)
from scenario import bare, early_workshop


def test_C_18_R_NEXT_14_the_first_turn_of_round_II_waits_for_the_table():
    state = bare()
    to_upkeep(state)  # production, quarantine and every setup step of round II are done…
    assert state.round == 2 and state.phase == "upkeep"
    assert only_the_table_is_asked(state), "…and only the host's tap holds the first turn"
    assert whose_turn(state) is None
    for seat in range(3):
        view = seat_view(state, seat)
        assert view["menu"] == [] and view["upkeep"] == {"round": 2, "final": False, "ready": True}
    ask = open_decisions(state)[0]
    assert ask["who"] == "host" and ask["rule"] == "R-NEXT-14"
    assert state.report[-1]["rule"] == "R-NEXT-14", "the checklist ends with the play order it starts with"
    pick(state, "host", "ready")
    assert state.phase == "play" and table_view(state)["upkeep"] is None
    first = state.order[0]
    assert not open_decisions(state) and [d["who"] for d in _turns(state)] == [first]


def _turns(state):
    return [d for d in pending(state) if str(d["kind"]).startswith("turn")]


def test_C_18_phones_know_which_round_the_table_sets_up_while_seats_still_produce():
    """R-EOR-1: production comes before the round counter moves (R-NEXT-1): the round being set up is
    the next one all the same."""
    state = bare()
    cls = "nun"
    in_cabin(state, 0, 1, cls, space=2)  # leaves quarantine (R-CIT-3) with a choice of squares
    to_upkeep(state)
    assert [d["who"] for d in open_decisions(state)] == [0]
    assert state.round == 1
    assert seat_view(state, 1)["upkeep"] == {"round": 2, "final": False, "ready": False}


def test_C_18_after_round_VI_the_phones_wait_for_the_scoring_not_a_round():
    """R-END-1: round VI's production ends the game; there is no round VII to set up."""
    state = bare()
    set_round(state, 6)
    ws = early_workshop(state.catalog, needs_upgraded=False)
    add_workshop(state, 0, ws.id)
    on_square(state, 0, squares_of(state, 0, ws.cls)[0], ws.cls)  # may first move into the workshop (R-CIT-4)
    to_upkeep(state)
    assert [d["kind"] for d in open_decisions(state)] == ["production"]
    assert seat_view(state, 1)["upkeep"] == {"round": 7, "final": True, "ready": False}
    answer_all(state)
    assert state.phase == "over" and seat_view(state, 1)["upkeep"] is None


def test_C_18_a_game_saved_before_the_hold_plays_on_as_recorded():
    """A game whose log was recorded without the host's tap must replay to the same decisions."""
    state = bare()
    state.hold_upkeep = False
    upkeep(state)
    assert state.phase == "play" and not open_decisions(state)
    assert [d["who"] for d in _turns(state)] == [state.order[0]]


def test_C_18_solo_waits_for_the_table_too():
    """R-SOLO-4: the solo player also sets up the next round before its first turn."""
    state = game(1, 3)
    to_upkeep(state)
    while not only_the_table_is_asked(state):  # production questions, if any, come first
        d = open_decisions(state)[0]
        assert d["kind"] != "table_ready"
        pick(state, d["who"], next(o["value"] for o in d["options"] if o["available"]))
    pick(state, "host", "ready")
    assert state.phase == "play"


def test_R_CIT_3_each_quarantine_line_names_whose_citizen_in_which_cabin():
    state = bare()
    in_cabin(state, 0, 1, "nun", space=1)
    in_cabin(state, 2, 0, "aristocrat", space=2, upgraded=True)
    squares = squares_of(state, 2, "aristocrat")
    for sq in squares[1:]:
        on_square(state, 2, sq, "aristocrat")  # one free square: no question (C-10)
    upkeep(state)
    lines = [e["text"] for e in report_with(state, "R-CIT-3")]
    ada, chiara = state.seats[0].name, state.seats[2].name
    assert any(t.startswith(ada) and "nun in cabin 2" in t and "space I to space II" in t for t in lines), lines
    assert any(t.startswith(chiara) and "upgraded aristocrat in cabin 1, space II, leaves quarantine" in t
               for t in lines), lines
    assert all(e["data"]["seat"] in (0, 2) for e in report_with(state, "R-CIT-3"))


def test_R_NEXT_2_each_seat_lays_down_its_own_lieutenants():
    state = bare()
    hexes = neighbourhoods(state)
    stand(state, 0, hexes[0])
    stand(state, 1, hexes[1])
    stand(state, 1, hexes[2])
    upkeep(state)
    lay = report_with(state, "R-NEXT-2")
    assert [e["data"]["seat"] for e in lay] == [0, 1]
    assert lay[0]["text"].startswith(state.seats[0].name)
    assert lay[1]["data"]["places"] == [f"hex:{hexes[1]}", f"hex:{hexes[2]}"]


def test_C_18_round_I_waits_for_the_table_after_the_setup_steps():
    """Issue 25: after "new game" no seat is offered a turn until the host taps "the table is ready"; every
    phone knows the table is setting up and what its seat takes (R-SETUP-14…19)."""
    state = game(3, 5, ready=False)
    assert state.phase == "setup" and whose_turn(state) is None
    assert only_the_table_is_asked(state)
    ask = open_decisions(state)[0]
    assert ask["rule"] == "C-18" and ask["prompt"] == "Carry out the setup steps on the table, then start round I."
    assert [o["label"] for o in legal_actions(state, "host")] == ["The table is ready: start round I"]
    assert state.setup_steps[-1]["rule"] == "R-ROUND-2", "the checklist ends with round I's play order"
    for seat in range(3):
        view = seat_view(state, seat)
        assert view["menu"] == [] and view["setup"] == {"ready": True} and view["upkeep"] is None
        takes = view["takes"]
        assert takes["colour"] == state.seats[seat].colour and takes["side"] == "a"
        assert takes["board"] == f"board:{state.seats[seat].board}"
        assert [p["text"] for p in takes["pieces"]][:1] == ["5 lieutenants"]
        pos = state.order.index(seat)
        assert takes["start"][0]["text"] == f"Play order: P{pos + 1}"
    assert table_view(state)["setup_open"] and table_view(state)["table_round"] == 1
    pick(state, "host", "ready")
    assert state.phase == "play" and seat_view(state, 0)["setup"] is None and seat_view(state, 0)["takes"] is None
    assert [d["who"] for d in _turns(state)] == [state.order[0]]
    assert not table_view(state)["setup_open"]


def test_C_18_round_I_of_an_advanced_table_draw_game_asks_the_draws_first():
    """R-ADV-1, C-1: the colours and boards come out of the table's draws before the hold; until then a
    phone does not claim a colour."""
    state = game(2, 5, ready=False, advanced=True, draw="table")
    assert open_decisions(state)[0]["kind"] == "reveal"
    assert seat_view(state, 0)["takes"]["colour"] is None and seat_view(state, 0)["takes"]["side"] == "b"
    while not only_the_table_is_asked(state):
        d = open_decisions(state)[0]
        assert d["who"] == "host" and d["kind"] == "reveal", "no seat is asked before the table is ready"
        pick(state, "host", next(o["value"] for o in legal_actions(state, "host") if o["available"]))
    assert seat_view(state, 0)["takes"]["colour"] == state.seats[0].colour


def test_C_18_a_game_saved_before_round_Is_hold_starts_its_turns_at_once():
    """Games saved before issue 25 (no `hold_setup`) replay as recorded: round I's turns begin after setup."""
    data = game(3, 5, ready=False).to_dict()
    del data["hold_setup"]
    old = state_from_dict(data, CATALOG)
    assert old.hold_setup is False
    old.lanes = {}  # round I's setup done again, as a game saved before the hold ran it
    push(old, MAIN, {"do": "begin_round"})
    run(old)
    assert old.phase == "play" and [d["who"] for d in _turns(old)] == [old.order[0]]
