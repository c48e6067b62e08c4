"""The game of a file act by act, in words a table reads (English, as the command line speaks): who chose
what, what it did on the table (the log's lines, the draws among them), what each undo took back. A dispute
("did the wheel really add that cube?") is settled by reading it."""

from __future__ import annotations

import json

from ..store.replay import Step, shown


def step_lines(step: Step) -> list[str]:
    """One row of the log as it replayed: its number and words, then the lines it added to the game's log."""
    row = step.row
    if row.kind == "undo":
        assert step.note is not None  # every undo's step keeps its note (store/replay.py)
        undone = ", ".join(str(v) for v in step.note["undo"])
        by = "the host" if row.who == "host" else _seat(step, int(row.who))
        lines = [f"{row.version}. Undo by {by}: takes back action{'s' if ',' in undone else ''} {undone}."]
        return lines + [f"     put back: {p['text']}" for p in step.note.get("put_back", []) if p.get("text")]
    who = step.said.get("name") or ("the host" if row.action["who"] == "host" else _seat(step, row.action["who"]))
    what = step.said.get("label") or shown(json.dumps(row.action["pick"]), 120)
    if step.said.get("kind") == "reveal":  # C-1: the host enters what the table drew
        what = f"the table drew {what}"
    mark = "  [taken back]" if row.undone else ""
    return [f"{row.version}. {who}: {what}{mark}"] + [f"     - {entry['text']}" for entry in step.added
                                                        if entry.get("text")]


def summary(steps: int, undos: int, undone: int, state) -> str:
    """The last line of a good file's replay: how much it holds and where the game stands."""
    where = "the game is over" if state.phase == "over" else f"round {state.round}, {state.phase}"
    return (f"The file replays: {steps - undos} acts ({undone} of them taken back) and {undos} undo"
            f"{'s' if undos != 1 else ''}, arriving at the game it records ({where}).")


def _seat(step: Step, seat: int) -> str:
    return step.state.seats[seat].name
