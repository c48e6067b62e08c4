"""The server's connection manager (companion/serve/connections.py), piece by piece: when the bytes a connection
sent make a whole request (so a thread may answer it), what it refuses, the reader the answering thread reads from,
and `serve` on a port that is already taken. The manager at work on real sockets: tests/served/test_sockets.py."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from types import SimpleNamespace

import pytest
from cheroot.connections import ConnectionManager

from companion.serve.arrival import (BAD_LENGTH, CONTINUE, HEAD_LIMIT, NO_LENGTH, READY, TOO_LARGE_BODY, TOO_LARGE_HEAD,
                                   TOO_LONG_URL, WAIT, Arrived, Refusal, larger_for, verdict)
from companion.serve.connections import WaitingConnections
from companion.serve.server import cannot_listen
from server import ROOT

BODY_LIMIT = 64 * 1024


def head(*lines: str, start: str = "GET /play HTTP/1.1") -> bytes:
    return ("\r\n".join((start, "Host: table", *lines)) + "\r\n\r\n").encode()


# --- a whole request, or not yet ------------------------------------------------------------------------

def test_a_whole_request_without_a_body_is_ready():
    assert verdict(head(), BODY_LIMIT) == READY


@pytest.mark.parametrize("cut", [0, 1, 10, 25, -1])
def test_a_head_cut_anywhere_waits_for_the_rest(cut):
    assert verdict(head()[:cut], BODY_LIMIT) == WAIT


def test_a_body_is_waited_for_to_its_last_byte():
    post = head("Content-Length: 11", start="POST /api/games HTTP/1.1")
    assert verdict(post, BODY_LIMIT) == WAIT
    assert verdict(post + b"players=1", BODY_LIMIT) == WAIT
    assert verdict(post + b"players=123", BODY_LIMIT) == READY
    assert verdict(post + b"players=123GET /next", BODY_LIMIT) == READY  # the next request may follow


def test_a_head_asking_for_100_continue_hears_it_before_its_body():
    post = head("Content-Length: 5", "Expect: 100-continue", start="POST /api/games HTTP/1.1")
    assert verdict(post, BODY_LIMIT) == CONTINUE
    assert verdict(post + b"12345", BODY_LIMIT) == READY


def test_header_names_are_read_in_any_case():
    post = head("content-LENGTH: 3", start="POST /x HTTP/1.1")
    assert verdict(post, BODY_LIMIT) == WAIT and verdict(post + b"abc", BODY_LIMIT) == READY


# --- refused by the connection manager ----------------------------------------------------------------------

def test_a_head_over_the_limit_is_refused_with_431():
    big = head("X-Big: " + "a" * 100_000)
    assert verdict(big, BODY_LIMIT) is TOO_LARGE_HEAD
    assert verdict(big[:HEAD_LIMIT + 1], BODY_LIMIT) is TOO_LARGE_HEAD  # refused before the rest arrives
    assert TOO_LARGE_HEAD.reply().startswith(b"HTTP/1.1 431 ")


def test_a_head_exactly_at_the_limit_is_let_in():
    base = head("X-Pad: ")
    exact = head("X-Pad: " + "a" * (HEAD_LIMIT - len(base)))
    assert len(exact) == HEAD_LIMIT and verdict(exact, BODY_LIMIT) == READY
    over = head("X-Pad: " + "a" * (HEAD_LIMIT - len(base) + 1))
    assert verdict(over, BODY_LIMIT) is TOO_LARGE_HEAD


def test_a_link_longer_than_the_limit_is_refused_with_414():
    assert verdict(("GET /" + "a" * 100_000).encode(), BODY_LIMIT) is TOO_LONG_URL


def test_a_body_over_the_limit_is_refused_before_it_arrives():
    assert verdict(head(f"Content-Length: {BODY_LIMIT + 1}", start="POST /x HTTP/1.1"), BODY_LIMIT) is TOO_LARGE_BODY
    assert verdict(head(f"Content-Length: {BODY_LIMIT}", start="POST /x HTTP/1.1"), BODY_LIMIT) == WAIT


def test_only_the_paths_the_app_names_may_send_a_larger_body():
    """A game's file to resume (web/host/resume.py) may be megabytes; no other request makes the manager hold more."""
    limit = larger_for({"/api/games/resume": 5 * BODY_LIMIT}, BODY_LIMIT)
    big = f"Content-Length: {4 * BODY_LIMIT}"
    assert verdict(head(big, start="POST /api/games/resume HTTP/1.1"), limit) == WAIT
    assert verdict(head(big, start="POST /api/games/resume?x=1 HTTP/1.1"), limit) == WAIT
    for other in ("POST /api/games HTTP/1.1", "POST /api/games/resume/x HTTP/1.1", "POST /API/games/resume HTTP/1.1",
                  "POST  /api/games/resume HTTP/1.1", "garbage"):
        assert verdict(head(big, start=other), limit) is TOO_LARGE_BODY, other
    assert verdict(head(f"Content-Length: {5 * BODY_LIMIT + 1}", start="POST /api/games/resume HTTP/1.1"),
                limit) is TOO_LARGE_BODY


