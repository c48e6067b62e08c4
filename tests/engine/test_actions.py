"""Rewards and what they do (R-ACT-1…9), overseers (R-OVS-1…8), upgrading (R-UPG-1), building
(R-BUILD-1…8), repopulating (R-REPOP-1…6), citizens (R-CIT-1…5), registers (R-REG-1…8) and the
advanced boards (R-ADV-1…2), tapped through the engine's menus.

Positions are built directly (tests/scenario.py). Printed values come from the catalog; where a test
needs a particular tile it says which catalog record and why.
"""

from __future__ import annotations

import pytest

from companion.engine.city import add_citizens, add_cubes, adjacent_hexes
from companion.engine.estate import move_to_workshop, workshop_moves
from companion.engine.flow import push, run
from companion.engine.registers import advance_cost, standing
from companion.engine.repopulate import givable
from companion.engine.state import CLASSES, WagonOwned, Workshop

from scenario import (CATALOG, IllegalAction, apply, cubes, end, find, game, give, go_hex, grant, has, kind, lie,
                      log_rules, menu, on_square, pick, place_hex, produce, put, scenario, turn_for, values)

A, B, C = 0, 1, 2  # the 3-player seed-1 game plays in the order C, A, B

FIELD = {"coin": "coins", "lumber": "lumber", "fire": "fire", "major-fire": "major_fire", "vp": "vp"}


# --- helpers -------------------------------------------------------------------------------------

def tokens(reward):
    """A one-bundle token/VP reward (or a cost bundle) as {seat field: amount}."""
    items = reward.items if hasattr(reward, "items") and not hasattr(reward, "options") else None
    if items is None:
        assert not reward.is_choice
        items = reward.options[0].items
    return {FIELD[i.icon]: i.count for i in items}


def snap(s, seat):
    x = s.seats[seat]
    return {k: getattr(x, k) for k in ("coins", "lumber", "fire", "major_fire", "rats", "vp")}


def gained(before, after):
    return {k: after[k] - before[k] for k in before if after[k] != before[k]}


def face_up(s, what, key, tile):
    """Make `tile` the face-up tile of an improvement stack (key = index) or workshop stack (key = class)."""
    stacks = s.improvements if what == "improvement" else [s.workshops[c] for c in CLASSES]
    stack = s.improvements[key] if what == "improvement" else s.workshops[key]
    if stack.up == tile:
        return
    other = next((st for st in stacks if st.up == tile), None)
    if other is not None:
        other.up, stack.up = stack.up, tile
        return
    pool = s.pools[stack.pool]
    assert tile in pool, f"{tile} is not unseen in {stack.pool}"
    pool.remove(tile)
    if stack.up:
        pool.append(stack.up)
    stack.up = tile


def ws(s, seat, tile, cls=None, upgraded=False):
    """Give a seat a built workshop, with a new citizen of `cls` in it when given; returns its index."""
    w = Workshop(tile)
    if cls:
        w.citizen = s.new_citizen(cls)
        w.citizen.upgraded = upgraded
    s.seats[seat].workshops.append(w)
    return len(s.seats[seat].workshops) - 1


def in_cabin(s, seat, i, cls, space=1, upgraded=False):
    c = s.new_citizen(cls)
    c.upgraded = upgraded
    s.seats[seat].cabins[i].citizen, s.seats[seat].cabins[i].space = c, space
    return c


def wagon(s, seat, used=False):
    s.seats[seat].wagons.append(WagonOwned("wagon-1a", used))


def acts(s, seat):
    """The squares offered by the open activation question."""
    assert kind(s) == "activate", kind(s)
    return sorted(v for v in values(s, seat) if v is not None)


def moves(s, seat):
    assert kind(s) == "advance_overseer", kind(s)
    return [v for v in values(s, seat) if v is not None]


def space_of(board, cls, type_):
    """(step, branch, space) of the first space of that type on an overseer's path (catalog)."""
    path = board.paths[cls]
    for branch in ("left", "right"):
        for step in range(1, 7):
            sp = path.space(step, branch)
            if sp.type == type_:
                return step, branch, sp
    raise AssertionError(f"no {type_} space on the {cls} path")


def set_overseer(s, seat, cls, step, branch=None, upgraded=False):
    ov = s.seats[seat].overseers[cls]
    ov.step, ov.branch, ov.upgraded = step, (branch if step >= 2 else None), upgraded


def to_space(s, seat, cls, step, branch, upgraded=False):
    """Put the overseer one step before `step` on `branch`, advance it once, and land."""
    set_overseer(s, seat, cls, step - 1, branch, upgraded)
    grant(s, seat, f"advance-{cls}")
    pick(s, seat, {"overseer": cls, "steps": 1})


def token_square(board, sector, region=None, exclude=()):
    """Squares of a sector (and region) whose reward is plain tokens/VP (no question asked)."""
    out = []
    for q in board.sector(sector):
        if region and q.region != region:
            continue
        r = q.reward
        if q.id not in exclude and not r.is_choice and all(i.icon in FIELD for i in r.options[0].items):
            out.append(q.id)
    return out


# --- R-ACT-1…5 -----------------------------------------------------------------------------------

def test_R_ACT_1_token_icons_give_the_tokens_without_holding_limit():
    s = scenario()
    give(s, A, coins=40, fire=25)
    turn_for(s, A)
    go_hex(s, A, "n09")  # catalog: "1 fire and 1 coin"
    before = snap(s, A)
    pick(s, A, {"act": "hex"})
    assert gained(before, snap(s, A)) == tokens(s.catalog.hexes["n09"].action)


def test_R_ACT_2_slash_means_exactly_one_option():
    s = scenario()
    turn_for(s, A)
    go_hex(s, A, "n04")  # "build or 1 major-fire" (the rulebook's example)
    pick(s, A, {"act": "hex"})
    assert kind(s) == "reward_choice"
    assert values(s, A) == [0, 1]
    before = snap(s, A)
    pick(s, A, 1)
    assert gained(before, snap(s, A)) == {"major_fire": 1}
    assert kind(s) == "action_step"  # no Build as well


def test_R_ACT_3_vp_icon_scores_at_once():
    s = scenario()
    place_hex(s, "n20", "x1")  # C hex "3 vp"
    turn_for(s, A)
    go_hex(s, A, "n20")
    before = snap(s, A)
    pick(s, A, {"act": "hex"})
    assert gained(before, snap(s, A)) == tokens(s.catalog.hexes["n20"].action)


def test_R_ACT_4_register_icon_is_one_free_advance_of_your_choice():
    s = scenario()
    give(s, A, coins=0)
    turn_for(s, A)
    go_hex(s, A, "n06")  # "register"
    pick(s, A, {"act": "hex"})
    assert kind(s) == "register" and values(s, A) == ["city", "church"]
    pick(s, A, "church")
    assert s.seats[A].registers == {"popularity": 0, "city": 0, "church": 1}
    assert s.seats[A].coins == 0


def test_R_ACT_4_named_register_icon_needs_no_choice():
    s = scenario()
    grant(s, A, "city")
    assert s.seats[A].registers["city"] == 1 and kind(s) != "register"


def test_R_ACT_4_Q_17_no_free_advance_past_the_last_space():
    s = scenario()
    last = s.catalog.register("church", s.players).last
    s.seats[A].registers["church"] = last
    grant(s, A, "register")  # church is full: the city advance is the only one left (C-10)
    assert s.seats[A].registers["church"] == last and s.seats[A].registers["city"] == 1
    s.seats[A].registers["city"] = s.catalog.register("city", s.players).last
    n = len(s.log)
    grant(s, A, "register")
    assert kind(s) is None and "Q-17" in log_rules(s, n)
    assert s.seats[A].registers["church"] == last


def test_R_ACT_4_Q_17_paid_advance_greyed_on_the_last_space():
    s = scenario()
    last = s.catalog.register("church", s.players).last
    s.seats[A].registers["church"] = last
    give(s, A, coins=9)
    turn_for(s, A)
    go_hex(s, A, "n03")
    opt = find(s, A, {"act": "pay", "register": "church"})
    assert not opt["available"] and opt["rule"] == "Q-17"
    assert find(s, A, {"act": "pay", "register": "city"})["available"]


