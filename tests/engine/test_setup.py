"""Game setup through the engine API: R-SETUP-1…20, round I setup R-R1-1…3, R-ADV-1, R-SOLO-2, and
table-draw mode (C-1), where the host enters every reveal."""

from __future__ import annotations

import copy
import re

import pytest

from companion.engine import (IllegalAction, Options, PlayerOption, apply, legal_actions, new_game, options_for,
                              pending)
from companion.catalog import shipped_catalog
from companion.engine.city import neighbourhoods, window
from companion.engine.flow import MAIN, push, run
from companion.engine.state import COLOURS

CUBES = {1: 16, 2: 16, 3: 18, 4: 24}  # R-SETUP-5
CLASSES = ("aristocrat", "nun", "craftsman")
COUNTS = (1, 2, 3, 4)
SEEDS = (0, 1, 7, 123, 9999)


def game(n, seed=1, **kw):
    return new_game(options_for(n, **kw), seed, shipped_catalog())


def host_pending(state):
    return [p for p in pending(state) if p["who"] == "host"]


def cubes_total(state):
    return (sum(h.cubes for h in state.hexes.values())
            + sum(b.cube for boats in state.docks.values() for b in boats) + state.supply_cubes)


def start_tiles(state):
    return {h.space: tile for tile, h in state.hexes.items() if h.space.startswith("s")}


def play_table(state, choose=None):
    """Answer every host reveal: `choose(decision, available_options)` or the first available one; then
    the host's "the table is ready" (C-18), which is not counted."""
    answered = 0
    while host_pending(state):
        p = host_pending(state)[0]
        if p["kind"] == "table_ready":
            apply(state, legal_actions(state, "host")[0]["action"])
            continue
        assert p["kind"] == "reveal"
        opts = [o for o in legal_actions(state, "host") if o["available"]]
        assert opts
        pick = choose(p, opts) if choose else opts[0]
        apply(state, pick["action"])
        answered += 1
        assert answered < 200
    return answered


@pytest.fixture(params=COUNTS, ids=lambda n: f"{n}p")
def n(request):
    return request.param


# ------------------------------------------------------------------------------- setup is done

@pytest.mark.parametrize("seed", SEEDS)
def test_C_18_setup_asks_the_host_only_whether_the_table_is_ready_in_app_mode(n, seed):
    """C-18 (issue 25): round I waits for the host's "the table is ready"; the companion draws the rest."""
    state = game(n, seed)
    assert state.phase == "setup" and state.round == 1
    assert [p["kind"] for p in pending(state)] == ["table_ready"] and pending(state)[0]["who"] == "host"
    assert state.players == n and len(state.seats) == n
    apply(state, legal_actions(state, "host")[0]["action"])
    assert state.phase == "play" and host_pending(state) == []


def test_R_SETUP_20_bad_options_are_refused():
    five = Options([PlayerOption(f"P{i}", c) for i, c in enumerate(COLOURS + ("red",))])
    with pytest.raises(IllegalAction):  # 1 to 4 players
        new_game(five, 1, shipped_catalog())
    with pytest.raises(IllegalAction):
        new_game(Options([]), 1, shipped_catalog())
    opts = options_for(2)
    opts.players[1].colour = opts.players[0].colour
    with pytest.raises(IllegalAction):  # R-SETUP-14: one colour each
        new_game(opts, 1, shipped_catalog())
    with pytest.raises(IllegalAction):
        new_game(options_for(2, draw="dice"), 1, shipped_catalog())


# ------------------------------------------------------------------------------------ the city

@pytest.mark.parametrize("seed", SEEDS)
def test_R_SETUP_1_kept_A_hexes_for_the_count(catalog, n, seed):
    state = game(n, seed)
    placed_a = sorted(t for t in start_tiles(state).values() if catalog.hexes[t].cls == "A")
    marks = {1: {"all"}, 2: {"all"}, 3: {"all", "3-4"}, 4: {"all", "3-4", "4"}}[n]  # solo = 2p set
    expected = sorted(h.id for h in catalog.hexes.values() if h.cls == "A" and h.players in marks)
    assert placed_a == expected


