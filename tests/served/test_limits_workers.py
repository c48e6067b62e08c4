"""Per-device limits on a real server with several worker processes (issue 32 item 4): a worker started again
forgets no try, and tries spread over four workers at once meet the one limit, because they are counted in
the games file (store/tries.py), not in each worker's memory."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from server import Server, alive, csrf_of, wait_until, workers_of

pytestmark = [pytest.mark.slow, pytest.mark.linux]

JOIN_TRIES = 10  # the app's JOIN_TRIES_PER_MINUTE


def guesser(srv: Server) -> dict:
    """A device about to type codes on /join: its session cookie and the form's CSRF key."""
    status, headers, page = srv.request("GET", "/join")
    assert status == 200
    cookie = "; ".join(c.split(";", 1)[0] for c in headers.get_all("Set-Cookie"))
    return {"cookie": cookie, "csrf": csrf_of(page)}


def join_try(srv: Server, device: dict, barrier: threading.Barrier | None = None) -> int:
    """One wrong code, on a connection of its own (so the kernel may give it to any worker)."""
    conn = srv.connect()
    conn.connect()
    if barrier is not None:
        barrier.wait()
    try:
        conn.request("POST", "/join", body=f"csrf={device['csrf']}&code=ZZZZZ",
                     headers={"Cookie": device["cookie"], "Content-Type": "application/x-www-form-urlencoded"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def running(srv: Server, count: int) -> list[int]:
    wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p)]) == count, 30, "workers never started")
    return [p for p in workers_of(srv.proc.pid) if alive(p)]


def test_a_guesser_at_its_limit_gets_no_more_tries_after_a_worker_is_started_again(tmp_path):
    """Issue 32 (Low): a restarted worker forgot the counts, and a join-code guesser at its limit got 10
    more tries that minute."""
    with Server(tmp_path, args=["--workers", "2"]) as srv:
        victim = running(srv, 2)[0]
        device = guesser(srv)
        assert [join_try(srv, device) for _ in range(JOIN_TRIES)] == [404] * JOIN_TRIES
        os.kill(victim, signal.SIGKILL)
        wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p) and p != victim]) == 2, 30)
        time.sleep(2.0)  # the new worker has built its app and takes connections too
        answers = [join_try(srv, device) for _ in range(4 * JOIN_TRIES)]
    assert answers == [429] * (4 * JOIN_TRIES)


def test_four_workers_let_through_no_more_than_the_limit_in_a_burst(tmp_path):
    """Issue 32 (Low): tries arriving at once on several workers overshot the limit (10, 11, 14 join tries
    allowed against 10). Forty at once, over four workers: exactly ten are tried."""
    with Server(tmp_path, args=["--workers", "4"]) as srv:
        running(srv, 4)
        device = guesser(srv)
        barrier = threading.Barrier(4 * JOIN_TRIES)
        with ThreadPoolExecutor(4 * JOIN_TRIES) as pool:
            answers = list(pool.map(lambda _: join_try(srv, device, barrier), range(4 * JOIN_TRIES)))
    assert sorted(answers) == [404] * JOIN_TRIES + [429] * (3 * JOIN_TRIES)
