"""The tiles on offer: the face-up top of each improvement, workshop and wagon stack, turned up at setup
and again whenever one is taken (a build, a cycle, round V's late workshops, the solo opponent)."""

from __future__ import annotations

from ..words import Text
from . import tasks as do
from .describe import tile_text
from .draws import app_draws, reveal, stack_next
from .events import ACT, instruct
from .flow import task
from .reach import reached
from .state import GameState


@task(do.REVEAL_FACE_UP)
def _reveal_face_up(state: GameState, t: dict, lane: str) -> None:
    """Turn up the top tile of an improvement or workshop stack."""
    stack = state.improvements[t["index"]] if t["what"] == "improvement" else state.workshops[t["index"]]
    where = (Text("improvement stack {n}", n=t["index"] + 1) if t["what"] == "improvement"
             else Text("{cls} workshop stack", cls=t["index"]))
    ready, tile = stack_next(state, stack, lane, t, Text("Which tile is on top of the {where}?", where=where),
                             None, "R-SETUP-9" if t["what"] == "improvement"
                             else "R-SETUP-11")
    if not ready:
        return
    stack.up = tile
    default = "R-SETUP-9" if t["what"] == "improvement" else "R-SETUP-11"
    moves = (f"stack:{'improvements-' if t['what'] == 'improvement' else 'workshops-'}"
             f"{t['index'] + 1 if t['what'] == 'improvement' else t['index']}",)
    if not tile:
        _used_up(state, where, t.get("rule", default), moves)
        return
    instruct(state, _turned_up(state, t, where, tile_text(state, tile)), t.get("rule", default), moves, tile=tile)
    if app_draws(state) and state.phase == "setup" and t["what"] == "improvement" and \
            t["index"] == len(state.improvements) - 1:  # the 3 named at setup: the rest goes face down below
        instruct(state,
                 Text("Put the other {n} cabin improvements face down in 3 stacks of {k}, one under each face-up "
                      "improvement. The companion names each one that turns up later.",
                      n=len(state.pools[stack.pool]), k=stack.hidden), default, (ACT,))


def _turned_up(state: GameState, t: dict, where: str, tile: str) -> str:
    """The words for a tile turned up: the table turns up the top of its shuffled stack, or, when the companion
    draws, finds the tile it named (C-22). The improvements' unseen tiles are one pool (C-2), so the one named
    may lie under another stack: a face-down tile goes there in its place, and each stack keeps its count."""
    if not app_draws(state):
        return Text("Turn up the top of the {where}: the {tile}.", where=where, tile=tile)
    if t["what"] == "workshop":
        return Text("Put the {tile} face up on top of the {where}: find it among that stack's face-down tiles.",
                    tile=tile, where=where)
    n = t["index"] + 1
    if state.phase == "setup":
        return Text("Put the {tile} face up on the scoreboard: the top of improvement stack {n}.", tile=tile, n=n)
    return Text("Put the {tile} face up on top of improvement stack {n}: find it among the face-down cabin "
                "improvements; if it lay under another stack, move one face-down tile of stack {n} there in its "
                "place.", tile=tile, n=n)


@task(do.REVEAL_WAGON)
def _reveal_wagon(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-10 / R-BUILD-7: the next wagon of a stack turns up; which of its pair it is is a reveal."""
    stack = state.wagon_stacks[t["index"]]
    moves = (f"wagons:{t['index'] + 1}",)
    if not stack.backs:
        stack.up = None
        _used_up(state, Text("wagon stack {n}", n=t["index"] + 1), "R-BUILD-7", moves)
        return
    back = stack.backs[0]
    pool = state.pools[f"wagons-{back}"]
    question = Text("Which wagon (back {back}) turned up on wagon stack {n}?", back=back, n=t["index"] + 1)
    tile = reveal(state, lane, t, question, pool, None, "R-SETUP-10")
    if tile is None:
        return
    pool.remove(tile)
    stack.backs.pop(0)
    stack.up = tile
    name, n = tile_text(state, tile), t["index"] + 1
    if not app_draws(state):
        text = Text("Wagon stack {n} shows the {tile}.", n=n, tile=name)
    elif len(state.wagon_stacks) == 1:  # R-SETUP-10: the other of the pair would be in the stack left in the box
        text = Text("Put the {tile} face up on wagon stack {n} (find it among the wagons with back {back}) and return "
                    "the other wagon with back {back} to the box unseen.", tile=name, n=n, back=back)
    else:
        text = Text("Put the {tile} face up on wagon stack {n}: find it among the wagons with back {back}.", tile=name,
                    n=n, back=back)
    instruct(state, text, "R-SETUP-10", moves, tile=tile)


def _used_up(state: GameState, where: str, rule: str, moves: tuple[str, ...]) -> None:
    """The last tile of a stack was taken (R-BUILD-4): nothing lies below it, so nothing turns up, and the
    stack stays empty for the rest of the game (or, for the early workshops, until round V, R-NEXT-8)."""
    reached(state, "stack-emptied")
    instruct(state, Text("The {where} is empty: nothing to turn up.", where=where), rule, moves)
