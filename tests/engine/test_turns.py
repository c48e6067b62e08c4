"""A player's turn, tapped through the menus: choosing a hex or a boat and paying to move (R-TURN-MOVE,
R-TURN-DOCK, Q-11), the recall, rescuing citizens, fighting the plague (R-TURN-FIRE, Q-4, Q-5), the
action step (R-TURN-ACT), and whose turn comes next (R-ROUND-2/3, Q-12).

Positions are built directly (tests/scenario.py); distances are read from the engine's city model, so
the tests do not depend on where the seeded deal put each hex. Catalog values (round info table,
register spaces, boats) are read from the catalog, never written here.
"""

from __future__ import annotations

import copy

import pytest

from companion.engine import movement
from companion.engine.flow import push, run
from companion.engine.state import Hex, WagonOwned, Workshop

from scenario import (IllegalAction, adjacent_hexes, apply, citizens, cubes, distances_from, dock_boat, dock_menu,
                      dock_of_harbor, end, find, give, go_dock, go_hex, has, hex_menu, kind, lie, log_rules, on_square,
                      pick, put, rescuing, ring, scenario, stand, turn_for, use_up, values, whose)

A, B, C = 0, 1, 2  # seats; the 3-player seed-1 game plays in the order C, A, B


# --- helpers -------------------------------------------------------------------------------------

def pair(s, d):
    """Two neighbourhood hexes `d` apart (home, target)."""
    for home in sorted(t for t in s.hexes if t in s.catalog.hexes):
        far = ring(s, home, d)
        if far:
            return home, far[0]
    pytest.skip(f"no two neighbourhoods {d} apart in this city")


def turn_apart(s, d: int, coins: int):
    """Seat A's turn with `coins` and one lieutenant lying on a neighbourhood `d` steps from another:
    (its hex, the other hex, the lieutenant's index)."""
    home, target = pair(s, d)
    i = lie(s, A, home)
    give(s, A, coins=coins)
    turn_for(s, A)
    return home, target, i


def fire_round(s, cost):
    """The first round whose round-info row asks `cost` fire per cube (R-TURN-FIRE-1)."""
    rows = s.catalog.round_info[s.side].rounds
    for i, row in enumerate(rows, start=1):
        if row.fire_cost == cost:
            return i
    pytest.skip(f"the round info table has no {cost}-fire round")


def fight_at(s, n: int, cost: int | None = None, **tokens) -> None:
    """Seat A's turn to n03, on which lie `n` cubes, holding `tokens` (in the first round asking `cost`
    fire a cube, when given): the fight is open."""
    if cost is not None:
        s.round = fire_round(s, cost)
    cubes(s, "n03", n)
    give(s, A, **tokens)
    turn_for(s, A)
    go_hex(s, A, "n03")


def first_reward(s, kind_, start=0):
    """The first register space after `start` that gives an action, and that action."""
    reg = s.catalog.register(kind_, s.players)
    for i in range(start + 1, len(reg.spaces)):
        if not reg.spaces[i].reward.is_nothing:
            return i, reg.spaces[i].reward.phrase
    raise AssertionError("no rewarding space")


def reward_tokens(reward):
    """A one-bundle reward as {seat field: amount}."""
    field = {"coin": "coins", "lumber": "lumber", "fire": "fire", "major-fire": "major_fire", "vp": "vp"}
    assert not reward.is_choice
    return {field[i.icon]: i.count for i in reward.options[0].items}


def snapshot(s, seat):
    x = s.seats[seat]
    return {k: getattr(x, k) for k in ("coins", "lumber", "fire", "major_fire", "rats", "vp")}


def harbor_with_neighbour(s):
    """A harbor, its dock and a neighbourhood next to it."""
    for h in sorted(s.catalog.harbors):
        near = [t for t in adjacent_hexes(s, h) if t in s.catalog.hexes]
        if near:
            return h, dock_of_harbor(s, h), near[0]
    raise AssertionError("no harbor with a neighbour")


# --- R-TURN-1 / R-TURN-2 -------------------------------------------------------------------------

def test_R_TURN_1_turn_menu_is_every_hex_every_boat_and_the_recall():
    s = scenario()
    dock_boat(s, "dock-nw", "boat-2")
    dock_boat(s, "dock-se", "boat-3", cube=False)
    turn_for(s, A)
    assert kind(s) == "turn" and whose(s) == A
    vals = values(s, A, available_only=False)
    assert {v["tile"] for v in vals if v["go"] == "hex"} == set(s.hexes)  # harbors too, no expansion space
    assert {(v["dock"], v["boat"]) for v in vals if v["go"] == "dock"} == {("dock-nw", "boat-2"),
                                                                            ("dock-se", "boat-3")}
    assert {"go": "recall"} in vals
    assert len(vals) == len(s.hexes) + 2 + 1


def test_R_TURN_2_hex_turn_runs_rescue_then_fight_then_action_step():
    s = scenario()
    t = "n03"
    cubes(s, t, 1)
    citizens(s, t, "nun")
    give(s, A, fire=1)
    turn_for(s, A)
    n = len(s.log)
    go_hex(s, A, t)
    # step 2 already happened when the fight question comes: the nun is rescued (into quarantine)
    assert kind(s) == "fight"
    assert s.hexes[t].citizens == [] and s.seats[A].cabins[0].citizen.cls == "nun"
    assert not has(s, A, {"act": "hex"})
    pick(s, A, {"fire": 1, "major": 0})
    # step 4 last
    assert kind(s) == "action_step" and has(s, A, {"act": "hex"})
    rules = log_rules(s, n)
    assert rules.index("R-TURN-MOVE-5") < rules.index("R-TURN-RESCUE-3") < rules.index("R-TURN-FIRE-1")


