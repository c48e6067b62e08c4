"""End of round and next-round setup (R-EOR-1…5, R-CIT-3, R-NEXT-1…14).

Production and leaving quarantine run in one lane per seat, so every phone answers its own questions
at once; the next-round setup then runs in the rulebook's exact step order and writes the upkeep
report: what the table must move, where, and why.
"""

from __future__ import annotations

from . import tasks as do
from .city import layout
from .estate import late_reward_check, move_to_workshop, workshop_moves
from .events import instruct, note, tile_name, who
from .flow import MAIN, ask, option, push, run, task
from .gain import add_vp, gain
from .registers import standing
from .setup import roman
from .state import CLASSES, GameState, Stack
from ..words import T, joined


def start_upkeep(state: GameState) -> None:
    """The round's turns are over: produce, advance quarantine, set up the next round (or score)."""
    push(state, MAIN, {"do": do.END_ROUND})
    run(state)


@task(do.END_ROUND)
def _end_round(state: GameState, t: dict, lane: str) -> None:
    state.phase = "upkeep"
    state.report = []
    instruct(state, T("Round {round} is over: production.", round=roman(state.round)), "R-EOR-1")
    state.all_at_once()  # R-EOR-1: everyone produces at once; counters stack in play order (C-9)
    for seat in state.order:
        push(state, str(seat), {"do": do.PRODUCE, "seat": seat})
    after = [{"do": do.QUARANTINE}] if state.round < 6 else []  # no quarantine step after round VI
    push(state, lane, *after, {"do": do.RESOLVE_HELD}, {"do": do.AFTER_ROUND})


@task(do.PRODUCE)
def _produce(state: GameState, t: dict, lane: str) -> None:
    """R-EOR-2…3; before collecting, a seat may still move citizens into workshops (R-CIT-4)."""
    seat = t["seat"]
    moves = workshop_moves(state, seat)
    if moves and t.get("pick") != "collect":
        if "pick" not in t:
            s = state.seats[seat]
            opts = [option(mv, T("First move the {cls} on {square} into workshop {workshop}",
                                 cls=s.squares[mv["square"]].cls, square=mv["square"],
                                 workshop=s.workshops[mv["workshop"]].tile)) for mv in moves]
            opts.append(option("collect", T("Collect production")))
            ask(state, lane, seat, "production", T("Production: move citizens into workshops first, or collect?"),
                opts, t, "R-CIT-4")
            return
        push(state, lane, {"do": do.PRODUCE, "seat": seat})
        # pushed after, so a late workshop's one-time reward is taken before the next question
        move_to_workshop(state, lane, seat, t["pick"]["square"], t["pick"]["workshop"])
        return
    collect(state, lane, seat)


def collect(state: GameState, lane: str, seat: int) -> None:
    c = state.catalog
    s = state.seats[seat]
    lines = []
    gains = []
    for i, cab in enumerate(s.cabins):
        if cab.citizen and cab.improvement:
            imp = c.improvements[cab.improvement]
            if imp.cls is None or imp.cls == cab.citizen.cls:
                gains.append((imp.output.phrase, T("cabin {n}", n=i + 1)))
                lines.append(T("cabin {n}: {output}", n=i + 1, output=imp.output.text()))
    bonus = 0
    for ws in s.workshops:
        if ws.citizen is None:
            continue
        tile = c.workshops[ws.tile]
        if tile.era == 1 and (ws.citizen.upgraded or not tile.needs_upgraded):
            out = tile.upgraded_output if ws.citizen.upgraded and tile.upgraded_output else tile.output
            gains.append((out.phrase, T("workshop {workshop}", workshop=ws.tile)))
            lines.append(T("workshop {workshop}: {output}", workshop=ws.tile, output=out.text()))
        if ws.citizen.upgraded:
            bonus += 1
    if bonus:
        add_vp(state, seat, bonus)
        lines.append(T("{n} VP for upgraded citizens in workshops", n=bonus))
    text = joined(lines, "; ") if lines else T("nothing")
    instruct(state, T("{who} produces: {what}.", who=who(state, seat), what=text), "R-EOR-2", seat=seat)
    for phrase, why in reversed(gains):
        gain(state, lane, seat, phrase, why)


@task(do.RESOLVE_HELD)
def _resolve_held(state: GameState, t: dict, lane: str) -> None:
    """Builds and any-hex actions earned in production or while leaving quarantine touch shared tiles:
    resolve them once both are over, in play order, before the next round's setup (R-EOR-1 "where order
    matters, use the current play order"; C-4)."""
    state.together = 0  # from here on, one seat at a time again
    held = sorted(state.held, key=lambda h: state.order.index(h["seat"]))
    state.held = []
    push(state, lane, *({"do": do.GAIN_ITEM, **h} for h in held))


