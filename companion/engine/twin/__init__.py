"""The table's twin: the pieces of a game as the table sees them, compared before and after, and every
difference said as a physical act in printed terms ("Ada returns 2 coins to the supply", "Turn up the top
tile of the aristocrat workshop stack: …").

One comparison serves both directions. After a move (`told`) it is what the table does now; after an undo
(`put_back`) it is what the table puts back. Each kind of piece has a reader (everything of that kind the
table can see, keyed) and a speaker (what to do where a key differs), so every difference found is named;
a speaker never stays silent about a difference it is given. Places of the city are given as `places` for
the host's map marks, never named by id. A seat's pieces: seats.py; the city's and the game's: city.py; one
instruction: lines.py; a move's steps and the acts between them: told.py.
"""

from __future__ import annotations

from ..records import LogEntry
from ..state import GameState
from .compare import changes
from .lines import NOTHING, Line, line
from .moment import table_at
from .told import Recorder, StepMoments, checklist, told

__all__ = ["NOTHING", "Recorder", "StepMoments", "changes", "checklist", "put_back", "table_at", "told", "undone_log"]


def put_back(before: GameState, after: GameState) -> list[Line]:
    """What the table does to match the game after an undo: the game-wide lines first, then each seat's,
    in play order after the undo; one line saying so when nothing on the table changes."""
    lines = [ln for _, said in changes(before, after) for ln in said]
    if not lines:
        return [line(NOTHING)]
    order = {seat: n for n, seat in enumerate(after.order or range(len(after.seats)))}
    return sorted(lines, key=lambda ln: -1 if ln["seat"] is None else 1 + order.get(ln["seat"], ln["seat"]))


def undone_log(before: GameState, after: GameState) -> tuple[int, list[LogEntry]]:
    """The log entries the undo took away: where they stood (the length of the log they followed) and
    the entries, so the host's log can still show them, marked undone."""
    kept = 0
    for old, new in zip(before.log, after.log, strict=False):
        if old != new:
            break
        kept += 1
    return kept, before.log[kept:]

