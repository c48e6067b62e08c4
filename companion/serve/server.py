"""The web server the companion runs on: cheroot, with a door in front of its threads.

Cheroot gives a connection a thread as soon as it is accepted, and the thread then waits for the request
to arrive. A few hundred connections that send nothing, or a header a byte at a time, would hold every
thread and stop play. Here a connection waits at the door instead - in the one thread that watches every
socket, costing no answering thread - until its whole request (head and body) has arrived. Only then does
a thread answer it. At the door:

- a request must arrive whole within HEAD_WAIT seconds (of connecting, or of its first byte on a kept-alive
  connection); otherwise the connection is closed (408 if it had started);
- a request's head (request line and headers) may be HEAD_LIMIT bytes at most (414 or 431 past that), its
  body `body_limit` (413), and a body must say its length (411 for chunked bodies);
- one address may keep `per_client` connections open at once; past that, new ones are closed at once.

A whole request for a large public page (a catalog page: serve/heavy.py) then waits its turn there too: a
few are answered at once, so a crowd reading them never holds the threads that answer taps and news.

The door also lets the app see whether the screen that asked is still there (CLIENT_GONE in the WSGI
environ), so a held "anything new?" question ends with its client.
"""

from __future__ import annotations

import errno
import functools
import resource
import select
import socket
import threading
import time
from collections import deque

from cheroot import connections, server as cheroot_server, wsgi
from cheroot.makefile import MakeFile

from .arrival import CONTINUE, HEAD_LIMIT, RECV, TOO_SLOW, WAIT, Arrived, Refusal, look
from .heavy import HEAVY_AT_ONCE, heavy
from .news import CLIENT_GONE

HEAD_WAIT = 10.0  # seconds for a whole request to arrive; phones on a busy Wi-Fi send theirs in milliseconds
LINGER = 2.0  # seconds a refused client gets to read its answer while the rest of its request is discarded
LOG_EVERY = 60.0  # seconds between two log lines about the same address reaching its cap


class Guest(cheroot_server.HTTPConnection):
    """A connection, counted against its address from the moment the door lets it in until it closes."""

    door: "Door | None" = None
    deadline = 0.0  # when the door gives up on the request (time.monotonic)
    kept = False  # waiting at the door between two requests (cheroot's "keep-alive" connections)
    continued = False  # the door already said "100 Continue" for this request
    heavy = False  # its request reads a large public page (serve/heavy.py) and holds one of their turns
    lingering = False  # refused: its answer is out, the rest of its request is read and thrown away

    def __init__(self, server, sock, makefile=MakeFile):
        super().__init__(server, sock, lambda s, mode, size: Arrived(s) if "r" in mode else makefile(s, mode, size))

    def close(self) -> None:
        door, self.door = self.door, None
        if door is not None:
            door.left(self)
        super().close()


