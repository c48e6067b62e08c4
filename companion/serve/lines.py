"""The private lines of a `serve` run (serve/workers.py): a socket pair between each two worker processes,
for their messages (serve/siblings.py), and one between the parent and each worker, for its heartbeat. The
parent makes them all before it starts the first worker and keeps every end, so a worker started again is
handed the same lines; each worker keeps only its own ends.

A socket pair has no name - no path, no abstract name, nothing listed in /proc/net/unix to find - so no
other process can bind it first, connect to it or send to it: only a process holding one of its ends can,
and the ends are only ever handed down from parent to worker (issue 32: the abstract names of before could
be taken by another local user, who then kept a worker from starting and read every message). So nothing
that arrives needs its sender checked.

A send never waits: a line whose other end does not read (a worker stopped, hung, or being started again)
fills up, and then each message is dropped and counted; what is dropped is news a screen also learns by
asking again (web/news.py). What the parent hears from a worker, a heartbeat each second, tells it the
worker still answers (`Watch`).
"""

from __future__ import annotations

import selectors
import socket
import time

LARGEST = 1024  # bytes: a message is a few ids and numbers
ROOM = 256 * 1024  # bytes each end may queue (macOS gives a datagram pair only 4 KB unless asked)
ALIVE = b"alive"  # a worker's heartbeat (serve/connections.py sends one each second its loop turns)


class Line:
    """One end of a line: whole datagrams, never waiting."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        sock.setblocking(False)
        for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
            try:
                sock.setsockopt(socket.SOL_SOCKET, option, ROOM)
            except OSError:
                pass
        self.dropped = 0  # messages the other end had no room for, or that could not go (its end closed)

    def send(self, data: bytes) -> bool:
        try:
            self.sock.send(data)
            return True
        except OSError:  # full (BlockingIOError), or the other end is gone
            self.dropped += 1
            return False

    def receive(self) -> bytes | None:
        """The next message waiting, or None (nothing waiting, or the line is broken: its worker is gone)."""
        try:
            return self.sock.recv(LARGEST)
        except OSError:
            return None

    def fileno(self) -> int:
        return self.sock.fileno()

    def close(self) -> None:
        self.sock.close()


def pair() -> tuple[Line, Line]:
    """A new line: its two ends."""
    one, other = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    return Line(one), Line(other)


class Lines:
    """Every line of one serve run of `count` workers."""

    def __init__(self, count: int):
        self.count = count
        self.between: dict[tuple[int, int], Line] = {}  # (i, j): worker i's end of its line to worker j
        for i in range(count):
            for j in range(i + 1, count):
                self.between[i, j], self.between[j, i] = pair()
        self.beats = {i: pair() for i in range(count)}  # i: (the parent's end, worker i's end)

    def of(self, index: int) -> tuple[dict[int, Line], Line]:
        """Worker `index`'s ends: of its line to each other worker, and of its heartbeat line."""
        return ({j: self.between[index, j] for j in range(self.count) if j != index}, self.beats[index][1])

    def keep_only(self, index: int) -> None:
        """In worker `index` just started: every other end is closed (only this process's copy of it)."""
        mine = {id(line) for line in self.of(index)[0].values()} | {id(self.beats[index][1])}
        for line in [*self.between.values(), *(end for ends in self.beats.values() for end in ends)]:
            if id(line) not in mine:
                line.close()


class Watch:
    """The parent's ear on each worker's heartbeat line: when each was last heard from."""

    def __init__(self, lines: Lines, clock=time.monotonic):
        self.lines, self.clock = lines, clock
        self.opened: dict[int, float] = {}
        self.heard: dict[int, float | None] = {}
        self._selector = selectors.DefaultSelector()
        for index, (ours, _) in lines.beats.items():
            self._selector.register(ours.sock, selectors.EVENT_READ, index)

    def started(self, index: int) -> None:
        """Worker `index` starts (again): what its line still holds is from before."""
        ours = self.lines.beats[index][0]
        while ours.receive() is not None:
            pass
        self.opened[index], self.heard[index] = self.clock(), None

    def silent_for(self, index: int) -> tuple[float, bool]:
        """Seconds since worker `index` was last heard from (or since it started), and whether it was ever
        heard from."""
        heard = self.heard.get(index)
        return self.clock() - (heard if heard is not None else self.opened[index]), heard is not None

    def turn(self, timeout: float) -> None:
        """Wait up to `timeout` for heartbeats, and note each worker heard."""
        for key, _ in self._selector.select(timeout):
            ours = self.lines.beats[key.data][0]
            while ours.receive() is not None:
                self.heard[key.data] = self.clock()

    def close_in_worker(self) -> None:
        """In a worker just started: the parent's selector is not its own (closing it unregisters nothing,
        so the parent's, on the same epoll, stays whole)."""
        try:
            self._selector.close()
        except OSError:  # macOS: a kqueue is not handed down to a child at all
            pass
