"""Table draws (C-1): the host taps the picture of what came up, and every candidate a question offers has a
caption of its own (issue 25 item 7): before, three wheel windows all read "window with the rat on the
right" (R-SETUP-6)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.catalog import shipped_catalog
from companion.engine import new_game, options_for
from companion.engine.describe import hex_text, scroll_board_text, tile_text
from companion.simulate import play_game


def test_R_SETUP_6_each_wheel_window_has_its_own_caption():
    state = new_game(options_for(3, draw="table"), 1, shipped_catalog())
    captions = [tile_text(state, w.id) for w in state.catalog.wheel]
    assert len(set(captions)) == len(captions), captions
    w = state.catalog.wheel[1]  # R-R1-2's example window: left rat; orange nun, white craftsman, blue aristocrat
    assert tile_text(state, w.id) == ("window with the rat on the left (orange: nun, white: craftsman, "
                                      "blue: aristocrat, red: nothing)")


def test_C_1_every_component_a_draw_can_offer_is_captioned_apart_from_its_family():
    state = new_game(options_for(3), 1, shipped_catalog())
    c = state.catalog
    families = {"hexes": [hex_text(state, h) for h in c.hexes], "boats": [tile_text(state, b) for b in c.boats],
                "improvements": [tile_text(state, i) for i in c.improvements],
                "workshops": [tile_text(state, w) for w in c.workshops],
                "wagons": [tile_text(state, w) for w in c.wagons],
                "docking tiles": [tile_text(state, d) for d in c.docking_tiles],
                "wheel windows": [tile_text(state, w.id) for w in c.wheel],
                "solo tiles": [tile_text(state, s) for s in c.solo_tiles],
                "b scroll boards": [scroll_board_text(state, b) for b in c.scroll_boards
                                    if c.scroll_boards[b].side == "b"]}
    for family, captions in families.items():
        alike = [k for k, n in Counter(captions).items() if n > 1]
        assert not alike, f"{family}: {alike}"


@pytest.mark.parametrize("players,seed,advanced", [(1, 2, False), (2, 3, True), (4, 4, False)])
def test_C_1_no_question_of_a_table_draw_game_offers_two_candidates_alike(players, seed, advanced):
    asked = []

    def look(state, question, menu, picked, events):
        if question["kind"] == "reveal":
            labels = [o["label"] for o in menu]
            asked.append(question["prompt"])
            assert len(set(labels)) == len(labels), (question["prompt"], labels)

    play_game(players, seed, draw="table", advanced=advanced, check=False, on_decision=look)
    assert "Which window of the population wheel is showing?" in asked
