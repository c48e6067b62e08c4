"""Final scoring (R-END-2, R-SCORE-1…6, R-ADV-3…6, R-SOLO-8…9, Q-2, Q-13, Q-14, Q-19…21).

`score(state)` is pure: each test sets a finished table directly and reads the breakdown lines. Values
come from the catalog except where the rulebook fixes them (7 rats lose 13, the maximum loss is 21, the
a-board boats track after 3 advances is worth 4 per boat, the bonus tables).
"""

from __future__ import annotations

import pytest

from companion.engine import score
from companion.engine.gain import add_vp
from companion.engine.scoring import final_scoring
from companion.engine.state import Hex, WagonOwned

from scenario import (CATALOG, add_workshop, game, give, in_cabin, neighbourhoods, repopulate, set_registers,
                      set_scroll)


# --- helpers -------------------------------------------------------------------------------------

def pts(result: dict, seat: int, key: str) -> int:
    lines = [ln for ln in result["seats"][seat]["lines"] if ln["key"] == key]
    assert len(lines) == 1, f"seat {seat}: {len(lines)} lines {key!r}"
    return lines[0]["points"]


def line(result: dict, seat: int, key: str) -> dict:
    return next(ln for ln in result["seats"][seat]["lines"] if ln["key"] == key)


def keys(result: dict, seat: int) -> list[str]:
    return [ln["key"] for ln in result["seats"][seat]["lines"]]


def finished(players: int = 3, seed: int = 1, **opts):
    """A game whose score is about to be read: no tokens, no VP, every counter at the start."""
    state = game(players, seed, **opts)
    for i in range(players):
        give(state, i, coins=0, lumber=0, fire=0, major_fire=0, rats=0, vp=0)
    return state


def reg(state, kind: str):
    return state.catalog.register(kind, state.players)


def repop_hexes(cat=CATALOG) -> list[str]:
    """Repopulatable neighborhood hexes by id."""
    return sorted(h.id for h in cat.hexes.values() if h.repop)


def place_repopulated(state, seat: int, tiles: list[str]) -> None:
    """Make sure these hexes are in the city and repopulated by the seat."""
    lay = state.catalog.layout_for(state.players)
    free = [x for x in lay.expansion if x not in {h.space for h in state.hexes.values()}]
    for t in tiles:
        if t not in state.hexes:
            state.hexes[t] = Hex(tile=t, space=free.pop(0))
        repopulate(state, t, seat)


def equalize(state, result: dict, seats: list[int]) -> None:
    """Give VP during the game so these seats end on the same total as the highest of them."""
    top = max(result["seats"][i]["total"] for i in seats)
    for i in seats:
        state.seats[i].vp += top - result["seats"][i]["total"]


def track_board(counts: str):
    """A b scroll board with a track counting `counts`, and that track."""
    for b in sorted(CATALOG.scroll_boards.values(), key=lambda b: b.id):
        if b.side != "b":
            continue
        for tr in b.tracks:
            if tr.counts == counts:
                return b, tr
    raise AssertionError(f"no b scroll board counts {counts}")


def with_track(state, seat: int, counts: str, level: int):
    board, tr = track_board(counts)
    assert 0 <= level <= tr.top
    set_scroll(state, seat, board=board.id, **{tr.id: level})
    return tr


# --- lines and totals ----------------------------------------------------------------------------

def test_every_seat_has_the_standard_lines_and_total_is_their_sum():
    state = finished(3)
    give(state, 1, vp=17, coins=4, rats=2)
    result = score(state)
    board = state.catalog.scroll_boards["a"]
    for i in range(3):
        ks = keys(result, i)
        for k in ("game", "rats", "register-popularity", "register-city", "register-church", "repopulated",
                  "tokens", "popularity-bonus", *(f"scroll-{tr.id}" for tr in board.tracks)):
            assert k in ks, k
        assert "repop-bonus" not in ks, "the repopulation majority is advanced only (D-12)"
        assert result["seats"][i]["total"] == sum(ln["points"] for ln in result["seats"][i]["lines"])
    assert pts(result, 1, "game") == 17