def test_R_ACT_5_scroll_moves_one_track_of_your_choice():
    s = scenario()
    turn_for(s, A)
    go_hex(s, A, "n05")  # "scroll"
    pick(s, A, {"act": "hex"})
    tracks = [t.id for t in s.catalog.scroll_boards[s.seats[A].scroll_board].tracks]
    assert kind(s) == "scroll" and sorted(values(s, A)) == sorted(tracks)
    pick(s, A, tracks[1])
    assert s.seats[A].scroll == {t: (1 if t == tracks[1] else 0) for t in tracks}


def test_R_ACT_5_Q_17_no_scroll_advance_past_the_top():
    s = scenario()
    board = s.catalog.scroll_boards[s.seats[A].scroll_board]
    top = {t.id: t.top for t in board.tracks}
    first, second, third = (t.id for t in board.tracks)
    s.seats[A].scroll[first] = top[first]
    grant(s, A, "scroll")
    opt = find(s, A, first)
    assert not opt["available"] and opt["rule"] == "Q-17"
    pick(s, A, second)
    # one track left open: it is taken without asking (C-10)
    s.seats[A].scroll[second] = top[second]
    grant(s, A, "scroll")
    assert s.seats[A].scroll[third] == 1
    # every track at the top: nothing happens
    s.seats[A].scroll[third] = top[third]
    grant(s, A, "scroll")
    assert s.seats[A].scroll == top and kind(s) is None


# --- R-ACT-6 / R-REG-4 ---------------------------------------------------------------------------

def test_R_ACT_6_R_REG_4_take_lieutenant_moves_a_supply_figure_to_the_estate():
    s = scenario()
    x = s.seats[A]
    grant(s, A, "lieutenant")
    assert x.owned_lieutenants == 4
    assert sum(1 for lt in x.lieutenants if lt.where == "estate" and not lt.used) == 4
    assert advance_cost(s, A) == 4


def test_R_ACT_6_at_most_5_lieutenants_supply_empty_gives_nothing():
    s = scenario()
    x = s.seats[A]
    grant(s, A, "lieutenant")
    grant(s, A, "lieutenant")
    assert x.owned_lieutenants == 5
    n = len(s.log)
    grant(s, A, "lieutenant")
    assert x.owned_lieutenants == 5 and len(x.lieutenants) == 5
    assert "R-REG-4" in log_rules(s, n)


def test_R_COMP_3_tokens_are_unlimited_but_lieutenants_stop_at_five():
    """R-COMP-3: fire, lumber, coins and the other tokens have no limit (R-ACT-1: no holding limit);
    lieutenants are limited to the 5 of a colour."""
    s = scenario()
    give(s, A, coins=400, fire=250, lumber=300)
    grant(s, A, "5 coin and 3 fire and 2 lumber")
    x = s.seats[A]
    assert (x.coins, x.fire, x.lumber) == (405, 253, 302), "R-COMP-3: unlimited tokens, no holding limit"
    for _ in range(3):
        grant(s, A, "lieutenant")
    assert x.owned_lieutenants == 5 and len(x.lieutenants) == 5, "R-COMP-3: 5 lieutenants per colour at most"


def test_R_ACT_6_D_15_a_boxed_lieutenant_is_never_taken_back():
    s = scenario()
    x = s.seats[A]
    grant(s, A, "lieutenant")
    put(s, A, "box", used=True, index=0)  # given up for a repopulation
    grant(s, A, "lieutenant")  # the last supply figure
    assert x.owned_lieutenants == 5
    grant(s, A, "lieutenant")
    assert x.lieutenants[0].where == "box"
    assert sum(1 for lt in x.lieutenants if lt.where == "estate") == 4


def test_R_REG_4_new_lieutenant_acts_this_round_after_the_messina_ones():
    s = scenario()
    x = s.seats[A]
    i = lie(s, A, "n03")
    for k in (1, 2):
        x.lieutenants[k].used = True  # A's other figures already acted
    reg = s.catalog.register("city", s.players)
    space = next(k for k, sp in enumerate(reg.spaces) if sp.reward.phrase == "lieutenant")
    x.registers["city"] = space - 1
    give(s, A, coins=3)
    turn_for(s, A)
    go_hex(s, A, "n04")
    pick(s, A, {"act": "pay", "register": "city"})
    pick(s, A, {"act": "right", "reward": "lieutenant"})
    assert find(s, A, {"act": "pay", "register": "city"})["cost"] == "4 coins"  # at once
    end(s, A)
    turn_for(s, A)  # the Messina figure has acted: the new one may go, free from the estate
    assert kind(s) == "turn"
    pick(s, A, {"go": "hex", "tile": "harbor-se"})
    assert x.lieutenants[i].where == "hex:n04"
    assert sum(1 for lt in x.lieutenants if lt.where == "hex:harbor-se" and lt.used) == 1


# --- R-ACT-7 -------------------------------------------------------------------------------------

def any_hex_state(coins=3):
    s = scenario()
    reg = s.catalog.register("city", s.players)
    space = next(k for k, sp in enumerate(reg.spaces) if sp.reward.phrase == "any-hex")
    s.seats[A].registers["city"] = space - 1
    give(s, A, coins=coins)
    put(s, B, "n05", used=True)
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"act": "pay", "register": "city"})
    pick(s, A, {"act": "right", "reward": "any-hex"})
    return s


def test_R_ACT_7_any_hex_offers_every_hex_incl_harbors_and_standing_figures_never_docks():
    s = any_hex_state()
    assert kind(s) == "any_hex"
    offered = values(s, A)
    assert sorted(offered) == sorted(s.hexes)
    assert "n03" in offered and "n05" in offered  # own and another's standing figure
    assert not any(str(v).startswith("dock") for v in offered)


def test_R_ACT_7_any_hex_performs_a_harbor_action():
    s = any_hex_state()
    before = snap(s, A)
    pick(s, A, "harbor-nw")
    assert gained(before, snap(s, A)) == tokens(s.catalog.harbors["harbor-nw"].action)


def test_R_ACT_7_any_hex_is_the_printed_action_never_a_repopulation():
    s = any_hex_state()
    wagon(s, A)
    on_square(s, A, "cr1", "craftsman")
    before = snap(s, A)
    pick(s, A, "n02")  # "1 lumber and 1 coin"; its repopulation is not on offer
    assert gained(before, snap(s, A)) == tokens(s.catalog.hexes["n02"].action)
    assert s.hexes["n02"].repopulated_by is None and "cr1" in s.seats[A].squares
    assert kind(s) == "action_step"


# --- R-ACT-8 / R-ACT-9 ---------------------------------------------------------------------------

def test_R_ACT_8_upgrade_overseer_flips_one_not_yet_upgraded():
    s = scenario()
    s.seats[A].overseers["nun"].upgraded = True
    grant(s, A, "upgrade-overseer")
    assert kind(s) == "upgrade_overseer" and sorted(values(s, A)) == ["aristocrat", "craftsman"]
    pick(s, A, "craftsman")
    ov = s.seats[A].overseers
    assert ov["craftsman"].upgraded and ov["craftsman"].step == 0 and not ov["aristocrat"].upgraded
    assert kind(s) is None


def test_R_ACT_8_nothing_to_upgrade_when_all_are_upgraded():
    s = scenario()
    for ov in s.seats[A].overseers.values():
        ov.upgraded = True
    grant(s, A, "upgrade-overseer")
    assert kind(s) is None


def test_R_ACT_8_upgrade_and_advance_upgrades_if_needed_then_advances_that_overseer():
    s = scenario()
    s.seats[A].overseers["nun"].upgraded = True
    grant(s, A, "upgrade-advance")
    assert sorted(values(s, A)) == ["aristocrat", "craftsman", "nun"]  # an upgraded one may still advance
    pick(s, A, "aristocrat")
    assert s.seats[A].overseers["aristocrat"].upgraded
    assert {m["overseer"] for m in moves(s, A)} == {"aristocrat"}
    pick(s, A, {"overseer": "aristocrat", "steps": 1})
    assert s.seats[A].overseers["aristocrat"].step == 1


def test_R_ACT_9_activate_N_different_citizens_anywhere_in_the_sectors():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    ar = token_square(board, "aristocrat")
    cr = token_square(board, "craftsman")
    for q in ar[:2]:
        on_square(s, A, q, "aristocrat")
    on_square(s, A, cr[0], "craftsman")
    in_cabin(s, A, 0, "nun")
    ws(s, A, "ws1-n2", "nun")
    grant(s, A, "2 activate")
    assert acts(s, A) == sorted(ar[:2] + cr[:1])  # never quarantine or workshop citizens
    before = snap(s, A)
    pick(s, A, ar[0])
    assert ar[0] not in acts(s, A)
    pick(s, A, cr[0])
    assert kind(s) is None  # two activated: done
    want = {}
    for q in (ar[0], cr[0]):
        for k, n in tokens(board.square(q).reward).items():
            want[k] = want.get(k, 0) + n
    assert gained(before, snap(s, A)) == want


