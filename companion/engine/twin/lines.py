"""One instruction to the table: the one shape every speaker (seats.py, city.py) gives, whether the table
carries out a move (`told`) or takes one back (`put_back`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..state import GameState
from ...words import Text, put_text

NOTHING = Text("Nothing to put back: the undone choices moved no pieces on the table.")


def line(text, places: list[str] | None = None, seat: int | None = None, shared: bool = True) -> dict:
    """One instruction: its words (template kept), the places to mark on the map, whose pieces it moves
    (None: the game's, not one seat's) and whether those pieces lie where everyone sees them (`shared`:
    the city, the scoreboard, the stacks, the supply) or on the seat's own estate (False: its phone says
    it, and the host's panel for that seat)."""
    entry = put_text({"seat": seat}, "text", text)
    if places:
        entry["places"] = places
    if not shared:
        entry["estate"] = True
    return entry


@dataclass(frozen=True)
class Reader:
    """One kind of piece read from the game: `one` reads a moment (a recorder's snapshot), and asked of a
    step's two sides it reads each, or `pair` reads them together (citizens, matched across the sides)."""

    name: str
    one: Callable[[GameState], dict]
    pair: Callable[[GameState, GameState], tuple[dict, dict]] | None = None

    def __call__(self, before: GameState, after: GameState) -> tuple[dict, dict]:
        if self.pair is not None:
            return self.pair(before, after)
        return self.one(before), self.one(after)


#: what a speaker is told of one difference: the two sides, the piece's key, and its value before and after
Speaker = Callable[[GameState, GameState, Any, Any, Any], list]


def both(read: Callable[[GameState], dict]) -> Reader:
    """A reader of one state, for both sides."""
    return Reader(read.__name__.strip("_"), read)
