"""What the Store's parts (the mixins Seats, Ticks, Tries… that make up `Store`) use of one another, named
for the type checker: each part is written against this, not against the whole Store it cannot import.
At run time the parts stand on `object` and find all of it on the Store they make up (store/games.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

import sqlite_utils

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..engine.state import GameState, Options
    from .recent import RecentGames


class StoreParts(Protocol):
    on_move: list[Callable[[str, int], Any]]
    on_look_again: list[Callable[[str], Any]]
    _cache: RecentGames
    _catalogs: dict[str, Catalog]
    _catalog_now: Callable[[], Catalog]
    _moments: dict
    _moments_lock: threading.Lock

    def _db(self) -> sqlite_utils.Database: ...
    def _rows(self, sql: str, params: list | None = None, db: Any = None) -> list[dict]: ...
    def _reading(self) -> AbstractContextManager[sqlite_utils.Database]: ...
    def _immediate(self) -> AbstractContextManager[sqlite_utils.Database]: ...
    def _one(self, sql: str, params: list, missing: str) -> dict: ...  # any table's row: its caller names it
    def _missing(self, key: str) -> Exception: ...  # NotFound or Deleted (store/games.py)
    def _rebuild(self, db: Any, gid: str, version: int) -> GameState: ...
    def _game_rows(self, db: Any, gid: str, options: Options, seed: int, host: str, catalog: Catalog,
                   version: int = 0) -> None: ...
    def catalog_of(self, gid: str, db: Any = None) -> Catalog: ...


# the base each part stands on: the protocol for the type checker, nothing at run time
if TYPE_CHECKING:
    Part = StoreParts
else:
    Part = object