def test_R_TURN_2_clean_hex_without_citizens_goes_straight_to_the_action_step():
    s = scenario()
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert kind(s) == "action_step" and whose(s) == A


# --- R-TURN-MOVE-1 -------------------------------------------------------------------------------

def test_R_TURN_MOVE_1_lying_lieutenant_must_act_before_estate_ones():
    s = scenario()
    home, far, i = turn_apart(s, 4, coins=0)
    m = hex_menu(s, A)
    # an estate lieutenant would go there for free; the lying one must act, and it would pay 3
    assert not m[far]["available"] and m[far]["rule"] == "R-TURN-MOVE-3"
    near = ring(s, home, 1)[0]
    assert m[near]["available"] and m[near]["cost"] == "free"
    go_hex(s, A, near)
    lts = s.seats[A].lieutenants
    assert lts[i].where == f"hex:{near}" and lts[i].used
    assert [(lt.where, lt.used) for k, lt in enumerate(lts) if k != i and lt.where != "supply"] == \
        [("estate", False), ("estate", False)]


def test_R_TURN_MOVE_1_estate_lieutenant_is_offered_once_none_lies_unused():
    s = scenario()
    home, far, _ = turn_apart(s, 4, coins=0)
    go_hex(s, A, home)
    end(s, A)
    turn_for(s, A)  # A's next turn: nothing lies unused any more
    m = hex_menu(s, A)
    assert m[far]["available"] and m[far]["cost"] == "free"
    go_hex(s, A, far)
    assert sum(1 for lt in s.seats[A].lieutenants if lt.where == f"hex:{far}" and lt.used) == 1


def test_R_TURN_MOVE_1_which_lieutenant_goes_is_asked_among_the_lying_ones_only():
    s = scenario()
    home, target = pair(s, 3)
    other = ring(s, target, 1)[0]
    i = lie(s, A, home)
    j = lie(s, A, other)
    give(s, A, coins=5)
    turn_for(s, A)
    go_hex(s, A, target)
    assert kind(s) == "send"
    assert sorted(values(s, A)) == sorted([i, j])  # never an estate lieutenant
    pick(s, A, j)  # the adjacent one, free
    assert s.seats[A].coins == 5 and s.seats[A].lieutenants[j].where == f"hex:{target}"
    assert s.seats[A].lieutenants[i].where == f"hex:{home}" and not s.seats[A].lieutenants[i].used


# --- R-TURN-MOVE-2 -------------------------------------------------------------------------------

def test_R_TURN_MOVE_2_estate_lieutenant_goes_free_to_any_free_hex_or_boat_dock():
    s = scenario()
    dock_boat(s, "dock-se", "boat-2", cube=False)
    stand(s, B, "n05")
    give(s, A, coins=0)
    turn_for(s, A)
    m = hex_menu(s, A)
    assert set(m) == set(s.hexes)
    for tile, opt in m.items():
        if tile == "n05":
            assert not opt["available"]
        else:
            assert opt["available"] and opt["cost"] == "free", tile
    docks = dock_menu(s, A)
    assert set(docks) == {"boat-2"}  # a dock without a boat is no destination
    assert docks["boat-2"]["available"] and docks["boat-2"]["cost"] == "free"
    go_dock(s, A, "boat-2")
    assert s.seats[A].lieutenants[0].where == "dock:dock-se" and s.seats[A].lieutenants[0].used
    assert "boat-2" in s.seats[A].boats


# --- R-TURN-MOVE-3 -------------------------------------------------------------------------------

@pytest.mark.parametrize("d,cost", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3)])
def test_R_TURN_MOVE_3_lying_lieutenant_pays_max_0_distance_minus_1(d, cost):
    s = scenario()
    home, target = (pair(s, d) if d else ("n04", "n04"))
    lie(s, A, home)
    give(s, A, coins=5)
    turn_for(s, A)
    opt = hex_menu(s, A)[target]
    assert opt["available"]
    assert opt["cost"] == ("free" if cost == 0 else f"{cost} coin{'s' if cost > 1 else ''}")
    go_hex(s, A, target)
    assert s.seats[A].coins == 5 - cost


@pytest.mark.parametrize("d,cost", [(2, 1), (4, 3)])
def test_R_TURN_MOVE_3_unaffordable_move_is_greyed_with_cost_and_coins(d, cost):
    s = scenario()
    home, target, _ = turn_apart(s, d, coins=cost - 1)
    opt = hex_menu(s, A)[target]
    assert not opt["available"]
    assert opt["rule"] == "R-TURN-MOVE-3"
    assert opt["reason"] == f"you have {cost - 1} coin{'s' if cost != 2 else ''}, need {cost}"
    before = copy.deepcopy(s.to_dict())
    with pytest.raises(IllegalAction):
        apply(s, opt["action"])
    assert s.to_dict() == before


# --- R-TURN-MOVE-4 -------------------------------------------------------------------------------

@pytest.mark.parametrize("owner", [B, A])
def test_R_TURN_MOVE_4_standing_figure_blocks_the_hex_even_your_own(owner):
    s = scenario()
    stand(s, owner, "n06")
    turn_for(s, A)
    opt = hex_menu(s, A)["n06"]
    assert not opt["available"] and opt["rule"] == "R-TURN-MOVE-4"
    assert s.seats[owner].name in opt["reason"]
    before = copy.deepcopy(s.to_dict())
    with pytest.raises(IllegalAction) as err:
        apply(s, opt["action"])
    assert err.value.rule == "R-TURN-MOVE-4"
    assert s.to_dict() == before


