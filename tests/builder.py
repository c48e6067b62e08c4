"""A small scenario builder for engine tests.

Start from a real game (`game(...)`, i.e. `new_game(options_for(n, ...), seed)` on the shipped catalog)
and then set the pieces of state a test is about directly: tokens, citizens on squares, in cabins and
workshops, cubes on hexes, repopulated hexes, register positions, the round, docks and the docking
pile. `to_upkeep` ends the round's turns and runs the upkeep; `answer_all` answers every pending
decision with a chooser until only a seat's turn (or nothing) is left.

Everything here only *sets* state the way the table could have left it; the rules are the engine's.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from companion.catalog import load_catalog
from companion.engine import apply, legal_actions, new_game, options_for, pending, start_upkeep
from companion.engine.state import BoatAtDock, Citizen, GameState, Hex, Workshop, WagonOwned

#: the shipped catalog, never a table's override file (docs/CATALOG.md "Correcting a value")
CATALOG = load_catalog(override=Path(tempfile.gettempdir()) / "messina-tests-no-such-override.toml")

#: R-SETUP-5: plague cubes in play by player count (solo plays with 16)
CUBES_IN_PLAY = {1: 16, 2: 16, 3: 18, 4: 24}

Chooser = Callable[[list[dict], dict], dict]


# --- a game --------------------------------------------------------------------------------------

def game(players: int = 3, seed: int = 1, **options) -> GameState:
    """A new game after round I setup: `new_game(options_for(players, **options), seed)` on the
    shipped catalog. Options: advanced, priority_tile, draw."""
    return new_game(options_for(players, **options), seed, catalog=CATALOG)


def set_round(state: GameState, rnd: int) -> GameState:
    """Put the round counter on round `rnd` (1…6); nothing else changes."""
    assert 1 <= rnd <= 6
    state.round = rnd
    return state


# --- a seat's estate -----------------------------------------------------------------------------

def give(state: GameState, seat: int, **amounts: int) -> GameState:
    """Set a seat's counts outright: coins (by value), lumber, fire, major_fire, rats, vp."""
    s = state.seats[seat]
    for name, value in amounts.items():
        if not hasattr(s, name):
            raise AttributeError(f"a seat has no {name!r}")
        setattr(s, name, value)
    return state


def squares_of(state: GameState, seat: int, cls: str) -> list[str]:
    """The square ids of a seat's sector for a citizen class, in board order."""
    board = state.catalog.boards[state.seats[seat].board]
    return [q.id for q in board.sector(cls)]


def on_square(state: GameState, seat: int, square: str | None, cls: str, upgraded: bool = False) -> Citizen:
    """Put a new citizen of `cls` on a sector square (the first empty one of its sector if None)."""
    s = state.seats[seat]
    if square is None:
        square = next(q for q in squares_of(state, seat, cls) if q not in s.squares)
    c = state.new_citizen(cls)
    c.upgraded = upgraded
    s.squares[square] = c
    return c


def fill_sector(state: GameState, seat: int, cls: str) -> list[Citizen]:
    """Fill every empty square of a sector with citizens of its class."""
    s = state.seats[seat]
    return [on_square(state, seat, q, cls) for q in squares_of(state, seat, cls) if q not in s.squares]


def in_cabin(state: GameState, seat: int, index: int, cls: str | None, space: int = 1,
             improvement: str | None = None, upgraded: bool = False) -> Citizen | None:
    """Set cabin `index` of a seat: a new citizen of `cls` in quarantine space 1 or 2 (or none when
    cls is None) and optionally an improvement tile."""
    cab = state.seats[seat].cabins[index]
    if improvement is not None:
        cab.improvement = improvement
    if cls is None:
        cab.citizen, cab.space = None, 0
        return None
    assert space in (1, 2)
    c = state.new_citizen(cls)
    c.upgraded = upgraded
    cab.citizen, cab.space = c, space
    return c


def add_workshop(state: GameState, seat: int, tile: str, cls: str | None = None, upgraded: bool = False,
                 spent: bool = False) -> int:
    """Append a built workshop tile to a seat (with a new citizen of `cls` in it, if given); returns
    its index in seat.workshops."""
    ws = Workshop(tile)
    ws.spent = spent
    if cls is not None:
        ws.citizen = state.new_citizen(cls)
        ws.citizen.upgraded = upgraded
    state.seats[seat].workshops.append(ws)
    return len(state.seats[seat].workshops) - 1


