"""The component catalog: counts (R-COMP), setup constraints, the rulebook examples with their
provenance (RULES.md §14), the reward grammar, and the table's override file (docs/CATALOG.md)."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from companion.catalog import (COUNTS, CatalogError, GrammarError, Need, catalog_in_force, default_catalog,
                               load_catalog, parse_citizens, parse_cost, parse_reward)
from companion.catalog.model import AXIAL_STEPS

CLASSES = ("aristocrat", "nun", "craftsman")


def items(reward):
    """A reward as a set of options, each a set of (icon, count): order-free comparison."""
    return {frozenset((i.icon, i.count) for i in b.items) for b in reward.options}


def same(reward, phrase: str) -> bool:
    return items(reward) == items(parse_reward(phrase))


def path_spaces(board):
    for path in board.paths.values():
        yield from (path.first,) + path.left + path.right


# ------------------------------------------------------------------------------------------ counts

def test_R_COMP_2_default_catalog_loads_with_printed_counts(catalog):
    assert len(catalog.hexes) == 20
    assert len(catalog.harbors) == 4
    assert len(catalog.docks) == 4
    assert len(catalog.docking_tiles) == 4
    assert len(catalog.boats) == 9
    assert len(catalog.workshops) == 33
    assert len(catalog.improvements) == 15
    assert len(catalog.wagons) == 10
    assert len(catalog.solo_tiles) == 14


def test_R_COMP_2_boards_a_and_four_b_and_five_scroll_boards(catalog):
    assert sorted(catalog.boards) == ["a", "b-blue", "b-green", "b-red", "b-yellow"]
    assert catalog.boards["a"].side == "a"
    assert all(catalog.boards[b].side == "b" for b in catalog.boards if b != "a")
    assert sorted(catalog.scroll_boards) == ["a", "b1", "b2", "b3", "b4"]
    assert catalog.scroll_boards["a"].side == "a"
    assert all(catalog.scroll_boards[s].side == "b" for s in catalog.scroll_boards if s != "a")


def test_R_COMP_counts_table_matches_the_rulebook():
    assert COUNTS["hex"] == 20 and COUNTS["harbor"] == 4 and COUNTS["docking_tile"] == 4
    assert COUNTS["boat"] == 9 and COUNTS["workshop"] == 33 and COUNTS["improvement"] == 15
    assert COUNTS["wagon"] == 10 and COUNTS["solo_tile"] == 14
    assert COUNTS["board"] == 5 and COUNTS["scroll_board"] == 5


def test_M_14_boards_have_18_squares_4_cabins_6_workshop_slots(catalog):
    for board in catalog.boards.values():
        assert len(board.squares) == 18
        for cls in CLASSES:
            assert len(board.sector(cls)) == 6
        assert board.cabins == 4
        assert board.workshop_slots == 6
        assert sorted(board.paths) == sorted(CLASSES)


def test_R_ADV_2_single_use_squares_one_per_sector_on_b_none_on_a(catalog):
    for board in catalog.boards.values():
        for cls in CLASSES:
            once = sum(s.once for s in board.sector(cls))
            assert once == (1 if board.side == "b" else 0), (board.id, cls)


# ---------------------------------------------------------------------------- city and setup data

def test_R_SETUP_2_exactly_two_B_hexes_and_enough_C_for_expansion(catalog):
    classes = Counter(h.cls for h in catalog.hexes.values())
    assert classes["B"] == 2
    # R-SETUP-3 / R-NEXT-6: B on top of the C hexes, 5 hexes added in rounds II-VI
    assert classes["C"] >= 4
    assert classes["A"] + classes["B"] + classes["C"] == 20


@pytest.mark.parametrize("players,start", [(1, 8), (2, 8), (3, 11), (4, 14)])
def test_R_SETUP_1_kept_A_hexes_plus_one_B_fill_the_layout_start_spaces(catalog, players, start):
    """R-SETUP-1/2, M-1, M-3: 2p (and solo) 8, 3p 11, 4p 14 start hexes."""
    kept = [h for h in catalog.hexes.values() if h.cls == "A" and h.in_count(players)]
    assert len(kept) + 1 == start
    assert len(catalog.layout_for(players).start) == start


def test_R_SETUP_1_player_marks_nest(catalog):
    """A "4" hex is removed in 2p/3p; an "all" hex is kept at every count (R-SETUP-1)."""
    a = [h for h in catalog.hexes.values() if h.cls == "A"]
    assert {h.players for h in a} <= {"all", "3-4", "4"}
    assert any(h.players == "all" for h in a) and any(h.players == "4" for h in a)
    for h in a:
        kept = [n for n in (1, 2, 3, 4) if h.in_count(n)]
        assert kept == {"all": [1, 2, 3, 4], "3-4": [3, 4], "4": [4]}[h.players], h.id
    for h in catalog.hexes.values():
        if h.cls != "A":
            assert h.players is None


def test_R_COMP_4_boat_cargo_is_precious_stones_spices_or_silk(catalog, tmp_path):
    """R-COMP-4: the three cargo types; every one is carried by some boat, and no other is accepted."""
    assert {b.cargo for b in catalog.boats.values()} == {"stones", "spices", "silk"}, "R-COMP-4: three types"
    path = write(tmp_path, BOAT_1.format(reward="3 coin").replace('cargo = "stones"', 'cargo = "wine"'))
    assert_refused(path, "boat boat-1", "cargo")


def test_R_SETUP_8_three_stones_boats(catalog):
    assert sum(b.cargo == "stones" for b in catalog.boats.values()) == 3
    assert {b.cargo for b in catalog.boats.values()} <= {"stones", "spices", "silk"}  # R-COMP-4


def test_R_TURN_DOCK_5_every_boat_gives_coins_or_vp(catalog):
    for b in catalog.boats.values():
        assert not b.reward.is_choice
        assert b.reward.icons() <= {"coin", "vp"} and b.reward.icons(), b.id


def test_R_SETUP_10_wagons_are_five_back_numbered_pairs(catalog):
    backs = Counter(w.back for w in catalog.wagons.values())
    assert backs == {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}


def test_R_SETUP_11_workshops_for_every_era_and_class(catalog):
    eras = Counter((w.era, w.cls) for w in catalog.workshops.values())
    for era in (1, 2):
        for cls in CLASSES:
            assert eras[(era, cls)] >= 1, (era, cls)
    for w in catalog.workshops.values():
        # R-BUILD-5: era I produces each round, era II rewards once
        if w.era == 1:
            assert w.output is not None and w.reward is None, w.id
        else:
            assert w.reward is not None and w.output is None and w.upgraded_output is None, w.id


def test_R_SETUP_9_improvements_deal_into_three_equal_stacks(catalog):
    assert len(catalog.improvements) % 3 == 0


def test_M_18_solo_tiles_name_real_hexes_and_red_actions(catalog):
    for t in catalog.solo_tiles.values():
        assert t.hex in catalog.hexes or t.hex in catalog.harbors, t.id
        assert t.action in ("boat", "wagon", "workshop-aristocrat", "workshop-nun", "workshop-craftsman",
                            "improvements")


# ----------------------------------------------------------------------------- layouts and docks

def test_M_4_each_dock_serves_one_harbor_and_each_tile_names_one_dock(catalog):
    harbors = [d.harbor for d in catalog.docks.values()]
    assert sorted(harbors) == sorted(catalog.harbors)
    for d in catalog.docks.values():
        assert d.spaces == 3  # R-NEXT-5: a full dock holds 3 boats
        # the dock sits at the corner of its own harbor (dock-nw <-> harbor-nw)
        assert d.id.split("-")[1] == d.harbor.split("-")[1]
    named = [t.dock for t in catalog.docking_tiles.values()]
    assert sorted(named) == sorted(catalog.docks)


def test_Q_11_docks_are_not_on_the_grid(catalog):
    """A dock is adjacent only to its harbor: no layout gives it a coordinate."""
    for lay in catalog.layouts.values():
        spaces = set(lay.harbors) | set(lay.expansion)
        assert not spaces & set(catalog.docks)


def _pixel(c):
    q, r = c
    return (q + r / 2, r)  # r grows downward


@pytest.mark.parametrize("lid", ["2p", "3p", "4p"])
def test_M_3_layout_ring_is_a_clockwise_walk_of_harbors_and_expansion_spaces(catalog, lid):
    """R-NEXT-6: the ring holds every expansion space and the 4 harbors, in clockwise order."""
    lay = catalog.layouts[lid]
    assert sorted(lay.ring) == sorted(list(lay.harbors) + list(lay.expansion))
    assert len(lay.expansion) == 6
    assert set(lay.harbors) == set(catalog.harbors)
    cells = list(lay.start) + list(lay.harbors.values())
    cx = sum(_pixel(c)[0] for c in cells) / len(cells)
    cy = sum(_pixel(c)[1] for c in cells) / len(cells)
    where = {**lay.harbors, **lay.expansion}
    angles = [math.atan2(_pixel(where[s])[1] - cy, _pixel(where[s])[0] - cx) for s in lay.ring]
    # with y growing downward, clockwise on the table = increasing angle; exactly one wrap-around
    drops = sum(1 for a, b in zip(angles, angles[1:] + angles[:1]) if b <= a)
    assert drops == 1, list(zip(lay.ring, angles))


@pytest.mark.parametrize("lid", ["2p", "3p", "4p"])
def test_M_3_expansion_spaces_border_the_start_city(catalog, lid):
    lay = catalog.layouts[lid]
    placed = set(lay.start) | set(lay.harbors.values())
    for xid, (q, r) in lay.expansion.items():
        assert (q, r) not in placed
        assert sum((q + dq, r + dr) in placed for dq, dr in AXIAL_STEPS) >= 2, xid
    # harbors at corners: each touches the start city
    for h, (q, r) in lay.harbors.items():
        assert any((q + dq, r + dr) in set(lay.start) for dq, dr in AXIAL_STEPS), h


def test_R_SETUP_20_solo_uses_the_2p_layout(catalog):
    assert catalog.layout_for(1) is catalog.layout_for(2)
    assert catalog.layout_for(3).id == "3p" and catalog.layout_for(4).id == "4p"


def test_walk_from_goes_clockwise_from_the_harbor(catalog):
    lay = catalog.layouts["2p"]
    i = lay.ring.index("harbor-ne")
    expected = [s for s in lay.ring[i + 1:] + lay.ring[:i] if s in lay.expansion]
    assert list(lay.walk_from("harbor-ne")) == expected
    assert len(expected) == 6


# ------------------------------------------------------------------------------------ the wheel

def test_R_R1_2_every_wheel_window_has_one_empty_colour_and_each_class_once(catalog):
    assert catalog.wheel
    for w in catalog.wheel:
        assert set(w.colours) == {"orange", "white", "blue", "red"}
        assert list(w.colours.values()).count(None) == 1, w.id
        assert sorted(c for c in w.colours.values() if c) == sorted(CLASSES)
        assert w.rat in ("left", "right", "standing")


def test_R_R1_2_the_example_window_is_in_the_wheel_as_rulebook(catalog):
    example = {"orange": "nun", "white": "craftsman", "blue": "aristocrat", "red": None}
    found = [w for w in catalog.wheel if w.rat == "left" and dict(w.colours) == example]
    assert len(found) == 1
    w = found[0]
    for f in ("rat", "orange", "white", "blue", "red"):
        assert w.prov.of(f) == "rulebook"


# ------------------------------------------------------------------- rulebook examples (§14)

def test_R_BUILD_8_the_five_known_workshops(catalog):
    ws = list(catalog.workshops.values())

    def rb(w, *fields):
        return all(w.prov.of(f) == "rulebook" for f in fields)

    # (a) early nun workshop needing an upgraded nun: 1 major fire + 1 coin per round
    a = [w for w in ws if w.era == 1 and w.cls == "nun" and w.needs_upgraded
         and same(w.output, "1 major-fire and 1 coin") and rb(w, "era", "class", "needs_upgraded", "output")]
    # (b) early nun workshop, 1 fire regular / 2 fire upgraded (the +1 VP is R-EOR-3, not output)
    b = [w for w in ws if w.era == 1 and w.cls == "nun" and not w.needs_upgraded
         and same(w.output, "1 fire") and w.upgraded_output is not None and same(w.upgraded_output, "2 fire")
         and rb(w, "output", "upgraded_output")]
    # (c) an aristocrat workshop taking regular or upgraded
    c = [w for w in ws if w.cls == "aristocrat" and not w.needs_upgraded and rb(w, "class", "needs_upgraded")]
    # (d) a late aristocrat workshop needing an upgraded aristocrat
    d = [w for w in ws if w.era == 2 and w.cls == "aristocrat" and w.needs_upgraded
         and rb(w, "era", "class", "needs_upgraded")]
    # (e) late nun workshop, once 1 fire + 3 VP for any nun
    e = [w for w in ws if w.era == 2 and w.cls == "nun" and not w.needs_upgraded
         and same(w.reward, "1 fire and 3 vp") and rb(w, "era", "class", "needs_upgraded", "reward")]
    assert a and b and c and d and e
    # the unknown parts of those tiles are never presented as printed
    for w in a + b + e:
        assert w.prov.of("cost") == "assumed", w.id


@pytest.mark.parametrize("cost,citizens,lieutenant", [
    ({"lumber": 1}, (Need("aristocrat", 2, False),), False),
    ({"coin": 1}, (Need("nun", 1, False), Need("craftsman", 1, True)), False),
    ({"coin": 2}, (Need("nun", 2, False),), True),
])
def test_R_REPOP_5_the_three_known_requirements(catalog, cost, citizens, lieutenant):
    found = [h for h in catalog.hexes.values() if h.repop and h.repop_cost.tokens() == cost
             and sorted(h.repop_citizens, key=repr) == sorted(citizens, key=repr)
             and h.repop_lieutenant is lieutenant]
    assert found
    assert any(all(h.prov.of(f) == "rulebook" for f in ("repop_cost", "repop_citizens", "repop_lieutenant"))
               for h in found)
    # the hex's VP is not in the rulebook text
    assert all(h.prov.of("repop_vp") == "assumed" for h in found)


def test_R_ACT_2_build_or_major_fire_hex(catalog):
    found = [h for h in catalog.hexes.values() if same(h.action, "build or 1 major-fire")]
    assert len(found) >= 1
    h = found[0]
    assert h.action.is_choice and len(h.action.options) == 2
    assert h.prov.of("action") == "rulebook"
    assert h.prov.of("colour") == "assumed"


def test_M_1_hex_names_are_ours_not_printed(catalog):
    assert all(h.prov.of("name") == "assumed" for h in catalog.hexes.values())


def test_R_REPOP_2_harbors_cannot_be_repopulated_and_most_hexes_can(catalog):
    assert all(not h.repop for h in catalog.harbors.values())
    assert all(h.colour is None and h.rat == "none" for h in catalog.harbors.values())  # C-3
    assert sum(h.repop for h in catalog.hexes.values()) > 10
    for h in catalog.hexes.values():
        if h.repop:
            assert h.repop_citizens and h.repop_cost is not None, h.id


def test_M_7_popularity_example_nothing_then_advance_any(catalog):
    for side in ("2p", "3-4p"):
        reg = catalog.registers[f"popularity-{side}"]
        pairs = zip(reg.spaces[1:], reg.spaces[2:])  # after the start space
        assert any(a.reward.is_nothing and "advance-any" in b.reward.icons() for a, b in pairs), side


def test_M_7_city_register_has_two_lieutenant_spaces_and_an_any_hex_space(catalog):
    """R-REG-4, R-SETUP-15: two spare lieutenants, one any-hex space."""
    for side in ("2p", "3-4p"):
        reg = catalog.registers[f"city-{side}"]
        icons = [s.reward.icons() for s in reg.spaces]
        assert sum("lieutenant" in i for i in icons) >= 2
        assert any("any-hex" in i for i in icons)
        assert reg.spaces[0].reward.is_nothing  # start space "I"
        assert 0 < reg.single_bar < reg.double_bar <= reg.last  # R-ADV-5


def test_M_12_known_improvements(catalog):
    imps = list(catalog.improvements.values())
    lumber_fire = [i for i in imps if i.cost.tokens() == {"lumber": 1} and same(i.output, "1 fire")
                   and i.prov.of("cost") == "rulebook" and i.prov.of("output") == "rulebook"]
    fire_vp = [i for i in imps if same(i.output, "1 fire and 1 vp") and i.prov.of("output") == "rulebook"]
    assert lumber_fire and fire_vp
    # R-EOR-2 example: a craftsman works the 1 fire + 1 VP tile, so it cannot be limited to another class
    assert any(i.cls in (None, "craftsman") for i in fire_vp)


def test_M_14_board_a_known_squares_and_path_spaces(catalog):
    board = catalog.boards["a"]

    def is_rb(sq):
        return sq.prov.of("reward") == "rulebook"

    # a T1 space touching a nun "1 fire" square and a nun "build" square
    t1 = []
    for sp in path_spaces(board):
        if sp.type != "T1":
            continue
        sqs = [board.square(s) for s in sp.squares]
        if any(s.sector == "nun" and same(s.reward, "1 fire") and is_rb(s) for s in sqs) and any(
                s.sector == "nun" and same(s.reward, "build") and is_rb(s) for s in sqs):
            t1.append(sp)
    assert t1
    # a T3 space touching a nun region and a craftsman region
    t3 = [sp for sp in path_spaces(board) if sp.type == "T3"
          and sorted(board.region(r)[0].sector for r in sp.regions) == ["craftsman", "nun"]]
    assert t3
    # a craftsman square giving 1 coin and 1 lumber
    assert any(s.sector == "craftsman" and same(s.reward, "1 coin and 1 lumber") and is_rb(s)
               for s in board.squares)


def test_R_OVS_3_paths_have_six_steps_ending_at_the_centre(catalog):
    for board in catalog.boards.values():
        for cls, path in board.paths.items():
            assert len(path.left) == 5 and len(path.right) == 5
            assert path.space(6, "left").type == "T4" and path.space(6, "right").type == "T4"
            assert path.space(0, None) is None
            assert path.space(1, None) is path.first
            # R-ADV-6: steps 4 and 5 are hexagonal
            for branch in ("left", "right"):
                assert path.space(4, branch).hexagonal and path.space(5, branch).hexagonal


def test_M_16_scroll_board_a_boat_track_third_advance_is_worth_4(catalog):
    sb = catalog.scroll_boards["a"]
    boats = [t for t in sb.tracks if t.counts == "boats"]
    assert len(boats) == 1
    assert boats[0].levels[3] == 4
    # R-SCORE-4: buildings count at most 6; the three a tracks
    assert sorted(t.counts for t in sb.tracks) == ["boats", "buildings", "repopulated"]
    assert [t.cap for t in sb.tracks if t.counts == "buildings"] == [6]


def test_Q_2_rat_table(catalog):
    rats = catalog.rat_table
    assert rats.penalty == (0, 0, 1, 2, 4, 7, 10, 13, 16, 18, 21)
    assert rats.loss(7) == 13  # R-END-2
    assert rats.loss(0) == 0
    assert rats.loss(10) == 21 and rats.loss(40) == 21  # maximum 21


def test_Q_2_R_END_2_rat_table_marks_what_the_rulebook_prints(catalog):
    """R-END-2 / Q-2: the rulebook prints 7 rats → 13 and the maximum 21; the other entries are ours."""
    rats = catalog.rat_table
    assert rats.prov.of("penalty[7]") == "rulebook" and rats.penalty[7] == 13, "R-END-2: 7 rats lose 13"
    last = len(rats.penalty) - 1
    assert rats.prov.of(f"penalty[{last}]") == "rulebook" and rats.penalty[last] == 21, "R-END-2: maximum 21"
    assert all(rats.prov.of(f"penalty[{i}]") == "assumed" for i in range(last) if i != 7), \
        "Q-2: the other entries are our ruling, marked assumed"


def test_R_SCORE_4_scroll_board_a_boat_level_3_is_marked_rulebook(catalog):
    """R-SCORE-4: the English example fixes the boats track at 4 per boat after 3 advances."""
    boats = catalog.scroll_boards["a"].track("boats")
    assert boats.levels[3] == 4 and boats.prov.of("levels[3]") == "rulebook", "R-SCORE-4: the example's value"
    assert boats.prov.of("levels[4]") == "assumed", "R-SCORE-4: other levels are ours"


def test_M_7_R_REG_2_popularity_example_spaces_are_marked_rulebook(catalog):
    """M-7 / R-REG-2: the EN example's popularity steps (nothing, then advance an overseer) are printed
    text; the rest of the register is assumed."""
    for side in ("2p", "3-4p"):
        reg = catalog.registers[f"popularity-{side}"]
        assert reg.spaces[1].reward.is_nothing and "advance-any" in reg.spaces[2].reward.icons(), side
        assert reg.prov.of("space[1].reward") == reg.prov.of("space[2].reward") == "rulebook", \
            f"M-7: the example's spaces on the {side} side are marked rulebook"
        assert reg.prov.of("space[3].reward") == "assumed" and reg.prov.of("space[2].vp") == "assumed", side


def test_R_SOLO_5_R_SETUP_20_every_solo_tile_names_a_hex_that_can_be_in_a_solo_game(catalog):
    """R-SOLO-5 / R-SETUP-20: solo uses the 2-player set, so a tile naming a 3-4 or 4-player-only hex
    could never be valid."""
    never = [t.id for t in catalog.solo_tiles.values() if t.hex in catalog.hexes
             and not catalog.hexes[t.hex].in_count(1)]
    assert not never, f"R-SETUP-20: solo tiles naming hexes never in a solo game: {never}"


def test_R_SETUP_20_override_solo_tile_on_a_four_player_hex_is_refused(tmp_path):
    """R-SETUP-20: the catalog check refuses a solo tile that names a hex no solo game has."""
    path = write(tmp_path, '[[solo_tile]]\nid = "solo-11"\nhex = "n12"\naction = "boat"\nsource = "rulebook"\n')
    assert_refused(path, "solo_tile solo-11", "never in a solo game")


def test_M_5_round_info_round_I_and_boat_supply(catalog):
    for side, boats in (("2p", 6), ("3-4p", 9)):
        rows = catalog.round_info[side].rounds
        assert len(rows) == 6
        assert rows[0].priority == "none" and rows[0].boats == 1  # R-R1-1, R-R1-3
        assert all(r.priority != "none" for r in rows[1:])  # R-NEXT-4
        assert any(r.priority == "score" for r in rows)  # R-NEXT-4: at least one score-track round
        assert sum(r.boats for r in rows) <= boats


# ------------------------------------------------------------------------------ reward grammar

def test_grammar_or_gives_a_choice_of_two():
    r = parse_reward("build or 1 major-fire")
    assert r.is_choice
    assert len(r.options) == 2
    assert [[(i.icon, i.count) for i in b.items] for b in r.options] == [[("build", 1)], [("major-fire", 1)]]


def test_grammar_and_gives_one_bundle_of_two_items():
    r = parse_reward("1 coin and 1 lumber")
    assert not r.is_choice
    assert len(r.options) == 1
    assert [(i.icon, i.count) for i in r.options[0].items] == [("coin", 1), ("lumber", 1)]
    assert r.options[0].tokens() == {"coin": 1, "lumber": 1}


def test_grammar_and_binds_tighter_than_or():
    r = parse_reward("2 fire and 1 vp or 3 coin")
    assert items(r) == {frozenset({("fire", 2), ("vp", 1)}), frozenset({("coin", 3)})}


def test_grammar_count_defaults_to_one_and_nothing_is_empty():
    assert parse_reward("scroll").options[0].items[0].count == 1
    assert parse_reward("3 activate").options[0].items[0].count == 3
    assert parse_reward("nothing").is_nothing
    assert not parse_reward("1 coin").is_nothing


@pytest.mark.parametrize("phrase", ["1 doubloon", "2 coins", "build or", "", "0 coin", "coin and and fire",
                                    "1 Coin"])
def test_grammar_rejects_what_is_not_in_the_language(phrase):
    with pytest.raises(GrammarError):
        parse_reward(phrase)


def test_grammar_unknown_icon_is_named():
    with pytest.raises(GrammarError, match="doubloon"):
        parse_reward("1 coin and 2 doubloon")


def test_grammar_cost_is_one_bundle_of_tokens():
    assert parse_cost("1 lumber and 2 coin").tokens() == {"lumber": 1, "coin": 2}
    assert parse_cost("nothing").items == ()
    with pytest.raises(GrammarError):
        parse_cost("build")
    with pytest.raises(GrammarError):
        parse_cost("1 coin or 1 lumber")
    with pytest.raises(GrammarError):
        parse_cost("2 vp")


def test_R_REPOP_5_citizen_requirement_grammar():
    assert parse_citizens("1 nun and 1 upgraded craftsman") == (Need("nun", 1, False), Need("craftsman", 1, True))
    assert parse_citizens("2 aristocrat") == (Need("aristocrat", 2, False),)
    for bad in ("1 knight", "nun", "1 upgraded", "", "0 nun"):
        with pytest.raises(GrammarError):
            parse_citizens(bad)


# ------------------------------------------------------------------------------- override file

def write(tmp_path, text: str, name: str = "catalog.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BOAT_1 = """
[[boat]]
id = "boat-1"
back = 1
cargo = "stones"
reward = "{reward}"
source = "rulebook"
"""


def test_override_replaces_a_record_whole(tmp_path, catalog):
    assert catalog.boats["boat-1"].reward.phrase != "3 coin"
    path = write(tmp_path, BOAT_1.format(reward="3 coin"))
    c = load_catalog(override=path)
    assert same(c.boats["boat-1"].reward, "3 coin")
    assert c.boats["boat-1"].prov.of("reward") == "rulebook"
    assert c.origins[("boat", "boat-1")] == str(path)
    # nothing else moved
    assert c.boats["boat-2"] == catalog.boats["boat-2"]
    assert len(c.boats) == 9


def test_override_file_missing_means_defaults(tmp_path, catalog):
    c = load_catalog(override=tmp_path / "nope.toml")
    assert c.boats == catalog.boats


def assert_refused(path, *needles):
    with pytest.raises(CatalogError) as info:
        load_catalog(override=path)
    msg = str(info.value)
    assert str(path) in msg, msg
    for n in needles:
        assert n in msg, msg
    return msg


def test_override_unparsable_reward_is_refused_naming_file_record_and_problem(tmp_path):
    path = write(tmp_path, BOAT_1.format(reward="3 doubloon"))
    assert_refused(path, "boat boat-1", "reward", "doubloon")


def test_override_unknown_id_is_refused(tmp_path):
    path = write(tmp_path, BOAT_1.replace('"boat-1"', '"boat-99"').format(reward="3 coin"))
    assert_refused(path, "boat boat-99", "no default record")


def test_override_wrong_field_type_is_refused(tmp_path):
    text = BOAT_1.format(reward="3 coin").replace("back = 1", 'back = "one"')
    path = write(tmp_path, text)
    assert_refused(path, "boat boat-1", "back", "whole number")


def test_override_invalid_toml_is_refused(tmp_path):
    path = write(tmp_path, '[[boat]\nid = "boat-1"\n')
    assert_refused(path, "not valid TOML")


def test_override_dangling_dock_reference_is_refused(tmp_path):
    path = write(tmp_path, '[[docking_tile]]\nid = "docking-nw"\ndock = "dock-atlantis"\nsource = "rulebook"\n')
    assert_refused(path, "docking_tile docking-nw", "unknown dock dock-atlantis")


def test_override_unknown_family_is_refused(tmp_path):
    path = write(tmp_path, '[[dragon]]\nid = "d1"\nsource = "assumed"\n')
    assert_refused(path, "dragon")


THIRD_B = """
[[hex]]
id = "n16"
name = "Tremonti"
class = "B"
colour = "red"
rat = "left"
action = "2 fire or 2 lumber"
repop = false
source = "rulebook"
"""


def test_R_SETUP_2_override_making_a_third_B_hex_is_refused(tmp_path):
    path = write(tmp_path, THIRD_B)
    with pytest.raises(CatalogError) as info:
        load_catalog(override=path)
    assert "3 B hexes" in str(info.value)


def test_R_SETUP_2_third_B_hex_error_names_the_override_file_and_record(tmp_path):
    """docs/CATALOG.md: "A broken override is refused with the file, the record id and the problem"."""
    path = write(tmp_path, THIRD_B)
    assert_refused(path, "n16", "B hex")


def test_R_SETUP_8_override_adding_a_fourth_stones_boat_is_refused(tmp_path):
    path = write(tmp_path, BOAT_1.replace('"boat-1"', '"boat-2"').format(reward="2 coin"))
    with pytest.raises(CatalogError, match="precious stones"):
        load_catalog(override=path)


def test_broken_override_keeps_nothing_half_valid(tmp_path):
    """One bad record refuses the whole file: good records in it are not applied either."""
    good = BOAT_1.format(reward="3 coin")
    bad = BOAT_1.replace('"boat-1"', '"boat-2"').replace("stones", "spices").format(reward="1 doubloon")
    path = write(tmp_path, good + bad)
    msg = assert_refused(path, "boat boat-2")
    assert "boat boat-1" not in msg


def test_default_catalog_honours_MESSINA_CATALOG(tmp_path, monkeypatch):
    path = write(tmp_path, BOAT_1.format(reward="3 coin"))
    monkeypatch.setenv("MESSINA_CATALOG", str(path))
    assert same(default_catalog().boats["boat-1"].reward, "3 coin")
    monkeypatch.setenv("MESSINA_CATALOG", str(tmp_path / "absent.toml"))
    assert same(default_catalog().boats["boat-1"].reward, "2 vp")
    broken = write(tmp_path, BOAT_1.format(reward="3 doubloon"), "broken.toml")
    monkeypatch.setenv("MESSINA_CATALOG", str(broken))
    # docs/CATALOG.md: a broken override is refused and the defaults stay in force until it is fixed
    assert same(default_catalog().boats["boat-1"].reward, "2 vp")
    now = catalog_in_force()
    assert not now.corrected and any("broken.toml" in p and "doubloon" in p for p in now.problems)
