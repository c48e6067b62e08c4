"""The solo game's virtual opponent (R-SOLO-1…7, Q-18): its deck of solo tiles, its turns, and the
strict alternation of turns with the player."""

from __future__ import annotations

from ..words import Text, joined
from . import tasks as do
from .city import distances_from
from .describe import face_of, tile_text
from .draws import app_draws, reveal, stack_next
from .events import ACT, instruct, roman, tile_name, who
from .flow import choose, option, push, task
from .gain import add_vp
from .movement import available, standing_on
from .reach import reached
from .rulebook import REPOPULATOR_VP
from .state import GameState, Opponent, Place, Stack


def the_opponent(state: GameState) -> Opponent:
    """The solo game's opponent (only a solo game comes here, and it always has one)."""
    opp = state.opponent
    assert opp is not None, "a solo rule in a game without the solo opponent"
    return opp


def _deck(opp: Opponent) -> Stack:
    """The opponent's deck, dealt at the start of every round (R-SOLO-2) before its first turn."""
    assert opp.deck is not None, "the opponent's turn before its deck was dealt"
    return opp.deck


def first_mover(state: GameState) -> None:
    """R-SOLO-4: you go first in rounds I, III and V; the opponent in II, IV and VI."""
    the_opponent(state).moved_last = state.round % 2 == 1


def order_names(state: GameState) -> list[str]:
    """Who moves first this round and who second, as `next_mover` will play it (Q-18)."""
    you, them = who(state, 0), who(state, -1)
    return [you, them] if the_opponent(state).moved_last else [them, you]


def send_home(state: GameState) -> list[str]:
    """R-SOLO-3 / D-29: the opponent's lieutenants leave the city for its board; the hexes they left."""
    opp = the_opponent(state)
    left, opp.placed = opp.placed, []
    return left


@task(do.SOLO_DECK)
def _solo_deck(state: GameState, t: dict, lane: str) -> None:
    """R-SOLO-2 / Q-18: all 14 solo tiles are (re)shuffled face down as the opponent's deck at each round
    start, the ones revealed last round included."""
    opp = the_opponent(state)
    state.pools["solo"] = sorted(state.catalog.solo_tiles)
    opp.deck = Stack(pool="solo", hidden=len(state.pools["solo"]))
    opp.aside, opp.skipped = [], 0
    more = opp.lieutenants(state.round) - opp.lieutenants(max(state.round - 1, 1))
    if more > 0:  # R-SOLO-3: rounds IV and VI bring the opponent one more lieutenant
        instruct(state, Text("From round {round} the opponent uses {n} lieutenants: put {more} more on its board.",
                             round=roman(state.round), n=opp.lieutenants(state.round), more=more), "R-SOLO-3", (ACT,))
    n, rnd = opp.deck.hidden, roman(state.round)
    instruct(state,
             Text("Put all {n} solo tiles face down as the opponent's deck for round {round}. The companion names "
                  "each tile it reveals.", n=n, round=rnd) if app_draws(state) else
             Text("Shuffle all {n} solo tiles face down: the opponent's deck for round {round}.", n=n, round=rnd),
             "R-SOLO-2" if state.round == 1 else "Q-18", ("stack:solo", "opponent:aside"), deck=opp.deck.hidden)


def next_mover(state: GameState) -> str | None:
    """Q-18: turns alternate strictly; when one side has no lieutenant left the other finishes."""
    opp = the_opponent(state)
    you = bool(available(state, 0))
    them = len(opp.placed) + opp.skipped < opp.lieutenants(state.round)
    if opp.moved_last:
        return "you" if you else "opponent" if them else None
    return "opponent" if them else "you" if you else None


@task(do.OPPONENT_TURN)
def _opponent_turn(state: GameState, t: dict, lane: str) -> None:
    """R-SOLO-5: reveal tiles until one names a hex in play without a standing figure; the others are
    ignored for the rest of the round. R-SOLO-6: it removes one cube and moves up popularity, never past
    the last space (Q-17), so a player there still ties it for the R-SOLO-8 bonus."""
    opp = the_opponent(state)
    if state.hold_opponent and "pick" not in t and not t.get("tries"):  # the host's moment starts its list here
        instruct(state,
                 Text("The opponent's turn: reveal its solo tiles until one names a hex in play with no standing "
                      "figure."), "R-SOLO-5", opponent=True)
    if len(_deck(opp)) == 0:
        _new_deck(state)
    tries = t.get("tries", 0)
    if tries > 2 * len(state.catalog.solo_tiles) or len(_deck(opp)) == 0:
        opp.skipped += 1
        opp.moved_last = True
        instruct(state, Text("No solo tile names an available hex: the opponent loses this turn."), "R-SOLO-5")
        push(state, lane, {"do": do.OPPONENT_DONE}, {"do": do.NEXT_TURN})
        return
    ready, tile = stack_next(state, _deck(opp), lane, t, Text("Which solo tile did the opponent reveal?"),
                             None, "R-SOLO-5")
    if not ready:
        return
    assert tile is not None, "the deck was not empty"
    opp.aside.append(tile)
    solo = state.catalog.solo_tiles[tile]
    shown = Text("a solo tile", face=face_of(state, tile))  # its face is drawn beside the line
    at = [str(Place.hex(solo.hex))] if solo.hex in state.hexes else []
    revealed = ("stack:solo", "opponent:aside")
    if solo.hex not in state.hexes or solo.hex in standing_on(state):
        text = (Text("Opponent reveals {tile}: {hex} is not in play; set it aside and reveal another.", tile=shown,
                     hex=tile_name(state, solo.hex)) if solo.hex not in state.hexes else
                Text("Opponent reveals {tile}: the marked {hex} has a standing figure; set it aside and reveal "
                     "another.", tile=shown, hex=tile_name(state, solo.hex)))
        instruct(state, text, "R-SOLO-5", revealed, places=at)
        reached(state, "solo-reveals-again")
        push(state, lane, {"do": do.OPPONENT_TURN, "tries": tries + 1})
        return
    _takes_hex(state, lane, tile, shown, at, revealed)


def _takes_hex(state: GameState, lane: str, tile: str, shown, at: list[str], revealed: tuple[str, ...]) -> None:
    """R-SOLO-6: the opponent's lieutenant stands on the tile's hex; its citizens go back to the supply; one
    of its cubes goes back too and the opponent moves up popularity (never past the last space, Q-17)."""
    opp = the_opponent(state)
    solo = state.catalog.solo_tiles[tile]
    h = state.hexes[solo.hex]
    name = tile_name(state, solo.hex)
    instruct(state, Text("Opponent reveals {tile}: it takes the marked {hex}. Set the tile aside and stand an opponent "
                         "lieutenant on that hex.", tile=shown, hex=name), "R-SOLO-6", (*revealed, "opponent:placed"),
             hex=solo.hex, tile=tile, places=at)
    opp.placed.append(solo.hex)
    opp.moved_last = True
    if h.citizens:
        instruct(state, Text("Return the {citizens} on the marked {hex} to the supply.",
                             citizens=joined(c.cls for c in h.citizens), hex=name), "R-SOLO-6", places=at)
        h.citizens = []
    if h.cubes:
        last = state.catalog.register("popularity", state.players).last
        if opp.popularity < last:
            instruct(state,
                     Text("Take 1 plague cube off the marked {hex} and put it in the supply; move the opponent's "
                          "counter on the popularity register to space {n}.", hex=name, n=opp.popularity + 1),
                     "R-SOLO-6", ("supply", "opponent:popularity"), places=at)
            opp.popularity += 1
            opp.stamp = state.next_stamp()
        else:
            instruct(state, Text("Take 1 plague cube off the marked {hex} and put it in the supply; the opponent stays "
                                 "on the last popularity space.", hex=name), "Q-17", ("supply",), places=at)
        h.cubes -= 1
        state.supply_cubes += 1
    if h.repopulated_by is not None:
        reached(state, "solo-repopulator-vp")
        add_vp(state, h.repopulated_by, REPOPULATOR_VP)
        instruct(state, Text("{who} scores 2 VP: the opponent chose their repopulated hex.",
                             who=who(state, h.repopulated_by)), "Q-18", (f"seat:{h.repopulated_by}:vp",))
    push(state, lane, {"do": do.OPPONENT_ACTION, "action": solo.action, "hex": solo.hex}, {"do": do.OPPONENT_DONE},
         {"do": do.NEXT_TURN})


@task(do.OPPONENT_DONE)
def _opponent_done(state: GameState, t: dict, lane: str) -> None:
    """C-23: the opponent's turn is a checklist of acts on the table (its tile, its lieutenant, the cube, its
    popularity, what its red action takes and what turns up); your next turn, or the upkeep, waits until the
    host says the table has done them, so a phone never runs ahead of the opponent's pieces."""
    if not state.hold_opponent:
        return
    done = [option("done", Text("The opponent's turn is done on the table"))]
    choose(state, lane, "host", "opponent_done",
           Text("Move the opponent's pieces on the table as listed, then carry on."),
           done, t, "C-23", forced=False)


