"""Build a table position for a rule test, then tap through its menus the way a phone would.

A position starts from a real game (`game(...)`: `new_game(options_for(n, ...), seed)` on the shipped
catalog). `scenario(...)` moves it on to a round's play phase with nothing pending and, by default, the
city and the docks cleared. A test then sets the pieces it is about directly: tokens, citizens on squares,
in cabins and workshops and on hexes, cubes, lieutenants, repopulated hexes, register positions, docks and
the tile stacks. `turn_for` starts one seat's turn exactly as the engine's turn loop would; `to_upkeep`
ends the round's turns and runs the upkeep; `answer_all` answers every open decision with a chooser.

Everything here only *sets* state the way the table could have left it, or taps what a menu offers:
the rules are the engine's.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Callable

from companion.catalog import load_catalog
from companion.engine import (IllegalAction, apply, legal_actions, new_game, options_for,  # noqa: F401
                              pending, start_upkeep)
from companion.engine.city import adjacent_hexes, distances_from  # noqa: F401  (offered to the tests)
from companion.engine.flow import MAIN, push, run
from companion.engine.state import BoatAtDock, Citizen, GameState, Hex, Stack, Workshop, WagonOwned

#: the shipped catalog, never a table's override file (docs/CATALOG.md "Correcting a value")
CATALOG = load_catalog(override=Path(tempfile.gettempdir()) / "messina-tests-no-such-override.toml")

#: R-SETUP-5: plague cubes in play by player count (solo plays with 16)
CUBES_IN_PLAY = {1: 16, 2: 16, 3: 18, 4: 24}

Chooser = Callable[[list[dict], dict], dict]


# --- a game and a position -----------------------------------------------------------------------

def game(players: int = 3, seed: int = 1, ready: bool = True, **options) -> GameState:
    """A new game after round I setup: `new_game(options_for(players, **options), seed)` on the
    shipped catalog, and (`ready`) the host's "the table is ready" once only it holds round I (C-18).
    Options: advanced, priority_tile, draw."""
    state = new_game(options_for(players, **options), seed, catalog=CATALOG)
    return table_ready(state) if ready else state


def table_ready(state: GameState) -> GameState:
    """C-18: when only the host's "the table is ready" holds the first turn, the host taps it."""
    if [d["kind"] for d in pending(state)] == ["table_ready"]:
        apply(state, legal_actions(state, "host")[0]["action"])
    return state


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


def _new_citizen(state: GameState, cls: str, upgraded: bool = False) -> Citizen:
    c = state.new_citizen(cls)
    c.upgraded = upgraded
    return c


def squares_of(state: GameState, seat: int, cls: str) -> list[str]:
    """The square ids of a seat's sector for a citizen class, in board order."""
    board = state.catalog.boards[state.seats[seat].board]
    return [q.id for q in board.sector(cls)]


def on_square(state: GameState, seat: int, square: str | None, cls: str, upgraded: bool = False) -> Citizen:
    """Put a new citizen of `cls` on a sector square (the first empty one of its sector if None)."""
    s = state.seats[seat]
    if square is None:
        square = next(q for q in squares_of(state, seat, cls) if q not in s.squares)
    s.squares[square] = c = _new_citizen(state, cls, upgraded)
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
    cab.citizen, cab.space = _new_citizen(state, cls, upgraded), space
    return cab.citizen


def add_workshop(state: GameState, seat: int, tile: str, cls: str | None = None, upgraded: bool = False,
                 spent: bool = False) -> int:
    """Append a built workshop tile to a seat (with a new citizen of `cls` in it, if given); returns
    its index in seat.workshops."""
    ws = Workshop(tile)
    ws.spent = spent
    if cls is not None:
        ws.citizen = _new_citizen(state, cls, upgraded)
    state.seats[seat].workshops.append(ws)
    return len(state.seats[seat].workshops) - 1


def add_wagon(state: GameState, seat: int, tile: str, used: bool = False) -> None:
    """Give a seat a wagon, face down (used) or face up."""
    state.seats[seat].wagons.append(WagonOwned(tile, used))


