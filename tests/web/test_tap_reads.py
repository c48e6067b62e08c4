"""A tap reads and writes once, and a screen's question reads its game once (issue 23 item 4, issue 34 items
2 and 4): the route checks the seat (or the host's key) once, `Store.act` writes the action and gives back the
whole game it wrote, with the undos' notes and the live log's last act from the same transaction, and the
tapping screen's answer is drawn from that game, with nothing read after the commit. A held question (web/news.py)
reads its game with its credential in one statement before it waits and one after. Counted through sqlite3's
trace callback on every connection of the store, thread by thread: a tap's whole request at most 8 statements
(BEGIN and COMMIT included), the host's news after it at most 6, another phone's at most 4."""

from __future__ import annotations

import re
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest

from companion.engine import legal_actions
from companion.web import wire
from tables import api_menu, api_step, host_h, new_game, snapshot, text

MOST_STATEMENTS = 8  # a tap's whole request
HOST_NEWS_MOST = 6  # the host screen's question, answered with the move
PHONE_NEWS_MOST = 4  # another phone's question, answered with the move
LONG = 30.0  # a wait no test sits out


@pytest.fixture
def app_config() -> dict:
    return {"POLL_HOLD_S": LONG}


@contextmanager
def counted(app):
    """Every statement the request's thread sends to SQLite meanwhile (Flask's test client runs the
    request in this thread, on the store's connection for it)."""
    seen: list[str] = []
    conn = app.extensions["store"]._db().conn
    conn.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)


@contextmanager
def counted_by_thread(app):
    """Every statement sent to SQLite on any of the store's connections meanwhile, by the thread that owns
    the connection (one per thread: store/connection.py)."""
    store = app.extensions["store"]
    seen: dict[int, list[str]] = defaultdict(list)
    traced = []
    opened = store._db

    def db():
        handle = opened()
        if handle.conn not in traced:
            traced.append(handle.conn)
            handle.conn.set_trace_callback(seen[threading.get_ident()].append)
        return handle

    store._db = db
    try:
        yield seen
    finally:
        del store._db
        for conn in traced:
            conn.set_trace_callback(None)


def until_seat(client, g: dict) -> int:
    """Play on until a seat (not the host) must answer; its index."""
    for _ in range(60):
        who = snapshot(client, g)["pending"][0]["who"]
        if who != "host":
            return who
        api_step(client, g)
    raise AssertionError("no seat's question came up")


def tap_fields(app, g: dict, who) -> dict:
    game = app.extensions["store"].load(g["id"])
    menu = legal_actions(game.state, who)
    choice = next(i for i, o in enumerate(menu) if o["available"])
    return {"version": game.version, "decision": menu[choice]["action"]["decision"], "choice": choice}


