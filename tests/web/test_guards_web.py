"""Guard rails on the screens (issue 33 items 6 and 9), through the test client: "the table is ready" is the
host's button only once every step of the checklist is ticked, before that a quieter "start without finishing
the checklist" asks first and says how many steps are left (C-18), and the confirm is a form that works
without a script; "End your turn" with an earned action unused asks first, naming what lapses in the engine's
words (R-TURN-ACT-2); a phone's own undo confirms with a button, not a box; a rescued citizen's square shows
its face (R-TURN-RESCUE-2); the score sheet carries bars laid out for a phone."""

from __future__ import annotations

import copy
import random
import re

from companion.catalog import shipped_catalog
from companion.engine import legal_actions, pending
from companion.scoresheet import read_position
from companion.web.score.form import sheet_query
from sheets import SHEETS

from tables import create, store_until, translated_app
from test_table_ready_web import host_page, phone_page, to_the_hold
from test_ticks import tick

CONFIRM = "Start without finishing the checklist"


def section(page: str, rid: str) -> str:
    """One live region of a page, by its id."""
    start = page.index(f'id="{rid}"')
    return page[start:page.index("</section>", start)]


def fields(form: str) -> dict:
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_C_18_the_table_is_ready_waits_behind_a_confirm_until_every_setup_step_is_ticked(client):
    game = create(client, ready=False)
    steps = client.get(f"/api/games/{game['id']}/state",
                       headers={"X-Host-Token": game["host_token"]}).get_json()["state"]["setup_steps"]
    decide = section(host_page(client, game), "decide")
    assert "The table is ready" not in decide and CONFIRM in decide
    assert f"{len(steps)} steps of the checklist are not ticked yet. Start anyway?" in decide
    tick(client, game, "setup", 1)
    assert f"{len(steps) - 1} steps of the checklist are not ticked yet" in section(host_page(client, game), "decide")
    for step in range(2, len(steps)):
        tick(client, game, "setup", step)
    decide = section(host_page(client, game), "decide")
    assert "1 step of the checklist is not ticked yet. Start anyway?" in decide
    tick(client, game, "setup", len(steps))
    decide = section(host_page(client, game), "decide")
    assert CONFIRM not in decide and re.search(r'<button type="submit" class="option"[^>]*>\s*<span class="label">'
                                               r'The table is ready: start round I</span>', decide)
    assert "Every step is done" in section(host_page(client, game), "moment")


def test_C_18_starting_without_finishing_is_a_plain_form_that_works_without_a_script(client):
    game = create(client, ready=False)
    decide = section(host_page(client, game), "decide")
    form = decide[decide.index('<details class="start-anyway">'):]
    assert "<script" not in decide and "onclick" not in decide
    r = client.post(f"/host/{game['id']}/decide", data=fields(form))
    assert r.status_code == 302  # a browser without scripts follows it back to the host screen
    st = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    assert st["phase"] == "play"


def test_C_18_the_upkeep_waits_behind_the_same_confirm_counting_its_own_steps(client):
    game = create(client)
    to_the_hold(client, game)
    tick(client, game, "upkeep-2", 1)
    page = host_page(client, game)
    count = int(re.search(r"Step \d+ of (\d+)", page).group(1))  # the steps to tick: the twin's acts too
    decide = section(page, "decide")
    assert "The table is ready" not in decide and CONFIRM in decide
    assert f"{count - 1} steps of the checklist are not ticked yet" in decide


def _action_step_with_rights(state) -> bool:
    asked = pending(state)
    return bool(asked) and asked[0]["kind"] == "action_step" and bool(state.rights)


