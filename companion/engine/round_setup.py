"""The steps every round's setup shares, round I's (setup.py) and the later rounds' (next_round.py): a
boat docks, the wheel turns and brings plague and citizens, and turns begin (R-R1-1…3, R-NEXT-5…14)."""

from __future__ import annotations

from typing import cast

from ..words import Text, joined, put_text
from . import tasks as do
from .city import add_citizens, add_cubes, berth, turn_wheel
from .describe import tile_text
from .draws import app_draws, stack_next
from .events import instruct, roman, tile_name, who
from .flow import ASKED, choose, option, push, task
from .reach import reached
from .records import Step
from .solo import order_names
from .state import BoatAtDock, GameState, Place
from .turns import start_turns


@task(do.BOAT_ARRIVES)
def boat_arrives(state: GameState, t: dict, lane: str) -> None:
    """R-R1-1 / R-NEXT-5: draw a docking tile (reshuffling all 4 when the pile is empty), then the top
    boat (with a cube if the supply has one, Q-6) docks there or at the next dock clockwise."""
    if "dock" not in t:
        pile = state.docking
        assert pile is not None, "a boat arrives before the docking pile is made (setup)"
        if len(pile) == 0:
            reached(state, "docking-reshuffle")
            state.pools["docking"] = sorted(state.catalog.docking_tiles)
            pile.hidden = len(state.pools["docking"])
            instruct(state, Text("The docking pile is empty: put all 4 docking tiles face down as a new pile.")
                     if app_draws(state) else
                     Text("The docking pile is empty: shuffle all 4 docking tiles into a new pile."), "R-NEXT-5",
                     ("stack:docking",))
        ready, tile = stack_next(state, pile, lane, t, Text("Which docking tile was drawn?"), rule="R-NEXT-5")
        if not ready:
            return
        assert tile is not None, "the docking pile was made again when empty"
        state.docked_at = tile
        t = {k: v for k, v in t.items() if k != "pick"}
        t["dock"] = state.catalog.docking_tiles[tile].dock
        harbor = state.catalog.docks[t["dock"]].harbor
        name = tile_name(state, tile)
        instruct(state, Text("Take the {tile} from the docking pile.", tile=name) if app_draws(state) else
                 Text("Draw a docking tile: the {tile}.", tile=name), t.get("rule", "R-NEXT-5"), ("stack:docking",),
                 tile=tile, places=[str(Place.hex(harbor))])
    count = t.get("count", 1)
    i = next((i for i, stack in enumerate(state.boats) if len(stack)), None)  # the first stack with a boat
    if i is None:
        instruct(state, Text("The boat stack is empty: no boat arrives."), "R-NEXT-5")
        return
    stack = state.boats[i]
    ready, boat = stack_next(state, stack, lane, t, Text("Which boat is on top of the boat stack?"),
                             None, "R-SETUP-8")
    if not ready:
        return
    dock = berth(state, t["dock"])
    # the stack had a boat; and the docks' spaces outnumber the boats that stay in the city (emptied each round)
    assert boat is not None and dock is not None, "a boat arrives with no boat on the stack or no free dock"
    cube = state.supply_cubes > 0
    if cube:
        state.supply_cubes -= 1
    state.docks[dock].append(BoatAtDock(boat, cube))
    if dock != t["dock"]:
        reached(state, "boat-overflow")
    where = (Text("the marked dock") if dock == t["dock"] else
             Text("the marked dock (the {drawn} is full, so the next dock clockwise)", drawn=tile_name(state,
                                                                                                       t["dock"])))
    text = (Text("Put the {boat} face up at {where} with 1 plague cube on it.", boat=tile_text(state, boat),
                 where=where)
            if cube else Text("Put the {boat} face up at {where}; the cube supply is empty, so no cube (Q-6).",
                              boat=tile_text(state, boat), where=where))
    instruct(state, text, t.get("rule", "R-NEXT-5"), (f"stack:boats-{i + 1}", "supply"), boat=boat, dock=dock,
             places=[str(Place.dock(dock))])
    if count > 1:
        reached(state, "two-boats")
        push(state, lane, {"do": do.BOAT_ARRIVES, "dock": t["dock"], "count": count - 1, "rule": "R-NEXT-5"})


@task(do.WHEEL_STEP)
def wheel_step(state: GameState, t: dict, lane: str) -> None:
    """R-R1-2 / R-NEXT-9: turn the wheel and add cubes; a double-wheel round does it twice (Q-3)."""
    if t.get("double"):
        reached(state, "double-wheel")
        instruct(state, Text("This round shows the double-wheel icon: turn the wheel once more and add cubes again."),
                 "R-NEXT-9")
    turn_wheel(state)
    add_cubes(state)


@task(do.CITIZENS_STEP)
def citizens_step(state: GameState, t: dict, lane: str) -> None:
    add_citizens(state)


@task(do.BEGIN_ROUND)
def begin_round(state: GameState, t: dict, lane: str) -> None:
    """The round's setup is done: turns begin in play order (R-NEXT-14, R-ROUND-2). Not before the host says
    the table has carried out the setup steps or the upkeep report: a table still moving pieces must not be
    told to play (C-18; round I since issue 25, `hold_setup`)."""
    if "pick" not in t:
        if state.opponent is not None:
            names = joined(order_names(state))  # "the opponent" stays translatable
        else:
            names = joined(who(state, s) for s in state.order)
        instruct_to = state.setup_steps if state.round == 1 else state.report
        text = Text("Round {round} begins. Play order: {names}.", round=roman(state.round), names=names)
        step = cast(Step, put_text({"step": len(instruct_to) + 1}, "text", text))
        step["rule"] = "R-NEXT-14" if state.round > 1 else "R-ROUND-2"
        instruct_to.append(step)
    if state.hold_setup if state.round == 1 else state.hold_upkeep:
        ready = [option("ready", Text("The table is ready: start round {round}", round=roman(state.round)))]
        prompt = (Text("Carry out the setup steps on the table, then start round I.") if state.round == 1 else
                  Text("Carry out the upkeep above on the table, then start round {round}.", round=roman(state.round)))
        if choose(state, lane, "host", "table_ready", prompt, ready, t,
                  "R-NEXT-14" if state.round > 1 else "C-18", forced=False) is ASKED:
            return
    state.phase = "play"
    start_turns(state, lane)