def csrf(client, path: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', text(client.get(path))).group(1)


def test_a_phones_tap_is_at_most_eight_statements_and_its_answer_is_the_new_menu(app, client):
    g = new_game(client)
    who = until_seat(client, g)
    tok = g["seats"][who]["token"]
    phone = app.test_client()
    assert phone.get(f"/j/{tok}").status_code == 302
    form = {"csrf": csrf(phone, f"/seat/{tok}"), **tap_fields(app, g, who)}
    with counted(app) as seen:
        r = phone.post(f"/seat/{tok}/act", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200 and f'data-version="{form["version"] + 1}"' in text(r)
    assert len(seen) <= MOST_STATEMENTS, seen
    assert sum(s.startswith("select seats.*") for s in seen) == 1  # the seat is checked once
    assert not after_commit(seen)
    assert sum(s.startswith("BEGIN") for s in seen) == 1  # one transaction: read and written at once


def test_the_hosts_taps_and_the_apis_are_at_most_eight_statements(app, client):
    g = new_game(client, draw="table")  # the host answers the table's reveals
    assert client.get(f"/host/{g['id']}?key={g['host_token']}").status_code == 303  # the host's cookie
    form = {"csrf": csrf(client, "/"), **tap_fields(app, g, "host")}
    with counted(app) as seen:
        r = client.post(f"/host/{g['id']}/decide", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 204 and len(seen) <= MOST_STATEMENTS, seen
    who = until_seat(client, g)
    form = {"csrf": form["csrf"], **tap_fields(app, g, who)}
    with counted(app) as seen:  # the host acting for a seat whose phone is gone
        r = client.post(f"/host/{g['id']}/seat/{who}/act", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200 and f'data-version="{form["version"] + 1}"' in text(r)
    assert len(seen) <= MOST_STATEMENTS, seen
    who = until_seat(client, g)
    api_menu(client, g, who)  # this client holds the seat now
    fields = tap_fields(app, g, who)
    with counted(app) as seen:
        r = client.post(f"/api/seats/{g['seats'][who]['token']}/actions", json=fields, headers=host_h(g))
    assert r.status_code == 200 and r.get_json()["version"] == fields["version"] + 1
    assert len(seen) <= MOST_STATEMENTS, seen


@pytest.mark.parametrize("snapshot_due", [False, True])
def test_store_act_gives_back_the_whole_game_it_wrote_with_its_undos(app, client, snapshot_due):
    """What the screens are drawn from: the version, the state, the host's key and the undos' notes as a
    read after the commit would give them (the seat that acted since the undo included), every tenth
    version with its snapshot written in the same transaction."""
    store = app.extensions["store"]
    g = new_game(client)
    api_step(client, g)
    version = store.load(g["id"]).version
    store.undo(g["id"], version)
    while snapshot_due != ((store.load(g["id"]).version + 1) % 10 == 0):
        api_step(client, g)
    who = snapshot(client, g)["pending"][0]["who"]
    fields = tap_fields(app, g, who)
    with counted(app) as seen:
        game = store.act(g["id"], fields["version"], who, fields["decision"], fields["choice"])
    assert len(seen) <= MOST_STATEMENTS - 1 + snapshot_due  # the seat's read is the route's
    assert not after_commit(seen)
    assert any(s.startswith("insert into snapshots") for s in seen) == snapshot_due
    assert game.version == fields["version"] + 1 and game.host_token == g["host_token"]
    assert game.undos == store.undos(g["id"]) and str(who) in game.undos[-1]["acted_after"]
    assert game.last_act == store.last_acts(g["id"], 1)[0] and game.last_act["versions"][0] == game.version
    store._cache.drop(g["id"])  # a restart: the same game, read back from the file
    again = store.load(g["id"])
    assert ((again.version, again.undos, again.last_act, again.state.to_dict())
            == (game.version, game.undos, game.last_act, game.state.to_dict()))


def after_commit(statements: list[str]) -> list[str]:
    """What a request sent to SQLite after its write's COMMIT."""
    ends = [i for i, s in enumerate(statements) if s == "COMMIT"]
    return statements[ends[-1] + 1:] if ends else []


def until_a_seats_turn(client, g: dict) -> int:
    """Play on until the round's turns, and a seat (not the host) must answer; its index."""
    for _ in range(200):
        st = snapshot(client, g)
        if st["phase"] == "play" and st["pending"][0]["who"] != "host":
            return st["pending"][0]["who"]
        api_step(client, g)
    raise AssertionError("no seat's turn came up")


def wait_until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


def test_a_tap_is_news_to_the_other_screens_at_a_handful_of_statements_and_nothing_after_its_commit(app, client):
    """Issue 34: the host screen's and another phone's questions wait for a phone's tap; each reads its game
    once before it waits and once when woken, and draws from the game the tap kept in memory."""
    g = new_game(client)
    who = until_a_seats_turn(client, g)
    tok, other = g["seats"][who]["token"], g["seats"][1 - who]["token"]
    phone, idle, host = app.test_client(), app.test_client(), app.test_client()
    assert phone.get(f"/j/{tok}").status_code == 302 and idle.get(f"/j/{other}").status_code == 302
    assert host.get(f"/host/{g['id']}?key={g['host_token']}").status_code == 303  # the host's cookie
    form = {"csrf": csrf(phone, f"/seat/{tok}"), **tap_fields(app, g, who)}
    threads = {}

    def ask(screen, url, query, name):
        threads[name] = threading.get_ident()
        return screen.get(url, query_string=query)

    with counted_by_thread(app) as seen, ThreadPoolExecutor(2) as pool:
        phones = pool.submit(ask, idle, f"/seat/{other}/news", {wire.VERSION: form["version"]}, "phone")
        wait_until(lambda: app.extensions["held"].waiting == 1)
        page = text(host.get(f"/host/{g['id']}"))  # the idle phone shows connected: its question waits
        asked = dict(re.findall(r"[?&](?:amp;)?([a-z])=([^&\"]+)", re.search(r'hx-get="([^"]+/news[^"]+)"', page)[1]))
        assert set(asked) == {wire.VERSION, *wire.HOST_SHOWS}
        hosts = pool.submit(ask, host, f"/host/{g['id']}/news", asked, "host")
        wait_until(lambda: app.extensions["held"].waiting == 2)
        tapped_at = len(seen[threading.get_ident()])  # what this thread sent before: the host's page
        r = phone.post(f"/seat/{tok}/act", data=form, headers={"HX-Request": "true"})
        assert r.status_code == 200 and f'data-version="{form["version"] + 1}"' in text(r)
        answers = hosts.result(timeout=LONG), phones.result(timeout=LONG)
    assert [a.status_code for a in answers] == [200, 200]
    assert all(f'data-version="{form["version"] + 1}"' in text(a) for a in answers)
    tap = seen[threading.get_ident()][tapped_at:]
    assert len(tap) <= MOST_STATEMENTS and not after_commit(tap), tap
    assert 0 < len(seen[threads["host"]]) <= HOST_NEWS_MOST, seen[threads["host"]]
    assert 0 < len(seen[threads["phone"]]) <= PHONE_NEWS_MOST, seen[threads["phone"]]
