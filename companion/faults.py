"""Faults of the machine, not of the players: a full disk, a damaged file, a folder we may not write.

They carry a sentence for people (the host at the table, or whoever started the server), because the
person who meets one needs to know what happened and what to do, not a traceback.
"""

from __future__ import annotations


class StartupError(Exception):
    """The companion cannot start: `python -m companion` prints this one line and exits."""


class StoreFault(Exception):
    """A write failed because of the disk or the database file; it was rolled back, nothing was saved."""

    status = 503

    def __init__(self, message: str, cause: str = ""):
        super().__init__(message)
        self.message = message
        self.cause = cause  # SQLite's own words, for the log


class DiskFull(StoreFault):
    """SQLite said "database or disk is full" (507 Insufficient Storage)."""

    status = 507
