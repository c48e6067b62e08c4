"""What the per-device limits count (web/limits.py): new games started, join codes tried, each a row of
`tries` with its kind, its client (companion/clients.py) and its time.

Kept in the games file, not in a process's memory: `serve` answers from several worker processes, and a
count each kept for itself was as many limits as workers (a burst spread over them got through several
times) and was forgotten when a worker was started again. The games file is what every worker shares, and
its write lock makes "count, and add one if under the limit" one step for all of them."""

from __future__ import annotations

from contextlib import contextmanager

from .parts import Part

COUNT = "select count(*) from tries where kind = ? and who = ? and time > ?"


class Tries(Part):
    """The Store's part that counts tries (a mixin on its connections)."""

    def count_try(self, kind: str, who: str, limit: int, window: float, now: float) -> bool:
        """Count one try of `kind` by `who` at `now` if fewer than `limit` lie in the `window` seconds before;
        False, counting nothing, if not. A refusal only reads; a try about to be counted is counted again
        under the write lock, so tries arriving at once in several processes meet the one limit."""
        since = now - window
        if self._db().execute(COUNT, [kind, who, since]).fetchone()[0] >= limit:
            return False
        with self._unsynced(), self._immediate() as db:
            if db.execute(COUNT, [kind, who, since]).fetchone()[0] >= limit:
                return False
            db.execute("insert into tries (kind, who, time) values (?, ?, ?)", [kind, who, now])
        return True

    def forget_tries(self, kind: str, before: float) -> None:
        """Drop the tries of `kind` at or before `before`: their window has ended, so they count for nobody."""
        with self._unsynced(), self._immediate() as db:
            db.execute("delete from tries where kind = ? and time <= ?", [kind, before])

    @contextmanager
    def _unsynced(self):
        """A count need not outlive a power cut, so its commit does not wait for the disk (WAL with
        synchronous NORMAL: nothing is ever damaged, only the last counts may be lost); a move's does."""
        db = self._db()
        was = db.execute("PRAGMA synchronous").fetchone()[0]
        db.execute("PRAGMA synchronous = NORMAL")
        try:
            yield
        finally:
            db.execute(f"PRAGMA synchronous = {int(was)}")

    def clients_counted(self, kind: str) -> int:
        """How many clients have tries of `kind` kept (those not yet dropped)."""
        return self._db().execute("select count(distinct who) from tries where kind = ?", [kind]).fetchone()[0]
