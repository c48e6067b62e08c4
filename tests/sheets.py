"""Five score sheets worked out by hand from ../shared/rules/RULES.md (issue 26), each with the points of
every line as a person with the rulebook and the shipped catalog's printed values would write them.

The values the sums read from the catalog (all `assumed` but the rat table's 7 → 13 and 21) are pinned
by CATALOG_VALUES, so a change to the shipped catalog fails here with the value named, not as a wrong sum.

Line keys (engine/scoring.py): game VP (R-SCORE-7), rats (R-END-2), register-* (R-SCORE-1), repopulated
(R-SCORE-3), scroll-<track> (R-SCORE-4 / R-ADV-4…6), tokens (R-SCORE-5), popularity-bonus (R-SCORE-2 /
R-SOLO-8), repop-bonus (R-ADV-3 / R-SOLO-9).
"""

from __future__ import annotations

#: what the sums below read from the shipped catalog
CATALOG_VALUES = {
    "register_vp_2p": [0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 10, 12],  # each register, 2p side (M-7)
    "register_vp_3-4p": [0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10, 12],  # 3-4p side
    "bars_3-4p": (11, 13),  # single, double (R-ADV-5)
    "rat_penalty": [0, 0, 1, 2, 4, 7, 10, 13, 16, 18, 21],  # Q-2, 10+ rats lose 21
    "scroll_a": {"buildings": [0, 1, 2, 3, 4, 5], "boats": [0, 2, 3, 4, 5, 6], "repopulated": [0, 2, 3, 4, 6, 8]},
    "scroll_b1": {"workshops": [0, 1, 2, 3, 4, 5], "coins": [0.5, 1, 1, 2, 2, 3],
                  "register-city": [[0, 0], [1, 3], [2, 4], [3, 6], [4, 7], [5, 9]]},
    "scroll_b2": {"goods": [0, 1, 2, 3, 4, 5],
                  "overseers": [[0, 0, 0], [1, 2, 3], [2, 3, 5], [2, 4, 6], [3, 5, 8], [4, 6, 10]],
                  "lumber": [0, 1, 1, 2, 3, 4]},
    "scroll_b3": {"improvements": [0, 2, 3, 4, 5, 6],
                  "register-church": [[0, 0], [2, 3], [2, 5], [3, 6], [4, 8], [5, 10]], "coins": [0.5, 1, 2, 2, 3, 3]},
    "scroll_b4": {"register-popularity": [[0, 0], [1, 2], [2, 4], [3, 5], [4, 7], [5, 8]], "goods": [1, 2, 3, 4, 5, 6],
                  "overseers": [[0, 0, 0], [1, 1, 2], [1, 2, 4], [2, 3, 5], [2, 4, 7], [3, 5, 9]]},
    "hex_vp": {"n01": 4, "n02": 2, "n03": 4, "n04": 3, "n06": 5, "n07": 6, "n09": 3, "n14": 8, "n16": 3,
               "n19": 8},
}


def seat(name, colour, **fields):
    return {"name": name, "colour": colour, **fields}


# --- 1. 2 players: a popularity tie broken by fire, a major fire counting 2 (R-SCORE-2) ----------------------
TWO_FIRE_TIE = {
    "position": {"players": 2, "advanced": False, "seats": [
        seat("Ada", "red", track=30, laps=1, rats=3, popularity=8, city=6, church=4, fire=1, major_fire=1,
             coins={"1": 1, "5": 1}, lumber=2, scroll={"buildings": 2, "boats": 1, "repopulated": 0},
             improvements=2, workshops=3, boats={"spices": 1, "silk": 1}, repopulated=["n07"]),
        seat("Bruno", "yellow", track=42, laps=1, popularity=5, city=2, church=9, fire=2, coins={"3": 1},
             scroll={"buildings": 1, "boats": 0, "repopulated": 3}, improvements=1, workshops=4,
             boats={"silk": 2}, repopulated=["n03", "n16"])]},
    "lines": [
        {"game": 80,                    # 30 on the track + one lap of 50 (R-SCORE-7)
         "rats": -2,                    # 3 rats lose 2 (R-END-2, Q-2)
         "register-popularity": 3,      # 8 − 3 rats = space 5: 3 VP (R-END-2 then R-SCORE-1)
         "register-city": 3,            # space 6: 3
         "register-church": 2,          # space 4: 2
         "repopulated": 6,              # n07 prints 6 (R-SCORE-3)
         "scroll-buildings": 10,        # 2 improvements + 3 workshops = 5 buildings × 2 (R-SCORE-4)
         "scroll-boats": 4,             # 2 boats × 2
         "scroll-repopulated": 0,       # level 0 is worth 0
         "tokens": 3,                   # coins 1 + 5 = 6, fire 1, major fire 1, lumber 2: 10 ÷ 3 = 3 (R-SCORE-5)
         "popularity-bonus": 5},        # tied on 5 with Bruno; fire 1 + major fire 2 = 3 beats 2: first (R-SCORE-2)
        {"game": 92, "rats": 0,
         "register-popularity": 3,      # space 5: 3
         "register-city": 1,            # space 2: 1
         "register-church": 6,          # space 9: 6
         "repopulated": 7,              # n03 4 + n16 3
         "scroll-buildings": 5,         # 1 improvement + 4 workshops = 5 × 1
         "scroll-boats": 0,             # 2 boats × 0
         "scroll-repopulated": 8,       # 2 tiles × 4 (level 3)
         "tokens": 1,                   # coin 3 + fire 2 = 5 ÷ 3 = 1
         "popularity-bonus": 0}],       # second: a 2-player game pays first place only
    "totals": [114, 123], "winners": ["Bruno"], "tiebreak": None,
}

