"""What one worker process of `serve` tells the others, so the table sees one companion however many
processes answer it (serve/workers.py).

The games file is shared, so every process reads the truth from it. What lives only in a process's
memory is told to its siblings as it happens, in one small datagram each:

- `v`: a game moved on (its version): the sibling wakes the screens of that game that wait there;
- `r`: a game's screens must look again though it did not move (a seat taken by a phone, a tick);
- `c`: a limiter counted a try from an address (new games, join codes), so no process lets more through
  than the limit by spreading tries over the processes;
- `s`: a seat's phone asked (and, while its question waits, until when it will be asking).

Each process listens on an abstract Unix datagram socket named after the serve run and its index: no
file to clean up, nothing reachable from the network, and a datagram is in the sibling's queue when
`sendto` returns. Any local program could send to such a socket, so a message counts only when the
kernel says its sender runs as the same user as the companion (who could read the games file anyway). So before a request is answered its process drains that queue (`catch_up`, one
non-blocking read when nothing came): whatever a sibling said before this request arrived counts for
it, e.g. a join code tried on one process and tried again on the other. A thread drains it between
requests too, which is what wakes the screens that wait.
"""

from __future__ import annotations

import os
import select
import socket
import struct
import threading
import time
from typing import Callable

PREFIX = "messina"
SEND_WAIT = 0.05  # seconds a send waits for a sibling's full queue before that message is dropped
LARGEST = 2048  # bytes: a message is a few ids and numbers
CREDENTIALS = struct.Struct("3i")  # the sender's pid, uid and gid, as the kernel attaches them


class Siblings:
    """This process's place among `count` worker processes of one serve run (`run`: unique per run)."""

    def __init__(self, run: str, index: int, count: int):
        self.run, self.index, self.count = run, index, count
        self._heard: dict[str, Callable[..., None]] = {}
        self._lock = threading.Lock()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self._sock.bind(self.name(index))
        self._sock.setblocking(False)
        self._uid = os.getuid()
        self._out = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._out.settimeout(SEND_WAIT)
        self._out_lock = threading.Lock()
        self.dropped = 0  # messages a sibling could not take (gone, or its queue full past SEND_WAIT)

    def name(self, index: int) -> bytes:
        return f"\0{PREFIX}-{self.run}-{index}".encode()

    def on(self, kind: str, heard: Callable[..., None]) -> None:
        """Call `heard(*fields)` for each message of `kind` a sibling sends."""
        self._heard[kind] = heard

    def tell(self, kind: str, *fields) -> None:
        """Send a message to every other process. A sibling that is gone (being restarted) misses it: the
        games file still has the truth, and screens ask again within a hold (serve/news.py)."""
        data = "\t".join([kind, *map(str, fields)]).encode()
        with self._out_lock:
            for index in range(self.count):
                if index == self.index:
                    continue
                try:
                    self._out.sendto(data, self.name(index))
                except OSError:  # gone, or its queue still full after SEND_WAIT (a timeout is an OSError)
                    self.dropped += 1

    def catch_up(self) -> None:
        """Apply every message waiting in this process's queue, now."""
        with self._lock:
            while True:
                try:
                    data, extra, _, _ = self._sock.recvmsg(LARGEST, socket.CMSG_SPACE(CREDENTIALS.size))
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:  # closed at shutdown
                    return
                if self._from_us(extra):
                    self._apply(data)

    def _from_us(self, extra: list) -> bool:
        for level, kind, data in extra:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and len(data) >= CREDENTIALS.size:
                return CREDENTIALS.unpack_from(data)[1] == self._uid
        return False

    def _apply(self, data: bytes) -> None:
        """One message; anything unreadable is dropped (only our own processes send here)."""
        try:
            kind, *fields = data.decode().split("\t")
            heard = self._heard.get(kind)
            if heard is not None:
                heard(*fields)
        except (UnicodeDecodeError, ValueError, TypeError, KeyError):
            self.dropped += 1

    def listen(self) -> threading.Thread:
        """A daemon thread that applies messages as they come, between requests."""
        def run() -> None:
            poll = select.poll()
            poll.register(self._sock, select.POLLIN)
            while True:
                try:
                    if poll.poll(1000):
                        self.catch_up()
                except (OSError, ValueError):
                    if self._sock.fileno() < 0:
                        return
                    time.sleep(0.01)

        thread = threading.Thread(target=run, name="siblings", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self._sock.close()
        self._out.close()


class CatchUp:
    """WSGI: a request is answered only after its process heard what its siblings said before it came."""

    def __init__(self, app, siblings: Siblings):
        self.app, self.siblings = app, siblings

    def __call__(self, environ, start_response):
        self.siblings.catch_up()
        return self.app(environ, start_response)

    def __getattr__(self, name):  # the layers behind stay readable (NewsPoll.waiting, for tests and benchmarks)
        return getattr(self.app, name)
