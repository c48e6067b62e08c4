"""What the table was told after each move (engine/twin/told.py), kept with the move's row of the action log
so every screen, on every worker and after a restart, shows the same lines; and the recent moves' lines, which
a game kept in memory carries with it (the host's moment holds the latest ones, the upkeep checklist gathers
its round's, a phone shows its seat's).
"""

from __future__ import annotations

import json

from ..engine.state import GameState
from ..engine.twin import Recorder, told

RECENT = 80  # moves whose lines a game carries: more than an upkeep or a table-drawn setup takes


def recorder(state: GameState) -> Recorder:
    """Keep what a move tells the table while it is applied to `state` (cleared by `told_json`)."""
    state._twin = Recorder(state)
    return state._twin


def told_json(before: GameState, after: GameState) -> tuple[str, list[dict]]:
    """The move's lines, as the row keeps them and as the screens use them."""
    rec, after._twin = after._twin, None
    items = told(before, after, rec)
    return json.dumps(items), items


def told_of(db, gid: str) -> list[dict]:
    """The live moves' lines, oldest first, the last RECENT of them: {version, who, items}."""
    rows = db.execute("select version, who, told from actions where game_id = ? and kind = 'act' and undone = 0 "
                      "order by version desc limit ?", [gid, RECENT]).fetchall()
    return [{"version": v, "who": who, "items": json.loads(said) if said else []} for v, who, said in reversed(rows)]


def with_move(recent: list[dict], version: int, who: str, items: list[dict]) -> list[dict]:
    """The recent moves' lines once a move has been stored (a new list: a kept game's lists never change)."""
    return [*recent[-(RECENT - 1):], {"version": version, "who": who, "items": items}]
