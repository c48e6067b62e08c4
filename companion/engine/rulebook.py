"""The numbers the rulebook states in its text, each named once with the rule that says it.

Numbers printed on a component (register spaces, round rows, path steps, squares, costs) come from the
catalog instead, so a table's correction file can fix them; these cannot be corrected, they are the rules.
"""

ROUNDS = 6  # R-ROUND-1: rounds I–VI; the game ends after round VI's production (R-END-1)
LATE_ERA_ROUND = 5  # R-NEXT-8: round V's setup swaps the early workshops for the late stacks

LIEUTENANTS = 5  # R-COMP-3: per player
ESTATE_LIEUTENANTS = 3  # R-SETUP-15: on the estate at the start; the rest wait in the supply (R-REG-4)
REPOPULATION_TILES = 5  # R-COMP-3: per player

PLAGUE_CUBES = 24  # R-COMP-1: in the box
CUBES = {1: 16, 2: 16, 3: 18, 4: 24}  # R-SETUP-5: plague cubes in play, by player count
START_VP = (0, 1, 0, 1)  # R-SETUP-19: by play-order position
START_COINS = (0, 0, 1, 1)  # R-SETUP-19

REPOPULATOR_VP = 2  # R-TURN-MOVE-6: when anyone chooses a repopulated hex
TWO_FIRE_VP = 2  # R-TURN-FIRE-2: per cube removed in a round whose fire cost is 2
SCORE_LAP = 50  # R-SCORE-7: the scoring track's 50 space marks a lap (M-8)

POPULARITY_BONUS = {2: (5,), 3: (10, 7, 3), 4: (10, 7, 3)}  # R-SCORE-2: by place
REPOP_BONUS = {2: (7, 0), 3: (10, 7, 3), 4: (10, 7, 3)}  # R-ADV-3: by place, at least 1 hex needed

SOLO_LIEUTENANTS = (3, 3, 3, 4, 4, 5)  # R-SOLO-3: the opponent's lieutenants in rounds I…VI
SOLO_POPULARITY_BONUS = 5  # R-SOLO-8: if your popularity (after rats) equals or beats the opponent's
SOLO_REPOP_BONUS = (0, 0, 3, 4, 10)  # R-SOLO-9, Q-19: by repopulated hexes, 0…4; more count as 4
SOLO_TARGET = {False: 130, True: 140}  # R-SOLO-10: a good solo score, a or b boards
