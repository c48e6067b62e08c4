"""A new game: the table's setup (R-SETUP-1…20) and round I setup (R-R1-1…3), told step by step.

Every shuffle whose result the table can see is a reveal (draws.py), so in table-draw mode the host
enters what really came up and the companion follows the physical game.
"""

from __future__ import annotations

from . import tasks as do
from .city import layout, start_spaces
from .draws import randbelow, reveal, seed_state, shuffled
from .describe import hex_text, scroll_board_text, tile_text
from .events import instruct, tile_name, who
from .flow import MAIN, IllegalAction, push, run, task
from .rulebook import CUBES, ESTATE_LIEUTENANTS, LIEUTENANTS, PLAGUE_CUBES, START_COINS, START_VP
from .solo import first_mover, order_names
from .state import (CLASSES, COLOURS, Cabin, GameState, Hex, Lieutenant, Opponent, Options, Overseer, Place,
                    PlayerOption, Seat, Stack, UPKEEP_RULES, WagonStack)
from ..words import T, joined



def options_for(players: int, advanced: bool = False, priority_tile: bool = False, draw: str = "app",
                names: list[str] | None = None) -> Options:
    """Default names and colours for a quick game (CLI, tests, simulations)."""
    names = names or ["Ada", "Bruno", "Chiara", "Dario"][:players]
    return Options([PlayerOption(n, c) for n, c in zip(names, COLOURS)], advanced, priority_tile, draw)


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
    """R-SETUP-14: each seat takes the pieces of its colour; the advanced game then draws colours and b
    boards (R-ADV-1), so until then every seat holds side a."""
    opts = state.options
    for p in opts.players:
        state.seats.append(_seat(state, p.name, p.colour, "a", "a"))
    side = T("b (advanced)") if opts.advanced else "a"
    instruct(state, T("Each player takes the pieces of their colour: player board side {side}, scroll board, "
                      "5 lieutenants, 5 counters, 3 overseers, 3 scroll cubes and 5 repopulation tiles.", side=side),
             "R-SETUP-14")
    push(state, lane, *([{"do": do.DRAW_BOARDS}] if opts.advanced else []), {"do": do.SETUP_FIGURES})


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
    if state.options.draw == "app":
        colours = shuffled(state, COLOURS)[:n]
        scrolls = shuffled(state, b_scrolls)[:n]
    else:
        colours, scrolls = list(t.get("colours", [])), list(t.get("scrolls", []))
        while len(scrolls) < n:
            name = state.seats[len(scrolls)].name
            if len(colours) == len(scrolls):
                pick = reveal(state, lane, t, T("Which colour did {name} draw?", name=name),
                              [x for x in COLOURS if x not in colours], rule="R-ADV-1")
                if pick is None:
                    return
                colours.append(pick)
            else:
                pick = reveal(state, lane, t, T("Which b scroll board did {name} draw?", name=name),
                              [x for x in b_scrolls if x not in scrolls], rule="R-ADV-1",
                              label=lambda x: scroll_board_text(state, x))
                if pick is None:
                    return
                scrolls.append(pick)
            t = {"do": do.DRAW_BOARDS, "colours": list(colours), "scrolls": list(scrolls)}
    for i, seat in enumerate(state.seats):
        state.seats[i] = _seat(state, seat.name, colours[i], f"b-{colours[i]}", scrolls[i])
    for i, s in enumerate(state.seats):
        board = T("{colour} player board", colour=s.colour, face=f"board:{s.board}")
        instruct(state, T("{name} plays {colour} with the {board} and the {scroll}, both b side up, assigned at "
                          "random.", name=s.name, colour=s.colour, board=board,
                          scroll=scroll_board_text(state, s.scroll_board)), "R-ADV-1", seat=i)


