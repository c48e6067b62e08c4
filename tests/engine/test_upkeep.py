"""End of round and next-round setup: production (R-EOR-1…3), quarantine (R-CIT-3, Q-7, Q-8), register
advances and late rewards in production (R-REG-8, Q-9), and the setup steps R-NEXT-1…14.

Values are read from the catalog (companion/catalog/data); only what the rulebook fixes is written here.
"""

from __future__ import annotations

import pytest

from companion.engine import pending, start_upkeep
from companion.engine.invariants import broken
from companion.simulate import play_game

from scenario import (CUBES_IN_PLAY, add_wagon, add_workshop, answer_all, available, boats_at_docks, 
                      cubes, cubes_in_play, dock_of, empty_docking_pile, fill_dock, fill_sector,
                      game, give, harbor_of, in_cabin, neighbourhoods, next_docking, next_expansion, on_square,
                      only_the_table_is_asked, open_decisions, pick, place_hex, repopulate, report_with,
                      set_registers, set_round, squares_of, take_boat, to_upkeep, upkeep)
from scenario import FIELD, bare, early_workshop, plain

COUNTED = ("coins", "lumber", "fire", "major_fire", "vp", "rats")


# --- helpers -------------------------------------------------------------------------------------


def gains(bundle) -> dict[str, int]:
    """What a token/VP bundle adds to a seat, by seat field."""
    out = {f: 0 for f in COUNTED}
    for item in bundle.items:
        out[FIELD[item.icon]] += item.count
    return out


def reward_gains(reward) -> dict[str, int]:
    assert plain(reward), reward
    return gains(reward.options[0])


def snap(state, seat: int) -> dict[str, int]:
    s = state.seats[seat]
    return {f: getattr(s, f) for f in COUNTED}


def delta(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in before}


def produced(state, *seats: int) -> list[dict]:
    """Run the upkeep (every choice answered with the first option) and say what each seat gained by it."""
    before = [snap(state, i) for i in seats]
    upkeep(state)
    return [delta(b, snap(state, i)) for b, i in zip(before, seats)]


def plus(*ds: dict) -> dict:
    out = {f: 0 for f in COUNTED}
    for d in ds:
        for k, v in d.items():
            out[k] += v
    return out


def vp(n: int) -> dict:
    return plus({"vp": n})


NOTHING = {f: 0 for f in COUNTED}


def improvement(cat, restricted: bool, choice: bool = False):
    for imp in cat.improvements.values():
        if (imp.cls is not None) != restricted:
            continue
        if choice and imp.output.is_choice and all(all(i.icon in FIELD for i in b.items)
                                                    for b in imp.output.options):
            return imp
        if not choice and plain(imp.output):
            return imp
    raise AssertionError("the catalog has no such improvement")


def late_workshop(cat, needs_upgraded=False, register=False):
    for w in sorted(cat.workshops.values(), key=lambda w: w.id):
        if w.era != 2 or w.needs_upgraded != needs_upgraded:
            continue
        icons = w.reward.icons()
        if register and not w.reward.is_choice and icons & {"city", "church"} and icons <= {"city", "church", "vp"} \
                | set(FIELD):
            return w
        if not register and plain(w.reward):
            return w
    raise AssertionError("the catalog has no such late workshop")


def ring_docks(state) -> list[str]:
    """Docks in the clockwise order of their harbors around the city (layout ring)."""
    lay = state.catalog.layout_for(state.players)
    by_harbor = {d.harbor: d.id for d in state.catalog.docks.values()}
    return [by_harbor[h] for h in lay.ring if h in by_harbor]


def next_clockwise_dock(state, dock: str) -> str:
    order = ring_docks(state)
    return order[(order.index(dock) + 1) % len(order)]


def first_free_expansion(state, harbor: str) -> str:
    """R-NEXT-6: the first unfilled expansion space going clockwise from a harbor."""
    lay = state.catalog.layout_for(state.players)
    i = lay.ring.index(harbor)
    walk = list(lay.ring[i + 1:]) + list(lay.ring[:i])
    filled = {h.space for h in state.hexes.values()}
    return next(x for x in walk if x in lay.expansion and x not in filled)


def known_next_hex(state) -> str:
    """Fix the next expansion hex (the top known one, else the first unseen) and return it."""
    st = state.expansion
    if st.top:
        return st.top[0]
    tile = sorted(state.pools[st.pool])[0]
    next_expansion(state, tile)
    return tile


def due(state, window_index: int, extra: list[str] = ()) -> list[str]:
    """Neighborhood hexes showing the rat of a wheel window (plus hexes about to be placed)."""
    cat = state.catalog
    rat = cat.wheel[window_index % len(cat.wheel)].rat
    return sorted(t for t in list(neighbourhoods(state)) + list(extra) if cat.hexes[t].rat == rat)


def new_boats(before: list[str], state) -> list[tuple[str, object]]:
    return [(d, b) for d, boats in state.docks.items() for b in boats if b.tile not in before]


def round_where(state, pred) -> int:
    for r in range(2, 7):
        if pred(state.round_row(r)):
            return r
    raise AssertionError("no round of the round info table fits")


def new_hex_of(state, before: set[str]) -> str:
    added = [t for t in state.hexes if t not in before]
    assert len(added) == 1, added
    return added[0]


# --- production: cabins and workshops (R-EOR-2, R-EOR-3, R-BUILD-6) ------------------------------

def test_R_EOR_2_citizen_in_improved_cabin_yields_the_improvement_output():
    state = bare()
    cat = state.catalog
    imp = improvement(cat, restricted=False)
    in_cabin(state, 0, 0, "craftsman", space=1, improvement=imp.id)
    in_cabin(state, 0, 1, "nun", space=2, improvement=imp.id)  # space II produces too
    in_cabin(state, 0, 2, "aristocrat", space=1)                 # unimproved: nothing
    in_cabin(state, 0, 3, None, improvement=imp.id)              # empty: nothing
    out = reward_gains(imp.output)
    assert produced(state, 0) == [plus(out, out)]


def test_R_EOR_2_class_restricted_improvement_yields_nothing_for_another_class():
    state = bare()
    imp = improvement(state.catalog, restricted=True)
    other = next(c for c in ("aristocrat", "nun", "craftsman") if c != imp.cls)
    in_cabin(state, 0, 0, other, improvement=imp.id)
    in_cabin(state, 1, 0, imp.cls, improvement=imp.id)
    assert produced(state, 0, 1) == [NOTHING, reward_gains(imp.output)]


def test_Q_23_upgraded_citizen_in_cabin_gets_no_extra_vp():
    state = bare()
    imp = improvement(state.catalog, restricted=False)
    in_cabin(state, 0, 0, "nun", improvement=imp.id, upgraded=True)
    assert produced(state, 0) == [reward_gains(imp.output)]


