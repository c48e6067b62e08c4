"""One instruction to the table: the one shape every speaker (seats.py, city.py) gives, whether the table
carries out a move (`told`) or takes one back (`put_back`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, cast

from ...words import Text, put_text
from ..records import StoredText
from ..state import GameState

#: the kinds of piece the twin reads: a reader's name, a snapshot's keys (compare.Snapshot)
Kind = Literal["counters", "registers", "overseers", "lieutenants", "estates", "citizens", "hexes", "table", "stacks",
               "opponent"]

NOTHING = Text("Nothing to put back: the undone choices moved no pieces on the table.")


class Line(StoredText):
    """One instruction to the table (`line`): whose pieces it moves, its words with their template, the places
    the host's map marks, and `estate` when the pieces lie on the seat's own estate."""

    seat: int | None
    places: NotRequired[list[str]]
    estate: NotRequired[bool]


def line(text, places: list[str] | None = None, seat: int | None = None, shared: bool = True) -> Line:
    """One instruction: its words (template kept), the places to mark on the map, whose pieces it moves
    (None: the game's, not one seat's) and whether those pieces lie where everyone sees them (`shared`:
    the city, the scoreboard, the stacks, the supply) or on the seat's own estate (False: its phone says
    it, and the host's panel for that seat)."""
    entry = cast(Line, put_text({"seat": seat}, "text", text))
    if places:
        entry["places"] = places
    if not shared:
        entry["estate"] = True
    return entry


#: everything of one kind the table can see, by each piece's key (a free mapping; each reader says its own shape)
Pieces = dict[Any, Any]


@dataclass(frozen=True)
class Reader:
    """One kind of piece read from the game: `one` reads a moment (a recorder's snapshot), and asked of a
    step's two sides it reads each, or `pair` reads them together (citizens, matched across the sides)."""

    name: Kind
    one: Callable[[GameState], Pieces]
    pair: Callable[[GameState, GameState], tuple[Pieces, Pieces]] | None = None

    def __call__(self, before: GameState, after: GameState) -> tuple[Pieces, Pieces]:
        if self.pair is not None:
            return self.pair(before, after)
        return self.one(before), self.one(after)


#: what a speaker is told of one difference: the two sides, the piece's key, and its value before and after
Speaker = Callable[[GameState, GameState, Any, Any, Any], list[Line]]


def both(name: Kind, read: Callable[[GameState], Pieces]) -> Reader:
    """A reader of one state, for both sides."""
    return Reader(name, read)
