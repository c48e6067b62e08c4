"""A game's file, once its replay proved it (store/replay.py), written as a new game in one transaction: the
scratch database's rows (the action log with its undone marks and undos' notes, the snapshots) copied under
the new id, with the game's catalog and the host's ticks. Its seats get new links and codes and no phone;
the old links belong to the machine the file came from."""

from __future__ import annotations

from .parts import Part
from .replay import SCRATCH, Replayed


class Resuming(Part):
    """The resume's part of the Store (games.py, which gives `_immediate` and `_game_rows`)."""

    def _write_resumed(self, replayed: Replayed, gid: str, host: str) -> None:
        file, scratch = replayed.file, replayed.db
        actions = scratch.execute("select version, who, action, undone, kind, time, via, act, said from actions "
                                  "where game_id = ? order by version", [SCRATCH]).fetchall()
        snapshots = scratch.execute("select version, state from snapshots where game_id = ?", [SCRATCH]).fetchall()
        with self._immediate() as db:
            self._game_rows(db, gid, file.options, file.seed, host, replayed.catalog, file.version)
            db.conn.executemany("insert into actions (game_id, version, who, action, undone, kind, time, via, act, "
                                "said) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [(gid, *row) for row in actions])
            db.conn.executemany("insert into snapshots (game_id, version, state) values (?, ?, ?)",
                                [(gid, *row) for row in snapshots])
            db.conn.executemany("insert into ticks (game_id, list, step, words, time) values (?, ?, ?, ?, ?)",
                                [(gid, t["list"], t["step"], t["words"], t["time"]) for t in file.ticks])
