"""What the table is told after a move: every difference between the game before and after it, in the order
the move made them, as the steps the engine wrote by hand (setup and upkeep checklists, a tile turned up, the
solo opponent's turn) and, for every difference no step says, the twin's own line.

A move is applied with a `Recorder` on the state (state._twin): at each step the engine tells the table
(events.instruct) it keeps what the table looks like just then and what the step says it moves (its `places`
and `moves`). Afterwards `told` compares the game before and after the move once (compare.changes, the
comparison an undo uses) and places each difference no step claims just before the first step whose moment
shows it, or at the end. So nothing reaches only the log, the same act is never told twice, and a move's lines
come in the order the table carries them out. A step that moves nothing the table can see is a note.

The recorder is the caller's (the store, a sweep): replays and simulations run without one and pay nothing.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, cast, final

from ..events import ACT, NOTE
from ..records import Said, Step
from ..state import GameState
from .compare import Snapshot, changes, snapshot, subjects
from .lines import Kind, Line


class Mark(TypedDict):
    """A step as a recorder keeps it: the step, its checklist and the steps that list held before it, the table
    just before it, and what it says it moves."""

    entry: Step
    list: str | None
    listed: int | None
    seen: Snapshot
    claims: frozenset[str]


@final  # closed: `"act" in item` tells the kinds apart
class Numbered(TypedDict):
    """A step of a checklist as `told` names it: its number there (the list itself keeps its words)."""

    number: int


@final  # closed: `"act" in item` tells the kinds apart
class TurnStep(Said):
    """A step of a turn as the table is told it: its words, rule and what it says (not its place in the log)."""

    mark: NotRequired[str]


@final  # closed: `"act" in item` tells the kinds apart
class TableAct(TypedDict):
    """A difference no step says (`told`): its line, its checklist, and the steps that list held when it came."""

    act: Line
    list: str | None
    after: int | None


@final  # closed: `"act" in item` tells the kinds apart
class TableStep(TypedDict):
    """A step written by hand (`told`): on a checklist its number there ({"number": n}), in a turn its words."""

    step: Numbered | TurnStep
    list: str | None
    note: bool
    moves: list[str]


#: one thing the table does for a move
Told = TableAct | TableStep


def checklist(state: GameState, coming: Step | None = None) -> str | None:
    """The checklist a step told now belongs to, as the host's ticks name it (store/ticks.py): "setup", or
    "upkeep-<the round being set up>" (7: after round VI); None in a round's turns. `coming`: a step about to
    be added (the round counter's own step names the round it moves to)."""
    if state.phase == "setup":
        return "setup"
    if state.phase != "upkeep":
        return None
    counted = any(e.get("rule") == "R-NEXT-1" for e in state.report) or \
        (coming is not None and coming.get("rule") == "R-NEXT-1")
    return f"upkeep-{state.round if counted else state.round + 1}"


class Recorder:
    """A move's steps as the engine tells them, each with the table as it was just before it."""

    def __init__(self, state: GameState):
        self.start = snapshot(state)
        self.marks: list[Mark] = []

    def step(self, state: GameState, entry: Step, listed: int | None, moves: tuple[str, ...]) -> None:
        """events.instruct: `entry` is about to be told; `listed`: the steps its checklist holds before it
        (None: a step of a turn, which goes to the log and the host's moment)."""
        places = (entry.get("data") or {}).get("places") or ()
        self.marks.append({"entry": entry, "list": checklist(state, entry) if listed is not None else None,
                           "listed": listed, "seen": snapshot(state), "claims": frozenset(moves) | frozenset(places)})


class StepMoments:
    """The table as each step of one checklist was told (issue 33 item 5): kept on a state, like a Recorder,
    while the checklist's moves are played again (store/told.py); the snapshot of step k (its number there)
    shows the pieces with steps 1…k done (twin/moment.py lays it onto the game)."""

    def __init__(self, name: str):
        self.name = name
        self.seen: dict[int, Snapshot] = {}

    def step(self, state: GameState, entry: Step, listed: int | None, moves: tuple[str, ...]) -> None:
        if listed is not None and checklist(state, entry) == self.name:
            self.seen[listed + 1] = snapshot(state)


def told(before: GameState, after: GameState, rec: Recorder | None) -> list[Told]:
    """Everything the table does for this move, in order: {"act": line, "list", "after"} for a difference no
    step says (`list`: the checklist it belongs to, `checklist`; `after`: the steps that checklist held when it
    came, for the web to slot it in), and {"step": entry, "list", "note"} for a step written by hand (on a
    checklist: its number there; in a turn: its words; `moves`: what it says of the pieces that moved, in the
    words of compare.subjects; `note`: it moves nothing on the table)."""
    marks = rec.marks if rec is not None else []
    found = changes(before, after)
    start, end = (rec.start if rec is not None else snapshot(before)), snapshot(after)
    said: set[str] = set()
    for m in marks:
        said |= m["claims"]
    acts: dict[int, list[Line]] = {}
    moved: set[str] = set()
    for (kind, key), lines in found:
        about = subjects(kind, key, start[kind].get(key), end[kind].get(key))
        moved |= about
        if about & said:
            continue
        at = _first_showing(rec, marks, kind, key)
        acts.setdefault(at, []).extend(lines)
    out: list[Told] = []
    for i, m in enumerate(marks):
        out += _acts(acts.get(i, ()), m["list"], m["listed"])
        entry: Numbered | TurnStep = {"number": m["entry"]["step"]} if m["list"] else _copy(m["entry"])
        note = NOTE in m["claims"] or (m["list"] != "setup" and not (m["claims"] & moved) and ACT not in m["claims"])
        out.append({"step": entry, "list": m["list"], "note": note,
                    "moves": sorted(m["claims"] & moved)})
    tail = {"setup": after.setup_steps, "upkeep": after.report}.get(after.phase)
    out += _acts(acts.get(len(marks), ()), checklist(after), len(tail) if tail is not None else None)
    return out


def _acts(lines, name: str | None, listed: int | None) -> list[Told]:
    return [{"act": ln, "list": name, "after": listed if name else None} for ln in lines]


def _copy(entry: Step) -> TurnStep:
    """A step of a turn, as the table is told it (its words, rule and places; not its place in the log)."""
    return cast(TurnStep, {k: v for k, v in entry.items() if k not in ("step", "n", "round")})


def _first_showing(rec: Recorder | None, marks: list[Mark], kind: Kind, key) -> int:
    """The first step whose moment shows this difference (the table did it before that step), else the end."""
    if rec is None:
        return len(marks)
    start = rec.start[kind].get(key)
    for i, m in enumerate(marks):
        if m["seen"][kind].get(key) != start:
            return i
    return len(marks)

