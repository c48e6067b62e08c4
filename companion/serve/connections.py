"""The server's connection manager (serve/server.py runs it): where every connection waits while it costs no
thread.

Cheroot gives a connection a thread as soon as it is accepted, and the thread then waits for the request
to arrive and for the client to read the answer: a few hundred connections that send nothing, a header a
byte at a time, or never read, would hold every thread and stop play. Here a connection waits in the manager,
in the one thread that watches every socket, at both ends of its request:

- before: until its whole request has arrived, within HEAD_WAIT seconds (else closed; 408 if it had
  started), its head and body within their limits (serve/arrival.py); only then does a thread answer it;
- after: the thread hands its answer back (serve/answers.py) and the manager sends what the client has not
  read yet, dropping the connection if the client does not read it in time;
- one client (companion/clients.py: an address, an IPv6 device by its /64) keeps `per_client` connections
  open at most; past that, new ones are closed at once;
- a whole request waits for a thread when all are busy, and a large public page for its turn, client by
  client (serve/turns.py).

Each turn of its loop, the manager also says the worker is alive (`heartbeat`, serve/workers.py).
"""

from __future__ import annotations

import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from cheroot import connections as cheroot_connections
from cheroot import server as cheroot_server
from cheroot.makefile import MakeFile

from ..clients import client_key
from .answers import UNSENT_BUDGET, Outgoing, Sending
from .arrival import CONTINUE, RECV, TOO_SLOW, WAIT, Arrived, Refusal
from .arrival import verdict as verdict_on
from .large_pages import LARGE_AT_ONCE, large_page
from .turns import Threads, Turns, Unread

HEAD_WAIT = 10.0  # seconds for a whole request to arrive; phones on a busy Wi-Fi send theirs in milliseconds
LINGER = 2.0  # seconds a refused client gets to read its answer while the rest of its request is discarded
LOG_EVERY = 60.0  # seconds between two log lines about the same client reaching its cap
BEAT_EVERY = 1.0  # seconds between two heartbeats
READ = selectors.EVENT_READ  # cheroot waits with the standard library's selectors too
WAKE = object()  # the selector's data for the manager's own wake-up socket
# epoll sees a socket registered from another thread while it waits; poll and select (macOS's kqueue too, to
# be safe) only at their next call, so the loop is woken for it
SEES_AT_ONCE = selectors.DefaultSelector is getattr(selectors, "EpollSelector", None)


class Connection(cheroot_server.HTTPConnection):
    """A connection, counted against its client from the moment the manager lets it in until it closes."""

    manager: WaitingConnections | None = None
    client = ""  # who it counts as (companion/clients.py)
    deadline = 0.0  # when the manager gives up on it (time.monotonic): its request, its answer, or its idling
    kept = False  # waiting in the manager between two requests (cheroot's "keep-alive" connections)
    continued = False  # the manager already said "100 Continue" for this request
    large_page = False  # its request reads a large public page (serve/large_pages.py) and holds one of their turns
    answering = False  # a thread has its request (serve/turns.py: Threads)
    lingering = False  # refused: its answer is out, the rest of its request is read and thrown away
    sending = False  # the manager is sending the rest of its answer
    closing = False  # ... and closes it once that is sent
    unsent = 0  # bytes of its answer the manager held when it began sending them (serve/answers.py: Sending)

    def __init__(self, server, sock, makefile=MakeFile):
        super().__init__(server, sock, lambda s, mode, size: Arrived(s) if "r" in mode else Outgoing(s))

    def close(self) -> None:
        """Cheroot closes a connection once its answer is written: if part of it is still unsent, the manager
        sends it first."""
        manager = self.manager
        if manager is not None and self.wfile.pending and manager.send_then_close(self):
            return
        self.manager = None
        if manager is not None:
            manager.left(self)
        super().close()


