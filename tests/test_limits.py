"""New games per address per minute (issue 10, item 4): a runaway script or a stuck button cannot fill the
disk with thousands of games; a table, which starts a few a night, never meets the limit."""

from __future__ import annotations

import re
import sqlite3

from companion.web import create_app
from companion.web.limits import PerMinute

PLAYERS = [{"name": "Ada", "colour": "red"}]
TOO_MANY = "Too many new games from this device in the last minute. Wait a minute and try again."


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_limit_counts_per_address_over_a_sliding_minute():
    clock = Clock()
    limit = PerMinute(3, clock=clock)
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b")  # another device has its own count
    clock.now += 30
    assert not limit.allow("a")  # refusals are not counted, and the first three are still in the minute
    clock.now += 30.5
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]


def test_the_limit_remembers_a_bounded_number_of_addresses():
    clock = Clock()
    limit = PerMinute(2, addresses=100, clock=clock)
    for i in range(10_000):
        assert limit.allow(f"10.0.{i // 256}.{i % 256}")
        assert len(limit) <= 100
    assert limit.allow("10.0.39.15") and not limit.allow("10.0.39.15")  # the newest is remembered: 2 of 2
    assert PerMinute(0).allow("x")  # 0: no limit


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