# --- R-OVS ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("icon,which", [("advance-aristocrat", {"aristocrat"}), ("advance-nun", {"nun"}),
                                        ("advance-craftsman", {"craftsman"}),
                                        ("advance-any", {"aristocrat", "nun", "craftsman"})])
def test_R_OVS_1_named_or_any_overseer(icon, which):
    s = scenario()
    grant(s, A, icon)
    ms = moves(s, A)
    assert {m["overseer"] for m in ms} == which
    assert all(m["steps"] == 1 for m in ms)


def test_R_OVS_1_R_OVS_5_skip_icon_offers_one_or_two_steps():
    s = scenario()
    set_overseer(s, A, "nun", 2, "left")
    grant(s, A, "advance-skip")
    nun = [(m["steps"], m["branch"]) for m in moves(s, A) if m["overseer"] == "nun"]
    assert sorted(nun) == [(1, "left"), (2, "left")]


def test_R_OVS_2_Q_15_advancing_is_optional():
    s = scenario()
    grant(s, A, "advance-any")
    pick(s, A, None)
    assert all(ov.step == 0 for ov in s.seats[A].overseers.values())
    assert kind(s) is None


def test_R_OVS_2_advance_moves_one_space_and_activates_by_the_landing_space():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    first = board.paths["nun"].first
    assert first.type == "T2"
    region = [q.id for q in board.region(first.regions[0])]
    for q in region:
        on_square(s, A, q, "nun")
    on_square(s, A, next(q.id for q in board.sector("nun") if q.id not in region), "nun")
    grant(s, A, "advance-nun")
    pick(s, A, {"overseer": "nun", "steps": 1})
    assert s.seats[A].overseers["nun"].step == 1
    assert acts(s, A) == sorted(region)


def test_R_OVS_3_branch_chosen_at_the_second_advance_is_permanent():
    s = scenario()
    grant(s, A, "advance-nun")
    assert [m["branch"] for m in moves(s, A)] == [None]
    pick(s, A, {"overseer": "nun", "steps": 1})
    grant(s, A, "advance-nun")
    assert sorted(m["branch"] for m in moves(s, A)) == ["left", "right"]
    pick(s, A, {"overseer": "nun", "steps": 1, "branch": "right"})
    ov = s.seats[A].overseers["nun"]
    assert ov.step == 2 and ov.branch == "right"
    while kind(s) == "activate":
        pick(s, A, None)
    for step in (3, 4, 5):
        grant(s, A, "advance-nun")
        assert [m["branch"] for m in moves(s, A)] == ["right"]
        pick(s, A, {"overseer": "nun", "steps": 1})
        assert ov.step == step and ov.branch == "right"


def test_R_OVS_3_step_6_is_the_centre_on_both_branches():
    for board in CATALOG.boards.values():
        for path in board.paths.values():
            assert path.space(6, "left").type == "T4" == path.space(6, "right").type
            assert len(path.left) == len(path.right) == 5


def test_R_OVS_4_an_overseer_on_the_centre_never_advances():
    s = scenario()
    set_overseer(s, A, "nun", 6, "left")
    set_overseer(s, A, "aristocrat", 6, "right")  # overseers may share the centre
    n = len(s.log)
    grant(s, A, "advance-nun")
    assert kind(s) is None and s.seats[A].overseers["nun"].step == 6
    assert "Q-15" in log_rules(s, n)
    grant(s, A, "advance-any")
    assert {m["overseer"] for m in moves(s, A)} == {"craftsman"}


def test_R_OVS_5_skip_never_passes_the_centre():
    s = scenario()
    set_overseer(s, A, "craftsman", 5, "left")
    grant(s, A, "advance-skip")
    assert [(m["steps"], m["branch"]) for m in moves(s, A) if m["overseer"] == "craftsman"] == [(1, "left")]


def test_R_OVS_5_skip_crossing_the_branch_asks_for_it_and_only_the_landing_space_activates():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    path = board.paths["aristocrat"]
    land = path.space(2, "left")
    passed = path.space(1, None)
    landing = set(land.squares) if land.type == "T1" else {q.id for r in land.regions for q in board.region(r)}
    skipped = {q.id for r in passed.regions for q in board.region(r)} | set(passed.squares)
    only_skipped = sorted(skipped - landing)
    only_landing = sorted(landing - skipped)
    assert only_skipped and only_landing
    on_square(s, A, only_skipped[0], "aristocrat")
    on_square(s, A, only_landing[0], "aristocrat")
    grant(s, A, "advance-skip")
    two = sorted(m["branch"] for m in moves(s, A) if m["overseer"] == "aristocrat" and m["steps"] == 2)
    assert two == ["left", "right"]
    pick(s, A, {"overseer": "aristocrat", "steps": 2, "branch": "left"})
    ov = s.seats[A].overseers["aristocrat"]
    assert ov.step == 2 and ov.branch == "left"
    assert acts(s, A) == [only_landing[0]]


def test_R_OVS_6_citizens_in_quarantine_or_workshops_are_never_activated():
    s = scenario()
    set_overseer(s, A, "nun", 5, "left")
    in_cabin(s, A, 0, "nun")
    ws(s, A, "ws1-n2", "nun")
    grant(s, A, "advance-nun")
    pick(s, A, {"overseer": "nun", "steps": 1})  # the centre: up to 3 anywhere in the sectors
    assert kind(s) is None


def test_R_OVS_6_one_advance_activates_a_citizen_at_most_once_a_later_one_again():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    q = token_square(board, "aristocrat")[0]
    on_square(s, A, q, "aristocrat")
    set_overseer(s, A, "nun", 5, "left")
    grant(s, A, "advance-nun")
    pick(s, A, {"overseer": "nun", "steps": 1})
    before = snap(s, A)
    pick(s, A, q)
    assert kind(s) is None  # 2 activations left, but no other citizen
    assert gained(before, snap(s, A)) == tokens(board.square(q).reward)
    grant(s, A, "1 activate")  # a later activation may use it again
    assert acts(s, A) == [q]


def test_R_OVS_7_T1_normal_one_of_the_two_upgraded_both():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    for cls in CLASSES:
        try:
            step, branch, sp = space_of(board, cls, "T1")
        except AssertionError:
            continue
        rewards = [board.square(q).reward for q in sp.squares]
        if all(not r.is_choice and all(i.icon in FIELD for i in r.options[0].items) for r in rewards):
            break
    else:
        pytest.skip("no T1 space with two token squares on board a")
    for up in (False, True):
        t = scenario()
        for q in sp.squares:
            on_square(t, A, q, board.square(q).sector)
        to_space(t, A, cls, step, branch, upgraded=up)
        assert acts(t, A) == sorted(sp.squares)
        pick(t, A, sp.squares[0])
        if up:
            assert acts(t, A) == [sp.squares[1]]
            pick(t, A, sp.squares[1])
        assert kind(t) is None


@pytest.mark.parametrize("upgraded,most", [(False, 1), (True, 2)])
def test_R_OVS_7_T2_one_citizen_or_up_to_two_when_upgraded(upgraded, most):
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    step, branch, sp = space_of(board, "nun", "T2")
    region = [q.id for q in board.region(sp.regions[0])]
    plain = token_square(board, board.square(region[0]).sector, sp.regions[0])
    assert len(plain) >= 2
    for q in region:
        on_square(s, A, q, board.square(q).sector)
    to_space(s, A, "nun", step, branch, upgraded)
    assert acts(s, A) == sorted(region)
    for k in range(most):
        pick(s, A, plain[k])
    assert kind(s) is None


def t3_setup(upgraded):
    """An overseer one step before a T3 space whose own-class region has two token squares and whose
    other region has one; every square of both regions holds a citizen."""
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    for cls in CLASSES:
        for branch in ("left", "right"):
            for step in range(2, 6):
                sp = board.paths[cls].space(step, branch)
                if sp.type != "T3":
                    continue
                sectors = [board.region(r)[0].sector for r in sp.regions]
                if cls not in sectors:
                    continue
                own = sectors.index(cls)
                plain = [token_square(board, sectors[k], r) for k, r in enumerate(sp.regions)]
                if len(plain[own]) >= 2 and plain[1 - own]:
                    regions = [[q.id for q in board.region(r)] for r in sp.regions]
                    for reg in regions:
                        for q in reg:
                            on_square(s, A, q, board.square(q).sector)
                    to_space(s, A, cls, step, branch, upgraded)
                    return s, regions, plain, own
    pytest.skip("no T3 space with two token squares in its own region")


