"""The tiles on offer: the face-up top of each improvement, workshop and wagon stack, turned up at setup
and again whenever one is taken (a build, a cycle, round V's late workshops, the solo opponent)."""

from __future__ import annotations

from . import tasks as do
from .describe import tile_text
from .draws import reveal, stack_next
from .events import instruct
from .flow import task
from .reach import reached
from .state import GameState
from ..words import T


@task(do.REVEAL_FACE_UP)
def _reveal_face_up(state: GameState, t: dict, lane: str) -> None:
    """Turn up the top tile of an improvement or workshop stack."""
    stack = state.improvements[t["index"]] if t["what"] == "improvement" else state.workshops[t["index"]]
    where = (T("improvement stack {n}", n=t["index"] + 1) if t["what"] == "improvement"
             else T("{cls} workshop stack", cls=t["index"]))
    ready, tile = stack_next(state, stack, lane, t, T("Which tile is on top of the {where}?", where=where),
                             None, "R-SETUP-9" if t["what"] == "improvement"
                             else "R-SETUP-11")
    if not ready:
        return
    stack.up = tile
    default = "R-SETUP-9" if t["what"] == "improvement" else "R-SETUP-11"
    moves = (f"stack:{'improvements-' if t['what'] == 'improvement' else 'workshops-'}"
             f"{t['index'] + 1 if t['what'] == 'improvement' else t['index']}",)
    if tile:
        instruct(state, T("Turn up the top of the {where}: the {tile}.", where=where, tile=tile_text(state, tile)),
                 t.get("rule", default), moves, tile=tile)
    else:
        _used_up(state, where, t.get("rule", default), moves)


@task(do.REVEAL_WAGON)
def _reveal_wagon(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-10 / R-BUILD-7: the next wagon of a stack turns up; which of its pair it is is a reveal."""
    stack = state.wagon_stacks[t["index"]]
    moves = (f"wagons:{t['index'] + 1}",)
    if not stack.backs:
        stack.up = None
        _used_up(state, T("wagon stack {n}", n=t["index"] + 1), "R-BUILD-7", moves)
        return
    back = stack.backs[0]
    pool = state.pools[f"wagons-{back}"]
    question = T("Which wagon (back {back}) turned up on wagon stack {n}?", back=back, n=t["index"] + 1)
    tile = reveal(state, lane, t, question, pool, None, "R-SETUP-10")
    if tile is None:
        return
    pool.remove(tile)
    stack.backs.pop(0)
    stack.up = tile
    instruct(state, T("Wagon stack {n} shows the {tile}.", n=t["index"] + 1, tile=tile_text(state, tile)), "R-SETUP-10",
             moves, tile=tile)


def _used_up(state: GameState, where: str, rule: str, moves: tuple[str, ...]) -> None:
    """The last tile of a stack was taken (R-BUILD-4): nothing lies below it, so nothing turns up, and the
    stack stays empty for the rest of the game (or, for the early workshops, until round V, R-NEXT-8)."""
    reached(state, "stack-emptied")
    instruct(state, T("The {where} is empty: nothing to turn up.", where=where), rule, moves)
