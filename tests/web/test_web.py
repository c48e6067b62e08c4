"""The HTML layer of the web companion through Flask's test client: every route of `app.url_map`, the
host's and the phones' forms (CSRF, version checks, refusals with a message and no change), joining by
QR link, undo that never re-rolls, the export, and escaping of player names everywhere.

After every refused request the game's state (as the JSON API reports it to the host) is unchanged."""

from __future__ import annotations

import html
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from companion.catalog import shipped_catalog
from companion.engine import flow
from companion.web.host import routes as host_views
from companion.web.seat import routes as seat_views
from tables import ALL_FOUR, api_act, api_menu, api_step, csrf_of, holds, host_h, new_game, snapshot, text, turn

XSS = "<script>alert(1)</script>"
XSS_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


# --- fixtures and helpers -----------------------------------------------------------------------------


def until_greyed(client, g: dict, limit: int = 200):
    """Play first-available options until the seat to answer has a greyed option on its menu."""
    for _ in range(limit):
        who, m = turn(client, g)
        greyed = [o for o in m["menu"] if not o["available"]]
        if who != "host" and greyed:
            return who, m, greyed[0]
        api_step(client, g)
    raise AssertionError("no greyed option met")


def drive_to_end(client, g: dict, seed: int = 1, limit: int = 3000) -> dict:
    rng = random.Random(seed)
    for _ in range(limit):
        st = snapshot(client, g)
        if st["phase"] == "over":
            return st
        api_step(client, g, rng)
    raise AssertionError("the game did not end")


def form_post(client, url: str, fields: dict, hx: bool = False, **kw):
    """POST a form; fields set to None are left out."""
    data = {k: str(v) for k, v in fields.items() if v is not None}
    headers = {"HX-Request": "true"} if hx else {}
    return client.post(url, data=data, headers=headers, **kw)


def refused(client, g: dict, r, code: int, before: dict, *needles: str) -> None:
    """A refusal: the status, a message, and the game exactly as it was."""
    body = html.unescape(text(r))  # the message is escaped text on the page
    assert r.status_code == code, (r.status_code, body[:800])
    for needle in needles:
        assert needle.lower() in body.lower(), (needle, body[:800])
    assert snapshot(client, g) == before


def games(app) -> list:
    return app.extensions["store"].games()


def set_cookies(r) -> dict:
    """Set-Cookie headers by cookie name."""
    return {h.split("=", 1)[0]: h for h in r.headers.getlist("Set-Cookie")}


def assert_safe_cookie(header: str) -> None:
    assert "HttpOnly" in header and "SameSite=Lax" in header, header


def new_form(**over) -> dict:
    base = {"name0": "Ada", "colour0": "red", "name1": "Bruno", "colour1": "blue", "seed": "5", "draw": "app"}
    base.update(over)
    return base


@pytest.fixture
def table_game(client) -> dict:
    """A table-draw game: at version 0 the host must enter a reveal."""
    g = new_game(client, draw="table")
    assert snapshot(client, g)["pending"][0]["who"] == "host"
    return g


# --- / and POST /games ---------------------------------------------------------------------------------


def test_index_is_the_new_game_form_with_csrf_and_every_colour(client):
    r = client.get("/")
    body = text(r)
    assert r.status_code == 200 and 'action="/games"' in body
    assert re.search(r'name="csrf" value="[^"]{16,}"', body)
    for i in range(4):
        assert f'name="name{i}"' in body and f'name="colour{i}"' in body
    for c in ("red", "yellow", "blue", "green"):
        assert f'value="{c}"' in body
    assert 'name="seed"' in body and 'value="table"' in body


def test_create_redirects_to_the_host_page_and_sets_an_httponly_samesite_cookie(app, client):
    r = form_post(client, "/games", {"csrf": csrf_of(client), **new_form(seed="77")})
    assert r.status_code == 302
    m = re.match(r"^/host/([0-9a-f]+)$", r.location)  # the key goes in the cookie, never in the address
    assert m, r.location
    gid = m.group(1)
    cookie = set_cookies(r)[f"host_{gid}"]
    assert re.match(rf"host_{gid}=[\w-]{{20,}};", cookie), cookie
    assert_safe_cookie(cookie)
    assert [x["id"] for x in games(app)] == [gid]
    page = client.get(r.location)
    assert page.status_code == 200 and "Ada" in text(page) and "Bruno" in text(page)
    # the cookie alone now opens the host screen
    assert client.get(f"/host/{gid}").status_code == 200
    export = json.loads(text(client.get(f"/host/{gid}/export.json")))
    assert export["seed"] == 77 and [p["name"] for p in export["options"]["players"]] == ["Ada", "Bruno"]
    assert export["options"]["draw"] == "app"


def test_create_a_table_draw_advanced_solo_game(app, client):
    r = form_post(client, "/games", {"csrf": csrf_of(client), "name0": "Solo", "colour0": "green",
                                     "draw": "table", "advanced": "on", "priority_tile": "on"})
    assert r.status_code == 302
    gid = r.location.split("/")[2].split("?")[0]
    export = json.loads(text(client.get(f"/host/{gid}/export.json")))
    assert export["options"]["draw"] == "table" and export["options"]["advanced"] is True
    assert export["options"]["priority_tile"] is True and len(export["options"]["players"]) == 1


BAD_FORMS = {
    "no names": ({"name0": "", "name1": ""}, "at least one player"),
    "blank names": ({"name0": "   ", "name1": "\t"}, "at least one player"),
    "duplicate colours": ({"colour1": "red"}, "different colour"),
    "bad colour": ({"colour1": "purple"}, "colour"),
    "missing colour": ({"colour1": None}, "colour"),
    "word seed": ({"seed": "abc"}, "whole number"),
    "negative seed": ({"seed": "-5"}, "whole number"),
    "decimal seed": ({"seed": "1.5"}, "whole number"),
    "huge seed": ({"seed": "1234567890123"}, "whole number"),
    "bad draw": ({"draw": "dice"}, "draw mode"),
}


@pytest.mark.parametrize("over,message", BAD_FORMS.values(), ids=BAD_FORMS.keys())
def test_a_bad_new_game_form_is_refused_with_a_message_and_creates_nothing(app, client, over, message):
    r = form_post(client, "/games", {"csrf": csrf_of(client), **new_form(**over)})
    assert r.status_code == 400 and message in text(r).lower(), text(r)[-600:]
    assert 'role="alert"' in text(r) and 'action="/games"' in text(r)  # the form again, as typed
    assert games(app) == []


@pytest.mark.parametrize("csrf", [None, "", "forged-token-123456"])
def test_create_without_the_sessions_csrf_token_is_refused(app, client, csrf):
    csrf_of(client)  # the session has a token; the form does not send it
    r = form_post(client, "/games", {"csrf": csrf, **new_form()})
    assert r.status_code == 400 and "expired" in text(r)
    assert games(app) == []


def test_a_csrf_token_from_another_session_is_refused(app, client):
    other = app.test_client()
    token = csrf_of(other)
    csrf_of(client)
    r = form_post(client, "/games", {"csrf": token, **new_form()})
    assert r.status_code == 400 and games(app) == []