# --- rats (R-END-2, Q-2) -------------------------------------------------------------------------

@pytest.mark.parametrize("rats, loss", [(7, 13), (12, 21), (10, 21), (40, 21)])
def test_R_END_2_rat_penalty_fixed_by_the_rulebook(rats, loss):
    state = finished(3)
    give(state, 0, rats=rats)
    assert pts(score(state), 0, "rats") == -loss


@pytest.mark.parametrize("rats", range(0, 14))
def test_Q_2_rat_penalty_reads_the_catalog_table_and_caps_at_its_last_entry(rats):
    table = CATALOG.rat_table.penalty
    state = finished(2)
    give(state, 1, rats=rats)
    assert pts(score(state), 1, "rats") == -table[min(rats, len(table) - 1)]


def test_Q_2_rat_table_matches_the_ruling():
    assert list(CATALOG.rat_table.penalty) == [0, 0, 1, 2, 4, 7, 10, 13, 16, 18, 21]


def test_R_END_2_score_may_go_negative():
    state = finished(3)
    give(state, 2, rats=12)
    assert score(state)["seats"][2]["total"] < 0


def test_R_END_2_R_SCORE_1_rats_move_popularity_back_and_register_vp_is_read_after():
    state = finished(3)
    pop = reg(state, "popularity")
    start = next(i for i in range(3, pop.last + 1) if pop.spaces[i].vp != pop.spaces[i - 3].vp)
    set_registers(state, 0, popularity=start)
    give(state, 0, rats=3)
    result = score(state)
    assert result["seats"][0]["popularity_after_rats"] == start - 3
    assert pts(result, 0, "register-popularity") == pop.spaces[start - 3].vp
    assert pts(result, 0, "register-popularity") != pop.spaces[start].vp


def test_R_END_2_rats_never_push_popularity_past_the_start_space():
    state = finished(3)
    set_registers(state, 1, popularity=4)
    give(state, 1, rats=9)
    result = score(state)
    assert result["seats"][1]["popularity_after_rats"] == 0
    assert pts(result, 1, "register-popularity") == reg(state, "popularity").spaces[0].vp


def test_R_SCORE_1_city_and_church_vp_from_the_catalog():
    state = finished(4)
    city, church = reg(state, "city"), reg(state, "church")
    set_registers(state, 3, city=city.last, church=church.last - 2)
    give(state, 3, rats=5)  # rats move popularity only
    result = score(state)
    assert pts(result, 3, "register-city") == city.spaces[city.last].vp
    assert pts(result, 3, "register-church") == church.spaces[church.last - 2].vp


# --- popularity placement (R-SCORE-2, Q-13) ------------------------------------------------------

