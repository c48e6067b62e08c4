"""What the table was told after each move (engine/twin/told.py), kept with the move's row of the action log
so every screen, on every worker and after a restart, shows the same lines; and the recent moves' lines, which
a game kept in memory carries with it (the host's moment holds the latest ones, the upkeep checklist gathers
its round's, a phone shows its seat's).
"""

from __future__ import annotations

import json
from typing import TypedDict

from ..engine import apply, new_game
from ..engine.state import GameState, Options
from ..engine.twin import Recorder, StepMoments, told
from ..engine.twin.compare import Snapshot
from ..engine.twin.told import Told
from .parts import Part

RECENT = 80  # moves whose lines a game carries: more than an upkeep or a table-drawn setup takes

StepSnapshots = dict[int, Snapshot]  # a checklist's snapshots, by step number


class ToldMove(TypedDict):
    """One live move's lines: its version, who made it (as the log writes it), the kind of question it
    answered (None: a row saved before acts had words) and what it told the table (engine/twin/told.py)."""

    version: int
    who: str
    kind: str | None
    items: list[Told]


def recorder(state: GameState) -> Recorder:
    """Keep what a move tells the table while it is applied to `state` (cleared by `told_json`)."""
    state._twin = Recorder(state)
    return state._twin


def told_json(before: GameState, after: GameState) -> tuple[str, list[Told]]:
    """The move's lines, as the row keeps them and as the screens use them."""
    rec, after._twin = after._twin, None
    items = told(before, after, rec)
    return json.dumps(items), items


def told_of(db, gid: str) -> list[ToldMove]:
    """The live moves' lines, oldest first, the last RECENT of them: {version, who, kind (of the question the move
    answered), items}."""
    rows = db.execute("select version, who, said, told from actions where game_id = ? and kind = 'act' "
                      "and undone = 0 order by version desc limit ?", [gid, RECENT]).fetchall()
    return [{"version": v, "who": who, "kind": json.loads(said).get("kind") if said else None,
             "items": json.loads(items) if items else []} for v, who, said, items in reversed(rows)]


def with_move(recent: list[ToldMove], version: int, who: str, kind: str | None, items: list[Told]) -> list[ToldMove]:
    """The recent moves' lines once a move has been stored (a new list: a kept game's lists never change)."""
    return [*recent[-(RECENT - 1):], {"version": version, "who": who, "kind": kind, "items": items}]


class StepReplays(Part):
    """The table as each step of a checklist was told (issue 33 item 5), for the host's map while the table works
    through it: the checklist's moves played again with engine/twin's StepMoments on the state (mixed into
    store/games.py's Store, which gives `_reading`, `_rebuild` and `catalog_of`). Kept for the latest few lists:
    a host screen asks again with every move while the list is the table's work."""

    KEPT = 32

    def step_moments(self, gid: str, name: str, version: int, first: int | None) -> StepSnapshots:
        """{step number: snapshot} of checklist `name` ("setup", "upkeep-<round>") as of `version`, played from
        the move before `first` (the first move that told that list; None: from the new game itself, whose own
        setting up tells most of the setup's steps)."""
        kept = self._moments
        key = (gid, name, version, first)
        with self._moments_lock:
            found: StepSnapshots | None = kept.get(key)
        if found is None:
            moments = StepMoments(name)
            with self._reading() as db:
                if first is None:
                    options, seed = db.execute("select options, seed from games where id = ?", [gid]).fetchone()
                    state = new_game(Options.from_dict(json.loads(options)), seed, self.catalog_of(gid, db), moments)
                    start = 0
                else:
                    state, start = self._rebuild(db, gid, first - 1), first - 1
                for (action,) in db.execute("select action from actions where game_id = ? and version > ? and "
                                            "version <= ? and kind = 'act' and undone = 0 order by version",
                                            [gid, start, version]):
                    state._twin = moments
                    apply(state, json.loads(action))
                    state._twin = None
            found = moments.seen
            with self._moments_lock:  # screens ask from several threads
                while len(kept) >= self.KEPT:
                    kept.pop(next(iter(kept)))
                kept[key] = found
        return found
