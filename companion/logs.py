"""Secrets never reach the server's log.

A seat's link (/seat/<token>, /j/<token>, /api/seats/<token>) is that seat, and the host's key (`key=`,
X-Host-Token, the host_<game> cookie) is the whole game; a phone's device cookie is the phone. A log is
copied, pasted into bug reports and read over shoulders, so everything written to it goes through
`hide_secrets` first: Flask's own messages (an error names its path), and, under `serve`, every line
anyone writes to stdout or stderr (cheroot writes its errors there directly).
"""

from __future__ import annotations

import logging
import re
import sys
import threading

HIDDEN = "[hidden]"
_VALUE = r"(?!\[hidden\])[^\s&;,\"'<>/?#)\]]+"  # hiding twice (a logger's filter, then the stream's) changes nothing

SECRETS = [
    # a seat's token in a path; "/host/<game>/seat/<n>" is a seat's number, not a secret
    (re.compile(r"(/(?:seat|j|api/seats)/)(?!\d{1,3}(?![^\s/?#]))" + _VALUE), r"\1" + HIDDEN),
    # the host's key in a query string or a form
    (re.compile(r"((?<![\w-])key=)" + _VALUE), r"\1" + HIDDEN),
    # credentials in headers and cookies: the host key, a phone's device, the seat a phone last joined
    (re.compile(r"((?:X-Host-Token|X-Seat-Device)\s*[:=]\s*)" + _VALUE, re.I), r"\1" + HIDDEN),
    (re.compile(r"((?<![\w-])(?:host_\w+|last_seat|catalog_admin)=)" + _VALUE), r"\1" + HIDDEN),
    (re.compile(r"(?<![\w-])seat_[\w-]+=" + _VALUE), "seat_" + HIDDEN + "=" + HIDDEN),  # the name is the token
    # a token or key quoted in JSON or a repr
    (re.compile(r"""(["']?(?:host_token|token|device)["']?\s*[:=]\s*["']?)[\w-]{12,}"""), r"\1" + HIDDEN),
]


def hide_secrets(text: str) -> str:
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    return text


class HideSecrets(logging.Filter):
    """On a logger or a handler: the message and its traceback, with every secret replaced."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = hide_secrets(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = hide_secrets(record.exc_text)
        if record.stack_info:
            record.stack_info = hide_secrets(record.stack_info)
        return True


class HiddenStream:
    """A text stream that writes whole lines, each with its secrets hidden (a secret split over two
    writes would slip past a pattern)."""

    def __init__(self, stream):
        self._stream = stream
        self._line = ""
        self._lock = threading.Lock()  # many server threads write

    def write(self, text: str) -> int:
        with self._lock:
            self._line += text
            if "\n" in self._line:
                done, _, self._line = self._line.rpartition("\n")
                self._stream.write(hide_secrets(done) + "\n")
        return len(text)

    def write_unhidden(self, line: str) -> None:
        """The one line meant to show a secret: the catalog's admin link, printed once as `serve` starts."""
        self.flush()
        with self._lock:
            self._stream.write(line)
            self._stream.flush()

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        with self._lock:
            if self._line:
                self._stream.write(hide_secrets(self._line))
                self._line = ""
            self._stream.flush()

    def __getattr__(self, name):  # encoding, fileno, isatty, ...
        return getattr(self._stream, name)


def keep_secrets_out_of_logs() -> None:
    """For `serve`: stdout and stderr hide secrets, and log records go there, once, with their time."""
    if not isinstance(sys.stderr, HiddenStream):
        sys.stdout, sys.stderr = HiddenStream(sys.stdout), HiddenStream(sys.stderr)
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.addFilter(HideSecrets())
        root.addHandler(handler)
        root.setLevel(logging.INFO)