def set_registers(state: GameState, seat: int, stamps: dict[str, int] | None = None, **positions: int) -> None:
    """Set register positions (popularity=, city=, church=) and, optionally, arrival stamps
    (`stamps={"popularity": 7, "score": 3}`; a higher stamp sits higher in the stack, R-REG-7)."""
    s = state.seats[seat]
    for kind_, pos in positions.items():
        assert kind_ in ("popularity", "city", "church"), kind_
        s.registers[kind_] = pos
    for kind_, stamp in (stamps or {}).items():
        s.stamps[kind_] = stamp


def set_scroll(state: GameState, seat: int, board: str | None = None, **levels: int) -> None:
    """Set a seat's scroll board (a catalog id) and track levels (track id=level); a new board
    starts every track at level 0."""
    s = state.seats[seat]
    if board is not None:
        s.scroll_board = board
        s.scroll = {tr.id: 0 for tr in state.catalog.scroll_boards[board].tracks}
    s.scroll.update(levels)


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


# --- the city ------------------------------------------------------------------------------------

def neighbourhoods(state: GameState) -> list[str]:
    """Placed neighborhood hexes (not harbors), sorted by tile id."""
    return sorted(t for t in state.hexes if t in state.catalog.hexes)


def cubes(state: GameState, tile: str, n: int, from_supply: bool = True) -> None:
    """Exactly `n` plague cubes on a placed hex; by default the difference comes from / goes back to
    the supply, so the cubes in play stay the same (R-SETUP-5, Q-6)."""
    h = state.hexes[tile]
    if from_supply:
        state.supply_cubes -= n - h.cubes
        assert state.supply_cubes >= 0, "not enough cubes in the supply"
    h.cubes = n


def citizens(state: GameState, tile: str, *classes: str, upgraded: bool = False) -> list[Citizen]:
    """Put new citizens of the given classes on a hex."""
    out = [_new_citizen(state, cls, upgraded) for cls in classes]
    state.hexes[tile].citizens.extend(out)
    return out


def clear_citizens(state: GameState) -> GameState:
    """Every citizen standing in the city goes back to the supply."""
    for h in state.hexes.values():
        h.citizens = []
    return state


def clear_city(state: GameState) -> GameState:
    """Every plague cube on a hex goes back to the supply and every citizen in the city leaves."""
    for tile in state.hexes:
        cubes(state, tile, 0)
    return clear_citizens(state)


def repopulate(state: GameState, tile: str, seat: int | None) -> None:
    """Mark a placed hex as repopulated by a seat (Hex.repopulated_by), or clear it with None."""
    state.hexes[tile].repopulated_by = seat


def cubes_in_play(state: GameState) -> int:
    """Cubes on hexes + cubes on boats at docks + cubes in the supply."""
    on_hexes = sum(h.cubes for h in state.hexes.values())
    on_boats = sum(1 for boats in state.docks.values() for b in boats if b.cube)
    return on_hexes + on_boats + state.supply_cubes


# --- tile stacks: the expansion hexes, the boats, the docking pile --------------------------------

def take_out(state: GameState, stack: Stack, tile: str) -> bool:
    """Take a named tile out of a stack wherever it lies (known on top or at the bottom, or unseen in
    the stack's pool), keeping the count of unseen tiles right; False if the stack does not hold it."""
    for known in (stack.top, stack.bottom):
        if tile in known:
            known.remove(tile)
            return True
    pool = state.pools.get(stack.pool, [])
    if tile in pool:
        pool.remove(tile)
        stack.hidden -= 1
        return True
    return False


def _take_expansion(state: GameState, tile: str) -> None:
    if not take_out(state, state.expansion, tile):
        raise AssertionError(f"{tile} is not in the expansion stack")


def place_hex(state: GameState, tile: str, space: str) -> None:
    """Put a hex from the expansion stack at a layout space (taking it out of the stack)."""
    _take_expansion(state, tile)
    state.hexes[tile] = Hex(tile=tile, space=space)


def next_expansion(state: GameState, tile: str) -> None:
    """Make `tile` the next expansion hex drawn (it must still be in the expansion stack)."""
    _take_expansion(state, tile)
    state.expansion.top.insert(0, tile)