def test_R_TURN_MOVE_4_lying_figures_never_block():
    s = scenario()
    lie(s, B, "n06")
    lie(s, C, "n06")
    turn_for(s, A)
    assert hex_menu(s, A)["n06"]["available"]
    go_hex(s, A, "n06")
    assert s.seats[A].lieutenants[0].where == "hex:n06"


def test_R_TURN_MOVE_4_Q_11_standing_figures_block_choosing_not_passing():
    s = scenario()
    home, target = pair(s, 2)
    lie(s, A, home)
    blockers = [t for t in ring(s, home, 1, neighbourhoods=False)]
    figures = [(seat, i) for seat in (B, C) for i in range(5)]
    for tile, (seat, i) in zip(blockers, figures):
        put(s, seat, tile, used=True, index=i)
    assert len(blockers) <= len(figures)
    give(s, A, coins=1)
    turn_for(s, A)
    m = hex_menu(s, A)
    assert all(not m[t]["available"] for t in blockers)
    assert m[target]["available"] and m[target]["cost"] == "1 coin"


def test_R_TURN_MOVE_4_unfilled_expansion_spaces_are_not_hexes():
    s = scenario()
    turn_for(s, A)
    tiles = set(hex_menu(s, A))
    layout = s.catalog.layout_for(s.players)
    assert not tiles & {x for x in layout.expansion}
    assert not tiles & {f"x{i}" for i in range(1, 7)}
    assert tiles == set(s.hexes)


def test_R_TURN_MOVE_4_Q_11_empty_expansion_spaces_cannot_be_crossed():
    s = scenario()
    layout = s.catalog.layout_for(s.players)
    assert "x6" in layout.expansion  # the west notch touching both west harbors (layout data)
    before = distances_from(s, "hex:harbor-nw")["hex:harbor-sw"]
    s.hexes["n20"] = Hex(tile="n20", space="x6")
    after = distances_from(s, "hex:harbor-nw")["hex:harbor-sw"]
    assert after == 2 < before


def test_R_TURN_MOVE_3_greyed_cost_label_matches_the_available_one():
    s = scenario()
    home, target, _ = turn_apart(s, 2, coins=0)
    assert hex_menu(s, A)[target]["cost"] == "1 coin"


# --- R-TURN-MOVE-5 -------------------------------------------------------------------------------

def test_R_TURN_MOVE_5_lieutenant_stands_and_hex_is_used_for_the_round():
    s = scenario()
    turn_for(s, A)
    go_hex(s, A, "n02")
    lt = s.seats[A].lieutenants[0]
    assert lt.where == "hex:n02" and lt.used
    end(s, A)
    assert whose(s) == B and kind(s) == "turn"
    opt = hex_menu(s, B)["n02"]
    assert not opt["available"] and opt["rule"] == "R-TURN-MOVE-4"


# --- R-TURN-MOVE-6 -------------------------------------------------------------------------------

@pytest.mark.parametrize("owner", [B, A])
def test_R_TURN_MOVE_6_choosing_a_repopulated_hex_scores_its_repopulator_2_vp(owner):
    s = scenario()
    s.hexes["n02"].repopulated_by = owner
    vp = {i: x.vp for i, x in enumerate(s.seats)}
    turn_for(s, A)
    go_hex(s, A, "n02")
    for i in range(3):
        assert s.seats[i].vp == vp[i] + (2 if i == owner else 0)


def test_R_TURN_MOVE_6_R_ACT_7_any_hex_action_on_a_repopulated_hex_scores_nothing():
    s = scenario()
    idx, reward = first_reward(s, "city", 6)
    assert reward == "any-hex"
    s.hexes["n02"].repopulated_by = B
    s.seats[A].registers["city"] = idx - 1
    give(s, A, coins=3)
    vp_b = s.seats[B].vp
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"act": "pay", "register": "city"})
    pick(s, A, {"act": "right", "reward": "any-hex"})
    pick(s, A, "n02")  # "1 lumber and 1 coin"
    assert s.seats[B].vp == vp_b
    assert s.seats[A].lumber == 1


# --- R-TURN-DOCK-1 -------------------------------------------------------------------------------

def test_R_TURN_DOCK_1_Q_11_dock_is_adjacent_only_to_its_harbor():
    s = scenario()
    harbor, dock, near = harbor_with_neighbour(s)
    dist = distances_from(s, f"dock:{dock}")
    assert dist[f"hex:{harbor}"] == 1
    assert [p for p, d in dist.items() if d == 1] == [f"hex:{harbor}"]
    for t in adjacent_hexes(s, harbor):
        assert dist[f"hex:{t}"] == 2  # neighbourhoods next to the harbor are 2 away
    assert distances_from(s, f"hex:{near}")[f"dock:{dock}"] == 2


def test_R_TURN_DOCK_1_moving_to_a_dock_costs_by_the_harbor_path():
    s = scenario()
    harbor, dock, near = harbor_with_neighbour(s)
    dock_boat(s, dock, "boat-2", cube=False)
    far = [t for t in ring(s, harbor, 2)][0]
    for where, cost in ((harbor, "free"), (near, "1 coin"), (far, "2 coins")):
        t = s.clone()
        lie(t, A, where)
        give(t, A, coins=5)
        turn_for(t, A)
        assert dock_menu(t, A)["boat-2"]["cost"] == cost, where


def test_R_TURN_DOCK_1_lieutenant_lying_at_a_dock_leaves_through_the_harbor():
    s = scenario()
    harbor, dock, near = harbor_with_neighbour(s)
    lie(s, A, dock)
    give(s, A, coins=0)
    turn_for(s, A)
    m = hex_menu(s, A)
    assert m[harbor]["cost"] == "free"
    assert not m[near]["available"] and m[near]["reason"] == "you have 0 coins, need 1"