@pytest.mark.parametrize("seed", SEEDS)
def test_R_SETUP_2_one_B_all_start_spaces_filled_harbors_at_corners(catalog, n, seed):
    state = game(n, seed)
    lay = catalog.layout_for(n)
    tiles = start_tiles(state)
    assert sorted(tiles) == [f"s{i:02d}" for i in range(1, len(lay.start) + 1)]
    assert len(set(tiles.values())) == len(tiles)
    assert sum(catalog.hexes[t].cls == "B" for t in tiles.values()) == 1
    assert not any(catalog.hexes[t].cls == "C" for t in tiles.values())
    for h in catalog.harbors:
        assert state.hexes[h].space == h
    assert len(state.hexes) == len(lay.start) + 4  # nothing on expansion spaces yet (R-R1-3)


def test_R_SETUP_2_deal_is_random_across_seeds():
    deals = {tuple(sorted(start_tiles(game(3, s)).items())) for s in range(12)}
    assert len(deals) > 1


@pytest.mark.parametrize("seed", SEEDS)
def test_R_SETUP_3_other_B_tops_the_expansion_stack_over_the_C_hexes(catalog, n, seed):
    state = game(n, seed)
    bs = {h.id for h in catalog.hexes.values() if h.cls == "B"}
    placed_b = bs & set(start_tiles(state).values())
    stack = state.expansion
    assert stack.top == sorted(bs - placed_b)
    cs = sorted(h.id for h in catalog.hexes.values() if h.cls == "C")
    assert sorted(state.pools[stack.pool]) == cs
    assert stack.hidden == len(cs)
    assert len(stack) == len(cs) + 1


def test_R_SETUP_5_plague_cubes_in_play(n):
    for seed in SEEDS:
        state = game(n, seed)
        assert cubes_total(state) == CUBES[n]
        assert state.supply_cubes >= 0


# ---------------------------------------------------------------------------------- the tiles

def test_R_SETUP_7_docking_pile_after_the_round_I_draw(catalog, n):
    state = game(n, 3)
    pile = state.docking
    assert state.docked_at in catalog.docking_tiles
    assert len(pile) == 3
    assert sorted(state.pools[pile.pool] + [state.docked_at]) == sorted(catalog.docking_tiles)


def test_R_SETUP_8_boats_stones_removed_in_2p_and_solo(catalog, n):
    state = game(n, 5)
    in_stack = [b for st in state.boats for b in state.pools[st.pool]] + [b for st in state.boats for b in st.top]
    docked = [b.tile for boats in state.docks.values() for b in boats]
    total = in_stack + docked
    assert len(set(total)) == len(total)
    assert sum(len(st) for st in state.boats) == len(in_stack)
    stones = {b.id for b in catalog.boats.values() if b.cargo == "stones"}
    if n <= 2:
        assert not stones & set(total)
        assert len(total) == 6
    else:
        assert stones <= set(total)
        assert len(total) == 9


def test_R_SETUP_8_boat_stack_in_back_number_order_group_1_on_top(catalog, n):
    state = game(n, 5)
    backs = [{catalog.boats[b].back for b in state.pools[st.pool]} for st in state.boats if st.hidden]
    assert all(len(b) == 1 for b in backs)
    flat = [next(iter(b)) for b in backs]
    assert flat == sorted(flat)
    # R-R1-1: the boat that arrived was the top of the stack, i.e. from group 1
    docked = [b.tile for boats in state.docks.values() for b in boats]
    assert [catalog.boats[b].back for b in docked] == [1]