@pytest.mark.parametrize("lines, refusal", [
    (["Transfer-Encoding: chunked"], NO_LENGTH),
    (["Content-Length: -1"], BAD_LENGTH),
    (["Content-Length: twelve"], BAD_LENGTH),
    (["Content-Length: 3", "Content-Length: 300"], BAD_LENGTH),
])
def test_a_body_of_unknown_length_is_refused(lines, refusal):
    assert verdict(head(*lines, start="POST /x HTTP/1.1"), BODY_LIMIT) is refusal


def test_every_refusal_is_a_whole_plain_answer_that_closes():
    for refusal in (TOO_LONG_URL, TOO_LARGE_HEAD, TOO_LARGE_BODY, NO_LENGTH, BAD_LENGTH):
        assert isinstance(refusal, Refusal)
        raw = refusal.reply()
        top, _, body = raw.partition(b"\r\n\r\n")
        assert b"Connection: close" in top and f"Content-Length: {len(body)}".encode() in top
        assert body.strip() and b"_" not in body  # a sentence, no internal names


# --- the reader the answering thread uses ----------------------------------------------------------------

def test_the_reader_gives_what_the_connection_manager_read_then_reads_on():
    here, there = socket.socketpair()
    with here, there:
        reader = Arrived(here)
        reader.buf += b"GET / HTTP/1.1\r\nHost: x\r\n"
        there.sendall(b"X-More: yes\r\n\r\nbody")
        assert reader.readline() == b"GET / HTTP/1.1\r\n"
        assert reader.readline(4) == b"Host"
        assert reader.readline() == b": x\r\n"
        assert reader.readline() == b"X-More: yes\r\n"  # read from the socket
        assert reader.readline() == b"\r\n"
        assert reader.has_data() and reader.read(2) == b"bo"
        there.close()
        assert reader.read() == b"dy" and not reader.has_data()
        assert reader.readline() == b"" and reader.bytes_read == len(b"GET / HTTP/1.1\r\nHost: x\r\nX-More: "
                                                                         b"yes\r\n\r\nbody")


# --- a busy port ---------------------------------------------------------------------------------------------

def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "MESSINA_INSTANCE": str(tmp_path), "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert out.stderr.strip().splitlines() == [
        f"port {port} is already in use — is the companion already running? Stop it, or choose another port "
        f"with --port."]
    assert "open http" not in out.stdout and "Traceback" not in out.stdout + out.stderr


def test_other_reasons_not_to_listen_say_what_to_do():
    denied = cannot_listen("0.0.0.0", 80, [PermissionError(errno.EACCES, "Permission denied")])
    assert denied == "not allowed to listen on port 80 — choose a port above 1023 with --port."
    absent = cannot_listen("10.9.8.7", 8000, [OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")])
    assert absent.startswith("cannot listen on 10.9.8.7: this computer has no such address")


# --- one device, one count -----------------------------------------------------------------------------------

def test_an_ipv6_device_counts_by_its_64_for_connections_too(monkeypatch):
    """Issue 32: the cap on open connections counted exact addresses, so an IPv6 phone (or a stranger) with
    a /64 to draw addresses from had a fresh cap for each. Now the manager counts a device as the limits do."""
    refused = []

    class Stand(SimpleNamespace):  # what the connection manager reads of cheroot's server
        def error_log(self, line):
            refused.append(line)

    listening = socket.socket()
    server = Stand(socket=listening, requests=SimpleNamespace(min=4), timeout=60, keep_alive_conn_limit=10)
    manager = WaitingConnections(server, per_client=2, body_limit=BODY_LIMIT)
    arriving = iter(SimpleNamespace(remote_addr=a, close=lambda: None)
                    for a in ("2001:db8:1:2::a", "2001:db8:1:2:ffff::b", "2001:db8:1:2::c", "2001:db8:1:3::a",
                              "::ffff:192.0.2.7", "192.0.2.7", "192.0.2.7"))
    monkeypatch.setattr(ConnectionManager, "_from_server_socket", lambda self, sock: next(arriving))
    admitted = [manager._from_server_socket(listening) is not None for _ in range(7)]
    assert admitted == [True, True, False, True, True, True, False]
    assert refused == ["refusing connections from 2001:db8:1:2::/64: it has 2 open (--per-client); said at most "
                       "once a minute", "refusing connections from 192.0.2.7: it has 2 open (--per-client); said "
                       "at most once a minute"]
    manager.close()
    listening.close()
