"""Small helpers for rule-scenario tests: build a table position directly, start a seat's turn, and tap
through the menus the way a phone would.

A scenario is a real game (`builder.game`, the shipped catalog) moved to a round and phase, with the
city cleared, then the pieces the test is about set by hand; `turn_for` then starts one seat's turn
exactly as the engine's turn loop would (`{"do": "turn", "seat": S}` on the main lane). Nothing here
decides a rule: the engine's menus do.
"""

from __future__ import annotations

from typing import Any

try:
    from builder import CATALOG, game, give, on_square, set_cubes  # noqa: F401  (re-exported)
except ImportError:  # tests/ imported as a package
    from tests.builder import CATALOG, game, give, on_square, set_cubes  # noqa: F401

from companion.engine import IllegalAction, apply, legal_actions, pending  # noqa: F401
from companion.engine.city import adjacent_hexes, distances_from  # noqa: F401
from companion.engine.flow import MAIN, push, run
from companion.engine.state import GameState

# --- a position ----------------------------------------------------------------------------------


def scenario(players: int = 3, seed: int = 1, rnd: int = 2, clear: bool = True, docks: bool = True,
             **options) -> GameState:
    """A game after setup, moved to round `rnd` in the play phase with nothing pending. By default the
    city is cleared (`clear_city`) and so are the docks (`clear_docks`). Every seat keeps its 3
    starting lieutenants on the estate, unused."""
    s = game(players, seed, **options)
    s.round, s.phase = rnd, "play"
    s.lanes, s.active, s.rights = {}, None, []
    if clear:
        clear_city(s)
    if docks:
        clear_docks(s)
    return s


def clone(state: GameState) -> GameState:
    """An independent copy of a position."""
    return state.clone()


def clear_city(state: GameState) -> GameState:
    """Every plague cube on a hex goes back to the supply and every citizen in the city leaves."""
    for h in state.hexes.values():
        state.supply_cubes += h.cubes
        h.cubes, h.citizens = 0, []
    return state


def clear_docks(state: GameState) -> GameState:
    """Boats at the docks leave (their cubes back to the supply)."""
    for dock, boats in state.docks.items():
        state.supply_cubes += sum(1 for b in boats if b.cube)
        state.docks[dock] = []
    return state


def dock_boat(state: GameState, dock: str, boat: str, cube: bool = True) -> None:
    """A boat tile (not owned by anyone, not at another dock) lies at `dock`, with a cube from the
    supply when `cube`."""
    from companion.engine.state import BoatAtDock

    for st in state.boats:
        if boat in st.top:
            st.top.remove(boat)
        elif boat in st.bottom:
            st.bottom.remove(boat)
        elif boat in state.pools.get(st.pool, []):
            state.pools[st.pool].remove(boat)
            st.hidden -= 1
    if cube:
        assert state.supply_cubes > 0
        state.supply_cubes -= 1
    state.docks[dock].append(BoatAtDock(boat, cube))


def cubes(state: GameState, tile: str, n: int) -> None:
    """Exactly `n` plague cubes on a hex, taken from / returned to the supply."""
    set_cubes(state, tile, n)


def citizens(state: GameState, tile: str, *classes: str, upgraded: bool = False) -> list:
    """Put new citizens of the given classes on a hex."""
    out = []
    for cls in classes:
        c = state.new_citizen(cls)
        c.upgraded = upgraded
        state.hexes[tile].citizens.append(c)
        out.append(c)
    return out


# --- lieutenants ---------------------------------------------------------------------------------

def place_of(state: GameState, where: str) -> str:
    """'n04' -> 'hex:n04', 'dock-nw' -> 'dock:dock-nw'; anything else unchanged."""
    if where in state.hexes:
        return f"hex:{where}"
    if where in state.docks:
        return f"dock:{where}"
    return where


def put(state: GameState, seat: int, where: str, used: bool = False, index: int | None = None) -> int:
    """Move one of a seat's lieutenants (by default the first still unused on the estate) to `where`
    (a hex tile, a dock id, "estate", "supply" or "box"); returns its index."""
    lts = state.seats[seat].lieutenants
    if index is None:
        index = next(i for i, lt in enumerate(lts) if lt.where == "estate" and not lt.used)
    lts[index].where, lts[index].used = place_of(state, where), used
    return index


def lie(state: GameState, seat: int, where: str, index: int | None = None) -> int:
    """A lying (unused) lieutenant of `seat` at a hex or dock."""
    return put(state, seat, where, False, index)


def stand(state: GameState, seat: int, where: str, index: int | None = None) -> int:
    """A standing (used this round) lieutenant of `seat` at a hex or dock."""
    return put(state, seat, where, True, index)


def use_up(state: GameState, seat: int) -> None:
    """Every lieutenant the seat still has available this round is used (stood beside the board)."""
    for lt in state.seats[seat].lieutenants:
        if lt.where not in ("supply", "box") and not lt.used:
            lt.used = True


