"""New games per address per minute and per day (issue 10, item 4; issue 21), join codes tried per address,
and the games nobody played removed after a day: a runaway script, a stuck button or a guesser cannot fill
the disk or reset its count by changing address; a table, which starts a few games a night, never meets a
limit. The counts live in the games file (store/tries.py), where every worker process sees them."""

from __future__ import annotations

import re
import sqlite3
import time

import pytest

from companion.clients import client_key
from companion.store import Store
from companion.web import create_app
from companion.web.limits import PerWindow
from tables import Clock, api_table_ready

PLAYERS = [{"name": "Ada", "colour": "red"}]
TOO_MANY = "Too many new games from this device in the last minute. Wait a minute and try again."
TOO_MANY_TODAY = "Too many new games from this device today. Delete or finish some, or try again tomorrow."


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "games.db")


def test_the_limit_counts_per_address_over_a_sliding_minute(store):
    clock = Clock()
    limit = PerWindow(store, "tries", 3, clock=clock)
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b")  # another device has its own count
    clock.now += 30
    assert not limit.allow("a")  # refusals are not counted, and the first three are still in the minute
    clock.now += 30.5
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert PerWindow(store, "none", 0).allow("x")  # 0: no limit


def test_an_address_inside_its_minute_is_never_forgotten_however_many_others_come(store):
    """Issue 21: the old counter forgot the least recently used address once it tracked 1,024, so 1,100
    addresses each got a fresh count. Now an address is dropped only once its window has ended, which
    is also what keeps the games file small."""
    clock = Clock()
    limit = PerWindow(store, "tries", 2, clock=clock)
    assert limit.allow("10.9.9.9") and limit.allow("10.9.9.9") and not limit.allow("10.9.9.9")
    for i in range(2_000):
        clock.now += 0.01
        assert limit.allow(f"10.0.{i // 256}.{i % 256}")
    assert not limit.allow("10.9.9.9") and len(limit) == 2_001  # still inside its minute: still limited
    clock.now += 61
    assert limit.allow("10.1.0.1") and len(limit) == 1  # every ended window dropped at once
    assert limit.allow("10.9.9.9")


def test_each_kind_counts_apart_and_a_new_store_on_the_same_file_remembers(tmp_path):
    """Two limits never share a count, and the count is the file's: a worker process started again (a new
    Store on the same games file) finds every try still inside its window (issue 32)."""
    clock = Clock()
    first = Store(tmp_path / "games.db")
    joins, games = PerWindow(first, "join_tries", 2, clock=clock), PerWindow(first, "new_games", 2, clock=clock)
    assert joins.allow("10.0.0.1") and joins.allow("10.0.0.1") and games.allow("10.0.0.1")
    again = PerWindow(Store(tmp_path / "games.db"), "join_tries", 2, clock=clock)
    assert not again.allow("10.0.0.1") and again.allow("10.0.0.2")
    clock.now += 60.5
    assert again.allow("10.0.0.1")


@pytest.mark.parametrize("address, key", [
    ("192.168.1.20", "192.168.1.20"), ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"), ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:10.0.0.7", "10.0.0.7"), ("fe80::1%eth0", "fe80::/64"), ("", ""), ("not an address", "not an address")])
def test_an_ipv6_client_counts_by_its_64_network(address, key):
    assert client_key(address) == key


def join_try(client, address: str, csrf: str) -> int:
    return client.post("/join", data={"csrf": csrf, "code": "ZZZZZ"}, environ_base={"REMOTE_ADDR": address}).status_code


def test_the_join_code_limiter_keeps_an_address_limited_while_1100_others_guess(tmp_path):
    """Issue 21: 1,100 addresses got ~31,000 join-code guesses a minute through. An address that used its
    tries is still refused after more than 1,024 others tried, and IPv6 addresses inside one /64 share
    one count."""
    app = create_app({"INSTANCE": str(tmp_path), "JOIN_TRIES_PER_MINUTE": 3})
    client = app.test_client()
    csrf = re.search(rb'name="csrf" value="([^"]+)"', client.get("/join").data).group(1).decode()
    assert [join_try(client, "10.1.1.1", csrf) for _ in range(4)] == [404, 404, 404, 429]
    for i in range(1100):
        assert join_try(client, f"10.2.{i // 250}.{i % 250 + 1}", csrf) == 404
    assert join_try(client, "10.1.1.1", csrf) == 429 and len(app.extensions["join_tries"]) == 1101
    tries = [join_try(client, f"2001:db8:7:7::{i:x}", csrf) for i in range(1, 6)]
    assert tries == [404, 404, 404, 429, 429]  # new addresses in one /64: one client


def games(app) -> int:
    con = sqlite3.connect(app.config["DATABASE"])
    try:
        return con.execute("select count(*) from games").fetchone()[0]
    finally:
        con.close()


