"""`serve --backups DIR` as the table runs it (issue 36): the real server writes the game's file when round I's
upkeep waits for the table (R-NEXT-14), and its door lets that file (larger than any other request may be)
through to `POST /api/games/resume`, while every other request keeps the usual limit."""

from __future__ import annotations

import json

import pytest
from server import seat_key, take_seats

from tables import TWO

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    return tmp_path_factory.mktemp("copies")


@pytest.fixture(scope="module")
def server_args(copies) -> list[str]:
    return ["--backups", str(copies), "--workers", "2"]


def move(srv, game: dict) -> None:
    """The first available option for whoever must answer, through the API."""
    host = {"X-Host-Token": game["host_token"]}
    state = srv.json("GET", f"/api/games/{game['id']}/state", headers=host)[1]
    who = state["pending"][0]["who"]
    base = f"/api/games/{game['id']}/host" if who == "host" else f"/api/seats/{game['seats'][who]['token']}"
    menu = srv.json("GET", f"{base}/menu", headers={**host, **seat_key(game, who)})[1]
    choice = next(o["choice"] for o in menu["menu"] if o["available"])
    status, out = srv.json("POST", f"{base}/actions", {"version": menu["version"], "choice": choice},
                           headers={**host, **seat_key(game, who)})
    assert status == 200, out


def test_serve_keeps_a_copy_at_the_rounds_end_and_its_door_takes_it_back_whole(srv, copies):
    status, game = srv.json("POST", "/api/games", {"players": TWO, "seed": 5})
    assert status == 201
    take_seats(srv, game)
    wanted = copies / f"messina-{game['id']}-round-1.json"
    for _ in range(400):
        if wanted.exists():
            break
        move(srv, game)
    data = wanted.read_bytes()
    assert len(data) > 64 * 1024  # more than the door lets any other request send
    status, resumed = srv.json("POST", "/api/games/resume", data, {"Content-Type": "application/json"})
    assert status == 201, resumed
    assert resumed["version"] == json.loads(data)["version"] and resumed["id"] != game["id"]
    status, _, _ = srv.request("POST", "/api/games", b" " * len(data), {"Content-Type": "application/json"})
    assert status == 413