# --- 2. 3 players: a rat penalty stopping at the start space (R-END-2) --------------------------------------
THREE_RATS = {
    "position": {"players": 3, "advanced": False, "seats": [
        seat("Ada", "red", track=12, laps=1, rats=5, popularity=2, city=7, church=3, lumber=4,
             scroll={"buildings": 3, "boats": 2, "repopulated": 1}, improvements=1, workshops=2,
             boats={"stones": 2}, repopulated=["n07"]),
        seat("Bruno", "yellow", track=48, rats=1, popularity=6, city=10, church=12, fire=3, major_fire=1,
             coins={"5": 2}, scroll={"buildings": 0, "boats": 5, "repopulated": 0}, workshops=1,
             boats={"spices": 1}),
        seat("Chiara", "blue", track=20, laps=1, rats=8, popularity=12, city=1, church=5, coins={"3": 1},
             scroll={"buildings": 5, "boats": 0, "repopulated": 2}, improvements=4, workshops=4,
             repopulated=["n01", "n09"])]},
    "lines": [
        {"game": 62, "rats": -7,        # 5 rats lose 7
         "register-popularity": 0,      # 2 − 5 rats stops at the start space (0), which scores 0
         "register-city": 3, "register-church": 1,  # spaces 7 and 3 of the 3-4p side
         "repopulated": 6,              # n07
         "scroll-buildings": 9,         # 3 buildings × 3
         "scroll-boats": 6,             # 2 boats × 3
         "scroll-repopulated": 2,       # 1 tile × 2
         "tokens": 1,                   # 4 lumber ÷ 3
         "popularity-bonus": 3},        # last, at 0: third place 3
        {"game": 48, "rats": 0,         # 1 rat loses nothing
         "register-popularity": 2,      # 6 − 1 = 5: 2
         "register-city": 6, "register-church": 8,  # spaces 10 and 12
         "repopulated": 0, "scroll-buildings": 0,  # level 0
         "scroll-boats": 6,             # 1 boat × 6
         "scroll-repopulated": 0,
         "tokens": 4,                   # coins 10 + fire 3 + major fire 1 = 14 ÷ 3
         "popularity-bonus": 10},       # 5 is first
        {"game": 70, "rats": -16,       # 8 rats lose 16
         "register-popularity": 2,      # 12 − 8 = 4: 2
         "register-city": 0, "register-church": 2,
         "repopulated": 7,              # n01 4 + n09 3
         "scroll-buildings": 30,        # 4 + 4 = 8 buildings, at most 6 count: 6 × 5
         "scroll-boats": 0, "scroll-repopulated": 6,  # 2 tiles × 3
         "tokens": 1,                   # coin 3 ÷ 3
         "popularity-bonus": 7}],       # 4 is second
    "totals": [86, 84, 109], "winners": ["Chiara"], "tiebreak": None,
}