def next_docking(state: GameState, tile: str) -> None:
    """Make `tile` the next docking tile drawn (as if the table saw it on top of the pile)."""
    take_out(state, state.docking, tile)
    state.docking.top.insert(0, tile)


def empty_docking_pile(state: GameState) -> None:
    """Use up the face-down docking pile, so the next draw must reshuffle all 4 tiles (R-SETUP-7)."""
    pile = state.docking
    pile.top, pile.bottom, pile.hidden, pile.up = [], [], 0, None
    state.pools[pile.pool] = []


def clear_docks(state: GameState) -> GameState:
    """Boats at the docks leave (their cubes back to the supply)."""
    for dock, boats in state.docks.items():
        state.supply_cubes += sum(1 for b in boats if b.cube)
        state.docks[dock] = []
    return state


def dock_boat(state: GameState, dock: str, boat: str, cube: bool = True) -> None:
    """A boat tile (not owned by anyone, not at another dock) lies at `dock`, taken out of the boat
    stack, with a cube from the supply when `cube`."""
    for st in state.boats:
        take_out(state, st, boat)
    if cube:
        assert state.supply_cubes > 0
        state.supply_cubes -= 1
    state.docks[dock].append(BoatAtDock(boat, cube))


def _bottom_boat(state: GameState) -> str:
    """The boat at the very bottom of the boat stack (the last group's bottom first)."""
    for st in reversed(state.boats):
        if st.bottom:
            return st.bottom[-1]
        if st.hidden:
            return sorted(state.pools[st.pool])[-1]
        if st.top:
            return st.top[-1]
    raise AssertionError("the boat stack is empty")


def fill_dock(state: GameState, dock: str, cube: bool = False) -> None:
    """Fill every free space of a dock with boats from the bottom of the boat stack (with a cube from
    the supply each when cube=True)."""
    while len(state.docks[dock]) < state.catalog.docks[dock].spaces:
        dock_boat(state, dock, _bottom_boat(state), cube)


def take_boat(state: GameState, seat: int, dock: str) -> str:
    """A seat takes the first boat of a dock (as a dock turn would); its cube goes back to the
    supply (R-TURN-DOCK-4, Q-6)."""
    b = state.docks[dock].pop(0)
    if b.cube:
        state.supply_cubes += 1
    state.seats[seat].boats.append(b.tile)
    return b.tile


def boats_at_docks(state: GameState) -> list[str]:
    """Every boat tile lying at a dock."""
    return [b.tile for boats in state.docks.values() for b in boats]


def free_boats(state: GameState) -> list[str]:
    """Boat tiles still in the boat stack (not at a dock, not owned)."""
    placed = set(boats_at_docks(state))
    owned = {b for s in state.seats for b in s.boats}
    return [b for b in sorted(state.catalog.boats) if b not in placed and b not in owned
            and any(b in st.top or b in st.bottom or b in state.pools.get(st.pool, []) for st in state.boats)]


# --- geometry ------------------------------------------------------------------------------------

def ring(state: GameState, where: str, d: int, neighbourhoods: bool = True) -> list[str]:
    """Hex tiles exactly `d` steps from a hex or dock (Q-11), neighbourhoods only by default."""
    dist = distances_from(state, place_of(state, where))
    out = sorted(p[4:] for p, k in dist.items() if k == d and p.startswith("hex:"))
    if neighbourhoods:
        out = [t for t in out if t in state.catalog.hexes]
    return out


def dock_of(state: GameState, docking_tile: str) -> str:
    """The dock a docking tile names."""
    return state.catalog.docking_tiles[docking_tile].dock


def harbor_of(state: GameState, dock: str) -> str:
    """The harbor hex a dock belongs to."""
    return state.catalog.docks[dock].harbor


def dock_of_harbor(state: GameState, harbor: str) -> str:
    """The dock that belongs to a harbor hex."""
    return next(d.id for d in state.catalog.docks.values() if d.harbor == harbor)


# --- turns -----------------------------------------------------------------------------------------

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


# --- menus: what a phone shows and taps ------------------------------------------------------------