def add_wagon(state: GameState, seat: int, tile: str, used: bool = False) -> None:
    """Give a seat a wagon, face down (used) or face up."""
    state.seats[seat].wagons.append(WagonOwned(tile, used))


def set_registers(state: GameState, seat: int, stamps: dict[str, int] | None = None, **positions: int) -> None:
    """Set register positions (popularity=, city=, church=) and, optionally, arrival stamps
    (`stamps={"popularity": 7, "score": 3}`; a higher stamp sits higher in the stack, R-REG-7)."""
    s = state.seats[seat]
    for kind, pos in positions.items():
        assert kind in ("popularity", "city", "church"), kind
        s.registers[kind] = pos
    for kind, stamp in (stamps or {}).items():
        s.stamps[kind] = stamp


def set_scroll(state: GameState, seat: int, board: str | None = None, **levels: int) -> None:
    """Set a seat's scroll board (a catalog id) and track levels (track id=level); a new board
    starts every track at level 0."""
    s = state.seats[seat]
    if board is not None:
        s.scroll_board = board
        s.scroll = {tr.id: 0 for tr in state.catalog.scroll_boards[board].tracks}
    s.scroll.update(levels)


# --- the city ------------------------------------------------------------------------------------

def neighbourhoods(state: GameState) -> list[str]:
    """Placed neighborhood hexes (not harbors), sorted by tile id."""
    return sorted(t for t in state.hexes if t in state.catalog.hexes)


def set_cubes(state: GameState, tile: str, n: int, from_supply: bool = True) -> None:
    """Put exactly `n` cubes on a placed hex; by default the difference comes from / goes back to
    the supply, so the cubes in play stay the same (R-SETUP-5, Q-6)."""
    h = state.hexes[tile]
    if from_supply:
        state.supply_cubes -= n - h.cubes
        assert state.supply_cubes >= 0, "not enough cubes in the supply"
    h.cubes = n


def clear_cubes(state: GameState) -> None:
    """Return every cube on every hex to the supply."""
    for tile in state.hexes:
        set_cubes(state, tile, 0)


def clear_citizens(state: GameState) -> None:
    """Return every citizen standing in the city to the supply."""
    for h in state.hexes.values():
        h.citizens = []


def repopulate(state: GameState, tile: str, seat: int | None) -> None:
    """Mark a placed hex as repopulated by a seat (Hex.repopulated_by), or clear it with None."""
    state.hexes[tile].repopulated_by = seat


def place_hex(state: GameState, tile: str, space: str) -> None:
    """Put a hex from the expansion stack at a layout space (taking it out of the stack)."""
    st = state.expansion
    if tile in st.top:
        st.top.remove(tile)
    elif tile in state.pools.get(st.pool, []):
        state.pools[st.pool].remove(tile)
        st.hidden -= 1
    state.hexes[tile] = Hex(tile=tile, space=space)


def cubes_in_play(state: GameState) -> int:
    """Cubes on hexes + cubes on boats at docks + cubes in the supply."""
    on_hexes = sum(h.cubes for h in state.hexes.values())
    on_boats = sum(1 for boats in state.docks.values() for b in boats if b.cube)
    return on_hexes + on_boats + state.supply_cubes


# --- docks, boats and the docking pile -----------------------------------------------------------

def boats_at_docks(state: GameState) -> list[str]:
    """Every boat tile lying at a dock."""
    return [b.tile for boats in state.docks.values() for b in boats]


def _take_boat_from_stack(state: GameState) -> str:
    """A boat taken out of the boat stack (the bottom group first), keeping the stack consistent."""
    for st in reversed(state.boats):
        if st.bottom:
            return st.bottom.pop()
        if st.hidden:
            tile = sorted(state.pools[st.pool])[-1]
            state.pools[st.pool].remove(tile)
            st.hidden -= 1
            return tile
        if st.top:
            return st.top.pop()
    raise AssertionError("the boat stack is empty")