@task(do.QUARANTINE)
def _quarantine(state: GameState, t: dict, lane: str) -> None:
    """R-EOR-4 / R-CIT-3: space II leaves quarantine, space I moves to II."""
    instruct(state, T("Quarantine: citizens in space II leave their cabin; citizens in space I move to space II."),
             "R-CIT-3")
    state.all_at_once()
    for seat in state.order:
        s = state.seats[seat]
        leaving = []
        for cab in s.cabins:
            if cab.citizen and cab.space == 2:
                leaving.append(cab.citizen.to_dict())
                cab.citizen, cab.space = None, 0
            elif cab.citizen:
                cab.space = 2
        if leaving:
            push(state, str(seat), *({"do": do.LEAVE_QUARANTINE, "seat": seat, "citizen": c} for c in leaving))


@task(do.LEAVE_QUARANTINE)
def _leave(state: GameState, t: dict, lane: str) -> None:
    """R-CIT-3: to an empty square of its sector or an empty workshop of its class; no room: discard (Q-7)."""
    from .state import Citizen

    seat = t["seat"]
    s = state.seats[seat]
    cit = Citizen.from_dict(t["citizen"])
    board = state.catalog.boards[s.board]
    squares = [q.id for q in board.sector(cit.cls) if q.id not in s.squares]
    shops = [i for i, ws in enumerate(s.workshops)
             if ws.citizen is None and state.catalog.workshops[ws.tile].cls == cit.cls]
    places = [["square", q] for q in squares] + [["workshop", i] for i in shops]
    if not places:
        instruct(state, T("{who}'s {cls} leaves quarantine but finds no room: discard it.", who=who(state, seat),
                          cls=cit.cls), "Q-7")
        return
    if "pick" not in t and len(places) == 1:  # C-10: a forced choice is taken for you
        t = {**t, "pick": places[0]}
    if "pick" not in t:
        opts = [option(p, T("Square {square} ({reward})", square=p[1], reward=board.square(p[1]).reward.text())
                       if p[0] == "square" else T("Workshop {workshop}", workshop=s.workshops[p[1]].tile))
                for p in places]
        prompt = (T("Your upgraded {cls} leaves quarantine: where does it go?", cls=cit.cls) if cit.upgraded
                  else T("Your {cls} leaves quarantine: where does it go?", cls=cit.cls))
        ask(state, lane, seat, "leave_quarantine", prompt, opts, t, "R-CIT-3")
        return
    kind, at = t["pick"]
    if kind == "square":
        s.squares[at] = cit
        note(state, T("{who}'s {cls} leaves quarantine for square {square}.", who=who(state, seat), cls=cit.cls,
                      square=at), "R-CIT-3")
    else:
        s.workshops[at].citizen = cit
        note(state, T("{who}'s {cls} leaves quarantine for workshop {workshop}.", who=who(state, seat), cls=cit.cls,
                      workshop=s.workshops[at].tile), "R-CIT-3")
        late_reward_check(state, lane, seat, at)


@task(do.AFTER_ROUND)
def _after_round(state: GameState, t: dict, lane: str) -> None:
    """R-EOR-5 / R-END-1: round VI ends the game after production; otherwise set up the next round."""
    if state.round >= 6:
        from .scoring import final_scoring

        final_scoring(state)
        return
    nxt = state.round + 1
    row = state.round_row(nxt)
    steps = [{"do": do.NEXT_ROUND}, {"do": do.LAY_DOWN}, {"do": do.CLEAR_PLAGUED}, {"do": do.PLAY_ORDER},
             {"do": do.BOAT_ARRIVES, "count": row.boats, "rule": "R-NEXT-5"}, {"do": do.NEW_HEX}]
    if nxt == 5:
        steps.append({"do": do.LATE_WORKSHOPS})
    if nxt < 6:
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
    instruct(state, T("Set-up for round {round}: move the round counter to {round}.", round=roman(state.round)),
             "R-NEXT-1")