def menu(state: GameState, who: Any) -> list[dict]:
    """`who`'s whole menu, greyed options included."""
    return legal_actions(state, who)


def available(state: GameState, who: Any) -> list[dict]:
    """The available options of `who`'s current decision (each with its "action" for apply)."""
    return [o for o in legal_actions(state, who) if o["available"]]


def values(state: GameState, who: Any, available_only: bool = True) -> list:
    """The values of `who`'s options (the available ones only, by default)."""
    return [o["value"] for o in legal_actions(state, who) if o["available"] or not available_only]


def kind(state: GameState) -> str | None:
    """The kind of the first open decision ("turn", "fight", "action_step", …), or None."""
    p = pending(state)
    return p[0]["kind"] if p else None


def whose(state: GameState) -> Any:
    """Who answers the first open decision (a seat or "host"), or None."""
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
    raise AssertionError(f"no option {match!r} for {who!r} in {[o['value'] for o in menu_]}")


def has(state: GameState, who: Any, match: Any) -> bool:
    """Whether `who`'s menu holds an option matching `match`, available or not."""
    return any(_matches(o["value"], match) for o in legal_actions(state, who))


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
    """Choose a hex to move to on the turn menu."""
    return pick(state, seat, {"go": "hex", "tile": tile})


def rescuing(state: GameState, seat: int, tile: str, cls: str, filled: str) -> GameState:
    """The seat has gone to `tile`, where one citizen of `cls` waits, with the square `filled` of that
    class's sector taken already: it must choose an empty square for the citizen (R-TURN-RESCUE-2)."""
    on_square(state, seat, filled, cls)
    citizens(state, tile, cls)
    turn_for(state, seat)
    go_hex(state, seat, tile)
    assert kind(state) == "rescue"
    return state


def go_dock(state: GameState, seat: int, boat: str) -> dict:
    """Choose a boat at a dock on the turn menu."""
    return pick(state, seat, {"go": "dock", "boat": boat})


def end(state: GameState, seat: int) -> dict:
    """End the action step."""
    return pick(state, seat, {"act": "end"})


# --- the upkeep and open decisions -----------------------------------------------------------------

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


def only_the_table_is_asked(state: GameState) -> bool:
    """Nobody chooses anything between the rounds: only the host's "the table is ready" holds the next
    round's first turn (C-18)."""
    return [d["kind"] for d in open_decisions(state)] == ["table_ready"]


def answer_all(state: GameState, chooser: Chooser = first, limit: int = 10_000) -> GameState:
    """Answer pending decisions with `chooser(available_options, decision)` until nothing is pending
    or only a seat's turn decision (kind starting with "turn") is left."""
    for _ in range(limit):
        waiting = open_decisions(state)
        if not waiting:
            return state
        d = waiting[0]
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


def log_rules(state: GameState, since: int = 0) -> list[str]:
    """The rule ids cited by the game log (from entry `since` on), in log order."""
    return [e.get("rule") for e in state.log[since:]]


# --- positions several rooms start from ---------------------------------------------------------------

FIELD = {"coin": "coins", "lumber": "lumber", "fire": "fire", "major-fire": "major_fire", "vp": "vp"}


def plain(reward) -> bool:
    """A reward that is one bundle of tokens and VP only (no choice, no decision)."""
    return reward is not None and not reward.is_choice and not reward.is_nothing and \
        all(i.icon in FIELD for i in reward.options[0].items)


def early_workshop(cat, **want):
    for w in sorted(cat.workshops.values(), key=lambda w: w.id):
        if w.era != 1:
            continue
        if "needs_upgraded" in want and w.needs_upgraded != want["needs_upgraded"]:
            continue
        if want.get("two_level") and not (w.upgraded_output and plain(w.upgraded_output)
                                          and w.upgraded_output != w.output):
            continue
        if want.get("output") and w.output.phrase != want["output"]:
            continue
        if not want.get("output") and not plain(w.output):
            continue
        return w
    raise AssertionError(f"the catalog has no early workshop {want}")


def bare(players: int = 3, seed: int = 1, **opts):
    """A game after round I setup with an empty city: no citizens, no cubes on hexes."""
    return clear_city(game(players, seed, **opts))
