"""One instruction to the table: the one shape every speaker (seats.py, city.py) gives, whether the table
carries out a move (`told`) or takes one back (`put_back`)."""

from __future__ import annotations

from ..state import GameState
from ...words import T, keep

NOTHING = T("Nothing to put back: the undone choices moved no pieces on the table.")


def line(text, places: list[str] | None = None, seat: int | None = None, shared: bool = True) -> dict:
    """One instruction: its words (template kept), the places to mark on the map, whose pieces it moves
    (None: the game's, not one seat's) and whether those pieces lie where everyone sees them (`shared`:
    the city, the scoreboard, the stacks, the supply) or on the seat's own estate (False: its phone says
    it, and the host's panel for that seat)."""
    entry = keep({"seat": seat}, "text", text)
    if places:
        entry["places"] = places
    if not shared:
        entry["estate"] = True
    return entry


def both(read):
    """A reader of one state, for both sides."""
    def read_both(before: GameState, after: GameState) -> tuple[dict, dict]:
        return read(before), read(after)
    read_both.__name__ = read.__name__
    read_both.one = read
    return read_both