def test_R_OVS_7_T3_normal_one_in_each_region_never_two_from_one():
    s, regions, plain, own = t3_setup(False)
    assert acts(s, A) == sorted(regions[0] + regions[1])
    pick(s, A, plain[0][0])
    assert acts(s, A) == sorted(regions[1])  # not a second one from the same region
    pick(s, A, plain[1][0])
    assert kind(s) is None


def test_R_OVS_7_T3_normal_only_one_when_only_one_region_has_citizens():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    step, branch, sp = space_of(board, "nun", "T3")
    reg = [q.id for q in board.region(sp.regions[0])]
    plain = token_square(board, board.square(reg[0]).sector, sp.regions[0])
    for q in reg:
        on_square(s, A, q, board.square(q).sector)
    to_space(s, A, "nun", step, branch)
    pick(s, A, plain[0])
    assert kind(s) is None


def test_R_OVS_7_T3_upgraded_two_in_the_own_class_region_plus_one_in_the_other():
    s, regions, plain, own = t3_setup(True)
    other = 1 - own
    assert len(plain[own]) >= 2
    pick(s, A, plain[own][0])
    pick(s, A, plain[own][1])
    assert acts(s, A) == sorted(regions[other])  # own region used up
    pick(s, A, plain[other][0])
    assert kind(s) is None


def test_R_OVS_7_T3_upgraded_never_two_from_the_other_region():
    s, regions, plain, own = t3_setup(True)
    other = 1 - own
    pick(s, A, plain[other][0])
    assert acts(s, A) == sorted(regions[own])


def test_R_OVS_7_T4_centre_up_to_three_anywhere_even_from_one_region():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    plain = token_square(board, "aristocrat")
    region = board.square(plain[0]).region
    same = [q for q in plain if board.square(q).region == region][:2]
    assert len(same) == 2, "test needs two token squares in one region"
    extra = token_square(board, "craftsman")[:2]
    for q in same:
        on_square(s, A, q, "aristocrat")
    for q in extra:
        on_square(s, A, q, "craftsman")
    set_overseer(s, A, "craftsman", 5, "right")
    grant(s, A, "advance-craftsman")
    pick(s, A, {"overseer": "craftsman", "steps": 1})
    assert board.paths["craftsman"].space(6, "right").type == "T4"
    assert acts(s, A) == sorted(same + extra)
    pick(s, A, same[0])
    pick(s, A, same[1])  # a second one from the same region
    assert acts(s, A) == sorted(extra)
    pick(s, A, extra[0])
    assert kind(s) is None  # three used: the fourth citizen is not activated


def expected_squares(board, sp):
    if sp.type == "T1":
        return set(sp.squares)
    if sp.type in ("T2", "T3"):
        return {q.id for r in sp.regions for q in board.region(r)}
    return {q.id for q in board.squares}


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("branch", ["left", "right"])
def test_R_OVS_8_each_path_space_reaches_its_printed_squares(cls, branch):
    board = CATALOG.boards["a"]
    path = board.paths[cls]
    for step in range(1, 7):
        s = scenario()
        for q in board.squares:
            on_square(s, A, q.id, q.sector)
        set_overseer(s, A, cls, step - 1, branch)
        grant(s, A, f"advance-{cls}")
        pick(s, A, {"overseer": cls, "steps": 1, "branch": branch if step >= 2 else None})
        sp = path.space(step, branch)
        assert acts(s, A) == sorted(expected_squares(board, sp)), (cls, branch, step, sp.id)


# --- R-UPG-1 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["square", "cabin", "workshop"])
def test_R_UPG_1_upgrade_a_citizen_wherever_it_is(where):
    s = scenario()
    a = on_square(s, A, "cr1", "craftsman")
    b = in_cabin(s, A, 1, "nun")
    w = s.seats[A].workshops
    c = s.new_citizen("aristocrat")
    w.append(Workshop("ws1-a1", c))
    on_square(s, A, "cr2", "craftsman", upgraded=True)  # already gold: not offered
    grant(s, A, "upgrade-citizen")
    assert kind(s) == "upgrade_citizen"
    assert sorted(map(tuple, values(s, A))) == sorted([("square", "cr1"), ("cabin", 1), ("workshop", 0)])
    target = {"square": ["square", "cr1"], "cabin": ["cabin", 1], "workshop": ["workshop", 0]}[where]
    pick(s, A, target)
    assert {"square": a, "cabin": b, "workshop": c}[where].upgraded
    assert sum(x.upgraded for x in (a, b, c)) == 1


# --- R-BUILD -------------------------------------------------------------------------------------

def build_menu(s, seat):
    assert kind(s) == "build"
    return {tuple(sorted(o["value"].items())): o for o in menu(s, seat)}


def test_R_BUILD_1_build_offers_improvements_workshops_and_wagons():
    s = scenario()
    give(s, A, coins=10, lumber=10)
    grant(s, A, "build")
    vals = values(s, A)
    built = [v for v in vals if v.get("build")]
    assert {v["build"] for v in built} == {"improvement", "workshop", "wagon"}
    assert len([v for v in built if v["build"] == "improvement"]) == 3
    assert {v["cls"] for v in built if v["build"] == "workshop"} == set(CLASSES)
    assert len([v for v in built if v["build"] == "wagon"]) == len(s.wagon_stacks)


def test_R_BUILD_2_Q_10_cycling_pays_1_vp_or_1_token_never_a_rat():
    s = scenario()
    give(s, A, coins=1, lumber=1, fire=1, major_fire=1, vp=1, rats=3)
    grant(s, A, "build")
    pays = {(v["cycle"], v["pay"]) for v in values(s, A) if "cycle" in v}
    assert pays == {(k, p) for k in ("improvements", "workshops")
                    for p in ("vp", "coins", "lumber", "fire", "major_fire")}


def test_R_BUILD_2_C_5_no_vp_payment_without_a_vp():
    s = scenario()
    give(s, A, coins=1, lumber=0, fire=0, major_fire=0, vp=0)
    grant(s, A, "build")
    assert {v["pay"] for v in values(s, A) if "cycle" in v} == {"coins"}


def test_R_BUILD_2_cycling_puts_every_face_up_tile_of_the_kind_under_its_stack_once():
    s = scenario()
    give(s, A, coins=5, lumber=5, vp=3)
    old = [st.up for st in s.improvements]
    shops = {c: s.workshops[c].up for c in CLASSES}
    grant(s, A, "build")
    pick(s, A, {"cycle": "improvements", "pay": "vp"})
    assert s.seats[A].vp == 2
    assert [st.bottom[-1] for st in s.improvements] == old
    assert {c: s.workshops[c].up for c in CLASSES} == shops  # the other kind is untouched
    assert not any("cycle" in v for v in values(s, A, available_only=False))  # once
    nothing = find(s, A, {"build": None})
    assert not nothing["available"] and nothing["rule"] == "R-BUILD-2"


def test_R_BUILD_2_after_cycling_the_next_tiles_are_face_up_and_offered():
    s = scenario()
    give(s, A, coins=5, lumber=5, vp=3)
    old = [st.up for st in s.improvements]
    grant(s, A, "build")
    pick(s, A, {"cycle": "improvements", "pay": "vp"})
    assert kind(s) == "build"
    assert all(st.up and st.up not in old for st in s.improvements)
    offered = {v["stack"] for v in values(s, A, available_only=False) if v.get("build") == "improvement"}
    assert offered == {0, 1, 2}


