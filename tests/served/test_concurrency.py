"""Concurrency against a real server process (`python -m companion serve`, its default threads): many clients submitting for
the same version at once; exactly one is applied, every other one is refused with a reason (409), and
the action log has no duplicated and no lost entry. Plain http.client from threads, started together
by a barrier on connections that are already open."""

from __future__ import annotations

import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest

from server import Browser, Server, csrf_of, seat_key, take_seats

pytestmark = pytest.mark.slow

CLIENTS = 20
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
           {"name": "Chiara", "colour": "blue"}, {"name": "Dario", "colour": "green"}]


@pytest.fixture(scope="module")
def server_args() -> list[str]:
    # one address creates dozens of games at once here: the per-minute limit is tested in test_limits.py
    return ["--new-games-per-minute", "0"]


def seated_game(srv: Server, players=PLAYERS, seed=11, **extra) -> dict:
    """A new game; the test script holds every seat (each seat's key under "device")."""
    status, game = srv.json("POST", "/api/games", {"players": players, "seed": seed, **extra})
    assert status == 201, game
    return take_seats(srv, game)


def host_headers(game: dict, who="host") -> dict:
    """The host's key, and the seat's key when a seat acts."""
    return {"X-Host-Token": game["host_token"], **seat_key(game, who)}


def state(srv: Server, game: dict) -> dict:
    status, st = srv.json("GET", f"/api/games/{game['id']}/state", headers=host_headers(game))
    assert status == 200, st
    return st


def export(srv: Server, game: dict) -> dict:
    status, _, body = srv.request("GET", f"/host/{game['id']}/export.json?key={game['host_token']}")
    assert status == 200
    return json.loads(body)


def menu_for(srv: Server, game: dict, who) -> tuple[dict, str]:
    """(menu response, POST url) for a seat index or the host."""
    if who == "host":
        status, menu = srv.json("GET", f"/api/games/{game['id']}/host/menu", headers=host_headers(game))
        url = f"/api/games/{game['id']}/host/actions"
    else:
        token = game["seats"][who]["token"]
        status, menu = srv.json("GET", f"/api/seats/{token}/menu", headers=seat_key(game, who))
        url = f"/api/seats/{token}/actions"
    assert status == 200, menu
    return menu, url


def advance(srv: Server, game: dict, rng: random.Random, steps: int) -> None:
    """Play `steps` random legal actions one at a time."""
    for _ in range(steps):
        st = state(srv, game)
        if st["phase"] == "over":
            return
        menu, url = menu_for(srv, game, st["pending"][0]["who"])
        pick = rng.choice([o for o in menu["menu"] if o["available"]])
        status, body = srv.json("POST", url, {"version": menu["version"], "choice": pick["choice"]},
                                headers=host_headers(game, st["pending"][0]["who"]))
        assert status == 200, body


def race(jobs: list) -> list:
    """Run every job (a function taking no argument) in its own thread, released together."""
    barrier = threading.Barrier(len(jobs))
    with ThreadPoolExecutor(len(jobs)) as pool:
        return list(pool.map(lambda job: job(barrier), jobs))


def post_job(srv: Server, method: str, path: str, body: bytes, headers: dict):
    """A job that opens its connection first, waits at the barrier, then sends one request."""

    def job(barrier: threading.Barrier):
        conn = srv.connect()
        conn.connect()
        barrier.wait()
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, dict(resp.headers), resp.read()
        finally:
            conn.close()

    return job


def check_log(srv: Server, game: dict) -> dict:
    """The log has exactly one entry per version, 1..version, and the game's version is its last."""
    exp = export(srv, game)
    versions = [a["version"] for a in exp["actions"]]
    assert versions == list(range(1, exp["version"] + 1)), "duplicated or lost log entries"
    return exp