# --- R-TURN-DOCK-2 -------------------------------------------------------------------------------

def test_R_TURN_DOCK_2_R_ROUND_3_a_standing_lieutenant_never_blocks_a_dock():
    """R-TURN-DOCK-2: a lieutenant standing at a dock never blocks it, so (R-ROUND-3) two seats may visit
    the same dock in a round, one after the other."""
    s = scenario()
    dock_boat(s, "dock-ne", "boat-2", cube=False)
    dock_boat(s, "dock-ne", "boat-3", cube=False)
    turn_for(s, A)
    go_dock(s, A, "boat-2")
    end(s, A)
    assert s.seats[A].lieutenants[0].where == "dock:dock-ne" and s.seats[A].lieutenants[0].used
    assert whose(s) == B
    docks = dock_menu(s, B)
    assert set(docks) == {"boat-3"} and docks["boat-3"]["available"]
    go_dock(s, B, "boat-3")
    assert s.seats[A].boats == ["boat-2"] and s.seats[B].boats == ["boat-3"]
    assert s.seats[B].lieutenants[0].where == "dock:dock-ne" and s.docks["dock-ne"] == []


def test_R_TURN_DOCK_2_a_dock_without_a_boat_cannot_be_chosen():
    s = scenario()
    turn_for(s, A)
    assert dock_menu(s, A) == {}
    with pytest.raises(IllegalAction):
        apply(s, {"who": A, "pick": {"go": "dock", "dock": "dock-nw", "boat": "boat-2"}})


# --- R-TURN-DOCK-3 -------------------------------------------------------------------------------

def test_R_TURN_DOCK_3_dock_turn_has_no_hex_action_and_no_repopulation():
    s = scenario()
    dock_boat(s, "dock-nw", "boat-2", cube=False)
    s.seats[A].wagons = []
    turn_for(s, A)
    go_dock(s, A, "boat-2")
    assert kind(s) == "action_step"
    acts = {v["act"] for v in values(s, A, available_only=False)}
    assert "hex" not in acts and "repopulate" not in acts
    assert {"pay", "end"} <= acts


# --- R-TURN-DOCK-4 -------------------------------------------------------------------------------

@pytest.mark.parametrize("cost, boat, tokens, pay, after", [
    pytest.param(1, "boat-2", dict(fire=1), {"fire": 1, "major": 0}, dict(fire=0, rats=0, pop=1, vp=0, supply=1),
                 id="R-TURN-DOCK-4 Q-5 paying fire for the boat cube counts as a removed cube"),
    pytest.param(1, "boat-2", dict(fire=1), None, dict(fire=1, rats=1, pop=0, vp=0, supply=1),
                 id="R-TURN-DOCK-4 taking a rat for the boat cube also discards it"),
    pytest.param(1, "boat-2", dict(fire=0, major_fire=0), False, dict(fire=0, rats=1, pop=0, vp=0, supply=1),
                 id="R-TURN-DOCK-4 without fire the boat cube costs a rat"),
    pytest.param(2, "boat-3", dict(fire=2), {"fire": 2, "major": 0}, dict(fire=0, rats=0, pop=1, vp=2, supply=1),
                 id="R-TURN-DOCK-4 Q-5 in a 2-fire round the boat cube costs 2 fire and scores 2 VP"),
])
def test_R_TURN_DOCK_4_Q_5_the_boat_cube_is_fought_or_costs_a_rat(cost, boat, tokens, pay, after):
    """R-TURN-DOCK-4 / Q-5: the cube on a taken boat goes back to the supply either way. Paid for with the
    round's fire it counts as a removed cube (a popularity step, and 2 VP in a 2-fire round); declined, or
    without fire (the seat is not even asked), it is a rat. `pay` False: no question."""
    s = scenario()
    s.round = fire_round(s, cost)
    dock_boat(s, "dock-nw", boat, cube=True)
    give(s, A, **tokens)
    supply = s.supply_cubes
    turn_for(s, A)
    x, vp = s.seats[A], s.seats[A].vp
    go_dock(s, A, boat)
    if pay is not False:
        assert kind(s) == "boat_cube"
        assert values(s, A) == [{"fire": cost, "major": 0}, None]
        pick(s, A, pay)
    assert kind(s) == "action_step" and boat in x.boats
    boat_vp = reward_tokens(s.catalog.boats[boat].reward).get("vp", 0)
    assert dict(fire=x.fire, rats=x.rats, pop=x.registers["popularity"], vp=x.vp - vp - boat_vp,
                supply=s.supply_cubes - supply) == after


def test_R_TURN_DOCK_4_R_TURN_FIRE_7_major_fire_on_a_boat_gives_no_adjacent_removal():
    s = scenario()
    harbor, dock, near = harbor_with_neighbour(s)
    dock_boat(s, dock, "boat-2", cube=True)
    cubes(s, near, 1)
    give(s, A, fire=0, major_fire=1)
    turn_for(s, A)
    go_dock(s, A, "boat-2")
    opts = values(s, A)
    assert all(v is None or not v.get("adjacent") for v in opts)
    pick(s, A, {"fire": 0, "major": 1})
    assert kind(s) == "action_step"  # no adjacent-cube question
    assert s.hexes[near].cubes == 1 and s.seats[A].major_fire == 0
    assert s.seats[A].registers["popularity"] == 1


# --- R-TURN-DOCK-5 / 6 / 7 -----------------------------------------------------------------------

