"""Durability: 1,000 scripted actions through a real server process (the JSON API, plus host undos by the
HTML form), with the process killed by SIGKILL at ~10 random moments. After each kill:

- the SQLite file is sound and consistent on its own: one log entry per version 1..version, no entry
  past the game's version, no snapshot past it (checked while no server runs);
- after a restart, every game's state (GET /api/games/<id>/state) equals an in-process replay of its
  committed log (`new_game(options, seed)` then every `act` entry not undone, from the export);
- every action the server acknowledged (200) is in the log exactly as sent; the one in flight when the
  process died is either wholly there or wholly absent.
"""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from companion.catalog import shipped_catalog
from companion.engine import apply, legal_actions, new_game, pending
from companion.engine.state import Options

from server import ROOT, Browser, Server, csrf_of

pytestmark = pytest.mark.slow

ACTIONS = 1000
KILLS = 10
COLOURS = ["red", "yellow", "blue", "green"]
NAMES = ["Ada", "Bruno", "Chiara", "Dario"]
LOST = (OSError, http.client.HTTPException)  # refused, reset, or cut off mid-answer by the kill


class Table:
    """One game as the script knows it: credentials, a mirror of its state kept by the in-process engine
    (so a step is one request: the POST), and every acknowledged action by version."""

    def __init__(self, created: dict):
        self.id = created["id"]
        self.host_token = created["host_token"]
        self.seats = [s["token"] for s in created["seats"]]
        self.keys: list[str] = []  # each seat's key, once the script has taken the seats (take_seats)
        self.acked: dict[int, dict] = {}  # version -> action as sent (or {"undo": count})
        self.options: dict = {}
        self.seed = 0
        self.version = 0
        self.live: list[dict] = []  # the committed actions not undone, in order
        self.state = None
        self.verified: tuple[str, dict] | None = None  # (log key, replayed state) at the last check

    @property
    def host(self) -> dict:
        return {"X-Host-Token": self.host_token}

    def headers(self, who) -> dict:
        """The host's key, and the seat's when a seat acts (the API's seat calls need it)."""
        return {**self.host, **({"X-Seat-Device": self.keys[who]} if who != "host" else {})}

    def take_seats(self, call) -> None:
        """The script joins every seat, as a phone scanning each code would."""
        for token in self.seats:
            status, out = call("POST", f"/api/seats/{token}/join", {})
            assert status == 200, out
            self.keys.append(out["device"])

    def resync(self, export: dict) -> None:
        """Take the committed log as the truth (after a kill cut a request off, or at creation)."""
        self.options, self.seed, self.version = export["options"], export["seed"], export["version"]
        self.live = [a["action"] for a in export["actions"] if a["kind"] == "act" and not a["undone"]]
        self.rebuild()

    def rebuild(self) -> None:
        self.state = new_game(Options.from_dict(self.options), self.seed, shipped_catalog())
        for action in self.live:
            apply(self.state, action)


def random_options(rng: random.Random) -> dict:
    n = rng.randint(1, 4)
    colours = rng.sample(COLOURS, n)
    return {"players": [{"name": NAMES[i], "colour": colours[i]} for i in range(n)], "seed": rng.randrange(10**6),
            "advanced": rng.random() < 0.3, "priority_tile": rng.random() < 0.3,
            "draw": "table" if rng.random() < 0.3 else "app"}


def plain(value):
    return json.loads(json.dumps(value))


def replay(export: dict) -> dict:
    """The state a fresh engine reaches from the options, the seed and the committed, live actions."""
    state = new_game(Options.from_dict(export["options"]), export["seed"], shipped_catalog())
    for entry in export["actions"]:
        if entry["kind"] == "act" and not entry["undone"]:
            apply(state, entry["action"])
    return plain(state.to_dict())


def fetch_export(srv: Server, t: Table) -> dict:
    status, _, body = srv.request("GET", f"/host/{t.id}/export.json?key={t.host_token}")
    assert status == 200, body
    return json.loads(body)


def check_database(path: str) -> None:
    """With no server running: the file opens (WAL recovered), passes integrity_check, and every game's
    log, version and snapshots agree — nothing half-written survived the kill."""
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        for gid, version in con.execute("select id, version from games").fetchall():
            versions = [v for (v,) in con.execute("select version from actions where game_id = ? order by version",
                                                  [gid])]
            assert versions == list(range(1, version + 1)), (gid, version, versions[-3:])
            snaps = [v for (v,) in con.execute("select version from snapshots where game_id = ?", [gid])]
            assert 0 in snaps and max(snaps) <= version, (gid, version, snaps)
            seats = con.execute("select count(*) from seats where game_id = ?", [gid]).fetchone()[0]
            assert 1 <= seats <= 4
    finally:
        con.close()


def verify(srv: Server, tables: list[Table], in_flight: tuple[Table, int] | None) -> None:
    """The restarted server's state of every game is the replay of its committed log."""
    for t in tables:
        exp = fetch_export(srv, t)
        assert [a["version"] for a in exp["actions"]] == list(range(1, exp["version"] + 1))
        key = json.dumps(exp["actions"], sort_keys=True)
        if t.verified and t.verified[0] == key:
            expected = t.verified[1]  # the log did not change since the last check: same replay
        else:
            expected = replay(exp)
        status, st = srv.json("GET", f"/api/games/{t.id}/state", headers=t.host)
        assert status == 200, st
        assert st["version"] == exp["version"]
        assert st["state"] == expected, f"game {t.id}: restarted state differs from the replay of its log"
        t.verified = (key, expected)
        by_version = {a["version"]: a for a in exp["actions"]}
        for v, sent in t.acked.items():  # nothing acknowledged was lost
            got = by_version.get(v)
            assert got is not None, f"game {t.id}: acknowledged version {v} was lost"
            if "undo" in sent:
                assert got["kind"] == "undo" and len(got["action"]["acts"]) == sent["undo"]  # undo counts acts
            else:
                assert got["kind"] == "act" and got["action"] == sent
        if in_flight and in_flight[0] is t:  # the action cut off by the kill: all or nothing
            assert exp["version"] in (in_flight[1], in_flight[1] + 1), (exp["version"], in_flight)
            t.resync(exp)
        else:
            assert (exp["version"], plain(t.state.to_dict())) == (t.version, expected)


