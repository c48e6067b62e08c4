"""Games nobody played: started, never moved past setup (not one action in their log), and left for a
day. Anyone may start a game, so without this a script could fill the disk with them (issue 21); `serve`
removes them by itself, a few at a time as new games are started, unless told `--keep-unplayed`."""

from __future__ import annotations

import time

from .games import NotFound, Store

AFTER = 86400.0  # a day: a table sets up in minutes, and starts playing the same evening
BATCH = 100  # games removed at most per look, so the request that looks stays quick
EVERY = 60.0  # seconds between two looks


def unplayed_since(store: Store, before: float, limit: int = BATCH) -> list[str]:
    """Ids of games created before `before` with no action at all (version 0), the oldest first."""
    return [row["id"] for row in store._rows("select id from games where version = 0 and created < ? "
                                              "order by created limit ?", [before, limit])]


def prune_unplayed(store: Store, before: float, limit: int = BATCH) -> list[str]:
    """Delete up to `limit` unplayed games created before `before` (their screens then say the game was
    deleted), and forget deletions older than that; the ids deleted."""
    gone = []
    for gid in unplayed_since(store, before, limit):
        try:
            store.delete(gid)
        except NotFound:  # deleted by its host a moment ago: just as good
            continue
        gone.append(gid)
    with store._immediate() as db:
        db.execute("delete from deleted where time < ?", [before])
    return gone


class UnplayedPrune:
    """Removes unplayed games older than `after` seconds, at most once every `every` seconds (None: never)."""

    def __init__(self, store: Store, after: float | None = AFTER, every: float = EVERY, clock=time.time):
        self.store, self.after, self.every, self.clock = store, after, every, clock
        self._next = 0.0

    def maybe(self) -> list[str]:
        """Look now if it is time to; the ids removed."""
        now = self.clock()
        if not self.after or now < self._next:
            return []
        self._next = now + self.every
        return prune_unplayed(self.store, now - self.after)