def test_R_BUILD_2_after_cycling_must_build_the_newly_turned_up_tile():
    s = scenario()
    for i, tile in enumerate(("imp-01", "imp-03", "imp-06")):
        face_up(s, "improvement", i, tile)  # 1 lumber each
    s.pools["improvements"] = [p for p in s.pools["improvements"]
                               if CATALOG.improvements[p].cost.items == CATALOG.improvements["imp-01"].cost.items]
    for st in s.improvements:
        st.hidden = min(st.hidden, len(s.pools["improvements"]) // 3)
    for cls, tile in (("aristocrat", "ws1-a3"), ("nun", "ws1-n1"), ("craftsman", "ws1-c2")):
        face_up(s, "workshop", cls, tile)  # each needs a coin as well
    s.wagon_stacks = []
    give(s, A, coins=0, lumber=2, fire=0, major_fire=0, vp=0)
    grant(s, A, "build")
    pick(s, A, {"cycle": "improvements", "pay": "lumber"})
    nothing = find(s, A, {"build": None})
    assert not nothing["available"] and nothing["rule"] == "R-BUILD-2"


def test_R_BUILD_2_after_cycling_build_nothing_only_when_nothing_is_affordable():
    s = scenario()
    for cls, tile in (("aristocrat", "ws1-a2"), ("nun", "ws1-n2"), ("craftsman", "ws1-c4")):
        face_up(s, "workshop", cls, tile)  # each costs 1 lumber
    give(s, A, coins=1, lumber=0, fire=0, major_fire=0, vp=0)
    grant(s, A, "build")
    pick(s, A, {"cycle": "improvements", "pay": "coins"})
    assert not any(o["available"] for o in menu(s, A) if o["value"].get("build"))
    pick(s, A, {"build": None})
    assert kind(s) is None


def test_R_BUILD_2_C_6_build_may_be_declined_before_cycling():
    s = scenario()
    give(s, A, coins=5, lumber=5)
    grant(s, A, "build")
    pick(s, A, {"build": None})
    assert kind(s) is None and s.seats[A].coins == 5


def test_R_BUILD_3_improvement_paid_placed_on_a_chosen_unimproved_cabin_next_turns_up():
    s = scenario()
    face_up(s, "improvement", 0, "imp-01")  # 1 lumber
    face_up(s, "improvement", 1, "imp-07")  # 1 lumber + 1 coin
    s.seats[A].cabins[1].improvement = "imp-03"
    give(s, A, coins=0, lumber=1)
    grant(s, A, "build")
    dear = find(s, A, {"build": "improvement", "stack": 1})
    assert not dear["available"] and dear["rule"] == "R-BUILD-3"
    assert dear["reason"] == "you have 0 coins, need 1"
    pick(s, A, {"build": "improvement", "stack": 0})
    assert kind(s) == "place_improvement" and values(s, A) == [0, 2, 3]
    pick(s, A, 2)
    x = s.seats[A]
    assert x.cabins[2].improvement == "imp-01" and x.lumber == 0
    assert s.improvements[0].up not in (None, "imp-01")


def test_R_BUILD_3_no_improvement_when_every_cabin_is_improved():
    s = scenario()
    for i, cab in enumerate(s.seats[A].cabins):
        cab.improvement = f"imp-1{i}"
    give(s, A, coins=9, lumber=9)
    grant(s, A, "build")
    for i in range(3):
        opt = find(s, A, {"build": "improvement", "stack": i})
        assert not opt["available"] and opt["rule"] == "R-BUILD-3"


def test_R_BUILD_4_workshop_built_then_takes_a_citizen_of_its_class():
    s = scenario()
    face_up(s, "workshop", "nun", "ws1-n2")  # 1 lumber
    on_square(s, A, "nu1", "nun")
    on_square(s, A, "cr1", "craftsman")
    give(s, A, lumber=1)
    turn_for(s, A)
    go_hex(s, A, "n10")  # "build"
    pick(s, A, {"act": "hex"})
    pick(s, A, {"build": "workshop", "cls": "nun"})
    x = s.seats[A]
    assert [w.tile for w in x.workshops] == ["ws1-n2"] and x.lumber == 0
    assert s.workshops["nun"].up not in (None, "ws1-n2")
    mv = [v for v in values(s, A) if v["act"] == "workshop"]
    assert mv == [{"act": "workshop", "square": "nu1", "workshop": 0}]
    pick(s, A, mv[0])
    assert x.workshops[0].citizen.cls == "nun" and "nu1" not in x.squares


def test_R_BUILD_4_workshops_beyond_six_slots_are_still_built():
    s = scenario()
    for _ in range(6):
        ws(s, A, "ws1-c2")
    give(s, A, coins=10, lumber=10)
    grant(s, A, "build")
    pick(s, A, {"build": "workshop", "cls": "craftsman"})
    assert len(s.seats[A].workshops) == 7


def test_R_BUILD_5_early_workshop_produces_each_round():
    s = scenario()
    ws(s, A, "ws1-c1", "craftsman")
    for _ in range(2):
        before = snap(s, A)
        produce(s, A)
        assert gained(before, snap(s, A)) == tokens(s.catalog.workshops["ws1-c1"].output)


def test_R_BUILD_5_late_workshop_pays_once_when_filled_then_never_produces():
    s = scenario()
    i = ws(s, A, "ws2-n1")  # late nun: once 1 fire + 3 VP, any nun (R-BUILD-8)
    on_square(s, A, "nu1", "nun")
    turn_for(s, A)
    go_hex(s, A, "n03")
    before = snap(s, A)
    pick(s, A, {"act": "workshop", "square": "nu1", "workshop": i})
    assert gained(before, snap(s, A)) == tokens(s.catalog.workshops["ws2-n1"].reward)
    assert s.seats[A].workshops[i].spent
    end(s, A)
    before = snap(s, A)
    produce(s, A)
    assert snap(s, A) == before


def test_R_BUILD_5_R_EOR_3_spent_late_workshop_with_upgraded_citizen_gives_only_1_vp():
    s = scenario()
    ws(s, A, "ws2-n1", "nun", upgraded=True)
    s.seats[A].workshops[0].spent = True
    before = snap(s, A)
    produce(s, A)
    assert gained(before, snap(s, A)) == {"vp": 1}


def test_R_BUILD_6_needs_upgraded_early_workshop_yields_only_after_the_upgrade():
    s = scenario()
    ws(s, A, "ws1-n1", "nun")  # needs an upgraded nun: 1 major fire + 1 coin
    before = snap(s, A)
    produce(s, A)
    assert snap(s, A) == before
    grant(s, A, "upgrade-citizen")
    pick(s, A, ["workshop", 0])
    before = snap(s, A)
    produce(s, A)
    want = dict(tokens(s.catalog.workshops["ws1-n1"].output))
    want["vp"] = want.get("vp", 0) + 1
    assert gained(before, snap(s, A)) == want


def test_R_BUILD_6_late_workshop_needing_upgraded_pays_at_the_moment_of_upgrade():
    s = scenario()
    assert s.catalog.workshops["ws2-a1"].needs_upgraded and s.catalog.workshops["ws2-a1"].era == 2
    i = ws(s, A, "ws2-a1")
    on_square(s, A, "ar1", "aristocrat")
    turn_for(s, A)
    go_hex(s, A, "n03")
    before = snap(s, A)
    pick(s, A, {"act": "workshop", "square": "ar1", "workshop": i})
    x = s.seats[A]
    assert snap(s, A) == before and not x.workshops[i].spent  # a regular one: nothing yet
    end(s, A)
    regs = dict(x.registers)
    grant(s, A, "upgrade-citizen")
    pick(s, A, ["workshop", i])
    assert x.workshops[i].citizen.upgraded and x.workshops[i].spent
    assert x.registers["city"] == regs["city"] + 1 and x.registers["church"] == regs["church"] + 1
    assert x.vp == before["vp"] + 2


def test_R_BUILD_7_wagon_paid_scores_at_once_and_the_next_wagon_turns_up():
    s = scenario()
    k = max(range(len(s.wagon_stacks)), key=lambda i: s.catalog.wagons[s.wagon_stacks[i].up].vp)
    stack = s.wagon_stacks[k]
    tile = stack.up
    w = s.catalog.wagons[tile]
    give(s, A, coins=9, lumber=9)
    before = snap(s, A)
    grant(s, A, "build")
    pick(s, A, {"build": "wagon", "stack": k})
    x = s.seats[A]
    assert w.vp > 0, "test needs a face-up wagon worth VP"
    assert [(v.tile, v.used) for v in x.wagons] == [(tile, False)]
    diff = gained(before, snap(s, A))
    want = {k: -n for k, n in tokens(w.cost).items()} if w.cost.items else {}
    if w.vp:
        want["vp"] = w.vp
    assert diff == want
    assert stack.up and s.catalog.wagons[stack.up].back == w.back + 1


def test_R_BUILD_7_unaffordable_wagon_is_greyed():
    s = scenario()
    give(s, A, coins=0, lumber=0, fire=0, major_fire=0, vp=0)
    grant(s, A, "build")
    for i, st in enumerate(s.wagon_stacks):
        if s.catalog.wagons[st.up].cost.items:
            opt = find(s, A, {"build": "wagon", "stack": i})
            assert not opt["available"] and opt["rule"] == "R-BUILD-7"


def test_R_BUILD_8_catalog_holds_the_rulebook_tiles():
    c = CATALOG
    n1 = c.workshops["ws1-n1"]
    assert (n1.era, n1.cls, n1.needs_upgraded) == (1, "nun", True)
    assert tokens(n1.output) == {"major_fire": 1, "coins": 1}
    n2 = c.workshops["ws1-n2"]
    assert (n2.era, n2.cls, n2.needs_upgraded) == (1, "nun", False)
    assert tokens(n2.output) == {"fire": 1} and tokens(n2.upgraded_output) == {"fire": 2}
    assert any(w.cls == "aristocrat" and not w.needs_upgraded for w in c.workshops.values())
    assert any(w.cls == "aristocrat" and w.era == 2 and w.needs_upgraded for w in c.workshops.values())
    n_late = c.workshops["ws2-n1"]
    assert (n_late.era, n_late.cls, n_late.needs_upgraded) == (2, "nun", False)
    assert tokens(n_late.reward) == {"fire": 1, "vp": 3}


@pytest.mark.parametrize("upgraded,want", [(False, {"fire": 1}), (True, {"fire": 2, "vp": 1})])
def test_R_BUILD_8_two_level_nun_workshop_1_fire_or_2_fire_plus_1_vp(upgraded, want):
    s = scenario()
    ws(s, A, "ws1-n2", "nun", upgraded)
    before = snap(s, A)
    produce(s, A)
    assert gained(before, snap(s, A)) == want


@pytest.mark.parametrize("upgraded", [False, True])
def test_R_BUILD_8_aristocrat_workshop_takes_regular_or_upgraded(upgraded):
    s = scenario()
    tile = next(w for w in CATALOG.workshops.values() if w.cls == "aristocrat" and w.era == 1
                and not w.needs_upgraded and not w.upgraded_output)
    ws(s, A, tile.id, "aristocrat", upgraded)
    before = snap(s, A)
    produce(s, A)
    want = dict(tokens(tile.output))
    if upgraded:
        want["vp"] = want.get("vp", 0) + 1
    assert gained(before, snap(s, A)) == want


def test_R_BUILD_8_upgraded_nun_workshop_gives_1_major_fire_and_1_coin():
    s = scenario()
    ws(s, A, "ws1-n1", "nun", upgraded=True)
    before = snap(s, A)
    produce(s, A)
    assert gained(before, snap(s, A)) == {"major_fire": 1, "coins": 1, "vp": 1}


# --- R-REPOP -------------------------------------------------------------------------------------

def repop_menu(s, seat):
    return find(s, seat, {"act": "repopulate"})


def test_R_REPOP_1_repopulation_replaces_the_chosen_hexs_action():
    s = scenario()
    wagon(s, A)
    on_square(s, A, "cr1", "craftsman")
    give(s, A, coins=1, lumber=0)
    turn_for(s, A)
    go_hex(s, A, "n02")  # 1 coin + 1 craftsman
    pick(s, A, {"act": "repopulate"})
    assert [t for t, h in s.hexes.items() if h.repopulated_by is not None] == ["n02"]
    assert s.seats[A].lumber == 0 and not has(s, A, {"act": "hex"})


@pytest.mark.parametrize("case", ["harbor", "repopulated", "no_requirements", "no_tiles", "no_wagon",
                                  "used_wagon"])
def test_R_REPOP_2_forbidden_repopulation_is_greyed_with_its_reason(case):
    s = scenario()
    wagon(s, A, used=(case == "used_wagon"))
    if case == "no_wagon":
        s.seats[A].wagons = []
    on_square(s, A, "cr1", "craftsman")
    give(s, A, coins=5)
    tile = {"harbor": "harbor-nw", "no_requirements": "n05"}.get(case, "n02")
    if case == "repopulated":
        s.hexes["n02"].repopulated_by = B
    if case == "no_tiles":
        for t in ("n01", "n03", "n04", "n06", "n08"):
            s.hexes[t].repopulated_by = A
    turn_for(s, A)
    go_hex(s, A, tile)
    opt = repop_menu(s, A)
    reasons = {"harbor": "a harbor cannot be repopulated", "repopulated": "already repopulated",
               "no_requirements": "this hex shows no repopulation requirements",
               "no_tiles": "you have no repopulation tile left",
               "no_wagon": "you need a wagon not used this round",
               "used_wagon": "you need a wagon not used this round"}
    assert not opt["available"]
    assert opt["reason"] == reasons[case] and opt["rule"] == "R-REPOP-2"
    with pytest.raises(IllegalAction):
        apply(s, opt["action"])


def test_R_REPOP_2_C_3_catalog_hexes_without_requirements_exist():
    assert [h.id for h in CATALOG.hexes.values() if not h.repop]
    assert sum(1 for h in CATALOG.hexes.values() if h.repop) > len(CATALOG.hexes) / 2  # "most hexes"


def n07_state():
    """n07 (catalog): 2 coins + 1 aristocrat + 1 nun + 1 lieutenant."""
    s = scenario()
    hx = s.catalog.hexes["n07"]
    assert hx.repop_lieutenant and sorted(n.cls for n in hx.repop_citizens) == ["aristocrat", "nun"]
    wagon(s, A)
    on_square(s, A, "ar1", "aristocrat")
    ws(s, A, "ws1-n2", "nun")
    in_cabin(s, A, 0, "nun")  # quarantine: never given
    give(s, A, coins=3)
    return s


def test_R_REPOP_3_procedure_cost_wagon_citizens_lieutenant_tile():
    s = n07_state()
    x = s.seats[A]
    turn_for(s, A)
    go_hex(s, A, "n07")
    acting = next(i for i, lt in enumerate(x.lieutenants) if lt.where == "hex:n07")
    pick(s, A, {"act": "repopulate"})
    assert kind(s) == "action_step"  # every choice was forced
    assert x.coins == 1
    assert [w.used for w in x.wagons] == [True]
    assert "ar1" not in x.squares and x.workshops[0].citizen is None
    assert x.cabins[0].citizen is not None  # the quarantined nun stays
    boxed = [i for i, lt in enumerate(x.lieutenants) if lt.where == "box"]
    assert len(boxed) == 1 and boxed[0] != acting and x.lieutenants[boxed[0]].used
    assert x.lieutenants[acting].where == "hex:n07"
    assert s.hexes["n07"].repopulated_by == A and x.rats == 0


def test_R_REPOP_3_one_rat_whatever_the_number_of_cubes():
    s = n07_state()
    cubes(s, "n07", 2)
    give(s, A, fire=0, major_fire=0)
    turn_for(s, A)
    go_hex(s, A, "n07")
    assert s.seats[A].rats == 2  # the cubes left after the fight
    pick(s, A, {"act": "repopulate"})
    assert s.seats[A].rats == 3 and s.hexes["n07"].cubes == 2


def test_R_REPOP_3_quarantined_citizens_never_count():
    s = scenario()
    wagon(s, A)
    in_cabin(s, A, 0, "craftsman")
    give(s, A, coins=1)
    turn_for(s, A)
    go_hex(s, A, "n02")  # needs 1 craftsman
    opt = repop_menu(s, A)
    assert not opt["available"] and opt["rule"] == "R-REPOP-3"
    assert opt["reason"] == "you are short of 1 craftsman in your sectors or workshops"


def test_R_REPOP_3_upgraded_citizen_satisfies_a_regular_requirement():
    s = scenario()
    wagon(s, A)
    on_square(s, A, "cr1", "craftsman", upgraded=True)
    give(s, A, coins=1)
    turn_for(s, A)
    go_hex(s, A, "n02")
    pick(s, A, {"act": "repopulate"})
    assert s.hexes["n02"].repopulated_by == A and "cr1" not in s.seats[A].squares


@pytest.mark.parametrize("upgraded", [False, True])
def test_R_REPOP_3_a_required_upgraded_citizen_must_be_upgraded(upgraded):
    s = scenario()
    hx = s.catalog.hexes["n04"]
    assert [(n.cls, n.upgraded) for n in hx.repop_citizens] == [("aristocrat", True)]
    wagon(s, A)
    on_square(s, A, "ar1", "aristocrat", upgraded=upgraded)
    give(s, A, fire=5, coins=5, lumber=5)
    turn_for(s, A)
    go_hex(s, A, "n04")
    opt = repop_menu(s, A)
    assert opt["available"] == upgraded
    if not upgraded:
        assert opt["rule"] == "R-REPOP-3" and "upgraded aristocrat" in opt["reason"]


def test_R_REPOP_3_which_citizen_goes_is_the_players_choice_sector_or_workshop():
    s = scenario()
    wagon(s, A)
    on_square(s, A, "cr1", "craftsman")
    ws(s, A, "ws1-c1", "craftsman")
    give(s, A, coins=1)
    turn_for(s, A)
    go_hex(s, A, "n02")
    pick(s, A, {"act": "repopulate"})
    assert kind(s) == "give_citizen"
    assert sorted(map(tuple, values(s, A))) == [("square", "cr1"), ("workshop", 0)]
    pick(s, A, ["workshop", 0])
    assert s.seats[A].workshops[0].citizen is None and "cr1" in s.seats[A].squares


def test_R_REPOP_3_unaffordable_cost_is_greyed():
    s = scenario()
    wagon(s, A)
    on_square(s, A, "cr1", "craftsman")
    give(s, A, coins=0)
    turn_for(s, A)
    go_hex(s, A, "n02")
    opt = repop_menu(s, A)
    assert not opt["available"] and opt["rule"] == "R-REPOP-3"
    assert opt["reason"] == "you have 0 coins, need 1"


def test_R_REPOP_3_never_the_acting_lieutenant():
    s = n07_state()
    x = s.seats[A]
    for lt in x.lieutenants[1:3]:
        lt.used = True
    turn_for(s, A)
    go_hex(s, A, "n07")
    opt = repop_menu(s, A)
    assert not opt["available"] and opt["rule"] == "R-REPOP-3"


def test_R_REPOP_3_lieutenant_given_up_may_be_one_lying_in_messina():
    s = n07_state()
    x = s.seats[A]
    near = next((t for t in adjacent_hexes(s, "n07") if t in s.catalog.hexes), None)
    assert near is not None
    i = lie(s, A, near)
    far = lie(s, A, "n01")
    turn_for(s, A)
    go_hex(s, A, "n07")
    if kind(s) == "send":
        pick(s, A, i)
    pick(s, A, {"act": "repopulate"})
    assert kind(s) == "give_lieutenant"
    assert far in values(s, A)
    assert i not in values(s, A)
    pick(s, A, far)
    assert x.lieutenants[far].where == "box" and x.lieutenants[i].where == "hex:n07"


def test_R_REPOP_4_printed_action_stays_usable_by_everyone():
    s = scenario()
    s.hexes["n02"].repopulated_by = A
    vp = s.seats[A].vp
    turn_for(s, B)
    go_hex(s, B, "n02")
    assert s.seats[A].vp == vp + 2
    assert not repop_menu(s, B)["available"]
    before = snap(s, B)
    pick(s, B, {"act": "hex"})
    assert gained(before, snap(s, B)) == tokens(s.catalog.hexes["n02"].action)


def test_R_REPOP_4_R_NEXT_11_each_cube_added_to_a_repopulated_hex_is_a_rat():
    s = scenario()
    s.phase = "upkeep"
    rat = s.catalog.hexes["n02"].rat
    s.wheel = next(i for i, w in enumerate(s.catalog.wheel) if w.rat == rat)
    s.hexes["n02"].repopulated_by = A
    add_cubes(s)
    assert s.hexes["n02"].cubes == 1 and s.seats[A].rats == 1


def test_R_REPOP_5_known_requirements_are_in_the_catalog():
    found = set()
    for h in CATALOG.hexes.values():
        if not h.repop:
            continue
        need = sorted((n.cls, n.count, n.upgraded) for n in h.repop_citizens)
        cost = tokens(h.repop_cost) if h.repop_cost.items else {}
        found.add((tuple(sorted(cost.items())), tuple(need), h.repop_lieutenant))
    assert ((("lumber", 1),), (("aristocrat", 2, False),), False) in found
    assert ((("coins", 1),), (("craftsman", 1, True), ("nun", 1, False)), False) in found
    assert ((("coins", 2),), (("nun", 2, False),), True) in found


def test_R_REPOP_6_boxed_lieutenant_still_counts_for_register_costs():
    s = n07_state()
    x = s.seats[A]
    put(s, A, "estate", index=3)  # a 4th lieutenant taken from the supply earlier
    give(s, A, coins=6)
    turn_for(s, A)
    go_hex(s, A, "n07")
    assert find(s, A, {"act": "pay", "register": "city"})["cost"] == "4 coins"
    pick(s, A, {"act": "repopulate"})
    assert sum(1 for lt in x.lieutenants if lt.where == "box") == 1
    assert x.owned_lieutenants == 4
    assert find(s, A, {"act": "pay", "register": "city"})["cost"] == "4 coins"


# --- R-CIT ---------------------------------------------------------------------------------------

def test_R_CIT_1_citizens_enter_messina_only_through_the_wheel():
    s = scenario()
    s.phase = "upkeep"
    s.wheel = next(i for i, w in enumerate(s.catalog.wheel) if w.id == "w2")
    window = s.catalog.wheel[s.wheel]
    add_citizens(s)
    for tile, h in s.hexes.items():
        if tile in s.catalog.harbors:
            assert h.citizens == []
            continue
        cls = window.colours[s.catalog.hexes[tile].colour]
        assert [c.cls for c in h.citizens] == ([cls] if cls else [])
    total = sum(len(h.citizens) for h in s.hexes.values())
    s.phase = "play"
    turn_for(s, A)
    go_hex(s, A, "harbor-nw")
    pick(s, A, {"act": "hex"})
    end(s, A)
    pick(s, B, {"go": "recall"})
    assert sum(len(h.citizens) for h in s.hexes.values()) == total


def test_R_CIT_2_sector_citizens_never_change_squares():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    q = token_square(board, "craftsman")[0]
    c = on_square(s, A, q, "craftsman")
    grant(s, A, "1 activate")
    pick(s, A, q)
    assert s.seats[A].squares == {q: c}
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert not [v for v in values(s, A) if v["act"] == "workshop"]  # no empty workshop: no move at all


def test_R_CIT_3_quarantine_space_I_to_II_then_out_to_sector_or_workshop():
    s = scenario()
    s.phase = "upkeep"
    first = in_cabin(s, A, 0, "nun", space=1)
    second = in_cabin(s, A, 1, "nun", space=2)
    i = ws(s, A, "ws1-n2")
    push(s, "main", {"do": "quarantine"})
    run(s)
    x = s.seats[A]
    assert x.cabins[0].citizen.id == first.id and x.cabins[0].space == 2
    assert x.cabins[1].citizen is None
    assert kind(s) == "leave_quarantine"
    assert ["workshop", i] in values(s, A)
    assert {tuple(v) for v in values(s, A) if v[0] == "square"} == \
        {("square", q.id) for q in s.catalog.boards[x.board].sector("nun")}
    pick(s, A, ["workshop", i])
    assert x.workshops[i].citizen.id == second.id


def test_R_CIT_4_sector_citizen_moves_into_an_empty_workshop_of_its_class_only():
    s = scenario()
    on_square(s, A, "nu1", "nun")
    on_square(s, A, "cr1", "craftsman")
    full = ws(s, A, "ws1-n3", "nun")
    empty_nun = ws(s, A, "ws1-n2")
    ws(s, A, "ws1-a1")
    assert workshop_moves(s, A) == [{"square": "nu1", "workshop": empty_nun}]
    assert full != empty_nun


def test_R_CIT_4_workshop_citizen_never_returns_or_changes_workshop():
    s = scenario()
    ws(s, A, "ws1-n2", "nun")
    ws(s, A, "ws1-n3")
    assert workshop_moves(s, A) == []
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert not [v for v in values(s, A) if v["act"] == "workshop"]


def test_R_CIT_5_what_a_citizen_can_do_by_location():
    s = scenario()
    on_square(s, A, "nu1", "nun")
    in_cabin(s, A, 0, "nun")
    ws(s, A, "ws1-n2", "nun")
    ws(s, A, "ws1-n3")
    # move to an empty workshop: sector only
    assert [m["square"] for m in workshop_moves(s, A)] == ["nu1"]
    # repopulate: sector and workshop, not quarantine
    assert sorted(tuple(loc) for loc, _ in givable(s, A)) == [("square", "nu1"), ("workshop", 0)]
    # upgrade: anywhere
    grant(s, A, "upgrade-citizen")
    assert sorted(map(tuple, values(s, A))) == [("cabin", 0), ("square", "nu1"), ("workshop", 0)]


# --- R-REG ---------------------------------------------------------------------------------------

def test_R_REG_1_an_advance_earns_the_action_of_the_space_reached():
    s = scenario()
    reg = s.catalog.register("church", s.players)
    k = next(i for i in range(1, len(reg.spaces)) if not reg.spaces[i].reward.is_nothing)
    s.seats[A].registers["church"] = k - 1
    give(s, A, coins=3)
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"act": "pay", "register": "church"})
    assert [r["reward"] for r in s.rights] == [reg.spaces[k].reward.phrase]


