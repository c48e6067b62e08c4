"""Messina on the table: where hexes sit, distances, docks, and what the wheel adds.

Distances follow Q-11: shortest path over placed hexes (harbors included), a dock linked only to its
harbor, empty expansion spaces not crossable, figures never blocking a path.
"""

from __future__ import annotations

from collections import deque

from ..catalog.model import AXIAL_STEPS
from ..words import Plural, Text, joined
from .describe import tile_text
from .events import instruct, tile_name, who
from .reach import reached
from .state import GameState, Place

_LAYOUTS: dict = {}
_DISTANCES: dict = {}


def layout(state: GameState):
    cat = state.catalog
    key = (id(cat), state.players)
    lay = _LAYOUTS.get(key)
    if lay is None or lay[0] is not cat:
        lay = _LAYOUTS[key] = (cat, cat.layout_for(state.players))
    return lay[1]


def space_coord(state: GameState, space: str) -> tuple[int, int]:
    lay = layout(state)
    if space.startswith("s"):
        return lay.start[int(space[1:]) - 1]
    if space in lay.harbors:
        return lay.harbors[space]
    return lay.expansion[space]


def start_spaces(state: GameState) -> list[str]:
    return [f"s{i:02d}" for i in range(1, len(layout(state).start) + 1)]


def tile_at(state: GameState) -> dict[tuple[int, int], str]:
    return {space_coord(state, h.space): tile for tile, h in state.hexes.items()}


def adjacent_hexes(state: GameState, tile: str) -> list[str]:
    """Placed hexes next to a hex (R-TURN-FIRE-5: where a major fire's extra cube may come from)."""
    at = tile_at(state)
    q, r = space_coord(state, state.hexes[tile].space)
    return sorted(at[(q + dq, r + dr)] for dq, dr in AXIAL_STEPS if (q + dq, r + dr) in at)


def dock_of_harbor(state: GameState, harbor: str) -> str:
    for d in state.catalog.docks.values():
        if d.harbor == harbor:
            return d.id
    raise KeyError(harbor)


def distances_from(state: GameState, place: str) -> dict[str, int]:
    """Steps from a place ("hex:<tile>" or "dock:<id>") to every hex tile and dock (Q-11).

    The city changes only when a hex is added, so results are remembered per city shape (the caller
    must not change the returned mapping)."""
    shape = _shape(state)
    dist = shape.distances.get(place)
    if dist is None:
        dist = shape.distances[place] = _distances(shape, place)
    return dist


class _Shape:
    """One city as laid out (which tile lies on which space): its geometry, worked out once, and the
    distances asked of it so far. Every turn menu prices every place from every lieutenant."""

    def __init__(self, state: GameState):
        self.catalog = state.catalog
        self.at = tile_at(state)
        self.coord_of = {t: space_coord(state, h.space) for t, h in state.hexes.items()}
        self.harbor_of = {d.id: d.harbor for d in state.catalog.docks.values()}
        self.dock_of = {h: d for d, h in self.harbor_of.items()}
        self.distances: dict[str, dict[str, int]] = {}


def _shape(state: GameState) -> _Shape:
    key = (id(state.catalog), state.players, tuple([(t, h.space) for t, h in state.hexes.items()]))
    shape = _DISTANCES.get(key)
    if shape is None or shape.catalog is not state.catalog:
        if len(_DISTANCES) > 2000:
            _DISTANCES.clear()
        shape = _DISTANCES[key] = _Shape(state)
    return shape


def _distances(shape: _Shape, place: str) -> dict[str, int]:
    """Breadth first over the placed hexes; a dock is one step beyond its harbor."""
    start = place.split(":", 1)[1]
    dist: dict[str, int] = {}
    todo: deque = deque()
    if place.startswith("dock:"):
        dist["dock:" + start] = 0
        harbor = shape.harbor_of[start]
        if harbor in shape.coord_of:
            dist["hex:" + harbor] = 1
            todo.append((harbor, 1))
    else:
        dist["hex:" + start] = 0
        todo.append((start, 0))
    while todo:
        tile, d = todo.popleft()
        q, r = shape.coord_of[tile]
        if tile in shape.dock_of and "dock:" + shape.dock_of[tile] not in dist:
            dist["dock:" + shape.dock_of[tile]] = d + 1
        for dq, dr in AXIAL_STEPS:
            nxt = shape.at.get((q + dq, r + dr))
            if nxt and "hex:" + nxt not in dist:
                dist["hex:" + nxt] = d + 1
                todo.append((nxt, d + 1))
    return dist