def test_R_EOR_3_early_workshop_regular_and_upgraded_output_with_1_vp_for_upgraded():
    state = bare()
    ws = early_workshop(state.catalog, needs_upgraded=False, two_level=True)
    add_workshop(state, 0, ws.id, ws.cls)
    add_workshop(state, 1, ws.id, ws.cls, upgraded=True)
    assert produced(state, 0, 1) == [reward_gains(ws.output), plus(reward_gains(ws.upgraded_output), vp(1))]


def test_R_EOR_3_early_workshop_without_upgraded_level_keeps_output_for_upgraded_citizen():
    state = bare()
    cat = state.catalog
    ws = next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and not w.needs_upgraded and w.upgraded_output is None and plain(w.output))
    add_workshop(state, 0, ws.id, ws.cls, upgraded=True)
    assert produced(state, 0) == [plus(reward_gains(ws.output), vp(1))]


def test_R_EOR_3_upgraded_citizen_in_late_workshop_yields_only_1_vp():
    state = bare()
    late = late_workshop(state.catalog)
    add_workshop(state, 0, late.id, late.cls, upgraded=True, spent=True)
    add_workshop(state, 1, late.id, late.cls, upgraded=False, spent=True)
    assert produced(state, 0, 1) == [vp(1), NOTHING]


def test_R_EOR_3_one_vp_per_upgraded_citizen_in_each_workshop():
    state = bare()
    cat = state.catalog
    late = late_workshop(cat)
    ws = early_workshop(cat, needs_upgraded=False, two_level=True)
    add_workshop(state, 0, late.id, late.cls, upgraded=True, spent=True)
    add_workshop(state, 0, late.id, late.cls, upgraded=True, spent=True)
    add_workshop(state, 0, ws.id, ws.cls, upgraded=True)
    assert produced(state, 0) == [plus(reward_gains(ws.upgraded_output), vp(3))]


def test_R_BUILD_6_needs_upgraded_workshop_with_regular_citizen_yields_nothing():
    state = bare()
    ws = early_workshop(state.catalog, needs_upgraded=True)
    add_workshop(state, 0, ws.id, ws.cls, upgraded=False)
    add_workshop(state, 1, ws.id, ws.cls, upgraded=True)
    out = ws.upgraded_output if ws.upgraded_output else ws.output
    assert produced(state, 0, 1) == [NOTHING, plus(reward_gains(out), vp(1))]


def test_R_EOR_1_production_choices_wait_for_several_seats_at_once():
    state = bare()
    imp = improvement(state.catalog, restricted=False, choice=True)
    in_cabin(state, 0, 0, "nun", improvement=imp.id)
    in_cabin(state, 2, 1, "aristocrat", improvement=imp.id)
    b0, b2 = snap(state, 0), snap(state, 2)
    to_upkeep(state)
    waiting = open_decisions(state)
    assert sorted(d["who"] for d in waiting) == [0, 2]
    assert state.round == 1 and state.phase == "upkeep"  # the next round waits for both seats
    # answer the later seat first: seats decide independently
    opts2 = available(state, 2)
    opts0 = available(state, 0)
    assert len(opts2) == len(imp.output.options) == len(opts0)
    pick(state, 2, opts2[-1]["value"])
    assert state.round == 1, "the setup must wait until seat 0 has chosen too"
    assert [d["who"] for d in open_decisions(state)] == [0]
    pick(state, 0, opts0[0]["value"])
    answer_all(state)
    assert state.round == 2
    assert delta(b2, snap(state, 2)) == gains(imp.output.options[-1])
    assert delta(b0, snap(state, 0)) == gains(imp.output.options[0])


# --- R-CIT-4 and Q-9: into a workshop during production ------------------------------------------

def test_R_CIT_4_citizen_moves_into_empty_workshop_during_production_and_produces():
    state = bare()
    ws = early_workshop(state.catalog, needs_upgraded=False)
    sq = squares_of(state, 0, ws.cls)[0]
    cit = on_square(state, 0, sq, ws.cls)
    i = add_workshop(state, 0, ws.id)
    b0 = snap(state, 0)
    to_upkeep(state)
    assert [d["who"] for d in open_decisions(state)] == [0]
    pick(state, 0, {"square": sq, "workshop": i})
    answer_all(state)
    seat = state.seats[0]
    assert sq not in seat.squares
    assert seat.workshops[i].citizen.id == cit.id
    assert delta(b0, snap(state, 0)) == reward_gains(ws.output)


def test_R_CIT_4_collecting_without_moving_leaves_the_workshop_empty():
    state = bare()
    ws = early_workshop(state.catalog, needs_upgraded=False)
    sq = squares_of(state, 0, ws.cls)[0]
    on_square(state, 0, sq, ws.cls)
    i = add_workshop(state, 0, ws.id)
    b0 = snap(state, 0)
    to_upkeep(state)
    pick(state, 0, "collect")
    answer_all(state)
    assert state.seats[0].workshops[i].citizen is None and sq in state.seats[0].squares
    assert delta(b0, snap(state, 0)) == NOTHING


def test_Q_9_late_workshop_reward_when_citizen_enters_during_production():
    state = bare()
    late = late_workshop(state.catalog)
    sq = squares_of(state, 1, late.cls)[0]
    on_square(state, 1, sq, late.cls, upgraded=True)
    i = add_workshop(state, 1, late.id)
    b1 = snap(state, 1)
    to_upkeep(state)
    pick(state, 1, {"square": sq, "workshop": i})
    answer_all(state)
    ws = state.seats[1].workshops[i]
    assert ws.spent, "the late workshop is turned face down after its reward (R-BUILD-5)"
    # the one-time reward at once, plus 1 VP for the upgraded citizen in a workshop (R-EOR-3)
    assert delta(b1, snap(state, 1)) == plus(reward_gains(late.reward), vp(1))


def test_Q_9_late_workshop_register_reward_in_production_is_deferred_R_REG_8():
    state = bare()
    cat = state.catalog
    late = late_workshop(cat, register=True)
    kind = "church" if "church" in late.reward.icons() else "city"
    reg = cat.register(kind, state.players)
    start = next(i for i in range(reg.last) if not reg.spaces[i + 1].reward.is_nothing)
    set_registers(state, 0, **{kind: start})
    sq = squares_of(state, 0, late.cls)[0]
    on_square(state, 0, sq, late.cls)
    i = add_workshop(state, 0, late.id)
    to_upkeep(state)
    pick(state, 0, {"square": sq, "workshop": i})
    answer_all(state)
    s = state.seats[0]
    n = sum(it.count for it in late.reward.options[0].items if it.icon == kind)
    assert s.registers[kind] == start + n
    assert s.deferred[0] == reg.spaces[start + 1].reward.phrase
    assert state.round == 2