class Door(connections.ConnectionManager):
    """Cheroot's connection manager, changed so that a connection reaches a thread only with a whole
    request, and one address cannot fill the server with connections."""

    def __init__(self, server, per_client: int, body_limit: int, heavy_at_once: int = HEAVY_AT_ONCE):
        super().__init__(server)
        self.per_client = per_client  # 0: no cap (behind a proxy every client has the proxy's address)
        self.body_limit = body_limit
        self.heavy_at_once = heavy_at_once  # large public pages answered at once (0: no turns)
        self._heavy_now = 0
        self._heavy_queue: deque[Guest] = deque()  # whole requests for them, waiting their turn
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}  # open connections by address
        self._told: dict[str, float] = {}  # when the log last said an address reached its cap
        self._kept = 0

    # --- who may come in -----------------------------------------------------------------------------

    def _from_server_socket(self, server_socket):
        guest = super()._from_server_socket(server_socket)
        if guest is None:
            return None
        address = guest.remote_addr or ""
        with self._lock:
            count = self._open.get(address, 0)
            admitted = not self.per_client or count < self.per_client
            if admitted:
                self._open[address] = count + 1
                guest.door = self
        if not admitted:
            guest.close()
            self._tell_cap(address)
            return None
        return guest

    def left(self, guest: Guest) -> None:
        self._heavy_done(guest)
        address = guest.remote_addr or ""
        with self._lock:
            if guest.kept:
                guest.kept = False
                self._kept -= 1
            count = self._open.get(address, 0) - 1
            if count > 0:
                self._open[address] = count
            else:
                self._open.pop(address, None)

    def _tell_cap(self, address: str) -> None:
        now = time.monotonic()
        if now - self._told.get(address, -LOG_EVERY) >= LOG_EVERY:
            self._told[address] = now
            self.server.error_log(f"refusing connections from {address}: it has {self.per_client} open "
                                  f"(--per-client); said at most once a minute")

    # --- waiting at the door -------------------------------------------------------------------------

    def put(self, conn: Guest) -> None:
        """A thread answered a request and the connection stays open: it waits at the door again."""
        self._heavy_done(conn)
        conn.last_used = time.time()
        conn.continued = False
        conn.socket.setblocking(False)
        if conn.rfile.has_data():  # the next request came along with the last one
            conn.deadline = time.monotonic() + HEAD_WAIT
            self._judge(conn, registered=False)
            return
        conn.deadline = time.monotonic() + self.server.timeout
        with self._lock:
            conn.kept = True
            self._kept += 1
        self._selector.register(conn.socket.fileno(), connections.selectors.EVENT_READ, data=conn)

    def _arrive(self, conn: Guest) -> None:
        conn.socket.setblocking(False)
        conn.deadline = time.monotonic() + HEAD_WAIT
        self._selector.register(conn.socket.fileno(), connections.selectors.EVENT_READ, data=conn)

    def _hear(self, conn: Guest) -> None:
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

    def _judge(self, conn: Guest, registered: bool) -> None:
        verdict = look(conn.rfile.buf, self.body_limit)
        if verdict is CONTINUE and not conn.continued:
            conn.continued = True
            self._send(conn, b"HTTP/1.1 100 Continue\r\n\r\n")
        if verdict in (WAIT, CONTINUE):
            if not registered:
                self._selector.register(conn.socket.fileno(), connections.selectors.EVENT_READ, data=conn)
            return
        if registered:
            self._selector.unregister(conn.socket.fileno())
        if isinstance(verdict, Refusal):
            self._refuse(conn, verdict)
            return
        conn.socket.settimeout(self.server.timeout)
        if self._heavy_turn(conn):
            self.server.process_conn(conn)

    # --- large public pages take turns -------------------------------------------------------------------

    def _heavy_turn(self, conn: Guest) -> bool:
        """Whether a whole request may go to a thread now; a large public page past its turns waits here."""
        if not self.heavy_at_once or not heavy(bytes(conn.rfile.buf[:80]).lstrip()):
            return True
        with self._lock:
            if self._heavy_now < self.heavy_at_once:
                self._heavy_now += 1
                conn.heavy = True
                return True
            self._heavy_queue.append(conn)
            return False

    def _heavy_done(self, conn: Guest) -> None:
        """Its answer is sent (or it left): the next large page waiting, if any, takes the turn."""
        with self._lock:
            if not conn.heavy:
                if conn in self._heavy_queue:  # closed while waiting its turn
                    self._heavy_queue.remove(conn)
                return
            conn.heavy = False
            following = self._heavy_queue.popleft() if self._heavy_queue else None
            if following is None:
                self._heavy_now -= 1
            else:
                following.heavy = True
        if following is not None:
            self.server.process_conn(following)

    def _refuse(self, conn: Guest, refusal: Refusal) -> None:
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
        self._selector.register(conn.socket.fileno(), connections.selectors.EVENT_READ, data=conn)

    @staticmethod
    def _send(conn: Guest, data: bytes) -> None:
        try:
            conn.socket.send(data)  # small, and the socket does not block: what does not fit is lost
        except OSError:
            pass

    def _leave(self, conn: Guest, registered: bool = True) -> None:
        if registered:
            try:
                self._selector.unregister(conn.socket.fileno())
            except (KeyError, ValueError, OSError):
                pass
        conn.close()

    def _sweep(self, now: float) -> None:
        """Close every connection whose request did not arrive in time, or which sat idle too long."""
        late = [conn for _, conn in self._selector.connections if conn is not self.server and conn.deadline < now]
        for conn in late:
            if conn.rfile.buf and not conn.lingering:
                self._selector.unregister(conn.socket.fileno())
                self._refuse(conn, TOO_SLOW)
            else:
                self._leave(conn)
        for address, when in list(self._told.items()):
            if now - when >= LOG_EVERY:
                del self._told[address]

    def _run(self, expiration_interval):
        last_sweep = time.monotonic()
        while not self._stop_requested:
            try:
                ready = list(self._selector.select(timeout=expiration_interval))
            except OSError:
                self._remove_invalid_sockets()
                continue
            for _, conn in ready:
                if conn is self.server:
                    guest = self._from_server_socket(self.server.socket)
                    if guest is not None:
                        self._arrive(guest)
                else:
                    self._hear(conn)
            now = time.monotonic()
            if now - last_sweep >= expiration_interval:
                self._sweep(now)
                last_sweep = now

    @property
    def can_add_keepalive_connection(self):
        """Cheroot's cap on idle kept-alive connections counts only those, not strangers at the door."""
        limit = self.server.keep_alive_conn_limit
        return limit is None or self._kept < limit


