"""An answer on its way out, for the server's connection manager (serve/connections.py): the thread that drew
it never waits for the client to read it.

A thread writes the answer here. What the connection's socket takes at once is sent at once (a phone on
the table's Wi-Fi takes a whole answer); the rest waits in memory and the connection manager sends it as the
client reads, in the one thread that watches every socket. A client that reads nothing, or a trickle, holds no thread
and no turn: only its own answer, in memory, until SEND_WAIT seconds (plus the time READ_RATE needs for
that answer) have passed; then it is dropped with its connection (issue 32: 1,320 connections that never
read their answers held every thread, and no tap was answered for ~50 s).

What the connection manager holds this way is bounded: past UNSENT_BUDGET bytes in a worker, a device whose
answers lie unread gets no new request answered until they go (serve/turns.py: Unread); a device with nothing unread,
a phone at the table, is never held back."""

from __future__ import annotations

import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .turns import Unread

SEND_WAIT = 4.0  # seconds a client has to start reading what is left of its answer
READ_RATE = 64 * 1024  # bytes a second a client is counted on to read beyond that (a phone reads megabytes)
UNSENT_BUDGET = 32 * 1024 * 1024  # bytes of unread answers the manager holds in all before it holds back devices


class Outgoing:
    """Stands in for cheroot's writer (write, flush, close, bytes_written) on a socket that never blocks."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.pending = bytearray()  # what the socket did not take yet, in order
        self.bytes_written = 0
        self.closed = False

    def write(self, data: bytes) -> int:
        if not isinstance(data, bytes):
            data = bytes(data)
        self.bytes_written += len(data)
        rest = data if self.pending else data[self._send(data):]
        self.pending += rest
        return len(data)

    def send_more(self) -> bool:
        """Send what the socket takes now (the connection manager, once it is writable); True once nothing is left."""
        if self.pending:
            del self.pending[:self._send(self.pending)]
        return not self.pending

    def reading_time(self) -> float:
        """The seconds the client has to take what is left."""
        return SEND_WAIT + len(self.pending) / READ_RATE

    def _send(self, data) -> int:
        try:
            return self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            return 0

    def flush(self) -> None:
        """Nothing to do: what is not sent waits for the connection manager."""

    def close(self) -> None:
        self.closed = True


class Sending:
    """The connection manager's part in sending answers (a mixin on serve/connections.py's WaitingConnections,
    under its lock and loop)."""

    # what it uses of the WaitingConnections it is part of
    _closed: bool
    _lock: threading.Lock
    _selector: Any
    unread: Unread
    _turn_done: Callable[[Any], None]
    _answered: Callable[[Any], None]
    _watch: Callable[[Any, int], None]
    _leave: Callable[..., None]
    _next_request: Callable[[Any], None]
    _to_a_thread: Callable[[Any], None]

    def send_then_close(self, conn) -> bool:
        """Cheroot is done with `conn` but part of its answer is unsent: the connection manager sends it, then closes.
        False when the connection manager is closing itself (the connection just closes)."""
        if self._closed:
            return False
        self._turn_done(conn)
        self._answered(conn)
        self._await_reader(conn, closing=True)
        return True

    def _await_reader(self, conn, closing: bool) -> None:
        conn.sending, conn.closing = True, closing
        conn.deadline = time.monotonic() + conn.wfile.reading_time()
        with self._lock:
            conn.unsent = len(conn.wfile.pending)
            self.unread.add(conn.client, conn.unsent)
        self._watch(conn, selectors.EVENT_WRITE)

    def _send_more(self, conn) -> None:
        try:
            done = conn.wfile.send_more()
        except OSError:  # the client went away
            self._leave(conn)
            return
        if not done:
            return
        self._selector.unregister(conn.socket.fileno())
        conn.sending = False
        if conn.closing:
            conn.close()
        else:
            self._sent(conn)
            self._next_request(conn)

    def _sent(self, conn) -> None:
        """`conn`'s answer is out (or dropped): the requests its bytes held back may go."""
        with self._lock:
            free = self.unread.gone(conn.client, conn.unsent) if conn.unsent else []
            conn.unsent = 0
        for following in free:
            self._to_a_thread(following)
