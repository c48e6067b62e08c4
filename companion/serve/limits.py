"""How often one device may start a game or type a join code: a table starts a few games a night and
mistypes a code twice; a runaway script, a stuck button or a guesser never stops.

Each address counts over a moving window (a minute, a day) and is never forgotten while an event of its
own is still inside that window, however many other addresses come along: the old counter forgot the
least recently used address once it tracked 1,024, so 1,100 addresses guessed freely (issue 21). Memory
stays bounded instead by dropping only windows that have ended, and by counting an IPv6 client by its
/64 network (what one home or phone is given), so new addresses inside it are no new counts.

The counter is our own, not Flask-Limiter's in-memory moving window: measured here (bench/rate_limits.py,
docs/PERFORMANCE.md), that storage rescans every address it tracks every 10 ms while requests come, so
the addresses an attacker churns through cost the server's CPU; this one costs nothing between requests.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from bisect import insort
from collections import deque

from flask import abort, current_app, request

from ..words import T

MINUTE, DAY = 60.0, 86400.0
TOO_MANY = T("Too many new games from this device in the last minute. Wait a minute and try again.")
TOO_MANY_TODAY = T("Too many new games from this device today. Delete or finish some, or try again tomorrow.")


def client_key(address: str) -> str:
    """Who counts as one client: an IPv4 address, or an IPv6 address's /64 network (an IPv4 address
    written as IPv6 is that IPv4 address). Anything unreadable counts as itself."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def count_new_game() -> None:
    """Every new game, by the form or the API, counts against its address's limits (429), a minute's and
    a day's; then games nobody played for a day make room (store/unplayed.py)."""
    who = client_key(request.remote_addr or "")
    if not current_app.extensions["new_games"].allow(who):
        abort(429, TOO_MANY)
    if not current_app.extensions["new_games_today"].allow(who):
        abort(429, TOO_MANY_TODAY)
    current_app.extensions["unplayed"].maybe()


class PerWindow:
    """At most `limit` events per client in any `window` seconds (0: no limit).

    An address inside its window is never forgotten, so no number of other addresses resets its count.
    What it keeps is bounded by the events allowed: at most `limit` times per address, and an address whose
    newest event has left the window is dropped at the next sweep (at most one sweep a window, so its cost
    is spread over the window's requests)."""

    def __init__(self, limit: int, window: float = MINUTE, clock=time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._next_sweep = clock() + window
        self.echo = None  # told (who, when) of each event counted here: serve's other processes count it too

    def allow(self, who: str) -> bool:
        """Count one event for `who` if it is within its limit; False (nothing counted) if not."""
        if self.limit <= 0:
            return True
        now = self.clock()
        with self._lock:
            if now >= self._next_sweep:
                self._sweep(now)
            times = self._seen.get(who)
            if times is None:
                times = self._seen[who] = deque(maxlen=self.limit)
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                return False
            times.append(now)
        if self.echo is not None:
            self.echo(who, now)
        return True

    def note(self, who: str, when: float) -> None:
        """Count an event another process allowed (serve/siblings.py); `when` is on the same clock (the
        system's monotonic clock is one for every process), so the window is one window everywhere."""
        if self.limit <= 0:
            return
        with self._lock:
            times = self._seen.get(who)
            if times is None:
                times = self._seen[who] = deque(maxlen=self.limit)
            if len(times) == self.limit and when <= times[0]:
                return  # older than every event kept: it changes nothing
            if len(times) == self.limit:
                times.popleft()
            insort(times, when)

    def _sweep(self, now: float) -> None:
        """Forget the clients whose every event has left the window: they are back at zero anyway."""
        ended = now - self.window
        for who in [who for who, times in self._seen.items() if not times or times[-1] <= ended]:
            del self._seen[who]
        self._next_sweep = now + self.window

    def __len__(self) -> int:
        return len(self._seen)
