"""The one comparison: every kind of piece read from the game before and after, and each difference with
the lines that say it (a speaker per kind, never silent). What each difference is about (`subjects`) lets a
step the engine wrote by hand say that it told the table already (twin/told.py)."""

from __future__ import annotations

from typing import Any, TypedDict, cast

from ..state import GameState
from .city import CITY, Hexes, OpponentPieces, Stacks, TablePieces
from .lines import Kind, Line, Reader, Speaker
from .seats import SEATS, Citizens, Counters, Estates, Lieutenants, Overseers, Registers

READERS: tuple[tuple[Reader, Speaker], ...] = SEATS + CITY

#: each reader's view of one moment of the game, by the reader's name (a recorder's snapshot)
ONE = {read.name: read.one for read, _ in READERS}


class Snapshot(TypedDict):
    """Every piece the table can see at one moment, by kind (`snapshot`): each reader's mapping."""

    counters: Counters
    registers: Registers
    overseers: Overseers
    lieutenants: Lieutenants
    estates: Estates
    citizens: Citizens
    hexes: Hexes
    table: TablePieces
    stacks: Stacks
    opponent: OpponentPieces


#: one difference the table can see: (its kind, the piece's key), and the lines that say it
Change = tuple[tuple[Kind, Any], list[Line]]


def changes(before: GameState, after: GameState) -> list[Change]:
    """Every difference the table can see, with its instructions: (key, [line, …]), key first by kind."""
    found: list[Change] = []
    for read, say in READERS:
        b_all, a_all = read(before, after)
        for key in sorted(b_all.keys() | a_all.keys(), key=repr):
            b, a = b_all.get(key), a_all.get(key)
            if b != a:
                found.append(((read.name, key), say(before, after, key, b, a)))
    return found


def snapshot(state: GameState) -> Snapshot:
    """Every piece the table can see, by reader: what a recorder keeps at each step of a move."""
    return cast(Snapshot, {name: read(state) for name, read in ONE.items()})  # one key per reader: READERS


def subjects(kind: Kind, key, before, after) -> set[str]:
    """What a difference is about, in the words a step's `moves` and `places` use: "hex:<tile>", "dock:<id>",
    "space:<id>", "supply", "wheel", "round", "order", "stack:<key>", "wagons:<n>", "opponent:<part>",
    "seat:<n>:<part>"; and whose pieces they are, "opponent" or "seat:<n>" (a step that hands a seat its
    whole board says that). `before`/`after`: the reader's values (citizens: where each one lies)."""
    found = _subjects(kind, key, before, after)
    return found | {":".join(s.split(":")[:2]) for s in found if s.startswith("seat:")} | \
        ({"opponent"} if kind == "opponent" else set())


def _subjects(kind: Kind, key, before, after) -> set[str]:
    if kind == "hexes":
        return {f"hex:{key}"} | {f"space:{v[0]}" for v in (before, after) if v}
    if kind == "table":
        return {f"dock:{key[1]}"} if key[0] == "dock" else {key[0]}
    if kind == "stacks":
        return {f"stack:{key[1]}"} if key[0] == "stack" else {f"wagons:{key[1]}"}
    if kind == "opponent":
        return {f"opponent:{key[0]}"} | ({f"hex:{key[1]}"} if key[0] == "placed" else set())
    if kind == "citizens":
        return {_where_citizen(v[0]) for v in (before, after) if v}
    if kind == "lieutenants":
        return {f"seat:{key}:lieutenants"}
    if kind == "counters":
        return {f"seat:{key[0]}:{key[1]}"}
    if kind == "overseers":
        return {f"seat:{key[0]}:overseers"}
    return {f"seat:{key[0]}:{key[1]}" + (f":{key[2]}" if kind == "registers" else "")}


def _where_citizen(at: tuple) -> str:
    return f"hex:{at[1]}" if at[0] == "hex" else f"seat:{at[1]}:{at[0]}s"