def test_R_REG_2_popularity_cannot_be_bought_only_cubes_move_it():
    s = scenario()
    give(s, A, coins=20)
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert {v["register"] for v in values(s, A, available_only=False) if v["act"] == "pay"} == {"city", "church"}
    pick(s, A, {"act": "hex"})
    assert s.seats[A].registers["popularity"] == 0


def test_R_REG_3_paid_advance_costs_1_coin_per_lieutenant_ever_owned():
    s = scenario()
    give(s, A, coins=2)
    turn_for(s, A)
    go_hex(s, A, "n03")
    opt = find(s, A, {"act": "pay", "register": "church"})
    assert opt["cost"] == "3 coins" and not opt["available"] and opt["rule"] == "R-REG-3"
    assert opt["reason"] == "you have 2 coins, need 3 (1 coin per lieutenant you ever owned)"
    assert opt["label"].endswith("(space 0 → 1) — no reward on that space")
    assert find(s, A, {"act": "pay", "register": "city"})["label"].endswith("— reward of that space: 1 coin")


def test_R_REG_3_paid_advances_only_in_an_action_step():
    s = scenario()
    turn_for(s, A)
    assert not any(isinstance(v, dict) and v.get("act") == "pay" for v in values(s, A, available_only=False))
    grant_state = scenario()
    grant(grant_state, A, "build")
    assert not any(v.get("act") == "pay" for v in values(grant_state, A, available_only=False))


