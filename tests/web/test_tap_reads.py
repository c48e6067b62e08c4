"""A tap reads and writes once (issue 23, item 4): the route checks the seat (or the host's key) once,
`Store.act` writes the action and gives back the whole game it wrote, with the undos' notes read at the
same moment, and the tapping screen's answer is drawn from that game. Counted through sqlite3's trace
callback: at most 8 statements per tap, the transaction's BEGIN and COMMIT included."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from companion.engine import legal_actions
from tables import api_menu, api_step, host_h, new_game, snapshot, text

MOST_STATEMENTS = 8


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
    assert sum(s.startswith("select * from seats") for s in seen) == 1  # the seat is checked once
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
    assert any(s.startswith("insert into snapshots") for s in seen) == snapshot_due
    assert game.version == fields["version"] + 1 and game.host_token == g["host_token"]
    assert game.undos == store.undos(g["id"]) and str(who) in game.undos[-1]["acted_after"]
    store._cache.drop(g["id"])  # a restart: the same game, read back from the file
    again = store.load(g["id"])
    assert (again.version, again.undos, again.state.to_dict()) == (game.version, game.undos, game.state.to_dict())
