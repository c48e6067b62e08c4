"""The table at one step of a checklist (issue 33 item 5): the game's pieces on the map as a recorder saw them
when that step was told, laid onto a copy of the game, so the host's map shows the table as it is once the
steps up to the current one are done, not the end state (at setup step 1: the hexes, and no cube yet).

The engine tells a step once it has moved its pieces (the round counter moved, the cubes put on, then the
words), so the snapshot taken as step k is told shows the table with steps 1…k done.
"""

from __future__ import annotations

from ..state import BoatAtDock, Citizen, GameState, Hex, Lieutenant
from .compare import Snapshot


def table_at(state: GameState, seen: Snapshot) -> GameState:
    """A copy of `state` whose city (hexes, cubes, citizens on hexes, repopulation tiles), docks, wheel, round
    counter, cube supply, lieutenants and solo opponent's figures are those of the snapshot `seen`."""
    out = state.clone()
    out.hexes = {tile: Hex(tile=tile, space=space, cubes=cubes, repopulated_by=repop)
                 for tile, (space, cubes, repop) in seen["hexes"].items()}
    for cid, (at, cls, upgraded) in sorted(seen["citizens"].items()):
        if at[0] == "hex" and at[1] in out.hexes:
            out.hexes[at[1]].citizens.append(Citizen(cid, cls, upgraded))
    table = seen["table"]
    out.docks = {dock: [] for dock in state.docks}
    for key, cube in table.items():
        if key[0] == "dock":
            out.docks.setdefault(key[1], []).append(BoatAtDock(key[2], cube))
    out.wheel, out.round, out.supply_cubes = table[("wheel",)], table[("round",)], table[("supply",)]
    out.order = list(table[("order",)])
    for seat, figures in seen["lieutenants"].items():
        out.seats[seat].lieutenants = [Lieutenant(where, used) for where, used in figures]
    if out.opponent is not None:
        out.opponent.placed = [key[1] for key in seen["opponent"] if key[0] == "placed"]
    return out
