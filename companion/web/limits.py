"""How many new games one address may start per minute: a table starts a few a night; a runaway script
or a stuck button would otherwise fill the disk with thousands."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque

from flask import abort, current_app, request
from ..words import T

TOO_MANY = T("Too many new games from this device in the last minute. Wait a minute and try again.")


def count_new_game() -> None:
    """Every new game, by the form or the API, counts against its address's limit per minute (429)."""
    if not current_app.extensions["new_games"].allow(request.remote_addr or ""):
        abort(429, TOO_MANY)


class PerMinute:
    """At most `limit` events per address in any minute (0: no limit). It remembers at most `addresses`
    addresses, forgetting the longest idle first, so its own memory stays small whoever calls."""

    def __init__(self, limit: int, addresses: int = 1024, window: float = 60.0, clock=time.monotonic):
        self.limit, self.addresses, self.window, self.clock = limit, addresses, window, clock
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, address: str) -> bool:
        """Count one event for `address` if it is within its limit; False (nothing counted) if not."""
        if self.limit <= 0:
            return True
        now = self.clock()
        with self._lock:
            times = self._seen.get(address)
            if times is None:
                self._make_room(now)
                times = self._seen[address] = deque()
            self._seen.move_to_end(address)
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                return False
            times.append(now)
            return True

    def _make_room(self, now: float) -> None:
        if len(self._seen) < self.addresses:
            return
        for address in [a for a, times in self._seen.items() if not times or times[-1] <= now - self.window]:
            del self._seen[address]
        while len(self._seen) >= self.addresses:
            self._seen.popitem(last=False)

    def __len__(self) -> int:
        return len(self._seen)
