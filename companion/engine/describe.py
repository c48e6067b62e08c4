"""Short descriptions of tiles for menus, reveals and instructions, in our own words."""

from __future__ import annotations

from functools import lru_cache

from ..catalog.rewards import Bundle
from .state import GameState
from ..words import T


def cost_text(cost: Bundle) -> str:
    return cost.text() if cost.items else T("nothing")


def tile_text(state: GameState, tile: str) -> str:
    c = state.catalog
    if tile in c.boats:
        b = c.boats[tile]
        return _boat_text(tile, b.cargo, b.reward.text())
    if tile in c.improvements:
        i = c.improvements[tile]
        if i.cls:
            return T("{tile} (costs {cost}; yields {output}, {cls}s only)", tile=tile, cost=cost_text(i.cost),
                     output=i.output.text(), cls=i.cls)
        return T("{tile} (costs {cost}; yields {output})", tile=tile, cost=cost_text(i.cost), output=i.output.text())
    if tile in c.workshops:
        w = c.workshops[tile]
        if w.era != 1:
            gives = T("once {reward}", reward=w.reward.text())
        elif w.upgraded_output:
            gives = T("each round {output}, upgraded {upgraded}", output=w.output.text(),
                      upgraded=w.upgraded_output.text())
        else:
            gives = T("each round {output}", output=w.output.text())
        if w.needs_upgraded:
            return T("{tile} (upgraded {cls}, costs {cost}; {gives})", tile=tile, cls=w.cls, cost=cost_text(w.cost),
                     gives=gives)
        return T("{tile} ({cls}, costs {cost}; {gives})", tile=tile, cls=w.cls, cost=cost_text(w.cost), gives=gives)
    if tile in c.wagons:
        w = c.wagons[tile]
        return T("{tile} (costs {cost}; {vp} VP)", tile=tile, cost=cost_text(w.cost), vp=w.vp)
    if tile in c.hexes or tile in c.harbors:
        h = c.tile(tile)
        return f"{h.name} ({tile})"
    return tile


@lru_cache(maxsize=256)
def _boat_text(tile: str, cargo: str, reward: str) -> str:
    """Cached: every turn menu lists the boats at the docks."""
    return T("{tile} ({cargo}, gives {reward})", tile=tile, cargo=cargo, reward=reward)


@lru_cache(maxsize=64)
def coins(n: int) -> str:
    """"1 coin", "3 coins" (cached: every turn menu prices each place)."""
    return T("{n} coin", n=n) if n == 1 else T("{n} coins", n=n)
