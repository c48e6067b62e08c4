"""The solo game against the virtual opponent (R-SOLO-1…10, Q-18, Q-19)."""

import json

import pytest

from companion.words import faces_in

from companion.catalog import shipped_catalog
from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.engine.city import distances_from
from companion.engine.flow import push, run
from companion.engine.invariants import broken
from companion.engine.scoring import score
from companion.simulate import play_game

from scenario import pick
from tables import run_command


def first(state, who):
    opt = next(o for o in legal_actions(state, who) if o["available"])
    apply(state, opt["action"])


def table_game(seed=3):
    """A solo game in table-draw mode, set up with the first candidate of every reveal."""
    s = new_game(options_for(1, draw="table"), seed, shipped_catalog())
    while pending(s) and pending(s)[0]["who"] == "host":
        first(s, "host")
    return s


def recall(state):
    """The player's quickest turn: recall a lieutenant (R-TURN-RECALL-1)."""
    pick(state, 0, {"go": "recall"})


def revealable(state, action: str = "", neighbourhood: bool = True):
    """After the player's quickest turn, a solo tile the host may reveal now whose hex is in play (a
    neighbourhood, unless `neighbourhood` is False) and whose action starts with `action`."""
    recall(state)
    options = [o["value"] for o in legal_actions(state, "host")]
    return next(t for t in state.catalog.solo_tiles.values() if t.id in options and t.hex in state.hexes
                and (t.hex in state.catalog.hexes or not neighbourhood) and t.action.startswith(action))


def solo_tile_for(state, hex_id):
    return next(t.id for t in state.catalog.solo_tiles.values() if t.hex == hex_id)


def test_R_SOLO_2_opponent_set_up_without_city_and_church_counters():
    s = new_game(options_for(1), 1, shipped_catalog())
    assert s.opponent is not None and s.opponent.colour != s.seats[0].colour
    assert s.opponent.popularity == 0 and not hasattr(s.opponent, "registers")
    assert s.side == "2p" and s.supply_cubes + sum(h.cubes for h in s.hexes.values()) + 1 == 16  # R-SETUP-20
    assert s.seats[0].vp == 0 and s.seats[0].coins == 0  # no compensation


def test_R_SOLO_4_you_start_round_one_then_turns_alternate():
    s = table_game()
    assert pending(s)[0]["who"] == 0  # you go first in round I
    recall(s)
    q = pending(s)[0]
    assert q["who"] == "host" and q["kind"] == "reveal" and q["rule"] == "R-SOLO-5"


def test_R_SOLO_5_reveal_until_an_available_hex_and_ignore_the_rest():
    s = table_game()
    recall(s)
    absent = next(t.id for t in s.catalog.solo_tiles.values() if t.hex not in s.hexes)
    pick(s, "host", absent)
    assert any("is not in play" in e["text"] and e.get("rule") == "R-SOLO-5" for e in s.log)
    options = [o["value"] for o in legal_actions(s, "host")]
    assert absent not in options  # ignored for the rest of the round
    present = next(t.id for t in s.catalog.solo_tiles.values() if t.hex in s.hexes and t.id in options)
    pick(s, "host", present)
    assert s.catalog.solo_tiles[present].hex in s.opponent.placed


def test_R_SOLO_5_a_hex_with_a_standing_figure_is_not_available():
    s = table_game()
    tile = next(t for t in s.catalog.solo_tiles.values() if t.hex in s.hexes and t.hex in s.catalog.hexes)
    pick(s, 0, {"go": "hex", "tile": tile.hex})
    while pending(s)[0]["who"] == 0:
        opts = legal_actions(s, 0)
        end = next((o for o in opts if o["value"] == {"act": "end"}), None)
        apply(s, (end or next(o for o in opts if o["available"]))["action"])
    pick(s, "host", tile.id)
    assert tile.hex not in s.opponent.placed
    assert any("has a standing figure" in e["text"] for e in s.log)
    # and the player's menu greys a hex where the opponent stands (R-TURN-MOVE-4)
    other = next(t for t in s.catalog.solo_tiles.values()
                 if t.hex in s.hexes and t.hex != tile.hex and t.id in [o["value"] for o in legal_actions(s, "host")])
    pick(s, "host", other.id)
    while pending(s)[0]["who"] == "host":
        first(s, "host")
    hexes = {o["value"].get("tile"): o for o in legal_actions(s, 0) if o["value"].get("go") == "hex"}
    assert not hexes[other.hex]["available"] and hexes[other.hex]["rule"] == "R-TURN-MOVE-4"


def test_R_SOLO_6_citizens_removed_one_cube_removed_popularity_up_no_rats():
    s = table_game()
    tile = revealable(s)
    h = s.hexes[tile.hex]
    h.cubes, h.citizens = 2, [s.new_citizen("nun")]
    s.supply_cubes -= 2
    pick(s, "host", tile.id)
    assert h.citizens == [] and h.cubes == 1 and s.opponent.popularity == 1


