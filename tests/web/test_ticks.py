"""The host's ticks are kept (issue 25 item 5): setup and upkeep ticks are stored with the game, survive a
reload and a second host tab, go into the export, move no version and no undo; the header's round follows the
table (round I's upkeep is round I, C-18); nothing unticked remains after game over."""

from __future__ import annotations

import random
import re

from companion.engine import table_view
from companion.store.ticks import words_of

from scenario import game as new_state, to_upkeep
from tables import api_table_ready, create, drive
from test_table_ready_web import host_page, phone_page, to_the_hold

HOST_CSRF = re.compile(r'id="csrf" name="csrf" value="([^"]+)"')


def tick(client, game, checklist: str, step: int, on: bool = True, words: str | None = None, hx=True):
    page = host_page(client, game)
    csrf = HOST_CSRF.search(page).group(1)
    if words is None:
        words = re.search(rf'"list": "{checklist}", "step": {step}, "words": "([0-9a-f]+)"', page).group(1)
    data = {"csrf": csrf, "list": checklist, "step": step, "words": words, **({"on": "1"} if on else {})}
    return client.post(f"/host/{game['id']}/tick", data=data, headers={"HX-Request": "true"} if hx else {})


def boxes(page: str, checklist: str) -> dict[int, bool]:
    """{step: ticked} of a checklist's boxes on a host page."""
    out = {}
    for m in re.finditer(r'<input type="checkbox" id="(%s)-(\d+)"[^>]*>' % re.escape(checklist), page):
        out[int(m.group(2))] = " checked" in m.group(0)
    return out


def version(client, game) -> int:
    return client.get(f"/api/games/{game['id']}/version").get_json()["version"]


def test_C_18_a_setup_tick_is_kept_with_the_game_and_moves_no_version(client):
    app = client.application
    game = create(client, ready=False)
    assert boxes(host_page(client, game), "setup") and not any(boxes(host_page(client, game), "setup").values())
    v = version(client, game)
    r = tick(client, game, "setup", 3)
    assert r.status_code == 204
    assert version(client, game) == v, "a tick is no move: a phone's open menu stays good"
    assert boxes(host_page(client, game), "setup")[3] is True  # a reload shows it
    other = app.test_client()  # a second host tab, by the host's key
    page = other.get(f"/host/{game['id']}", headers={"X-Host-Token": game["host_token"]}).get_data(as_text=True)
    assert boxes(page, "setup")[3] is True and not boxes(page, "setup")[2]
    export = client.get(f"/host/{game['id']}/export.json", headers={"X-Host-Token": game["host_token"]}).get_json()
    assert [(t["list"], t["step"]) for t in export["ticks"]] == [("setup", 3)]
    assert tick(client, game, "setup", 3, on=False).status_code == 204
    assert boxes(host_page(client, game), "setup")[3] is False


def test_a_tick_is_news_for_the_other_host_screens_but_not_for_the_phones(client):
    game = create(client, ready=False)
    page = host_page(client, game)
    question = re.search(r'hx-get="([^"]*/news\?[^"]*)"', page).group(1).replace("&amp;", "&")
    assert "&t=0" in question and client.get(question).status_code == 204
    tick(client, game, "setup", 1)
    r = client.get(question)
    assert r.status_code == 200 and "&amp;t=1" in r.get_data(as_text=True)
    assert boxes(r.get_data(as_text=True), "setup")[1] is True
    token = game["seats"][0]["token"]
    phone_page(client, game, 0)
    v = version(client, game)
    assert client.get(f"/seat/{token}/news?v={v}").status_code == 204