def test_twenty_clients_same_version_json_api(srv):
    """Twenty clients post a choice for the same version at the same moment, round after round."""
    game = seated_game(srv)
    rng = random.Random(1)
    for rnd in range(12):
        st = state(srv, game)
        who = st["pending"][0]["who"]
        menu, url = menu_for(srv, game, who)
        v = menu["version"]
        available = [o for o in menu["menu"] if o["available"]]
        picks = [rng.choice(available) for _ in range(CLIENTS)]
        jobs = [post_job(srv, "POST", url, json.dumps({"version": v, "choice": p["choice"],
                                                       "decision": p["decision"]}).encode(),
                         {"Content-Type": "application/json", **host_headers(game, who)}) for p in picks]
        results = race(jobs)
        won = [i for i, (status, _, _) in enumerate(results) if status == 200]
        assert len(won) == 1, [r[0] for r in results]
        assert json.loads(results[won[0]][2])["version"] == v + 1
        for i, (status, _, body) in enumerate(results):
            if i in won:
                continue
            assert status == 409, (status, body)
            refusal = json.loads(body)  # the reason, and the fresh version and menu to answer again
            assert refusal["error"] and refusal["version"] == v + 1 and isinstance(refusal["menu"], list)
        exp = check_log(srv, game)
        assert exp["version"] == v + 1
        last = exp["actions"][-1]
        winner = picks[won[0]]
        assert last["action"] == {"who": who, "decision": winner["decision"], "pick": winner["value"]}
        # some rounds: let the game move on a little so the races meet different questions
        advance(srv, game, rng, rnd % 3)


def test_twenty_taps_on_the_phone_and_the_host_proxy_forms(srv):
    """The HTML routes: one phone's form posted ten times at once (half with HX-Request) while the host
    posts ten times for the same seat from "act for this seat": one applied, nineteen 409s."""
    game = seated_game(srv, seed=12)
    rng = random.Random(2)
    phones = []
    for s in game["seats"]:
        phone = Browser(srv)
        status, _, _ = phone.get(f"/j/{s['token']}")
        assert status == 302
        phones.append(phone)
        s["device"] = phone.cookies[f"seat_{s['token']}"]  # the script reads menus with the phone's own key
    host = Browser(srv)
    status, _, page = host.get("/")
    host_csrf = csrf_of(page)
    for rnd in range(6):
        st = state(srv, game)
        who = st["pending"][0]["who"]
        if who == "host":
            advance(srv, game, rng, 1)
            continue
        token = game["seats"][who]["token"]
        phone = phones[who]
        status, _, page = phone.get(f"/seat/{token}")
        assert status == 200
        menu, _ = menu_for(srv, game, who)
        available = [o for o in menu["menu"] if o["available"]]
        jobs = []
        for i in range(CLIENTS):
            pick = rng.choice(available)
            if i % 2 == 0:  # the phone (every other one an htmx tap)
                form = {"csrf": csrf_of(page), "version": menu["version"], "choice": pick["choice"],
                        "decision": pick["decision"]}
                cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
                path = f"/seat/{token}/act"
            else:  # the host acting for the seat
                form = {"csrf": host_csrf, "version": menu["version"], "choice": pick["choice"],
                        "decision": pick["decision"]}
                cookie = "; ".join(f"{k}={v}" for k, v in host.cookies.items())
                path = f"/host/{game['id']}/seat/{who}/act?key={game['host_token']}"
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
            if i % 4 == 0:
                headers["HX-Request"] = "true"
            jobs.append(post_job(srv, "POST", path, urlencode(form).encode(), headers))
        results = race(jobs)
        ok = [i for i, (status, _, _) in enumerate(results) if status in (200, 302)]
        assert len(ok) == 1, [r[0] for r in results]
        refused = [r for i, r in enumerate(results) if i not in ok]
        assert all(status == 409 for status, _, _ in refused), [r[0] for r in refused]
        assert all(b'class="flash-error"' in body or b'class="panel error"' in body for _, _, body in refused)
        exp = check_log(srv, game)
        assert exp["version"] == menu["version"] + 1 and exp["actions"][-1]["who"] == str(who)
        advance(srv, game, rng, rnd % 2)


