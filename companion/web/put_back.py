"""After an undo the screen has changed but the table has not: what the host and each phone show of the
put-back instruction the store kept with the undo (store/put_back.py), and the host's log with the entries
the undo took away still in place, struck through and marked "undone"."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..engine.records import LogEntry
from ..engine.twin.lines import Line
from ..store.put_back import Undo

BACK = "↶"  # the map mark of a put-back line: "↶2" beside line 2, on the place it names


class MarkedLine(Line):
    """A put-back line on the host's screen: with its mark on the map ("↶2") when it names a place."""

    mark: NotRequired[str]


class PlaceMark(TypedDict):
    """A place marked on the host's map (pictures/city.py draws it as the checklists' marks): its label."""

    label: str  # the marks of the lines naming it: "↶1·↶3"
    mark: bool


class LogRow(TypedDict, total=False):
    """A row of the host's log: an entry (`undone` when an undo took it away) or an undo; {} a slot not filled yet."""

    entry: LogEntry
    undone: bool
    undo: Undo


def host_put_back(undos: list[Undo], version: int) -> list[MarkedLine]:
    """The latest undo's lines with their map marks, until the next action is taken (the undo is then no
    longer the game's latest version)."""
    if not undos or undos[-1]["version"] != version:
        return []
    lines = undos[-1].get("put_back", [])
    return [MarkedLine(**ln, mark=f"{BACK}{n}") if ln.get("places") else MarkedLine(**ln)
            for n, ln in enumerate(lines, 1)]


def put_back_marks(lines: list[MarkedLine]) -> dict[str, PlaceMark]:
    """The places the put-back lines name, as marks on the host's map (as the checklists mark theirs)."""
    marks: dict[str, list[str]] = {}
    for ln in lines:
        for place in ln.get("places", []):
            marks.setdefault(place, []).append(ln["mark"])
    return {place: {"label": "·".join(labels), "mark": True} for place, labels in marks.items()}


def seat_put_back(undos: list[Undo], state, seat: int) -> list[Line]:
    """A seat's own lines of the latest undo (all of them when its phone took back its own act), until that
    seat acts again or the game moves on to another round or phase (then the table has played on from the
    pieces as they were put back)."""
    if not undos:
        return []
    last = undos[-1]
    if str(seat) in last.get("acted_after", []) or (last.get("round"), last.get("phase")) != (state.round,
                                                                                               state.phase):
        return []
    if last.get("by") == str(seat):  # the phone took back its own act: every line, as the host sees them
        return list(last.get("put_back", []))
    return [ln for ln in last.get("put_back", []) if ln["seat"] == seat]


def log_rows(log: list[LogEntry], undos: list[Undo]) -> list[LogRow]:
    """The host's log in the order things happened: each entry ({"entry"}), the ones an undo took away
    where they stood ({"entry", "undone": True}), and each undo after them ({"undo"}).

    Rows are slots filled as the undos are replayed in order: an undo frees the slots of the entries it
    took away (filled with the entries it kept), new entries take new slots at the end, and the slots
    still standing at the end get today's log."""
    rows: list[LogRow] = []
    live: list[int] = []  # the rows of the entries standing at this point, in log order
    for undo in undos:
        if "log_at" in undo:  # undos saved before undos kept their log have no entries to show
            at, gone = undo["log_at"], undo["undone_log"]
            _grow(rows, live, at + len(gone))
            for row, entry in zip(live[at:], gone, strict=False):
                rows[row] = {"entry": entry, "undone": True}
            del live[at:]
        rows.append({"undo": undo})
    _grow(rows, live, len(log))
    for row, entry in zip(live, log, strict=False):
        rows[row] = {"entry": entry}
    return [row for row in rows if row]


def _grow(rows: list[LogRow], live: list[int], size: int) -> None:
    """New slots at the end for the entries logged since the last undo."""
    while len(live) < size:
        live.append(len(rows))
        rows.append({})
