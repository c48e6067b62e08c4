"""When a request has arrived whole, for the server's waiting connections (serve/connections.py): the verdict
on the bytes a connection has sent so far (`verdict`), the answers it gives itself (`Refusal`), and the reader a thread
then reads the request from, in memory (`Arrived`)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass

HEAD_LIMIT = 32 * 1024  # a browser keeps at most ~180 cookies per site (~15 KB of ours), far below this
RECV = 64 * 1024


@dataclass(frozen=True)
class Refusal:
    """An answer the connection manager gives itself, then closes the connection."""

    status: str
    message: str

    def reply(self) -> bytes:
        body = (self.message + "\n").encode()
        return (f"HTTP/1.1 {self.status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


WAIT = "wait"  # more of the request is on its way
CONTINUE = "continue"  # the head is whole and asks "100 Continue" before sending its body
READY = "ready"  # the whole request is here: a thread may answer it

TOO_LONG_URL = Refusal("414 URI Too Long", "This link is too long.")
TOO_LARGE_HEAD = Refusal("431 Request Header Fields Too Large",
                         "The request's headers are too large. Clearing this site's cookies may help.")
TOO_LARGE_BODY = Refusal("413 Content Too Large", "The request is too large.")
NO_LENGTH = Refusal("411 Length Required", "Send the request's body with a Content-Length.")
BAD_LENGTH = Refusal("400 Bad Request", "The request's Content-Length is not valid.")
TOO_SLOW = Refusal("408 Request Timeout", "The request took too long to arrive.")


def verdict(sent: bytes | bytearray, body_limit: int | Callable[[bytes], int]) -> str | Refusal:
    """What the bytes a connection has sent so far amount to: WAIT, CONTINUE, READY or a Refusal.
    `body_limit`: bytes a body may have, or a function of the request line giving them (`larger_for`)."""
    end = sent.find(b"\r\n\r\n", 0, HEAD_LIMIT + 1)
    if end < 0 or end + 4 > HEAD_LIMIT:
        if len(sent) <= HEAD_LIMIT and end < 0:
            return WAIT
        return TOO_LARGE_HEAD if b"\r\n" in sent[:HEAD_LIMIT] else TOO_LONG_URL
    fields: dict[bytes, list[bytes]] = {}
    for line in bytes(sent[:end]).split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        fields.setdefault(name.strip().lower(), []).append(value.strip())
    if b"transfer-encoding" in fields:
        return NO_LENGTH
    lengths = fields.get(b"content-length", [b"0"])
    if len(lengths) != 1 or not lengths[0].isdigit():
        return BAD_LENGTH
    length = int(lengths[0])
    if length > (body_limit(bytes(sent[:sent.find(b"\r\n")])) if callable(body_limit) else body_limit):
        return TOO_LARGE_BODY
    if len(sent) >= end + 4 + length:
        return READY
    return CONTINUE if [v.lower() for v in fields.get(b"expect", [])] == [b"100-continue"] else WAIT


def larger_for(paths: Mapping[str, int], usual: int) -> Callable[[bytes], int]:
    """A body limit by the request's path: `usual`, or more for the few paths the app names (a game's file
    uploaded to be resumed: web/resume.py), so no other request may make the connection manager hold megabytes."""
    wanted = {path.encode(): most for path, most in paths.items()}

    def limit(request_line: bytes) -> int:
        parts = request_line.split(b" ")
        return wanted.get(parts[1].split(b"?")[0], usual) if len(parts) == 3 else usual
    return limit


class Arrived:
    """A connection's incoming bytes: what the connection manager has read, then whatever the request still needs.

    Stands in for cheroot's buffered reader (same read/readline), so the thread that answers reads the
    request from memory."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = bytearray()
        self.bytes_read = 0
        self.closed = False

    def has_data(self) -> bool:
        return bool(self.buf)

    def _more(self) -> bool:
        try:
            chunk = self.sock.recv(RECV)
        except (BlockingIOError, InterruptedError):  # the request came in whole: nothing more is due
            return False
        self.buf += chunk
        return bool(chunk)

    def _take(self, n: int) -> bytes:
        out = bytes(self.buf[:n])
        del self.buf[:n]
        self.bytes_read += len(out)
        return out

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            while self._more():
                pass
            return self._take(len(self.buf))
        while len(self.buf) < size and self._more():
            pass
        return self._take(size)

    def readline(self, size: int | None = -1) -> bytes:
        limit = None if size is None or size < 0 else size
        while True:
            end = self.buf.find(b"\n")
            if end >= 0 and (limit is None or end < limit):
                return self._take(end + 1)
            if (limit is not None and len(self.buf) >= limit) or not self._more():
                return self._take(len(self.buf) if limit is None else limit)

    def __iter__(self):
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def close(self) -> None:
        self.closed = True
