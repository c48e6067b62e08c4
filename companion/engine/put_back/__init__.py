"""What the table must put back after an undo: the pieces of the game before it, compared with the game
after the replay, said as instructions in printed terms ("Ada gives back 2 fire tokens").

The screen changes at once on an undo; the cardboard and wood do not. Each kind of piece has a reader
(everything of that kind the table can see, keyed) and a speaker (what to do where a key differs), so
every difference found is named; a speaker never stays silent about a difference it is given. Places of
the city are given as `places` for the host's map marks, never named by id. A seat's pieces: seats.py; the
city's and the game's: city.py; one instruction: lines.py.
"""

from __future__ import annotations

from ..state import GameState
from .city import CITY
from .lines import NOTHING, both, line
from .seats import SEATS

__all__ = ["NOTHING", "changes", "put_back", "undone_log"]


def changes(before: GameState, after: GameState) -> list[tuple]:
    """Every difference the table can see, with its instructions: (key, [line, …]), key first by kind."""
    found = []
    for read, say in SEATS + tuple((both(r), say) for r, say in CITY):
        b_all, a_all = read(before, after)
        for key in sorted(b_all.keys() | a_all.keys(), key=repr):
            b, a = b_all.get(key), a_all.get(key)
            if b != a:
                found.append(((read.__name__.strip("_"), key), say(before, after, key, b, a)))
    return found


def put_back(before: GameState, after: GameState) -> list[dict]:
    """What the table does to match the game after an undo: the game-wide lines first, then each seat's,
    in play order after the undo; one line saying so when nothing on the table changes."""
    lines = [ln for _, said in changes(before, after) for ln in said]
    if not lines:
        return [line(NOTHING)]
    order = {seat: n for n, seat in enumerate(after.order or range(len(after.seats)))}
    return sorted(lines, key=lambda ln: -1 if ln["seat"] is None else 1 + order.get(ln["seat"], ln["seat"]))


def undone_log(before: GameState, after: GameState) -> tuple[int, list[dict]]:
    """The log entries the undo took away: where they stood (the length of the log they followed) and
    the entries, so the host's log can still show them, marked undone."""
    kept = 0
    for old, new in zip(before.log, after.log):
        if old != new:
            break
        kept += 1
    return kept, before.log[kept:]