def fill_dock(state: GameState, dock: str, cube: bool = False) -> None:
    """Fill every free space of a dock with boats from the bottom of the boat stack (with a cube from
    the supply each when cube=True)."""
    spaces = state.catalog.docks[dock].spaces
    while len(state.docks[dock]) < spaces:
        tile = _take_boat_from_stack(state)
        if cube:
            assert state.supply_cubes > 0
            state.supply_cubes -= 1
        state.docks[dock].append(BoatAtDock(tile, cube))


def take_boat(state: GameState, seat: int, dock: str) -> str:
    """A seat takes the first boat of a dock (as a dock turn would); its cube goes back to the
    supply (R-TURN-DOCK-4, Q-6)."""
    b = state.docks[dock].pop(0)
    if b.cube:
        state.supply_cubes += 1
    state.seats[seat].boats.append(b.tile)
    return b.tile


def empty_docking_pile(state: GameState) -> None:
    """Use up the face-down docking pile, so the next draw must reshuffle all 4 tiles (R-SETUP-7)."""
    pile = state.docking
    pile.top, pile.bottom, pile.hidden, pile.up = [], [], 0, None
    state.pools[pile.pool] = []


def next_docking(state: GameState, tile: str) -> None:
    """Make `tile` the next docking tile drawn (as if the table saw it on top of the pile)."""
    pile = state.docking
    pool = state.pools[pile.pool]
    if tile in pool:
        pool.remove(tile)
        pile.hidden -= 1
    pile.top.insert(0, tile)


def next_expansion(state: GameState, tile: str) -> None:
    """Make `tile` the next expansion hex drawn (it must still be in the expansion stack)."""
    st = state.expansion
    if tile in st.top:
        st.top.remove(tile)
    else:
        state.pools[st.pool].remove(tile)
        st.hidden -= 1
    st.top.insert(0, tile)


def dock_of(state: GameState, docking_tile: str) -> str:
    """The dock a docking tile names."""
    return state.catalog.docking_tiles[docking_tile].dock


def harbor_of(state: GameState, dock: str) -> str:
    """The harbor hex a dock belongs to."""
    return state.catalog.docks[dock].harbor


# --- upkeep and decisions ------------------------------------------------------------------------

def to_upkeep(state: GameState) -> GameState:
    """The round's turns are over: drop any pending turn work, then run the end of round
    (production, quarantine, next-round setup or final scoring) until a decision waits."""
    state.lanes.clear()
    start_upkeep(state)
    return state


def first(options: list[dict], decision: dict) -> dict:
    """Chooser: the first available option."""
    return options[0]


def last(options: list[dict], decision: dict) -> dict:
    """Chooser: the last available option."""
    return options[-1]


def open_decisions(state: GameState) -> list[dict]:
    """Pending decisions that are not a seat's turn."""
    return [d for d in pending(state) if not str(d["kind"]).startswith("turn")]


def available(state: GameState, who) -> list[dict]:
    """The available options of `who`'s current decision (each with its "action" for apply)."""
    return [o for o in legal_actions(state, who) if o["available"]]


def answer(state: GameState, who, value) -> None:
    """Answer `who`'s current decision with the option whose value is `value`."""
    for o in available(state, who):
        if o["value"] == value:
            apply(state, o["action"])
            return
    raise AssertionError(f"{value!r} is not an available option for {who!r}: "
                         f"{[o['value'] for o in legal_actions(state, who)]}")


def answer_all(state: GameState, chooser: Chooser = first, limit: int = 10_000) -> GameState:
    """Answer pending decisions with `chooser(available_options, decision)` until nothing is pending
    or only a seat's turn decision (kind starting with "turn") is left."""
    for _ in range(limit):
        todo = open_decisions(state)
        if not todo:
            return state
        d = todo[0]
        opts = available(state, d["who"])
        assert opts, f"no available option for {d}"
        apply(state, chooser(opts, d)["action"])
    raise AssertionError("answer_all: too many decisions")


def upkeep(state: GameState, chooser: Chooser = first) -> GameState:
    """`to_upkeep` followed by `answer_all`."""
    to_upkeep(state)
    return answer_all(state, chooser)


def report_rules(state: GameState) -> list[str]:
    """The rule ids cited by the latest upkeep report, in report order."""
    return [e.get("rule") for e in state.report]


def report_with(state: GameState, rule: str) -> list[dict]:
    """The upkeep report entries citing `rule`."""
    return [e for e in state.report if e.get("rule") == rule]
