"""The game log in words, and the table instructions of setup and upkeep.

The log is what the host screen reads back ("Red takes boat 4 for 2 coins"); instructions are what
the table must do with the physical pieces, in order, citing the rule that demands it.
"""

from __future__ import annotations

from typing import Any, cast

from ..words import Text, put_text
from .describe import tile_name
from .records import LogData, LogEntry, Step
from .state import COLOUR_LETTERS, GameState


def note(state: GameState, text: str, rule: str | None = None, **data: Any) -> LogEntry:
    """A log entry; a Text also keeps its template ("msg", "args") for the web layer to translate."""
    entry = cast(LogEntry, put_text({"n": len(state.log) + 1, "round": state.round}, "text", text))
    if rule:
        entry["rule"] = rule
    if data:
        entry["data"] = cast(LogData, data)
    state.log.append(entry)
    return entry


#: a step's `moves` when it is an act on the table that no piece the twin reads shows (a marker on the 50 space,
#: a shuffle): it is a step to tick, not a note
ACT = "act"
#: a step's `moves` when the table has already done what it says (the host entered a tile the table drew): it
#: says which pieces moved, so nothing is told twice, and is a note, with no box to tick
NOTE = "note"


def instruct(state: GameState, text: str, rule: str | None = None, moves: tuple[str, ...] = (), **data: Any) -> None:
    """A step the table carries out: kept in the upkeep report (or setup steps) and the log. A step about
    places of the city gives them as `places` ("hex:<tile>", "dock:<id>", "space:<id>") and its words say
    "the marked hex": the host's map marks them with the step's number (`mark`), as the table has no ids.
    `moves`: the other pieces its words move ("supply", "stack:<key>", "seat:<n>:<kind>"…, twin/told.py),
    so the table is not told the same act twice; kept by a move's recorder only, never in the state."""
    entry = cast(Step, put_text({"step": 0}, "text", text))
    if rule:
        entry["rule"] = rule
    if data:
        entry["data"] = cast(LogData, data)
    target = {"setup": state.setup_steps, "upkeep": state.report}.get(state.phase)
    if state._twin is not None:
        state._twin.step(state, entry, len(target) if target is not None else None, moves)
    if target is not None:
        entry["step"] = len(target) + 1
        if data.get("places"):
            entry["mark"] = str(entry["step"])
        target.append(entry)
    note(state, text, rule, table=True, **data)


def who(state: GameState, seat: int) -> str:
    """A seat as the log names it, its colour's letter beside the name ("Ada (R)"): one template per colour,
    so each language writes its own letter (docs/GLOSSARY.md, "Letters": jaune is J, gelb is Ge)."""
    if seat < 0:
        return Text("the opponent")
    s = state.seats[seat]
    named = _NAMED.get(s.colour)
    return named(s.name) if named else f"{s.name} ({COLOUR_LETTERS.get(s.colour, '?')})"


_NAMED = {"red": lambda name: Text("{name} (R)", name=name), "yellow": lambda name: Text("{name} (Y)", name=name),
          "blue": lambda name: Text("{name} (B)", name=name), "green": lambda name: Text("{name} (G)", name=name)}


__all__ = ["instruct", "note", "roman", "tile_name", "who"]

ROMAN = ("", "I", "II", "III", "IV", "V", "VI")


def roman(n: int) -> str:
    return ROMAN[n]
