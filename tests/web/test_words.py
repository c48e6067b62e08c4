"""Words on the screens (issue 14, item 7): the advanced game's colour draw explained on the new-game
form, rule ids kept whole on one line, and a finished game's result where the phone shows it."""

from __future__ import annotations

import re
from pathlib import Path

from flask import render_template

from companion.engine.pieces import Pieces
from companion.engine import legal_actions, seat_view
from companion.simulate import play_game
from companion.web import create_app
from scenario import grant, scenario

ROOT = Path(__file__).resolve().parents[2]


def test_R_ADV_1_the_new_game_form_explains_the_advanced_colour_draw(tmp_path):
    page = create_app({"INSTANCE": str(tmp_path), "TESTING": True}).test_client().get("/").get_data(as_text=True)
    hint = re.search(r'<p class="hint" id="advanced-colours">(.*?)</p>', page, re.S)
    assert hint and "colour at random" in hint.group(1) and "b side" in hint.group(1)
    assert '<a class="rule" href="/rules#R-ADV-1">R-ADV-1</a>' in hint.group(1)
    assert page.index('name="advanced"') < hint.start()  # beside the box it explains


def test_a_rule_id_never_breaks_across_lines():
    css = (ROOT / "static" / "app.css").read_text()
    rules = [body for sel, body in re.findall(r"([^{}]+)\{([^}]*)\}", css) if sel.strip() == ".rule"]
    assert any("white-space:nowrap" in body.replace(" ", "") for body in rules)
    option = (ROOT / "templates" / "partials" / "_option.html").read_text()
    assert '{{ opt.rule|rule_links }}' in option


def test_after_game_over_the_phone_marks_its_result_to_scroll_to(tmp_path):
    played = play_game(2, seed=3)
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True})
    view = seat_view(played.state, 0)
    with app.test_request_context("/"):
        html = render_template("seat/_seat_status.html", view=view, pieces=Pieces(played.state), menu=view["menu"],
                               version=1, part_url=lambda n: "/part/" + n)
    assert view["over"] and re.search(r'<div class="seat-result" id="result" data-scroll-once>', html)
    assert 'querySelector("[data-scroll-once]")' in (ROOT / "static" / "app.js").read_text()


def test_R_ACT_2_a_reward_choice_says_take_for_things_and_the_action_for_actions():
    s = grant(scenario(), 0, "1 coin or 2 lumber or build")
    labels = [o["label"] for o in legal_actions(s, 0)]
    assert labels == ["Take 1 coin", "Take 2 lumber", "build"]
    assert legal_actions(s, 0)[0]["label_msg"] == "Take {reward}"
