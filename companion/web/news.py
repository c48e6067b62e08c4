"""News for the screens. A screen asks "anything new since version N?" and the question waits at the server
until the game moves on (or a while passes): news reaches every screen as soon as it is committed, and a
hundred quiet tables cost sleeping threads instead of thousands of requests a second.

The wait happens in a small WSGI layer in front of Flask, so an unchanged game costs one or two indexed
reads and no rendering; when there is news, the app answers with the screen's new question and every live
region of the screen (host.news, seat.news, host.seat_news).
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import deque
from contextlib import contextmanager
from urllib.parse import parse_qs

# a screen's question: the host screen, a phone, or a phone's page shown on the host screen
NEWS = re.compile(r"^/(?:host/(?P<gid>[0-9a-f]{1,32})(?:/seat/\d{1,3})?|seat/(?P<token>[A-Za-z0-9_-]{1,64}))/news$")
UNCHANGED = ("204 No Content", [("Content-Length", "0"), ("Cache-Control", "no-store")])


class Bulletin:
    """The newest version of each game this server committed, and a way to sleep until it moves on.

    The store posts after every commit. Each game has its own wake-up, so a move at one table wakes only
    the screens of that table."""

    def __init__(self):
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._bells: dict[str, threading.Condition] = {}
        self._held = threading.local()

    def post(self, gid: str, version: int) -> None:
        held = getattr(self._held, "posts", None)
        if held is not None:  # inside `after_answer`: the acting screen gets its answer first
            held.append((gid, version))
            return
        with self._lock:
            if version > self._latest.get(gid, -1):  # two commits may post out of order
                self._latest[gid] = version
            bell = self._bells.get(gid)
            if bell is not None:
                bell.notify_all()

    @contextmanager
    def after_answer(self):
        """Posts made inside the block go out when it ends: the phone that tapped gets its new menu
        before the other screens of its table start drawing theirs (they would share one core)."""
        self._held.posts = []
        try:
            yield
        finally:
            posts, self._held.posts = self._held.posts, None
            for gid, version in posts:
                self.post(gid, version)

    def wait(self, gid: str, seen: int, now: int, timeout: float) -> int:
        """The game's version once it differs from `seen`, or `seen` when `timeout` passes first.

        `now` is the version just read from the database: it covers commits this bulletin never heard of."""
        deadline = time.monotonic() + timeout
        with self._lock:
            latest = self._latest[gid] = max(self._latest.get(gid, now), now)
            bell = self._bells.setdefault(gid, threading.Condition(self._lock))
            while latest == seen:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                bell.wait(remaining)
                latest = self._latest[gid]
            return latest


class InTurn:
    """A lock taken in the order it was asked for (threading.Lock wakes an arbitrary waiter, which let
    some screens wait behind later ones)."""

    def __init__(self):
        self._guard = threading.Lock()
        self._queue: deque[threading.Event] = deque()
        self._busy = False

    def __enter__(self):
        with self._guard:
            if not self._busy:
                self._busy = True
                return self
            turn = threading.Event()
            self._queue.append(turn)
        turn.wait()
        return self

    def __exit__(self, *exc):
        with self._guard:
            if self._queue:
                self._queue.popleft().set()  # handed on: still busy
            else:
                self._busy = False


class NewsPoll:
    """GET <screen>/news?v=N: held while the game is still at N, about `hold` seconds (give or take a
    quarter, so screens that asked together do not all ask again together), then 204.

    At most `places` polls wait at once (each holds a server thread); past that a poll is answered
    at once, and the page simply asks again a moment later, as a plain poll would."""

    def __init__(self, app, store, bulletin: Bulletin, hold: float, places: int):
        self.app, self.store, self.bulletin, self.hold = app, store, bulletin, hold
        self.places = threading.BoundedSemaphore(max(1, places))
        self.drawing = InTurn()  # one news answer drawn at a time, first come first drawn: see __call__
        self.waiting = 0  # how many questions wait right now (read by tests and benchmarks)
        self._count = threading.Lock()

    def __call__(self, environ, start_response):
        m = NEWS.match(environ.get("PATH_INFO", ""))
        if m and environ.get("REQUEST_METHOD") == "GET":
            seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            try:
                gid = m["gid"] or self.store.seat_by_token(m["token"])["game_id"]
                now = self.store.version(gid)
            except Exception:  # an unknown game or seat: the app answers with its message
                now = None
            if now is not None and seen == str(now):  # compared as text: any other text is news
                if self.hold > 0 and self.places.acquire(blocking=False):
                    with self._count:
                        self.waiting += 1
                    try:
                        now = self.bulletin.wait(gid, now, now, self.hold * random.uniform(0.75, 1.25))
                    finally:
                        with self._count:
                            self.waiting -= 1
                        self.places.release()
                if seen == str(now):
                    start_response(*UNCHANGED)
                    return [b""]
            if now is not None:
                # News: the screens of a table all ask at once. Drawn one after the other, the first
                # screens show the move sooner and the last no later than if all shared the core.
                with self.drawing:
                    return self.app(environ, start_response)
        with self.bulletin.after_answer():
            return self.app(environ, start_response)