def test_R_REG_8_register_advance_earned_in_production_waits_in_deferred():
    state = bare()
    cat = state.catalog
    ws = next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and w.output.phrase in ("church", "city"))
    kind = ws.output.phrase
    reg = cat.register(kind, state.players)
    # a space whose reward would need a decision if it were used at once
    start = next(i for i in range(reg.last) if not reg.spaces[i + 1].reward.is_nothing
                 and not plain(reg.spaces[i + 1].reward))
    set_registers(state, 2, **{kind: start})
    add_workshop(state, 2, ws.id, ws.cls, upgraded=True)
    before = snap(state, 2)
    to_upkeep(state)
    assert only_the_table_is_asked(state), "the earned action waits for the next action step"
    s = state.seats[2]
    assert s.registers[kind] == start + 1, "the counter moves at once"
    assert s.deferred == [reg.spaces[start + 1].reward.phrase]
    assert delta(before, snap(state, 2)) == vp(1)
    assert state.round == 2


# --- quarantine (R-CIT-3, Q-7, Q-8) --------------------------------------------------------------

def test_R_CIT_3_quarantine_space_I_moves_to_space_II():
    state = bare()
    cit = in_cabin(state, 0, 2, "nun", space=1)
    upkeep(state)
    cab = state.seats[0].cabins[2]
    assert cab.citizen is not None and cab.citizen.id == cit.id and cab.space == 2


@pytest.mark.parametrize("where", ["square", "workshop"])
def test_R_CIT_3_quarantine_space_II_leaves_to_a_square_or_workshop_of_the_seats_choice(where):
    state = bare()
    ws = early_workshop(state.catalog, needs_upgraded=False)
    cit = in_cabin(state, 1, 0, ws.cls, space=2, upgraded=True)
    i = add_workshop(state, 1, ws.id)
    sq = squares_of(state, 1, ws.cls)[3]
    to_upkeep(state)
    waiting = open_decisions(state)
    assert [d["who"] for d in waiting] == [1]
    values = [o["value"] for o in available(state, 1)]
    assert ["workshop", i] in values
    assert {v[1] for v in values if v[0] == "square"} == set(squares_of(state, 1, ws.cls))
    pick(state, 1, ["square", sq] if where == "square" else ["workshop", i])
    answer_all(state)
    s = state.seats[1]
    assert s.cabins[0].citizen is None
    if where == "square":
        assert s.squares[sq].id == cit.id and s.squares[sq].upgraded
        assert s.workshops[i].citizen is None
    else:
        assert s.workshops[i].citizen.id == cit.id and sq not in s.squares
    assert state.round == 2


def test_R_CIT_3_quarantined_citizen_produces_in_space_II_then_leaves():
    """R-EOR-4 / R-CIT-3: production comes first, then quarantine advances, so a citizen in space II
    still yields its improved cabin's output before it leaves."""
    state = bare()
    imp = improvement(state.catalog, restricted=False)
    in_cabin(state, 0, 0, "craftsman", space=2, improvement=imp.id)
    assert produced(state, 0) == [reward_gains(imp.output)]
    rules = [e.get("rule") for e in state.report]
    assert max(i for i, r in enumerate(rules) if r == "R-EOR-2") < rules.index("R-CIT-3"), \
        "R-EOR-4: quarantine advances after production"
    s = state.seats[0]
    assert s.cabins[0].citizen is None and s.cabins[0].improvement == imp.id
    assert sum(1 for c in s.squares.values() if c.cls == "craftsman") == 1


def test_R_CIT_3_leaving_citizen_may_not_enter_a_workshop_of_another_class():
    state = bare()
    ws = early_workshop(state.catalog, needs_upgraded=False)
    other = next(c for c in ("aristocrat", "nun", "craftsman") if c != ws.cls)
    in_cabin(state, 0, 0, other, space=2)
    add_workshop(state, 0, ws.id)
    to_upkeep(state)
    assert all(v[0] == "square" for v in (o["value"] for o in available(state, 0)))


def test_Q_7_citizen_leaving_quarantine_without_room_is_discarded():
    state = bare()
    fill_sector(state, 0, "nun")
    ws = early_workshop(state.catalog, needs_upgraded=False)
    if ws.cls == "nun":  # a full workshop of its class is no room either
        add_workshop(state, 0, ws.id, "nun")
    in_cabin(state, 0, 1, "nun", space=2)
    squares = dict(state.seats[0].squares)
    to_upkeep(state)
    assert only_the_table_is_asked(state)
    s = state.seats[0]
    assert s.cabins[1].citizen is None
    assert s.squares == squares
    assert report_with(state, "Q-7")
    assert state.round == 2


def test_Q_8_no_quarantine_advance_after_round_VI():
    state = bare()
    set_round(state, 6)
    a = in_cabin(state, 0, 0, "nun", space=1)
    b = in_cabin(state, 0, 1, "aristocrat", space=2)
    upkeep(state)
    assert state.phase == "over"
    cabs = state.seats[0].cabins
    assert (cabs[0].citizen.id, cabs[0].space) == (a.id, 1)
    assert (cabs[1].citizen.id, cabs[1].space) == (b.id, 2)
    assert not report_with(state, "R-CIT-3")
    assert not [e for e in state.report if str(e.get("rule", "")).startswith("R-NEXT")]


def test_R_EOR_1_several_seats_leave_quarantine_at_once():
    state = bare()
    a = in_cabin(state, 0, 0, "nun", space=2)
    b = in_cabin(state, 2, 3, "aristocrat", space=2)
    to_upkeep(state)
    assert sorted(d["who"] for d in open_decisions(state)) == [0, 2]
    sq_b = squares_of(state, 2, "aristocrat")[5]
    pick(state, 2, ["square", sq_b])
    assert state.round == 1
    sq_a = squares_of(state, 0, "nun")[1]
    pick(state, 0, ["square", sq_a])
    answer_all(state)
    assert state.seats[0].squares[sq_a].id == a.id and state.seats[2].squares[sq_b].id == b.id
    assert state.round == 2


def test_Q_9_citizen_leaving_quarantine_into_a_late_workshop_gets_the_reward_at_once():
    state = bare()
    late = late_workshop(state.catalog)
    in_cabin(state, 1, 0, late.cls, space=2)
    i = add_workshop(state, 1, late.id)
    b1 = snap(state, 1)
    to_upkeep(state)
    pick(state, 1, ["workshop", i])
    answer_all(state)
    assert state.seats[1].workshops[i].spent
    assert delta(b1, snap(state, 1)) == reward_gains(late.reward)


def test_C_10_leaving_quarantine_with_one_free_place_is_not_asked():
    state = bare()
    squares = squares_of(state, 0, "nun")
    for q in squares[:-1]:
        on_square(state, 0, q, "nun")
    cit = in_cabin(state, 0, 0, "nun", space=2)
    to_upkeep(state)
    assert only_the_table_is_asked(state)
    assert state.seats[0].squares[squares[-1]].id == cit.id


def test_C_10_R_REG_8_register_choice_with_one_open_register_is_not_asked_in_production():
    state = bare()
    cat = state.catalog
    ws = next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and w.output.phrase == "register")
    add_workshop(state, 0, ws.id, ws.cls, upgraded=True)
    set_registers(state, 0, city=cat.register("city", state.players).last, church=0)
    to_upkeep(state)
    assert only_the_table_is_asked(state)
    assert state.seats[0].registers["church"] == 1


