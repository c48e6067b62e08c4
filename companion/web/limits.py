"""How often one device may start a game or type a join code: a table starts a few games a night and
mistypes a code twice; a runaway script, a stuck button or a guesser never stops.

Each client (companion/clients.py: an IPv4 address, an IPv6 device by its /64) counts over a moving window
(a minute, a day), in the games file (store/tries.py), where every worker process of `serve` sees the same
count: tries spread over the workers meet the one limit, and a worker started again forgets nothing. A
client is never forgotten while a try of its own is inside its window, however many other clients come (the
old counter forgot the least recently used of 1,024 addresses, so 1,100 addresses guessed freely, issue 21);
the file stays small because tries whose window has ended are dropped, at most once a window.

The counter is our own, not Flask-Limiter's moving window: that one rescans every address it tracks every
10 ms while requests come (bench/rate_limits.py, docs/PERFORMANCE.md); this one costs a read for a refused
try, a small write for a counted one, and nothing between requests.
"""

from __future__ import annotations

import time

from flask import abort, current_app, request

from ..clients import client_key
from ..words import Text

MINUTE, DAY = 60.0, 86400.0
TOO_MANY = Text("Too many new games from this device in the last minute. Wait a minute and try again.")
TOO_MANY_TODAY = Text("Too many new games from this device today. Delete or finish some, or try again tomorrow.")


def count_new_game() -> None:
    """Every new game, by the form or the API, counts against its client's limits (429), a minute's and
    a day's; then games nobody played for a day make room (store/unplayed.py)."""
    who = client_key(request.remote_addr or "")
    if not current_app.extensions["new_games"].allow(who):
        abort(429, TOO_MANY)
    if not current_app.extensions["new_games_today"].allow(who):
        abort(429, TOO_MANY_TODAY)
    current_app.extensions["unplayed"].maybe()


class PerWindow:
    """At most `limit` tries of `kind` per client in any `window` seconds (0: no limit), counted in the
    store (store/tries.py), on the wall clock every process shares."""

    def __init__(self, store, kind: str, limit: int, window: float = MINUTE, clock=time.time):
        self.store, self.kind, self.limit, self.window, self.clock = store, kind, limit, window, clock
        self._next_sweep = 0.0

    def allow(self, who: str) -> bool:
        """Count one try for `who` if it is within its limit; False (nothing counted) if not."""
        if self.limit <= 0:
            return True
        now = self.clock()
        if now >= self._next_sweep:  # tries whose window has ended count for nobody: drop them
            self._next_sweep = now + self.window
            self.store.forget_tries(self.kind, now - self.window)
        return self.store.count_try(self.kind, who, self.limit, self.window, now)

    def __len__(self) -> int:
        """How many clients it still keeps tries of."""
        return self.store.clients_counted(self.kind)
