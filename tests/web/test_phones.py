"""A seat is played from one phone at a time (issue 10, items 1 and 5): scanning the seat's code on another
phone, or joining it through the API, moves the seat there, visibly; the old phone's page and the old key
are refused with a plain message marked X-Seat-Moved (so the page stops asking: tests/browser/test_browser_phones.py);
the API's seat calls need the seat's key like the phone page does; and each action records which phone
sent it, never the key itself."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
import sqlite_utils
from sqlite_utils.migrations import Migrations

from companion.store import Store, m001_initial
from companion.web.access import ELSEWHERE, MOVED
from tables import fingerprint, new_game

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


def deciding(client, game) -> int:
    st = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    return st["pending"][0]["who"]


def api_join(client, token: str) -> dict:
    r = client.post(f"/api/seats/{token}/join", json={})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def api_act(client, token: str, key: str | None):
    """The first available option of the seat's menu, through the API with `key`: (menu answer, act answer)."""
    headers = {"X-Seat-Device": key} if key else {}
    menu = client.get(f"/api/seats/{token}/menu", headers=headers)
    if menu.status_code != 200:
        return menu, None
    pick = next(o for o in menu.get_json()["menu"] if o["available"])
    return menu, client.post(f"/api/seats/{token}/actions", headers=headers,
                             json={"version": menu.get_json()["version"], "choice": pick["choice"]})


# --- the API's seat credential -----------------------------------------------------------------------------

def test_seat_api_calls_need_the_seats_key(app, client):
    game = new_game(client, PLAYERS, 4)
    who = deciding(client, game)
    token = game["seats"][who]["token"]
    key = api_join(client, token)["device"]
    before = fingerprint(app)
    for headers, moved in (({}, False), ({"X-Seat-Device": "forged"}, True),
                           ({"X-Seat-Device": api_join(client, game["seats"][1 - who]["token"])["device"]}, True)):
        before = fingerprint(app)
        menu = client.get(f"/api/seats/{token}/menu", headers=headers)
        act = client.post(f"/api/seats/{token}/actions", headers=headers, json={"version": 1, "choice": 0})
        for r in (menu, act):
            assert r.status_code == 403 and r.headers["X-Seat-Moved"] == "1", headers
            assert r.get_json() == {"error": MOVED if moved else ELSEWHERE, "moved": moved}
        assert fingerprint(app) == before  # refused: nothing changed
    menu, act = api_act(client, token, key)
    assert menu.status_code == 200 and act.status_code == 200 and act.get_json()["version"] == 2


def test_the_phones_own_cookie_works_for_the_api_too(client):
    game = new_game(client, PLAYERS, 4)
    token = game["seats"][deciding(client, game)]["token"]
    assert client.get(f"/j/{token}").status_code == 302  # the phone scanned the code: it has the cookie
    menu, act = api_act(client, token, None)
    assert menu.status_code == 200 and act.status_code == 200


def test_joining_by_the_api_moves_the_seat_visibly_and_the_old_key_is_refused(app, client):
    game = new_game(client, PLAYERS, 4)
    host = {"X-Host-Token": game["host_token"]}
    who = deciding(client, game)
    token = game["seats"][who]["token"]
    first = api_join(client, token)
    assert first["seat"] == who and first["header"] == "X-Seat-Device" and first["phone"] == "phone 1"
    assert api_act(client, token, first["device"])[1].status_code == 200
    panel = client.get(f"/host/{game['id']}/part/seats", headers=host).get_data(as_text=True)
    assert "on a new phone" not in panel
    second = api_join(client, token)  # another script (or phone) takes the seat
    assert second["phone"] == "phone 2" and second["device"] != first["device"]
    # the host screen shows the seat moved, and when
    panel = client.get(f"/host/{game['id']}/part/seats", headers=host).get_data(as_text=True)
    assert re.search(r'class="joined moved">on a new phone since \d\d:\d\d<', panel), panel
    # the old key is refused with the plain message and changes nothing
    while deciding(client, game) != who:  # play on until the seat decides again
        other = game["seats"][1 - who]
        other.setdefault("device", api_join(client, other["token"])["device"])
        assert api_act(client, other["token"], other["device"])[1].status_code == 200
    before = fingerprint(app)
    menu, _ = api_act(client, token, first["device"])
    assert menu.status_code == 403 and menu.get_json()["error"] == MOVED
    version = client.get(f"/api/games/{game['id']}/version").get_json()["version"]
    r = client.post(f"/api/seats/{token}/actions", headers={"X-Seat-Device": first["device"]},
                    json={"version": version, "choice": 0})
    assert r.status_code == 403 and r.get_json()["error"] == MOVED and fingerprint(app) == before
    assert api_act(client, token, second["device"])[1].status_code == 200
    # the export tells the two phones apart, and never holds a key
    export = client.get(f"/host/{game['id']}/export.json", headers=host).get_data(as_text=True)
    mine = [a["via"] for a in client.get(f"/host/{game['id']}/export.json", headers=host).get_json()["actions"]
            if a["who"] == str(who)]
    assert mine[0] == "phone 1" and mine[-1] == "phone 2"
    assert first["device"] not in export and second["device"] not in export


@pytest.mark.parametrize("body", [None, b"{}"])
def test_joining_needs_a_real_seat_and_a_json_body(app, client, body):
    game = new_game(client, PLAYERS, 4)
    before = fingerprint(app)
    r = client.post("/api/seats/not-a-seat/join", json={})
    assert r.status_code == 404 and r.get_json()["error"]
    token = game["seats"][0]["token"]
    r = client.post(f"/api/seats/{token}/join", data=body, content_type="text/plain")  # as a cross-site form
    assert r.status_code == 400 and r.get_json()["error"]
    assert fingerprint(app) == before


