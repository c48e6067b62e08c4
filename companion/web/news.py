"""A screen's question, "anything new since version N?" (the app's routes ending in /news: the host screen, a
phone, a phone's page on the host screen), waits in its own route while the game is still at N, until the
game moves on or a while passes: news reaches every screen as soon as it is committed, and a hundred quiet
tables cost sleeping threads instead of thousands of requests a second.

The route reads its game once, with the screen's credential checked as every route checks it (web/access.py);
an unchanged game costs that one read and no drawing. A question without its screen's credential is refused
at once (403), so strangers never take the places real screens wait in. What the question waits on is the
news port (companion/news.py), which the store tells after each commit; when there is news the route draws
the screen's new question and its live regions that changed (web/regions.py).
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import current_app, g, make_response, request

from ..news import CLIENT_GONE
from . import wire

# a screen's glance at its game (store: the host's HostGlance, a phone's SeatGlance), as its route reads it
Seen = TypeVar("Seen", bound=Mapping[str, Any])

PER_GAME = 16  # questions one game may hold: a host screen, four phones, the host's views of seats, a few tabs


class HeldQuestions:
    """The places questions wait in. Each holds a server thread, so at most `places` wait at once, and at most
    `per_game` of one game (0: no cap of its own), so a key anyone can mint by starting a game cannot take the
    places every other table waits in; past either cap a question is answered at once, and its page asks
    again a moment later, as a plain poll would. No places: no waits."""

    def __init__(self, places: int, per_game: int = PER_GAME):
        self.places = threading.BoundedSemaphore(places) if places > 0 else None
        self.per_game = per_game
        self.waiting = 0  # how many questions wait right now (read by tests)
        self.by_game: dict[str, int] = {}
        self.drawing = FirstComeLock()  # one news answer drawn at a time, first come first drawn: `answer`
        self._count = threading.Lock()

    def take(self, gid: str) -> bool:
        """A place to wait in, if the server has one free and this game holds fewer than `per_game`."""
        if self.places is None:
            return False
        with self._count:
            if self.per_game and self.by_game.get(gid, 0) >= self.per_game:
                return False
            if not self.places.acquire(blocking=False):
                return False
            self.waiting += 1
            self.by_game[gid] = self.by_game.get(gid, 0) + 1
        return True

    def give_back(self, gid: str) -> None:
        with self._count:
            self.waiting -= 1
            left = self.by_game[gid] - 1
            if left:
                self.by_game[gid] = left
            else:
                del self.by_game[gid]
            if self.places is not None:  # only a question that took a place gives one back
                self.places.release()


class FirstComeLock:
    """A lock taken in the order it was asked for (threading.Lock wakes an arbitrary waiter, which let some
    screens wait behind later ones)."""

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


def answer(look: Callable[[], Seen], draw: Callable[[Seen], str], phone: bool = False):
    """GET <screen>/news?v=N: `look()` reads the screen's game once, its credential checked (a refusal aborts),
    as a row with its `game_id` and `version` (the host's: `joins`, `ticked`; a phone's: its `seat`);
    `draw(row)` draws the screen from that row. Held while the screen would see nothing new, about
    POLL_HOLD_S seconds (give or take a quarter, so screens that asked together do not all ask again
    together), then 204. A question marked `r` (its page's last one failed: static/app.js) is answered at
    once, so the page knows it has the server back. A question whose screen hangs up stops waiting within
    about a second. `phone`: the seat's own phone asks (web/phones.py: seen, and connected while it waits)."""
    asked = wire.asked(request.args)
    row = look()
    seat = (row["game_id"], row["seat"]) if phone else None
    if seat is not None:
        current_app.extensions["phones"].saw(seat)
    held, gid = False, row["game_id"]
    if _sees(row) == asked and wire.RETRY not in request.args and _may_wait(gid):
        held = True
        try:
            row = _hold(row, asked, look, seat)
        finally:
            current_app.extensions["held"].give_back(gid)
    if _sees(row) == asked or (held and _hung_up()):  # e.g. the phone that tapped: its tap's answer was its news
        return current_app.response_class(status=204, headers={"Content-Length": "0"})
    # News: the screens of a table all ask at once. Drawn one after the other, the first screens show the move
    # sooner and the last no later than if all shared the core; the turn ends once the answer is ready
    # (compressed included): `done_drawing`, at the request's teardown.
    current_app.extensions["held"].drawing.__enter__()
    g.drawing = True
    response = make_response(draw(row))
    if held:  # its page asks again at once, since its next question is held too (static/app.js)
        response.headers["X-Held"] = "1"
    return response


def done_drawing(_exc=None) -> None:
    """The request's teardown: its news answer is out, the next screen draws."""
    if g.pop("drawing", False):
        current_app.extensions["held"].drawing.__exit__()


def _may_wait(gid: str) -> bool:
    return (current_app.config["POLL_HOLD_S"] > 0 and not current_app.extensions["news"].closed
            and current_app.extensions["held"].take(gid))


def _hold(row: Seen, asked: tuple, look: Callable[[], Seen], seat) -> Seen:
    """Wait while the screen would see nothing new. Each wake-up looks again: a move, a seat taken by another
    phone (news for the host's phones panel; for the phone that lost it, its refusal), a tick."""
    hold = current_app.config["POLL_HOLD_S"]
    news, gone = current_app.extensions["news"], request.environ.get(CLIENT_GONE)
    deadline = time.monotonic() + hold * random.uniform(0.75, 1.25)
    with current_app.extensions["phones"].asking(seat, hold * 1.25):
        while True:
            news.wait(row["game_id"], row["version"], row["version"], deadline - time.monotonic(), gone=gone)
            row = look()
            if _sees(row) != asked or time.monotonic() >= deadline or news.closed or (gone is not None and gone()):
                return row


def _sees(row: Mapping[str, Any]) -> tuple:
    """What the screen would see now, in the terms of its question (web/wire.py `asked`)."""
    args = request.args
    phones = (current_app.extensions["phones"].news_key(row["game_id"]) if wire.PHONES in args else None)
    return (str(row["version"]), _text(row.get("joins")) if wire.JOINS in args else None, phones,
            _text(row.get("ticked")) if wire.TICKED in args else None)


def _text(value) -> str | None:
    return None if value is None else str(value)


def _hung_up() -> bool:
    gone = request.environ.get(CLIENT_GONE)
    return gone is not None and gone()
