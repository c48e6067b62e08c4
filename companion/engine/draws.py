"""Chance: a seeded generator kept in the state, and reveals the host can enter instead.

The generator is splitmix64 over one integer, so the whole random state is one JSON number and a
replay of the same actions draws the same tiles (undo never re-rolls). In table-draw mode every
reveal becomes a host decision listing the tiles that can still come up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from .describe import face_of, tile_text
from .flow import ASKED, choose, option
from .state import GameState, Stack

C = TypeVar("C", str, int)  # what a reveal picks among: tiles by id, or seats by number (the play order)

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def _next(state: GameState) -> int:
    state.rng = (state.rng + 0x9E3779B97F4A7C15) & MASK
    z = state.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def randbelow(state: GameState, n: int) -> int:
    """Uniform in [0, n) without modulo bias."""
    limit = (MASK + 1) - ((MASK + 1) % n)
    while True:
        x = _next(state)
        if x < limit:
            return x % n


def shuffled(state: GameState, items) -> list:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def app_draws(state: GameState) -> bool:
    """Whether the companion draws (C-1): it then names every tile as it turns up, so the table shuffles
    nothing and finds the tile named (C-22); else the table draws and the host enters what came up."""
    return state.options.draw == "app"


def reveal(state: GameState, lane: str, t: dict, question: str, candidates: Iterable[C],
           label: Callable[[C], str] | None = None, rule: str | None = None, place: str | None = None) -> C | None:
    """The tile revealed for task `t`: its `pick` once answered, a forced or RNG choice, or None
    after leaving a host decision (table-draw mode) that re-runs `t` with the answer. The host is asked
    `question`, a whole sentence (so each language words it its own way); each candidate is named by what
    is printed on it and shown by its face, so the host taps the picture of the tile in hand. `place`: the
    spot on the map the question is about."""
    if "pick" in t:
        return t["pick"]
    cands = sorted(set(candidates))
    if not cands:
        return None
    if app_draws(state) and len(cands) > 1:
        return cands[randbelow(state, len(cands))]
    name = label or (lambda c: tile_text(state, str(c)))  # without a label, the candidates are tiles
    pick = choose(state, lane, "host", "reveal", question,
                  [option(c, name(c), face=face_of(state, c)) for c in cands], t, rule,
                  place=place)  # one candidate: taken for you
    return None if pick is ASKED else pick


def stack_next(state: GameState, stack: Stack, lane: str, t: dict, question: str,
               label: Callable[[str], str] | None = None, rule: str | None = None) -> tuple[bool, str | None]:
    """Take the next tile of a stack. Returns (ready, tile): ready is False while the host is asked;
    tile is None when the stack is empty."""
    if stack.top:
        return True, stack.top.pop(0)
    if stack.hidden > 0:
        pool = state.pools[stack.pool]
        tile = reveal(state, lane, t, question, pool, label, rule)
        if tile is None and "pick" not in t and pool:
            return False, None
        assert tile is not None, "a stack with hidden tiles and none in its pool"
        pool.remove(tile)
        stack.hidden -= 1
        return True, tile
    if stack.bottom:
        return True, stack.bottom.pop(0)
    return True, None