def test_R_REG_5_lieutenants_only_on_the_city_register_church_upgrades_and_activates():
    for n in (2, 3):
        city = [sp.reward.phrase for sp in CATALOG.register("city", n).spaces]
        church = [sp.reward.phrase for sp in CATALOG.register("church", n).spaces]
        pop = [sp.reward.phrase for sp in CATALOG.register("popularity", n).spaces]
        assert "lieutenant" in city and "lieutenant" not in church + pop
        assert "any-hex" in city
        assert {"upgrade-overseer", "upgrade-advance"} <= set(church)
        assert any(p.endswith("activate") for p in church)


def test_R_REG_6_registers_start_on_an_empty_space_and_bars_lie_on_the_track():
    for n in (2, 3):
        for kind_ in ("popularity", "city", "church"):
            reg = CATALOG.register(kind_, n)
            assert reg.spaces[0].reward.is_nothing and reg.spaces[0].vp == 0
            assert 0 < reg.single_bar < reg.double_bar <= reg.last == len(reg.spaces) - 1


def test_R_REG_7_landing_on_an_occupied_space_puts_you_on_top():
    s = scenario()
    s.seats[B].registers["church"] = 1
    s.seats[B].stamps["church"] = s.next_stamp()
    give(s, A, coins=3)
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"act": "pay", "register": "church"})
    assert s.seats[A].registers["church"] == s.seats[B].registers["church"] == 1
    assert s.seats[A].stamps["church"] > s.seats[B].stamps["church"]
    order = standing(s, "church")
    assert order.index(A) < order.index(B)