def client_gone(sock: socket.socket) -> bool:
    """Whether the client at the other end has hung up: its socket reads as closed (or failed)."""
    try:
        poll = select.poll()
        poll.register(sock, select.POLLIN)
        if not poll.poll(0):
            return False  # nothing to read, not even the end: still there
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class Gateway(wsgi.Gateway_10):
    """WSGI, plus CLIENT_GONE: a way for a held question to notice that its screen has gone."""

    def get_environ(self):
        environ = super().get_environ()
        if hasattr(select, "poll"):
            environ[CLIENT_GONE] = functools.partial(client_gone, self.req.conn.socket)
        return environ


class Server(wsgi.Server):
    """`python -m companion serve`: cheroot with the door in front of its threads, answering on a socket
    made beforehand (`listening`), which serve's worker processes share (serve/workers.py)."""

    ConnectionClass = Guest
    max_request_header_size = HEAD_LIMIT  # the door enforces it first; cheroot's own check stays as a backstop

    def __init__(self, listening: socket.socket, app, threads: int, per_client: int, body_limit: int,
                 timeout: float = 60):
        super().__init__(listening.getsockname()[:2], app, numthreads=threads, server_name="messina",
                         request_queue_size=1024, timeout=timeout)
        self.gateway = Gateway
        self.per_client, self.body_limit = per_client, body_limit
        self.listening = listening

    def bind(self, family, type, proto=0):
        """Cheroot's prepare() asks for a socket: the one already listening."""
        self.socket = self.listening
        self.bind_addr = self.resolve_real_bind_addr(self.socket)
        return self.socket

    def prepare(self):
        super().prepare()
        # Another worker may accept a connection first: accepting then finds none and must not wait for it
        self.socket.settimeout(0)
        self._connections.close()  # cheroot's own manager, replaced before it ever ran
        self._connections = Door(self, self.per_client, self.body_limit)


class CannotListen(OSError):
    """No address of the host could be listened on; `errors` says why for each."""

    def __init__(self, errors: list[OSError]):
        super().__init__(str(errors[-1]) if errors else "no address")
        self.errors = errors


def listening_socket(host: str, port: int) -> socket.socket:
    """The socket every worker answers on, listening on `host`'s first address that can be bound, with
    cheroot's options (SO_REUSEADDR, TCP_NODELAY, dual-stack for '::')."""
    errors: list[OSError] = []
    try:
        found = socket.getaddrinfo(host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CannotListen([exc]) from None
    for family, kind, proto, _, address in found:
        sock = None
        try:
            sock = wsgi.Server.prepare_socket(address, family, kind, proto, True, None)
            sock = wsgi.Server.bind_socket(sock, address)
            sock.listen(1024)
            return sock
        except OSError as exc:
            errors.append(exc)
            if sock is not None:
                sock.close()
    raise CannotListen(errors)


def cannot_listen(host: str, port: int, errors: list[OSError]) -> str:
    """One line for the person starting the companion: why it cannot listen, and what to do."""
    codes = {e.errno for e in errors}
    if errno.EADDRINUSE in codes:
        return (f"port {port} is already in use — is the companion already running? Stop it, or choose "
                f"another port with --port.")
    if errno.EACCES in codes:
        return f"not allowed to listen on port {port} — choose a port above 1023 with --port."
    if errno.EADDRNOTAVAIL in codes or any(isinstance(e, socket.gaierror) for e in errors):
        return (f"cannot listen on {host}: this computer has no such address — leave out --host to listen "
                f"on every network.")
    reason = errors[-1].strerror if errors and errors[-1].strerror else "unknown error"
    return f"cannot listen on {host}:{port}: {reason}."


def raise_open_file_limit() -> None:
    """Each open connection is a file: let the server keep thousands (the soft limit is often 1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass
