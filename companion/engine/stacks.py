"""The face-down stacks of a new game (R-SETUP-3…13): the expansion stack, tokens and plague cubes, the
docking pile, boats, cabin improvements, workshops and wagons, told as the table lays them out. Their
face-up tops turn up next (offer.py)."""

from __future__ import annotations

from ..words import Text, joined
from . import tasks as do
from .describe import tile_text
from .draws import app_draws
from .events import instruct, tile_name
from .flow import task
from .rulebook import CUBES, PLAGUE_CUBES
from .state import CLASSES, GameState, Stack, WagonStack


@task(do.SETUP_STACKS)
def _stacks(state: GameState, t: dict, lane: str) -> None:
    """R-SETUP-3…13: expansion stack, tokens, cubes, docking pile, boats, improvements, workshops, wagons.
    When the companion draws, it names every face-down tile as it turns up, so the table shuffles nothing:
    it lays each stack face down and later finds the tile named (C-22)."""
    _city_stacks(state)
    _tile_stacks(state)
    _wagons(state)
    instruct(state, Text("Use the {side} side of the scoreboard; put the round counter on space I.", side=state.side),
             "R-SETUP-12")
    if state.options.priority_tile:
        instruct(state, Text("Cover the first column of the round info table with the register priority tile."),
                 "R-SETUP-13")


def _city_stacks(state: GameState) -> None:
    """R-SETUP-3…5, 7: the expansion stack, the unlimited tokens, the plague cubes, the docking pile."""
    c = state.catalog
    n = state.players
    app = app_draws(state)
    b_left = [h.id for h in c.hexes.values() if h.cls == "B" and h.id not in state.hexes]
    cs = sorted(h.id for h in c.hexes.values() if h.cls == "C")
    state.pools["expansion"] = cs
    state.expansion = Stack(pool="expansion", top=b_left, hidden=len(cs))
    tile = tile_name(state, b_left[0])
    instruct(state, Text("Expansion stack: put the {n} C hexes face down in a pile and the other B hex, {tile}, face "
                         "down on top. The companion names each hex as it is added.", n=len(cs), tile=tile) if app else
             Text("Expansion stack: shuffle the {n} C hexes face down and put the other B hex, {tile}, face down "
                  "on top.", n=len(cs), tile=tile), "R-SETUP-3", ("stack:expansion",))
    instruct(state, Text("Keep fire, major fire, rat, lumber, coin and citizen tokens within reach."), "R-SETUP-4")
    state.supply_cubes = CUBES[n]
    instruct(state, Text("Use {n} plague cubes; return the other {rest} to the box.", n=CUBES[n],
                         rest=PLAGUE_CUBES - CUBES[n])
             if CUBES[n] < PLAGUE_CUBES else Text("Use {n} plague cubes.", n=CUBES[n]), "R-SETUP-5", ("supply",))
    state.pools["docking"] = sorted(c.docking_tiles)
    state.docking = Stack(pool="docking", hidden=len(c.docking_tiles))
    state.docks = {d: [] for d in c.docks}
    instruct(state, Text("Put the 4 docking tiles face down in a pile. The companion names the one drawn each "
                         "round.") if app else Text("Shuffle the 4 docking tiles into a face-down pile."), "R-SETUP-7",
             ("stack:docking",))


def _tile_stacks(state: GameState) -> None:
    """R-SETUP-8, 9, 11: boats, improvements, workshops (their face-up tops follow: REVEAL_FACE_UP)."""
    c = state.catalog
    n = state.players
    app = app_draws(state)
    boats = [b for b in c.boats.values() if n > 2 or b.cargo != "stones"]
    for back in sorted({b.back for b in boats}):
        group = sorted(b.id for b in boats if b.back == back)
        state.pools[f"boats-{back}"] = group
        state.boats.append(Stack(pool=f"boats-{back}", hidden=len(group)))
    if n <= 2:
        gone = sorted(b.id for b in c.boats.values() if b.cargo == "stones")
        instruct(state, Text("Return the boats carrying precious stones to the box ({boats}).",
                             boats=joined([tile_text(state, b) for b in gone])), "R-SETUP-8")
    instruct(state,
             Text("Sort the {n} boats by the number on the back into face-down groups and stack them with group 1 "
                  "on top, beside the scoreboard. The companion names each boat as it arrives.", n=len(boats))
             if app else Text("Sort the {n} boats by the number on the back, shuffle each group and stack them with "
                              "group 1 on top, beside the scoreboard.", n=len(boats)), "R-SETUP-8",
             tuple(f"stack:boats-{i}" for i in range(1, len(state.boats) + 1)))
    state.pools["improvements"] = sorted(c.improvements)
    per = len(c.improvements) // 3
    state.improvements = [Stack(pool="improvements", hidden=per) for _ in range(3)]
    instruct(state, Text("Lay the {n} cabin improvements face down beside the scoreboard: the next steps name the 3 "
                         "that lie face up, one on each stack.", n=len(c.improvements)) if app else
             Text("Deal the cabin improvements at random into 3 face-down stacks of {n}; turn up the top of each.",
                  n=per), "R-SETUP-9", ("stack:improvements-1", "stack:improvements-2", "stack:improvements-3"))
    for cls in CLASSES:
        early = sorted(w.id for w in c.workshops.values() if w.era == 1 and w.cls == cls)
        late = sorted(w.id for w in c.workshops.values() if w.era == 2 and w.cls == cls)
        state.pools[f"workshops-{cls}"] = early
        state.pools[f"late-{cls}"] = late
        state.workshops[cls] = Stack(pool=f"workshops-{cls}", hidden=len(early))
    instruct(state, Text("Sort the workshops by era and class into 6 face-down stacks. Put the 3 era I stacks on the "
                         "scoreboard (the next steps name the workshop that lies face up on each) and set the era II "
                         "stacks aside until round V.") if app else
             Text("Sort the workshops by era and class into 6 stacks and shuffle each. Put the 3 era I stacks face "
                  "down on the scoreboard and turn up the top of each; set the era II stacks aside until round V."),
             "R-SETUP-11", tuple(f"stack:workshops-{cls}" for cls in CLASSES))


def _wagons(state: GameState) -> None:
    """R-SETUP-10: one wagon of each back-numbered pair per stack; 2 stacks, 1 with two players or solo."""
    c = state.catalog
    for back in sorted({w.back for w in c.wagons.values()}):
        state.pools[f"wagons-{back}"] = sorted(w.id for w in c.wagons.values() if w.back == back)
    backs = sorted({w.back for w in c.wagons.values()})
    stacks = 1 if state.players <= 2 else 2
    state.wagon_stacks = [WagonStack(backs=list(backs)) for _ in range(stacks)]
    if app_draws(state):
        text = (Text("Sort the wagons face down into their 5 pairs by the number on the back. One wagon stack is used: "
                     "the companion names the wagon of each pair that turns up on it, wagon 1 first.") if stacks == 1
                else Text("Sort the wagons face down into their 5 pairs by the number on the back, for 2 wagon stacks: "
                          "the companion names the wagon that turns up on each, wagon 1 first."))
    else:
        text = Text("Split the wagons into their 5 back-numbered pairs; build two stacks with one random wagon of "
                    "each pair, wagon 1 face up on top and 2…5 below.")
        if stacks == 1:
            text = Text("{text} Return one stack to the box unseen: one wagon is available at a time.", text=text)
    instruct(state, text, "R-SETUP-10", tuple(f"wagons:{i}" for i in range(1, stacks + 1)))
