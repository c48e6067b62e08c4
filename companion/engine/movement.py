"""Where a lieutenant may go this turn, and what it costs (R-TURN-MOVE-1…6, R-TURN-DOCK-1…2, Q-11)."""

from __future__ import annotations

from .city import distances_from
from .state import GameState


def available(state: GameState, seat: int) -> list[int]:
    """R-TURN-MOVE-1: unused lieutenants lying in Messina must act before any on the estate."""
    lts = state.seats[seat].lieutenants
    lying = [i for i, lt in enumerate(lts) if not lt.used and lt.where.split(":")[0] in ("hex", "dock")]
    if lying:
        return lying
    return [i for i, lt in enumerate(lts) if not lt.used and lt.where == "estate"]


def standing_on(state: GameState) -> dict[str, int]:
    """Hexes holding a standing figure (used this round), with its seat: they cannot be chosen."""
    out = {}
    for i, s in enumerate(state.seats):
        for lt in s.lieutenants:
            if lt.used and lt.where.startswith("hex:"):
                out[lt.where[4:]] = i
    if state.opponent:
        for tile in state.opponent.placed:
            out[tile] = -1  # the solo opponent's standing lieutenants (R-SOLO-5)
    return out


def cost(state: GameState, seat: int, lieutenant: int, place: str, cache: dict | None = None) -> int | None:
    """Coins for a lieutenant to reach a place ("hex:<tile>" / "dock:<id>"): free from the estate,
    max(0, d − 1) from where it lies; None when no path exists."""
    lt = state.seats[seat].lieutenants[lieutenant]
    if lt.where == "estate":
        return 0
    if cache is not None and lt.where in cache:
        dist = cache[lt.where]
    else:
        dist = distances_from(state, lt.where)
        if cache is not None:
            cache[lt.where] = dist
    d = dist.get(place)
    return None if d is None else max(0, d - 1)


def routes(state: GameState, seat: int) -> dict[str, list[tuple[int, int]]]:
    """For every place, the seat's available lieutenants that can reach it with their costs."""
    cache: dict = {}
    places = [f"hex:{t}" for t in state.hexes] + [f"dock:{d}" for d, boats in state.docks.items() if boats]
    out: dict[str, list[tuple[int, int]]] = {}
    for i in available(state, seat):
        for place in places:
            c = cost(state, seat, i, place, cache)
            if c is not None:
                out.setdefault(place, []).append((i, c))
    return out