@pytest.mark.parametrize("boat", ["boat-2", "boat-3", "boat-5", "boat-6"])
def test_R_TURN_DOCK_5_boat_tile_is_taken_with_its_coins_or_vp(boat):
    s = scenario()
    dock_boat(s, "dock-sw", boat, cube=False)
    turn_for(s, A)
    before = snapshot(s, A)
    go_dock(s, A, boat)
    after = snapshot(s, A)
    for k, n in reward_tokens(s.catalog.boats[boat].reward).items():
        assert after[k] == before[k] + n
    assert s.seats[A].boats == [boat] and s.docks["dock-sw"] == []


@pytest.mark.parametrize("held,offered", [(0, False), (1, True), (2, False), (3, True)])
def test_R_TURN_DOCK_6_even_boat_count_offers_an_overseer_advance(held, offered):
    s = scenario()
    s.seats[A].boats = ["boat-7", "boat-8", "boat-9"][:held]
    dock_boat(s, "dock-sw", "boat-2", cube=False)
    turn_for(s, A)
    go_dock(s, A, "boat-2")
    assert len(s.seats[A].boats) == held + 1
    if not offered:
        assert kind(s) == "action_step"
        return
    assert kind(s) == "advance_overseer"
    assert None in values(s, A)  # optional
    assert {v["overseer"] for v in values(s, A) if v} == {"aristocrat", "nun", "craftsman"}
    pick(s, A, {"overseer": "nun", "steps": 1})
    assert s.seats[A].overseers["nun"].step == 1


def test_R_TURN_DOCK_7_dock_action_step_allows_paid_advances_and_earned_actions():
    s = scenario()
    s.seats[A].registers["popularity"] = 1  # the next step gives an action
    idx, reward = first_reward(s, "popularity", 1)
    assert idx == 2
    dock_boat(s, "dock-sw", "boat-2", cube=True)
    give(s, A, fire=1, coins=6)
    turn_for(s, A)
    go_dock(s, A, "boat-2")
    pick(s, A, {"fire": 1, "major": 0})
    assert kind(s) == "action_step"
    assert has(s, A, {"act": "right", "reward": reward})
    coins = s.seats[A].coins
    pick(s, A, {"act": "pay", "register": "church"})
    pick(s, A, {"act": "pay", "register": "church"})
    assert s.seats[A].registers["church"] == 2 and s.seats[A].coins == coins - 6


# --- R-TURN-RECALL-1 -----------------------------------------------------------------------------

def test_R_TURN_RECALL_1_recall_takes_1_coin_and_nothing_else():
    s = scenario()
    i = lie(s, A, "n03")
    cubes(s, "n03", 1)
    citizens(s, "n03", "nun")
    give(s, A, coins=2)
    before = snapshot(s, A)
    turn_for(s, A)
    pick(s, A, {"go": "recall"})
    lt = s.seats[A].lieutenants[i]
    assert lt.where == "estate" and lt.used
    after = snapshot(s, A)
    assert after == {**before, "coins": 3}
    assert s.hexes["n03"].cubes == 1 and len(s.hexes["n03"].citizens) == 1
    assert whose(s) == B and kind(s) == "turn"  # no action step: the next seat plays


def test_R_TURN_RECALL_1_recalled_lieutenant_starts_next_round_on_the_estate():
    s = scenario()
    i = lie(s, A, "n03")
    turn_for(s, A)
    pick(s, A, {"go": "recall"})
    s.lanes = {}
    push(s, "main", {"do": "lay_down"})
    run(s)
    lt = s.seats[A].lieutenants[i]
    assert lt.where == "estate" and not lt.used


# --- R-TURN-RESCUE -------------------------------------------------------------------------------

def test_R_TURN_RESCUE_1_every_citizen_on_the_hex_is_taken():
    s = scenario()
    citizens(s, "n03", "nun", "craftsman", "aristocrat", "nun")
    turn_for(s, A)
    go_hex(s, A, "n03")
    while kind(s) == "rescue":
        pick(s, A, values(s, A)[0])
    assert s.hexes["n03"].citizens == []
    got = sorted(c.cls for c in s.seats[A].squares.values())
    assert got == ["aristocrat", "craftsman", "nun", "nun"]


def test_R_TURN_RESCUE_2_clean_hex_citizen_goes_to_a_chosen_empty_square_of_its_sector():
    s = rescuing(scenario(), A, "n03", "craftsman", filled="cr2")
    board = s.catalog.boards[s.seats[A].board]
    assert sorted(values(s, A)) == sorted(q.id for q in board.sector("craftsman") if q.id != "cr2")
    pick(s, A, "cr5")
    assert s.seats[A].squares["cr5"].cls == "craftsman"
    assert all(c.space == 0 and c.citizen is None for c in s.seats[A].cabins)


def test_R_TURN_RESCUE_2_full_sector_without_workshop_discards_the_citizen():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    for q in board.sector("nun"):
        on_square(s, A, q.id, "nun")
    s.seats[A].workshops = [Workshop("ws1-c1")]  # a craftsman workshop does not help a nun
    citizens(s, "n03", "nun")
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert kind(s) == "action_step"
    assert len(s.seats[A].squares) == 6 and s.seats[A].workshops[0].citizen is None
    assert s.hexes["n03"].citizens == []
    assert "R-TURN-RESCUE-2" in log_rules(s)


def test_R_TURN_RESCUE_2_R_CIT_4_full_sector_may_first_move_a_citizen_into_a_workshop():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    sector = [q.id for q in board.sector("nun")]
    old = {q: on_square(s, A, q, "nun") for q in sector}
    s.seats[A].workshops = [Workshop("ws1-n2")]
    new = citizens(s, "n03", "nun")[0]
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert kind(s) == "rescue"
    opts = values(s, A)
    assert None in opts  # or discard
    assert {(v["square"], v["workshop"]) for v in opts if v} == {(q, 0) for q in sector}
    pick(s, A, {"square": sector[3], "workshop": 0})
    x = s.seats[A]
    assert x.workshops[0].citizen.id == old[sector[3]].id
    assert x.squares[sector[3]].id == new.id


