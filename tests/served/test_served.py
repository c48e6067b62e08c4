"""Against a real `python -m companion serve` process: the JSON API flow, a random policy driving three
seats to final scoring, and the host page then showing the scoring table (web companion issue)."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

import pytest
from server import Server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("served")) as srv:
        assert "open http://" in srv.tail()  # serve prints the host URL
        yield srv.base


def call(base, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if r.headers.get_content_type() == "application/json" else raw)
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, (json.loads(raw) if e.headers.get_content_type() == "application/json" else raw)


def test_api_flow_and_random_policy_to_final_scoring(base):
    players = [{"name": n, "colour": c} for n, c in (("Ada", "red"), ("Bruno", "yellow"), ("Chiara", "blue"))]
    code, game = call(base, "/api/games", {"players": players, "seed": 21})
    assert code == 201 and game["host_url"].startswith(base) and len(game["seats"]) == 3
    host = {"X-Host-Token": game["host_token"]}
    keys = {}  # the script takes each seat as a phone scanning its code would, and sends its key
    for s in game["seats"]:
        code, joined = call(base, f"/api/seats/{s['token']}/join", {})
        assert code == 200 and joined["seat"] == s["seat"] and joined["header"] == "X-Seat-Device"
        keys[s["seat"]] = {"X-Seat-Device": joined["device"]}
    rng = random.Random(21)
    for _ in range(5000):
        code, st = call(base, f"/api/games/{game['id']}/state", headers=host)
        assert code == 200
        if st["phase"] == "over":
            break
        who = st["pending"][0]["who"]  # a seat, or the host ("the table is ready", C-18)
        at = f"/api/games/{game['id']}/host" if who == "host" else f"/api/seats/{game['seats'][who]['token']}"
        creds = host if who == "host" else keys[who]
        code, menu = call(base, f"{at}/menu", headers=creds)
        assert code == 200 and menu["version"] == st["version"]
        pick = rng.choice([o for o in menu["menu"] if o["available"]])
        code, done = call(base, f"{at}/actions", {"version": menu["version"], "choice": pick["choice"]}, creds)
        assert code == 200 and done["version"] == menu["version"] + 1
        code, stale = call(base, f"{at}/actions", {"version": menu["version"], "choice": pick["choice"]}, creds)
        assert code == 409 and stale["error"]  # the repeated submit is refused, harmlessly
    assert st["phase"] == "over" and st["state"]["scoring"]["winners"]
    code, page = call(base, f"/host/{game['id']}", headers=host)
    assert code == 200 and b"Final scoring" in page and b"<table class=\"scoring\">" in page