def _new_deck(state: GameState) -> None:
    """R-SOLO-5: a deck run out mid-round is made again from the tiles spent this round."""
    opp = the_opponent(state)
    reached(state, "solo-deck-reshuffle")
    state.pools["solo"] = sorted(opp.aside)
    opp.deck = Stack(pool="solo", hidden=len(opp.aside))
    opp.aside = []
    instruct(state, Text("The opponent's deck is empty: put its spent solo tiles face down as a new deck.")
             if app_draws(state) else
             Text("The opponent's deck is empty: shuffle its spent solo tiles into a new deck."), "R-SOLO-5",
             ("stack:solo", "opponent:aside"))


@task(do.OPPONENT_ACTION)
def _opponent_action(state: GameState, t: dict, lane: str) -> None:
    """R-SOLO-7 / Q-18: the tile's red action; what it takes leaves the game, replacements turn up."""
    action = t["action"]
    reached(state, "solo-" + action.split("-")[0])
    if action == "boat":
        _opponent_boat(state, lane, t)
    elif action == "wagon":
        for i, ws in enumerate(state.wagon_stacks):
            if ws.up:
                instruct(state, Text("The opponent takes the {tile}; it leaves the game.", tile=tile_text(state,
                                                                                                          ws.up)),
                         "R-SOLO-7", (f"wagons:{i + 1}",))
                ws.up = None
                push(state, lane, {"do": do.REVEAL_WAGON, "index": i})
                return
        reached(state, "solo-takes-nothing")
        instruct(state, Text("No wagon is available: the opponent takes nothing."), "Q-18")
    elif action.startswith("workshop-"):
        cls = action.split("-", 1)[1]
        st = state.workshops[cls]
        if st.up:
            instruct(state, Text("The opponent takes the {tile}; it leaves the game.",
                                 tile=tile_text(state, st.up)), "R-SOLO-7", (f"stack:workshops-{cls}",))
            st.up = None
            push(state, lane, {"do": do.REVEAL_FACE_UP, "what": "workshop", "index": cls, "rule": "R-SOLO-7"})
        else:
            reached(state, "solo-takes-nothing")
            instruct(state, Text("No {cls} workshop is face up: the opponent takes nothing.", cls=cls), "Q-18")
    elif action == "improvements":
        up = [(i, st.up) for i, st in enumerate(state.improvements) if st.up]
        taken = [i for i, _ in up]
        if not taken:
            reached(state, "solo-takes-nothing")
            instruct(state, Text("No cabin improvement is face up: the opponent takes nothing."), "Q-18")
        for i, tile in up:
            instruct(state, Text("The opponent takes the {tile}; it leaves the game.",
                                 tile=tile_text(state, tile)), "R-SOLO-7", (f"stack:improvements-{i + 1}",))
            state.improvements[i].up = None
        push(state, lane, *({"do": do.REVEAL_FACE_UP, "what": "improvement", "index": i, "rule": "R-SOLO-7"}
                            for i in taken))


def _opponent_boat(state: GameState, lane: str, t: dict) -> None:
    """R-SOLO-7: the boat nearest the opponent's hex (random among the nearest) leaves the game, its cube
    back to the supply (C-16)."""
    dist = distances_from(state, f"hex:{t['hex']}")
    docks = [(dist.get(f"dock:{d}", 99), d) for d, boats in state.docks.items() if boats]
    if not docks:
        reached(state, "solo-takes-nothing")
        instruct(state, Text("No boat is in Messina: the opponent takes nothing."), "Q-18")
        return
    near = min(d for d, _ in docks)
    boats = [b.tile for d, dock in docks if d == near for b in state.docks[dock]]
    question = Text("Which boat does the opponent take (random among the nearest)?")
    boat = reveal(state, lane, t, question, boats, None, "R-SOLO-7")
    if boat is None:
        return
    for dock, at in state.docks.items():
        for b in at:
            if b.tile == boat:
                at.remove(b)
                if b.cube:
                    state.supply_cubes += 1
                text = (Text("The opponent takes the {boat} from the {dock}; it leaves the game and its cube returns "
                             "to the supply.", boat=tile_text(state, boat), dock=tile_name(state, dock)) if b.cube else
                        Text("The opponent takes the {boat} from the {dock}; it leaves the game.",
                             boat=tile_text(state, boat), dock=tile_name(state, dock)))
                instruct(state, text, "R-SOLO-7", ("supply",), places=[str(Place.dock(dock))])
                return