def test_five_players_are_impossible(app, client):
    five = ALL_FOUR + [{"name": "Elio", "colour": "red"}]
    r = client.post("/api/games", json={"players": five, "seed": 1})
    assert r.status_code == 400 and "1 to 4" in r.get_json()["error"]
    assert games(app) == []
    # the form has four rows: a forged fifth is never seated
    form = {"csrf": csrf_of(client)}
    for i, p in enumerate(five):
        form[f"name{i}"], form[f"colour{i}"] = p["name"], p["colour"]
    r = form_post(client, "/games", form)
    assert r.status_code in (302, 400)
    for row in games(app):
        assert len(app.extensions["store"].seats(row["id"])) <= 4


def test_a_superscript_digit_seed_is_a_400_not_a_500(app, client):
    r = form_post(client, "/games", {"csrf": csrf_of(client), **new_form(seed="²")})
    assert r.status_code == 400 and games(app) == []


# --- /host/<gid> and its parts -------------------------------------------------------------------------


def test_host_page_with_key_sets_cookie_and_shows_its_version_only_to_its_script(app, game):
    """The page knows its version (its question carries it) but prints neither it nor the game's id: the
    table has no use for "v38" or "Game 954c…" (issue 25 item 2)."""
    c = app.test_client()
    r = c.get(f"/host/{game['id']}?key={game['host_token']}")
    assert r.status_code == 303 and r.location == f"/host/{game['id']}"  # the key leaves the address bar
    assert_safe_cookie(set_cookies(r)[f"host_{game['id']}"])
    r = c.get(r.location)
    body = text(r)
    assert r.status_code == 200 and f"Game {game['id']}" not in body and 'class="version"' not in body
    assert 'data-version="1"' in body  # v1: the table was ready (C-18)
    api_step(c, game)
    body = text(c.get(f"/host/{game['id']}"))  # by cookie now
    assert 'data-version="2"' in body


def test_host_page_by_header(app, game):
    r = app.test_client().get(f"/host/{game['id']}", headers=host_h(game))
    assert r.status_code == 200


@pytest.mark.parametrize("how", ["none", "forged key", "forged cookie", "other game's key"])
def test_host_page_without_the_right_key_is_403_with_a_message(app, client, game, how):
    c = app.test_client()
    url = f"/host/{game['id']}"
    if how == "forged key":
        url += "?key=forged"
    elif how == "forged cookie":
        c.set_cookie(f"host_{game['id']}", "forged")
    elif how == "other game's key":
        url += "?key=" + new_game(client)["host_token"]
    r = c.get(url)
    assert r.status_code == 403 and "needs the host" in text(r)
    assert game["host_token"] not in text(r) and f"host_{game['id']}" not in set_cookies(r)


def test_unknown_game_is_404_with_a_message(client, game):
    r = client.get(f"/host/deadbeef?key={game['host_token']}")
    assert r.status_code == 404 and "no such game" in text(r)


@pytest.mark.parametrize("name", host_views.PARTS)
def test_every_host_part_renders_for_the_host_only(app, client, game, name):
    url = f"/host/{game['id']}/part/{name}"
    r = client.get(url, headers=host_h(game))
    body = text(r)
    assert r.status_code == 200 and f'id="{name}"' in body and "<html" not in body
    assert app.test_client().get(url).status_code == 403
    assert client.get(url + "?key=forged").status_code == 403
    assert client.get(f"/host/deadbeef/part/{name}", headers=host_h(game)).status_code == 404


def test_an_unknown_host_part_is_404(client, game):
    r = client.get(f"/host/{game['id']}/part/secrets", headers=host_h(game))
    assert r.status_code == 404 and "No such part" in text(r)
    assert client.get(f"/host/{game['id']}/part/_poll", headers=host_h(game)).status_code == 404


def test_host_page_marks_every_colour_with_a_letter_and_a_symbol(client):
    g = new_game(client, players=ALL_FOUR)
    marks = {"red": ("▲", "R"), "yellow": ("●", "Y"), "blue": ("■", "B"), "green": ("◆", "G")}
    assert len({m[0] for m in marks.values()}) == 4 and len({m[1] for m in marks.values()}) == 4
    pages = [f"/host/{g['id']}"] + [f"/host/{g['id']}/part/{p}" for p in ("status", "seats", "registers")]
    for url in pages:  # the turn order, the phones and the registers all mark colours for colour-blind players
        body = text(client.get(url, headers=host_h(g)))
        for p in ALL_FOUR:
            sym, letter = marks[p["colour"]]
            assert f'<span class="sym">{sym} {letter}</span> {p["name"]}' in body, (url, p)


def test_host_page_of_a_table_game_shows_the_reveal_as_forms(client, table_game):
    g = table_game
    m = api_menu(client, g, "host")
    body = text(client.get(f"/host/{g['id']}", headers=host_h(g)))
    decide = body[body.index('id="decide"'):]
    decide = decide[:decide.index("</section>")]
    assert decide.count(f'action="/host/{g["id"]}/decide"') == len(m["menu"]) > 1
    assert f'name="decision" value="{m["menu"][0]["decision"]}"' in decide
    assert m["menu"][0]["label"] in decide


# --- <screen>/news: a screen's "anything new?" question --------------------------------------------------


def without_pictures(body: str) -> str:
    """An answer without the pictures it adds to the page's library (web/pictures.py), which come last."""
    return re.sub(r'<svg id="pictures" hx-swap-oob="beforeend">.*\Z', "", body, flags=re.S)


def regions_of(body: str) -> dict:
    """The live regions a news answer carries, by id: {id: the region as its part route renders it}."""
    body = without_pictures(body)
    out = {}
    for m in re.finditer(r'<section hx-swap-oob="true" ([^>]*?\bid="([a-z_]+)")', body):
        out[m.group(2)] = m.start()
    ends = sorted(out.values()) + [len(body)]
    return {rid: "<section " + body[start + len('<section hx-swap-oob="true" '):ends[ends.index(start) + 1]]
            for rid, start in out.items()}


def test_news_while_unchanged_is_204_and_empty(client, game):
    r = client.get(f"/host/{game['id']}/news?v=1", headers=host_h(game))
    assert r.status_code == 204 and r.data == b"" and "HX-Trigger" not in r.headers


def test_host_news_after_a_move_is_the_new_question_and_every_region(client, game):
    client.get(f"/host/{game['id']}?key={game['host_token']}")  # the host cookie, as the screen has
    api_step(client, game)
    r = client.get(f"/host/{game['id']}/news?v=1")
    body = text(r)
    assert r.status_code == 200 and "HX-Trigger" not in r.headers
    assert body.startswith('<div id="poll" data-version="2"') and f'/host/{game["id"]}/news?v=2&amp;j=1&amp;p=none&amp;t=0"' in body
    regions = regions_of(body)
    assert list(regions) == list(host_views.PARTS)
    for name, region in regions.items():  # the same region its own route renders
        assert region.rstrip() == without_pictures(text(client.get(f"/host/{game['id']}/part/{name}"))).rstrip(), name
    assert client.get(f"/host/{game['id']}/news?v=2").status_code == 204