def only(state: GameState, seat: int, n: int) -> None:
    """Leave the seat exactly `n` unused lieutenants on its estate (the others used beside the board)."""
    k = 0
    for lt in state.seats[seat].lieutenants:
        if lt.where == "estate":
            lt.used = k >= n
            k += 1


# --- turns and menus -----------------------------------------------------------------------------

def turn_for(state: GameState, seat: int) -> GameState:
    """Start `seat`'s turn now (as the turn loop would after the previous seat) and run to its menu."""
    if seat in state.order:
        state.turn = state.order.index(seat)
    state.active, state.rights = None, []
    state.lanes = {MAIN: [{"do": "turn", "seat": seat}]}
    run(state)
    return state


def grant(state: GameState, seat: int, phrase: str, why: str = "test") -> GameState:
    """Hand a seat a reward phrase outside any turn (as a square or a register space would) and run
    to its first question."""
    push(state, MAIN, {"do": "gain", "seat": seat, "reward": phrase, "why": why})
    run(state)
    return state


def produce(state: GameState, seat: int) -> GameState:
    """Run one seat's production (R-EOR-2…3) alone, in its own lane, as the upkeep does."""
    state.phase = "upkeep"
    push(state, str(seat), {"do": "produce", "seat": seat})
    run(state)
    return state


def menu(state: GameState, who: Any) -> list[dict]:
    return legal_actions(state, who)


def kind(state: GameState) -> str | None:
    """The kind of the first open decision ("turn", "fight", "action_step", …), or None."""
    p = pending(state)
    return p[0]["kind"] if p else None


def whose(state: GameState) -> Any:
    p = pending(state)
    return p[0]["who"] if p else None


def _matches(value: Any, match: Any) -> bool:
    if isinstance(match, dict):
        return isinstance(value, dict) and all(k in value and value[k] == m for k, m in match.items())
    return value == match


def find(state: GameState, who: Any, match: Any) -> dict:
    """The option of `who`'s menu whose value matches `match` (a dict subset or a value), available
    or not."""
    menu_ = legal_actions(state, who)
    for opt in menu_:
        if _matches(opt["value"], match):
            return opt
    raise AssertionError(f"no option {match!r} in {[o['value'] for o in menu_]}")


def has(state: GameState, who: Any, match: Any) -> bool:
    return any(_matches(o["value"], match) for o in legal_actions(state, who))


def values(state: GameState, who: Any, available_only: bool = True) -> list:
    return [o["value"] for o in legal_actions(state, who) if o["available"] or not available_only]


def pick(state: GameState, who: Any, match: Any) -> dict:
    """Tap the available option whose value matches `match`; fail if it is missing or greyed."""
    opt = find(state, who, match)
    assert opt["available"], opt
    apply(state, opt["action"])
    return opt


def hex_menu(state: GameState, seat: int) -> dict[str, dict]:
    """The seat's turn menu, hex options by tile."""
    return {o["value"]["tile"]: o for o in legal_actions(state, seat)
            if isinstance(o["value"], dict) and o["value"].get("go") == "hex"}


def dock_menu(state: GameState, seat: int) -> dict[str, dict]:
    """The seat's turn menu, boat options by boat tile."""
    return {o["value"]["boat"]: o for o in legal_actions(state, seat)
            if isinstance(o["value"], dict) and o["value"].get("go") == "dock"}


def go_hex(state: GameState, seat: int, tile: str) -> dict:
    return pick(state, seat, {"go": "hex", "tile": tile})


def go_dock(state: GameState, seat: int, boat: str) -> dict:
    return pick(state, seat, {"go": "dock", "boat": boat})


def end(state: GameState, seat: int) -> dict:
    """End the action step."""
    return pick(state, seat, {"act": "end"})


# --- geometry ------------------------------------------------------------------------------------

def ring(state: GameState, where: str, d: int, neighbourhoods: bool = True) -> list[str]:
    """Hex tiles exactly `d` steps from a hex or dock (Q-11), neighbourhoods only by default."""
    dist = distances_from(state, place_of(state, where))
    out = sorted(p[4:] for p, k in dist.items() if k == d and p.startswith("hex:"))
    if neighbourhoods:
        out = [t for t in out if t in state.catalog.hexes]
    return out


def harbor_of_dock(state: GameState, dock: str) -> str:
    return state.catalog.docks[dock].harbor


def dock_of_harbor(state: GameState, harbor: str) -> str:
    return next(d.id for d in state.catalog.docks.values() if d.harbor == harbor)


def free_boats(state: GameState) -> list[str]:
    """Boat tiles still in the boat stack (not at a dock, not owned)."""
    placed = {b.tile for boats in state.docks.values() for b in boats}
    owned = {b for s in state.seats for b in s.boats}
    return [b for b in sorted(state.catalog.boats) if b not in placed and b not in owned
            and any(b in st.top or b in st.bottom or b in state.pools.get(st.pool, []) for st in state.boats)]


def log_rules(state: GameState, since: int = 0) -> list[str]:
    return [e.get("rule") for e in state.log[since:]]