def test_C_4_builds_earned_in_production_are_resolved_after_production_in_play_order():
    state = bare()
    cat = state.catalog
    ws = next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and w.output.phrase == "build")
    for seat in range(3):
        add_workshop(state, seat, ws.id, ws.cls, upgraded=True)
        give(state, seat, coins=0, lumber=0, fire=0, major_fire=0)
    order = list(state.order)
    to_upkeep(state)
    asked = []
    while not only_the_table_is_asked(state):
        waiting = open_decisions(state)
        assert len(waiting) == 1, "shared tiles: one build at a time"
        asked.append(waiting[0]["who"])
        pick(state, waiting[0]["who"], {"build": None})
    assert asked == order
    assert state.round == 2


def test_Q_9_R_BUILD_5_C_4_build_earned_leaving_quarantine_is_resolved_in_that_upkeep():
    """Q-9 / R-BUILD-5: a citizen leaving quarantine into a late workshop at the end of round V earns
    its Build at once; C-4 resolves it in that upkeep, after production and quarantine, before round
    VI's setup (not after round VI's production)."""
    state = bare()
    set_round(state, 5)
    late = next(w for w in sorted(state.catalog.workshops.values(), key=lambda w: w.id)
                if w.era == 2 and not w.needs_upgraded and "build" in w.reward.icons())
    in_cabin(state, 1, 0, late.cls, space=2)
    i = add_workshop(state, 1, late.id)
    to_upkeep(state)
    pick(state, 1, ["workshop", i])
    waiting = open_decisions(state)
    assert [(d["who"], d["kind"]) for d in waiting] == [(1, "build")], \
        f"C-4: the Build earned leaving quarantine is asked in this upkeep, got {waiting}"
    assert state.round == 5 and not report_with(state, "R-NEXT-1"), "R-BUILD-5: resolved before round VI's setup"
    rules = [e.get("rule") for e in state.report]
    assert "R-CIT-3" in rules, "C-4: quarantine comes before the held Build"
    pick(state, 1, {"build": None})
    answer_all(state)
    assert state.round == 6 and state.held == [], "C-4: nothing earned in round V's upkeep waits for round VI"


def _answer_in_order(state, seats, value) -> None:
    """Answer the production questions of `seats` in that order (as phones would, one after another)."""
    for seat in seats:
        waiting = {d["who"] for d in open_decisions(state)}
        assert seat in waiting, f"R-EOR-1: seat {seat} should be asked during production, waiting: {waiting}"
        pick(state, seat, value)


def _workshop(cat, **match):
    return next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
                if w.era == 1 and not w.needs_upgraded and all(getattr(w, k) == v for k, v in match.items()))


@pytest.mark.parametrize("answer_first", ["earlier", "later"])
def test_R_EOR_1_R_REG_7_R_NEXT_4_register_stack_from_production_follows_play_order(answer_first):
    """R-EOR-1 / R-REG-7 / R-NEXT-4: two seats whose production moves them to the same church space are
    stacked in current play order (the later player on top, so ahead in round V), whichever phone
    answers first."""
    state = bare()
    set_round(state, 4)
    assert state.priority(5) == "church"
    cat = state.catalog
    ws = next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and w.output.phrase == "register")
    a, b, c = state.order
    for seat in (a, b):
        add_workshop(state, seat, ws.id, ws.cls, upgraded=True)
    to_upkeep(state)
    _answer_in_order(state, (a, b) if answer_first == "earlier" else (b, a), "church")
    answer_all(state)
    assert state.round == 5
    assert state.seats[a].registers["church"] == state.seats[b].registers["church"] == 1
    assert state.order == [b, a, c], f"R-REG-7: the later player's counter is on top, got {state.order}"


@pytest.mark.parametrize("answer_first", ["earlier", "later"])
def test_R_EOR_1_R_NEXT_4_C_9_score_track_stack_from_production_follows_play_order(answer_first):
    """R-EOR-1 / R-NEXT-4 / C-9: two seats whose production brings them to the same score are stacked
    in current play order (later player on top, so ahead in round IV, a score-track round), whichever
    phone answers first."""
    state = bare()
    set_round(state, 3)
    assert state.priority(4) == "score"
    cat = state.catalog
    a, b, c = state.order
    for seat in (a, b):
        shop = _workshop(cat, cls="nun")
        add_workshop(state, seat, shop.id, "nun", upgraded=True)  # +1 VP at each production (R-EOR-3)
        add_workshop(state, seat, _workshop(cat, cls="craftsman").id)  # empty: production asks first (R-CIT-4)
        on_square(state, seat, None, "craftsman")
        give(state, seat, vp=5)
    give(state, c, vp=0)
    to_upkeep(state)
    _answer_in_order(state, (a, b) if answer_first == "earlier" else (b, a), "collect")
    answer_all(state)
    assert state.round == 4
    assert state.seats[a].vp == state.seats[b].vp > 5
    assert state.order[:2] == [b, a], f"C-9: the later player's counter is on top, got {state.order}"


def test_R_NEXT_2_lay_down_leaves_boxed_and_supply_lieutenants_alone():
    """R-NEXT-2: only lieutenants in Messina lie down (and those beside a board are ready again); a
    figure given up to the box (R-REPOP-3) or still in the supply is not in play and is not touched."""
    state = bare()
    lts = state.seats[0].lieutenants
    lts[0].where, lts[0].used = f"hex:{neighbourhoods(state)[0]}", True
    lts[1].where, lts[1].used = "estate", True  # recalled this round
    lts[3].where, lts[3].used = "box", True  # given up to repopulate
    lts[4].where, lts[4].used = "supply", True
    upkeep(state)
    assert state.round == 2
    assert not lts[0].used and not lts[1].used, "R-NEXT-2: figures in Messina and beside the board are ready"
    assert lts[3].used and lts[3].where == "box", "R-NEXT-2: a boxed lieutenant is not touched"
    assert lts[4].used and lts[4].where == "supply", "R-NEXT-2: a supply lieutenant is not touched"
    lay = report_with(state, "R-NEXT-2")
    assert len(lay) == 1 and lay[0]["data"]["places"] == ["hex:" + neighbourhoods(state)[0]], lay


def test_R_EOR_5_R_END_1_next_round_setup_follows_unless_round_six_ended():
    """R-EOR-5: after production and quarantine the next round is set up (R-NEXT); after round VI the
    game ends instead (R-END-1) and no setup step is given."""
    state = bare()
    set_round(state, 5)
    upkeep(state)
    rules = [e.get("rule") for e in state.report]
    assert state.round == 6 and state.phase == "play", "R-EOR-5: round VI is set up after round V"
    assert rules.index("R-CIT-3") < rules.index("R-NEXT-1"), "R-EOR-5: setup comes after quarantine"
    state = bare()
    set_round(state, 6)
    upkeep(state)
    assert state.phase == "over" and state.scoring is not None, "R-END-1: round VI's production ends the game"
    assert not [r for r in report_rules_of(state) if r.startswith("R-NEXT")], "R-EOR-5: no setup after round VI"


