"""`serve` on every core (issue 23 item 5, issue 32): worker processes share one port, and what one of them
knows only in memory reaches the others on private lines through the parent (companion/serve/lines.py,
companion/serve/siblings.py, companion/serve/workers.py).

Two apps joined as siblings in this process, their parent's relay in a thread, show each thing crossing;
real servers with two workers show that a move reaches screens held by either worker, that a worker that
dies or stops answering is started again, and that workers never outlive their parent (a killed server's
port is free again at once)."""

from __future__ import annotations

import http.client
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest

from companion.web import create_app
from companion.serve.lines import ALIVE, LARGEST, Lines, Watch, pair
from companion.serve.siblings import Siblings, WorkersNews
from companion.serve import workers
from companion.serve.workers import Worker, cores
from server import Server, alive, wait_until, workers_of

pytestmark = pytest.mark.posix

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
LONG = 30.0  # a wait no test sits out: answering well before it means the news crossed


@contextmanager
def pair_of_apps(tmp_path, **config):
    """Two apps over one instance folder, as two workers of one serve run, on the lines their parent made, put
    together as companion/cli.py puts a worker's app together."""
    lines = Lines(2)
    base = {"INSTANCE": str(tmp_path), "TESTING": True, "POLL_HOLD_S": LONG, **config}
    apps = []
    for i in range(2):
        news = WorkersNews(Siblings(lines.of(i)[0], i))
        apps.append(create_app(base, news))
        news.share_phones(apps[-1].extensions["phones"])
        news.siblings.listen()
    yield apps


def first_move(client, game: dict) -> int:
    """One legal choice by whoever decides now, through the JSON API; the new version."""
    host = {"X-Host-Token": game["host_token"]}
    st = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    who = st["pending"][0]["who"]
    if who == "host":
        base = f"/api/games/{game['id']}/host"
    else:
        base = f"/api/seats/{game['seats'][who]['token']}"
        host["X-Seat-Device"] = client.post(base + "/join", json={}).get_json()["device"]
    menu = client.get(base + "/menu", headers=host).get_json()
    pick = next(o for o in menu["menu"] if o["available"])
    r = client.post(base + "/actions", headers=host,
                    json={"version": menu["version"], "choice": pick["choice"], "decision": pick["decision"]})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["version"]


# --- the lines and their messages ------------------------------------------------------------------------

def test_a_message_reaches_every_other_worker_and_not_the_sender():
    lines = Lines(3)
    siblings = [Siblings(lines.of(i)[0], i) for i in range(3)]
    heard = {i: [] for i in range(3)}
    for i, s in enumerate(siblings):
        s.on("v", lambda *fields, i=i: heard[i].append(fields))
    siblings[0].tell("v", "game", 7)
    for s in siblings:
        s.apply_waiting()
    assert heard == {0: [], 1: [("game", "7")], 2: [("game", "7")]}


def test_a_line_nobody_reads_drops_and_counts_and_never_waits():
    """A worker stopped or hung reads nothing: its line fills, and then each message to it is dropped at once
    (issue 32: each send waited 50 ms under one lock, and every move of the other worker with it)."""
    ours, theirs = pair()
    t0 = time.monotonic()
    sent = [ours.send(b"v\tgame\t1" + b" " * 200) for _ in range(20_000)]
    assert time.monotonic() - t0 < 2.0
    assert sent[0] and not sent[-1] and ours.dropped == sent.count(False) > 0
    assert theirs.receive().startswith(b"v\tgame\t1")


def test_a_worker_being_started_again_finds_what_was_said_meanwhile_and_the_others_go_on():
    """The parent keeps every end, so what is told to a worker being started again waits on its line (the
    truth is in the games file anyway) and the one who told it goes on at once."""
    lines = Lines(3)
    talking, listening = Siblings(lines.of(0)[0], 0), Siblings(lines.of(1)[0], 1)  # worker 3 is down
    heard = []
    listening.on("v", lambda *fields: heard.append(fields))
    talking.tell("v", "game", 1)
    listening.apply_waiting()
    again = Siblings(lines.of(2)[0], 2)  # worker 3, started again
    again.on("v", lambda *fields: heard.append(fields))
    again.apply_waiting()
    assert heard == [("game", "1"), ("game", "1")] and talking.dropped == 0