def docks_clockwise(state: GameState) -> list[str]:
    """Docks in the clockwise order of their harbors around the city (R-NEXT-5 overflow)."""
    ring = layout(state).ring
    return [dock_of_harbor(state, h) for h in ring if h in layout(state).harbors]


def berth(state: GameState, dock: str) -> str | None:
    """The dock a new boat lands at: the named one, or the next clockwise with a free space."""
    order = docks_clockwise(state)
    i = order.index(dock)
    for k in range(len(order)):
        d = order[(i + k) % len(order)]
        if len(state.docks[d]) < state.catalog.docks[d].spaces:
            return d
    return None


def window(state: GameState):
    return state.catalog.wheel[state.wheel]


def turn_wheel(state: GameState) -> None:
    """R-R1-2: the window moves one space clockwise."""
    state.wheel = (state.wheel + 1) % len(state.catalog.wheel)
    w = window(state)
    instruct(state, Text("Turn the population wheel one space clockwise to the {window}.", window=tile_text(state,
                                                                                                            w.id)),
             # the window's caption says what it brings
             "R-R1-2" if state.round == 1 else "R-NEXT-9", ("wheel",), window=w.id)


def neighbourhoods(state: GameState) -> list[str]:
    return sorted(t for t in state.hexes if t in state.catalog.hexes)


def add_cubes(state: GameState) -> None:
    """R-R1-2 / R-NEXT-10 / R-NEXT-11: one cube on each hex showing the wheel's rat, or none at all
    when the supply is short; each cube on a repopulated hex gives its repopulator a rat."""
    rat = window(state).rat
    due = [t for t in neighbourhoods(state) if state.catalog.hexes[t].rat == rat]
    if not due:
        instruct(state, Text("No hex shows the {rat} rat: no plague cubes this step.", rat=rat), "R-R1-2")
        return
    if state.supply_cubes < len(due):
        reached(state, "cube-limit")
        left = Plural("{n} plague cube is", "{n} plague cubes are", n=state.supply_cubes)
        instruct(state,
                 Plural("{n} hex shows the {rat} rat but only {left} left in the supply: add no cubes in this step.",
                        "{n} hexes show the {rat} rat but only {left} left in the supply: add no cubes in this step.",
                        n=len(due), rat=rat, left=left), "R-NEXT-10", due=due)
        return
    for t in due:
        h = state.hexes[t]
        h.cubes += 1
        state.supply_cubes -= 1
        if h.repopulated_by is not None:
            state.seats[h.repopulated_by].rats += 1
    names = joined([tile_name(state, t) for t in due])
    instruct(state, Text("Put 1 plague cube on each hex with the {rat} rat: {hexes}.", rat=rat, hexes=names), "R-R1-2",
             ("supply",), hexes=due, places=[str(Place.hex(t)) for t in due])
    for t in due:
        owner = state.hexes[t].repopulated_by
        if owner is not None:
            reached(state, "repop-cube-rat")
            instruct(state, Text("{who} takes 1 rat: a cube landed on their repopulated hex {tile}.",
                                 who=who(state, owner), tile=tile_name(state, t)), "R-NEXT-11", (f"seat:{owner}:rats",),
                     seat=owner, hex=t,
                     places=[str(Place.hex(t))])


def add_citizens(state: GameState) -> None:
    """R-R1-2: each class of citizen goes to every hex of the colour the window gives it."""
    for colour, cls in window(state).colours.items():
        if cls is None:
            continue
        got = [t for t in neighbourhoods(state) if state.catalog.hexes[t].colour == colour]
        for t in got:
            state.hexes[t].citizens.append(state.new_citizen(cls))
        if got:
            names = joined([tile_name(state, t) for t in got])
            instruct(state, Text("Put 1 {cls} on each {colour} hex: {hexes}.", cls=cls, colour=colour, hexes=names),
                     "R-R1-2", cls=cls, hexes=got, places=[str(Place.hex(t)) for t in got])