def test_R_TURN_RESCUE_2_full_sector_discard_choice():
    s = scenario()
    board = s.catalog.boards[s.seats[A].board]
    for q in board.sector("nun"):
        on_square(s, A, q.id, "nun")
    s.seats[A].workshops = [Workshop("ws1-n2")]
    citizens(s, "n03", "nun")
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, None)
    assert s.seats[A].workshops[0].citizen is None and len(s.seats[A].squares) == 6
    assert kind(s) == "action_step"


def test_R_TURN_RESCUE_3_plagued_hex_citizen_goes_to_space_I_even_if_the_plague_is_cleared():
    s = scenario()
    cubes(s, "n03", 1)
    citizens(s, "n03", "aristocrat")
    give(s, A, fire=1)
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"fire": 1, "major": 0})
    assert s.hexes["n03"].cubes == 0
    x = s.seats[A]
    assert x.squares == {}
    held = [(c.citizen.cls, c.space) for c in x.cabins if c.citizen]
    assert held == [("aristocrat", 1)]


def test_R_TURN_RESCUE_3_player_chooses_between_improved_and_unimproved_cabins():
    s = scenario()
    s.seats[A].cabins[2].improvement = "imp-01"
    cubes(s, "n03", 1)
    citizens(s, "n03", "nun")
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert kind(s) == "rescue"
    assert sorted(values(s, A)) == [0, 1, 2, 3]
    pick(s, A, 2)
    assert s.seats[A].cabins[2].citizen.cls == "nun" and s.seats[A].cabins[2].space == 1


def test_R_TURN_RESCUE_3_cabin_occupied_in_either_space_no_empty_cabin_discards():
    s = scenario()
    x = s.seats[A]
    for k, cab in enumerate(x.cabins):
        cab.citizen, cab.space = s.new_citizen("craftsman"), 1 + k % 2
    cubes(s, "n03", 2)
    citizens(s, "n03", "nun")
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert [c.citizen.cls for c in x.cabins] == ["craftsman"] * 4
    assert x.squares == {} and s.hexes["n03"].citizens == []
    assert "R-TURN-RESCUE-3" in log_rules(s)


def test_R_TURN_RESCUE_3_two_citizens_one_empty_cabin():
    s = scenario()
    x = s.seats[A]
    for cab in x.cabins[:3]:
        cab.citizen, cab.space = s.new_citizen("craftsman"), 2
    cubes(s, "n03", 1)
    citizens(s, "n03", "nun", "aristocrat")
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert x.cabins[3].citizen.cls == "nun" and x.cabins[3].space == 1
    assert x.squares == {}
    assert sum(1 for c in x.cabins if c.citizen) == 4


# --- R-TURN-FIRE ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cost", [1, 2])
def test_R_TURN_FIRE_1_fire_cost_per_round_info_table(cost):
    s = scenario()
    fight_at(s, 1, cost, fire=3)
    assert kind(s) == "fight"
    pays = [v for v in values(s, A) if v]
    assert pays == [{"fire": cost, "major": 0, "adjacent": False}]
    supply = s.supply_cubes
    pick(s, A, pays[0])
    assert s.seats[A].fire == 3 - cost
    assert s.hexes["n03"].cubes == 0 and s.supply_cubes == supply + 1


def test_R_TURN_FIRE_1_removes_as_many_cubes_as_can_be_paid():
    s = scenario()
    fight_at(s, 3, 1, fire=2)
    pick(s, A, {"fire": 1, "major": 0})
    pick(s, A, {"fire": 1, "major": 0})
    assert kind(s) == "action_step"  # out of fire: the rest stays
    x = s.seats[A]
    assert s.hexes["n03"].cubes == 1 and x.rats == 1 and x.registers["popularity"] == 2


def test_R_TURN_FIRE_1_one_fire_is_not_enough_in_a_2_fire_round():
    s = scenario()
    fight_at(s, 1, 2, fire=1, major_fire=0)
    assert kind(s) == "action_step"
    assert s.seats[A].fire == 1 and s.seats[A].rats == 1 and s.hexes["n03"].cubes == 1


@pytest.mark.parametrize("cost,vp_each", [(1, 0), (2, 2)])
def test_R_TURN_FIRE_2_two_fire_rounds_score_2_vp_per_removed_cube(cost, vp_each):
    s = scenario()
    fight_at(s, 2, cost, fire=4)
    vp = s.seats[A].vp
    pick(s, A, {"fire": cost, "major": 0})
    pick(s, A, {"fire": cost, "major": 0})
    assert s.seats[A].vp == vp + 2 * vp_each


def test_R_TURN_FIRE_3_each_removed_cube_is_one_popularity_step_and_its_action_waits_for_the_step():
    s = scenario()
    idx, reward = first_reward(s, "popularity", 0)
    fight_at(s, idx, fire=idx)
    for _ in range(idx):
        pick(s, A, {"fire": 1, "major": 0})
    assert s.seats[A].registers["popularity"] == idx
    assert kind(s) == "action_step"
    assert [r["reward"] for r in s.rights] == [reward]
    assert has(s, A, {"act": "right", "reward": reward})


def test_R_TURN_FIRE_4_one_rat_per_cube_left_and_the_cubes_stay():
    s = scenario()
    fight_at(s, 3, fire=5)
    supply = s.supply_cubes
    pick(s, A, {"fire": 1, "major": 0})
    pick(s, A, None)  # stop
    assert s.seats[A].rats == 2 and s.hexes["n03"].cubes == 2
    assert s.seats[A].fire == 4 and s.supply_cubes == supply + 1