def test_undo_never_takes_a_tick_back_and_a_changed_step_is_not_ticked(client):
    """A tick belongs to the step's words: undo leaves the ticks alone; a step the undo changed (a table draw
    entered again) shows unticked."""
    game = create(client, ready=False)
    tick(client, game, "setup", 1)
    tick(client, game, "setup", 2, words="0" * 16)  # ticked when step 2 said something else
    page = host_page(client, game)
    assert boxes(page, "setup")[1] is True and boxes(page, "setup")[2] is False
    api_table_ready(client, game)
    csrf = HOST_CSRF.search(host_page(client, game)).group(1)
    r = client.post(f"/host/{game['id']}/undo", data={"csrf": csrf, "version": version(client, game), "count": 1,
                                                      "confirm": "yes"}, headers={"X-Host-Token": game["host_token"]})
    assert r.status_code in (204, 302)
    assert boxes(host_page(client, game), "setup")[1] is True, "undo takes back acts, never the host's ticks"


def test_a_bad_tick_is_refused_and_changes_nothing(client):
    app = client.application
    game = create(client, ready=False)
    csrf = HOST_CSRF.search(host_page(client, game)).group(1)
    url = f"/host/{game['id']}/tick"
    for data in ({"list": "setup", "step": "x", "words": "0" * 16}, {"list": "log", "step": 1, "words": "0" * 16},
                 {"list": "setup", "step": 0, "words": "0" * 16}, {"list": "setup", "step": 1, "words": "<b>"},
                 {"list": "upkeep-9", "step": 1, "words": "0" * 16}):
        r = client.post(url, data={"csrf": csrf, "on": "1", **data})
        assert r.status_code == 400, data
    assert client.post(url, data={"list": "setup", "step": 1, "words": "0" * 16, "on": "1"}).status_code in (400, 403)
    stranger = app.test_client()
    r = stranger.post(url, data={"csrf": csrf, "list": "setup", "step": 1, "words": "0" * 16, "on": "1"})
    assert r.status_code in (400, 403)
    assert app.extensions["store"].ticks(game["id"]) == [] and app.extensions["store"].ticked(game["id"]) == 0


def test_C_18_upkeep_ticks_survive_a_reload_and_the_header_stays_on_the_round_that_ended(client):
    game = create(client, ready=False)
    api_table_ready(client, game)
    to_the_hold(client, game)
    page = host_page(client, game)
    assert re.search(r"<h2>Round I<", page), "round I's upkeep is still round I"
    upkeep = boxes(page, "upkeep-2")
    assert upkeep and not any(upkeep.values())
    tick(client, game, "upkeep-2", 2)
    assert boxes(host_page(client, game), "upkeep-2")[2] is True
    assert "Round I" in phone_page(client, game, 0).split("Setting up round II")[0]
    api_table_ready_round(client, game)
    page = host_page(client, game)
    assert re.search(r"<h2>Round II<", page)
    assert not boxes(page, "upkeep-2"), "the table did the upkeep: the list stays as a record, no box"


def api_table_ready_round(client, game):
    host = {"X-Host-Token": game["host_token"]}
    menu = client.get(f"/api/games/{game['id']}/host/menu", headers=host).get_json()
    assert [o["value"] for o in menu["menu"]] == ["ready"]
    client.post(f"/api/games/{game['id']}/host/actions", json={"version": menu["version"], "choice": 0}, headers=host)


def test_nothing_unticked_remains_after_game_over(client):
    game = create(client, ready=False, players=[{"name": "Ada", "colour": "red"}])
    drive(client, game, random.Random(2), limit=3000)
    page = host_page(client, game)
    assert 'type="checkbox" id="setup-' not in page and 'type="checkbox" id="upkeep-' not in page


def test_C_18_the_tables_round_during_an_upkeep_is_the_round_that_ended():
    state = new_state(3, 4)
    to_upkeep(state)
    view = table_view(state)
    assert view["upkeep"]["round"] == 2 and view["table_round"] == 1 and state.round == 2


def test_a_ticks_words_are_its_steps_words_and_rule():
    a, b = {"text": "Shuffle", "rule": "R-SETUP-7"}, {"text": "Shuffle", "rule": "R-SETUP-8"}
    assert words_of(a) == words_of(dict(a)) != words_of(b) and re.fullmatch(r"[0-9a-f]{16}", words_of(a))