def test_phone_news_carries_the_phones_regions(client, phone):
    g, who, tok = phone
    api_step(client, g)
    r = client.get(f"/seat/{tok}/news?v=1")
    body = text(r)
    assert r.status_code == 200 and f'/seat/{tok}/news?v=2"' in body
    regions = regions_of(body)
    assert list(regions) == list(seat_views.PARTS)
    for name, region in regions.items():
        assert region.rstrip() == without_pictures(text(client.get(f"/seat/{tok}/part/{name}"))).rstrip(), name


def test_the_hosts_view_of_a_phone_has_its_own_news(client, game):
    api_step(client, game)
    r = client.get(f"/host/{game['id']}/seat/1/news?v=1&key={game['host_token']}")
    assert r.status_code == 200 and f'/host/{game["id"]}/seat/1/news?v=2"' in text(r)
    assert list(regions_of(text(r))) == list(seat_views.PARTS)


def test_news_needs_the_screens_credential(app, client, game):
    """Anyone may learn that nothing happened (204); what happened is for the host and the seat's phone."""
    api_step(client, game)
    stranger = app.test_client()
    r = stranger.get(f"/host/{game['id']}/news?v=0")
    assert r.status_code == 403 and "host" in text(r)
    r = stranger.get(f"/host/{game['id']}/seat/0/news?v=0")
    assert r.status_code == 403
    r = stranger.get(f"/seat/{game['seats'][0]['token']}/news?v=0")
    assert r.status_code == 403 and "not on this phone" in text(r) and r.headers["X-Seat-Moved"]


@pytest.mark.parametrize("v", ["abc", "", "1.5", "-1", "99999999999999999999999", None])
def test_news_with_a_garbage_version_answers_with_the_current_one(client, game, v):
    url = f"/host/{game['id']}/news" + ("" if v is None else f"?v={v}")
    r = client.get(url, headers=host_h(game))
    assert r.status_code == 200 and 'data-version="1"' in text(r)
    assert list(regions_of(text(r))) == list(host_views.PARTS)


def test_news_of_an_unknown_game_or_seat_is_404(client):
    r = client.get("/host/deadbeef/news?v=0")
    assert r.status_code == 404 and "no such game" in text(r)
    r = client.get("/seat/not-a-seat/news?v=0")
    assert r.status_code == 404 and "not on this machine" in text(r)


def test_a_region_that_is_not_one_section_is_refused():
    from companion.web.regions import oob

    assert oob('<section class="panel" id="x">a</section>').startswith('<section hx-swap-oob="true" class=')
    for bad in ("<div id='x'></div>", "text <section id='x'></section>"):
        with pytest.raises(ValueError):
            oob(bad)


# --- /host/<gid>/decide -------------------------------------------------------------------------------------


def decide_fields(client, g, **over) -> dict:
    m = api_menu(client, g, "host")
    fields = {"csrf": csrf_of(client), "version": m["version"], "choice": 0, "decision": m["menu"][0]["decision"]}
    fields.update(over)
    return fields


def test_host_answers_a_reveal(client, table_game):
    g = table_game
    before = snapshot(client, g)
    client.get(f"/host/{g['id']}?key={g['host_token']}")  # the host cookie
    r = form_post(client, f"/host/{g['id']}/decide", decide_fields(client, g, choice=2))
    assert r.status_code == 302 and r.location == f"/host/{g['id']}"
    after = snapshot(client, g)
    assert after["version"] == 1 and after["state"] != before["state"]
    assert after["pending"][0]["id"] != before["pending"][0]["id"]
    # with htmx: no body; the screen's waiting question brings the news
    r = form_post(client, f"/host/{g['id']}/decide", decide_fields(client, g), hx=True)
    assert r.status_code == 204 and r.data == b""
    assert snapshot(client, g)["version"] == 2


def test_the_same_reveal_twice_is_refused_as_stale(client, table_game):
    g = table_game
    fields = decide_fields(client, g)
    url = f"/host/{g['id']}/decide?key={g['host_token']}"
    assert form_post(client, url, fields).status_code == 302
    before = snapshot(client, g)
    refused(client, g, form_post(client, url, fields), 409, before, "moved on")


@pytest.mark.parametrize("over,code,message", [
    ({"version": 7}, 409, "moved on"),
    ({"version": -1}, 409, "moved on"),
    ({"decision": 999}, 409, "moved on"),
    ({"choice": 9999}, 400, "not on the menu"),
    ({"choice": -1}, 400, "not on the menu"),
    ({"choice": None}, 400, "'choice'"),
    ({"version": None}, 400, "'version'"),
    ({"decision": None}, 400, "'decision'"),
    ({"choice": "one"}, 400, "'choice'"),
    ({"version": "1.0"}, 400, "'version'"),
    ({"csrf": None}, 400, "expired"),
    ({"csrf": "forged"}, 400, "expired"),
], ids=["stale", "negative version", "other decision", "choice too big", "negative choice", "no choice",
        "no version", "no decision", "word choice", "float version", "no csrf", "forged csrf"])
def test_a_bad_decide_is_refused_and_changes_nothing(client, table_game, over, code, message):
    g = table_game
    before = snapshot(client, g)
    fields = decide_fields(client, g, **over)
    r = form_post(client, f"/host/{g['id']}/decide?key={g['host_token']}", fields)
    refused(client, g, r, code, before, message)


def test_decide_needs_the_host_key(app, client, table_game):
    g = table_game
    before = snapshot(client, g)
    fields = decide_fields(client, g)
    refused(client, g, form_post(client, f"/host/{g['id']}/decide?key=forged", fields), 403, before, "host")
    refused(client, g, form_post(client, f"/host/{g['id']}/decide", fields), 403, before, "host")
    assert form_post(client, "/host/deadbeef/decide", fields).status_code == 404


def test_decide_with_htmx_refusal_is_a_partial(client, table_game):
    g = table_game
    before = snapshot(client, g)
    r = form_post(client, f"/host/{g['id']}/decide?key={g['host_token']}", decide_fields(client, g, version=5), hx=True)
    refused(client, g, r, 409, before, 'class="flash-error"', "moved on")
    assert "<html" not in text(r)


def test_decide_a_greyed_option_is_409_with_its_reason_and_rule(client, table_game, monkeypatch):
    """No reveal is greyed in the shipped rules, so the engine's question is given one greyed option."""
    real = flow.decision_for

    def greyed(state, who):
        found = real(state, who)
        if who == "host" and found:
            lane, d = found
            options = list(d["options"])
            options[1] = {**options[1], "available": False, "reason": "that tile is gone", "rule": "R-TEST-9"}
            return lane, {**d, "options": options}
        return found

    monkeypatch.setattr(flow, "decision_for", greyed)
    g = table_game
    before = snapshot(client, g)
    r = form_post(client, f"/host/{g['id']}/decide?key={g['host_token']}", decide_fields(client, g, choice=1))
    refused(client, g, r, 409, before, "that tile is gone", "R-TEST-9")
    assert form_post(client, f"/host/{g['id']}/decide?key={g['host_token']}",
                     decide_fields(client, g, choice=0)).status_code == 302


