"""Who goes first in the server's connection manager (serve/connections.py), client by client
(companion/clients.py), so one device sending request after request never stands in front of another
device's tap:

- `Turns`: the large public pages (serve/large_pages.py) drawn at once, a few in all and one per client;
- `Threads`: the answering threads. A whole request goes to a thread at once while one is free; when every
  thread is busy it waits in the connection manager, and the next thread to free goes to the waiting client with the
  fewest requests being answered (issue 32: 1,320 requests for the host's news from 22 addresses queued in
  front of every tap, which then waited 10-20 s);
- `Unread`: the answers the connection manager still sends (serve/answers.py). Past a budget in all, a client whose
  answers are not read yet gets no new request answered until they go (read, or dropped); a client with
  nothing unread, a phone at the table, never waits for them.

Neither is locked here: the connection manager holds its lock around every call."""

from __future__ import annotations

from collections import Counter, OrderedDict, deque


class Waiting:
    """Requests waiting, by client, each client's in the order they came."""

    def __init__(self):
        self._by: OrderedDict[str, deque] = OrderedDict()

    def __bool__(self) -> bool:
        return bool(self._by)

    def add(self, client: str, request) -> None:
        self._by.setdefault(client, deque()).append(request)

    def first_of(self, clients) -> tuple[str, object] | None:
        """The first request of the first of `clients` (an ordering of those waiting); that client then goes
        behind the others."""
        for client in clients:
            queue = self._by[client]
            request = queue.popleft()
            if queue:
                self._by.move_to_end(client)
            else:
                del self._by[client]
            return client, request
        return None

    def clients(self):
        return list(self._by)

    def forget(self, client: str, request) -> None:
        """A waiting request whose connection closed."""
        queue = self._by.get(client)
        if queue is not None and request in queue:
            queue.remove(request)
            if not queue:
                del self._by[client]


class _Shared:
    """Places handed out to clients: `places` in all; a request that cannot have one waits by client, and a
    place given back goes to the waiting client `_next` picks. `in_use` counts the places taken. Not locked
    here: the connection manager holds its lock around every call."""

    def __init__(self, places: int):
        self.places = places
        self.in_use = 0
        self._by: Counter[str] = Counter()  # places each client holds
        self._waiting = Waiting()

    def take(self, client: str, request) -> bool:
        """True if `request` has a place now; else it waits for one."""
        if self._may_take(client):
            self._give(client)
            return True
        self._waiting.add(client, request)
        return False

    def give_back(self, client: str):
        """`client` is done with a place: the waiting request that takes it (it holds it now), or None."""
        self._by[client] -= 1
        if self._by[client] <= 0:
            del self._by[client]
        self.in_use -= 1
        found = self._waiting.first_of(self._next(self._waiting.clients()))
        if found is None:
            return None
        self._give(found[0])
        return found[1]

    def forget(self, client: str, request) -> None:
        self._waiting.forget(client, request)

    def _give(self, client: str) -> None:
        self.in_use += 1
        self._by[client] += 1

    def _may_take(self, client: str) -> bool:
        raise NotImplementedError

    def _next(self, waiting: list[str]) -> list[str]:
        raise NotImplementedError


class Turns(_Shared):
    """Who draws a large page now: `places` in all, one per client; the others wait by client, in order."""

    @property
    def drawing(self) -> int:
        return self.in_use

    def _may_take(self, client: str) -> bool:
        return self.in_use < self.places and not self._by[client]

    def _next(self, waiting: list[str]) -> list[str]:
        return [c for c in waiting if not self._by[c]]


class Threads(_Shared):
    """The answering threads, shared out by client: a freed thread goes to the waiting client with the
    fewest requests being answered."""

    @property
    def busy(self) -> int:
        return self.in_use

    def _may_take(self, client: str) -> bool:
        return self.in_use < self.places and not self._waiting

    def _next(self, waiting: list[str]) -> list[str]:
        return [min(waiting, key=lambda c: self._by[c])] if waiting else []


class Unread:
    """Bytes of answers the connection manager holds until their clients read them, and the requests they hold back."""

    def __init__(self, budget: int):
        self.budget = budget
        self.total = 0
        self._by: Counter[str] = Counter()
        self._held: list[tuple[str, object]] = []

    def add(self, client: str, size: int) -> None:
        self.total += size
        self._by[client] += size

    def holds(self, client: str, request) -> bool:
        """True (and `request` waits here) if the manager holds too much in all and some of it is `client`'s."""
        if self.total > self.budget and self._by[client] > 0:
            self._held.append((client, request))
            return True
        return False

    def gone(self, client: str, size: int) -> list:
        """`size` bytes of `client`'s answers were read or dropped: the requests that may go now."""
        self.total -= size
        self._by[client] -= size
        if self._by[client] <= 0:
            del self._by[client]
        free: list[tuple[str, object]] = []
        still: list[tuple[str, object]] = []
        for held in self._held:
            (still if self.total > self.budget and self._by[held[0]] > 0 else free).append(held)
        self._held = still
        return [request for _, request in free]