def test_a_message_that_cannot_be_read_is_dropped_and_counted_and_the_line_goes_on():
    """Issue 32: one malformed message killed a worker's listening thread; its screens then saw moves late."""
    ours, theirs = pair()
    s = Siblings({1: theirs}, 0)
    heard = []
    s.on("v", lambda gid, version: heard.append((gid, int(version))))
    s.listen()
    for garbage in (b"\xff\xfe", b"v\tgame\tnot-a-number", b"v\tonly-one-field", b"nothing-known\t1", b"",
                    b"v\t" + b"x" * (LARGEST * 3)):
        ours.send(garbage)
    ours.send(b"v\tgame\t3")
    wait_until(lambda: heard == [("game", 3)])
    assert s.unreadable == 6 and s.dropped == 6


def test_the_parent_hears_each_workers_heartbeat_and_forgets_those_from_before_a_restart():
    lines = Lines(2)
    watch = Watch(lines)
    for i in range(2):
        watch.started(i)
    lines.of(0)[1].send(ALIVE)
    wait_until(lambda: watch.turn(0.01) or watch.heard[0] is not None)
    silent, heard = watch.silent_for(0)
    assert heard and silent < 5 and watch.silent_for(1)[1] is False
    lines.of(1)[1].send(ALIVE)  # worker 2's last heartbeat before it died
    watch.started(1)  # started again
    watch.turn(0.05)
    assert watch.silent_for(1)[1] is False


def test_a_worker_that_keeps_failing_waits_longer_each_time_and_one_that_ran_a_while_starts_at_once():
    """Issue 32: the pause never went back (a kill -9 fifteen minutes after the last still waited 8 s)."""
    worker = Worker(0, pid=1, started=0.0)
    assert [worker.failed(now=1.0), worker.failed(now=2.0), worker.failed(now=3.0)] == [1.0, 2.0, 4.0]
    assert worker.due == 7.0 and worker.pid == 0
    worker.started = 10.0
    assert worker.failed(now=10.0 + workers.RAN_A_WHILE) == workers.RESTART_AFTER
    worker.started = 95.0
    for _ in range(10):
        worker.failed(now=100.0)  # each time it failed within seconds of starting
    assert worker.pause == workers.LONGEST_PAUSE


# --- two apps as two workers --------------------------------------------------------------------------------

def news_across(tmp_path, query: str, event) -> tuple:
    """A host screen's question held by the second worker while `event(client of the first, game)` happens
    in the first: (the question's answer, seconds it waited, what `event` gave)."""
    with pair_of_apps(tmp_path) as (one, two), ThreadPoolExecutor(1) as pool:
        game = one.test_client().post("/api/games", json={"players": PLAYERS, "seed": 3}).get_json()
        t0 = time.monotonic()
        answer = pool.submit(two.test_client().get, f"/host/{game['id']}/news?{query}&key={game['host_token']}")
        wait_until(lambda: two.extensions["held"].waiting == 1)
        given = event(one.test_client(), game)
        r = answer.result(timeout=LONG)
    return r, time.monotonic() - t0, given


def test_a_move_made_in_one_worker_wakes_the_screens_waiting_in_the_other(tmp_path):
    r, waited, new = news_across(tmp_path, "v=0", first_move)
    assert waited < LONG / 2
    assert r.status_code == 200 and r.get_data(as_text=True).startswith(f'<div id="poll" data-version="{new}"')


def test_a_seat_taken_in_one_worker_is_news_for_the_host_waiting_in_the_other(tmp_path):
    r, waited, joined = news_across(tmp_path, "v=0&j=0",
                                    lambda client, game: client.get(f"/j/{game['seats'][0]['token']}"))
    assert joined.status_code == 302
    assert waited < LONG / 2 and r.status_code == 200


def test_join_codes_tried_on_both_workers_count_as_one_limit(tmp_path):
    """A guesser's tries spread over the workers still meet the one limit (R: docs/SECURITY.md)."""
    with pair_of_apps(tmp_path, JOIN_TRIES_PER_MINUTE=4) as (one, two):
        one.test_client().post("/api/games", json={"players": PLAYERS, "seed": 3})
        phones = [app.test_client() for app in (one, two)]
        csrfs = [p.get("/join").get_data(as_text=True).split('name="csrf" value="')[1].split('"')[0] for p in phones]
        answers = [phones[i % 2].post("/join", data={"csrf": csrfs[i % 2], "code": "AAAAA"}).status_code
                   for i in range(6)]
    assert answers == [404, 404, 404, 404, 429, 429]


def test_new_games_started_on_both_workers_count_as_one_limit(tmp_path):
    with pair_of_apps(tmp_path, NEW_GAMES_PER_MINUTE=3) as (one, two):
        answers = [app.test_client().post("/api/games", json={"players": PLAYERS}).status_code
                   for app in (one, two, one, two, one)]
    assert answers == [201, 201, 201, 429, 429]