def test_Q_18_opponent_on_your_repopulated_hex_gives_you_2_vp():
    s = table_game()
    tile = revealable(s)
    s.hexes[tile.hex].repopulated_by = 0
    vp = s.seats[0].vp
    pick(s, "host", tile.id)
    assert s.seats[0].vp == vp + 2


def test_R_SOLO_7_workshop_of_its_class_leaves_the_game_and_the_next_turns_up():
    s = table_game()
    tile = revealable(s, "workshop-", neighbourhood=False)
    cls = tile.action.split("-")[1]
    up = s.workshops[cls].up
    pick(s, "host", tile.id)
    while pending(s)[0]["who"] == "host":
        first(s, "host")  # the next workshop turns up (a reveal in table mode)
    assert s.workshops[cls].up != up and up not in s.pools[s.workshops[cls].pool]
    assert any(e.get("rule") == "R-SOLO-7" and f"workshop:{up}" in faces_in(e.get("args")) for e in s.log)


def test_R_SOLO_7_improvements_all_taken_and_wagon_taken():
    s = new_game(options_for(1), 2, shipped_catalog())

    before = [st.up for st in s.improvements]
    wagon = s.wagon_stacks[0].up
    hexes = [t for t in s.hexes if t in s.catalog.hexes]
    s.lanes = {"main": []}
    push(s, "main", {"do": "opponent_action", "action": "improvements", "hex": hexes[0]},
         {"do": "opponent_action", "action": "wagon", "hex": hexes[0]})
    run(s)
    assert all(st.up not in before for st in s.improvements)
    assert s.wagon_stacks[0].up != wagon


def test_R_SOLO_7_boat_from_the_nearest_dock_cube_back_to_supply():
    s = new_game(options_for(1), 2, shipped_catalog())

    hexes = [t for t in s.hexes if t in s.catalog.hexes]
    dock = next(d for d, b in s.docks.items() if b)
    boat = s.docks[dock][0]
    supply = s.supply_cubes
    target = min(hexes, key=lambda t: distances_from(s, f"hex:{t}").get(f"dock:{dock}", 99))
    s.lanes = {"main": []}
    push(s, "main", {"do": "opponent_action", "action": "boat", "hex": target})
    run(s)
    assert boat.tile not in [b.tile for boats in s.docks.values() for b in boats]
    assert s.supply_cubes == supply + (1 if boat.cube else 0)
    assert boat.tile not in s.seats[0].boats  # the opponent's take leaves the game


def test_R_SOLO_3_opponent_lieutenants_per_round_and_R_SOLO_4_first_player_by_round():
    played = play_game(1, 11)
    s = played.state
    counts = {}
    for e in s.log:
        if e.get("rule") == "R-SOLO-6" and "tile" in (e.get("data") or {}):  # the step standing its lieutenant
            counts[e["round"]] = counts.get(e["round"], 0) + 1
    expected = {r: s.opponent.lieutenants(r) for r in range(1, 7)}
    assert all(counts.get(r, 0) <= expected[r] for r in expected)
    assert counts.get(1, 0) == 3 and counts.get(6, 0) in (4, 5)  # skips only when no hex is left


def test_R_SOLO_8_9_scoring_lines_in_a_finished_solo_game():
    s = play_game(1, 5).state
    keys = [ln["key"] for ln in s.scoring["seats"][0]["lines"]]
    assert "popularity-bonus" in keys and "repop-bonus" in keys
    line = next(ln for ln in s.scoring["seats"][0]["lines"] if ln["key"] == "popularity-bonus")
    assert line["rule"] == "R-SOLO-8"
    assert line["points"] == (5 if s.scoring["seats"][0]["popularity_after_rats"] >= s.opponent.popularity else 0)


@pytest.mark.slow
def test_R_SOLO_1_solo_simulations_with_a_or_b_boards_exit_zero():
    for extra in ([], ["--advanced"]):
        r = run_command("simulate", "--players", "1", "--seed", "1", "--games", "5", "--json", *extra)
        assert r.exit_code == 0, r.stderr
        games = [json.loads(line) for line in r.stdout.splitlines()]
        assert len(games) == 5 and all(g["rounds"] == 6 for g in games)


def test_R_SOLO_6_Q_17_opponent_popularity_stops_at_the_last_space():
    """R-SOLO-6 moves the opponent up popularity for the cube it removes, but never past the last space
    (Q-17): a player on the last space still equals it and scores the R-SOLO-8 bonus."""
    s = table_game()
    last = s.catalog.register("popularity", 1).last
    s.opponent.popularity = last
    tile = revealable(s)
    h = s.hexes[tile.hex]
    h.cubes = 2
    s.supply_cubes -= 2
    pick(s, "host", tile.id)
    assert h.cubes == 1, "R-SOLO-6: the opponent still removes one cube"
    assert s.opponent.popularity == last, "Q-17: no advance past the register's last space"
    s.seats[0].registers["popularity"], s.seats[0].rats = last, 0

    bonus = next(ln for ln in score(s)["seats"][0]["lines"] if ln["key"] == "popularity-bonus")
    assert bonus["points"] == 5, "R-SOLO-8: a player on the last space equals the opponent"


