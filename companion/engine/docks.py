"""A dock turn: deal with the boat's cube, take the boat, maybe advance an overseer
(R-TURN-DOCK-1…7, Q-5)."""

from __future__ import annotations

from ..words import Text, plain
from . import tasks as do
from .describe import tile_text
from .events import note, tile_name, who
from .flow import ASKED, choose, option, push, task
from .plague import payments, remove_cube
from .reach import reached
from .state import GameState


@task(do.BOAT_CUBE)
def _boat_cube(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-DOCK-4: pay the fire cost (counts as a removed cube, Q-5) or take 1 rat; either way the
    cube leaves the boat. A major fire here never reaches an adjacent cube (R-TURN-FIRE-7)."""
    seat = t["seat"]
    s = state.seats[seat]
    boat = next(b for b in state.docks[t["dock"]] if b.tile == t["boat"])
    if boat.cube:
        opts = [option({"fire": w["fire"], "major": w["major"]}, Text("Fight the boat's cube with {pay}",
                                                                      pay=w["text"]),
                       cost=w["text"]) for w in payments(state, seat, major_unlocks=False)]
        opts.append(option(None, Text("Take 1 rat instead")))  # no fire to pay with: taken for you
        pay = choose(state, lane, seat, "boat_cube", Text("The boat carries a plague cube"), opts, t, "R-TURN-DOCK-4")
        if pay is ASKED:
            return
        boat.cube = False
        if pay:
            reached(state, "boat-cube-fought")
            s.fire -= pay["fire"]
            s.major_fire -= pay["major"]
            push(state, lane, {"do": do.TAKE_BOAT, "seat": seat, "dock": t["dock"], "boat": t["boat"]})
            remove_cube(state, lane, seat, Text("the boat at the {dock}", dock=tile_name(state, t["dock"])))
            return
        reached(state, "boat-cube-rat")
        state.supply_cubes += 1
        s.rats += 1
        note(state, Text("{who} takes 1 rat for the boat's cube; the cube is discarded.", who=who(state, seat)),
             "R-TURN-DOCK-4")
    push(state, lane, {"do": do.TAKE_BOAT, "seat": seat, "dock": t["dock"], "boat": t["boat"]})


@task(do.TAKE_BOAT)
def _take_boat(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-DOCK-5…6: the boat's coins or VP; an even number of boats allows an overseer advance."""
    seat = t["seat"]
    s = state.seats[seat]
    state.docks[t["dock"]] = [b for b in state.docks[t["dock"]] if b.tile != t["boat"]]
    s.boats.append(t["boat"])
    boat = state.catalog.boats[t["boat"]]
    note(state, Text("{who} takes the {boat}.", who=who(state, seat), boat=tile_text(state, boat.id)),
         "R-TURN-DOCK-5")
    steps = [{"do": do.GAIN, "seat": seat, "reward": boat.reward.phrase,
              "why": plain(Text("the {boat}", boat=tile_text(state, boat.id)))}]
    if len(s.boats) % 2 == 0:
        reached(state, "even-boats")
        steps.append({"do": do.GAIN_ITEM, "seat": seat, "icon": "advance-any", "count": 1,
                      "why": plain(Text("an even number of boats ({n}), R-TURN-DOCK-6", n=len(s.boats)))})
    push(state, lane, *steps)


