"""When the disk or the games file fails: the player hears what happened in plain words, and a damaged
file is refused before anything writes to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..faults import DiskFull, StartupError, StoreFault

# SQLite's primary result codes that mean the disk or the file failed, not the player or the program
_FAULTS = {sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CORRUPT,
           sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
           sqlite3.SQLITE_PERM}

DatabaseError = sqlite3.Error  # what the database raises: the web answers it (fault_of says it plainly)


def fault_of(exc: sqlite3.Error) -> StoreFault | None:
    """The store's own fault for an SQLite error from the disk or the file (None for any other error)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None or (code & 0xFF) not in _FAULTS:
        return None
    if (code & 0xFF) == sqlite3.SQLITE_FULL:
        return DiskFull("The disk is full: nothing was saved.", str(exc))
    if (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreFault("The companion is too busy to save right now: nothing was saved. Try again.", str(exc))
    return StoreFault("The companion cannot use its games file on the disk: nothing was saved.", str(exc))


def check_database(path: str) -> None:
    """Refuse a games file that is a folder, not SQLite, or damaged, before anything writes to it:
    writing into a damaged file could lose the games still readable in it. Read-only, so a refused
    file is left exactly as it was."""
    file = Path(path).resolve()
    again = "Move it aside (or restore a backup) and start the companion again."
    if file.is_dir():
        raise StartupError(f"The games file {file} is a folder, not a file. {again}")
    if not file.exists() or file.stat().st_size == 0:
        return  # a new, empty file: SQLite makes it a database
    try:
        con = sqlite3.connect(file.as_uri() + "?mode=ro", uri=True)
        try:
            problems = [row[0] for row in con.execute("PRAGMA quick_check")]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code == sqlite3.SQLITE_NOTADB:
            raise StartupError(f"The games file {file} is not a companion database (it is damaged or another kind "
                               f"of file). {again}") from None
        if code != sqlite3.SQLITE_CORRUPT:
            raise StartupError(f"Cannot read the games file {file}: {exc}. Check that the companion may read "
                               "and write its folder.") from None
        problems = [str(exc)]
    if problems != ["ok"]:
        first = problems[0].replace("*** in database main ***", "").strip().splitlines()[0]
        raise StartupError(f"The games file {file} is damaged (SQLite's check says: {first}); it was left as it "
                           f"is. {again}")
