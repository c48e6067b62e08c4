"""A new game: the table's setup (R-SETUP-1…20) and round I setup (R-R1-1…3), told step by step.

Every shuffle whose result the table can see is a reveal (draws.py), so in table-draw mode the host
enters what really came up and the companion follows the physical game.
"""

from __future__ import annotations

from ..words import Text, joined
from . import tasks as do
from .city import layout, start_spaces
from .describe import hex_text, scroll_board_text, tile_text
from .draws import app_draws, randbelow, reveal, seed_state, shuffled
from .events import NOTE, instruct, tile_name, who
from .flow import MAIN, IllegalAction, push, run, task
from .rulebook import ESTATE_LIEUTENANTS, LIEUTENANTS, SOLO_LIEUTENANTS, START_COINS, START_VP
from .solo import first_mover, order_names
from .state import (
    CLASSES,
    COLOURS,
    UPKEEP_RULES,
    Cabin,
    GameState,
    Hex,
    Lieutenant,
    Opponent,
    Options,
    Overseer,
    Place,
    PlayerOption,
    Seat,
)


def options_for(players: int, advanced: bool = False, priority_tile: bool = False, draw: str = "app",
                names: list[str] | None = None) -> Options:
    """Default names and colours for a quick game (CLI, tests, simulations)."""
    names = names or ["Ada", "Bruno", "Chiara", "Dario"][:players]
    return Options([PlayerOption(n, c) for n, c in zip(names, COLOURS, strict=False)], advanced, priority_tile, draw)


def check_options(options: Options) -> None:
    if not 1 <= options.count <= 4:
        raise IllegalAction("a game has 1 to 4 players", "R-SETUP-20")
    colours = [p.colour for p in options.players]
    if len(set(colours)) != len(colours) or not set(colours) <= set(COLOURS):
        raise IllegalAction(f"each player needs a different colour from {', '.join(COLOURS)}", "R-SETUP-14")
    if any(not p.name.strip() or len(p.name) > 40 for p in options.players):
        raise IllegalAction("each player needs a name of 1 to 40 characters")
    if options.draw not in ("app", "table"):
        raise IllegalAction("draw mode is 'app' or 'table'")


def new_game(options: Options, seed: int, catalog, twin=None) -> GameState:
    """The state after setup and round I setup (or at the first reveal the host must enter), played with
    `catalog` (the caller loads it: the engine reads no files). `twin`: a recorder of the steps as they are
    told (engine/twin/told.py), kept on the state only while setting up."""
    check_options(options)
    n = options.count
    state = GameState(options=options, seed=seed, rng=seed_state(seed), players=n, hold_upkeep=True,
                      upkeep_rules=UPKEEP_RULES, hold_setup=True,
                      hold_opponent=True)
    state._catalog, state._twin = catalog, twin
    push(state, MAIN, {"do": do.SETUP_PLAYERS}, {"do": do.SETUP_CITY}, {"do": do.SETUP_STACKS},
         {"do": do.REVEAL_FACE_UP, "what": "improvement", "index": 0},
         {"do": do.REVEAL_FACE_UP, "what": "improvement", "index": 1},
         {"do": do.REVEAL_FACE_UP, "what": "improvement", "index": 2},
         *({"do": do.REVEAL_FACE_UP, "what": "workshop", "index": cls} for cls in CLASSES),
         *({"do": do.REVEAL_WAGON, "index": i} for i in range(1 if n <= 2 else 2)),
         {"do": do.SETUP_WHEEL}, {"do": do.SETUP_ORDER},
         {"do": do.BOAT_ARRIVES, "rule": "R-R1-1"}, {"do": do.WHEEL_STEP, "cubes": True},
         {"do": do.CITIZENS_STEP}, *([{"do": do.SOLO_DECK}] if n == 1 else []), {"do": do.BEGIN_ROUND})
    run(state)
    state._twin = None
    return state