def test_decide_when_the_host_has_nothing_to_decide_is_409(client, game):
    before = snapshot(client, game)
    fields = {"csrf": csrf_of(client), "version": 1, "choice": 0, "decision": 1}
    r = form_post(client, f"/host/{game['id']}/decide?key={game['host_token']}", fields)
    refused(client, game, r, 409, before, "Nothing to decide")


# --- /host/<gid>/undo ---------------------------------------------------------------------------------------


def undo(client, g, hx=False, **over):
    fields = {"csrf": csrf_of(client), "version": snapshot(client, g)["version"], "count": 1, "confirm": "yes"}
    fields.update(over)
    return form_post(client, f"/host/{g['id']}/undo?key={g['host_token']}", fields, hx=hx)


def test_undo_restores_the_previous_state_exactly_with_a_new_version(client, game):
    before = snapshot(client, game)
    api_step(client, game)
    assert snapshot(client, game)["state"] != before["state"]
    r = undo(client, game)
    assert r.status_code == 302 and r.location == f"/host/{game['id']}"
    after = snapshot(client, game)
    assert after["version"] == 3
    assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}


def test_undo_several_across_a_snapshot_and_replay_never_rerolls(client, game):
    """Twelve actions (a snapshot is kept at 10), undo three, then play the same three again: every
    state, draws included, comes out as before."""
    states, picks = [snapshot(client, game)], []
    for _ in range(12):
        picks.append(api_step(client, game, random.Random(len(picks))))
        states.append(snapshot(client, game))
    assert undo(client, game, count=3).status_code == 302
    after = snapshot(client, game)
    assert after["version"] == 14 and after["state"] == states[9]["state"] and after["pending"] == states[9]["pending"]
    for i, (who, choice) in enumerate(picks[9:], start=10):
        api_act(client, game, who, choice)
        assert snapshot(client, game)["state"] == states[i]["state"]


def test_undo_then_the_same_choice_gives_the_same_draw(client, game):
    """Find an action that draws (the generator moves), undo it, choose it again on the phone page."""
    for _ in range(300):
        before = snapshot(client, game)
        who, m = turn(client, game)
        choice = [o for o in m["menu"] if o["available"]][-1]["choice"]
        api_act(client, game, who, choice)
        drawn = snapshot(client, game)
        if drawn["state"]["rng"] != before["state"]["rng"]:
            break
    else:
        raise AssertionError("no action drew anything")
    assert undo(client, game).status_code == 302
    undone = snapshot(client, game)
    assert undone["state"] == before["state"]
    tok = game["seats"][who]["token"]
    client.get(f"/j/{tok}")
    r = form_post(client, f"/seat/{tok}/act", {"csrf": csrf_of(client), "version": undone["version"],
                                               "choice": choice, "decision": m["menu"][0]["decision"]})
    assert r.status_code == 302
    again = snapshot(client, game)
    assert again["state"] == drawn["state"] and again["version"] == drawn["version"] + 2


def test_undo_with_htmx_is_204_and_the_news_follows(client, game):
    api_step(client, game)
    r = undo(client, game, hx=True)
    assert r.status_code == 204 and r.data == b""
    assert 'data-version="3"' in text(client.get(f"/host/{game['id']}/news?v=2", headers=host_h(game)))


@pytest.mark.parametrize("over,code,message", [
    ({"confirm": None}, 400, "confirm"),
    ({"confirm": "no"}, 400, "confirm"),
    ({"confirm": "on"}, 400, "confirm"),
    ({"count": 0}, 400, "between 1 and 20"),
    ({"count": -1}, 400, "between 1 and 20"),
    ({"count": 21}, 400, "between 1 and 20"),
    ({"count": "two"}, 400, "'count'"),
    ({"count": None}, 400, "'count'"),
    ({"version": None}, 400, "'version'"),
    ({"version": 1}, 409, "moved on"),
    ({"version": 100}, 409, "moved on"),
    ({"csrf": None}, 400, "expired"),
], ids=["unconfirmed", "confirm no", "confirm on", "count 0", "count -1", "count 21", "word count", "no count",
        "no version", "stale", "future", "no csrf"])
def test_a_bad_undo_is_refused_and_changes_nothing(client, game, over, code, message):
    api_step(client, game)
    before = snapshot(client, game)
    refused(client, game, undo(client, game, **over), code, before, message)


def test_nothing_to_undo_is_409(client):
    game = new_game(client, ready=False)  # before the table is ready (C-18) nothing was done yet
    before = snapshot(client, game)
    refused(client, game, undo(client, game), 409, before, "nothing to undo")
    api_step(client, game)
    assert undo(client, game).status_code == 302
    before = snapshot(client, game)
    refused(client, game, undo(client, game), 409, before, "nothing to undo")


def test_undo_needs_the_host_key(client, game):
    api_step(client, game)
    before = snapshot(client, game)
    fields = {"csrf": csrf_of(client), "version": before["version"], "count": 1, "confirm": "yes"}
    refused(client, game, form_post(client, f"/host/{game['id']}/undo?key=forged", fields), 403, before, "host")
    refused(client, game, form_post(client, f"/host/{game['id']}/undo", fields), 403, before, "host")


# --- acting for a seat: /host/<gid>/seat/<n>... ------------------------------------------------------------


def test_host_acts_for_a_seat_page_shows_its_menu(client, game):
    who, m = turn(client, game)
    r = client.get(f"/host/{game['id']}/seat/{who}", headers=host_h(game))
    body = text(r)
    assert r.status_code == 200 and "The host is acting for this seat" in body
    assert body.count(f'action="/host/{game["id"]}/seat/{who}/act"') == len(m["menu"])
    assert 'data-version="1"' in body and 'class="version"' not in body  # a seat's screen prints no build number
    idle = text(client.get(f"/host/{game['id']}/seat/{1 - who}", headers=host_h(game)))
    assert "Nothing to decide right now." in idle


@pytest.mark.parametrize("index", [2, 3, 99])
def test_acting_for_a_seat_that_does_not_exist_is_404(client, game, index):
    before = snapshot(client, game)
    base = f"/host/{game['id']}/seat/{index}"
    assert client.get(base, headers=host_h(game)).status_code == 404
    assert client.get(base + "/part/menu", headers=host_h(game)).status_code == 404
    r = form_post(client, base + f"/act?key={game['host_token']}",
                  {"csrf": csrf_of(client), "version": 0, "choice": 0, "decision": 3})
    refused(client, game, r, 404, before, "No such seat")


def test_acting_for_a_seat_needs_the_host_key(app, client, game):
    who, m = turn(client, game)
    before = snapshot(client, game)
    base = f"/host/{game['id']}/seat/{who}"
    c = app.test_client()
    assert c.get(base).status_code == 403
    assert c.get(base + "?key=forged").status_code == 403
    assert c.get(base + "/part/menu?key=forged").status_code == 403
    fields = {"csrf": csrf_of(c), "version": 0, "choice": 0, "decision": m["menu"][0]["decision"]}
    refused(client, game, form_post(c, base + "/act?key=forged", fields), 403, before, "host")
    refused(client, game, form_post(c, base + "/act", fields), 403, before, "host")
    assert client.get(f"/host/deadbeef/seat/{who}", headers=host_h(game)).status_code == 404


