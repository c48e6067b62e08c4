"""Things a table can get wrong and the companion never may: checked after every simulated decision
(and available to the host screen as a sanity check)."""

from __future__ import annotations

import json

from .flow import ASK, waiting
from .overseers import centre_step
from .rulebook import CUBES, LIEUTENANTS
from .state import GameState, Place, state_from_dict

TOKENS = ("coins", "lumber", "fire", "major_fire", "rats")
PLACES = ("supply", "estate", "box", "hex", "dock")


def broken(state: GameState, roundtrip: bool = True) -> str | None:
    """The first broken invariant, in words, or None."""
    if state.phase != "setup":
        cubes = (sum(h.cubes for h in state.hexes.values())
                 + sum(b.cube for boats in state.docks.values() for b in boats) + state.supply_cubes)
        if cubes != CUBES[state.players]:
            return f"plague cubes in Messina + on boats + supply = {cubes}, not {CUBES[state.players]} (R-SETUP-5)"
        if state.supply_cubes < 0:
            return "negative plague-cube supply"
    for i, s in enumerate(state.seats):
        for tok in TOKENS:
            if getattr(s, tok) < 0:
                return f"seat {i} has {getattr(s, tok)} {tok}"
        if len(s.lieutenants) != LIEUTENANTS:
            return f"seat {i} has {len(s.lieutenants)} lieutenants, not {LIEUTENANTS} (R-COMP-3)"
        for lt in s.lieutenants:
            if not _known(state, lt.place):
                return f"seat {i} has a lieutenant at an unknown place {lt.where!r}"
        squares = {q.id for q in state.catalog.boards[s.board].squares}
        if not s.squares.keys() <= squares or any(cab.citizen and cab.space not in (1, 2) for cab in s.cabins):
            return f"seat {i} has a citizen in an impossible place"
        off = _off_track(state, i)
        if off:
            return f"seat {i}: {off}"
    if state.opponent is not None:
        last = state.catalog.register("popularity", state.players).last
        if not 0 <= state.opponent.popularity <= last:
            return f"the opponent's popularity counter is on space {state.opponent.popularity}, past 0…{last} (Q-17)"
    seen: set[int] = set()
    for cid in _citizen_ids(state):
        if cid in seen:
            return f"citizen {cid} is in two places at once"
        seen.add(cid)
    for who, d in ((d["who"], d) for _, d in waiting(state)):
        if not any(o["available"] for o in d["options"]):
            return f"{who} must decide ({d['kind']}) but has no available option"
    if state.phase != "over" and not waiting(state):
        return f"nobody can act in phase {state.phase!r}: the game is stuck"
    if roundtrip:
        data = state.to_dict()
        again = state_from_dict(json.loads(json.dumps(data)), state._catalog).to_dict()
        if again != data:
            return "the state does not survive a JSON round-trip"
    return None


def _off_track(state: GameState, i: int) -> str | None:
    """A counter, scroll cube or overseer beyond either end of its track (Q-17, R-OVS-4)."""
    c = state.catalog
    seat = state.seats[i]
    for kind, pos in seat.registers.items():
        last = c.register(kind, state.players).last
        if not 0 <= pos <= last:
            return f"{kind} counter on space {pos}, past 0…{last} (Q-17)"
    board = c.scroll_boards[seat.scroll_board]
    for tid, level in seat.scroll.items():
        top = board.track(tid).top
        if not 0 <= level <= top:
            return f"{tid} scroll cube on level {level}, past 0…{top} (Q-17)"
    for cls, ov in seat.overseers.items():
        if not 0 <= ov.step <= centre_step(state, i, cls):
            return f"{cls} overseer on step {ov.step}, past the centre (R-OVS-4)"
    return None


def _known(state: GameState, place: Place) -> bool:
    """A place a figure can be: off the map, or a hex or dock that is on it."""
    if place.kind == "hex":
        return place.at in state.hexes
    if place.kind == "dock":
        return place.at in state.docks
    return place.kind in PLACES


def _citizen_ids(state: GameState):
    for h in state.hexes.values():
        for c in h.citizens:
            yield c.id
    for s in state.seats:
        for _, c in s.citizens():
            yield c.id
    for lane in state.lanes.values():  # citizens in hand between two steps (rescue, leaving quarantine)
        for t in lane:
            if t["do"] == ASK:
                t = t["then"]
            if isinstance(t.get("citizen"), dict):
                yield t["citizen"]["id"]