def test_R_SETUP_9_three_improvement_stacks_with_a_face_up_tile(catalog, n):
    state = game(n, 11)
    stacks = state.improvements
    assert len(stacks) == 3
    ups = [st.up for st in stacks]
    assert all(ups) and len(set(ups)) == 3
    pool = state.pools[stacks[0].pool]
    assert all(st.pool == stacks[0].pool for st in stacks)  # C-2: one pool
    assert sorted(ups + pool) == sorted(catalog.improvements)
    assert sum(st.hidden for st in stacks) == len(pool) == 12
    assert [st.hidden for st in stacks] == [4, 4, 4]


def test_R_SETUP_10_wagon_stacks(catalog, n):
    state = game(n, 13)
    assert len(state.wagon_stacks) == (1 if n <= 2 else 2)
    ups = [ws.up for ws in state.wagon_stacks]
    assert len(set(ups)) == len(ups)
    for ws in state.wagon_stacks:
        assert catalog.wagons[ws.up].back == 1
        assert ws.backs == [2, 3, 4, 5]


def test_R_SETUP_11_one_face_up_era_I_workshop_per_class(catalog, n):
    state = game(n, 17)
    assert sorted(state.workshops) == sorted(CLASSES)
    for cls, st in state.workshops.items():
        w = catalog.workshops[st.up]
        assert w.era == 1 and w.cls == cls
        early = sorted(x.id for x in catalog.workshops.values() if x.era == 1 and x.cls == cls)
        assert sorted(state.pools[st.pool] + [st.up]) == early
        late = sorted(x.id for x in catalog.workshops.values() if x.era == 2 and x.cls == cls)
        assert sorted(state.pools[f"late-{cls}"]) == late


def test_R_SETUP_12_scoreboard_side(n):
    state = game(n)
    assert state.side == ("2p" if n <= 2 else "3-4p")
    assert state.round == 1


# ---------------------------------------------------------------------------------- the players

def test_R_COMP_1_R_SETUP_14_four_colours_each_with_five_lieutenants_three_overseers_three_scroll_cubes():
    """R-COMP-1: 20 lieutenants (4 colours × 5), 12 overseers (one of each class per colour), 12 scroll
    cubes (3 per colour) and 24 plague cubes: a 4-player game uses every one of them."""
    state = game(4, 3)
    assert sorted(x.colour for x in state.seats) == sorted(COLOURS), "R-COMP-1: 4 colours, one per player"
    assert sum(len(x.lieutenants) for x in state.seats) == 20, "R-COMP-1: 20 lieutenants, 5 per colour"
    assert all(sorted(x.overseers) == sorted(CLASSES) for x in state.seats), "R-COMP-1: 3 overseers per colour"
    assert sum(len(x.scroll) for x in state.seats) == 12, "R-COMP-1: 3 scroll cubes per colour"
    assert cubes_total(state) == 24, "R-COMP-1: 24 plague cubes, all in play with 4 players"


def test_R_SETUP_4_unlimited_tokens_go_within_reach():
    """R-SETUP-4: fire, major fire, rats, lumber, coins and citizens (R-COMP-3's unlimited tokens) are put
    within reach, one step of the setup checklist."""
    steps = [e["text"] for e in game(2, 1).setup_steps if e.get("rule") == "R-SETUP-4"]
    assert len(steps) == 1, "R-SETUP-4: one setup step"
    for token in ("fire", "major fire", "rat", "lumber", "coin", "citizen"):
        assert token in steps[0], f"R-SETUP-4: {token} tokens within reach"


def test_R_SETUP_6_the_wheel_may_start_at_any_window_the_table_chose(catalog):
    """R-SETUP-6: any window (each shows a rat and three colours) may start; in table-draw mode the host
    names it from every window of the wheel, and round I then turns it one space on (R-R1-2)."""
    ids = [w.id for w in catalog.wheel]
    for start in (ids[0], ids[-1]):
        state = game(2, 1, draw="table")
        offered = []

        def choose(p, opts):
            if p["rule"] == "R-SETUP-6":
                offered.extend(o["value"] for o in opts)
                return next(o for o in opts if o["value"] == start)
            return opts[0]

        play_table(state, choose)
        assert sorted(offered) == sorted(ids), "R-SETUP-6: every window may start the game"
        assert state.wheel == (ids.index(start) + 1) % len(ids), "R-SETUP-6: the game starts from the host's window"


