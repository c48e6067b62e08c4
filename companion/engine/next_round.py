"""The next round's setup, in the rulebook's exact step order (R-NEXT-1…14), written as the upkeep
report: what the table must move, where, and why. After round VI, the final scoring instead (R-END-1).
"""

from __future__ import annotations

from ..words import Text, joined
from . import tasks as do
from .city import layout
from .describe import hex_text
from .draws import app_draws, stack_next
from .events import instruct, roman, tile_name, who
from .flow import push, task
from .reach import reached
from .registers import standing
from .rulebook import LATE_ERA_ROUND, ROUNDS
from .scoring import final_scoring
from .solo import first_mover, order_names, send_home
from .state import CLASSES, GameState, Hex, Place, Stack


@task(do.AFTER_ROUND)
def _after_round(state: GameState, t: dict, lane: str) -> None:
    """R-EOR-5 / R-END-1: round VI ends the game after production; otherwise set up the next round."""
    if state.round >= ROUNDS:
        final_scoring(state)
        return
    nxt = state.round + 1
    row = state.round_row(nxt)
    steps = [{"do": do.NEXT_ROUND}, {"do": do.LAY_DOWN}, {"do": do.CLEAR_PLAGUED}, {"do": do.PLAY_ORDER},
             {"do": do.BOAT_ARRIVES, "count": row.boats, "rule": "R-NEXT-5"}, {"do": do.NEW_HEX}]
    if nxt == LATE_ERA_ROUND:
        steps.append({"do": do.LATE_WORKSHOPS})
    if nxt < ROUNDS:  # R-NEXT-12: the last round is quiet
        steps.append({"do": do.WHEEL_STEP})
        if row.double_wheel:
            steps.append({"do": do.WHEEL_STEP, "double": True})
        steps.append({"do": do.CITIZENS_STEP})
    else:
        steps.append({"do": do.QUIET_ROUND})
    steps.append({"do": do.WAGONS_UP})
    if state.opponent is not None:
        steps.append({"do": do.SOLO_DECK})
    steps.append({"do": do.BEGIN_ROUND})
    push(state, lane, *steps)


@task(do.NEXT_ROUND)
def _next_round(state: GameState, t: dict, lane: str) -> None:
    state.round += 1
    instruct(state, Text("Set-up for round {round}: move the round counter to {round}.", round=roman(state.round)),
             "R-NEXT-1", ("round",))


