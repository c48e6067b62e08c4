"""What the table was told after each move (engine/twin/told.py, kept by store/told.py), as the screens show it:

- a checklist (setup, an upkeep): the steps the engine wrote by hand, in the rulebook's order, with every act
  no step says slotted in where it came; notes (a step that moves nothing: "Ada produces: nothing") are not
  numbered and have no box;
- the host's held acts: what the latest moves of a turn did to the shared pieces (a tile turned up, a
  lieutenant taken, a citizen into a cabin, the solo opponent's turn), large on the moment until the host
  taps Done or another seat acts;
- a phone's lines: what the same moves did to that seat's own pieces.

Nothing here decides what changed: the engine's comparison did, once, when the move was stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ..engine.pieces import Pieces
from ..engine.records import Step
from ..engine.twin import table_at
from ..engine.twin.compare import Snapshot
from ..engine.twin.lines import Line
from ..engine.view import TableView
from ..store.ticks import HELD, words_of
from ..store.told import StepSnapshots, ToldMove


class TurnLine(TypedDict):
    """A line of a move outside the checklists: a step by hand (`act` False; `note`: it moves nothing) or the
    twin's line (`act` True)."""

    line: Mapping[str, Any]  # the twin's Line (act), or a step by hand: a turn's TurnStep, a checklist's Step
    act: bool
    note: NotRequired[bool]


class ChecklistItem(TurnLine):
    """A line of a checklist as the table works through it: its number (None for a note) and the words its
    tick belongs to, given once the list is in order."""

    number: NotRequired[int | None]
    words: NotRequired[str]


class Held(TypedDict):
    """The host's held acts (`held`): the lines on shared pieces and on estates, the newest move's version
    (what Done ticks), its words and the places the lines name."""

    lines: list[TurnLine]
    estate: list[TurnLine]
    version: int
    words: str
    places: list[str]


class ToldScreens(TypedDict):
    """The host's context for what the table was told (`screens`)."""

    setup_items: list[ChecklistItem]
    upkeep_list: str
    upkeep_items: list[ChecklistItem]
    held: Held | None
    map_pieces: Pieces | None


def checklist(told: list[ToldMove], steps: list[Step], name: str) -> list[ChecklistItem]:
    """The checklist `name` ("setup", "upkeep-<round>") as the table works through it: items {line, number
    (None for a note), words (what its tick belongs to), act (True: the twin's line, not a step by hand)}."""
    acts: dict[int | None, list[Line]] = {}
    notes: set[int] = set()
    for row in told:
        for item in row["items"]:
            if item.get("list") != name:
                continue
            if "act" in item:
                acts.setdefault(item["after"], []).append(item["act"])
            elif item.get("note") and "number" in item["step"]:  # a checklist's step is named by its number
                notes.add(item["step"]["number"])
    out: list[ChecklistItem] = []
    for k in range(len(steps) + 1):
        out += [{"line": ln, "act": True} for ln in acts.get(k, ())]
        if k < len(steps):
            out.append({"line": steps[k], "act": False, "note": steps[k].get("step") in notes})
    number = 0
    for listed in out:
        if listed.get("note"):
            listed["number"] = None
            continue
        number += 1
        listed["number"] = number
        listed["words"] = words_of(listed["line"])
    return out


def next_item(items: list[ChecklistItem], name: str, ticks) -> ChecklistItem | None:
    """The first item of a checklist the host has not ticked (notes are never waited for), or None."""
    for item in items:
        if item["number"] is not None and (name, item["number"], item["words"]) not in ticks:
            return item
    return None


def latest_run(told: list[ToldMove]) -> list[ToldMove]:
    """The moves of the latest turn's run: back from the newest, every move until one by another seat than the
    latest seat that moved (the host's answers in between, a table draw, belong to it), or the host's word that
    the table carried out the solo opponent's turn (C-23)."""
    run: list[ToldMove] = []
    seat = None
    for row in reversed(told):
        if row.get("kind") == "opponent_done":
            break
        if row["who"] != "host":
            if seat is None:
                seat = row["who"]
            elif row["who"] != seat:
                break
        run.insert(0, row)
    return run