def test_R_SETUP_13_R_PRIO_1_priority_tile_step_only_when_the_tile_is_used():
    """R-SETUP-13: the register priority tile is optional; when used, a setup step covers the round info
    table's first column with it."""
    for players in (1, 3):
        used = [e for e in game(players, 2, priority_tile=True).setup_steps if e.get("rule") == "R-SETUP-13"]
        unused = [e for e in game(players, 2).setup_steps if e.get("rule") == "R-SETUP-13"]
        assert len(used) == 1 and "priority tile" in used[0]["text"], "R-SETUP-13: the tile covers the column"
        assert unused == [], "R-SETUP-13: no step when the tile is not used"


def test_R_R1_3_round_one_adds_no_hex_and_keeps_the_drawn_order(catalog, n):
    """R-R1-3: round I adds no expansion hex and does not reorder play: the order is the one drawn at
    setup (R-SETUP-17)."""
    state = game(n, 8)
    layout = catalog.layout_for(n)
    assert len(start_tiles(state)) == len(layout.start), "R-R1-3: only the start city"
    assert not any(h.space.startswith("x") for h in state.hexes.values()), "R-R1-3: no expansion hex in round I"
    assert len(state.expansion) == 1 + sum(h.cls == "C" for h in catalog.hexes.values()), "R-R1-3: stack untouched"
    drawn = next(e for e in state.setup_steps if e.get("rule") in ("R-SETUP-17", "R-SOLO-4"))
    assert state.order == drawn["data"]["order"], "R-R1-3: round I plays in the drawn order"


def test_R_R1_3_R_NEXT_10_round_one_wheel_adds_no_cube_when_the_supply_is_short():
    """R-R1-3: the plague cube limit (R-NEXT-10) already applies to round I's wheel step: with fewer cubes
    in the supply than hexes due, none is added."""
    state = game(3, 1)
    state.phase, state.lanes, state.setup_steps = "setup", {}, []
    for h in state.hexes.values():
        state.supply_cubes += h.cubes
        h.cubes = 0
    rat = window(state).rat
    due = [t for t in neighbourhoods(state) if state.catalog.hexes[t].rat == rat]
    assert len(due) >= 2, f"seed 1 shows the {rat} rat on {due}"
    state.supply_cubes = len(due) - 1
    state.wheel = (state.wheel - 1) % len(state.catalog.wheel)  # the step turns it back to this window
    push(state, MAIN, {"do": "wheel_step", "cubes": True})
    run(state)
    assert all(state.hexes[t].cubes == 0 for t in due), "R-R1-3: no cube at all when the supply is short"
    assert state.supply_cubes == len(due) - 1, "R-NEXT-10: the supply is untouched"
    assert any(e.get("rule") == "R-NEXT-10" for e in state.setup_steps), "R-NEXT-10: the table is told why"



def test_R_SETUP_14_15_16_each_seat_starts_with_its_pieces(catalog, n):
    """R-SETUP-14, R-SETUP-15, R-SETUP-16: pieces of the seat's colour, 3 lieutenants on the estate and 2
    in the supply, scroll cubes at the bottom and overseers on their start spaces."""
    state = game(n, 19)
    for seat in state.seats:
        where = sorted(lt.where for lt in seat.lieutenants)
        assert where == ["estate"] * 3 + ["supply"] * 2
        assert not any(lt.used for lt in seat.lieutenants)
        assert seat.owned_lieutenants == 3  # R-REG-3: 3 coins per paid advance at the start
        assert len(seat.cabins) == 4 == catalog.boards[seat.board].cabins
        assert all(c.improvement is None and c.citizen is None for c in seat.cabins)
        assert sorted(seat.overseers) == sorted(CLASSES)
        assert all(o.step == 0 and o.branch is None and not o.upgraded for o in seat.overseers.values())
        sb = catalog.scroll_boards[seat.scroll_board]
        assert seat.scroll == {t.id: 0 for t in sb.tracks}
        assert seat.registers == {"popularity": 0, "city": 0, "church": 0}
        assert seat.rats == 0 and seat.squares == {} and seat.workshops == [] and seat.boats == []
        assert seat.board == "a" and seat.scroll_board == "a"  # standard game: side a