def test_sigkill_at_random_moments_during_1000_actions(tmp_path):
    rng = random.Random(1347)
    srv = Server(tmp_path / "instance").start()
    db = str(tmp_path / "instance" / "companion.db")
    kill_at = set(rng.sample(range(20, ACTIONS), KILLS))
    tables: list[Table] = []
    host = Browser(srv)  # a host browser with a session (CSRF) for the undo form
    api = Browser(srv)  # one keep-alive connection for the script's JSON requests
    restarts = lost = undos = 0
    started = time.monotonic()

    def call(method, path, body=None, headers=None):
        status, _, data = api.request(method, path, body=json.dumps(body).encode() if body is not None else None,
                                      headers={"Content-Type": "application/json", **(headers or {})})
        return status, json.loads(data)

    try:
        table = None
        for step in range(ACTIONS):
            timer = None
            if step in kill_at:  # somewhere inside this step (mostly inside the POST and its commit)
                timer = threading.Timer(rng.uniform(0.0, 0.012), srv.kill)
            in_flight = None
            try:
                if table is None or table.state.phase == "over":
                    status, created = call("POST", "/api/games", random_options(rng))
                    assert status == 201, created
                    table = Table(created)
                    table.take_seats(call)
                    table.resync(fetch_export(srv, table))
                    tables.append(table)
                if timer:
                    timer.start()
                if len(table.live) > 3 and rng.random() < 0.02:  # the host takes back 1-3 acts
                    count = rng.randint(1, 3)
                    _, _, page = host.get("/")  # the session's CSRF token (the secret key outlives kills)
                    in_flight = (table, table.version)
                    status, _, body = host.post(f"/host/{table.id}/undo?key={table.host_token}",
                                                {"csrf": csrf_of(page), "version": table.version, "count": count,
                                                 "confirm": "yes"})
                    assert status == 302, (status, body[:300])
                    table.version += 1
                    table.acked[table.version] = {"undo": count}
                    table.resync(fetch_export(srv, table))  # whole acts went: the log says which actions
                    undos += 1
                    continue
                who = pending(table.state)[0]["who"]
                menu = legal_actions(table.state, who)
                choice = rng.choice([i for i, o in enumerate(menu) if o["available"]])
                action = menu[choice]["action"]
                url = (f"/api/games/{table.id}/host/actions" if who == "host"
                       else f"/api/seats/{table.seats[who]}/actions")
                in_flight = (table, table.version)
                status, body = call("POST", url, {"version": table.version, "choice": choice}, table.headers(who))
                assert status == 200, body
                assert body["version"] == table.version + 1
                apply(table.state, action)
                table.version += 1
                table.live.append(plain(action))
                table.acked[table.version] = plain(action)
            except LOST:
                lost += 1
                assert timer is not None, f"step {step}: the server failed without being killed:\n{srv.tail()}"
            finally:
                if timer is not None:
                    timer.join()
                    srv.kill()  # had the timer fired after the step's last answer, the kill still lands now
                    host.close()
                    api.close()
                    check_database(db)
                    srv.start()
                    restarts += 1
                    verify(srv, tables, in_flight)
        srv.kill()
        check_database(db)
        srv.start()
        verify(srv, tables, None)
    finally:
        srv.kill()
    assert restarts == KILLS and undos
    assert sum(len(t.acked) for t in tables) >= ACTIONS - KILLS
    print(f"{ACTIONS} steps, {len(tables)} games, {undos} undos, {restarts} SIGKILLs ({lost} cut a request off), "
          f"{time.monotonic() - started:.1f}s")


def test_a_fresh_process_store_loads_the_same_state(tmp_path):
    """The store read by a brand-new process (no cache) agrees with the served state after a kill."""
    srv = Server(tmp_path / "instance").start()
    try:
        options = {"players": [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}], "seed": 77}
        status, created = srv.json("POST", "/api/games", options)
        t = Table(created)
        t.take_seats(srv.json)
        rng = random.Random(5)
        for _ in range(37):
            status, st = srv.json("GET", f"/api/games/{t.id}/state", headers=t.host)
            who = st["pending"][0]["who"]  # a seat, or the host ("the table is ready", C-18)
            at = f"/api/games/{t.id}/host" if who == "host" else f"/api/seats/{t.seats[who]}"
            status, menu = srv.json("GET", f"{at}/menu", headers=t.headers(who))
            pick = rng.choice([o for o in menu["menu"] if o["available"]])
            assert srv.json("POST", f"{at}/actions",
                            {"version": menu["version"], "choice": pick["choice"]}, headers=t.headers(who))[0] == 200
        status, served = srv.json("GET", f"/api/games/{t.id}/state", headers=t.host)
        srv.kill()
        code = ("import json, sys; from companion.store import Store; "
                "g = Store(sys.argv[1]).load(sys.argv[2]); print(json.dumps({'version': g.version, "
                "'state': g.state.to_dict()}))")
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "instance" / "companion.db"), t.id],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
        loaded = json.loads(out)
        assert loaded["version"] == served["version"] == 37
        assert loaded["state"] == served["state"]
    finally:
        srv.kill()
