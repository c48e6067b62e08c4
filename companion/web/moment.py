"""The host screen's moment (issue 25 item 2, TABLE.md point 11): what the table does now, said large at the
top of the host screen, as plain data for partials/_moment.html.

One of:
  setup    a setup step the table has not done yet (the first one the host has not ticked), every face it
           names and its places (marked on the map, and shown again cropped); `done` once every step is
           ticked (the host's "the table is ready" comes next); `left`: the steps not ticked
  draw     the host's question about what the table drew ("Which hex is on the marked space?"), its place
           cropped from the map and said in words
  upkeep   the upkeep step the table is doing (the first not ticked), as setup
  turn     whose turn it is and what they decide (several seats at once in production and quarantine)
  finale   the game is over: the winners, and the tiebreak that decided (R-SCORE-6)
  wait     anything else: who the game waits for

The moment changes with every move, so it stays small: faces and the map crop are references to the page's
library and map (web/library.py, pictures/where.py).
"""

from __future__ import annotations

from ..store.ticks import words_of


def moment(ctx: dict) -> dict:
    """The moment of the host screen drawn from the host's context (host.host_context)."""
    pieces, table, host = ctx["pieces"], ctx["table"], ctx["host"]
    asked = host.get("question")
    if table["over"]:
        return {"kind": "finale", "winners": table["winners"], "scoring": pieces.scoring}
    if asked and asked["kind"] != "table_ready":  # the host enters what the table drew
        return {"kind": "draw", "question": asked, "places": asked.get("places", [])}
    if table["setup"]:
        return _step("setup", pieces.setup_steps, "setup", ctx, asked)
    if table["upkeep"]:
        return _step("upkeep", pieces.report, f"upkeep-{table['upkeep']['round']}", ctx, asked)
    deciding = _deciding(table)
    if deciding:  # a turn (`turn` set), or several seats at once in production and quarantine (`turn` None)
        return {"kind": "turn", "seats": deciding, "turn": table["turn"]}
    return {"kind": "wait", "question": asked, "waiting_for": table["waiting_for"]}


def next_step(steps: list[dict], checklist: str, ticks) -> tuple[int, dict] | None:
    """The first step of a checklist the host has not ticked (its number from 1, and the step), or None."""
    for number, step in enumerate(steps, 1):
        if (checklist, number, words_of(step)) not in ticks:
            return number, step
    return None


def steps_left(steps: list[dict], checklist: str, ticks) -> int:
    """How many steps of a checklist the host has not ticked: "the table is ready" waits behind a confirm
    while any is left (issue 33 item 6)."""
    return sum(1 for number, step in enumerate(steps, 1) if (checklist, number, words_of(step)) not in ticks)


def _step(kind: str, steps: list[dict], checklist: str, ctx: dict, asked: dict | None) -> dict:
    ticks = ctx.get("ticks", set())
    found = next_step(steps, checklist, ticks)
    out = {"kind": kind, "list": checklist, "count": len(steps), "question": asked, "seats": _deciding(ctx["table"]),
           "left": steps_left(steps, checklist, ticks)}
    if found is None:
        return {**out, "done": True}
    number, step = found
    return {**out, "done": False, "number": number, "step": step, "words": words_of(step),
            "places": (step.get("data") or {}).get("places", [])}


def _deciding(table: dict) -> list[dict]:
    """The seats deciding now, each with its question."""
    return [{"seat": q["who"], "name": table["seats"][q["who"]]["name"], "colour": table["seats"][q["who"]]["colour"],
             "question": q} for q in table["questions"] if q["who"] != "host"]