@pytest.mark.parametrize("seed", SEEDS)
def test_R_SETUP_17_18_Q_1_order_and_register_stacks(n, seed):
    """R-SETUP-17, R-SETUP-18, Q-1: a random round I order; the register stacks put the last player on top."""
    state = game(n, seed)
    assert sorted(state.order) == list(range(n))
    stamps = [state.seats[s].stamps for s in state.order]
    for key in ("popularity", "city", "church", "score"):
        by_position = [st[key] for st in stamps]
        # later play positions stand higher in the stack: the last player is on top
        assert by_position == sorted(by_position) and len(set(by_position)) == n, key


def test_R_SETUP_17_round_I_order_is_random():
    orders = {tuple(game(4, s).order) for s in range(20)}
    assert len(orders) > 3


@pytest.mark.parametrize("seed", SEEDS)
def test_R_SETUP_19_compensation_by_play_position(n, seed):
    state = game(n, seed)
    vp = [state.seats[s].vp for s in state.order]
    coins = [state.seats[s].coins for s in state.order]
    if n == 1:
        assert vp == [0] and coins == [0]  # compensation is ignored in solo
    else:
        assert vp == [0, 1, 0, 1][:n]
        assert coins == [0, 0, 1, 1][:n]


def test_R_SOLO_4_solo_player_goes_first_and_R_SOLO_2_opponent_exists():
    state = game(1, 4)
    assert state.order == [0]
    assert state.opponent is not None
    assert state.opponent.colour in COLOURS and state.opponent.colour != state.seats[0].colour
    assert state.opponent.popularity == 0
    # R-SOLO-2: a 2p setup
    assert state.side == "2p" and len(state.wagon_stacks) == 1


def test_no_opponent_in_multiplayer(n):
    state = game(n, 4)
    assert (state.opponent is not None) == (n == 1)


# ------------------------------------------------------------------------------- round I setup

@pytest.mark.parametrize("seed", SEEDS)
def test_R_R1_1_one_boat_arrives_with_a_cube(catalog, n, seed):
    state = game(n, seed)
    boats = [(dock, b) for dock, bs in state.docks.items() for b in bs]
    assert len(boats) == 1
    dock, boat = boats[0]
    assert boat.cube is True
    # the tile drawn names that dock (it is empty, so no overflow)
    assert catalog.docking_tiles[state.docked_at].dock == dock
    assert sorted(state.docks) == sorted(catalog.docks)


@pytest.mark.parametrize("seed", SEEDS)
def test_R_R1_2_cubes_on_the_wheel_rat_and_citizens_by_colour(catalog, n, seed):
    state = game(n, seed)
    window = catalog.wheel[state.wheel]
    due = [t for t in start_tiles(state).values() if catalog.hexes[t].rat == window.rat]
    assert len(due) <= CUBES[n] - 1  # R-NEXT-10 could not bite in round I
    for tile, h in state.hexes.items():
        if tile in catalog.harbors:
            assert h.cubes == 0 and h.citizens == []  # C-3
            continue
        hx = catalog.hexes[tile]
        assert h.cubes == (1 if hx.rat == window.rat else 0), tile
        cls = window.colours[hx.colour]
        assert [c.cls for c in h.citizens] == ([cls] if cls else []), tile
        assert all(not c.upgraded for c in h.citizens)
    ids = [c.id for h in state.hexes.values() for c in h.citizens]
    assert len(ids) == len(set(ids))


# -------------------------------------------------------------------------------- advanced game

