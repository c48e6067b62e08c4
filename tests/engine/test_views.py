"""What a seat's phone and the host's screen are given (engine/view.py): plain JSON data, the seat's own
question and menu, the spots on the map it can tap (from each option's explicit `place`), the facts the
templates used to work out, and the same answers at every step of whole games."""

from __future__ import annotations

import json

import pytest

from companion.catalog import shipped_catalog
from companion.engine import apply, legal_actions, pending, seat_view, table_view
from companion.engine.rulebook import REPOPULATION_TILES
from companion.engine.state import Place
from companion.engine.view import OPPONENT_RULES
from companion.simulate import play_game

from scenario import game, repopulate, scenario, stand, turn_for

A, B, C = 0, 1, 2


def plain(value):
    return json.loads(json.dumps(value))


def test_a_seat_sees_its_own_turn_menu_and_where_it_can_tap():
    s = scenario()
    taken = sorted(s.hexes)[0]
    stand(s, B, taken)
    turn_for(s, A)
    (q,) = pending(s)
    mine = seat_view(s, A)
    assert mine["your_turn"] and mine["turn"] == A and mine["question"] == q and mine["decision"] == q["id"]
    menu = legal_actions(s, A)
    assert [o["choice"] for o in mine["menu"]] == list(range(len(menu)))
    assert [o["label"] for o in mine["menu"]] == [o["label"] for o in menu]
    # R-TURN-MOVE-4: a hex with a standing figure is on the menu, greyed, but not a spot to tap
    assert f"hex:{taken}" not in mine["targets"]
    for place, target in mine["targets"].items():
        opt = mine["menu"][target["choice"]]
        assert opt["available"] and opt["place"] == place and target.get("cost") == opt.get("cost")
        where = Place.of(place)
        assert where.at in (s.hexes if where.kind == "hex" else s.docks)
    spots = {o["place"] for o in mine["menu"] if o["available"] and o.get("place")}
    assert set(mine["targets"]) == spots and len(spots) > 3
    other = seat_view(s, B)
    assert not other["your_turn"] and other["question"] is None and other["menu"] == [] and other["targets"] == {}
    assert other["waiting_for"] == [s.seats[A].name]


def test_R_COMP_3_repopulation_tiles_left_are_counted_once_for_every_screen():
    s = scenario()
    hexes = sorted(t for t in s.hexes if t in s.catalog.hexes)[:2]
    for tile in hexes:
        repopulate(s, tile, B)
    assert seat_view(s, B)["estate"]["repopulation_tiles_left"] == REPOPULATION_TILES - 2
    assert seat_view(s, A)["estate"]["repopulation_tiles_left"] == REPOPULATION_TILES
    assert [x["repopulation_tiles_left"] for x in table_view(s)["seats"]] == [
        REPOPULATION_TILES, REPOPULATION_TILES - 2, REPOPULATION_TILES]


def test_a_seats_estate_in_plain_words():
    s = scenario()
    s.seats[A].coins, s.seats[A].deferred = 4, ["coin"]
    stand(s, A, sorted(s.hexes)[0])
    estate = seat_view(s, A)["estate"]
    assert estate["coins"] == 4 and estate["deferred"] == ["coin"]
    kinds = [lt["kind"] for lt in estate["lieutenants"]]
    assert kinds.count("hex") == 1 and kinds.count("supply") == 2
    on_hex = next(lt for lt in estate["lieutenants"] if lt["kind"] == "hex")
    assert on_hex["used"] and on_hex["name"] == s.catalog.tile(on_hex["at"]).name
    board = s.catalog.scroll_boards[s.seats[A].scroll_board]
    assert [(x["track"], x["top"]) for x in estate["scroll"]] == [(t.id, t.top) for t in board.tracks]


def test_C_18_the_setup_checklist_is_open_until_the_table_is_ready():
    s = game(2, seed=3, draw="table", ready=False)
    while pending(s)[0]["kind"] != "table_ready":  # the host's reveals of the table draws
        assert table_view(s)["setup_open"] and table_view(s)["phones_open"] and table_view(s)["setup"]
        q = pending(s)[0]
        apply(s, next(o for o in legal_actions(s, q["who"]) if o["available"])["action"])
    assert table_view(s)["setup"] == {"ready": True} and table_view(s)["setup_open"]
    apply(s, legal_actions(s, "host")[0]["action"])
    assert not table_view(s)["setup_open"] and table_view(s)["phones_open"] and table_view(s)["setup"] is None


def test_the_setup_checklist_of_a_game_saved_before_the_hold_closes_after_three_questions():
    """Games saved before round I's hold (no `hold_setup`) keep the checklist they were played with."""
    s = game(2, seed=3, draw="table", ready=False)
    s.hold_setup = False
    assert table_view(s)["setup_open"] and table_view(s)["phones_open"]
    for _ in range(3):
        q = pending(s)[0]
        apply(s, next(o for o in legal_actions(s, q["who"]) if o["available"])["action"])
    assert not table_view(s)["setup_open"] and table_view(s)["phones_open"]


def _check(state) -> None:
    """What every screen is given at one moment: plain data, agreeing with the state and the menus."""
    table = table_view(state)
    assert plain(table) == table
    asked = {q["who"]: q for q in pending(state)}
    assert table["questions"] == list(asked.values())
    assert [x["waiting"] for x in table["seats"]] == [i in asked for i in range(len(state.seats))]
    for i in range(len(state.seats)):
        view = seat_view(state, i)
        assert plain(view) == view
        assert view["question"] == asked.get(i)
        assert len(view["menu"]) == len(legal_actions(state, i))
        assert view["your_turn"] == (view["turn"] == i)
        repopulated = sum(1 for h in state.hexes.values() if h.repopulated_by == i)
        assert view["estate"]["repopulation_tiles_left"] == REPOPULATION_TILES - repopulated
    if state.opponent is not None:
        moves = table["opponent"]["moves"]
        assert all(e["rule"] in OPPONENT_RULES and e["round"] == state.round for e in moves)
    if state.scoring:
        assert table["winners"] == [state.seats[i].name for i in state.scoring["winners"]]


@pytest.mark.slow
@pytest.mark.parametrize("players, seed, options", [(1, 3, {}), (3, 7, {"advanced": True}),
                                                     (4, 2, {"draw": "table", "priority_tile": True})])
def test_every_screen_gets_plain_consistent_data_through_whole_games(players, seed, options):
    seen = {"opponent": 0}

    def look(state, question, menu, picked, events):
        _check(state)
        seen["opponent"] += bool(state.opponent and table_view(state)["opponent"]["moves"])

    played = play_game(players, seed, on_decision=look, check=False, catalog=shipped_catalog(), **options)
    assert played.state.phase == "over"
    if players == 1:
        assert seen["opponent"]  # the solo opponent's moves were shown