# --- 3. 4 players, advanced: the repopulation majority tied and split evenly (R-ADV-3, Q-13) ----------------
FOUR_ADVANCED = {
    "position": {"players": 4, "advanced": True, "seats": [
        seat("Ada", "red", track=10, laps=1, rats=2, popularity=9, city=12, church=6, fire=1,
             coins={"1": 3, "5": 1}, lumber=1, scroll_board="b1",
             scroll={"workshops": 2, "coins": 3, "register-city": 4}, workshops=6, repopulated=["n07", "n02"]),
        seat("Bruno", "yellow", track=5, laps=1, popularity=11, city=4, church=8, major_fire=2, lumber=7,
             scroll_board="b2", scroll={"goods": 3, "overseers": 4, "lumber": 5}, boats={"silk": 2, "spices": 1},
             overseers={"aristocrat": 6, "nun": 5, "craftsman": 4}, repopulated=["n01", "n03"]),
        seat("Chiara", "blue", track=0, laps=1, rats=4, popularity=10, city=3, church=14, fire=2, major_fire=1,
             coins={"3": 1}, scroll_board="b3", scroll={"improvements": 2, "register-church": 5, "coins": 0},
             improvements=4, repopulated=["n04"]),
        seat("Dario", "green", track=40, rats=12, popularity=14, scroll_board="b4",
             scroll={"register-popularity": 1, "goods": 0, "overseers": 2}, boats={"stones": 1},
             overseers={"aristocrat": 4, "nun": 4})]},
    "lines": [
        {"game": 60, "rats": -1,        # 2 rats lose 1
         "register-popularity": 3,      # 9 − 2 = 7: 3
         "register-city": 8, "register-church": 3,  # spaces 12 and 6
         "repopulated": 8,              # n07 6 + n02 2
         "scroll-workshops": 10,        # 6 workshops, at most 5 count: 5 × 2 (R-ADV-4)
         "scroll-coins": 16,            # 3 × 1 + 5 = 8 coins' worth × 2 (Q-21)
         "scroll-register-city": 4,     # space 12: past the single bar (11), not the double (13): lesser 4 (R-ADV-5)
         "tokens": 3,                   # 8 + 1 + 1 = 10 ÷ 3
         "popularity-bonus": 7,         # 7 is second
         "repop-bonus": 8},             # 2 hexes worth 8, like Bruno: places 1 and 2 split, (10 + 7) ÷ 2 = 8
        {"game": 55, "rats": 0,
         "register-popularity": 7,      # space 11
         "register-city": 2, "register-church": 4,  # spaces 4 and 8
         "repopulated": 8,              # n01 4 + n03 4
         "scroll-goods": 6,             # most common cargo: 2 silk × 3
         "scroll-overseers": 13,        # the 2 farthest: centre 8 + second hexagonal space 5 (R-ADV-6)
         "scroll-lumber": 24,           # 7 lumber, at most 6 count: 6 × 4
         "tokens": 3,                   # major fire 2 + lumber 7 = 9 ÷ 3
         "popularity-bonus": 10,        # 11 is first
         "repop-bonus": 8},             # the even split
        {"game": 50, "rats": -4,        # 4 rats lose 4
         "register-popularity": 3,      # 10 − 4 = 6: 3
         "register-city": 1, "register-church": 12,  # spaces 3 and 14
         "repopulated": 3,              # n04
         "scroll-improvements": 12,     # 4 improvements × 3
         "scroll-register-church": 10,  # space 14: past the double bar (13): greater 10
         "scroll-coins": 1,             # level 0 prints ½: 3 × ½ = 1½, rounded down
         "tokens": 2,                   # coin 3 + fire 2 + major fire 1 = 6 ÷ 3
         "popularity-bonus": 3,         # 6 is third
         "repop-bonus": 3},             # 1 hex: third place
        {"game": 40, "rats": -21,       # 12 rats: the maximum loss, 21
         "register-popularity": 1,      # 14 − 12 = 2: 1
         "register-city": 0, "register-church": 0, "repopulated": 0,
         "scroll-register-popularity": 0,  # 2 is not past the single bar
         "scroll-goods": 1,             # 1 stones boat × 1 (level 0 prints 1)
         "scroll-overseers": 2,         # two overseers on the first hexagonal space: 1 + 1
         "tokens": 0, "popularity-bonus": 0,
         "repop-bonus": 0}],            # no hex: at least 1 is needed
    "totals": [129, 140, 96, 23], "winners": ["Bruno"], "tiebreak": None,
}

