"""Long menus stay short (issue 14, item 6): the movement menu shows what a seat can choose first, by
kind (hexes, docks, recall), and folds the greyed options behind "not possible now (n)"; the option
indexes a tap sends are the engine's, unchanged."""

from __future__ import annotations

import re

import pytest
from flask import render_template

from companion.engine.pieces import Pieces
from companion.engine import seat_view
from companion.web import create_app
from companion.web.menus import LONG, arranged
from scenario import scenario, stand, turn_for

A, B = 0, 1


def _same(s: str) -> str:
    return s


@pytest.fixture
def movement():
    """A's movement menu (hexes, boats at the docks, recall) with three hexes taken by B's standing
    lieutenants (R-TURN-MOVE-4): some options greyed, some not."""
    s = scenario(docks=False)
    for tile in sorted(s.hexes)[:3]:
        stand(s, B, tile)
    turn_for(s, A)
    return s


def test_R_TURN_MOVE_1_the_engine_names_each_movement_option_s_kind(movement):
    menu = seat_view(movement, A)["menu"]
    kinds = [o["group"] for o in menu]
    assert set(kinds) == {"hexes", "docks", "recall"}
    assert all(o["group"] == "hexes" for o in menu if o["value"]["go"] == "hex")
    assert all(o["group"] == "docks" for o in menu if o["value"]["go"] == "dock")
    assert [o["value"] for o in menu if o["group"] == "recall"] == [{"go": "recall"}]


def test_choosable_options_come_first_by_kind_and_the_greyed_fold(movement):
    menu = seat_view(movement, A)["menu"]
    assert len(menu) > LONG and any(not o["available"] for o in menu)
    shown = arranged(menu, _same)
    order = [o for _, opts in shown["groups"] for o in opts] + shown["folded"]
    assert sorted(o["choice"] for o in order) == list(range(len(menu)))  # every option once, index kept
    first_greyed = next(i for i, o in enumerate(order) if not o["available"])
    assert all(o["available"] for o in order[:first_greyed]) and not any(o["available"] for o in order[first_greyed:])
    heads = [h for h, _ in shown["groups"]]
    kinds = [opts[0]["group"] for _, opts in shown["groups"]]
    assert kinds == [k for k in ("hexes", "docks", "recall") if k in kinds] and all(heads)
    assert shown["fold"] and len(shown["folded"]) == sum(not o["available"] for o in menu)


def test_a_short_menu_shows_its_greyed_options_unfolded():
    menu = [{"choice": 0, "available": False, "label": "a"}, {"choice": 1, "available": True, "label": "b"}]
    shown = arranged(menu, _same)
    assert shown["groups"] == [(None, [menu[1]])] and shown["folded"] == [menu[0]] and not shown["fold"]


def test_the_phone_s_menu_puts_the_choosable_first_and_sends_the_engine_s_indexes(movement, tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True})
    view = seat_view(movement, A)
    with app.test_request_context("/"):
        html = render_template("seat/_menu.html", pieces=Pieces(movement), view=view, menu=view["menu"],
                               question=view["question"], decision=view["decision"], post_url="/tap",
                               part_url=lambda n: "/part/" + n, csrf="x", version=0)
    greyed = sum(not o["available"] for o in view["menu"])
    assert f"not possible now ({greyed})" in html and html.count("<details") == 1
    before, folded = html.split("<details", 1)
    greyed_button = re.compile(r'<button[^>]*class="option[^"]*greyed')
    assert not greyed_button.search(before) and len(greyed_button.findall(folded)) == greyed
    sent = [int(c) for c in re.findall(r'name="choice" value="(\d+)"', html)]
    assert sorted(sent) == list(range(len(view["menu"])))
    assert [view["menu"][c]["available"] for c in sent] == sorted((o["available"] for o in view["menu"]), reverse=True)