@task(do.LAY_DOWN)
def _lay_down(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-2: every lieutenant in Messina lies down: unused, blocking nothing; those stood beside a
    board (recalled) are ready again. Boxed and supply figures are not in play and stay as they are.
    Solo: the opponent's figures go back to its board instead (R-SOLO-3, D-29). A line per seat, so
    each player lays down their own figures."""
    laid: dict[int, list[Place]] = {}
    for i, s in enumerate(state.seats):
        for lt in s.lieutenants:
            place = lt.place
            if not place.in_messina and place.kind != "estate":
                continue
            if lt.used and place.in_messina:
                laid.setdefault(i, []).append(place)
            lt.used = False
    if state.opponent is not None:
        home = send_home(state)
        if home:
            instruct(state, Text("Take the opponent's lieutenants off {places} and put them back on its board.",
                                 places=joined(tile_name(state, x) for x in home)), "R-SOLO-3", ("opponent:placed",),
                     hexes=home,
                     places=[str(Place.hex(x)) for x in home])
    for seat, places in laid.items():
        instruct(state, Text("{who}: lay your lieutenants down flat where they stand: {places}.", who=who(state, seat),
                             places=joined(tile_name(state, x.at) for x in places)), "R-NEXT-2",
                 (f"seat:{seat}:lieutenants",), places=[str(x) for x in places], seat=seat)
    if not laid:
        instruct(state, Text("No lieutenant stands on a hex or at a dock: nothing to lay down."), "R-NEXT-2")


@task(do.CLEAR_PLAGUED)
def _clear_plagued(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-3: citizens on a hex with a plague cube go back to the supply."""
    cleared, places = [], []
    for tile, h in sorted(state.hexes.items()):
        if h.cubes and h.citizens:
            cleared.append(Text("{tile} ({citizens})", tile=tile_name(state, tile),
                                citizens=joined(c.cls for c in h.citizens)))
            places.append(str(Place.hex(tile)))
            h.citizens = []
    if cleared:
        reached(state, "clear-plagued")
        instruct(state, Text("Return to the supply the citizens on plagued hexes: {hexes}.", hexes=joined(cleared,
                                                                                                          "; ")),
                 "R-NEXT-3", places=places)
    else:
        instruct(state, Text("No citizen stands on a plagued hex."), "R-NEXT-3")


@task(do.PLAY_ORDER)
def _play_order(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-4: order by the round's priority register (or the score track), ties to the counter on top."""
    if state.opponent is not None:
        first_mover(state)
        instruct(state, Text("Play order for round {round}: {names}; turns alternate.", round=roman(state.round),
                             names=joined(order_names(state))), "R-SOLO-4", ("order",), order=[0])
        return
    kind = state.priority(state.round)
    if kind == "score":
        reached(state, "order-by-score")
    if state.options.priority_tile:
        reached(state, "priority-tile")
    order = standing(state, kind)
    state.order = order
    names = joined(who(state, s) for s in order)  # each name with its letter in the reader's language
    text = (Text("Rearrange the play-order indicator by the scoring track: {names}.", names=names) if kind == "score"
            else Text("Rearrange the play-order indicator by the {kind} register: {names}.", kind=kind, names=names))
    instruct(state, text, "R-PRIO-1" if state.options.priority_tile else "R-NEXT-4", ("order",), order=order,
             register=kind)


@task(do.NEW_HEX)
def _new_hex(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-6/7, Q-22: the top expansion hex fills the first empty expansion space clockwise from the
    harbor named by this round's docking tile."""
    lay = layout(state)
    harbor = state.catalog.docks[state.catalog.docking_tiles[state.docked_at].dock].harbor
    filled = {h.space for h in state.hexes.values()}
    free = [x for x in lay.walk_from(harbor) if x not in filled]
    if not free:
        instruct(state, Text("Every expansion space is filled: no new hex."), "R-NEXT-6")
        return
    t = {**t, "places": [str(Place.space(free[0]))]}  # where it will go, marked while the host is asked
    assert state.expansion is not None, "a new hex before the expansion stack is made (setup)"
    ready, tile = stack_next(state, state.expansion, lane, t, Text("Which hex is on top of the expansion stack?"),
                             lambda x: hex_text(state, x), "R-NEXT-6")
    if not ready:
        return
    if tile is None:
        instruct(state, Text("The expansion stack is empty: no new hex."), "R-NEXT-6")
        return
    state.hexes[tile] = Hex(tile=tile, space=free[0])
    name, harbor = tile_name(state, tile), tile_name(state, harbor)
    instruct(state,
             Text("Take the {tile} from the expansion stack and put it face up on the marked expansion space (the "
                  "first empty one clockwise from the {harbor}).", tile=name, harbor=harbor)
             if app_draws(state) else
             Text("Add the top expansion hex, the {tile}, at the marked expansion space (the first empty one "
                  "clockwise from the {harbor}).", tile=name, harbor=harbor),
             "R-NEXT-6", ("stack:expansion",), tile=tile, space=free[0], places=[str(Place.hex(tile))])


@task(do.LATE_WORKSHOPS)
def _late_workshops(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-8: round V swaps the early workshops still on the scoreboard for the late stacks."""
    reached(state, "late-workshops")
    for cls in CLASSES:
        st = state.workshops[cls]
        state.pools[st.pool] = []  # the unseen early tiles leave the game with the rest
        pool = f"late-{cls}"
        state.workshops[cls] = Stack(pool=pool, hidden=len(state.pools[pool]))
    instruct(state,
             Text("Remove every workshop tile still on the scoreboard from the game, and put the 3 late (era II) "
                  "stacks face down on the scoreboard: the next steps name the workshop that lies face up on each.")
             if app_draws(state) else
             Text("Remove every workshop tile still on the scoreboard from the game, and set up the 3 late "
                  "(era II) stacks face down with the top of each face up."), "R-NEXT-8",
             tuple(f"stack:workshops-{cls}" for cls in CLASSES))
    push(state, lane, *({"do": do.REVEAL_FACE_UP, "what": "workshop", "index": cls, "rule": "R-NEXT-8"}
                        for cls in CLASSES))


@task(do.QUIET_ROUND)
def _quiet_round(state: GameState, t: dict, lane: str) -> None:
    reached(state, "quiet-round")
    instruct(state, Text("Round VI: the plague abates. No wheel turn, no plague cubes and no citizens for the "
                         "neighborhoods (boats still bring cubes)."), "R-NEXT-12")


@task(do.WAGONS_UP)
def _wagons_up(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-13: used wagons are turned face up again."""
    flipped = []
    for i, s in enumerate(state.seats):
        for w in s.wagons:
            if w.used:
                w.used = False
                if i not in flipped:
                    flipped.append(i)
    if flipped:
        reached(state, "wagons-up")
        instruct(state, Text("Turn used wagons face up again: {names}.", names=joined(who(state, i) for i in flipped)),
                 "R-NEXT-13", tuple(f"seat:{i}:wagon" for i in flipped))