def test_a_phone_waiting_in_one_worker_shows_connected_on_a_host_drawn_by_the_other(tmp_path):
    with pair_of_apps(tmp_path) as (one, two), ThreadPoolExecutor(1) as pool:
        game = one.test_client().post("/api/games", json={"players": PLAYERS, "seed": 3}).get_json()
        phone = one.test_client()
        token = game["seats"][1]["token"]
        assert phone.get(f"/j/{token}").status_code == 302
        pool.submit(phone.get, f"/seat/{token}/news?v=0")
        wait_until(lambda: one.extensions["held"].waiting == 1)
        seen = two.extensions["phones"]
        wait_until(lambda: seen.of(game["id"], 1)["connected"])
        assert seen.of(game["id"], 0)["ago"] is None  # the other seat's phone never asked
        first_move(one.test_client(), game)  # the phone's question is answered and ends


# --- real servers -------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.linux
def test_serve_runs_one_worker_per_core_by_default(tmp_path):
    with Server(tmp_path) as srv:
        forked = cores() if cores() > 1 else 0  # one core: the server answers in its own process
        wait_until(lambda: len(workers_of(srv.proc.pid)) == forked, 20)
        assert f"{cores()} worker process" in srv.tail()


@pytest.mark.slow
@pytest.mark.linux
def test_screens_held_by_either_worker_see_a_move_at_once(tmp_path):
    """Twelve host screens, each on its own connection, spread over two workers by the kernel: one move
    answers every one of them well before their wait would end."""
    with Server(tmp_path, args=["--workers", "2"]) as srv:
        wait_until(lambda: len(workers_of(srv.proc.pid)) == 2, 20)
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        assert status == 201
        conns = [http.client.HTTPConnection("127.0.0.1", srv.port, timeout=LONG) for _ in range(12)]
        for c in conns:
            c.request("GET", f"/host/{game['id']}/news?v=0&key={game['host_token']}")
        time.sleep(0.5)  # every question has arrived and waits
        t0 = time.monotonic()
        keys = {"X-Host-Token": game["host_token"]}
        st = srv.json("GET", f"/api/games/{game['id']}/state", headers=keys)[1]
        who = st["pending"][0]["who"]
        base = f"/api/games/{game['id']}/host" if who == "host" else f"/api/seats/{game['seats'][who]['token']}"
        if who != "host":
            keys["X-Seat-Device"] = srv.json("POST", base + "/join", {})[1]["device"]
        menu = srv.json("GET", base + "/menu", headers=keys)[1]
        pick = next(o for o in menu["menu"] if o["available"])
        status, out = srv.json("POST", base + "/actions", {"version": menu["version"], "choice": pick["choice"],
                                                           "decision": pick["decision"]}, headers=keys)
        assert status == 200, out
        for c in conns:
            resp = c.getresponse()
            assert resp.status == 200 and resp.read().decode().startswith(
                f'<div id="poll" data-version="{out["version"]}"')
            c.close()
        assert time.monotonic() - t0 < LONG / 3


@pytest.mark.slow
@pytest.mark.linux
def test_a_worker_that_dies_is_started_again_and_the_table_plays_on(tmp_path):
    with Server(tmp_path, args=["--workers", "2"]) as srv:
        wait_until(lambda: len(workers_of(srv.proc.pid)) == 2, 20)
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        victim = workers_of(srv.proc.pid)[0]
        os.kill(victim, signal.SIGKILL)
        for _ in range(20):  # the other worker answers meanwhile
            assert srv.json("GET", f"/api/games/{game['id']}/version")[0] == 200
        wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if p != victim and alive(p)]) == 2, 20)
        assert "starting it again" in srv.tail()
        assert srv.json("GET", f"/api/games/{game['id']}/version")[1]["version"] == 0


@pytest.mark.slow
@pytest.mark.linux
def test_workers_die_with_their_server_so_its_port_is_free_again_at_once(tmp_path):
    srv = Server(tmp_path, args=["--workers", "2"]).start()
    wait_until(lambda: len(workers_of(srv.proc.pid)) == 2, 20)
    workers, port = workers_of(srv.proc.pid), srv.port
    srv.kill()  # SIGKILL: the parent cleans nothing up
    wait_until(lambda: not any(alive(p) for p in workers), 10)
    srv.start(port=port)  # the same address at once
    assert srv.json("GET", "/api/games/-/version")[0] == 404
    srv.stop()  # SIGTERM: the workers stop with it
    assert srv.proc.returncode == 0
    assert not workers_of(srv.proc.pid)

