"""The host screen's moment (issue 25 item 2, TABLE.md point 11): what the table does now, said large at the
top of the host screen, as plain data for templates/host/_moment.html.

One of:
  setup    a setup step the table has not done yet (the first one the host has not ticked), every face it
           names and its places (marked on the map, and shown again cropped); `done` once every step is
           ticked (the host's "the table is ready" comes next); `left`: the steps not ticked
  opponent the solo opponent's turn as a list of acts on the table, until the host says the table did them (C-23)
  draw     the host's question about what the table drew ("Which hex is on the marked space?"), its place
           cropped from the map and said in words
  upkeep   the upkeep step the table is doing (the first not ticked), as setup
  turn     whose turn it is and what they decide (several seats at once in production and quarantine), under
           the acts its latest moves made on the shared pieces, held until the host taps Done or another seat
           acts (web/told.py)
  finale   the game is over: the winners, and the tiebreak that decided (R-SCORE-6)
  wait     anything else: who the game waits for

The moment changes with every move, so it stays small: faces and the map crop are references to the page's
library and map (web/library.py, pictures/where.py).
"""

from __future__ import annotations

from typing import Literal

from ...engine.records import Question
from ...engine.view import TableView
from ..told import ChecklistItem, next_item
from .records import Deciding, HostParts, Moment, Step


def moment(ctx: HostParts) -> Moment:
    """The moment of the host screen drawn from the host's context (host.host_context)."""
    pieces, table, host = ctx["pieces"], ctx["table"], ctx["host"]
    asked = host.get("question")
    if table["over"]:
        return {"kind": "finale", "winners": table["winners"], "scoring": pieces.scoring}
    if asked and asked["kind"] == "opponent_done":  # C-23: the solo opponent's turn, carried out on the table
        return {"kind": "opponent", "question": asked, "held": ctx.get("held")}
    if asked and asked["kind"] != "table_ready":  # the host enters what the table drew
        return {"kind": "draw", "question": asked, "places": asked.get("places", [])}
    if table["setup"]:
        return _step("setup", ctx["setup_items"], "setup", ctx, asked)
    if table["upkeep"]:
        return _step("upkeep", ctx["upkeep_items"], ctx["upkeep_list"], ctx, asked)
    deciding, held = _deciding(table), ctx.get("held")
    if deciding:  # a turn (`turn` set), or several seats at once in production and quarantine (`turn` None)
        return {"kind": "turn", "seats": deciding, "turn": table["turn"], "held": held}
    return {"kind": "wait", "question": asked, "waiting_for": table["waiting_for"], "held": held}


def steps_left(items: list[ChecklistItem], checklist: str, ticks) -> int:
    """How many steps of a checklist the host has not ticked (notes are never waited for): "the table is
    ready" waits behind a confirm while any is left (issue 33 item 6)."""
    return sum(1 for item in items if item["number"] is not None and (checklist, item["number"], item["words"])
               not in ticks)


def _step(kind: Literal["setup", "upkeep"], items: list[ChecklistItem], checklist: str, ctx: HostParts,
          asked: Question | None) -> Step:
    ticks = ctx.get("ticks", set())
    found = next_item(items, checklist, ticks)
    count = sum(1 for item in items if item["number"] is not None)
    out: Step = {"kind": kind, "list": checklist, "count": count, "question": asked, "seats": _deciding(ctx["table"]),
                 "left": steps_left(items, checklist, ticks), "done": found is None}
    if found is None:
        return out
    step = found["line"]
    return {**out, "number": found["number"], "step": step, "words": found["words"],
            "places": step.get("places") or (step.get("data") or {}).get("places", [])}


def _deciding(table: TableView) -> list[Deciding]:
    """The seats deciding now, each with its question."""
    seats = table["seats"]
    return [{"seat": q["who"], "name": seats[q["who"]]["name"], "colour": seats[q["who"]]["colour"], "question": q}
            for q in table["questions"] if isinstance(q["who"], int)]  # the host's own question is not a seat's