def test_Q_17_invariants_catch_a_counter_past_its_track_end():
    """The simulation's invariants (every game, not only solo) refuse any counter past its track's end
    (Q-17): the opponent's popularity, a seat's registers and scroll cubes."""
    s = new_game(options_for(1), 4, shipped_catalog())
    assert broken(s) is None
    last = s.catalog.register("popularity", 1).last
    s.opponent.popularity = last + 1
    assert "opponent" in (broken(s) or ""), "Q-17: the opponent's counter past the last space is caught"
    s.opponent.popularity = last
    s.seats[0].registers["church"] = s.catalog.register("church", 1).last + 1
    assert "church" in (broken(s) or ""), "Q-17: a register counter past the last space is caught"
    s.seats[0].registers["church"] = 0
    track = s.catalog.scroll_boards[s.seats[0].scroll_board].tracks[0]
    s.seats[0].scroll[track.id] = track.top + 1
    assert track.id in (broken(s) or ""), "Q-17: a scroll cube past the top level is caught"


def _play_to_round_two(s):
    """Round I with recalls and the first tile of every reveal; stops when round II's first question
    waits. Returns the hexes the opponent's lieutenants stood on at the end of round I."""
    placed = []
    while not (s.round == 2 and s.phase == "play"):
        if s.phase == "play":
            placed = list(s.opponent.placed)
        q = pending(s)[0]
        if q["who"] == 0 and q["kind"] == "turn":
            recall(s)
        else:
            first(s, q["who"])
    return placed


def test_R_SOLO_4_Q_18_solo_upkeep_play_order_names_who_really_goes_first():
    """R-SOLO-4: the opponent goes first in round II. The upkeep report says so (not "Play order: Ada")
    and the first question of round II is indeed the opponent's reveal (R-SOLO-5)."""
    s = table_game()
    _play_to_round_two(s)
    order = [e for e in s.report if e.get("rule") == "R-SOLO-4"]
    assert len(order) == 1 and order[0]["text"].index("the opponent") < order[0]["text"].index("Ada"), \
        f"R-SOLO-4: round II starts with the opponent, report says {[e['text'] for e in order]}"
    begins = s.report[-1]
    assert begins["rule"] == "R-NEXT-14" and "Play order: the opponent, Ada" in begins["text"], begins["text"]
    q = pending(s)[0]
    assert (q["who"], q["kind"], q["rule"]) == ("host", "reveal", "R-SOLO-5"), "R-SOLO-4: the opponent moves first"
    assert not any(e.get("rule") in ("R-NEXT-4", "R-PRIO-1") for e in s.report), \
        "R-SOLO-4: solo play order is fixed by the round, not read from a register"


def test_R_SOLO_3_D_29_Q_18_solo_upkeep_sends_the_opponents_figures_home_and_reshuffles_its_deck():
    """R-SOLO-3 / D-29: the opponent's lieutenants go back to its board at the round's end; only the
    player's figures are laid down (R-NEXT-2). Q-18: all 14 solo tiles are reshuffled. Each report line
    is what the engine did."""
    s = table_game()
    placed = _play_to_round_two(s)
    assert placed, "the opponent stood somewhere in round I"
    home = [e for e in s.report if e.get("rule") == "R-SOLO-3"]
    assert len(home) == 1 and home[0]["data"]["hexes"] == placed, \
        f"R-SOLO-3: the report names the hexes the opponent left, got {home}"
    assert s.opponent.placed == [], "R-SOLO-3: no opponent figure stands in the city at round II's start"
    lay = [e for e in s.report if e.get("rule") == "R-NEXT-2"]
    assert lay and all("every lieutenant" not in e["text"] for e in lay), \
        f"R-NEXT-2: in solo only the player's figures lie down, got {[e['text'] for e in lay]}"
    deck = [e for e in s.report if e.get("rule") == "Q-18" and "solo tiles" in e["text"]]
    assert len(deck) == 1 and deck[0]["data"]["deck"] == len(s.catalog.solo_tiles), \
        "Q-18: the report tells the table to reshuffle all 14 solo tiles"
    assert s.opponent.deck.hidden == len(s.catalog.solo_tiles) and s.opponent.aside == [], \
        "Q-18: the deck really holds all 14 tiles again"


def test_Q_17_R_SOLO_6_a_whole_solo_game_keeps_the_opponent_on_its_track():
    """Q-17 / R-SOLO-6: seeded solo game 6 brings the opponent to the last popularity space with cubes
    still to remove; it stays there, and every invariant (no counter past its track's end) holds after
    every decision."""
    s = play_game(1, 6).state
    last = s.catalog.register("popularity", 1).last
    assert s.opponent.popularity == last, "Q-17: this seed reaches the last space"
    assert any("stays on the last popularity space" in e["text"] for e in s.log), \
        "R-SOLO-6: a cube was removed on the last space without moving the counter"
