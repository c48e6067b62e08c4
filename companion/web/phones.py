"""Which phones are at the table: when each seat's phone last asked the server anything, and whether it
is asking now. The host screen shows it ("connected", "last seen 2 min ago"), so a table can tell a
player who is thinking from a phone that went to sleep.

Kept in memory only, fed by the phones' questions for news (web/news.py), which check every phone's cookie:
no database write per request, and nothing to keep after a restart (the phones ask again at once). Under
serve's worker processes each sighting is told to the others (serve/siblings.py: `echo`, `heard`)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from typing import TypedDict

from flask_babel import gettext as _
from flask_babel import ngettext

RECENT = 10.0  # seconds since its last question within which a phone still counts as connected
GAMES = 1024  # games remembered at most, the longest quiet forgotten first
LONG_AGO = 10  # minutes: after that the panel gives the clock time it was last seen, which never goes stale

SeatKey = tuple[str, int]  # (game id, seat index)


class PhoneSeen(TypedDict):
    """A seat's phone as the host's phones panel shows it (Phones.of): asking now or lately (`connected`),
    seconds since its last question and when that was (None: not since the start)."""

    connected: bool
    ago: float | None
    at: float | None


class PhonesSeen:
    """The last question of each seat's phone, and how many of its questions wait at the server now."""

    def __init__(self, clock=time.time):
        self.clock = clock
        self._last: OrderedDict[str, dict[int, float]] = OrderedDict()
        self._asking: dict[SeatKey, int] = {}
        self._elsewhere: dict[SeatKey, dict[str, float]] = {}  # until when it asks in serve's other processes
        self._lock = threading.Lock()
        self.echo = None  # told (game, seat, when, asking until) of each sighting: serve's other processes

    def saw(self, seat: SeatKey, until: float | None = None) -> None:
        """The seat's phone asked just now (and, while its question waits, asks `until` then)."""
        now = self.clock()
        self._seen(seat, now)
        if self.echo is not None:
            self.echo(seat[0], seat[1], now, now if until is None else until)

    def _seen(self, seat: SeatKey, when: float) -> None:
        with self._lock:
            seats = self._last.setdefault(seat[0], {})
            seats[seat[1]] = max(when, seats.get(seat[1], when))
            self._last.move_to_end(seat[0])
            while len(self._last) > GAMES:
                self._last.popitem(last=False)

    def heard(self, gid: str, seat: int, when: float, until: float, where: str) -> None:
        """What another worker process saw (serve/siblings.py): a question there counts as one here, and one that
        waits there keeps the phone connected until `until` (or until that process says it ended)."""
        self._seen((gid, seat), when)
        with self._lock:
            elsewhere = self._elsewhere.setdefault((gid, seat), {})
            if until > when:
                elsewhere[where] = until
            else:
                elsewhere.pop(where, None)
            if not elsewhere:
                del self._elsewhere[(gid, seat)]

    @contextmanager
    def asking(self, seat: SeatKey | None, longest: float = 0.0):
        """While the phone's question waits for news (`longest` seconds at most): it is connected however
        long the wait."""
        if seat is None:
            yield
            return
        with self._lock:
            self._asking[seat] = self._asking.get(seat, 0) + 1
        if self.echo is not None:
            now = self.clock()
            self.echo(seat[0], seat[1], now, now + longest)
        try:
            yield
        finally:
            with self._lock:
                self._asking[seat] -= 1
                if not self._asking[seat]:
                    del self._asking[seat]
            self.saw(seat)

    def of(self, gid: str, seat: int) -> PhoneSeen:
        """{"connected": bool, "ago": seconds since its last question (None: not since the start), "at"}."""
        now = self.clock()
        with self._lock:
            last = self._last.get(gid, {}).get(seat)
            asking = (gid, seat) in self._asking or any(u >= now for u in self._elsewhere.get((gid, seat), {}).values())
        ago = None if last is None else max(0.0, self.clock() - last)
        return {"connected": asking or (ago is not None and ago <= RECENT), "ago": ago, "at": last}

    def news_key(self, gid: str) -> str:
        """What the host screen shows of the phones, in a few characters: each seen seat's "c"
        (connected) or the minutes since it was last seen ("none" before any). The host's question
        carries it (its `p`), so a phone connecting or going quiet is news for the host, as a join is."""
        with self._lock:
            seats = sorted(self._last.get(gid, {}))
        marks = []
        for seat in seats:
            seen = self.of(gid, seat)
            ago = seen["ago"] or 0.0  # a seat in _last has been seen: never None here
            marks.append(f"{seat}c" if seen["connected"] else f"{seat}-{min(int(ago // 60), LONG_AGO)}")
        return ".".join(marks) or "none"


def ago_text(seen: PhoneSeen) -> str:
    """When a phone was last seen, as a player says it, and only as finely as news_key changes:
    "less than a minute ago", "2 min ago", or the clock time after LONG_AGO minutes."""
    if seen["ago"] is None:
        return ""
    minutes = int(seen["ago"] // 60)
    if minutes < 1:
        return _("less than a minute ago")
    if minutes < LONG_AGO:
        return ngettext("%(num)d min ago", "%(num)d min ago", minutes)
    return _("at %(time)s", time=time.strftime("%H:%M", time.localtime(seen["at"])))