@pytest.mark.parametrize("seed", SEEDS)
def test_R_ADV_1_random_colours_with_matching_b_boards(catalog, n, seed):
    state = game(n, seed, advanced=True)
    colours = [s.colour for s in state.seats]
    assert len(set(colours)) == n and set(colours) <= set(COLOURS)
    for s in state.seats:
        assert s.board == f"b-{s.colour}"
        assert catalog.boards[s.board].side == "b"
        assert catalog.scroll_boards[s.scroll_board].side == "b"
        assert s.scroll == {t.id: 0 for t in catalog.scroll_boards[s.scroll_board].tracks}
    assert len({s.scroll_board for s in state.seats}) == n
    if n == 1:
        assert state.opponent.colour != state.seats[0].colour  # C-11


def test_R_ADV_1_colours_are_random():
    firsts = {game(4, s, advanced=True).seats[0].colour for s in range(20)}
    assert len(firsts) > 1


# -------------------------------------------------------------------------------- determinism

@pytest.mark.parametrize("flags", [{}, {"advanced": True}, {"priority_tile": True}])
def test_same_seed_same_game(n, flags):
    a = game(n, 2024, **flags)
    b = game(n, 2024, **flags)
    assert a.to_dict() == b.to_dict()


def test_different_seeds_differ(n):
    def table(state):
        d = state.to_dict()
        for k in ("seed", "rng"):
            d.pop(k)
        return d

    tables = [table(game(n, s)) for s in range(6)]
    assert any(t != tables[0] for t in tables[1:])


# ------------------------------------------------------------------------------- table-draw mode

def test_C_1_table_draw_asks_the_host_for_reveals(n):
    state = game(n, 1, draw="table")
    assert state.phase == "setup"
    ps = pending(state)
    assert ps and all(p["who"] == "host" and p["kind"] == "reveal" for p in ps)
    opts = legal_actions(state, "host")
    assert len(opts) >= 2
    assert all(o["available"] and o["action"]["who"] == "host" for o in opts)


def test_C_1_each_question_to_the_host_is_one_whole_question(n):
    """What the host is asked reads as one question, so every language can word it its own way."""
    state = game(n, 0, draw="table")
    asked = set()
    play_table(state, lambda p, opts: asked.add(p["prompt"]) or opts[0])
    assert all(q.endswith("?") and "came up" not in q for q in asked), asked
    assert {"Which hex is on the marked space?", "Which boat is on top of the boat stack?",
            "Which docking tile was drawn?"} <= asked


@pytest.mark.parametrize("seed", (0, 5))
def test_C_1_table_draw_first_answers_reach_play_with_setup_invariants(catalog, n, seed):
    state = game(n, seed, draw="table")
    answered = play_table(state)
    assert answered >= len(catalog.layout_for(n).start)  # at least the city deal was asked
    assert state.phase == "play"
    tiles = start_tiles(state)
    assert len(tiles) == len(catalog.layout_for(n).start)
    assert sum(catalog.hexes[t].cls == "B" for t in tiles.values()) == 1
    assert cubes_total(state) == CUBES[n]
    assert len([b for bs in state.docks.values() for b in bs]) == 1
    assert all(st.up for st in state.improvements)
    assert all(st.up for st in state.workshops.values())


def test_C_1_table_draw_follows_what_the_host_enters(catalog):
    """The host deals a B first and names the wheel window: the companion follows (R-SETUP-2, R-R1-2)."""
    state = game(2, 1, draw="table")

    def choose(p, opts):
        values = [o["value"] for o in opts]
        if p.get("places") == ["space:s01"] and "n15" in values:
            return opts[values.index("n15")]
        if "wheel" in p["prompt"] and "w2" in values:
            return opts[values.index("w2")]
        return opts[-1]

    play_table(state, choose)
    tiles = start_tiles(state)
    assert tiles["s01"] == "n15"
    assert "n14" not in tiles.values()
    assert state.expansion.top == ["n14"]  # R-SETUP-3
    ids = [w.id for w in catalog.wheel]
    assert state.wheel == (ids.index("w2") + 1) % len(ids)  # turned one window clockwise (R-R1-2)