@pytest.mark.parametrize("name", seat_views.PARTS)
def test_every_seat_part_renders_for_the_host(client, game, name):
    for index in range(2):
        r = client.get(f"/host/{game['id']}/seat/{index}/part/{name}", headers=host_h(game))
        assert r.status_code == 200 and f'id="{name}"' in text(r) and "<html" not in text(r)


def test_an_unknown_seat_part_for_the_host_is_404(client, game):
    r = client.get(f"/host/{game['id']}/seat/0/part/status", headers=host_h(game))
    assert r.status_code == 404 and "No such part" in text(r)


def test_host_acts_for_a_seat(client, game):
    who, m = turn(client, game)
    url = f"/host/{game['id']}/seat/{who}/act?key={game['host_token']}"
    fields = {"csrf": csrf_of(client), "version": 1, "choice": 0, "decision": m["menu"][0]["decision"]}
    r = form_post(client, url, fields)
    assert r.status_code == 302 and r.location == f"/host/{game['id']}/seat/{who}"
    assert snapshot(client, game)["version"] == 2
    who, m = turn(client, game)
    url = f"/host/{game['id']}/seat/{who}/act?key={game['host_token']}"
    r = form_post(client, url, {**fields, "version": 2, "decision": m["menu"][0]["decision"]}, hx=True)
    assert r.status_code == 200 and "HX-Trigger" not in r.headers
    body = text(r)  # the seat's screen as its news brings it: the new question and every region
    assert body.startswith('<div id="poll" data-version="3"') and f'/host/{game["id"]}/seat/{who}/news?v=3"' in body
    for name, region in regions_of(body).items():
        part = f"/host/{game['id']}/seat/{who}/part/{name}?key={game['host_token']}"
        assert region.rstrip() == without_pictures(text(client.get(part))).rstrip(), name
    assert list(regions_of(body)) == list(seat_views.PARTS)
    assert snapshot(client, game)["version"] == 3


def test_host_acting_for_a_seat_refusals_change_nothing(client, game):
    who, m = turn(client, game)
    base = f"/host/{game['id']}/seat/{{}}/act?key={game['host_token']}"
    fields = {"csrf": csrf_of(client), "version": 1, "choice": 0, "decision": m["menu"][0]["decision"]}
    before = snapshot(client, game)
    refused(client, game, form_post(client, base.format(who), {**fields, "version": 4}), 409, before, "moved on")
    refused(client, game, form_post(client, base.format(1 - who), fields), 409, before, "Nothing to decide")
    refused(client, game, form_post(client, base.format(who), {**fields, "choice": 99}), 400, before, "not on the menu")
    refused(client, game, form_post(client, base.format(who), {**fields, "csrf": None}), 400, before, "expired")
    who, m, grey = until_greyed(client, game)
    before = snapshot(client, game)
    fields = {"csrf": csrf_of(client), "version": m["version"], "choice": grey["choice"], "decision": grey["decision"]}
    refused(client, game, form_post(client, base.format(who), fields), 409, before, "Not possible", grey["rule"])


# --- /host/<gid>/export.json and /host/<gid>/qr/<n>.svg ------------------------------------------------------


def test_export_has_options_seed_and_every_action_with_undone_ones_marked(app, client, game):
    api_step(client, game)
    api_step(client, game)
    assert undo(client, game).status_code == 302
    api_step(client, game)
    r = client.get(f"/host/{game['id']}/export.json", headers=host_h(game))
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert "attachment" in r.headers["Content-Disposition"] and game["id"] in r.headers["Content-Disposition"]
    body = json.loads(text(r))
    assert body["game"] == game["id"] and body["seed"] == 5 and body["version"] == 5
    assert body["options"]["players"] == PLAYERS and body["options"]["draw"] == "app"
    acts = body["actions"]
    assert [a["version"] for a in acts] == [1, 2, 3, 4, 5]  # 1: the table is ready (C-18)
    assert [a["kind"] for a in acts] == ["act", "act", "act", "undo", "act"]
    assert [a["undone"] for a in acts] == [0, 0, 1, 0, 0]
    assert acts[3]["action"]["undo"] == [3] and acts[3]["action"]["put_back"]  # and what the table put back
    assert all("pick" in a["action"] and "who" in a["action"] for a in acts if a["kind"] == "act")
    # the export replays to the live game
    from companion.engine import Options, apply, new_game

    state = new_game(Options.from_dict(body["options"]), body["seed"], shipped_catalog())
    for a in acts:
        if a["kind"] == "act" and not a["undone"]:
            apply(state, a["action"])
    assert json.loads(json.dumps(state.to_dict())) == snapshot(client, game)["state"]


def test_export_needs_the_host_key(app, game):
    c = app.test_client()
    assert c.get(f"/host/{game['id']}/export.json").status_code == 403
    r = c.get(f"/host/{game['id']}/export.json?key=forged")
    assert r.status_code == 403 and game["host_token"] not in text(r)
    assert c.get(f"/host/deadbeef/export.json?key={game['host_token']}").status_code == 404


def test_qr_codes_are_valid_svg_one_per_seat(client, game):
    svgs = []
    for index in range(2):
        r = client.get(f"/host/{game['id']}/qr/{index}.svg", headers=host_h(game))
        assert r.status_code == 200 and r.mimetype == "image/svg+xml"
        root = ET.fromstring(r.data)
        assert root.tag.endswith("svg") and root.get("viewBox")
        paths = [e for e in root.iter() if e.tag.endswith("path")]
        assert paths and all(p.get("d") for p in paths)
        svgs.append(paths[0].get("d"))
    assert svgs[0] != svgs[1]
    host_page = text(client.get(f"/host/{game['id']}", headers=host_h(game)))
    assert all(d in host_page for d in svgs)  # the same codes as on the host screen


def test_qr_of_a_missing_seat_or_without_the_key(app, client, game):
    assert client.get(f"/host/{game['id']}/qr/2.svg", headers=host_h(game)).status_code == 404
    assert app.test_client().get(f"/host/{game['id']}/qr/0.svg").status_code == 403
    assert client.get(f"/host/{game['id']}/qr/0.svg?key=forged").status_code == 403


# --- joining: /j/<token>, /play ---------------------------------------------------------------------------------


def test_join_sets_a_safe_device_cookie_and_redirects_to_the_seat(app, client, game):
    tok = game["seats"][0]["token"]
    r = client.get(f"/j/{tok}")
    assert r.status_code == 302 and r.location == f"/seat/{tok}"
    cookies = set_cookies(r)
    assert_safe_cookie(cookies[f"seat_{tok}"])
    assert_safe_cookie(cookies["last_seat"]) and cookies["last_seat"].startswith(f"last_seat={tok};")
    device = app.extensions["store"].seat_by_token(tok)["device"]
    assert len(device) >= 20 and cookies[f"seat_{tok}"].startswith(f"seat_{tok}={device};")
    assert client.get(r.location).status_code == 200
    # the host screen now shows the seat as joined
    seats = text(client.get(f"/host/{game['id']}/part/seats", headers=host_h(game)))
    assert "not joined yet" in seats and seats.count(">joined<") == 1


@pytest.mark.parametrize("tok", ["forged", "x" * 22, "%3Cscript%3E"])
def test_a_forged_join_link_is_404_with_a_message(client, game, tok):
    r = client.get(f"/j/{tok}")
    assert r.status_code == 404 and "not on this machine" in text(r) and not set_cookies(r)


def test_play_without_a_cookie_goes_to_the_new_game_form(client):
    r = client.get("/play")
    assert r.status_code == 302 and r.location == "/"


def test_play_returns_to_the_last_joined_seat(client, game):
    first, second = (s["token"] for s in game["seats"])
    client.get(f"/j/{first}")
    assert client.get("/play").location == f"/seat/{first}"
    client.get(f"/j/{second}")
    r = client.get("/play")
    assert r.status_code == 302 and r.location == f"/seat/{second}"
    assert client.get(r.location).status_code == 200


# --- the phone: /seat/<token>... ---------------------------------------------------------------------------------


def test_seat_page_without_the_device_cookie_is_403_asking_to_scan(app, client, game):
    tok = game["seats"][0]["token"]
    r = client.get(f"/seat/{tok}")
    assert r.status_code == 403 and "Scan" in text(r)
    client.get(f"/j/{tok}")
    c = app.test_client()
    c.set_cookie(f"seat_{tok}", "forged-device")
    assert c.get(f"/seat/{tok}").status_code == 403


def test_seat_page_after_join_shows_the_menu_on_its_turn(client, phone):
    g, who, tok = phone
    m = api_menu(client, g, who)
    r = client.get(f"/seat/{tok}")
    body = text(r)
    assert r.status_code == 200 and "your turn" in body and "<strong>Your turn</strong>" in body
    assert body.count(f'action="/seat/{tok}/act"') == len(m["menu"])
    assert 'class="version"' not in body and 'data-version="1"' in body  # the version only where polling reads it
    assert f'name="decision" value="{m["menu"][0]["decision"]}"' in body
    assert body.count('aria-disabled="true"') == sum(1 for o in m["menu"] if not o["available"])
    other = g["seats"][1 - who]["token"]
    client.get(f"/j/{other}")
    idle = text(client.get(f"/seat/{other}"))
    assert "Nothing to decide right now." in idle and "Turn of" in idle and 'action="/seat/' not in idle


def test_joining_from_a_second_phone_moves_the_seat(app, client, phone):
    g, who, tok = phone
    assert client.get(f"/seat/{tok}").status_code == 200
    second = app.test_client()
    second.get(f"/j/{tok}")
    assert second.get(f"/seat/{tok}").status_code == 200
    r = client.get(f"/seat/{tok}")
    assert r.status_code == 403 and "moved to another phone" in text(r) and r.headers["X-Seat-Moved"]
    assert client.get(f"/seat/{tok}/part/menu").status_code == 403
    before = snapshot(client, g)
    m = api_menu(second, g, who)
    fields = {"csrf": csrf_of(client), "version": 0, "choice": 0, "decision": m["menu"][0]["decision"]}
    refused(client, g, form_post(client, f"/seat/{tok}/act", fields), 403, before, "moved to another phone")


def test_a_forged_seat_link_is_404(client):
    r = client.get("/seat/forged")
    assert r.status_code == 404 and "not on this machine" in text(r)
    assert client.get("/seat/forged/part/menu").status_code == 404
    assert client.post("/seat/forged/act", data={"csrf": "x"}).status_code == 404


@pytest.mark.parametrize("name", seat_views.PARTS)
def test_every_phone_part_renders_after_join(app, client, phone, name):
    g, who, tok = phone
    r = client.get(f"/seat/{tok}/part/{name}")
    assert r.status_code == 200 and f'id="{name}"' in text(r) and "<html" not in text(r)
    assert app.test_client().get(f"/seat/{tok}/part/{name}").status_code == 403


def test_an_unknown_phone_part_is_404(client, phone):
    g, who, tok = phone
    for name in ("status", "seats", "../index", "error"):
        r = client.get(f"/seat/{tok}/part/{name}")
        assert r.status_code == 404, name


def test_phone_choice_advances_the_version(client, phone):
    g, who, tok = phone
    body = text(client.get(f"/seat/{tok}"))
    version = re.search(r'name="version" value="(\d+)"', body).group(1)
    decision = re.search(r'name="decision" value="(\d+)"', body).group(1)
    csrf = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
    r = form_post(client, f"/seat/{tok}/act", {"csrf": csrf, "version": version, "choice": 0, "decision": decision})
    assert r.status_code == 302 and r.location == f"/seat/{tok}"
    assert snapshot(client, g)["version"] == 2
    assert 'data-version="2"' in text(client.get(r.location))
    assert 'data-version="2"' in text(client.get(f"/seat/{tok}/news?v=1"))


def test_phone_choice_with_htmx_returns_the_phones_news(client, phone):
    """The tap's answer is what the phone's news would bring (its new question and every region, the menu
    once), so the page calls back its own waiting question instead of drawing the menu twice."""
    g, who, tok = phone
    m = api_menu(client, g, who)
    r = form_post(client, f"/seat/{tok}/act", {"csrf": csrf_of(client), "version": 1, "choice": 0,
                                                "decision": m["menu"][0]["decision"]}, hx=True)
    body = text(r)
    assert r.status_code == 200 and "HX-Trigger" not in r.headers and "<html" not in body
    assert body.startswith('<div id="poll" data-version="2"') and f'/seat/{tok}/news?v=2"' in body
    regions = regions_of(body)
    assert list(regions) == list(seat_views.PARTS) and body.count('id="menu"') == 1
    for name, region in regions.items():
        assert region.rstrip() == without_pictures(text(client.get(f"/seat/{tok}/part/{name}"))).rstrip(), name
    after = snapshot(client, g)
    assert after["version"] == 2
    if after["pending"][0]["who"] == who:  # the menu is the new one, at the new version
        assert 'name="version" value="2"' in regions["menu"]


def test_phone_stale_choice_is_409_moved_on(client, phone):
    g, who, tok = phone
    m = api_menu(client, g, who)
    fields = {"csrf": csrf_of(client), "version": 1, "choice": 0, "decision": m["menu"][0]["decision"]}
    assert form_post(client, f"/seat/{tok}/act", fields).status_code == 302
    before = snapshot(client, g)
    refused(client, g, form_post(client, f"/seat/{tok}/act", fields), 409, before, "moved on")
    r = form_post(client, f"/seat/{tok}/act", fields, hx=True)
    refused(client, g, r, 409, before, 'class="flash-error"', "moved on")
    assert "<html" not in text(r)


def test_phone_out_of_turn_is_409(client, phone):
    g, who, tok = phone
    other = g["seats"][1 - who]["token"]
    client.get(f"/j/{other}")
    m = api_menu(client, g, who)
    before = snapshot(client, g)
    fields = {"csrf": csrf_of(client), "version": 1, "choice": 0, "decision": m["menu"][0]["decision"]}
    refused(client, g, form_post(client, f"/seat/{other}/act", fields), 409, before, "Nothing to decide")


def test_phone_greyed_option_is_409_with_its_rule(client, game):
    who, m, grey = until_greyed(client, game)
    tok = game["seats"][who]["token"]
    client.get(f"/j/{tok}")
    body = text(client.get(f"/seat/{tok}"))
    assert grey["reason"] in body and grey["rule"] in body and 'aria-disabled="true"' in body
    before = snapshot(client, game)
    fields = {"csrf": csrf_of(client), "version": m["version"], "choice": grey["choice"], "decision": grey["decision"]}
    refused(client, game, form_post(client, f"/seat/{tok}/act", fields), 409, before, "Not possible", grey["rule"])


PHONE_BAD = {
    "no version": ({"version": None}, 400),
    "no choice": ({"choice": None}, 400),
    "no decision": ({"decision": None}, 400),
    "word version": ({"version": "zero"}, 400),
    "empty version": ({"version": ""}, 400),
    "float choice": ({"choice": "0.0"}, 400),
    "word choice": ({"choice": "first"}, 400),
    "hex choice": ({"choice": "0x0"}, 400),
    "superscript choice": ({"choice": "²"}, 400),
    "nul choice": ({"choice": "0\x00"}, 400),
    "word decision": ({"decision": "x"}, 400),
    "negative choice": ({"choice": -1}, 400),
    "huge choice": ({"choice": 10**30}, 400),
    "thousands of digits": ({"choice": "9" * 5000}, 400),
    "other decision": ({"decision": 10**6}, 409),
    "negative version": ({"version": -1}, 409),
    "huge version": ({"version": 10**30}, 409),
    "no csrf": ({"csrf": None}, 400),
    "empty csrf": ({"csrf": ""}, 400),
    "forged csrf": ({"csrf": "a" * 22}, 400),
}


@pytest.mark.parametrize("over,code", PHONE_BAD.values(), ids=PHONE_BAD.keys())
def test_malformed_phone_choices_are_4xx_and_change_nothing(client, phone, over, code):
    g, who, tok = phone
    m = api_menu(client, g, who)
    before = snapshot(client, g)
    fields = {"csrf": csrf_of(client), "version": 1, "choice": 0, "decision": m["menu"][0]["decision"], **over}
    for hx in (False, True):
        r = form_post(client, f"/seat/{tok}/act", fields, hx=hx)
        refused(client, g, r, code, before)
        assert "Not possible" in text(r) or 'class="flash-error"' in text(r)


def test_an_oversized_phone_post_is_refused(client, phone):
    g, who, tok = phone
    before = snapshot(client, g)
    r = form_post(client, f"/seat/{tok}/act", {"csrf": csrf_of(client), "version": 0, "choice": 0,
                                                "decision": 1, "pad": "x" * 70000})
    refused(client, g, r, 413, before)


@pytest.mark.parametrize("url", ["/games", "/host/{gid}/decide", "/host/{gid}/tick", "/seat/{tok}/undo", "/seat/{tok}/act",
                                 "/host/{gid}/seat/0/act", "/api/games", "/api/seats/{tok}/actions",
                                 "/api/games/{gid}/host/actions"])
def test_post_only_routes_answer_get_with_405(client, game, url):
    r = client.get(url.format(gid=game["id"], tok=game["seats"][0]["token"]))
    assert r.status_code == 405


# --- the JSON API routes not already in tests/web/test_api.py ---------------------------------------------------------


def test_api_version_follows_the_game(client, game):
    r = client.get(f"/api/games/{game['id']}/version")
    assert r.status_code == 200 and r.get_json() == {"version": 1}
    api_step(client, game)
    assert client.get(f"/api/games/{game['id']}/version").get_json() == {"version": 2}
    r = client.get("/api/games/deadbeef/version")
    assert r.status_code == 404 and r.get_json()["error"]


def test_api_state_of_an_unknown_game_is_404(client, game):
    r = client.get("/api/games/deadbeef/state", headers=host_h(game))
    assert r.status_code == 404 and "no such game" in r.get_json()["error"]


def test_api_seat_menu_shape(client, game):
    who, _ = turn(client, game)
    holds(client, game, 1 - who)
    m = client.get(f"/api/seats/{game['seats'][who]['token']}/menu").get_json()
    assert m["seat"] == who and m["version"] == 1 and m["phase"] == snapshot(client, game)["phase"]
    assert [o["choice"] for o in m["menu"]] == list(range(len(m["menu"])))
    assert all({"label", "available", "cost", "reason", "rule", "value", "decision"} <= set(o) for o in m["menu"])
    idle = client.get(f"/api/seats/{game['seats'][1 - who]['token']}/menu").get_json()
    assert idle["menu"] == [] and idle["seat"] == 1 - who


def test_api_seat_out_of_turn_and_forged_token(client, game):
    who, m = turn(client, game)
    holds(client, game, 1 - who)
    before = snapshot(client, game)
    r = client.post(f"/api/seats/{game['seats'][1 - who]['token']}/actions", json={"version": 1, "choice": 0})
    refused(client, game, r, 409, before, "nothing to decide")
    r = client.post("/api/seats/forged/actions", json={"version": 1, "choice": 0})
    refused(client, game, r, 404, before, "not on this machine")


def test_api_host_menu_needs_the_key(app, client, table_game):
    g = table_game
    c = app.test_client()
    assert c.get(f"/api/games/{g['id']}/host/menu").status_code == 403
    r = c.get(f"/api/games/{g['id']}/host/menu", headers={"X-Host-Token": "forged"})
    assert r.status_code == 403 and r.get_json()["error"]
    m = c.get(f"/api/games/{g['id']}/host/menu", headers=host_h(g)).get_json()
    assert m["version"] == 0 and len(m["menu"]) > 1
    assert all(o["decision"] == m["menu"][0]["decision"] for o in m["menu"])
    assert c.get("/api/games/deadbeef/host/menu", headers=host_h(g)).status_code == 404


def test_api_host_menu_is_empty_when_the_companion_draws(client, game):
    assert client.get(f"/api/games/{game['id']}/host/menu", headers=host_h(game)).get_json()["menu"] == []


def test_api_host_action(client, table_game):
    g = table_game
    r = client.post(f"/api/games/{g['id']}/host/actions", json={"version": 0, "choice": 1}, headers=host_h(g))
    assert r.status_code == 200 and r.get_json()["version"] == 1


@pytest.mark.parametrize("body,headers,code,message,fresh", [
    ({"version": 0, "choice": 0}, {"X-Host-Token": "forged"}, 403, "host", False),
    ({"version": 0, "choice": 0}, {}, 403, "host", False),
    ({"version": 3, "choice": 0}, None, 409, "moved on", True),
    ({"version": 0, "choice": 99}, None, 400, "not on the menu", True),
    ({"version": 0, "choice": -1}, None, 400, "not on the menu", True),
    ({"version": 0, "choice": 0, "decision": 999}, None, 409, "moved on", True),
    ({"version": 0, "choice": "0"}, None, 400, "choice", False),
    ({"version": 0}, None, 400, "choice", False),
    ([0, 0], None, 400, "JSON object", False),
], ids=["forged", "no key", "stale", "too big", "negative", "other decision", "string", "missing", "list"])
def test_api_host_action_refusals_change_nothing(client, table_game, body, headers, code, message, fresh):
    g = table_game
    before = snapshot(client, g)
    r = client.post(f"/api/games/{g['id']}/host/actions", json=body,
                    headers=host_h(g) if headers is None else headers)
    refused(client, g, r, code, before, message)
    if fresh:  # the refusal carries the fresh menu to show instead
        assert r.get_json()["version"] == 0 and r.get_json()["menu"] == api_menu(client, g, "host")["menu"]


def test_api_host_action_when_nothing_to_decide(client, game):
    before = snapshot(client, game)
    r = client.post(f"/api/games/{game['id']}/host/actions", json={"version": 1, "choice": 0}, headers=host_h(game))
    refused(client, game, r, 409, before, "nothing to decide")


BAD_API_GAMES = {
    "not json": ("players", 400),
    "list": ([PLAYERS], 400),
    "no players": ({"seed": 1}, 400),
    "zero players": ({"players": []}, 400),
    "players not objects": ({"players": ["Ada"]}, 400),
    "nameless": ({"players": [{"colour": "red"}]}, 400),
    "empty name": ({"players": [{"name": "", "colour": "red"}, {"name": "B", "colour": "blue"}]}, 400),
    "bad colour": ({"players": [{"name": "A", "colour": "pink"}]}, 400),
    "same colours": ({"players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}]}, 400),
    "word seed": ({"players": PLAYERS, "seed": "abc"}, 400),
    "negative seed": ({"players": PLAYERS, "seed": -1}, 400),
    "float seed": ({"players": PLAYERS, "seed": 1.5}, 400),
    "bool seed": ({"players": PLAYERS, "seed": True}, 400),
    "huge seed": ({"players": PLAYERS, "seed": 10**13}, 400),
    "bad draw": ({"players": PLAYERS, "draw": "dice"}, 400),
}


@pytest.mark.parametrize("body,code", BAD_API_GAMES.values(), ids=BAD_API_GAMES.keys())
def test_api_create_refusals_create_nothing(app, client, body, code):
    if isinstance(body, str):
        r = client.post("/api/games", data=body, content_type="application/json")
    else:
        r = client.post("/api/games", json=body)
    assert r.status_code == code and r.get_json()["error"]
    assert games(app) == []


def test_api_create_a_null_name_is_refused(app, client):
    r = client.post("/api/games", json={"players": [{"name": None, "colour": "red"}], "seed": 1})
    assert r.status_code == 400 and games(app) == []


def test_api_create_a_superscript_seed_is_refused(app, client):
    r = client.post("/api/games", json={"players": PLAYERS, "seed": "²"})
    assert r.status_code == 400 and games(app) == []


# --- escaping of player names --------------------------------------------------------------------------------------


@pytest.fixture
def xss_game(client):
    """Both seats are named with a script tag (two players may not share a name), both phones joined;
    `active` is the seat on turn."""
    g = new_game(client, players=[{"name": XSS, "colour": "red"}, {"name": XSS + " 2", "colour": "blue"}])
    for s in g["seats"]:
        client.get(f"/j/{s['token']}")
    g["active"] = snapshot(client, g)["pending"][0]["who"]
    assert g["active"] in (0, 1)
    return g


def _xss_urls(active_menu: bool) -> list:
    """Every page and part: (label, url template). `active_menu` selects those showing the turn menu
    of the seat on turn ({a}: its index, {tokA}: its token; {i}/{tokI}: the other seat)."""
    menu = [("proxy page on turn", "/host/{gid}/seat/{a}?key={key}"),
            ("proxy menu on turn", "/host/{gid}/seat/{a}/part/menu?key={key}"),
            ("phone page on turn", "/seat/{tokA}"), ("phone menu on turn", "/seat/{tokA}/part/menu")]
    if active_menu:
        return menu
    out = [("index", "/"), ("host page", "/host/{gid}?key={key}")]
    out += [(f"host part {p}", f"/host/{{gid}}/part/{p}?key={{key}}") for p in host_views.PARTS]
    out += [("proxy page idle", "/host/{gid}/seat/{i}?key={key}"), ("phone page idle", "/seat/{tokI}")]
    for p in seat_views.PARTS:
        out.append((f"proxy part idle {p}", f"/host/{{gid}}/seat/{{i}}/part/{p}?key={{key}}"))
        out.append((f"phone part idle {p}", f"/seat/{{tokI}}/part/{p}"))
        if p != "menu":
            out.append((f"proxy part on turn {p}", f"/host/{{gid}}/seat/{{a}}/part/{p}?key={{key}}"))
            out.append((f"phone part on turn {p}", f"/seat/{{tokA}}/part/{p}"))
    out += [("host news", "/host/{gid}/news?key={key}"), ("proxy news", "/host/{gid}/seat/{i}/news?key={key}"),
            ("phone news", "/seat/{tokI}/news"), ("qr", "/host/{gid}/qr/0.svg?key={key}")]
    return out


def _fill(url: str, g: dict) -> str:
    a = g.get("active", 0)
    return url.format(gid=g["id"], key=g["host_token"], a=a, i=1 - a, tokA=g["seats"][a]["token"],
                      tokI=g["seats"][1 - a]["token"])


@pytest.mark.parametrize("label,url", _xss_urls(False), ids=[u[0] for u in _xss_urls(False)])
def test_a_script_name_is_never_unescaped(client, xss_game, label, url):
    r = client.get(_fill(url, xss_game), follow_redirects=True)
    assert r.status_code == 200
    assert XSS not in text(r)


def test_a_script_name_is_shown_escaped_on_the_host_page(client, xss_game):
    body = text(client.get(_fill("/host/{gid}?key={key}", xss_game), follow_redirects=True))
    assert XSS not in body and body.count(XSS_ESCAPED) >= 4


@pytest.mark.parametrize("label,url", _xss_urls(True), ids=[u[0] for u in _xss_urls(True)])
def test_a_script_name_is_escaped_in_the_turn_prompt(client, xss_game, label, url):
    r = client.get(_fill(url, xss_game), follow_redirects=True)
    assert r.status_code == 200
    assert XSS not in text(r)


def test_a_script_name_is_escaped_in_final_scoring(client):
    g = new_game(client, players=[{"name": XSS, "colour": "red"}, {"name": "Bruno", "colour": "blue"}])
    st = drive_to_end(client, g)
    assert st["phase"] == "over"
    pages = [f"/host/{g['id']}", f"/host/{g['id']}/seat/0"]
    pages += [f"/host/{g['id']}/part/{p}" for p in host_views.PARTS]
    pages += [f"/host/{g['id']}/seat/0/part/{p}" for p in seat_views.PARTS]
    for url in pages:
        r = client.get(url, headers=host_h(g))
        assert r.status_code == 200 and XSS not in text(r), url
    scoring = text(client.get(f"/host/{g['id']}/part/scoring", headers=host_h(g)))
    assert "Final scoring" in scoring and XSS_ESCAPED in scoring
    assert "Game over" in text(client.get(f"/host/{g['id']}/part/status", headers=host_h(g)))
