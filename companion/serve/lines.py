"""The private lines between `serve`'s processes (serve/workers.py): one socket pair per worker, made by the
parent just before it starts that worker; the parent keeps one end, the worker the other.

A socket pair has no name - no path, no abstract name, nothing listed in /proc/net/unix to find - so no
other process can bind it first, connect to it or send to it: only a process holding one of its ends can,
and the ends are only ever handed down from parent to worker (issue 32: the abstract names of before could
be taken by another local user, who then kept a worker from starting and read every message). So nothing
that arrives needs its sender checked.

A send never waits: a line whose other end does not read (a worker stopped or hung) fills up, and then
each message is dropped and counted; what is dropped is news a screen also learns by asking again
(serve/news.py). The parent passes what each worker says on to every other (`Relay`), and what it hears
from a worker, a heartbeat at least every second, tells it the worker still answers.
"""

from __future__ import annotations

import selectors
import socket
import time

LARGEST = 1024  # bytes: a message is a few ids and numbers
ROOM = 256 * 1024  # bytes each end may queue (macOS gives a datagram pair only 4 KB unless asked)
ALIVE = b"alive"  # a worker's heartbeat (serve/door.py sends one each second its loop turns)


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
    """A new line: (the parent's end, the worker's end)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    return Line(ours), Line(theirs)


class Relay:
    """The parent's ends of its workers' lines: each message a worker sends goes on to every other worker,
    and the time each worker was last heard from says whether it still answers."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.lines: dict[int, Line] = {}
        self.opened: dict[int, float] = {}
        self.heard: dict[int, float | None] = {}
        self.dropped = 0  # messages a worker had no room for
        self._selector = selectors.DefaultSelector()

    def open(self, index: int) -> Line:
        """A new line for worker `index` (started or started again): the worker's end, to hand down."""
        self.close(index)
        ours, theirs = pair()
        self.lines[index], self.opened[index], self.heard[index] = ours, self.clock(), None
        self._selector.register(ours.sock, selectors.EVENT_READ, index)
        return theirs

    def close(self, index: int) -> None:
        line = self.lines.pop(index, None)
        if line is not None:
            self._selector.unregister(line.sock)
            line.close()

    def close_all(self) -> None:
        """In a worker just started: the parent's ends are not its to hold. Only its own copies are closed:
        unregistering them would change the selector (epoll) it shares with the parent."""
        for line in self.lines.values():
            line.close()
        self.lines.clear()
        try:
            self._selector.close()
        except OSError:  # macOS: a kqueue is not handed down to a child at all
            pass

    def silent_for(self, index: int) -> tuple[float, bool]:
        """Seconds since worker `index` was last heard from (or since its line opened), and whether it was
        ever heard from."""
        heard = self.heard.get(index)
        return self.clock() - (heard if heard is not None else self.opened[index]), heard is not None

    def turn(self, timeout: float) -> None:
        """Wait up to `timeout` for messages, then pass every one waiting on."""
        for key, _ in self._selector.select(timeout):
            index = key.data
            line = self.lines.get(index)
            while line is not None and (data := line.receive()) is not None:
                self.heard[index] = self.clock()
                if data and data != ALIVE:
                    self._pass_on(index, data)

    def _pass_on(self, sender: int, data: bytes) -> None:
        for index, line in self.lines.items():
            if index != sender and not line.send(data):
                self.dropped += 1