def test_R_TURN_FIRE_5_major_fire_may_also_remove_an_adjacent_cube():
    s = scenario()
    s.round = fire_round(s, 1)
    t = "n04"
    near = adjacent_hexes(s, t)
    cubes(s, t, 1)
    cubes(s, near[0], 2)
    cubes(s, near[1], 1)
    give(s, A, fire=0, major_fire=1)
    turn_for(s, A)
    go_hex(s, A, t)
    assert find(s, A, {"fire": 0, "major": 1})["value"]["adjacent"] is True
    pick(s, A, {"fire": 0, "major": 1})
    assert kind(s) == "adjacent_cube"
    assert sorted(v for v in values(s, A) if v) == sorted(near[:2])  # hexes with cubes only
    pick(s, A, near[0])
    assert s.hexes[t].cubes == 0 and s.hexes[near[0]].cubes == 1 and s.hexes[near[1]].cubes == 1
    assert s.seats[A].major_fire == 0 and s.seats[A].rats == 0


def test_R_TURN_FIRE_7_docks_are_never_adjacent():
    s = scenario()
    harbor, dock, near = harbor_with_neighbour(s)
    dock_boat(s, dock, "boat-2", cube=True)
    assert all(t in s.hexes for t in adjacent_hexes(s, near))
    cubes(s, near, 1)
    give(s, A, major_fire=1)
    turn_for(s, A)
    go_hex(s, A, near)
    pick(s, A, {"fire": 0, "major": 1})
    # no adjacent hex has a cube, and the boat's cube is not adjacent: nothing more to remove
    assert kind(s) == "action_step"
    assert s.docks[dock][0].cube is True


@pytest.mark.parametrize("cost, tokens, pays, neighbour, after", [
    pytest.param(1, dict(fire=0, major_fire=1), [{"fire": 0, "major": 1}], None,
                 dict(here=0, near=1, fire=0, major_fire=0, pop=1, vp=0, supply=1),
                 id="R-TURN-FIRE-5 major fire used as plain fire"),
    pytest.param(1, dict(fire=1, major_fire=1), [{"fire": 1, "major": 0}, {"fire": 0, "major": 1}], False,
                 dict(here=0, near=1, fire=0, major_fire=1, pop=1, vp=0, supply=1),
                 id="R-TURN-FIRE-5 plain fire never reaches the neighbour"),
    pytest.param(2, dict(fire=1, major_fire=1), [{"fire": 1, "major": 1}], False,
                 dict(here=0, near=1, fire=0, major_fire=0, pop=1, vp=2, supply=1),
                 id="R-TURN-FIRE-6 D-4 one major plus one fire is plain in a 2-fire round"),
    pytest.param(2, dict(fire=0, major_fire=2), [{"fire": 0, "major": 2}], True,
                 dict(here=0, near=0, fire=0, major_fire=0, pop=2, vp=4, supply=2),
                 id="R-TURN-FIRE-6 R-TURN-FIRE-8 Q-4 two major fire take the neighbour's cube in a 2-fire round"),
    pytest.param(1, dict(fire=0, major_fire=1), [{"fire": 0, "major": 1}], True,
                 dict(here=0, near=0, fire=0, major_fire=0, pop=2, vp=0, supply=2),
                 id="R-TURN-FIRE-8 one major fire two cubes two popularity steps in a 1-fire round"),
])
def test_R_TURN_FIRE_5_6_8_D_4_Q_4_major_fire_paying_the_whole_cost_reaches_the_neighbour(cost, tokens, pays,
                                                                                          neighbour, after):
    """A cube on the hex and one on its neighbour; the seat pays with `pays[0]`, then takes the neighbour's
    cube (True), declines it (None) or is never asked (False). R-TURN-FIRE-5: a major fire may also remove
    a cube from an adjacent hex, or serve as plain fire; plain fire never reaches a neighbour.
    R-TURN-FIRE-6 / D-4: in a 2-fire round only two major fire do; one major plus one fire is plain.
    R-TURN-FIRE-8 / Q-4: the neighbour's cube counts for popularity, VP and the supply like the first."""
    s = scenario()
    s.round = fire_round(s, cost)
    t = "n04"
    near = adjacent_hexes(s, t)[0]
    cubes(s, t, 1)
    cubes(s, near, 1)
    give(s, A, **tokens)
    turn_for(s, A)
    x, vp, supply = s.seats[A], s.seats[A].vp, s.supply_cubes
    go_hex(s, A, t)
    assert [v for v in values(s, A) if v] == [{**pay, "adjacent": pay["major"] == cost} for pay in pays]
    pick(s, A, pays[0])
    if neighbour is not False:
        assert kind(s) == "adjacent_cube"
        pick(s, A, near if neighbour else None)
    assert kind(s) == "action_step"
    assert dict(here=s.hexes[t].cubes, near=s.hexes[near].cubes, fire=x.fire, major_fire=x.major_fire,
                pop=x.registers["popularity"], vp=x.vp - vp, supply=s.supply_cubes - supply) == after


# --- R-TURN-ACT-1 / 2 ----------------------------------------------------------------------------

def test_R_TURN_ACT_1_hex_action_then_no_repopulation():
    s = scenario()
    s.seats[A].wagons = [WagonOwned("wagon-1a")]
    on_square(s, A, "cr1", "craftsman")
    give(s, A, coins=2)
    turn_for(s, A)
    go_hex(s, A, "n02")  # "1 lumber and 1 coin"; repopulation: 1 coin + 1 craftsman
    assert find(s, A, {"act": "repopulate"})["available"]
    pick(s, A, {"act": "hex"})
    assert s.seats[A].lumber == 1 and s.seats[A].coins == 3
    acts = {v["act"] for v in values(s, A, available_only=False)}
    assert "hex" not in acts and "repopulate" not in acts