def held(told: list[ToldMove], ticks, opponent: bool = False) -> Held | None:
    """The acts of the latest run that touch shared pieces, outside any checklist, that the host has not ticked
    Done: {lines (each {line, act}), version (the newest move's, what Done ticks), words}. The solo opponent's
    turn is a run of its own (from the line that heads it), and while the host is asked whether the table has
    carried it out (`opponent`, C-23) it shows whole, ticked or not."""
    done = 0 if opponent else max((step for name, step, _ in ticks if name == HELD), default=0)
    lines = [item for row in latest_run(told) if row["version"] > done for item in _turn_lines(row, notes=True)]
    heads = [i for i, item in enumerate(lines) if (item["line"].get("data") or {}).get("opponent")]
    lines = [item for item in lines[heads[-1] if heads else 0:] if not item.get("note")]
    shared = [item for item in lines if not item["line"].get("estate")]
    if not shared:
        return None
    version = latest_run(told)[-1]["version"]
    places = list(dict.fromkeys(p for item in shared for p in places_of(item["line"])))
    return {"lines": shared, "estate": [item for item in lines if item["line"].get("estate")], "version": version,
            "words": words_of({"text": str(version)}), "places": places}


def places_of(line: Mapping[str, Any]) -> list[str]:
    """The places of the city a line names (a step by hand keeps them in its data)."""
    return line.get("places") or (line.get("data") or {}).get("places") or []


def seat_lines(told: list[ToldMove], seat: int) -> list[TurnLine]:
    """What the latest run did to one seat's pieces (its phone shows them above its next choice)."""
    return [item for row in latest_run(told) for item in _turn_lines(row)
            if _seat_of(item["line"]) == seat]


def _turn_lines(row: ToldMove, notes: bool = False) -> list[TurnLine]:
    """A move's lines outside the checklists, steps by hand and the twin's acts alike (notes left out, unless
    asked for: the line that heads the solo opponent's turn is one)."""
    out: list[TurnLine] = []
    for item in row["items"]:
        if item.get("list") is not None:
            continue
        if "act" in item:
            out.append({"line": item["act"], "act": True})
        elif notes or not item.get("note"):
            out.append({"line": item["step"], "act": False, "note": item.get("note", False)})
    return out


def _seat_of(line: Mapping[str, Any]) -> int | None:
    seat = line.get("seat")
    return seat if seat is not None else (line.get("data") or {}).get("seat")


def screens(game, table: TableView, ticks, moments) -> ToldScreens:
    """The host's context for what the table was told: both checklists as the table works through them (the
    upkeep's name is the round it sets up, or the round just played once it is done), the held acts, and the
    pieces the map shows (`map_pieces`: while a checklist is the table's work, the table as its current step
    leaves it, issue 33 item 5; else None: the game as it is). `moments(name, first)`: the store's snapshots of a
    checklist's steps."""
    state = game.state
    upkeep = f"upkeep-{table['upkeep']['round'] if table['upkeep'] else state.round}"
    out: ToldScreens = {"setup_items": checklist(game.told, state.setup_steps, "setup"), "upkeep_list": upkeep,
           "upkeep_items": checklist(game.told, state.report, upkeep),
           "held": held(game.told, ticks, _asked(table) == "opponent_done") if state.phase == "play" else None,
           "map_pieces": None}
    live = (("setup", out["setup_items"]) if table["setup"] else
            (upkeep, out["upkeep_items"]) if table["upkeep"] else None)
    if live is not None:
        found = _seen_at(live[1], live[0], ticks, moments(live[0], _first(game.told, live[0])))
        if found is not None:
            number, seen = found
            shown = table_at(state, seen)
            if table["setup"]:  # the map marks the places of the steps done and of the current one, not later ones
                shown.setup_steps = shown.setup_steps[:number]
            else:
                shown.report = shown.report[:number]
            out["map_pieces"] = Pieces(shown)
    return out


def _first(told: list[ToldMove], name: str) -> int | None:
    """The first move that told checklist `name` (None for the setup: the new game told it first)."""
    if name == "setup":
        return None
    return next((row["version"] for row in told if any(it.get("list") == name for it in row["items"])), None)


def _seen_at(items: list[ChecklistItem], name: str, ticks, seen: StepSnapshots) -> tuple[int, Snapshot] | None:
    """(its number, the snapshot) of the table once the current item's steps are done: the latest step by hand
    at or before the first item not ticked (all done: the last step)."""
    current = next_item(items, name, ticks)
    upto = items.index(current) + 1 if current is not None else len(items)
    numbers = [item["line"].get("step") for item in items[:upto] if not item["act"]]
    for number in reversed(numbers):
        if number in seen:
            return number, seen[number]
    return None


def _asked(table: TableView) -> str | None:
    """The kind of the host's own open question, if any."""
    asked = table["host"].get("question")
    return asked["kind"] if asked else None