@task(do.SETUP_FIGURES)
def _figures(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-15…16 as the table does it; solo: the opponent takes a free colour (R-SOLO-2, C-11)."""
    instruct(state, T("Put 3 lieutenants beside your board and 2 in the general supply; scroll cubes at the "
                      "bottom of the 3 tracks; overseers on their start spaces."), "R-SETUP-15")
    if state.players == 1:
        free = [col for col in COLOURS if col != state.seats[0].colour]
        state.opponent = Opponent(colour=free[0])
        instruct(state, T("The virtual opponent plays {colour}; it has counters on the popularity register and "
                          "the play-order indicator only.", colour=free[0]), "R-SOLO-2")


@task(do.SETUP_CITY)
def _city(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-1…3: keep the A hexes of this count, add 1 random B, deal into the layout."""
    c = state.catalog
    kept = sorted(h.id for h in c.hexes.values() if h.cls == "A" and h.in_count(state.players))
    dropped = sorted(h.id for h in c.hexes.values() if h.cls == "A" and h.id not in kept)
    if "spaces" not in t:
        if dropped:
            instruct(state, T("Return these A hexes to the box (not for this player count): {hexes}.",
                              hexes=joined([tile_name(state, h) for h in dropped])), "R-SETUP-1")
        for h, at in layout(state).harbors.items():
            state.hexes[h] = Hex(tile=h, space=h)
        corners = joined(tile_name(state, h) for h in layout(state).harbors)
        instruct(state, T("Place the harbor hexes at the four corners: {corners}.", corners=corners), "R-SETUP-2",
                 places=[str(Place.hex(h)) for h in layout(state).harbors])
        spaces = start_spaces(state)
        if state.options.draw == "app":
            bs = sorted(h.id for h in c.hexes.values() if h.cls == "B")
            deal = shuffled(state, kept + [bs[randbelow(state, len(bs))]])
            for space, tile in zip(spaces, deal):
                state.hexes[tile] = Hex(tile=tile, space=space)
            _dealt(state)
            return
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
    tile = reveal(state, lane, t, T("Which hex is on the marked space?"), cands, lambda x: hex_text(state, x),
                  "R-SETUP-2", place=f"space:{spaces[0]}")
    if tile is None:
        return
    state.hexes[tile] = Hex(tile=tile, space=spaces[0])
    if len(spaces) > 1:
        push(state, lane, {"do": do.SETUP_CITY, "spaces": spaces[1:]})
    else:
        _dealt(state)


def _dealt(state: GameState) -> None:
    """The deal as the map shows it: each hex on its marked start space (their faces say which is which)."""
    deal = sorted((h.space, tile) for tile, h in state.hexes.items() if h.space.startswith("s"))
    instruct(state, T("Shuffle the kept A hexes with 1 random B hex and deal them face up onto the marked start "
                      "spaces, as the map shows: {deal}.", deal=joined(tile_name(state, tile) for _, tile in deal)),
             "R-SETUP-2", deal=dict(deal), places=[str(Place.hex(tile)) for _space, tile in deal])


@task(do.SETUP_STACKS)
def _stacks(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-3…13: expansion stack, cubes, docking pile, boats, improvements, workshops, wagons."""
    c = state.catalog
    n = state.players
    b_left = [h.id for h in c.hexes.values() if h.cls == "B" and h.id not in state.hexes]
    cs = sorted(h.id for h in c.hexes.values() if h.cls == "C")
    state.pools["expansion"] = cs
    state.expansion = Stack(pool="expansion", top=b_left, hidden=len(cs))
    instruct(state, T("Expansion stack: shuffle the {n} C hexes face down and put the other B hex, {tile}, face down "
                      "on top.", n=len(cs), tile=tile_name(state, b_left[0])), "R-SETUP-3")
    instruct(state, T("Keep fire, major fire, rat, lumber, coin and citizen tokens within reach."), "R-SETUP-4")
    state.supply_cubes = CUBES[n]
    instruct(state, T("Use {n} plague cubes; return the other {rest} to the box.", n=CUBES[n], rest=PLAGUE_CUBES - CUBES[n])
             if CUBES[n] < PLAGUE_CUBES else T("Use {n} plague cubes.", n=CUBES[n]), "R-SETUP-5")
    state.pools["docking"] = sorted(c.docking_tiles)
    state.docking = Stack(pool="docking", hidden=len(c.docking_tiles))
    state.docks = {d: [] for d in c.docks}
    instruct(state, T("Shuffle the 4 docking tiles into a face-down pile."), "R-SETUP-7")
    boats = [b for b in c.boats.values() if n > 2 or b.cargo != "stones"]
    for back in sorted({b.back for b in boats}):
        group = sorted(b.id for b in boats if b.back == back)
        state.pools[f"boats-{back}"] = group
        state.boats.append(Stack(pool=f"boats-{back}", hidden=len(group)))
    if n <= 2:
        gone = sorted(b.id for b in c.boats.values() if b.cargo == "stones")
        instruct(state, T("Return the boats carrying precious stones to the box ({boats}).",
                          boats=joined([tile_text(state, b) for b in gone])), "R-SETUP-8")
    instruct(state, T("Sort the {n} boats by the number on the back, shuffle each group and stack them with group 1 "
                      "on top, beside the scoreboard.", n=len(boats)), "R-SETUP-8")
    state.pools["improvements"] = sorted(c.improvements)
    per = len(c.improvements) // 3
    state.improvements = [Stack(pool="improvements", hidden=per) for _ in range(3)]
    instruct(state, T("Deal the cabin improvements at random into 3 face-down stacks of {n}; turn up the top of "
                      "each.", n=per), "R-SETUP-9")
    for cls in CLASSES:
        early = sorted(w.id for w in c.workshops.values() if w.era == 1 and w.cls == cls)
        late = sorted(w.id for w in c.workshops.values() if w.era == 2 and w.cls == cls)
        state.pools[f"workshops-{cls}"] = early
        state.pools[f"late-{cls}"] = late
        state.workshops[cls] = Stack(pool=f"workshops-{cls}", hidden=len(early))
    instruct(state, T("Sort the workshops by era and class into 6 stacks and shuffle each. Put the 3 era I "
                      "stacks face down on the scoreboard and turn up the top of each; set the era II stacks "
                      "aside until round V."), "R-SETUP-11")
    for back in sorted({w.back for w in c.wagons.values()}):
        state.pools[f"wagons-{back}"] = sorted(w.id for w in c.wagons.values() if w.back == back)
    backs = sorted({w.back for w in c.wagons.values()})
    stacks = 1 if n <= 2 else 2
    state.wagon_stacks = [WagonStack(backs=list(backs)) for _ in range(stacks)]
    text = T("Split the wagons into their 5 back-numbered pairs; build two stacks with one random wagon of "
             "each pair, wagon 1 face up on top and 2…5 below.")
    if stacks == 1:
        text = T("{text} Return one stack to the box unseen: one wagon is available at a time.", text=text)
    instruct(state, text, "R-SETUP-10")
    instruct(state, T("Use the {side} side of the scoreboard; put the round counter on space I.", side=state.side),
             "R-SETUP-12")
    if state.options.priority_tile:
        instruct(state, T("Cover the first column of the round info table with the register priority tile."),
                 "R-SETUP-13")


@task(do.SETUP_WHEEL)
def _wheel(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-6: the wheel starts at any window (every window shows a rat and three colours)."""
    wheel = state.catalog.wheel
    ids = [w.id for w in wheel]
    pick = reveal(state, lane, t, T("Which window of the population wheel is showing?"), ids, rule="R-SETUP-6")
    if pick is None:
        return
    state.wheel = ids.index(pick)
    instruct(state, T("Set the population wheel to show the {window} (any window will do).", window=tile_text(state, pick)), "R-SETUP-6",
             window=pick)


@task(do.SETUP_ORDER)
def _order(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-17…19: random play order; register stacks with the last player on top (Q-1); score
    track and compensation by play position. Solo: you go first in round I (R-SOLO-4)."""
    n = state.players
    if n == 1:
        order = [0]
    elif state.options.draw == "app":
        order = shuffled(state, range(n))
    else:  # C-1: the table put the counters on the indicator in random order; the host enters it
        order = list(t.get("order", []))
        while len(order) < n:
            question = T("Round I play order, drawn at random: whose counter is P{pos} on the play-order indicator?",
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
        names = joined(T("P{pos} {name}", pos=i + 1, name=name) for i, name in enumerate(order_names(state)))
    else:
        names = joined(T("P{pos} {name}", pos=i + 1, name=who(state, s)) for i, s in enumerate(order))
    instruct(state, T("Play order for round I: {names}. Put one counter of each on the play-order indicator.",
                      names=names),
             "R-SETUP-17" if n > 1 else "R-SOLO-4", order=order)
    instruct(state, T("Stack one counter of each player on space I of the popularity, city and church registers "
                      "in reverse play order, so the last player's counter is on top."), "R-SETUP-18")
    if n > 1:
        comp = []
        for pos, seat_i in enumerate(order):
            s = state.seats[seat_i]
            comp.append(T("P{pos} {name}: {vp} VP, {coins} coin", pos=pos + 1, name=s.name, vp=START_VP[pos],
                          coins=START_COINS[pos]) if START_COINS[pos] else
                        T("P{pos} {name}: {vp} VP", pos=pos + 1, name=s.name, vp=START_VP[pos]))
        instruct(state, T("Score track and compensation: {seats}. P3's counter sits on P1's, P4's on P2's.",
                          seats=joined(comp, "; ")), "R-SETUP-19")