def test_C_1_last_start_space_must_take_the_B_if_none_was_dealt(catalog):
    state = game(2, 1, draw="table")
    while True:
        p = host_pending(state)[0]
        opts = legal_actions(state, "host")
        values = [o["value"] for o in opts]
        if p.get("place") == "space:s08":  # the marked space, named on the map, not in words
            assert sorted(values) == ["n14", "n15"]
            break
        a_only = [o for o in opts if catalog.hexes[o["value"]].cls == "A"]
        apply(state, a_only[0]["action"])


def _answer_table(state, wanted):
    """Answer every host reveal: a question whose rule is in `wanted` takes the next value listed there,
    every other one its first option. Returns the prompts asked per rule."""
    asked = {}
    while host_pending(state):
        p = host_pending(state)[0]
        values = [o["value"] for o in legal_actions(state, "host") if o["available"]]
        queue = wanted.get(p["rule"])
        pick = queue.pop(0) if queue else values[0]
        asked.setdefault(p["rule"], []).append(p["prompt"])
        apply(state, next(o for o in legal_actions(state, "host") if o["value"] == pick)["action"])
    return asked


def test_R_SETUP_17_R_SETUP_19_C_1_table_draw_round_one_order_is_what_the_table_drew():
    """R-SETUP-17 / C-1: with draw = table the round I play order is the host's entry, not the app's
    shuffle; compensation (R-SETUP-19) and the register stacks (R-SETUP-18) follow it."""
    for wanted_order in ([2, 0, 1], [1, 2, 0]):
        state = game(3, 1, draw="table")
        asked = _answer_table(state, {"R-SETUP-17": list(wanted_order[:2])})  # the last one is forced (C-10)
        assert len(asked.get("R-SETUP-17", [])) == 2, f"R-SETUP-17: the host enters P1 and P2, asked {asked}"
        assert state.order == wanted_order, f"R-SETUP-17: order {state.order}, the table drew {wanted_order}"
        p1, p2, p3 = wanted_order
        assert [state.seats[i].vp for i in (p1, p2, p3)] == [0, 1, 0], "R-SETUP-19: start VP by position"
        assert [state.seats[i].coins for i in (p1, p2, p3)] == [0, 0, 1], "R-SETUP-19: start coins by position"
        stack = sorted(range(3), key=lambda i: state.seats[i].stamps["popularity"], reverse=True)
        assert stack == [p3, p2, p1], "R-SETUP-18: the last player's counter is on top"


def test_R_ADV_1_C_1_table_draw_colours_and_b_boards_are_what_the_table_drew(catalog):
    """R-ADV-1 / C-1 / C-7: with draw = table in the advanced game each player's colour (and so its b
    player board) and b scroll board are the host's entries, not shuffled by the app."""
    state = game(2, 1, draw="table", advanced=True)
    asked = _answer_table(state, {"R-ADV-1": ["green", "b3", "blue", "b1"]})
    assert asked["R-ADV-1"] == ["Which colour did Ada draw?", "Which b scroll board did Ada draw?",
                                "Which colour did Bruno draw?", "Which b scroll board did Bruno draw?"], \
        f"R-ADV-1: the host enters each player's colour and scroll board, asked {asked['R-ADV-1']}"
    assert [(x.colour, x.board, x.scroll_board) for x in state.seats] == [("green", "b-green", "b3"),
                                                                          ("blue", "b-blue", "b1")]
    for x in state.seats:
        assert len(x.cabins) == catalog.boards[x.board].cabins, "R-ADV-1: the drawn board's cabins"
        assert set(x.scroll) == {tr.id for tr in catalog.scroll_boards[x.scroll_board].tracks}
    lines = [e["text"] for e in state.setup_steps if e.get("rule") == "R-ADV-1"]
    tracks = ", ".join(t.counts.removeprefix("register-") for t in catalog.scroll_boards["b3"].tracks)
    assert any("Ada plays green" in ln and tracks in ln for ln in lines), lines  # the board as printed
    assert not any(re.search(r"\bb[1-4]\b|b-green", ln) for ln in lines), lines  # never its id
    assert state.phase == "play"


