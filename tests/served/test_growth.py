"""Bounded growth (issue 10, item 4): a real server creating and loading 2,000 games through the API stays
within a fixed memory bound. Before, every game ever loaded stayed in memory: 2,000 games took the server
from ~55 MB to ~380 MB, still climbing ~0.1 MB a game (the issue saw 1.37 GB after 10,000).

The server runs as `serve` does by default (600 screens' threads): each thread that answers keeps its
stack and its database connection, so memory climbs while the threads first get work, then stays flat
whatever the number of games."""

from __future__ import annotations

import json

import pytest

from server import Server

pytestmark = [pytest.mark.slow, pytest.mark.linux]

GAMES = 2000
BOUND_MB = 250  # ~180-200 MB measured with the bounded cache; ~380 MB before it
FLAT_MB = 30  # growth over the second thousand games: ~5-10 MB measured; ~100 MB before
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
           {"name": "Chiara", "colour": "blue"}]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_memory_stays_bounded_after_2000_games_created_and_loaded(tmp_path):
    with Server(tmp_path / "instance", args=["--new-games-per-minute", "0", "--new-games-per-day", "0"]) as srv:
        conn = srv.connect()
        start = rss_mb(srv.proc.pid)
        halfway = 0.0
        for i in range(GAMES):
            conn.request("POST", "/api/games", body=json.dumps({"players": PLAYERS}),
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            created = json.loads(resp.read())
            assert resp.status == 201, created
            conn.request("GET", f"/api/games/{created['id']}/state", headers={"X-Host-Token": created["host_token"]})
            resp = conn.getresponse()
            assert resp.status == 200 and json.loads(resp.read())["id"] == created["id"]
            if i == GAMES // 2:
                halfway = rss_mb(srv.proc.pid)
        end = rss_mb(srv.proc.pid)
        conn.close()
    assert end < BOUND_MB, f"{start:.0f} MB -> {halfway:.0f} MB -> {end:.0f} MB"
    assert end - halfway < FLAT_MB, f"{start:.0f} MB -> {halfway:.0f} MB -> {end:.0f} MB"