def test_R_TURN_ACT_2_end_your_turn_with_an_earned_action_unused_asks_first_naming_what_lapses(client):
    game = create(client)
    store = client.application.extensions["store"]
    found = store_until(store, game["id"], _action_step_with_rights, random.Random(2))
    assert found is not None
    seat = pending(found.state)[0]["who"]
    menu = legal_actions(found.state, seat)
    end = next(i for i, o in enumerate(menu) if o["value"] == {"act": "end"})
    page = section(phone_page(client, game, seat), "menu")
    ask = page[page.index('<details class="confirm-option">'):page.index("</details>")]
    assert "End your turn" in ask and menu[end]["lapses"] in ask and "R-TURN-ACT-2" in ask
    assert fields(ask)["choice"] == str(end)  # the confirm sends the engine's own option
    assert "Yes: End your turn" in ask
    assert not re.search(r'<button type="submit" class="option[^"]*"[^>]*>\s*<span class="label">End your turn', page)
    api = client.get(f"/api/seats/{game['seats'][seat]['token']}/menu",
                     headers={"X-Seat-Device": game["seats"][seat]["device"]}).get_json()
    assert api["menu"][end]["lapses"] == menu[end]["lapses"]


def test_R_TURN_ACT_2_the_lapsing_words_in_french_and_german(tmp_path):
    app = translated_app(tmp_path)
    client = app.test_client()
    game = create(client)
    found = store_until(app.extensions["store"], game["id"], _action_step_with_rights, random.Random(2))
    seat = pending(found.state)[0]["who"]
    for lang, words in (("fr", ("lapses unused", "perdue", "Oui : Terminer votre tour")),
                        ("de", ("lapses unused", "verf", "Ja: Zug beenden"))):
        client.set_cookie("lang", lang)
        ask = section(phone_page(client, game, seat), "menu")
        english, said, confirm = words
        assert english not in ask and said in ask and confirm in ask, lang


def test_a_phones_own_undo_confirms_with_a_button_not_a_box(client):
    game = create(client)
    store = client.application.extensions["store"]
    turn = store_until(store, game["id"], lambda st: pending(st)[0]["kind"] == "turn", random.Random(1))
    seat = pending(turn.state)[0]["who"]
    menu = legal_actions(turn.state, seat)
    store.act(game["id"], turn.version, seat, menu[0]["action"]["decision"],
              next(i for i, o in enumerate(menu) if o["available"]))
    undo = section(phone_page(client, game, seat), "seat_undo")
    assert 'type="checkbox"' not in undo
    assert '<input type="hidden" name="confirm" value="yes">' in undo
    assert re.search(r'<summary class="option">↶ Take back your last act</summary>', undo)
    assert '<button type="submit" class="big confirm">Yes, take it back</button>' in undo


def test_R_TURN_RESCUE_2_a_rescued_citizens_square_choice_shows_each_square_on_the_phone(client):
    game = create(client)
    store = client.application.extensions["store"]

    def rescue_to_a_square(state) -> bool:
        asked = pending(state)
        return bool(asked) and asked[0]["kind"] == "rescue" and any(
            (o.get("face") or {}).get("family") == "square" for o in legal_actions(state, asked[0]["who"]))

    found = store_until(store, game["id"], rescue_to_a_square, random.Random(3))
    assert found is not None
    seat = pending(found.state)[0]["who"]
    page = section(phone_page(client, game, seat), "menu")
    options = len(legal_actions(found.state, seat))
    assert page.count('class="option pictured"') == options
    assert page.count('data-family="square"') == options


def test_the_score_sheet_draws_its_bars_for_a_phone_too_and_the_host_once(client):
    position = read_position(copy.deepcopy(SHEETS["2p popularity tie broken by fire (R-SCORE-2)"]["position"]),
                             shipped_catalog())
    page = client.get("/score?" + sheet_query(position)).get_data(as_text=True)
    assert 'class="bars bars-wide"' in page and 'class="bars bars-narrow"' in page
    assert re.search(r'<svg [^>]*class="scoring narrow"', page)
    css = client.get("/static/score.css").get_data(as_text=True)
    assert re.search(r"@media screen and \(max-width: 700px\) \{ \.sheet-result \.bars-wide \{ display:none; \}", css)
