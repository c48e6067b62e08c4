"""Deleting games: one by its host (all or nothing, remembered as deleted so its screens say so), or every
game idle for longer than some days (`prune`), and giving the space back to the disk."""

from __future__ import annotations

import sqlite3
import time
from typing import TypedDict, cast

from .disk import fault_of
from .parts import Part


class IdleGame(TypedDict):
    """A game idle since a time: its id, when it was made, its options (as stored: JSON) and its last activity."""

    id: str
    created: float
    options: str
    last: float


class Deleting(Part):
    """The deleting part of the Store (games.py), on its connections."""

    def delete(self, gid: str) -> None:
        """Remove a game with its seats, log and snapshots, all or nothing. Its id and seat links are
        remembered as deleted, so every screen of that game says so (instead of "no such game")."""
        with self._immediate() as db:
            row = db.execute("select version from games where id = ?", [gid]).fetchone()
            if row is None:
                raise self._missing(gid)
            links = [t for (t,) in db.execute("select token from seats where game_id = ?", [gid])]
            for table in ("actions", "snapshots", "seats", "ticks"):
                db.execute(f"delete from {table} where game_id = ?", [gid])
            db.execute("delete from games where id = ?", [gid])
            now = time.time()
            db.conn.executemany("insert or replace into deleted (key, time) values (?, ?)",
                                [(gid, now)] + [(t, now) for t in links])
        self._cache.drop(gid)
        for hear in self.on_move:  # screens waiting for news wake up and hear that the game is gone
            hear(gid, row[0] + 1)

    def idle_since(self, before: float) -> list[IdleGame]:
        """Games whose last activity (their last action, or their creation: a game resumed from its file
        today is new here, whatever its acts' times) is older than `before`."""
        rows = self._rows("select g.id, g.created, g.options, max(coalesce(max(a.time), 0), g.created) as last "
                          "from games g left join actions a on a.game_id = g.id group by g.id "
                          "having last < ? order by last", [before])
        return cast(list[IdleGame], rows)

    def prune(self, before: float, dry_run: bool = False) -> list[IdleGame]:
        """Delete every game idle since `before` (and forget deletions older than that); returns them."""
        idle = self.idle_since(before)
        if not dry_run:
            for game in idle:
                self.delete(game["id"])
            with self._immediate() as db:
                db.execute("delete from deleted where time < ?", [before])
        return idle

    def vacuum(self) -> None:
        """Give the space of deleted games back to the disk (rewrites the file; needs as much free space)."""
        try:
            self._db().execute("VACUUM")
            self._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the smaller file is the main file now
        except sqlite3.Error as exc:
            raise (fault_of(exc) or exc) from exc
