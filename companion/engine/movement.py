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


def costs_to(state: GameState, seat: int, place: str) -> list[tuple[int, int]]:
    """The seat's available lieutenants that can reach a place ("hex:<tile>" / "dock:<id>"), with their
    costs in coins: free from the estate, max(0, d − 1) from where a lieutenant lies (Q-11); one with no
    path there is left out."""
    out = []
    lts = state.seats[seat].lieutenants
    for i in available(state, seat):
        where = lts[i].where
        if where == "estate":
            out.append((i, 0))
            continue
        d = distances_from(state, where).get(place)
        if d is not None:
            out.append((i, max(0, d - 1)))
    return out


def cheapest(state: GameState, seat: int) -> dict[str, int]:
    """For every hex and every dock with a boat that a lieutenant of the seat can reach now, the
    cheapest cost, reckoned as `costs_to` does (a turn menu prices every place of the city)."""
    places = [f"hex:{t}" for t in state.hexes] + [f"dock:{d}" for d, boats in state.docks.items() if boats]
    lts = state.seats[seat].lieutenants
    best: dict[str, int] = {}
    for i in available(state, seat):
        where = lts[i].where
        if where == "estate":  # R-TURN-MOVE-1: the estate's lieutenants act only when none lies in Messina
            return dict.fromkeys(places, 0)
        dist = distances_from(state, where)
        for place in places:
            d = dist.get(place)
            if d is not None:
                cost = d - 1 if d > 1 else 0
                if cost < best.get(place, cost + 1):
                    best[place] = cost
    return best
