"""News for the screens, as a port: the store says a game moved on (its id and new version) or that its
screens must look again (a seat taken by another phone, a tick); a screen's question waits for news after
the version it shows, for a while at most. Two implementations stand behind it, chosen when the server
starts: `InProcessNews` here (one process), and serve's workers' (serve/siblings.py: the same, with each
fact told to the other worker processes). The app (web/news.py) only ever sees the port.

No Flask, no SQL and nothing of serve/: the store, the app and the server all meet here.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager
from typing import Protocol

REMEMBERED = 1024  # games whose latest version is remembered while none of their screens wait
CLIENT_GONE = "messina.client_gone"  # in the WSGI environ (serve/server.py): a callable, true once the client hung up
LOOK_EVERY = 1.0  # seconds between two looks at whether a waiting question's screen is still there


class News(Protocol):
    """What the store tells and what a screen's question waits on."""

    closed: bool

    def moved(self, gid: str, version: int) -> None:
        """The game moved on to `version` (a commit)."""

    def look_again(self, gid: str) -> None:
        """The game's screens must look again though it did not move."""

    def wait(self, gid: str, seen: int, now: int, timeout: float, gone: Callable[[], bool] | None = None) -> int:
        """The game's version once it differs from `seen`, or `seen` after `timeout`, a look-again, or `gone()`."""

    def after_answer(self):
        """A context: news made inside it goes out when it ends (the acting screen's answer first)."""

    def close(self) -> None:
        """The server is stopping: every wait ends now, and none starts."""


class InProcessNews:
    """The newest version of each game this process committed, and a way to sleep until it moves on.

    Each game has its own wake-up, so a move at one table wakes only the screens of that table. A wake-up
    lasts while screens wait on it; the versions of games nobody waits for are remembered only for the most
    recent REMEMBERED games (enough to cover the moment between a question reading the database and starting
    to wait), so thousands of games cost no memory here."""

    def __init__(self):
        self._lock = threading.Lock()
        self._latest: OrderedDict[str, int] = OrderedDict()
        self._waiters: dict[str, _GameWaiters] = {}
        self._held = threading.local()
        self.closed = False

    def close(self) -> None:
        """Every waiting question ends now (its screen asks again once the server is back), and none waits
        from now on, so stopping takes no longer than an answer."""
        with self._lock:
            self.closed = True
            for waiters in self._waiters.values():
                waiters.wake.notify_all()

    def moved(self, gid: str, version: int) -> None:
        held = getattr(self._held, "news", None)
        if held is not None:  # inside `after_answer`: the acting screen gets its answer first
            held.append((gid, version))
            return
        with self._lock:
            self._remember(gid, version)
            waiters = self._waiters.get(gid)
            if waiters is not None:
                waiters.latest = max(waiters.latest, version)
                waiters.wake.notify_all()

    def _remember(self, gid: str, version: int) -> int:
        latest = max(self._latest.get(gid, version), version)  # two commits may be told out of order
        self._latest[gid] = latest
        self._latest.move_to_end(gid)
        while len(self._latest) > REMEMBERED:
            self._latest.popitem(last=False)
        return latest

    def look_again(self, gid: str) -> None:
        """Wake the game's waiting questions though the game has not moved (a seat moved to another phone):
        each screen looks again, so the phone that lost its seat hears so at once, and the host's phones
        panel shows the move."""
        with self._lock:
            waiters = self._waiters.get(gid)
            if waiters is not None:
                waiters.looks += 1
                waiters.wake.notify_all()

    @contextmanager
    def after_answer(self):
        """News made inside the block goes out when it ends: the phone that tapped gets its new menu before
        the other screens of its table start drawing theirs (they would share one core)."""
        self._held.news = []
        try:
            yield
        finally:
            held, self._held.news = self._held.news, None
            for gid, version in held:
                self.moved(gid, version)

    def wait(self, gid: str, seen: int, now: int, timeout: float, gone: Callable[[], bool] | None = None) -> int:
        """The game's version once it differs from `seen`, or `seen` when `timeout` passes first, when the
        game's screens must look again (`look_again`), or when `gone()` (asked about once a second) says
        nobody is waiting for the answer any more.

        `now` is the version just read from the database: it covers commits this process never heard of."""
        deadline = time.monotonic() + timeout
        with self._lock:
            waiters = self._waiters.get(gid)
            if waiters is None:
                waiters = self._waiters[gid] = _GameWaiters(threading.Condition(self._lock))
            waiters.count += 1
            waiters.latest = max(waiters.latest, self._remember(gid, now))
            looks = waiters.looks
        try:
            while True:
                with self._lock:
                    remaining = deadline - time.monotonic()
                    if waiters.latest != seen or waiters.looks != looks or remaining <= 0 or self.closed:
                        return waiters.latest
                    waiters.wake.wait(remaining if gone is None else min(remaining, LOOK_EVERY))
                    if waiters.latest != seen or waiters.looks != looks:
                        return waiters.latest
                if gone is not None and gone():
                    return seen
        finally:
            with self._lock:
                waiters.count -= 1
                if not waiters.count:
                    del self._waiters[gid]


class _GameWaiters:
    """The questions of one game waiting right now: their wake-up, the newest version heard, how many wait,
    and how many times they were told to look again."""

    def __init__(self, wake: threading.Condition):
        self.wake, self.latest, self.count, self.looks = wake, -1, 0, 0