def test_R_TURN_ACT_1_repopulation_then_no_hex_action():
    s = scenario()
    s.seats[A].wagons = [WagonOwned("wagon-1a")]
    on_square(s, A, "cr1", "craftsman")
    give(s, A, coins=2, lumber=0)
    turn_for(s, A)
    go_hex(s, A, "n02")
    pick(s, A, {"act": "repopulate"})
    assert s.hexes["n02"].repopulated_by == A
    acts = {v["act"] for v in values(s, A, available_only=False)}
    assert "hex" not in acts and "repopulate" not in acts
    assert s.seats[A].lumber == 0


def test_R_TURN_ACT_1_harbor_offers_only_its_action():
    s = scenario()
    s.seats[A].wagons = [WagonOwned("wagon-1a")]
    turn_for(s, A)
    go_hex(s, A, "harbor-nw")
    assert find(s, A, {"act": "hex"})["available"]
    rep = find(s, A, {"act": "repopulate"})
    assert not rep["available"] and rep["rule"] == "R-REPOP-2"
    before = snapshot(s, A)
    pick(s, A, {"act": "hex"})
    tokens = reward_tokens(s.catalog.harbors["harbor-nw"].action) if not \
        s.catalog.harbors["harbor-nw"].action.is_choice else {}
    for k, n in tokens.items():
        assert snapshot(s, A)[k] == before[k] + n


def test_R_TURN_ACT_1_doing_neither_is_allowed():
    s = scenario()
    turn_for(s, A)
    before = snapshot(s, A)
    go_hex(s, A, "n03")
    end(s, A)
    assert snapshot(s, A) == before
    assert whose(s) == B and kind(s) == "turn"


def test_R_TURN_ACT_2_earned_actions_any_order_interleaved_with_the_hex_action():
    s = scenario()
    s.seats[A].registers["popularity"] = 1
    cubes(s, "n03", 2)  # popularity 1 -> 3: two earned actions
    give(s, A, fire=2, coins=0)
    reg = s.catalog.register("popularity", s.players)
    turn_for(s, A)
    go_hex(s, A, "n03")  # "2 fire"
    pick(s, A, {"fire": 1, "major": 0})
    pick(s, A, {"fire": 1, "major": 0})
    earned = [r["reward"] for r in s.rights]
    assert earned == [reg.spaces[2].reward.phrase, reg.spaces[3].reward.phrase]
    # use the second one first, then the hex action, then the first one
    second = earned[1]
    pick(s, A, {"act": "right", "index": 1, "reward": second})
    pick(s, A, {"act": "hex"})
    assert s.seats[A].fire == 2
    assert has(s, A, {"act": "right", "reward": earned[0]})


def test_R_TURN_ACT_2_unused_earned_actions_lapse_at_turn_end():
    s = scenario()
    s.seats[A].registers["popularity"] = 1
    cubes(s, "n03", 1)
    give(s, A, fire=1)
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"fire": 1, "major": 0})
    assert s.rights
    n = len(s.log)
    end(s, A)
    assert s.rights == [] and "R-TURN-ACT-2" in log_rules(s, n)
    turn_for(s, A)
    go_hex(s, A, "n05")
    assert not has(s, A, {"act": "right"})


def test_R_TURN_ACT_2_paid_advances_any_number_of_times():
    s = scenario()
    give(s, A, coins=12)
    turn_for(s, A)
    go_hex(s, A, "n03")
    for _ in range(3):
        pick(s, A, {"act": "pay", "register": "church"})
    pick(s, A, {"act": "pay", "register": "city"})
    assert s.seats[A].registers["church"] == 3 and s.seats[A].registers["city"] == 1
    assert s.seats[A].coins == 0
    opt = find(s, A, {"act": "pay", "register": "city"})
    assert not opt["available"] and opt["rule"] == "R-REG-3"


# --- R-ROUND-2 / R-ROUND-3 / Q-12 ----------------------------------------------------------------

def test_R_ROUND_2_turns_follow_the_play_order_cycling():
    s = scenario()
    assert s.order == [C, A, B]
    for seat in (A, B, C):
        give(s, seat, coins=0)
    s.turn = -1
    s.lanes = {"main": [{"do": "next_turn"}]}
    run(s)
    seen = []
    for _ in range(6):
        seen.append(whose(s))
        pick(s, whose(s), {"go": "recall"})
    assert seen == [C, A, B, C, A, B]


def test_Q_12_a_seat_without_lieutenants_is_skipped():
    s = scenario()
    use_up(s, A)
    turn_for(s, C)
    pick(s, C, {"go": "recall"})
    assert whose(s) == B
    pick(s, B, {"go": "recall"})
    assert whose(s) == C


def test_R_ROUND_2_Q_12_round_ends_when_every_lieutenant_is_used():
    s = scenario()
    use_up(s, B)
    use_up(s, C)
    for lt in s.seats[A].lieutenants[1:3]:
        lt.used = True
    turn_for(s, A)
    n = len(s.log)
    pick(s, A, {"go": "recall"})
    assert "R-EOR-1" in log_rules(s, n)  # upkeep ran: production first
    assert s.phase == "upkeep" or s.round == 3


def test_R_ROUND_3_each_lieutenant_acts_once_per_round():
    s = scenario()
    i = lie(s, A, "n03")
    turn_for(s, A)
    go_hex(s, A, "n04")
    end(s, A)
    assert i not in movement.available(s, A)
    assert all(s.seats[A].lieutenants[k].where == "estate" for k in movement.available(s, A))
