"""The host deletes a finished or abandoned game (issue 10, item 4): all of it goes in one transaction,
the other games stay, and every screen of that game then says plainly that it was deleted."""

from __future__ import annotations

import re
import sqlite3
import threading
import time

import pytest

from tables import new_game, store_step


PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
CSRF = re.compile(rb'name="csrf" value="([^"]+)"')
GONE = "This game was deleted by its host."


@pytest.fixture
def app_config() -> dict:
    return {"POLL_HOLD_S": 10.0, "TESTING": False}  # a held question, woken by the deletion


def counts(app, gid: str) -> dict:
    con = sqlite3.connect(app.config["DATABASE"])
    try:
        return {t: con.execute(f"select count(*) from {t} where {'id' if t == 'games' else 'game_id'} = ?",
                               [gid]).fetchone()[0] for t in ("games", "seats", "actions", "snapshots")}
    finally:
        con.close()


def played(app, client, moves: int = 12) -> dict:
    game = new_game(client, PLAYERS, ready=False)
    for _ in range(moves):
        store_step(app.extensions["store"], game["id"])
    return game


def test_the_host_deletes_a_game_from_its_screen_and_every_screen_says_so(app):
    host = app.test_client()
    game, other = played(app, host), played(app, host, 3)
    gid, key, seat = game["id"], game["host_token"], game["seats"][0]["token"]
    phone = app.test_client()
    phone.get(f"/j/{seat}")
    page = host.get(f"/host/{gid}?key={key}", follow_redirects=True)
    assert b"Delete this game" in page.data and f"/host/{gid}/delete".encode() in page.data
    csrf = CSRF.search(page.data).group(1).decode()
    assert counts(app, gid) == {"games": 1, "seats": 2, "actions": 12, "snapshots": 2}

    r = host.post(f"/host/{gid}/delete", data={"csrf": csrf})  # the box not ticked: nothing happens
    assert r.status_code == 400 and b"Tick the box" in r.data and counts(app, gid)["games"] == 1
    r = host.post(f"/host/{gid}/delete", data={"csrf": csrf, "confirm": "yes"})
    assert r.status_code == 200 and b"The game was deleted" in r.data
    assert counts(app, gid) == {"games": 0, "seats": 0, "actions": 0, "snapshots": 0}
    assert counts(app, other["id"]) == {"games": 1, "seats": 2, "actions": 3, "snapshots": 1}
    assert app.extensions["store"]._cache.get(gid) is None

    screens = [(host, f"/host/{gid}?key={key}"), (host, f"/host/{gid}/part/city?key={key}"),
               (host, f"/host/{gid}/news?v=12&key={key}"), (host, f"/host/{gid}/seat/0?key={key}"),
               (phone, f"/seat/{seat}"), (phone, f"/seat/{seat}/news?v=12"), (phone, f"/seat/{seat}/part/menu"),
               (phone, f"/j/{seat}"), (phone, "/play")]
    for client, path in screens:
        r = client.get(path, follow_redirects=True)
        assert r.status_code == 404 and GONE.encode() in r.data, (path, r.status_code, r.data[:200])
    for path in (f"/api/games/{gid}/state?key={key}", f"/api/games/{gid}/version", f"/api/seats/{seat}/menu"):
        r = host.get(path)
        assert r.status_code == 404 and r.get_json() == {"error": GONE}, path
    r = phone.post(f"/seat/{seat}/act", data={"csrf": csrf, "version": 12, "choice": 0, "decision": 0})
    assert r.status_code == 404 and GONE.encode() in r.data
    assert host.get(f"/host/{other['id']}?key={other['host_token']}", follow_redirects=True).status_code == 200


def test_the_api_deletes_with_the_host_credential_only(app):
    client = app.test_client()
    game = played(app, client, 2)
    for headers in ({}, {"X-Host-Token": game["seats"][0]["token"]}, {"X-Host-Token": "x" * 22}):
        assert client.delete(f"/api/games/{game['id']}", headers=headers).status_code == 403
    assert counts(app, game["id"])["games"] == 1
    r = client.delete(f"/api/games/{game['id']}", headers={"X-Host-Token": game["host_token"]})
    assert r.status_code == 200 and r.get_json() == {"deleted": game["id"]}
    assert sum(counts(app, game["id"]).values()) == 0
    r = client.delete(f"/api/games/{game['id']}", headers={"X-Host-Token": game["host_token"]})
    assert r.status_code == 404 and r.get_json() == {"error": GONE}
    assert client.delete("/api/games/0123456789abcdef").get_json() == {"error": "There is no such game."}


def test_a_screen_waiting_for_news_hears_at_once_that_the_game_was_deleted(app):
    client = app.test_client()
    game = played(app, client, 1)
    seat = game["seats"][0]["token"]
    phone = app.test_client()
    phone.get(f"/j/{seat}")
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(phone.get(f"/seat/{seat}/news?v=1")))
    waiting.start()
    deadline = time.monotonic() + 5
    while app.extensions["held"].waiting < 1:  # the phone's question waits at the server (up to 10 s)
        assert time.monotonic() < deadline, "the phone's question never waited"
        time.sleep(0.01)
    asked = time.monotonic()
    client.delete(f"/api/games/{game['id']}", headers={"X-Host-Token": game["host_token"]})
    waiting.join(5)
    assert answers and time.monotonic() - asked < 2
    assert answers[0].status_code == 404 and GONE.encode() in answers[0].data


def test_a_game_deleted_while_a_move_is_on_its_way_answers_404_not_500(app, monkeypatch):
    """The views check the game first; a delete landing after that check still gets the plain answer."""
    from companion.store import Store

    client = app.test_client()
    game = played(app, client, 1)
    store = app.extensions["store"]
    act = Store.act

    def deleted_meanwhile(self, gid, seen, action, *via):
        store.delete(gid)
        return act(self, gid, seen, action, *via)

    monkeypatch.setattr(Store, "act", deleted_meanwhile)
    state = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    seat = game["seats"][state["pending"][0]["who"]]["token"]
    client.get(f"/j/{seat}")  # this client is the seat's phone
    menu = client.get(f"/api/seats/{seat}/menu").get_json()
    choice = next(o["choice"] for o in menu["menu"] if o["available"])
    r = client.post(f"/api/seats/{seat}/actions", json={"version": menu["version"], "choice": choice})
    assert r.status_code == 404 and r.get_json() == {"error": GONE}
