"""One instruction to the table after an undo, the one shape every speaker (seats.py, city.py) gives."""

from __future__ import annotations

from ..state import GameState
from ...words import T, keep

NOTHING = T("Nothing to put back: the undone choices moved no pieces on the table.")


def line(text, places: list[str] | None = None, seat: int | None = None) -> dict:
    """One instruction: its words (template kept), the places to mark on the map, and whose pieces it moves
    (None: the game's, not one seat's)."""
    entry = keep({"seat": seat}, "text", text)
    if places:
        entry["places"] = places
    return entry


def both(read):
    """A reader of one state, for both sides."""
    def read_both(before: GameState, after: GameState) -> tuple[dict, dict]:
        return read(before), read(after)
    read_both.__name__ = read.__name__
    return read_both
