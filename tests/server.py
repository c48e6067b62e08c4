"""A real companion server for tests and benchmarks: `python -m companion serve` in its own process, on a
free port, with its own instance folder; wait until it answers; stop it or kill it with SIGKILL.

Only the standard library speaks HTTP here (http.client), so what is measured is the server.

    with Server(tmp_path) as srv:
        status, headers, body = srv.request("GET", "/api/games/x/version")
        srv.kill()      # SIGKILL, no cleanup at all
        srv.start()     # same instance folder, a new free port
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `python -m companion serve` process over an instance folder that outlives restarts."""

    def __init__(self, instance: str | Path, threads: int | None = None, env: dict | None = None,
                 args: list[str] | None = None):
        self.instance = Path(instance)
        self.args = list(args or [])
        self.instance.mkdir(parents=True, exist_ok=True)
        self.threads = threads
        self.extra_env = env or {}
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.log = self.instance / "server.log"

    # --- life cycle ------------------------------------------------------------------------------

    def start(self, timeout: float = 30.0, port: int | None = None) -> "Server":
        """Start (again) on a free port, or on `port` (the same address, as for screens left open)."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.port = port or free_port()
        env = {**os.environ, "MESSINA_INSTANCE": str(self.instance), "PYTHONPATH": str(ROOT),
               "PYTHONUNBUFFERED": "1", **self.extra_env}
        cmd = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        if self.threads:
            cmd += ["--threads", str(self.threads)]
        cmd += self.args
        out = open(self.log, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        out.close()
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Until the server answers an HTTP request (any status), or fail with its log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/api/games/-/version")
                conn.getresponse().read()
                conn.close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"the server did not answer within {timeout}s:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL (on Windows, TerminateProcess): the process gets no chance to clean up, flush or finish a
        request."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> "Server":
        self.kill()
        return self.start()

    def tail(self, n: int = 4000) -> str:
        try:
            return self.log.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.kill()

    # --- HTTP ------------------------------------------------------------------------------------

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def connect(self, timeout: float = 30.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, body=None, headers: dict | None = None, form: dict | None = None,
                timeout: float = 30.0) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request on a fresh connection: (status, headers, body). `body` may be a dict (sent as JSON)."""
        headers = dict(headers or {})
        if form is not None:
            body = urlencode(form).encode()
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        elif isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        conn = self.connect(timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.headers, resp.read()
        finally:
            conn.close()

    def json(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict]:
        status, _, data = self.request(method, path, body, headers)
        return status, json.loads(data) if data else {}


class Browser:
    """A tiny cookie-keeping client over one keep-alive connection (a phone or the host screen)."""

    def __init__(self, server: Server):
        self.server = server
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None,
                body: bytes | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = self.server.connect()
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt:
                    raise
        for header in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if value and "expires=Thu, 01 Jan 1970" not in header:
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)
        return resp.status, resp.headers, data

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, form: dict, **kw):
        return self.request("POST", path, form=form, **kw)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def wait_until(check, seconds: float = 10.0, what: str = "never happened") -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def workers_of(parent: int) -> list[int]:
    """The pids whose parent is `parent` (serve's worker processes), read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running (or stopped), not ended: no zombie either."""
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (ProcessLookupError, OSError):
        return False
    return state != "Z"


def take_seats(srv: Server, game: dict) -> dict:
    """A script takes every seat of a game it made, as a phone scanning each code would: each seat of `game`
    keeps its key under "device" (POST /api/seats/<token>/join); seat_key() is the header to send."""
    for seat in game["seats"]:
        status, out = srv.json("POST", f"/api/seats/{seat['token']}/join", {})
        assert status == 200, out
        seat["device"] = out["device"]
    return game


def seat_key(game: dict, who) -> dict:
    """The header with the seat's key, for the API's seat calls (nothing for the host)."""
    return {"X-Seat-Device": game["seats"][who]["device"]} if who != "host" else {}


CSRF = re.compile(rb'name="csrf" value="([^"]+)"')


def csrf_of(html: bytes) -> str:
    """The CSRF token a page embeds in its forms."""
    m = CSRF.search(html)
    assert m, "the page has no CSRF field"
    return m.group(1).decode()