def test_R_REG_8_register_action_earned_in_production_waits_for_the_next_action_step():
    s = scenario()
    reg = s.catalog.register("church", s.players)
    k = next(i for i in range(1, len(reg.spaces)) if reg.spaces[i].reward.phrase == "upgrade-overseer")
    s.seats[A].registers["church"] = k - 1
    s.phase = "upkeep"
    grant(s, A, "church")
    x = s.seats[A]
    assert x.registers["church"] == k  # the counter moves at once
    assert x.deferred == ["upgrade-overseer"] and kind(s) is None
    s.phase = "play"
    turn_for(s, A)
    go_hex(s, A, "n03")
    right = find(s, A, {"act": "right", "reward": "upgrade-overseer"})
    assert right["available"] and x.deferred == []
    pick(s, A, {"act": "right", "reward": "upgrade-overseer"})
    pick(s, A, "nun")
    assert x.overseers["nun"].upgraded


def test_R_REG_8_deferred_action_not_used_lapses_with_the_turn():
    s = scenario()
    s.seats[A].deferred = ["upgrade-overseer"]
    turn_for(s, A)
    go_hex(s, A, "n03")
    end(s, A)
    assert s.seats[A].deferred == [] and s.rights == []
    turn_for(s, A)
    go_hex(s, A, "n04")
    assert not has(s, A, {"act": "right"})


def test_R_REG_8_C_17_a_recall_as_the_next_turn_loses_the_deferred_reward():
    """R-REG-8 / C-17: a production-time reward waits for the action step of your next turn; when that
    turn is a recall (R-TURN-RECALL-1: "nothing else") there is no action step, so it lapses, and the
    recall option says so beforehand."""
    s = scenario()
    s.seats[A].deferred = ["upgrade-overseer"]
    turn_for(s, A)
    recall = find(s, A, {"go": "recall"})
    assert "lapse" in recall["label"], "C-17: the recall option warns that the deferred reward lapses"
    since = len(s.log)
    pick(s, A, {"go": "recall"})
    assert s.seats[A].deferred == [], "C-17: the deferred reward is lost with the recall"
    assert "C-17" in log_rules(s, since), "C-17: the log says the reward lapsed"
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert not has(s, A, {"act": "right"}), "C-17: it does not come back at a later action step"


def test_R_REG_8_recall_without_deferred_rewards_warns_of_nothing():
    """R-TURN-RECALL-1: with nothing earned in production, the recall option is the plain one."""
    s = scenario()
    turn_for(s, A)
    assert "lapse" not in find(s, A, {"go": "recall"})["label"], "R-TURN-RECALL-1: plain recall"


# --- R-ADV ---------------------------------------------------------------------------------------

def test_R_ADV_1_advanced_setup_uses_b_boards_of_random_colours():
    for seed in (1, 2, 3):
        s = game(3, seed, advanced=True)
        colours = [x.colour for x in s.seats]
        assert len(set(colours)) == 3
        for x in s.seats:
            assert x.board == f"b-{x.colour}"
            assert s.catalog.boards[x.board].side == "b"
            assert s.catalog.scroll_boards[x.scroll_board].side == "b"
            assert set(x.scroll) == {t.id for t in s.catalog.scroll_boards[x.scroll_board].tracks}
        assert len({x.scroll_board for x in s.seats}) == 3


def test_R_ADV_1_standard_setup_uses_side_a():
    s = game(3, 1)
    assert all(x.board == "a" and x.scroll_board == "a" for x in s.seats)


def once_square():
    """A b board and its single-use square whose reward is tokens/VP only."""
    for b in CATALOG.boards.values():
        for q in b.squares:
            if q.once and not q.reward.is_choice and all(i.icon in FIELD for i in q.reward.options[0].items):
                return b, q
    raise AssertionError("no plain single-use square")


def test_R_ADV_2_Q_16_single_use_square_activates_once_per_game():
    board, q = once_square()
    s = scenario()
    s.seats[A].board = board.id
    on_square(s, A, q.id, q.sector)
    before = snap(s, A)
    grant(s, A, "1 activate")
    assert acts(s, A) == [q.id]
    pick(s, A, q.id)
    assert gained(before, snap(s, A)) == tokens(q.reward)
    assert s.seats[A].spent_squares == [q.id]
    grant(s, A, "3 activate")
    assert kind(s) is None  # never again
    # the citizen may still go to a workshop; a later citizen on the square cannot use it either
    tile = next(w.id for w in CATALOG.workshops.values() if w.cls == q.sector and w.era == 1)
    i = ws(s, A, tile)
    assert {"square": q.id, "workshop": i} in workshop_moves(s, A)
    assert ["square", q.id] in [loc for loc, _ in givable(s, A)]  # and may still repopulate
    move_to_workshop(s, "main", A, q.id, i)
    run(s)
    on_square(s, A, q.id, q.sector)
    grant(s, A, "3 activate")
    assert kind(s) is None
