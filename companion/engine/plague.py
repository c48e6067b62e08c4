"""Steps 2 and 3 of a hex turn: rescuing the hex's citizens, then fighting its plague cube by cube
(R-TURN-RESCUE-1…3, R-TURN-FIRE-1…8, Q-4, Q-5)."""

from __future__ import annotations

from ..words import Plural, Text, joined
from . import tasks as do
from .city import adjacent_hexes
from .describe import square_text, tile_text
from .estate import empty_squares, move_to_workshop, workshop_moves
from .events import note, tile_name, who
from .flow import ASKED, choose, option, push, task
from .gain import add_vp
from .reach import reached
from .registers import advance
from .rulebook import TWO_FIRE_VP
from .state import Citizen, GameState


@task(do.RESCUE)
def _rescue(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-RESCUE-1: every citizen on the hex is taken; where each goes is judged now, before any
    cube is fought (R-TURN-RESCUE-3)."""
    h = state.hexes[t["tile"]]
    taken, h.citizens = h.citizens, []
    push(state, lane, *({"do": do.RESCUE_ONE, "seat": t["seat"], "citizen": c.to_dict(), "plagued": t["plagued"]}
                        for c in taken))


@task(do.RESCUE_ONE)
def _rescue_one(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-RESCUE-2…3: a citizen from a plagued hex goes into quarantine, any other onto its sector."""
    if t["plagued"]:
        _to_quarantine(state, t, lane)
    else:
        _to_sector(state, t, lane)


def _to_quarantine(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-RESCUE-3: space I of an empty quarantine cabin; none empty: the citizen is discarded."""
    seat = t["seat"]
    s = state.seats[seat]
    cit = Citizen.from_dict(t["citizen"])
    free = [i for i, cab in enumerate(s.cabins) if cab.citizen is None]
    if not free:
        reached(state, "rescue-no-cabin")
        note(state, Text("{who} has no empty quarantine cabin: the {cls} is discarded.", who=who(state, seat),
                         cls=cit.cls), "R-TURN-RESCUE-3")
        return
    opts = [option(i, Text("Cabin {n} (improved: the {tile})", n=i + 1, tile=tile_text(state, s.cabins[i].improvement))
                   if s.cabins[i].improvement else Text("Cabin {n} (not improved)", n=i + 1)) for i in free]
    i = choose(state, lane, seat, "rescue", Text("The {cls} came from a plagued hex: which quarantine cabin?",
                                                 cls=cit.cls), opts, t, "R-TURN-RESCUE-3",
               alike=lambda i: s.cabins[i].improvement)  # cabins alike: no question
    if i is ASKED:
        return
    s.cabins[i].citizen, s.cabins[i].space = cit, 1
    reached(state, "rescue-to-quarantine")
    note(state, Text("{who} puts the rescued {cls} in space I of quarantine cabin {n}.", who=who(state, seat),
                     cls=cit.cls, n=i + 1), "R-TURN-RESCUE-3")


def _to_sector(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-RESCUE-2: an empty square of its sector; a full sector may first make room by moving a
    citizen into a workshop (R-CIT-4), else the rescued citizen is discarded."""
    seat = t["seat"]
    s = state.seats[seat]
    cit = Citizen.from_dict(t["citizen"])
    if "pick" in t and isinstance(t["pick"], dict):  # made room first (R-CIT-4), then ask again
        reached(state, "rescue-make-room")
        push(state, lane, {k: v for k, v in t.items() if k != "pick"})
        move_to_workshop(state, lane, seat, t["pick"]["square"], t["pick"]["workshop"])
        return
    squares = empty_squares(state, seat, cit.cls)
    if not squares:
        _make_room(state, t, lane, cit)
        return
    board = state.catalog.boards[s.board]
    opts = [option(q, Text("The {square} (single use)", square=square_text(state, seat, q))
                   if board.square(q).once else
                   Text("The {square}", square=square_text(state, seat, q)),
                   face=f"square:{s.board}.{q}") for q in squares]  # the square where it lies on the board
    q = choose(state, lane, seat, "rescue", Text("Place the rescued {cls} on which square?", cls=cit.cls), opts, t,
               "R-TURN-RESCUE-2")
    if q is ASKED:
        return
    s.squares[q] = cit
    reached(state, "rescue-to-sector")
    note(state, Text("{who} places the rescued {cls} on the {square}.", who=who(state, seat), cls=cit.cls,
                     square=square_text(state, seat, q)),
         "R-TURN-RESCUE-2")


def _make_room(state: GameState, t: dict, lane: str, cit: Citizen) -> None:
    """A full sector: move one of its citizens into a workshop of its class first, or discard."""
    seat = t["seat"]
    s = state.seats[seat]
    moves = workshop_moves(state, seat, cit.cls)
    if not moves:
        reached(state, "rescue-discard")
        note(state, Text("{who}'s {cls} sector is full: the rescued {cls} is discarded.", who=who(state, seat),
                         cls=cit.cls), "R-TURN-RESCUE-2")
        return
    opts = [option(mv, Text("Move the {cls} on the {square} into the {workshop} to make room", cls=cit.cls,
                            square=square_text(state, seat, mv["square"]),
                            workshop=tile_text(state, s.workshops[mv["workshop"]].tile)))
            for mv in moves]
    opts.append(option(None, Text("Discard the rescued {cls}", cls=cit.cls)))
    if choose(state, lane, seat, "rescue", Text("Your {cls} sector is full", cls=cit.cls), opts, t,
              "R-TURN-RESCUE-2") is ASKED:
        return
    reached(state, "rescue-discard")
    note(state, Text("{who} discards the rescued {cls}.", who=who(state, seat), cls=cit.cls), "R-TURN-RESCUE-2")


def payments(state: GameState, seat: int, major_unlocks: bool) -> list[dict]:
    """Ways to pay the round's fire cost (R-TURN-FIRE-1, -5, -6): a major fire counts as one fire;
    only a cube paid wholly in major fire unlocks the adjacent removal."""
    s = state.seats[seat]
    need = state.round_row().fire_cost
    out = []
    for major in range(need + 1):
        fire = need - major
        if s.major_fire >= major and s.fire >= fire:
            parts = ([Text("{n} fire", n=fire)] if fire else []) + ([Text("{n} major fire", n=major)] if major else [])
            adj = major_unlocks and major == need
            out.append({"fire": fire, "major": major, "adjacent": adj, "text": joined(parts, " + ")})
    return out


def remove_cube(state: GameState, lane: str, seat: int, where: str) -> None:
    """A removed cube returns to the supply (Q-6), moves you 1 popularity space (R-TURN-FIRE-3) and
    scores 2 VP in a 2-fire round (R-TURN-FIRE-2, Q-4, Q-5)."""
    state.supply_cubes += 1
    if state.round_row().fire_cost == 2:
        reached(state, "two-fire-vp")
        add_vp(state, seat, TWO_FIRE_VP)
        note(state, Text("{who} scores 2 VP for a cube removed in a 2-fire round.", who=who(state, seat)),
             "R-TURN-FIRE-2")
    note(state, Text("{who} removes a plague cube from {where}.", who=who(state, seat), where=where), "R-TURN-FIRE-1")
    advance(state, lane, seat, "popularity")


@task(do.FIGHT)
def _fight(state: GameState, t: dict, lane: str) -> None:
    seat, tile = t["seat"], t["tile"]
    h = state.hexes[tile]
    s = state.seats[seat]
    if h.cubes == 0:
        return
    opts = [option({k: w[k] for k in ("fire", "major", "adjacent")},
                   Text("Remove a cube with {pay} (and may remove 1 cube on an adjacent hex)", pay=w["text"])
                   if w["adjacent"] else Text("Remove a cube with {pay}", pay=w["text"]), cost=w["text"])
            for w in payments(state, seat, major_unlocks=True)]
    opts.append(option(None, Plural("Stop: take {n} rat for the cube left", "Stop: take {n} rats for the cubes left",
                                    n=h.cubes)))
    where, fire = tile_name(state, tile), state.round_row().fire_cost
    pay = choose(state, lane, seat, "fight", Plural("Fight the plague on the {tile} ({n} cube, {fire} fire each)",
                                                    "Fight the plague on the {tile} ({n} cubes, {fire} fire each)",
                                                    n=h.cubes, tile=where, fire=fire),
                 opts, t, "R-TURN-FIRE-1")  # no fire to pay with: the stop is taken for you
    if pay is ASKED:
        return
    if not pay:
        reached(state, "rats-for-cubes")
        s.rats += h.cubes
        note(state, Plural("{who} takes {n} rat: plague cubes stay on the {tile}.",
                           "{who} takes {n} rats: plague cubes stay on the {tile}.", n=h.cubes, who=who(state, seat),
                           tile=tile_name(state, tile)), "R-TURN-FIRE-4")
        return
    s.fire -= pay["fire"]
    s.major_fire -= pay["major"]
    h.cubes -= 1
    reached(state, "cube-removed")
    nxt = [{"do": do.FIGHT, "seat": seat, "tile": tile}]
    near = [a for a in adjacent_hexes(state, tile) if state.hexes[a].cubes > 0]
    if pay["adjacent"] and near:
        nxt.insert(0, {"do": do.ADJACENT_CUBE, "seat": seat, "tile": tile})
    push(state, lane, *nxt)
    remove_cube(state, lane, seat, Text("the {tile}", tile=tile_name(state, tile)))


@task(do.ADJACENT_CUBE)
def _adjacent(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-FIRE-5…8, Q-4: the major fire may also clear one cube on an adjacent hex (never a boat)."""
    seat = t["seat"]
    near = [a for a in adjacent_hexes(state, t["tile"]) if state.hexes[a].cubes > 0]
    if not near:
        return
    opts = [option(a, Text("Remove a cube from the {tile} ({n} there)", tile=tile_name(state, a),
                           n=state.hexes[a].cubes))
            for a in near]
    opts.append(option(None, Text("No adjacent cube")))
    tile = choose(state, lane, seat, "adjacent_cube", Text("Major fire: also remove a cube from an adjacent hex?"),
                  opts,
                  t, "R-TURN-FIRE-5")
    if tile is ASKED or tile is None:
        return
    state.hexes[tile].cubes -= 1
    reached(state, "adjacent-removed")
    remove_cube(state, lane, seat, Text("the {tile} (adjacent)", tile=tile_name(state, tile)))