def report_rules_of(state) -> list[str]:
    return [e.get("rule") or "" for e in state.report]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_R_ROUND_1_a_game_is_six_rounds_of_setup_actions_and_end(players):
    """R-ROUND-1: 6 rounds, each with its setup (round I at the start, II–VI at the end of the round
    before), an action phase and an end of round; the game is over after round VI."""
    state = play_game(players, 3, check=False).state
    assert state.phase == "over" and state.round == 6, "R-ROUND-1: the game ends in round VI"
    ends = [e["round"] for e in state.log if e.get("rule") == "R-EOR-1"]
    setups = [e["round"] for e in state.log if e.get("rule") == "R-NEXT-1"]
    turns = {e["round"] for e in state.log if e.get("rule") in ("R-TURN-MOVE-5", "R-TURN-DOCK-1", "R-TURN-RECALL-1")}
    assert ends == [1, 2, 3, 4, 5, 6], f"R-ROUND-1: one end of round per round, got {ends}"
    assert setups == [2, 3, 4, 5, 6], f"R-ROUND-1: rounds II–VI are set up, got {setups}"
    assert turns == {1, 2, 3, 4, 5, 6}, f"R-ROUND-1: every round has an action phase, got {sorted(turns)}"


# --- next round setup: order of steps ------------------------------------------------------------

STEP = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 6, 8: 8, 9: 9, 10: 9, 11: 9, 12: 9, 13: 13, 14: 14}


def next_steps(state) -> list[int]:
    """The R-NEXT step numbers cited by the report, in report order (R-PRIO-1 is step IV)."""
    out = []
    for e in state.report:
        rule = e.get("rule") or ""
        if rule == "R-PRIO-1":
            out.append(4)
        elif rule.startswith("R-NEXT-"):
            out.append(int(rule.split("-")[2]))
    return out