@pytest.mark.parametrize("players, popularity, tokens, bonus", [
    pytest.param(3, [3, 8, 5], {}, [3, 10, 7], id="R-SCORE-2 three players 10 7 3"),
    pytest.param(4, [3, 8, 5, 1], {}, [3, 10, 7, 0], id="R-SCORE-2 four players the fourth gets nothing"),
    pytest.param(2, [2, 6], {}, [0, 5], id="R-SCORE-2 two players the first gets 5"),
    pytest.param(3, [9, 7, 1], {0: dict(rats=4)}, [7, 10, 3], id="R-SCORE-2 placement uses popularity after rats"),
    pytest.param(3, [4, 4, 4], {0: dict(fire=1), 1: dict(fire=3), 2: dict(fire=2)}, [3, 10, 7],
                 id="R-SCORE-2 a tie goes to more fire"),
    pytest.param(3, [6, 6, 6], {0: dict(major_fire=2), 1: dict(fire=3), 2: dict(fire=1, major_fire=2)}, [7, 3, 10],
                 id="R-SCORE-2 major fire counts 2 for the tiebreak"),
    pytest.param(3, [5, 5, 2], {0: dict(fire=2), 1: dict(major_fire=1)}, [(10 + 7) // 2, (10 + 7) // 2, 3],
                 id="Q-13 an unbroken tie for first splits the places' points"),
    pytest.param(3, [3, 3, 3], {}, [6, 6, 6], id="Q-13 a three-way tie splits 10 7 3"),
    pytest.param(3, [1, 9, 1], {}, [5, 10, 5], id="Q-13 a tie for second splits 7 and 3"),
    pytest.param(4, [9, 7, 2, 2], {}, [10, 7, 1, 1], id="Q-13 a tie for third in four players rounds down"),
    pytest.param(2, [4, 4], {}, [2, 2], id="Q-13 two players' unbroken tie splits 5 rounded down"),
])
def test_R_SCORE_2_Q_13_popularity_placement_bonus(players, popularity, tokens, bonus):
    """R-SCORE-2: 10/7/3 points by popularity after rats (5 for the first of two players); a tie goes to
    more fire, a major fire counting 2. Q-13: seats still tied share the points of the places they take,
    rounded down."""
    state = finished(players)
    for seat, p in enumerate(popularity):
        set_registers(state, seat, popularity=p)
        give(state, seat, **tokens.get(seat, {}))
    result = score(state)
    assert [pts(result, i, "popularity-bonus") for i in range(players)] == bonus


def test_R_SCORE_2_major_fire_counts_2_only_for_the_tiebreak():
    state = finished(3)
    give(state, 0, fire=1, major_fire=1, lumber=1)
    result = score(state)
    assert pts(result, 0, "tokens") == 1  # 3 tokens / 3: a major fire is one token here


# --- repopulated hexes (R-SCORE-3) ---------------------------------------------------------------

def test_R_SCORE_3_each_repopulated_hex_scores_its_printed_vp():
    state = finished(3)
    cat = state.catalog
    mine = [t for t in neighbourhoods(state) if cat.hexes[t].repop][:3]
    other = [t for t in neighbourhoods(state) if cat.hexes[t].repop][3]
    place_repopulated(state, 1, mine)
    place_repopulated(state, 2, [other])
    result = score(state)
    assert pts(result, 1, "repopulated") == sum(cat.hexes[t].repop_vp for t in mine)
    assert pts(result, 2, "repopulated") == cat.hexes[other].repop_vp
    assert pts(result, 0, "repopulated") == 0
    assert sorted(result["seats"][1]["repopulated"]) == sorted(mine)
    detail = line(result, 1, "repopulated")["detail"]  # the hexes by what is printed, never by id
    assert not any(t in detail for t in mine) and detail.count(" hex ") == 3


# --- scroll board a (R-SCORE-4) ------------------------------------------------------------------

def test_R_SCORE_4_example_three_advances_on_the_boats_track_4_boats_score_16():
    state = finished(3)
    boats = sorted(state.catalog.boats)[:4]
    state.seats[0].boats = list(boats)
    state.seats[0].scroll["boats"] = 3
    assert pts(score(state), 0, "scroll-boats") == 16


@pytest.mark.parametrize("level", range(6))
def test_R_SCORE_4_boats_track_value_per_boat_by_level(level):
    state = finished(3)
    tr = state.catalog.scroll_boards["a"].track("boats")
    state.seats[2].boats = sorted(state.catalog.boats)[:3]
    state.seats[2].scroll["boats"] = level
    assert pts(score(state), 2, "scroll-boats") == 3 * tr.levels[level]


def test_R_SCORE_4_buildings_count_improvements_and_workshops_at_most_6_not_wagons():
    state = finished(3)
    cat = state.catalog
    tr = cat.scroll_boards["a"].track("buildings")
    assert tr.cap == 6
    imps = sorted(cat.improvements)
    for i in range(4):
        in_cabin(state, 0, i, None, improvement=imps[i])
    for ws in sorted(w.id for w in cat.workshops.values() if w.era == 1)[:4]:
        add_workshop(state, 0, ws)

    state.seats[0].wagons = [WagonOwned(w) for w in sorted(cat.wagons)[:3]]
    state.seats[0].scroll["buildings"] = tr.top
    assert pts(score(state), 0, "scroll-buildings") == 6 * tr.levels[tr.top]
    # fewer than the cap: every building counts, wagons never
    state.seats[0].workshops = state.seats[0].workshops[:1]
    assert pts(score(state), 0, "scroll-buildings") == 5 * tr.levels[tr.top]


def test_R_SCORE_4_repopulation_track_counts_tiles_in_Messina():
    state = finished(3)
    tr = state.catalog.scroll_boards["a"].track("repopulated")
    place_repopulated(state, 1, repop_hexes()[:2])
    state.seats[1].scroll["repopulated"] = 2
    assert pts(score(state), 1, "scroll-repopulated") == 2 * tr.levels[2]


# --- leftover tokens (R-SCORE-5, Q-21) -----------------------------------------------------------

@pytest.mark.parametrize("coins, fire, major, lumber, expected", [
    (5, 2, 1, 0, 2),   # a 5-coin counts 5: 8 // 3
    (5, 2, 1, 1, 3),
    (0, 0, 0, 2, 0),
    (11, 0, 0, 0, 3),
    (3, 3, 3, 3, 4),
])
def test_R_SCORE_5_leftover_tokens_floor_of_a_third_coins_by_value(coins, fire, major, lumber, expected):
    state = finished(3)
    give(state, 0, coins=coins, fire=fire, major_fire=major, lumber=lumber, rats=0)
    assert pts(score(state), 0, "tokens") == expected


def test_R_SCORE_5_rats_are_not_tokens():
    state = finished(3)
    give(state, 0, coins=2, rats=1)
    assert pts(score(state), 0, "tokens") == 0


# --- winner (R-SCORE-6, Q-20) --------------------------------------------------------------------

def test_R_SCORE_6_highest_total_wins():
    state = finished(3)
    give(state, 2, vp=30)
    result = score(state)
    assert result["winners"] == [2]
    assert result["seats"][2]["rank"] == 1 and result["tiebreak"] is None


def test_R_SCORE_6_tie_goes_to_most_repopulated_hexes():
    state = finished(3)
    hexes = repop_hexes()
    place_repopulated(state, 0, hexes[:1])
    place_repopulated(state, 1, hexes[1:3])
    equalize(state, score(state), [0, 1])
    state.seats[2].vp = -50
    result = score(state)
    assert result["seats"][0]["total"] == result["seats"][1]["total"]
    assert result["winners"] == [1]
    assert result["seats"][1]["rank"] == 1 and result["seats"][0]["rank"] == 2
    assert result["tiebreak"]


def test_R_SCORE_6_then_the_most_valuable_single_repopulated_hex():
    state = finished(3)
    cat = state.catalog
    by_vp = sorted(repop_hexes(), key=lambda t: cat.hexes[t].repop_vp)
    low, high = by_vp[0], by_vp[-1]
    assert cat.hexes[low].repop_vp < cat.hexes[high].repop_vp
    place_repopulated(state, 0, [high])
    place_repopulated(state, 2, [low])
    equalize(state, score(state), [0, 2])
    state.seats[1].vp = -50
    result = score(state)
    assert result["seats"][0]["total"] == result["seats"][2]["total"]
    assert result["winners"] == [0]


def test_Q_20_full_tie_is_a_shared_victory():
    state = finished(3)
    hexes = repop_hexes()
    vp = CATALOG.hexes
    a = hexes[0]
    b = next(t for t in hexes[1:] if vp[t].repop_vp == vp[a].repop_vp)
    place_repopulated(state, 0, [a])
    place_repopulated(state, 1, [b])
    equalize(state, score(state), [0, 1])
    state.seats[2].vp = -50
    result = score(state)
    assert sorted(result["winners"]) == [0, 1]
    assert result["seats"][0]["rank"] == result["seats"][1]["rank"] == 1
    assert result["seats"][2]["rank"] == 3


def test_R_SCORE_6_final_scoring_stores_the_result_and_ends_the_game():
    state = finished(2)
    give(state, 0, vp=9)
    result = final_scoring(state)
    assert state.phase == "over" and state.scoring == result and result["winners"] == [0]


# --- advanced: repopulation majority (R-ADV-3) ---------------------------------------------------

def repop_order(cat, twins: bool) -> list[str]:
    """Repopulatable hexes by id, or (twins) just two of them that print the same VP."""
    hexes = repop_hexes(cat)
    if not twins:
        return hexes
    b = next(t for t in hexes[1:] if cat.hexes[t].repop_vp == cat.hexes[hexes[0]].repop_vp)
    return [hexes[0], b]


@pytest.mark.parametrize("players, twins, held, bonus", [
    pytest.param(3, False, {0: [0], 1: [1, 2, 3], 2: [4, 5]}, [3, 10, 7], id="R-ADV-3 majority 10 7 3"),
    pytest.param(3, False, {2: [0, 1]}, [0, 0, 10], id="R-ADV-3 at least one hex needed"),
    pytest.param(4, False, {0: [0, 1, 2], 1: [3, 4], 3: [5]}, [10, 7, 0, 3],
                 id="R-ADV-3 four players a lone hexless seat scores nothing"),
    pytest.param(2, False, {0: [0], 1: [1, 2]}, [0, 7], id="R-ADV-3 two players 7 and 0"),
    pytest.param(3, True, {0: [0], 2: [1]}, [(10 + 7) // 2, 0, (10 + 7) // 2],
                 id="R-ADV-3 Q-13 an unbroken tie splits the places"),
    pytest.param(2, True, {0: [0], 1: [1]}, [3, 3], id="R-ADV-3 Q-13 two players' unbroken tie splits 7 rounded down"),
])
def test_R_ADV_3_Q_13_repopulation_majority(players, twins, held, bonus):
    """R-ADV-3: in the advanced game, 10/7/3 points (7 for the first of two players) by repopulated hexes
    held, at least one needed; Q-13: a tie unbroken by the hexes' printed VP splits the places' points.
    `held`: seat -> indexes into the hexes by id (or into two hexes of the same VP, `twins`)."""
    state = finished(players, advanced=True)
    hexes = repop_order(state.catalog, twins)
    for seat, idx in held.items():
        place_repopulated(state, seat, [hexes[i] for i in idx])
    result = score(state)
    assert [pts(result, i, "repop-bonus") for i in range(players)] == bonus


def test_R_ADV_3_tie_broken_by_total_repopulated_hex_vp():
    state = finished(3, advanced=True)
    cat = state.catalog
    by_vp = sorted(repop_hexes(), key=lambda t: cat.hexes[t].repop_vp)
    place_repopulated(state, 0, [by_vp[0], by_vp[1]])      # cheapest pair
    place_repopulated(state, 1, [by_vp[-1], by_vp[-2]])    # dearest pair
    place_repopulated(state, 2, [by_vp[2]])
    assert cat.hexes[by_vp[0]].repop_vp + cat.hexes[by_vp[1]].repop_vp < \
        cat.hexes[by_vp[-1]].repop_vp + cat.hexes[by_vp[-2]].repop_vp
    result = score(state)
    assert [pts(result, i, "repop-bonus") for i in range(3)] == [7, 10, 3]


# --- advanced: b scroll tracks (R-ADV-4…6, Q-14, Q-21) -------------------------------------------

def test_R_ADV_4_Q_14_coins_track_first_level_half_per_coin_rounded_down():
    state = finished(3)
    tr = with_track(state, 0, "coins", 0)
    assert tr.levels[0] == 0.5 and tr.cap == 9
    give(state, 0, coins=7)
    assert pts(score(state), 0, f"scroll-{tr.id}") == 3


def test_R_ADV_4_Q_21_coins_track_caps_at_9_coins_worth():
    state = finished(3)
    tr = with_track(state, 0, "coins", 0)
    give(state, 0, coins=20)
    assert pts(score(state), 0, f"scroll-{tr.id}") == 4  # 9 × ½
    tr = with_track(state, 0, "coins", tr.top)
    assert pts(score(state), 0, f"scroll-{tr.id}") == int(9 * tr.levels[tr.top])


@pytest.mark.parametrize("level", range(6))
def test_R_ADV_4_coins_track_by_level(level):
    state = finished(3)
    tr = with_track(state, 1, "coins", level)
    give(state, 1, coins=5)
    assert pts(score(state), 1, f"scroll-{tr.id}") == int(5 * tr.levels[level])


@pytest.mark.parametrize("counts", ["register-city", "register-church"])
def test_R_ADV_5_register_track_lesser_past_single_bar_greater_past_double(counts):
    state = finished(3)
    kind = counts.split("-")[1]
    r = reg(state, kind)
    tr = with_track(state, 0, counts, 3)
    lesser, greater = tr.levels[3]
    expected = {r.single_bar - 1: 0, r.single_bar: lesser, r.double_bar - 1: lesser,
                r.double_bar: greater, r.last: greater}
    for pos, want in expected.items():
        set_registers(state, 0, **{kind: pos})
        assert pts(score(state), 0, f"scroll-{tr.id}") == want, pos


def test_R_ADV_5_popularity_register_track_reads_the_position_after_rats():
    state = finished(3)
    r = reg(state, "popularity")
    tr = with_track(state, 2, "register-popularity", 2)
    lesser, greater = tr.levels[2]
    set_registers(state, 2, popularity=r.double_bar)
    assert pts(score(state), 2, f"scroll-{tr.id}") == greater
    give(state, 2, rats=r.double_bar - r.single_bar)
    assert pts(score(state), 2, f"scroll-{tr.id}") == lesser


def overseers(state, seat: int, *steps: int) -> None:
    for ov, step in zip(state.seats[seat].overseers.values(), steps):
        ov.step = step
        ov.branch = "left" if step >= 2 else None


@pytest.mark.parametrize("steps, idx", [
    ((6, 5, 4), (2, 1)),   # the 2 farthest only
    ((4, 4, 4), (0, 0)),
    ((6, 6, 6), (2, 2)),
    ((3, 5, 1), (1,)),     # step 3 is not a hexagonal space
    ((3, 2, 1), ()),
])
def test_R_ADV_6_overseer_track_scores_the_2_farthest_overseers(steps, idx):
    state = finished(3)
    tr = with_track(state, 0, "overseers", 4)
    overseers(state, 0, *steps)
    assert pts(score(state), 0, f"scroll-{tr.id}") == sum(tr.levels[4][i] for i in idx)


def test_R_ADV_4_workshops_track_caps_at_5():
    state = finished(3)
    tr = with_track(state, 0, "workshops", 2)
    assert tr.cap == 5
    for ws in sorted(w.id for w in CATALOG.workshops.values())[:7]:
        add_workshop(state, 0, ws)
    assert pts(score(state), 0, f"scroll-{tr.id}") == int(5 * tr.levels[2])
    state.seats[0].workshops = state.seats[0].workshops[:3]
    assert pts(score(state), 0, f"scroll-{tr.id}") == int(3 * tr.levels[2])


def test_R_ADV_4_lumber_track_caps_at_6():
    state = finished(3)
    tr = with_track(state, 1, "lumber", tr_level := 4)
    assert tr.cap == 6
    give(state, 1, lumber=9)
    assert pts(score(state), 1, f"scroll-{tr.id}") == int(6 * tr.levels[tr_level])
    give(state, 1, lumber=4)
    assert pts(score(state), 1, f"scroll-{tr.id}") == int(4 * tr.levels[tr_level])


def test_R_ADV_4_goods_track_counts_the_most_common_cargo():
    state = finished(3)
    cat = state.catalog
    tr = with_track(state, 2, "goods", 3)
    by_cargo = {}
    for b in sorted(cat.boats.values(), key=lambda b: b.id):
        by_cargo.setdefault(b.cargo, []).append(b.id)
    a, b, c = sorted(by_cargo)
    state.seats[2].boats = by_cargo[a][:1] + by_cargo[b][:3] + by_cargo[c][:2]
    assert pts(score(state), 2, f"scroll-{tr.id}") == int(3 * tr.levels[3])


def test_R_ADV_4_improvements_track_counts_improved_cabins():
    state = finished(3)
    tr = with_track(state, 0, "improvements", 1)
    imps = sorted(CATALOG.improvements)
    for i in range(3):
        in_cabin(state, 0, i, None, improvement=imps[i])
    add_workshop(state, 0, sorted(CATALOG.workshops)[0])  # not an improvement
    assert pts(score(state), 0, f"scroll-{tr.id}") == int(3 * tr.levels[1])


def test_R_ADV_4_scroll_lines_cite_the_advanced_rule_on_b_boards():
    state = finished(3)
    tr = with_track(state, 0, "coins", 1)
    assert line(score(state), 0, f"scroll-{tr.id}")["rule"] == "R-ADV-4"
    assert line(score(state), 1, "scroll-boats")["rule"] == "R-SCORE-4"


# --- solo (R-SOLO-8, R-SOLO-9, Q-19) -------------------------------------------------------------

@pytest.mark.parametrize("mine, rats, theirs, bonus", [
    (5, 0, 5, 5),    # equal is enough
    (7, 0, 5, 5),
    (4, 0, 5, 0),
    (7, 3, 5, 0),    # after rats 4 < 5
    (7, 2, 5, 5),    # after rats 5 = 5
])
def test_R_SOLO_8_five_vp_when_popularity_after_rats_matches_the_opponent(mine, rats, theirs, bonus):
    state = finished(1)
    set_registers(state, 0, popularity=mine)
    give(state, 0, rats=rats)
    state.opponent.popularity = theirs
    result = score(state)
    assert pts(result, 0, "popularity-bonus") == bonus
    assert line(result, 0, "popularity-bonus")["rule"] == "R-SOLO-8"


@pytest.mark.parametrize("count, bonus", [(0, 0), (1, 0), (2, 3), (3, 4), (4, 10), (5, 10)])
def test_R_SOLO_9_Q_19_repopulation_count_bonus(count, bonus):
    state = finished(1)
    place_repopulated(state, 0, repop_hexes()[:count])
    result = score(state)
    assert pts(result, 0, "repop-bonus") == bonus
    cat = state.catalog
    assert pts(result, 0, "repopulated") == sum(cat.hexes[t].repop_vp for t in repop_hexes()[:count])


def test_Q_19_solo_bonus_replaces_the_advanced_majority():
    state = finished(1, advanced=True)
    place_repopulated(state, 0, repop_hexes()[:2])
    result = score(state)
    bonus = [ln for ln in result["seats"][0]["lines"] if ln["key"] == "repop-bonus"]
    assert len(bonus) == 1 and bonus[0]["rule"] == "R-SOLO-9" and bonus[0]["points"] == 3
    assert result["winners"] == [0]


def test_R_SCORE_7_passing_50_vp_tells_the_table_to_mark_the_lap():
    """R-SCORE-7: a counter passing 50 VP goes round the track again; the table marks it on the 50
    space, and the score keeps counting past 50."""
    state = finished(2)
    give(state, 0, vp=48)
    add_vp(state, 0, 1)
    marks = [e for e in state.log if e.get("rule") == "R-SCORE-7"]
    assert marks == [], "R-SCORE-7: 49 VP is no lap yet"
    add_vp(state, 0, 3)
    marks = [e for e in state.log if e.get("rule") == "R-SCORE-7"]
    assert len(marks) == 1 and "passes 50 VP" in marks[0]["text"] and "Ada" in marks[0]["text"], marks
    add_vp(state, 0, 7)
    assert len([e for e in state.log if e.get("rule") == "R-SCORE-7"]) == 1, "R-SCORE-7: one mark per lap"
    assert pts(score(state), 0, "game") == 59, "R-SCORE-7: VP past 50 all count"


@pytest.mark.parametrize("advanced, target", [(False, 130), (True, 140)])
def test_R_SOLO_10_solo_scoring_says_what_a_good_score_is(advanced, target):
    """R-SOLO-10: a good solo score is 130, or 140 with the advanced boards."""
    state = finished(1, advanced=advanced)
    result = final_scoring(state)
    assert result["target"] == target, "R-SOLO-10: the good score for these boards"
    notes = [e["text"] for e in state.log if e.get("rule") == "R-SOLO-10"]
    assert len(notes) == 1 and f"{target} VP" in notes[0], notes


def test_R_SOLO_10_no_solo_target_with_two_or_more_players():
    """R-SOLO-10 is a solo benchmark only."""
    state = finished(2)
    assert "target" not in final_scoring(state), "R-SOLO-10: no target in a multi-player game"
