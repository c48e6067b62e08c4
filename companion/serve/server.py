"""The web server the companion runs on: cheroot, with a connection manager in front of its threads
(serve/connections.py), on a listening socket made beforehand, which serve's worker processes share (serve/workers.py).

The connection manager replaces parts of cheroot that cheroot keeps private (its connection manager's loop, how it
accepts, its selector; the server's manager). `pyproject.toml` pins cheroot to the versions tested, and
`missing_hooks` names any of those parts a version no longer has (tests/served/test_cheroot_hooks.py).

The connection manager also lets the app see whether the screen that asked is still there (CLIENT_GONE in the WSGI
environ), so a held "anything new?" question ends with its client.
"""

from __future__ import annotations

import errno
import functools
import inspect
import select
import socket
from collections.abc import Callable

from cheroot import connections, wsgi
from cheroot import server as cheroot_server
from cheroot.workers import threadpool

from ..news import CLIENT_GONE
from .arrival import HEAD_LIMIT
from .connections import Connection, WaitingConnections

try:  # not on Windows: there the number of open files has no such limit to raise
    import resource
except ImportError:
    resource = None  # type: ignore[assignment]  # checked before each use

STOP_WITHIN = 1.0  # seconds cheroot waits for its threads when the server stops (news questions let go first)

def client_gone(sock: socket.socket) -> bool:
    """Whether the client at the other end has hung up: its socket reads as closed (or failed)."""
    try:
        if hasattr(select, "poll"):  # any descriptor number (select.select stops at 1,024 on Linux)
            poll = select.poll()
            poll.register(sock, select.POLLIN)
            readable = bool(poll.poll(0))
        else:  # Windows
            readable = bool(select.select([sock], [], [], 0)[0])
        if not readable:
            return False  # nothing to read, not even the end: still there
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class Gateway(wsgi.Gateway_10):
    """WSGI, plus CLIENT_GONE: a way for a held question to notice that its screen has gone."""

    def get_environ(self):
        environ = super().get_environ()
        environ[CLIENT_GONE] = functools.partial(client_gone, self.req.conn.socket)
        return environ


class Server(wsgi.Server):
    """`python -m companion serve`: cheroot with the connection manager in front of its threads, answering on a socket
    made beforehand (`listening`), which serve's worker processes share (serve/workers.py)."""

    ConnectionClass = Connection
    max_request_header_size = HEAD_LIMIT  # the manager enforces it first; cheroot's own check is a backstop

    shutdown_timeout = STOP_WITHIN
    _connections: connections.ConnectionManager  # cheroot's, not in its type stubs

    def __init__(self, listening: socket.socket, app, threads: int, per_client: int,
                 body_limit: int | Callable[[bytes], int],
                 timeout: float = 60, heartbeat=None):
        super().__init__(listening.getsockname()[:2], app, numthreads=threads, server_name="messina",
                         request_queue_size=1024, timeout=timeout)  # type: ignore[arg-type]  # stubs: int; any seconds
        self.gateway = Gateway
        self.per_client, self.body_limit = per_client, body_limit
        self.listening = listening
        self.heartbeat = heartbeat  # called each second by the manager's loop while it turns (serve/workers.py)

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
        self._connections = WaitingConnections(self, self.per_client, self.body_limit, heartbeat=self.heartbeat)


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
    if resource is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass


# What the connection manager replaces or reads of cheroot's private parts: (where, name, what it does with it)
HOOKS = [
    (connections.ConnectionManager, "_run", "the connection manager's loop replaces it"),
    (connections.ConnectionManager, "_from_server_socket", "the connection manager counts each accepted connection"),
    (connections.ConnectionManager, "_remove_invalid_sockets", "the connection manager's loop calls it"),
    (connections.ConnectionManager, "run", "calls _run (the connection manager's loop)"),
    (connections.ConnectionManager, "__init__", "makes _selector, which the connection manager watches sockets with"),
    (connections.ConnectionManager, "stop", "sets _stop_requested, which ends the connection manager's loop"),
    (cheroot_server.HTTPServer, "prepare", "makes _connections, which Server.prepare replaces with ours"),
    (cheroot_server.HTTPServer, "put_conn", "hands a kept connection back to _connections (the connection manager)"),
    (cheroot_server.HTTPConnection, "__init__", "reads through makefile(sock, mode, size): our reader and writer"),
    (threadpool.WorkerThread, "_process_connections_until_interrupted",
     "hands a connection back (put_conn) or closes it once answered: the connection manager then takes it"),
    (threadpool.ThreadPool, "__init__", "keeps its number of threads in min, which the connection manager shares out"),
]
NEEDS = {"run": "self._run(", "__init__": "self._selector", "stop": "self._stop_requested",
         "prepare": "self._connections", "put_conn": "self._connections.put(",
         "_process_connections_until_interrupted": "self.server.put_conn(conn)"}
SOURCE_NEEDS = {cheroot_server.HTTPConnection: ("makefile(sock, 'rb'", "makefile(sock, 'wb'"),
                threadpool.ThreadPool: ("self.min = min",)}


def missing_hooks() -> list[str]:
    """Each private part of cheroot the connection manager relies on that this cheroot no longer has, in plain words."""
    missing = []
    for where, name, why in HOOKS:
        found = where.__dict__.get(name)
        if found is None:
            missing.append(f"{where.__module__}.{where.__name__}.{name} is gone ({why})")
            continue
        source = inspect.getsource(found)
        wanted = SOURCE_NEEDS.get(where, (NEEDS.get(name, ""),))
        for text in wanted:
            if text not in source:
                missing.append(f"{where.__module__}.{where.__name__}.{name} no longer contains {text!r} ({why})")
    return missing