def test_the_host_and_its_undo_are_logged_as_the_host(client):
    game = new_game(client, PLAYERS, 4)
    who = deciding(client, game)
    page = client.get(f"/host/{game['id']}/seat/{who}?key={game['host_token']}").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf|version|decision|choice)" value="([^"]+)"', page)[:5])
    key = {"X-Host-Token": game["host_token"]}
    r = client.post(f"/host/{game['id']}/seat/{who}/act", data=fields, headers=key)
    assert r.status_code == 302
    r = client.post(f"/host/{game['id']}/undo", headers=key, data={"csrf": fields["csrf"], "version": 2, "count": 1,
                                                      "confirm": "yes"})
    assert r.status_code == 302
    actions = client.get(f"/host/{game['id']}/export.json?key={game['host_token']}").get_json()["actions"]
    assert [(a["who"], a["kind"], a["via"]) for a in actions] == [("host", "act", "host"), (str(who), "act", "host"),
                                                                  ("host", "undo", "host")]


# --- the old phone's page ------------------------------------------------------------------------------------

class Live(HTMLParser):
    """Anything on a page that could still act or ask: forms, buttons, inputs, htmx requests, the poll."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("form", "button", "input", "select") or {"hx-get", "hx-post", "data-every"} & set(a) \
                or a.get("id") == "poll":
            self.found.append(f"<{tag} {a}>")


def live(html: str) -> list[str]:
    parser = Live()
    parser.feed(html)
    return parser.found


def test_a_moved_phone_gets_the_plain_message_and_nothing_live(app, client):
    game = new_game(client, PLAYERS, 4)
    who = deciding(client, game)
    token = game["seats"][who]["token"]
    client.get(f"/j/{token}")
    page = client.get(f"/seat/{token}").get_data(as_text=True)
    assert live(page)  # a live page, with the menu's buttons and its question
    app.test_client().get(f"/j/{token}")  # the code is scanned on another phone
    before = fingerprint(app)
    r = client.get(f"/seat/{token}")  # the old phone reloads: the message page, nothing to tap
    body = r.get_data(as_text=True)
    assert r.status_code == 403 and r.headers["X-Seat-Moved"] == "1" and MOVED in body
    assert live(body) == [] and 'id="moved"' in body
    htmx = {"HX-Request": "true"}
    for method, path, form in (("GET", f"/seat/{token}/news?v=x", None), ("GET", f"/seat/{token}/part/menu", None),
                               ("POST", f"/seat/{token}/act", {"csrf": "x", "version": 0, "choice": 0,
                                                               "decision": 0})):
        r = client.open(path, method=method, headers=htmx, data=form)
        fragment = r.get_data(as_text=True)
        assert r.status_code == 403 and r.headers["X-Seat-Moved"] == "1", path
        assert fragment.lstrip().startswith('<section class="panel moved" id="moved"') and MOVED in fragment, path
        assert live(fragment) == [], path
    assert fingerprint(app) == before


def test_a_phone_that_never_held_the_seat_is_told_to_scan(app):
    game = new_game(app.test_client())
    r = app.test_client().get(f"/seat/{game['seats'][0]['token']}")
    body = r.get_data(as_text=True)
    assert r.status_code == 403 and r.headers["X-Seat-Moved"] == "1" and ELSEWHERE in body and live(body) == []


def test_the_pages_ask_again_only_through_app_js(app, client):
    """No element polls by itself (htmx "every"): only the question carries data-every for static/app.js,
    which backs off on failures; regions refresh on "changed" only. The phones panel asks nothing by itself:
    the host's question carries the count of joins (j), so a join is news (test_news.py)."""
    game = new_game(client, PLAYERS, 4)
    client.get(f"/j/{game['seats'][0]['token']}")
    pages = [client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True),
             client.get(f"/seat/{game['seats'][0]['token']}").get_data(as_text=True)]
    for page in pages:
        assert "every " not in " ".join(re.findall(r'hx-trigger="([^"]*)"', page))
        assert re.search(r'<div id="poll" data-version="1" hx-get="[^"]+" data-every="250"\s+hx-trigger="ask"', page)
        assert page.count("data-every") == 1
    assert re.search(r'id="seats"[^>]*hx-trigger="changed from:body"', pages[0])
    assert re.search(r'id="poll"[^>]*hx-get="[^"]*news\?v=1&amp;j=1&amp;p=none&amp;t=0"', pages[0])


# --- an older database ---------------------------------------------------------------------------------------

def test_a_database_from_before_phone_numbers_gets_them(tmp_path):
    """m003_phones on a database made by m001 only: a joined seat is on its phone 1, actions have no label."""
    path = tmp_path / "old.db"
    db = sqlite_utils.Database(path)
    old = Migrations("companion")
    old()(m001_initial)
    old.apply(db)
    db.execute("insert into games values ('g1', 0, '{}', 1, 'k', 1)")
    db.execute("insert into seats values ('g1', 0, 'tok0', 'dev0', 5), ('g1', 1, 'tok1', '', 0)")
    db.execute("insert into actions values ('g1', 1, '0', '{}', 0, 'act', 5)")
    db.conn.commit()
    db.close()
    store = Store(path)
    assert [(s["seat"], s["phone"]) for s in store.seats("g1")] == [(0, 1), (1, 0)]
    assert store.history("g1")[0]["via"] == ""
    seat, device = store.join("tok0")
    assert seat["phone"] == 2 and seat["device"] == device