@task(do.SETUP_PLAYERS)
def _players(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-14: each seat takes the pieces of its colour. The advanced game first draws colours and b
    boards (R-ADV-1), so until then every seat holds side a, and the table takes its pieces once it knows
    its colour (SETUP_FIGURES says so: `pieces`)."""
    opts = state.options
    for p in opts.players:
        state.seats.append(_seat(state, p.name, p.colour, "a", "a"))
    if opts.advanced:
        push(state, lane, {"do": do.DRAW_BOARDS}, {"do": do.SETUP_FIGURES, "pieces": True})
        return
    _pieces(state)
    push(state, lane, {"do": do.SETUP_FIGURES})


def _pieces(state: GameState) -> None:
    """R-SETUP-14 as the table does it; in the advanced game the boards were handed out just before."""
    if state.options.advanced:
        text = Text("Each player takes the other pieces of their colour: 5 lieutenants, 5 counters, 3 overseers, "
                    "3 scroll cubes and 5 repopulation tiles.")
    else:
        text = Text("Each player takes the pieces of their colour: player board side {side}, scroll board, "
                    "5 lieutenants, 5 counters, 3 overseers, 3 scroll cubes and 5 repopulation tiles.", side="a")
    instruct(state, text, "R-SETUP-14")


def _seat(state: GameState, name: str, colour: str, board_id: str, scroll_id: str) -> Seat:
    """A seat as it starts (R-SETUP-14…16): 3 lieutenants on the estate and 2 in the supply, overseers
    on their start spaces, scroll cubes at the bottom, counters on space I of each register."""
    board = state.catalog.boards[board_id]
    scroll = state.catalog.scroll_boards[scroll_id]
    return Seat(name=name, colour=colour, board=board.id, scroll_board=scroll.id,
                lieutenants=[Lieutenant("estate" if i < ESTATE_LIEUTENANTS else "supply") for i in range(LIEUTENANTS)],
                cabins=[Cabin() for _ in range(board.cabins)],
                overseers={cls: Overseer() for cls in CLASSES},
                scroll={tr.id: 0 for tr in scroll.tracks},
                registers={"popularity": 0, "city": 0, "church": 0})


@task(do.DRAW_BOARDS)
def _draw_boards(state: GameState, t: dict, lane: str) -> None:
    """R-ADV-1 / C-7: colours at random, each with the b player board of that colour, and a random b
    scroll board each: drawn by the companion, or in table-draw mode by the table, the host entering
    each player's colour and scroll board in turn (C-1)."""
    c = state.catalog
    n = state.players
    b_scrolls = sorted(x for x in c.scroll_boards if c.scroll_boards[x].side == "b")
    if app_draws(state):
        colours = shuffled(state, COLOURS)[:n]
        scrolls = shuffled(state, b_scrolls)[:n]
    else:
        colours, scrolls = list(t.get("colours", [])), list(t.get("scrolls", []))
        if not colours and "pick" not in t:  # the table draws first, then the host enters what it drew
            instruct(state, Text("Draw a colour at random for each player, and deal each a random scroll board: "
                                 "every board b side up. The host enters who drew what."), "R-ADV-1")
        while len(scrolls) < n:
            name = state.seats[len(scrolls)].name
            if len(colours) == len(scrolls):
                pick = reveal(state, lane, t, Text("Which colour did {name} draw?", name=name),
                              [x for x in COLOURS if x not in colours], rule="R-ADV-1")
                if pick is None:
                    return
                colours.append(pick)
            else:
                pick = reveal(state, lane, t, Text("Which b scroll board did {name} draw?", name=name),
                              [x for x in b_scrolls if x not in scrolls], rule="R-ADV-1",
                              label=lambda x: scroll_board_text(state, x))
                if pick is None:
                    return
                scrolls.append(pick)
            t = {"do": do.DRAW_BOARDS, "colours": list(colours), "scrolls": list(scrolls)}
    for i, seat in enumerate(state.seats):
        state.seats[i] = _seat(state, seat.name, colours[i], f"b-{colours[i]}", scrolls[i])
    for i, s in enumerate(state.seats):
        board = Text("{colour} player board", colour=s.colour, face=f"board:{s.board}")
        instruct(state, Text("{name} plays {colour}: take the {board} and the {scroll}, both b side up.",
                             name=s.name, colour=s.colour, board=board, scroll=scroll_board_text(state,
                                                                                                 s.scroll_board)),
                 "R-ADV-1", (f"seat:{i}",), seat=i)


@task(do.SETUP_FIGURES)
def _figures(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-15…16 as the table does it (after R-SETUP-14's pieces once the advanced game has drawn its
    colours); b boards need covers for their single-use squares (R-ADV-2); solo: the opponent (R-SOLO-2, -3)."""
    if t.get("pieces"):
        _pieces(state)
    instruct(state, Text("Put 3 lieutenants beside your board and 2 in the general supply; scroll cubes at the "
                         "bottom of the 3 tracks; overseers on their start spaces."), "R-SETUP-15")
    if state.options.advanced:
        instruct(state, Text("Keep a few spare tokens within reach: once a single-use square (the corner symbol) is "
                             "used, cover it with one.") if state.players == 1 else
                 Text("Keep the solo tiles within reach: once a single-use square (the corner symbol) is used, cover "
                      "it with one."), "R-SOLO-2" if state.players == 1 else "R-ADV-2")
    if state.players == 1:
        _opponent(state)


def _opponent(state: GameState) -> None:
    """R-SOLO-2 / C-11: the opponent takes a free colour and has counters on the play-order indicator and the
    popularity register only; R-SOLO-3: its lieutenants, 3 to 5 by round."""
    free = [col for col in COLOURS if col != state.seats[0].colour]
    state.opponent = Opponent(colour=free[0])
    instruct(state, Text("The virtual opponent plays {colour}: take its lieutenants and 2 of its counters, one for the "
                         "play-order indicator and one for the popularity register (it has none on the city and "
                         "church registers or the scoring track).", colour=free[0]), "R-SOLO-2", ("opponent",))
    first, rest = SOLO_LIEUTENANTS[0], LIEUTENANTS - SOLO_LIEUTENANTS[0]
    instruct(state, Text("The opponent uses {a} lieutenants in rounds I–III, {b} in rounds IV–V and {c} in round VI: "
                         "put {a} on its board for round I and set the other {rest} aside.", a=first,
                         b=SOLO_LIEUTENANTS[3], c=SOLO_LIEUTENANTS[5], rest=rest), "R-SOLO-3")


@task(do.SETUP_CITY)
def _city(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-1…3: keep the A hexes of this count, add 1 random B, deal into the layout."""
    c = state.catalog
    kept = sorted(h.id for h in c.hexes.values() if h.cls == "A" and h.in_count(state.players))
    dropped = sorted(h.id for h in c.hexes.values() if h.cls == "A" and h.id not in kept)
    if "spaces" not in t:
        if dropped:
            instruct(state, Text("Return these A hexes to the box (not for this player count): {hexes}.",
                                 hexes=joined([tile_name(state, h) for h in dropped])), "R-SETUP-1")
        for h in layout(state).harbors:
            state.hexes[h] = Hex(tile=h, space=h)
        corners = joined(tile_name(state, h) for h in layout(state).harbors)
        instruct(state, Text("Place the harbor hexes at the four corners: {corners}.", corners=corners), "R-SETUP-2",
                 places=[str(Place.hex(h)) for h in layout(state).harbors])
        spaces = start_spaces(state)
        if app_draws(state):
            bs = sorted(h.id for h in c.hexes.values() if h.cls == "B")
            deal = shuffled(state, kept + [bs[randbelow(state, len(bs))]])
            for space, tile in zip(spaces, deal, strict=False):
                state.hexes[tile] = Hex(tile=tile, space=space)
            _dealt(state)
            return
        instruct(state, Text("Shuffle the kept A hexes with 1 random B hex face down, then deal them face up, one onto "
                             "each empty start space the map shows. The host enters each hex dealt."), "R-SETUP-2")
        t = {**t, "spaces": spaces}
    # table draws: the host enters the hex dealt to each space, one at a time
    spaces = t["spaces"]
    placed = {h.tile for h in state.hexes.values()}
    b_placed = any(c.hexes[p].cls == "B" for p in placed if p in c.hexes)
    remaining_a = [h for h in kept if h not in placed]
    bs = [] if b_placed else sorted(h.id for h in c.hexes.values() if h.cls == "B")
    cands = remaining_a + bs if len(spaces) > len(remaining_a) or not bs else bs
    if len(spaces) == 1 and not b_placed:
        cands = bs
    t = {**t, "places": [str(Place.space(spaces[0]))]}  # the host's map marks the space asked about
    tile = reveal(state, lane, t, Text("Which hex is on the marked space?"), cands, lambda x: hex_text(state, x),
                  "R-SETUP-2", place=f"space:{spaces[0]}")
    if tile is None:
        return
    state.hexes[tile] = Hex(tile=tile, space=spaces[0])
    instruct(state, Text("The {hex} lies on the marked start space.", hex=tile_name(state, tile)), "R-SETUP-2", (NOTE,),
             tile=tile, places=[str(Place.hex(tile))])
    if len(spaces) > 1:
        push(state, lane, {"do": do.SETUP_CITY, "spaces": spaces[1:]})


def _dealt(state: GameState) -> None:
    """The companion's deal (R-SETUP-2), a step per hex: the table finds each hex by its face and puts it on
    its marked start space (the companion chose the B hex and the order: nothing to shuffle)."""
    c = state.catalog
    for space, tile in sorted((h.space, tile) for tile, h in state.hexes.items() if h.space.startswith("s")):
        name = tile_name(state, tile)
        text = (Text("Find the {hex}, the B hex, and put it face up on the marked start space.", hex=name)
                if c.hexes[tile].cls == "B" else
                Text("Find the {hex} and put it face up on the marked start space.", hex=name))
        instruct(state, text, "R-SETUP-2", tile=tile, space=space, places=[str(Place.hex(tile))])


@task(do.SETUP_WHEEL)
def _wheel(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-6: the wheel starts at any window (every window shows a rat and three colours): the one the
    companion chose, or the one the table set, which the host enters."""
    wheel = state.catalog.wheel
    ids = [w.id for w in wheel]
    if not app_draws(state) and "pick" not in t:
        instruct(state, Text("Put the population wheel within reach, turned to any window (each shows one rat and "
                             "three colours). The host enters which one shows."), "R-SETUP-6")
    pick = reveal(state, lane, t, Text("Which window of the population wheel is showing?"), ids, rule="R-SETUP-6")
    if pick is None:
        return
    state.wheel = ids.index(pick)
    if not app_draws(state):
        instruct(state, Text("The wheel shows the {window}.", window=tile_text(state, pick)), "R-SETUP-6",
                 (NOTE, "wheel"), window=pick)
    else:
        instruct(state, Text("Put the population wheel within reach, turned to the {window}.",
                             window=tile_text(state, pick)), "R-SETUP-6", ("wheel",), window=pick)


@task(do.SETUP_ORDER)
def _order(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-17…19: random play order; register stacks with the last player on top (Q-1); score
    track and compensation by play position. Solo: you go first in round I (R-SOLO-4)."""
    n = state.players
    if n == 1:
        order = [0]
    elif app_draws(state):
        order = shuffled(state, range(n))
    else:  # C-1: the table put the counters on the indicator in random order; the host enters it
        order = list(t.get("order", []))
        if not order and "pick" not in t:
            instruct(state,
                     Text("Put one counter of each player on the play-order indicator, in random order. The host "
                          "enters the order."), "R-SETUP-17")
        while len(order) < n:
            question = Text("Round I play order, drawn at random: whose counter is P{pos} on the play-order indicator?",
                            pos=len(order) + 1)
            pick = reveal(state, lane, t, question, [i for i in range(n) if i not in order], lambda i: who(state, i),
                          "R-SETUP-17")
            if pick is None:
                return
            order.append(pick)
            t = {"do": do.SETUP_ORDER, "order": list(order)}
    state.order = order
    for pos, seat_i in enumerate(order):
        seat = state.seats[seat_i]
        stamp = state.next_stamp()  # later play positions sit higher in every stack
        seat.stamps = {k: stamp for k in ("popularity", "city", "church", "score")}
        if n > 1:
            seat.vp += START_VP[pos]
            seat.coins += START_COINS[pos]
    if state.opponent:
        state.opponent.stamp = state.next_stamp()
        first_mover(state)
    _told_order(state, order)


def _told_order(state: GameState, order: list[int]) -> None:
    """R-SETUP-17…19 (R-SOLO-2, -4) as the table carries them out, naming only the seats that play."""
    n = state.players
    if state.opponent:
        names = joined(Text("P{pos} {name}", pos=i + 1, name=name) for i, name in enumerate(order_names(state)))
    else:
        names = joined(Text("P{pos} {name}", pos=i + 1, name=who(state, s)) for i, s in enumerate(order))
    instruct(state, Text("Play order for round I: {names}. Put one counter of each on the play-order indicator.",
                         names=names) if app_draws(state) or n == 1 else
             Text("Play order for round I: {names}.", names=names), "R-SETUP-17" if n > 1 else "R-SOLO-4", ("order",),
             order=order)
    if n == 1:  # R-SOLO-2: the opponent has no counter on the city and church registers, nor on the score track
        instruct(state, Text("Stack your counter and the opponent's on space I of the popularity register, the "
                             "opponent's on top (the last player's); put only your counter on space I of the city and "
                             "church registers."), "R-SOLO-2")
        instruct(state, Text("Put your counter on space 0 of the scoring track; the opponent has none there."),
                 "R-SOLO-2")
        return
    instruct(state, Text("Stack one counter of each player on space I of the popularity, city and church registers "
                         "in reverse play order, so the last player's counter is on top."), "R-SETUP-18")
    comp = []
    for pos, seat_i in enumerate(order):
        s = state.seats[seat_i]
        comp.append(Text("P{pos} {name}: {vp} VP, {coins} coin", pos=pos + 1, name=s.name, vp=START_VP[pos],
                         coins=START_COINS[pos]) if START_COINS[pos] else
                    Text("P{pos} {name}: {vp} VP", pos=pos + 1, name=s.name, vp=START_VP[pos]))
    seats = joined(comp, "; ")
    instruct(state, {2: Text("Score track and compensation: {seats}.", seats=seats),
                     3: Text("Score track and compensation: {seats}. P3's counter sits on P1's.", seats=seats),
                     4: Text("Score track and compensation: {seats}. P3's counter sits on P1's, P4's on P2's.",
                             seats=seats)}[n], "R-SETUP-19",
             tuple(f"seat:{i}:{kind}" for i in order for kind in ("vp", "coins")))