@task(do.LAY_DOWN)
def _lay_down(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-2: every lieutenant in Messina lies down: unused, blocking nothing; those stood beside a
    board (recalled) are ready again. Boxed and supply figures are not in play and stay as they are.
    Solo: the opponent's figures go back to its board instead (R-SOLO-3, D-29)."""
    laid = []
    for i, s in enumerate(state.seats):
        for lt in s.lieutenants:
            kind = lt.where.partition(":")[0]
            if kind not in ("hex", "dock", "estate"):
                continue
            if lt.used and kind != "estate":
                laid.append(lt.where.partition(":")[2])
            lt.used = False
    if state.opponent is not None:
        from .solo import send_home

        home = send_home(state)
        if home:
            instruct(state, T("Take the opponent's lieutenants off {places} and put them back on its board.",
                              places=joined(tile_name(state, x) for x in home)), "R-SOLO-3", hexes=home)
        if laid:
            instruct(state, T("Lay {who}'s lieutenants down flat where they stand: {places}.", who=who(state, 0),
                              places=joined(tile_name(state, x) for x in laid)), "R-NEXT-2", places=laid)
    elif laid:
        instruct(state, T("Lay every lieutenant on a hex or at a dock down flat."), "R-NEXT-2", places=laid)
    if not laid:
        instruct(state, T("No lieutenant stands on a hex or at a dock: nothing to lay down."), "R-NEXT-2")


@task(do.CLEAR_PLAGUED)
def _clear_plagued(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-3: citizens on a hex with a plague cube go back to the supply."""
    cleared = []
    for tile, h in sorted(state.hexes.items()):
        if h.cubes and h.citizens:
            cleared.append(T("{tile} ({citizens})", tile=tile_name(state, tile),
                             citizens=joined(c.cls for c in h.citizens)))
            h.citizens = []
    if cleared:
        instruct(state, T("Return to the supply the citizens on plagued hexes: {hexes}.", hexes=joined(cleared, "; ")),
                 "R-NEXT-3")
    else:
        instruct(state, T("No citizen stands on a plagued hex."), "R-NEXT-3")


@task(do.PLAY_ORDER)
def _play_order(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-4: order by the round's priority register (or the score track), ties to the counter on top."""
    if state.opponent is not None:
        from .solo import first_mover, order_names

        first_mover(state)
        instruct(state, T("Play order for round {round}: {names}; turns alternate.", round=roman(state.round),
                          names=", ".join(order_names(state))), "R-SOLO-4", order=[0])
        return
    kind = state.priority(state.round)
    order = standing(state, kind)
    state.order = order
    names = ", ".join(who(state, s) for s in order)
    text = (T("Play order by the scoring track: {names}.", names=names) if kind == "score"
            else T("Play order by the {kind} register: {names}.", kind=kind, names=names))
    instruct(state, text, "R-PRIO-1" if state.options.priority_tile else "R-NEXT-4", order=order, register=kind)


@task(do.NEW_HEX)
def _new_hex(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-6/7, Q-22: the top expansion hex fills the first empty expansion space clockwise from the
    harbor named by this round's docking tile."""
    from .draws import stack_next
    from .state import Hex

    lay = layout(state)
    harbor = state.catalog.docks[state.catalog.docking_tiles[state.docked_at].dock].harbor
    filled = {h.space for h in state.hexes.values()}
    free = [x for x in lay.walk_from(harbor) if x not in filled]
    if not free:
        instruct(state, T("Every expansion space is filled: no new hex."), "R-NEXT-6")
        return
    ready, tile = stack_next(state, state.expansion, lane, t, T("hex is on top of the expansion stack"),
                             lambda x: tile_name(state, x), "R-NEXT-6")
    if not ready:
        return
    if tile is None:
        instruct(state, T("The expansion stack is empty: no new hex."), "R-NEXT-6")
        return
    state.hexes[tile] = Hex(tile=tile, space=free[0])
    instruct(state, T("Add the top expansion hex, {tile}, at expansion space {space} (the first empty one clockwise "
                      "from {harbor}).", tile=tile_name(state, tile), space=free[0], harbor=tile_name(state, harbor)),
             "R-NEXT-6", tile=tile, space=free[0])


@task(do.LATE_WORKSHOPS)
def _late_workshops(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-8: round V swaps the early workshops still on the scoreboard for the late stacks."""
    for cls in CLASSES:
        st = state.workshops[cls]
        state.pools[st.pool] = []  # the unseen early tiles leave the game with the rest
        pool = f"late-{cls}"
        state.workshops[cls] = Stack(pool=pool, hidden=len(state.pools[pool]))
    instruct(state, T("Remove every workshop tile still on the scoreboard from the game, and set up the 3 late "
                      "(era II) stacks face down with the top of each face up."), "R-NEXT-8")
    push(state, lane, *({"do": do.REVEAL_FACE_UP, "what": "workshop", "index": cls, "rule": "R-NEXT-8"}
                        for cls in CLASSES))


@task(do.QUIET_ROUND)
def _quiet_round(state: GameState, t: dict, lane: str) -> None:
    instruct(state, T("Round VI: the plague abates. No wheel turn, no plague cubes and no citizens for the "
                      "neighborhoods (boats still bring cubes)."), "R-NEXT-12")


@task(do.WAGONS_UP)
def _wagons_up(state: GameState, t: dict, lane: str) -> None:
    """R-NEXT-13: used wagons are turned face up again."""
    flipped = []
    for i, s in enumerate(state.seats):
        for w in s.wagons:
            if w.used:
                w.used = False
                flipped.append(who(state, i))
    if flipped:
        instruct(state, T("Turn used wagons face up again: {names}.", names=", ".join(sorted(set(flipped)))),
                 "R-NEXT-13")


