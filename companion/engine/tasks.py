"""Every task's name, as a saved game keeps it in its queues (`{"do": <name>, ...}`).

A name is written once here and nowhere else, so a typo is an import error instead of a game stuck on
an unknown step; and since saved games hold these strings, a value here is never changed. Each module
registers its own handlers (`@task(do.GAIN)`); tests/architecture/test_engine_structure.py checks that every name
has exactly one.
"""

# a new game (setup.py) and the steps every round's setup shares (round_setup.py)
SETUP_PLAYERS = "setup_players"
DRAW_BOARDS = "draw_boards"
SETUP_FIGURES = "setup_figures"
SETUP_CITY = "setup_city"
SETUP_STACKS = "setup_stacks"
SETUP_WHEEL = "setup_wheel"
SETUP_ORDER = "setup_order"
REVEAL_FACE_UP = "reveal_face_up"
REVEAL_WAGON = "reveal_wagon"
BOAT_ARRIVES = "boat_arrives"
WHEEL_STEP = "wheel_step"
CITIZENS_STEP = "citizens_step"
BEGIN_ROUND = "begin_round"

# a turn (turns.py, plague.py, docks.py, repopulate.py)
NEXT_TURN = "next_turn"
TURN = "turn"
SEND = "send"
RESCUE = "rescue"
RESCUE_ONE = "rescue_one"
FIGHT = "fight"
ADJACENT_CUBE = "adjacent_cube"
BOAT_CUBE = "boat_cube"
TAKE_BOAT = "take_boat"
ACTION_STEP = "action_step"
END_TURN = "end_turn"
REPOPULATE = "repopulate"
GIVE_CITIZEN = "give_citizen"
GIVE_LIEUTENANT = "give_lieutenant"
PLACE_REPOP = "place_repop"

# rewards (gain.py, registers.py, estate.py, build.py)
GAIN = "gain"
GAIN_ITEM = "gain_item"
SCROLL = "scroll"
REGISTER = "register"
UPGRADE_CITIZEN = "upgrade_citizen"
TAKE_LIEUTENANT = "take_lieutenant"
ANY_HEX = "any_hex"
ADVANCE_OVERSEER = "advance_overseer"
ACTIVATE = "activate"
UPGRADE_OVERSEER = "upgrade_overseer"
BUILD = "build"
PLACE_IMPROVEMENT = "place_improvement"

# the solo opponent (solo.py)
SOLO_DECK = "solo_deck"
OPPONENT_TURN = "opponent_turn"
OPPONENT_DONE = "opponent_done"
OPPONENT_ACTION = "opponent_action"

# the end of a round and the next round's setup (upkeep.py)
END_ROUND = "end_round"
PRODUCE = "produce"
RESOLVE_HELD = "resolve_held"
HELD_ITEM = "held_item"
QUARANTINE = "quarantine"
LEAVE_QUARANTINE = "leave_quarantine"
AFTER_ROUND = "after_round"
NEXT_ROUND = "next_round"
LAY_DOWN = "lay_down"
CLEAR_PLAGUED = "clear_plagued"
PLAY_ORDER = "play_order"
NEW_HEX = "new_hex"
LATE_WORKSHOPS = "late_workshops"
QUIET_ROUND = "quiet_round"
WAGONS_UP = "wagons_up"
