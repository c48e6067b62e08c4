"""Pages anyone may ask for that are large to draw (the catalog's: /catalog/board is 329 KB; a filled
4-player score sheet ~740 KB, drawn anew for each) take turns at the server's door, a few at a time, so a
crowd asking for them cannot hold the threads that answer taps and news (issue 21: 640 of them at once
held every thread for a minute; taps timed out).

A turn lasts while a thread draws the page, not while the client reads it (serve/answers.py). One client
(companion/clients.py) holds one turn at most, and those waiting are let through client by client, in
turn, so one device asking for page after page waits behind its own requests, never in front of another
device's (issue 32: six slow-reading connections held both turns for a minute)."""

from __future__ import annotations

from collections import Counter, OrderedDict, deque

PREFIXES = (b"/catalog", b"/score")
HEAVY_AT_ONCE = 2


def heavy(head: bytes) -> bool:
    """Whether a request (its head as it arrived) reads one of those pages: a GET or HEAD of a catalog page
    or the score sheet (a change of the catalog is a POST, and needs the admin)."""
    method, _, rest = head.partition(b" ")
    return method in (b"GET", b"HEAD") and rest.startswith(PREFIXES)


class Turns:
    """Who draws a large page now: `at_once` in all, one per client; the others wait by client, in order.
    Not locked here: the door holds its lock around every call."""

    def __init__(self, at_once: int = HEAVY_AT_ONCE):
        self.at_once = at_once
        self.drawing = 0
        self._held: Counter[str] = Counter()
        self._waiting: OrderedDict[str, deque] = OrderedDict()  # client -> its requests, in the order they came

    def take(self, client: str, request) -> bool:
        """True if `request` may be drawn now (it holds a turn); else it waits for one."""
        if self.drawing < self.at_once and not self._held[client]:
            self._give(client)
            return True
        self._waiting.setdefault(client, deque()).append(request)
        return False

    def give_back(self, client: str):
        """`client`'s drawing is done: the request that takes its turn (it holds it now), or None."""
        self._held[client] -= 1
        if self._held[client] <= 0:
            del self._held[client]
        self.drawing -= 1
        for other in self._waiting:
            if not self._held[other]:
                queue = self._waiting[other]
                following = queue.popleft()
                if queue:
                    self._waiting.move_to_end(other)  # its next request goes behind the other clients'
                else:
                    del self._waiting[other]
                self._give(other)
                return following
        return None

    def forget(self, client: str, request) -> None:
        """A waiting request whose connection closed."""
        queue = self._waiting.get(client)
        if queue is not None and request in queue:
            queue.remove(request)
            if not queue:
                del self._waiting[client]

    def _give(self, client: str) -> None:
        self.drawing += 1
        self._held[client] += 1
