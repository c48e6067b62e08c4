"""Stopping `serve` with screens waiting (issue 32 item 8): Ctrl-C in its terminal or SIGTERM from a service
manager ends every process within 2 s, though 50 screens' questions wait at the server for news (each
holding a thread for up to 25 s): the questions are let go at once, answered "nothing new", and their
pages ask again once the server is back."""

from __future__ import annotations

import os
import select
import signal
import socket
import time

import pytest

from server import Server, alive, wait_until, workers_of

pytestmark = [pytest.mark.slow, pytest.mark.linux]

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
QUESTIONS = 50


def held_questions(srv: Server, count: int) -> list[socket.socket]:
    """`count` host screens' questions, over games enough that none is past a game's share, all waiting."""
    questions = []
    while len(questions) < count:
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        assert status == 201, game
        for _ in range(min(10, count - len(questions))):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
            s.sendall(f"GET /host/{game['id']}/news?v=0&key={game['host_token']} HTTP/1.1\r\n"
                      f"Host: 127.0.0.1\r\n\r\n".encode())
            questions.append(s)
    time.sleep(1.0)
    assert not select.select(questions, [], [], 0)[0]  # none answered: each waits for news
    return questions


@pytest.mark.parametrize("how", ["SIGTERM to serve", "Ctrl-C in its terminal"])
def test_serve_stops_within_two_seconds_with_50_questions_waiting(tmp_path, how):
    """Issue 32: stopping took 5-15 s after Ctrl-C or SIGTERM. (A terminal's Ctrl-C sends SIGINT to every
    process of serve at once.)"""
    with Server(tmp_path) as srv:
        wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p)]) >= min(2, os.cpu_count() or 1),
                   30)
        questions = held_questions(srv, QUESTIONS)
        everyone = [srv.proc.pid, *workers_of(srv.proc.pid)]
        t0 = time.monotonic()
        if how == "SIGTERM to serve":
            srv.proc.send_signal(signal.SIGTERM)
        else:
            for pid in everyone:
                os.kill(pid, signal.SIGINT)
        wait_until(lambda: not any(alive(p) for p in everyone), 10, "serve did not end")
        took = time.monotonic() - t0
        assert srv.proc.wait(5) == 0
        for s in questions:
            s.close()
    assert took < 2.0, took