def test_new_games_past_the_limit_get_429_with_a_clear_message_by_the_api_and_the_form(tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "NEW_GAMES_PER_MINUTE": 3})
    client = app.test_client()
    csrf = re.search(rb'name="csrf" value="([^"]+)"', client.get("/").data).group(1).decode()
    assert client.post("/api/games", json={"players": PLAYERS}).status_code == 201
    assert client.post("/games", data={"csrf": csrf, "name0": "Ada", "colour0": "red"}).status_code == 302
    assert client.post("/api/games", json={"players": PLAYERS}).status_code == 201
    r = client.post("/api/games", json={"players": PLAYERS})
    assert r.status_code == 429 and r.get_json() == {"error": TOO_MANY}
    r = client.post("/games", data={"csrf": csrf, "name0": "Ada", "colour0": "red"})
    assert r.status_code == 429 and TOO_MANY.encode() in r.data and b"<html" in r.data
    r = client.post("/games", data={"csrf": csrf, "name0": "Ada", "colour0": "red"}, headers={"HX-Request": "1"})
    assert r.status_code == 429 and TOO_MANY.encode() in r.data
    assert games(app) == 3
    other = app.test_client()
    r = other.post("/api/games", json={"players": PLAYERS}, environ_base={"REMOTE_ADDR": "192.168.1.23"})
    assert r.status_code == 201 and games(app) == 4


def test_by_default_an_address_starts_at_most_30_games_a_minute(tmp_path):
    client = create_app({"INSTANCE": str(tmp_path)}).test_client()
    codes = [client.post("/api/games", json={"players": PLAYERS}).status_code for _ in range(31)]
    assert codes == [201] * 30 + [429]


def test_a_day_caps_the_games_one_address_starts(tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "NEW_GAMES_PER_MINUTE": 0, "NEW_GAMES_PER_DAY": 3})
    client = app.test_client()
    assert [client.post("/api/games", json={"players": PLAYERS}).status_code for _ in range(3)] == [201] * 3
    r = client.post("/api/games", json={"players": PLAYERS})
    assert r.status_code == 429 and r.get_json() == {"error": TOO_MANY_TODAY} and games(app) == 3
    other = {"REMOTE_ADDR": "2001:db8::5"}
    assert client.post("/api/games", json={"players": PLAYERS}, environ_base=other).status_code == 201


def aged(app, gid: str, days: float) -> None:
    """The game as if it had been started `days` ago."""
    con = sqlite3.connect(app.config["DATABASE"])
    with con:
        con.execute("update games set created = ? where id = ?", [time.time() - days * 86400, gid])
    con.close()


def first_move(client, game: dict) -> None:
    api_table_ready(client, game)  # C-18: the host's tap, then a seat's first move
    host = {"X-Host-Token": game["host_token"]}
    state = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    who = state["pending"][0]["who"]
    token = game["seats"][who]["token"]
    device = client.post(f"/api/seats/{token}/join", json={}).get_json()["device"]
    menu = client.get(f"/api/seats/{token}/menu", headers={"X-Seat-Device": device}).get_json()
    pick = next(o for o in menu["menu"] if o["available"])
    r = client.post(f"/api/seats/{token}/actions", json={"version": menu["version"], "choice": pick["choice"]},
                    headers={"X-Seat-Device": device})
    assert r.status_code == 200


@pytest.mark.parametrize("keep", [False, True])
def test_games_never_played_are_removed_a_day_after_they_started_unless_kept(tmp_path, keep):
    """A game with not one action, started more than a day ago, goes when the next game is started; a
    game played even once, and a game started today, stay. `serve --keep-unplayed` keeps them all."""
    app = create_app({"INSTANCE": str(tmp_path), "UNPLAYED_AFTER_S": None if keep else 86400.0})
    client = app.test_client()
    made = [client.post("/api/games", json={"players": PLAYERS + [{"name": "Bo", "colour": "blue"}]}).get_json()
            for _ in range(4)]
    first_move(client, made[1])
    for game, days in zip(made, (2, 3, 0.5, 30)):
        aged(app, game["id"], days)
    app.extensions["unplayed"]._next = 0  # the first look of a server that has run for a while
    client.post("/api/games", json={"players": PLAYERS})
    left = {g["id"] for g in app.extensions["store"].games()}
    assert made[1]["id"] in left and made[2]["id"] in left and len(left) == (5 if keep else 3)
    if not keep:
        r = client.get(f"/host/{made[0]['id']}", headers={"X-Host-Token": made[0]["host_token"]})
        assert r.status_code == 404


def test_serve_removes_unplayed_games_unless_told_to_keep_them():
    from companion.cli import serve

    def options(*args: str) -> dict:
        return serve.make_context("serve", list(args)).params

    assert options()["keep_unplayed"] is False
    assert options("--keep-unplayed")["keep_unplayed"] is True
    assert options()["new_games_per_day"] == 200
