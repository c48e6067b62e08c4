"""Games on disk: SQLite through sqlite-utils, in WAL mode, in `instance/`.

games.py       the Store: games, the action log, undo (the class; the files below are its parts)
connection.py  a connection per thread, read and write transactions
seats.py       seats and their phones        catalogs.py  each game's catalog
deleting.py    deleting and pruning          ticks.py     the host's ticks on the checklists
tries.py       what the per-device limits count
put_back.py    an undo's row: what the table puts back, the log it took away, the acts it took back
writes.py      the log's two writes, an act and an undo (the Store's, and a replay's)
game_file.py   a game's file: its format, and the check every file passes
export.py      a game's file written  replay.py  the file replayed in memory, act by act, and checked
resume.py      a replayed file written as a new game, in one transaction
schema.py      the tables, one migration per change
recent.py  rebuilt games kept in memory (the most recently used)
disk.py    a failing disk or a damaged file, said plainly
"""

from .disk import DatabaseError, check_database, fault_of
from .games import Deleted, Game, NotFound, Stale, Store, new_game_id
from .recent import CACHE_GAMES, RecentGames
from .schema import m001_initial, m002_deleted, m003_phones, m004_game_catalog, migrations
from .seats import token

__all__ = ["CACHE_GAMES", "DatabaseError", "Deleted", "Game", "NotFound", "RecentGames", "Stale", "Store",
           "check_database",
           "fault_of", "m001_initial", "m002_deleted", "m003_phones", "m004_game_catalog", "migrations",
           "new_game_id", "token"]