class WaitingConnections(Sending, cheroot_connections.ConnectionManager):
    """Cheroot's connection manager, changed so that a connection costs a thread only while its answer is
    drawn, and one client cannot fill the server with connections."""

    # cheroot's own parts of the manager, which its type stubs leave out
    _selector: Any
    _remove_invalid_sockets: Callable[[], None]

    def __init__(self, server, per_client: int, body_limit: int | Callable[[bytes], int],
                 large_at_once: int = LARGE_AT_ONCE,
                 heartbeat=None):
        super().__init__(server)
        self.per_client = per_client  # 0: no cap (behind a proxy every client has the proxy's address)
        self.body_limit = body_limit
        self.turns = Turns(large_at_once) if large_at_once else None
        self.threads = Threads(server.requests.min)
        self.heartbeat = heartbeat
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}  # open connections by client
        self._told: dict[str, float] = {}  # when the log last said a client reached its cap
        self._kept = 0
        self._closed = False
        self.unread = Unread(UNSENT_BUDGET)
        self._loop: int | None = None  # the selector's thread
        self._wake_in, self._wake_out = socket.socketpair()
        for end in (self._wake_in, self._wake_out):
            end.setblocking(False)
        self._selector.register(self._wake_in.fileno(), READ, data=WAKE)

    # --- who may come in -----------------------------------------------------------------------------

    def _from_server_socket(self, server_socket):
        conn = super()._from_server_socket(server_socket)  # type: ignore[misc]  # cheroot's, not in its stubs
        if conn is None:
            return None
        client = conn.client = client_key(conn.remote_addr or "")
        with self._lock:
            count = self._open.get(client, 0)
            admitted = not self.per_client or count < self.per_client
            if admitted:
                self._open[client] = count + 1
                conn.manager = self
        if not admitted:
            conn.close()
            self._tell_cap(client)
            return None
        return conn

    def left(self, conn: Connection) -> None:
        self._turn_done(conn)
        self._answered(conn)
        self._sent(conn)
        with self._lock:
            if conn.kept:
                conn.kept = False
                self._kept -= 1
            count = self._open.get(conn.client, 0) - 1
            if count > 0:
                self._open[conn.client] = count
            else:
                self._open.pop(conn.client, None)

    def _tell_cap(self, client: str) -> None:
        now = time.monotonic()
        if now - self._told.get(client, -LOG_EVERY) >= LOG_EVERY:
            self._told[client] = now
            self.server.error_log(f"refusing connections from {client}: it has {self.per_client} open "
                                  f"(--per-client); said at most once a minute")

    # --- waiting for a request -----------------------------------------------------------------------

    def put(self, conn: Connection) -> None:
        """A thread answered a request and the connection stays open: the manager sends what is left of the
        answer, then waits for the next request."""
        self._turn_done(conn)
        self._answered(conn)
        if conn.wfile.pending:
            self._await_reader(conn, closing=False)
        else:
            self._next_request(conn)

    def _next_request(self, conn: Connection) -> None:
        conn.last_used = time.time()
        conn.continued = False
        if conn.rfile.has_data():  # the next request came along with the last one
            conn.deadline = time.monotonic() + HEAD_WAIT
            self._judge(conn, registered=False)
            return
        conn.deadline = time.monotonic() + self.server.timeout
        with self._lock:
            conn.kept = True
            self._kept += 1
        self._watch(conn, READ)

    def _arrive(self, conn: Connection) -> None:
        conn.socket.setblocking(False)
        conn.deadline = time.monotonic() + HEAD_WAIT
        self._watch(conn, READ)

    def _hear(self, conn: Connection) -> None:
        """The connection has something to read: read it, then see whether the request is whole."""
        try:
            data = conn.socket.recv(RECV)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client hung up
            self._leave(conn)
            return
        if conn.lingering:
            return
        if not conn.rfile.buf and conn.kept:  # a kept connection's next request starts now
            conn.deadline = min(conn.deadline, time.monotonic() + HEAD_WAIT)
            with self._lock:
                if conn.kept:
                    conn.kept = False
                    self._kept -= 1
        conn.rfile.buf += data
        self._judge(conn, registered=True)

    def _judge(self, conn: Connection, registered: bool) -> None:
        verdict = verdict_on(conn.rfile.buf, self.body_limit)
        if verdict is CONTINUE and not conn.continued:
            conn.continued = True
            self._send(conn, b"HTTP/1.1 100 Continue\r\n\r\n")
        if verdict in (WAIT, CONTINUE):
            if not registered:
                self._watch(conn, READ)
            return
        if registered:
            self._selector.unregister(conn.socket.fileno())
        if isinstance(verdict, Refusal):
            self._refuse(conn, verdict)
            return
        if self._turn(conn):
            self._to_a_thread(conn)

    # --- large public pages take turns -------------------------------------------------------------------

    def _turn(self, conn: Connection) -> bool:
        """Whether a whole request may go to a thread now; a large public page past its turns waits here."""
        if self.turns is None or not large_page(bytes(conn.rfile.buf[:80]).lstrip()):
            return True
        with self._lock:
            go = conn.large_page = self.turns.take(conn.client, conn)
        return go

    def _turn_done(self, conn: Connection) -> None:
        """Its page is drawn (or it left): the next large page waiting, if any, takes the turn."""
        if self.turns is None:
            return
        following = self._pass_on(self.turns, conn, "large_page")
        if following is not None:
            self._to_a_thread(following)

    def _pass_on(self, shared, conn: Connection, holds: str) -> Connection | None:
        """`conn` gives back its place in `shared` (a turn, a thread): the waiting request that takes it, now
        marked as holding it; None if nobody waits, or if `conn` held no place (it closed while waiting)."""
        with self._lock:
            if not getattr(conn, holds):
                shared.forget(conn.client, conn)
                return None
            setattr(conn, holds, False)
            following = shared.give_back(conn.client)
            if following is not None:
                setattr(following, holds, True)
        return following

    # --- the answering threads are shared out by client ------------------------------------------------

    def _to_a_thread(self, conn: Connection) -> None:
        """A whole request goes to a thread now, or waits in the manager for one (serve/turns.py: Threads), or
        for its device's unread answers to go (serve/answers.py: Sending)."""
        with self._lock:
            if self.unread.holds(conn.client, conn):
                return
            go = conn.answering = self.threads.take(conn.client, conn)
        if go:
            self.server.process_conn(conn)

    def _answered(self, conn: Connection) -> None:
        """A thread is done with `conn`'s request: the request waiting that takes the thread, if any."""
        following = self._pass_on(self.threads, conn, "answering")
        if following is not None:
            self.server.process_conn(following)

    # --- refusals and leaving -----------------------------------------------------------------------------

    def _refuse(self, conn: Connection, refusal: Refusal) -> None:
        """Answer, then read and discard for a moment before closing: closing a socket with unread
        bytes resets it, and the client might lose the answer."""
        self._send(conn, refusal.reply())
        try:
            conn.socket.shutdown(socket.SHUT_WR)
        except OSError:
            self._leave(conn, registered=False)
            return
        conn.lingering = True
        conn.rfile.buf.clear()
        conn.deadline = time.monotonic() + LINGER
        self._watch(conn, READ)

    @staticmethod
    def _send(conn: Connection, data: bytes) -> None:
        try:
            conn.socket.send(data)  # small, and the socket does not block: what does not fit is lost
        except OSError:
            pass

    def _leave(self, conn: Connection, registered: bool = True) -> None:
        if registered:
            try:
                self._selector.unregister(conn.socket.fileno())
            except (KeyError, ValueError, OSError):
                pass
        conn.wfile.pending.clear()  # nothing more is sent to a connection that is left
        conn.close()

    def _sweep(self, now: float) -> None:
        """Close every connection whose request did not arrive in time, whose client did not read its answer
        in time, or which sat idle too long."""
        late = [conn for _, conn in self._selector.connections
                if conn is not self.server and conn is not WAKE and conn.deadline < now]
        for conn in late:
            if conn.rfile.buf and not conn.lingering and not conn.sending:
                self._selector.unregister(conn.socket.fileno())
                self._refuse(conn, TOO_SLOW)
            else:
                self._leave(conn)
        for client, when in list(self._told.items()):
            if now - when >= LOG_EVERY:
                del self._told[client]

    # --- the loop ----------------------------------------------------------------------------------------------

    def _watch(self, conn: Connection, events: int) -> None:
        """Watch `conn` for `events`; from another thread, wake the loop so it watches it now (a selector
        without epoll or kqueue sees a new socket only at its next turn)."""
        self._selector.register(conn.socket.fileno(), events, data=conn)
        if not SEES_AT_ONCE and threading.get_ident() != self._loop:
            self._wake()

    def _wake(self) -> None:
        try:
            self._wake_out.send(b"\0")
        except OSError:  # full (the loop will turn anyway) or closed
            pass

    def _run(self, expiration_interval):
        self._loop = threading.get_ident()
        last_sweep = last_beat = time.monotonic()
        while not self._stop_requested:
            try:
                ready = list(self._selector.select(timeout=expiration_interval))
            except OSError:
                self._remove_invalid_sockets()
                continue
            for _, conn in ready:
                self._serve_one(conn)
            now = time.monotonic()
            if now - last_sweep >= expiration_interval:
                self._sweep(now)
                last_sweep = now
            if self.heartbeat is not None and now - last_beat >= BEAT_EVERY:
                last_beat = now
                self.heartbeat()

    def _serve_one(self, conn) -> None:
        if conn is self.server:
            conn = self._from_server_socket(self.server.socket)
            if conn is not None:
                self._arrive(conn)
        elif conn is WAKE:
            try:
                while self._wake_in.recv(4096):
                    pass
            except OSError:
                pass
        elif conn.sending:
            self._send_more(conn)
        else:
            self._hear(conn)

    def stop(self):
        """Stop the loop now, not at its next turn."""
        self._stop_requested = True
        self._wake()
        super().stop()

    def close(self):
        self._closed = True
        self._selector.unregister(self._wake_in.fileno())
        super().close()
        self._wake_in.close()
        self._wake_out.close()

    @property
    def can_add_keepalive_connection(self):
        """Cheroot's cap on idle kept-alive connections counts only those, not strangers in the manager."""
        limit = self.server.keep_alive_conn_limit
        return limit is None or self._kept < limit