def test_R_ADV_1_C_1_a_colour_already_drawn_or_a_seat_already_placed_is_refused_and_changes_nothing():
    """R-ADV-1 / R-SETUP-17 / C-1: the host can only enter what is still in the bag: a colour another
    player drew, or a seat already on the indicator, is refused with the state unchanged."""
    state = game(3, 1, draw="table", advanced=True)
    d = pending(state)[0]
    assert d["rule"] == "R-ADV-1"
    apply(state, next(o for o in legal_actions(state, "host") if o["value"] == "green")["action"])
    while pending(state)[0]["rule"] == "R-ADV-1" and "colour" not in pending(state)[0]["prompt"]:
        apply(state, legal_actions(state, "host")[0]["action"])
    before = copy.deepcopy(state.to_dict())
    d = pending(state)[0]
    assert d["prompt"] == "Which colour did Bruno draw?"
    with pytest.raises(IllegalAction):
        apply(state, {"who": "host", "decision": d["id"], "pick": "green"})
    assert state.to_dict() == before, "R-ADV-1: a refused colour changes nothing"
    while pending(state)[0]["rule"] != "R-SETUP-17":
        apply(state, legal_actions(state, "host")[0]["action"])
    first = legal_actions(state, "host")[0]["value"]
    apply(state, legal_actions(state, "host")[0]["action"])
    before = copy.deepcopy(state.to_dict())
    d = pending(state)[0]
    assert d["rule"] == "R-SETUP-17"
    with pytest.raises(IllegalAction):
        apply(state, {"who": "host", "decision": d["id"], "pick": first})
    assert state.to_dict() == before, "R-SETUP-17: a seat cannot be P1 and P2"


def test_R_ADV_1_app_draw_advanced_setup_asks_the_host_nothing():
    """R-ADV-1: in app-draw mode the companion still draws colours and boards itself (seeded)."""
    for n in (1, 2, 4):
        state = game(n, 3, advanced=True)
        assert [p["kind"] for p in host_pending(state)] == ["table_ready"], \
            "R-ADV-1: app-draw mode asks the host nothing but whether the table is ready (C-18)"
        assert all(x.board == f"b-{x.colour}" for x in state.seats)


def test_table_draw_answer_not_on_the_menu_is_refused_and_changes_nothing():
    state = game(3, 1, draw="table")
    before = copy.deepcopy(state.to_dict())
    d = pending(state)[0]
    with pytest.raises(IllegalAction):
        apply(state, {"who": "host", "decision": d["id"], "pick": "harbor-nw"})
    with pytest.raises(IllegalAction):
        apply(state, {"who": "host", "decision": d["id"], "pick": "n20"})  # a C hex is never dealt
    with pytest.raises(IllegalAction):
        apply(state, {"who": 0, "decision": d["id"], "pick": "n01"})  # not the seat's question
    with pytest.raises(IllegalAction):
        apply(state, {"pick": "n01"})
    assert state.to_dict() == before


def test_table_draw_stale_decision_id_is_refused():
    state = game(3, 1, draw="table")
    first = legal_actions(state, "host")
    apply(state, first[1]["action"])
    before = copy.deepcopy(state.to_dict())
    still_open = [o["value"] for o in legal_actions(state, "host")]
    stale = dict(first[2]["action"])
    assert stale["pick"] in still_open  # the pick itself would be fine now
    with pytest.raises(IllegalAction):
        apply(state, stale)
    assert state.to_dict() == before


def test_apply_copy_first_keeps_the_callers_state():
    state = game(2, 1, draw="table")
    before = copy.deepcopy(state.to_dict())
    new, log = apply(state, legal_actions(state, "host")[0]["action"], copy_first=True)
    assert state.to_dict() == before
    assert new.to_dict() != before
    assert new.decisions == 1