def test_twenty_hosts_undo_at_once(srv):
    """Twenty undo forms for the same version: one undo entry, exactly `count` acts taken back."""
    game = seated_game(srv, seed=13)
    advance(srv, game, random.Random(3), 12)
    host = Browser(srv)
    status, _, page = host.get("/")
    csrf = csrf_of(page)
    before = export(srv, game)
    v = before["version"]
    body = urlencode({"csrf": csrf, "version": v, "count": 2, "confirm": "yes"}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Cookie": "; ".join(f"{k}={val}" for k, val in host.cookies.items())}
    results = race([post_job(srv, "POST", f"/host/{game['id']}/undo?key={game['host_token']}", body, headers)
                    for _ in range(CLIENTS)])
    assert sorted(r[0] for r in results) == [302] + [409] * (CLIENTS - 1)
    after = check_log(srv, game)
    assert after["version"] == v + 1
    assert [a["kind"] for a in after["actions"]].count("undo") == 1
    undo = next(a for a in after["actions"] if a["kind"] == "undo")
    assert len(undo["action"]["acts"]) == 2, "undo counts acts (issue 25 item 6)"
    assert sum(a["undone"] for a in after["actions"]) == len(undo["action"]["undo"]) >= 2


def test_twenty_clients_racing_until_50_actions_lose_and_duplicate_nothing(srv):
    """Twenty clients each loop: read the question, post a random choice, and on 409 read again. Every
    200 names a distinct new version, together they are exactly the new log entries, and each entry is
    the action its client sent."""
    game = seated_game(srv, seed=14, draw="table")
    start = state(srv, game)["version"]
    target = 50
    lock = threading.Lock()
    sent: dict[int, dict] = {}
    refusals = []
    stop = threading.Event()

    def client(i: int):
        rng = random.Random(100 + i)
        while not stop.is_set():
            st = state(srv, game)
            if st["phase"] == "over" or st["version"] - start >= target:
                stop.set()
                return
            who = rng.choice(st["pending"])["who"]
            menu, url = menu_for(srv, game, who)
            options = [o for o in menu["menu"] if o["available"]]
            if not options:
                continue
            pick = rng.choice(options)
            status, body = srv.json("POST", url, {"version": menu["version"], "choice": pick["choice"],
                                                  "decision": pick["decision"]}, headers=host_headers(game, who))
            with lock:
                if status == 200:
                    assert body["version"] not in sent, "two clients were told they made the same version"
                    sent[body["version"]] = {"who": who, "decision": pick["decision"], "pick": pick["value"]}
                else:
                    refusals.append((status, body.get("error")))

    with ThreadPoolExecutor(CLIENTS) as pool:
        for f in [pool.submit(client, i) for i in range(CLIENTS)]:
            f.result()
    exp = check_log(srv, game)
    new = [a for a in exp["actions"] if a["version"] > start]
    assert sorted(sent) == [a["version"] for a in new]
    for a in new:
        assert a["action"] == sent[a["version"]]
    assert refusals, "twenty clients never collided: the race did not happen"
    assert all(status == 409 and error for status, error in refusals), set(refusals)


def test_twenty_phones_scan_one_code_at_once(srv):
    """A seat has one phone: of twenty simultaneous scans each is answered, and exactly one device cookie
    (the last scan's) opens the seat."""
    game = seated_game(srv, seed=15)
    for round_ in range(3):
        token = game["seats"][round_]["token"]
        results = race([post_job(srv, "GET", f"/j/{token}", None, {}) for _ in range(CLIENTS)])
        assert [status for status, _, _ in results] == [302] * CLIENTS
        cookies = []
        for _, headers, _ in results:
            set_cookie = [v for k, v in headers.items() if k.lower() == "set-cookie"]
            cookies.append(next(c.split(";")[0] for c in set_cookie if c.startswith(f"seat_{token}=")))
        assert len(set(cookies)) == CLIENTS
        opens = [srv.request("GET", f"/seat/{token}", headers={"Cookie": c})[0] for c in cookies]
        assert sorted(opens) == [200] + [403] * (CLIENTS - 1)


def test_twenty_games_created_at_once_are_distinct(srv):
    body = json.dumps({"players": PLAYERS[:2]}).encode()
    for _ in range(3):
        results = race([post_job(srv, "POST", "/api/games", body, {"Content-Type": "application/json"})
                        for _ in range(CLIENTS)])
        assert [status for status, _, _ in results] == [201] * CLIENTS
        games = [json.loads(b) for _, _, b in results]
        assert len({g["id"] for g in games}) == CLIENTS
        tokens = [g["host_token"] for g in games] + [s["token"] for g in games for s in g["seats"]]
        assert len(set(tokens)) == len(tokens)
