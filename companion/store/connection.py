"""The games file's connections and transactions: one connection per server thread, reads as one moment of
the database, writes that take the lock up front, and a failing disk said plainly.

Statements go straight to sqlite3 (`execute`), never through sqlite-utils' table helpers, which look the
table up and wrap each call in a savepoint first: a tap reads and writes a handful of rows, and each of
those extra statements is a round through SQLite's lock."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager

import sqlite_utils

from .disk import fault_of

# Each server thread keeps its own connection, and `serve` runs hundreds of threads: SQLite's default page
# cache (2 MB per connection) could add up to a gigabyte as the file grows. A request reads a few dozen
# pages; the operating system's file cache keeps the rest close.
PAGE_CACHE_KIB = 128


class Connections:
    """What the Store reads and writes through."""

    def __init__(self, path: str):
        self.path = path
        self._local = threading.local()

    def _db(self) -> sqlite_utils.Database:
        """One connection per server thread, kept open: a "anything new?" poll costs one indexed read.
        Its page cache is small (PAGE_CACHE_KIB) because there are as many connections as threads."""
        db = getattr(self._local, "db", None)
        if db is None:
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
            db = self._local.db = sqlite_utils.Database(conn)
        return db

    def close(self) -> None:
        """Close this thread's connection (serve's parent, before it forks its workers)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None

    def _rows(self, sql: str, params: list | None = None, db=None) -> list[dict]:
        """Every row of one statement, each as a dict by column name."""
        cursor = (db or self._db()).execute(sql, params or [])
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    @contextmanager
    def _reading(self):
        """One read transaction: in WAL mode every statement in it sees the same committed moment."""
        db = self._db()
        db.execute("BEGIN")
        try:
            yield db
        finally:
            if db.conn.in_transaction:
                db.execute("COMMIT")

    @contextmanager
    def _immediate(self):
        """A write transaction that takes the write lock up front, so a busy database makes it wait
        (busy_timeout) instead of failing halfway with "database is locked".

        A full disk or a failing file makes SQLite roll back by itself; rolling back again would only say
        "no transaction is active" over the real cause, so the cause is raised as a `StoreFault`."""
        db = self._db()
        try:
            db.execute("BEGIN IMMEDIATE")
            yield db
            db.execute("COMMIT")
        except BaseException as exc:
            self._roll_back(db)
            fault = fault_of(exc) if isinstance(exc, sqlite3.Error) else None
            if fault is not None:
                raise fault from exc
            raise

    def _roll_back(self, db: sqlite_utils.Database) -> None:
        if not db.conn.in_transaction:
            return
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:  # the connection is in no state to go on: the next request opens a new one
            db.conn.close()
            self._local.db = None
