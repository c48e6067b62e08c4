"""Rebuilt games kept in memory, so a screen's question costs a version read, not a replay: each game's state
at its latest version known here, with its notes (the undos', store/put_back.py; the recent moves' lines,
store/told.py), which change only with the version."""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..engine.state import GameState

CACHE_GAMES = 64  # games kept rebuilt in memory, the most recently used (a few hundred KB each)


class RecentGames:
    """The most recently used games' rebuilt states, at most `size` of them: a busy server keeps its
    tables in memory without growing with every game ever made."""

    def __init__(self, size: int = CACHE_GAMES):
        self.size = max(1, size)
        self._games: OrderedDict[str, tuple[int, GameState, tuple]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, gid: str) -> tuple[int, GameState, tuple] | None:
        """(version, state, notes) of the game as last kept, or None."""
        with self._lock:
            found = self._games.get(gid)
            if found is not None:
                self._games.move_to_end(gid)
            return found

    def put(self, gid: str, version: int, state: GameState, notes: tuple) -> None:
        with self._lock:
            known = self._games.get(gid)
            if known is None or known[0] <= version:  # a slow reader never replaces a newer state
                self._games[gid] = (version, state, notes)
            self._games.move_to_end(gid)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def drop(self, gid: str) -> None:
        with self._lock:
            self._games.pop(gid, None)

    def __len__(self) -> int:
        return len(self._games)