def test_R_NEXT_1_to_14_setup_runs_in_rule_order_after_production_and_quarantine():
    state = game(3, 1)
    add_wagon(state, 0, state.catalog.wagons[sorted(state.catalog.wagons)[0]].id, used=True)
    upkeep(state)
    assert state.round == 2 and state.phase == "play"
    nums = next_steps(state)
    assert nums == sorted(nums), f"R-NEXT steps out of order: {nums}"
    assert {1, 2, 3, 4, 5, 6, 9, 13, 14} <= set(nums)
    assert nums[0] == 1 and nums[-1] == 14
    rules = [e.get("rule") for e in state.report]
    first_next = rules.index("R-NEXT-1")
    assert rules.index("R-EOR-1") < first_next
    assert rules.index("R-CIT-3") < first_next
    assert rules.index("R-EOR-2") < rules.index("R-EOR-4") < rules.index("R-CIT-3"), "R-EOR-4: then quarantine"
    assert all(r in ("R-EOR-1", "R-EOR-2", "R-EOR-4", "R-CIT-3") for r in rules[:first_next])
    assert [e["step"] for e in state.report] == list(range(1, len(state.report) + 1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_NEXT_setup_order_holds_in_every_round_of_a_game(players):
    state = game(players, 5)
    cat = state.catalog
    wagon = sorted(cat.wagons)[0]
    add_wagon(state, 0, wagon)
    seen = set()
    while state.phase != "over":
        state.seats[0].wagons[0].used = True
        # a repopulated hex on every rat icon, so R-NEXT-11 has something to do
        for t in neighbourhoods(state):
            if state.hexes[t].repopulated_by is None:
                repopulate(state, t, 0)
        rnd = state.round
        upkeep(state)
        if state.phase == "over":
            assert rnd == 6
            break
        assert state.round == rnd + 1, "R-NEXT-1: the round counter advances by one"
        ranks = [STEP[n] for n in next_steps(state)]
        assert ranks == sorted(ranks), f"round {state.round}: {next_steps(state)}"
        assert next_steps(state)[0] == 1 and next_steps(state)[-1] == 14
        seen |= set(next_steps(state))
        if state.round == 5:
            assert 8 in next_steps(state)
        if state.round == 6:
            assert 12 in next_steps(state) and 9 not in next_steps(state)
    assert {1, 2, 3, 4, 5, 6, 8, 9, 12, 13, 14} <= seen


def test_R_NEXT_2_every_lieutenant_in_Messina_lies_down():
    state = game(3, 2)
    hexes = neighbourhoods(state)
    s0, s1 = state.seats[0], state.seats[1]
    s0.lieutenants[0].where, s0.lieutenants[0].used = f"hex:{hexes[0]}", True
    s0.lieutenants[1].where, s0.lieutenants[1].used = "dock:dock-nw", True
    s1.lieutenants[0].where, s1.lieutenants[0].used = f"hex:{hexes[1]}", True
    upkeep(state)
    assert (s0.lieutenants[0].where, s0.lieutenants[0].used) == (f"hex:{hexes[0]}", False)
    assert (s0.lieutenants[1].where, s0.lieutenants[1].used) == ("dock:dock-nw", False)
    assert (s1.lieutenants[0].where, s1.lieutenants[0].used) == (f"hex:{hexes[1]}", False)
    assert report_with(state, "R-NEXT-2")


def test_R_NEXT_3_citizens_leave_plagued_hexes_only():
    state = bare(3, 3)
    plagued, clean = neighbourhoods(state)[:2]
    cubes(state, plagued, 1)
    gone = [state.new_citizen("nun"), state.new_citizen("craftsman")]
    stay = [state.new_citizen("aristocrat")]
    state.hexes[plagued].citizens = list(gone)
    state.hexes[clean].citizens = list(stay)
    upkeep(state)
    ids_plagued = {c.id for c in state.hexes[plagued].citizens}
    ids_clean = {c.id for c in state.hexes[clean].citizens}
    assert not ids_plagued & {c.id for c in gone}
    assert {c.id for c in stay} <= ids_clean


# --- R-NEXT-4 / R-PRIO-1: play order -------------------------------------------------------------

def put(state, seat: int, kind: str, value: int, stamp: int | None = None) -> None:
    """Set a seat's position on a register or the score track (kind "score")."""
    s = state.seats[seat]
    if kind == "score":
        s.vp = value
    else:
        s.registers[kind] = value
    if stamp is not None:
        s.stamps[kind] = stamp


def test_R_NEXT_4_play_order_by_the_rounds_register_with_stack_tiebreak():
    state = game(3, 4)
    r = round_where(state, lambda row: row.priority in ("popularity", "city", "church"))
    kind = state.round_row(r).priority
    set_round(state, r - 1)
    low, high = state.next_stamp(), state.next_stamp()
    put(state, 0, kind, 2, stamp=high)
    put(state, 1, kind, 5, stamp=state.next_stamp())
    put(state, 2, kind, 2, stamp=low)
    # the other registers would give another order
    for k in ("popularity", "city", "church"):
        if k != kind:
            for i, v in enumerate((0, 1, 9)):
                put(state, i, k, v)
    upkeep(state)
    assert state.order == [1, 0, 2]
    entry = report_with(state, "R-NEXT-4")[0]
    assert entry["data"]["order"] == [1, 0, 2] and entry["data"]["register"] == kind


def test_R_NEXT_4_tie_goes_to_the_counter_higher_in_the_stack():
    state = game(3, 4)
    r = round_where(state, lambda row: row.priority in ("popularity", "city", "church"))
    kind = state.round_row(r).priority
    set_round(state, r - 1)
    for seat, stamp in ((0, 1), (1, 3), (2, 2)):
        put(state, seat, kind, 4, stamp=state.stamp + stamp)
    state.stamp += 3
    upkeep(state)
    assert state.order == [1, 2, 0]


def test_R_NEXT_4_score_track_round_orders_by_vp_with_stack_tiebreak():
    state = game(3, 4)
    r = round_where(state, lambda row: row.priority == "score")
    set_round(state, r - 1)
    put(state, 0, "score", 10, stamp=state.next_stamp())
    put(state, 1, "score", 10, stamp=state.next_stamp())
    put(state, 2, "score", 12, stamp=state.next_stamp())
    for k in ("popularity", "city", "church"):
        for i, v in enumerate((9, 5, 0)):
            put(state, i, k, v)
    upkeep(state)
    assert state.round == r
    assert state.order == [2, 1, 0]


def test_R_PRIO_1_priority_tile_replaces_the_round_info_column():
    state = game(3, 6, priority_tile=True)
    cat = state.catalog
    r = next(r for r in range(2, 7)
             if cat.priority_tiles[state.side].priority[r - 1] != cat.round_info[state.side].rounds[r - 1].priority)
    tile_kind = cat.priority_tiles[state.side].priority[r - 1]
    table_kind = cat.round_info[state.side].rounds[r - 1].priority
    set_round(state, r - 1)
    for i, v in enumerate((1, 4, 7)):
        put(state, i, tile_kind, v)
    for i, v in enumerate((12, 6, 2)):
        put(state, i, table_kind, v)
    upkeep(state)
    assert state.order == [2, 1, 0]
    assert report_with(state, "R-PRIO-1")
    assert not report_with(state, "R-NEXT-4")


# --- R-NEXT-5: boats -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rnd", [2, 3, 4, 5, 6])
def test_R_NEXT_5_boats_per_round_info_row_with_a_cube_each(players, rnd):
    state = bare(players, 7)
    set_round(state, rnd - 1)
    row = state.round_row(rnd)
    next_docking(state, "docking-se")
    before = boats_at_docks(state)
    supply = state.supply_cubes
    upkeep(state)
    arrived = new_boats(before, state)
    assert len(arrived) == row.boats
    assert all(b.cube for _, b in arrived)
    assert {d for d, _ in arrived} == {"dock-se"}, "a second boat goes to the same dock"
    if rnd == 6:
        assert state.supply_cubes == supply - row.boats


def test_R_NEXT_5_full_dock_passes_the_boat_to_the_next_dock_clockwise():
    state = bare(3, 8)
    r = round_where(state, lambda row: row.boats == 1)
    set_round(state, r - 1)
    for tile in sorted(state.catalog.docking_tiles):
        dock = dock_of(state, tile)
        if not state.docks[dock]:
            break
    fill_dock(state, dock)
    next_docking(state, tile)
    before = boats_at_docks(state)
    upkeep(state)
    arrived = new_boats(before, state)
    assert [d for d, _ in arrived] == [next_clockwise_dock(state, dock)]
    assert len(state.docks[dock]) == state.catalog.docks[dock].spaces


def test_R_NEXT_5_second_boat_overflows_when_the_first_fills_the_dock():
    state = bare(3, 8)
    r = round_where(state, lambda row: row.boats == 2)
    set_round(state, r - 1)
    dock = "dock-ne"
    for d in state.docks:  # empty every dock first
        while state.docks[d]:
            take_boat(state, 0, d)
    fill_dock(state, dock)
    take_boat(state, 1, dock)  # one free space left
    next_docking(state, "docking-ne")
    before = boats_at_docks(state)
    upkeep(state)
    arrived = new_boats(before, state)
    assert [d for d, _ in arrived] == [dock, next_clockwise_dock(state, dock)]


def test_R_NEXT_5_R_SETUP_7_empty_docking_pile_is_reshuffled_from_all_4_tiles():
    state = bare(3, 9)
    empty_docking_pile(state)
    before = boats_at_docks(state)
    upkeep(state)
    assert len(new_boats(before, state)) == state.round_row(2).boats
    assert state.docked_at in state.catalog.docking_tiles
    assert len(state.docking) == len(state.catalog.docking_tiles) - 1
    left = set(state.pools[state.docking.pool]) | set(state.docking.top)
    assert left == set(state.catalog.docking_tiles) - {state.docked_at}


def test_R_NEXT_5_docking_pile_runs_out_and_reshuffles_during_a_game():
    state = bare(2, 10)
    drawn = []
    while state.phase != "over":
        upkeep(state)
        if state.phase == "play":
            drawn.append(state.docked_at)
    # round I drew one; rounds II–IV use the other three; round V needs a reshuffle
    assert len(drawn) == 5 and all(d in state.catalog.docking_tiles for d in drawn)


def test_Q_6_boat_arriving_with_an_empty_supply_has_no_cube():
    state = bare(3, 11)
    r = round_where(state, lambda row: row.boats == 2)
    set_round(state, r - 1)
    total = cubes_in_play(state)
    # keep exactly one cube in the supply: the rest are on hexes (none showing the next rats matter)
    spare = state.supply_cubes - 1
    for t in neighbourhoods(state):
        if spare == 0:
            break
        cubes(state, t, min(spare, 3))
        spare -= min(spare, 3)
    assert state.supply_cubes == 1
    next_docking(state, "docking-sw")
    before = boats_at_docks(state)
    upkeep(state)
    arrived = [b for _, b in new_boats(before, state)]
    assert [b.cube for b in arrived] == [True, False]
    assert state.supply_cubes == 0
    assert cubes_in_play(state) == total


# --- R-NEXT-6 / Q-22 / R-SETUP-3: the new hex ----------------------------------------------------

@pytest.mark.parametrize("tile", ["docking-nw", "docking-ne", "docking-se", "docking-sw"])
def test_R_NEXT_6_new_hex_in_first_free_expansion_space_clockwise_from_the_docking_harbor(tile):
    state = bare(3, 12)
    next_docking(state, tile)
    harbor = harbor_of(state, dock_of(state, tile))
    expected = first_free_expansion(state, harbor)
    before = set(state.hexes)
    upkeep(state)
    new = new_hex_of(state, before)
    assert state.hexes[new].space == expected


def test_R_NEXT_6_skips_filled_expansion_spaces():
    state = bare(4, 13)
    lay = state.catalog.layout_for(4)
    next_docking(state, "docking-nw")
    harbor = harbor_of(state, dock_of(state, "docking-nw"))
    i = lay.ring.index(harbor)
    walk = [x for x in list(lay.ring[i + 1:]) + list(lay.ring[:i]) if x in lay.expansion]
    c_hexes = sorted(state.pools[state.expansion.pool])
    place_hex(state, c_hexes[0], walk[0])
    place_hex(state, c_hexes[1], walk[1])
    before = set(state.hexes)
    upkeep(state)
    assert state.hexes[new_hex_of(state, before)].space == walk[2]


def test_Q_22_new_hex_starts_from_the_harbor_named_by_the_docking_tile_even_after_overflow():
    state = bare(3, 14)
    tile = "docking-nw"
    dock = dock_of(state, tile)
    for d in state.docks:
        while state.docks[d]:
            take_boat(state, 0, d)
    fill_dock(state, dock)
    next_docking(state, tile)
    named = first_free_expansion(state, harbor_of(state, dock))
    other = first_free_expansion(state, harbor_of(state, next_clockwise_dock(state, dock)))
    assert named != other, "the scenario must tell the two harbors apart"
    before_boats, before = boats_at_docks(state), set(state.hexes)
    upkeep(state)
    assert [d for d, _ in new_boats(before_boats, state)][0] == next_clockwise_dock(state, dock)
    assert state.hexes[new_hex_of(state, before)].space == named


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_R_SETUP_3_first_expansion_hex_is_the_other_B_hex(seed):
    state = bare(3, seed)
    cat = state.catalog
    bs = {h.id for h in cat.hexes.values() if h.cls == "B"}
    in_city = bs & set(state.hexes)
    assert len(in_city) == 1
    before = set(state.hexes)
    upkeep(state)
    new = new_hex_of(state, before)
    assert cat.hexes[new].cls == "B" and new not in in_city


def test_R_NEXT_7_added_hex_takes_part_in_the_same_wheel_step():
    state = bare(3, 15)
    cat = state.catalog
    new = known_next_hex(state)
    # turn the wheel so that the next window shows the new hex's rat and gives its colour a class
    n = len(cat.wheel)
    state.wheel = next((w - 1) % n for w in range(n)
                       if cat.wheel[w].rat == cat.hexes[new].rat and cat.wheel[w].colours.get(cat.hexes[new].colour))
    upkeep(state)
    assert state.hexes[new].cubes == 1
    assert len(state.hexes[new].citizens) == 1


# --- R-NEXT-8: round V swaps the workshops -------------------------------------------------------

def test_R_NEXT_8_round_V_replaces_the_early_workshops_with_era_II_stacks():
    state = bare(3, 16)
    cat = state.catalog
    set_round(state, 4)
    ws = early_workshop(cat, needs_upgraded=False)
    add_workshop(state, 0, ws.id, ws.cls)
    early_up = {cls: st.up for cls, st in state.workshops.items()}
    upkeep(state)
    assert state.round == 5
    for cls, st in state.workshops.items():
        assert st.up is not None and st.up != early_up[cls]
        tile = cat.workshops[st.up]
        assert tile.era == 2 and tile.cls == cls
        assert len(st) == sum(1 for w in cat.workshops.values() if w.era == 2 and w.cls == cls) - 1
        assert not any(cat.workshops[t].era == 1 for t in state.pools[st.pool])
    assert state.seats[0].workshops[0].tile == ws.id, "built workshops are unaffected"
    assert report_with(state, "R-NEXT-8")


def test_R_NEXT_8_no_swap_before_round_V():
    state = bare(3, 16)
    set_round(state, 3)
    upkeep(state)
    assert all(state.catalog.workshops[st.up].era == 1 for st in state.workshops.values() if st.up)
    assert not report_with(state, "R-NEXT-8")


# --- R-NEXT-9 / R-NEXT-10 / Q-3: the wheel and the cube limit -----------------------------------

def wheel_setup(state, rnd: int):
    """Set the round before `rnd` and return (boats due, the new hex) for the coming setup."""
    set_round(state, rnd - 1)
    return state.round_row(rnd).boats, known_next_hex(state)


@pytest.mark.parametrize("short", [True, False])
def test_R_NEXT_10_no_cube_is_added_when_the_supply_is_short(short):
    state = bare(3, 17)
    r = round_where(state, lambda row: not row.double_wheel)
    boats, new = wheel_setup(state, r)
    hexes = due(state, state.wheel + 1, [new])
    assert hexes
    total = cubes_in_play(state)
    keep = boats + len(hexes) - (1 if short else 0)
    # park the other cubes on a hex that is not due
    parking = next(t for t in neighbourhoods(state) if t not in hexes)
    cubes(state, parking, state.supply_cubes - keep)
    upkeep(state)
    added = sum(state.hexes[t].cubes for t in hexes)
    if short:
        assert added == 0
        assert state.supply_cubes == len(hexes) - 1
        assert report_with(state, "R-NEXT-10")
    else:
        assert [state.hexes[t].cubes for t in hexes] == [1] * len(hexes)
        assert state.supply_cubes == 0
    assert cubes_in_play(state) == total


def double_round_scenario(seed: int, pick):
    """A game at the end of the round before the double-wheel round, the wheel set where
    `pick(d1, d2)` holds for the two steps' due hexes. Returns state, boats, due1, due2."""
    state = bare(3, seed)
    r = round_where(state, lambda row: row.double_wheel)
    boats, new = wheel_setup(state, r)
    n = len(state.catalog.wheel)
    for w in range(n):
        d1, d2 = due(state, w + 1, [new]), due(state, w + 2, [new])
        if d1 and d2 and pick(len(d1), len(d2)):
            state.wheel = w
            assert not set(d1) & set(d2)
            return state, boats, d1, d2
    raise AssertionError("no wheel position fits the scenario")


def park_all_but(state, keep: int, avoid) -> None:
    parking = next(t for t in neighbourhoods(state) if t not in avoid)
    cubes(state, parking, state.hexes[parking].cubes + state.supply_cubes - keep)


def test_R_NEXT_10_double_wheel_first_step_succeeds_second_fails():
    state, boats, d1, d2 = double_round_scenario(18, lambda a, b: True)
    park_all_but(state, boats + len(d1) + len(d2) - 1, d1 + d2)
    w0 = state.wheel
    total = cubes_in_play(state)
    upkeep(state)
    assert [state.hexes[t].cubes for t in d1] == [1] * len(d1)
    assert [state.hexes[t].cubes for t in d2] == [0] * len(d2)
    assert state.supply_cubes == len(d2) - 1
    assert len(report_with(state, "R-NEXT-10")) == 1
    assert state.wheel == (w0 + 2) % len(state.catalog.wheel)
    assert cubes_in_play(state) == total


def test_R_NEXT_10_double_wheel_steps_are_judged_separately_first_fails_second_succeeds():
    state, boats, d1, d2 = double_round_scenario(18, lambda a, b: a > b)
    park_all_but(state, boats + len(d2), d1 + d2)
    upkeep(state)
    assert [state.hexes[t].cubes for t in d1] == [0] * len(d1)
    assert [state.hexes[t].cubes for t in d2] == [1] * len(d2)
    assert state.supply_cubes == 0


def test_R_NEXT_9_double_wheel_adds_cubes_twice_when_the_supply_allows():
    state, boats, d1, d2 = double_round_scenario(19, lambda a, b: True)
    upkeep(state)
    assert [state.hexes[t].cubes for t in d1 + d2] == [1] * (len(d1) + len(d2))
    assert not report_with(state, "R-NEXT-10")


def test_Q_3_double_wheel_adds_citizens_once_from_the_final_window():
    state, boats, d1, d2 = double_round_scenario(20, lambda a, b: True)
    cat = state.catalog
    final = cat.wheel[(state.wheel + 2) % len(cat.wheel)]
    upkeep(state)
    for t in neighbourhoods(state):
        want = final.colours.get(cat.hexes[t].colour)
        assert [c.cls for c in state.hexes[t].citizens] == ([want] if want else []), t


def test_R_NEXT_11_each_cube_on_a_repopulated_hex_gives_its_repopulator_a_rat():
    state = bare(3, 21)
    r = round_where(state, lambda row: not row.double_wheel)
    boats, new = wheel_setup(state, r)
    hexes = due(state, state.wheel + 1, [new])
    not_due = [t for t in neighbourhoods(state) if t not in hexes]
    repopulate(state, hexes[0], 1)
    repopulate(state, not_due[0], 2)
    rats = [s.rats for s in state.seats]
    upkeep(state)
    assert state.hexes[hexes[0]].cubes == 1
    assert [s.rats - r0 for s, r0 in zip(state.seats, rats)] == [0, 1, 0]
    assert report_with(state, "R-NEXT-11")


def test_R_NEXT_11_no_rat_when_the_cube_limit_stops_the_step():
    state = bare(3, 21)
    r = round_where(state, lambda row: not row.double_wheel)
    boats, new = wheel_setup(state, r)
    hexes = due(state, state.wheel + 1, [new])
    repopulate(state, hexes[0], 1)
    park_all_but(state, boats + len(hexes) - 1, hexes)
    upkeep(state)
    assert state.seats[1].rats == 0


def test_R_NEXT_12_round_VI_no_cubes_or_citizens_on_neighborhoods_but_boat_and_hex():
    state = bare(3, 22)
    set_round(state, 5)
    supply = state.supply_cubes
    wheel = state.wheel
    hexes_before = set(state.hexes)
    boats_before = boats_at_docks(state)
    upkeep(state)
    assert state.round == 6
    assert sum(h.cubes for h in state.hexes.values()) == 0
    assert all(not h.citizens for h in state.hexes.values())
    assert state.wheel == wheel
    arrived = new_boats(boats_before, state)
    assert len(arrived) == state.round_row(6).boats and all(b.cube for _, b in arrived)
    assert state.supply_cubes == supply - len(arrived)
    assert len(set(state.hexes) - hexes_before) == 1, "D-5: a hex is added in round VI too"
    assert report_with(state, "R-NEXT-12")


def test_R_NEXT_13_used_wagons_face_up_again():
    state = game(3, 23)
    wagons = sorted(state.catalog.wagons)
    add_wagon(state, 0, wagons[0], used=True)
    add_wagon(state, 2, wagons[1], used=True)
    add_wagon(state, 2, wagons[2], used=False)
    upkeep(state)
    assert [w.used for w in state.seats[0].wagons + state.seats[2].wagons] == [False, False, False]
    assert report_with(state, "R-NEXT-13")


@pytest.mark.parametrize("seed", [24, 25, 26])
def test_R_NEXT_14_round_begins_in_the_new_order(seed):
    state = game(3, seed)
    r = round_where(state, lambda row: row.priority in ("popularity", "city", "church"))
    kind = state.round_row(r).priority
    set_round(state, r - 1)
    # the new order differs from the old one: the last seat of the old order is now first
    old = list(state.order)
    for pos, seat in enumerate(old):
        put(state, seat, kind, pos)
    upkeep(state)
    assert state.phase == "play" and state.order == list(reversed(old))
    assert state.report[-1]["rule"] == "R-NEXT-14"
    assert report_with(state, "R-NEXT-4")[0]["data"]["order"] == state.order
    turns = [d for d in pending(state) if str(d["kind"]).startswith("turn")]
    assert [d["who"] for d in turns] == [state.order[0]]


def test_R_END_1_game_ends_after_round_VI_production():
    state = bare(3, 25)
    set_round(state, 6)
    imp = improvement(state.catalog, restricted=False)
    in_cabin(state, 0, 0, "nun", improvement=imp.id)
    assert produced(state, 0) == [reward_gains(imp.output)]
    assert state.phase == "over" and state.round == 6
    assert state.scoring is not None


# --- cube conservation over whole games ----------------------------------------------------------

def fight_some(state, k: int) -> None:
    """Between upkeeps, act like turns would: clear cubes from some hexes and take a boat."""
    plagued = [t for t in sorted(state.hexes) if state.hexes[t].cubes]
    for t in plagued[k % 3::3]:
        cubes(state, t, 0)
    for d in sorted(state.docks):
        if state.docks[d] and k % 2:
            take_boat(state, k % len(state.seats), d)
            break


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("fight", [False, True])
def test_R_SETUP_5_Q_6_cubes_are_conserved_through_a_whole_game(players, seed, fight):
    state = game(players, seed)
    total = CUBES_IN_PLAY[players]
    assert cubes_in_play(state) == total
    rounds = 0
    while state.phase != "over":
        if fight:
            fight_some(state, rounds)
        upkeep(state)
        rounds += 1
        assert cubes_in_play(state) == total, f"after upkeep {rounds}"
        assert broken(state) is None
        assert state.supply_cubes >= 0
        assert all(h.cubes >= 0 for h in state.hexes.values())
    assert rounds == 6
    placed = [h.space for h in state.hexes.values() if h.space.startswith("x")]
    assert len(placed) == 5, "D-5: one hex in each of rounds II–VI"


def test_upkeep_is_started_through_the_public_entry_point():
    """start_upkeep is what to_upkeep calls: production runs and the report is new."""
    state = bare(3, 26)
    state.report = [{"step": 1, "text": "old", "rule": "X"}]
    state.lanes.clear()
    start_upkeep(state)
    assert state.report[0]["rule"] == "R-EOR-1"