# --- 4. solo: popularity against the opponent and the repopulation count bonus (R-SOLO-8, R-SOLO-9) ---------
SOLO = {
    "position": {"players": 1, "advanced": False, "opponent_popularity": 7, "seats": [
        seat("Ada", "red", track=25, laps=2, rats=2, popularity=9, city=11, church=13, fire=2, major_fire=1,
             coins={"1": 1, "5": 1}, lumber=3, scroll={"buildings": 4, "boats": 3, "repopulated": 2},
             improvements=3, workshops=2, boats={"spices": 1, "silk": 1}, repopulated=["n07", "n06", "n14"])]},
    "lines": [
        {"game": 125, "rats": -1,       # 25 + two laps; 2 rats lose 1
         "register-popularity": 4,      # 9 − 2 = 7 on the 2p side (R-SETUP-12): 4
         "register-city": 8, "register-church": 12,  # spaces 11 and 13
         "repopulated": 19,             # n07 6 + n06 5 + n14 8
         "scroll-buildings": 20,        # 5 buildings × 4
         "scroll-boats": 8,             # 2 boats × 4 (the R-SCORE-4 example's level)
         "scroll-repopulated": 9,       # 3 tiles × 3
         "tokens": 4,                   # 6 + 2 + 1 + 3 = 12 ÷ 3
         "popularity-bonus": 5,         # 7 equals the opponent's 7 (R-SOLO-8)
         "repop-bonus": 4}],            # 3 hexes: 4 (R-SOLO-9)
    "totals": [217], "winners": ["Ada"], "tiebreak": None, "target": 130,
}

# --- 5. ties on total broken by repopulated hexes, then by the best single hex (R-SCORE-6) -------------------
MORE_HEXES = {
    "position": {"players": 2, "advanced": False, "seats": [
        seat("Ada", "red", track=40, repopulated=["n02", "n04"]),
        seat("Bruno", "yellow", track=39, repopulated=["n07"])]},
    "lines": [
        {"game": 40, "rats": 0, "register-popularity": 0, "register-city": 0, "register-church": 0,
         "repopulated": 5,              # n02 2 + n04 3
         "scroll-buildings": 0, "scroll-boats": 0, "scroll-repopulated": 0, "tokens": 0,
         "popularity-bonus": 2},        # both on 0 with no fire: places 1 and 2 split, (5 + 0) ÷ 2 = 2
        {"game": 39, "rats": 0, "register-popularity": 0, "register-city": 0, "register-church": 0,
         "repopulated": 6,              # n07
         "scroll-buildings": 0, "scroll-boats": 0, "scroll-repopulated": 0, "tokens": 0,
         "popularity-bonus": 2}],
    "totals": [47, 47], "winners": ["Ada"],  # 2 repopulated hexes beat 1
    "tiebreak": "tied on total: most repopulated hexes wins (R-SCORE-6)",
}
BEST_HEX = {
    "position": {"players": 2, "advanced": False, "seats": [
        seat("Ada", "red", track=30, repopulated=["n02", "n19"]),
        seat("Bruno", "yellow", track=30, repopulated=["n07", "n01"])]},
    "lines": [
        {"game": 30, "rats": 0, "register-popularity": 0, "register-city": 0, "register-church": 0,
         "repopulated": 10,             # n02 2 + n19 8
         "scroll-buildings": 0, "scroll-boats": 0, "scroll-repopulated": 0, "tokens": 0, "popularity-bonus": 2},
        {"game": 30, "rats": 0, "register-popularity": 0, "register-city": 0, "register-church": 0,
         "repopulated": 10,             # n07 6 + n01 4
         "scroll-buildings": 0, "scroll-boats": 0, "scroll-repopulated": 0, "tokens": 0, "popularity-bonus": 2}],
    "totals": [42, 42], "winners": ["Ada"],  # 2 hexes each; Ada's best hex (8) beats Bruno's (6)
    "tiebreak": "tied on total and repopulated hexes: the most valuable repopulated hex wins (R-SCORE-6)",
}

SHEETS = {"2p popularity tie broken by fire (R-SCORE-2)": TWO_FIRE_TIE,
          "3p rat penalty stops at the start space (R-END-2)": THREE_RATS,
          "4p advanced majority tie split evenly (R-ADV-3, Q-13)": FOUR_ADVANCED,
          "solo (R-SOLO-8, R-SOLO-9)": SOLO,
          "tie broken by repopulated hexes (R-SCORE-6)": MORE_HEXES,
          "tie broken by the best single hex (R-SCORE-6)": BEST_HEX}
