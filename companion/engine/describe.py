"""Short descriptions of tiles for menus, reveals and instructions, in our own words."""

from __future__ import annotations

from ..catalog.rewards import Bundle
from .state import GameState


def cost_text(cost: Bundle) -> str:
    return cost.text() if cost.items else "nothing"


def tile_text(state: GameState, tile: str) -> str:
    c = state.catalog
    if tile in c.boats:
        b = c.boats[tile]
        return f"{tile} ({b.cargo}, gives {b.reward.text()})"
    if tile in c.improvements:
        i = c.improvements[tile]
        only = f", {i.cls}s only" if i.cls else ""
        return f"{tile} (costs {cost_text(i.cost)}; yields {i.output.text()}{only})"
    if tile in c.workshops:
        w = c.workshops[tile]
        gold = "upgraded " if w.needs_upgraded else ""
        if w.era == 1:
            up = f", upgraded {w.upgraded_output.text()}" if w.upgraded_output else ""
            gives = f"each round {w.output.text()}{up}"
        else:
            gives = f"once {w.reward.text()}"
        return f"{tile} ({gold}{w.cls}, costs {cost_text(w.cost)}; {gives})"
    if tile in c.wagons:
        w = c.wagons[tile]
        return f"{tile} (costs {cost_text(w.cost)}; {w.vp} VP)"
    if tile in c.hexes or tile in c.harbors:
        h = c.tile(tile)
        return f"{h.name} ({tile})"
    return tile
