"""What a choice says before it is tapped (issue 33 items 6 and 9): "End your turn" names the earned actions
that would lapse (R-TURN-ACT-2), a rescued citizen's square shows its face (R-TURN-RESCUE-2), and a scroll
advance says in numbers what the next level is worth (R-ACT-5, R-SCORE-4, R-ADV-4…6). The words come from
the engine; the option values a saved game replays by stay as they were."""

from __future__ import annotations

import json
import re

from companion.engine import legal_actions, new_game, options_for, state_from_dict
from companion.engine.scoring import score
from companion.pictures.faces import face, record_ids
from companion.words import tr

from scenario import (CATALOG, cubes, end, find, give, go_hex, grant, kind, pick, rescuing, scenario, set_registers,
                      set_scroll, turn_for, values)

A = 0


def _two_rights(s):
    """Seat A's action step with two popularity actions earned and unused (the test of R-TURN-ACT-2)."""
    s.seats[A].registers["popularity"] = 1
    cubes(s, "n03", 2)  # popularity 1 -> 3: two earned actions
    give(s, A, fire=2, coins=0)
    turn_for(s, A)
    go_hex(s, A, "n03")
    pick(s, A, {"fire": 1, "major": 0})
    pick(s, A, {"fire": 1, "major": 0})
    assert kind(s) == "action_step" and len(s.rights) == 2
    return s


def test_R_TURN_ACT_2_end_your_turn_names_each_earned_action_that_would_lapse():
    s = _two_rights(scenario())
    opt = find(s, A, {"act": "end"})
    assert opt["value"] == {"act": "end"} and opt["label"] == "End your turn"  # what a saved game replays by
    reg = s.catalog.register("popularity", s.players)
    assert opt["lapses"].startswith("2 earned actions lapse unused: ")
    for space in (2, 3):
        assert reg.spaces[space].reward.text() in opt["lapses"], space
        assert f"popularity register space {space}" in opt["lapses"]
    # the words are kept as a template with its values, so every screen says them in its own language
    assert opt["lapses_msg"] == "{n} earned action lapses unused: {rights}" and opt["lapses_args"]["n"] == 2
    assert tr(opt, "lapses") == opt["lapses"]


def test_R_TURN_ACT_2_using_an_earned_action_leaves_only_the_other_to_lapse_and_then_none():
    s = _two_rights(scenario())
    first, second = (r["reward"] for r in s.rights)
    pick(s, A, {"act": "right", "index": 1, "reward": second})
    while kind(s) != "action_step":  # whatever the reward asks on the way
        pick(s, A, values(s, A)[0])
    lapses = find(s, A, {"act": "end"})["lapses"]
    assert lapses.startswith("1 earned action lapses unused: ")
    pick(s, A, {"act": "right", "index": 0, "reward": first})
    while kind(s) != "action_step":
        pick(s, A, values(s, A)[0])
    assert "lapses" not in find(s, A, {"act": "end"})  # nothing left to lapse: ending asks nothing


def test_R_TURN_ACT_2_a_turn_without_earned_actions_ends_without_a_word_of_lapsing():
    s = scenario()
    turn_for(s, A)
    go_hex(s, A, "n03")
    assert kind(s) == "action_step" and not s.rights
    assert "lapses" not in find(s, A, {"act": "end"})


def test_R_TURN_ACT_2_the_lapsing_words_survive_a_saved_game_and_ending_still_lapses_them():
    s = _two_rights(scenario())
    again = state_from_dict(json.loads(json.dumps(s.to_dict())), s.catalog)
    assert find(again, A, {"act": "end"})["lapses"] == find(s, A, {"act": "end"})["lapses"]
    n = len(again.log)
    end(again, A)
    assert again.rights == [] and any(e.get("rule") == "R-TURN-ACT-2" for e in again.log[n:])


def test_R_TURN_RESCUE_2_each_square_choice_shows_that_square_where_it_lies_on_the_board():
    s = rescuing(scenario(), A, "n03", "craftsman", filled="cr2")
    board = s.seats[A].board
    for opt in legal_actions(s, A):
        assert opt["face"] == {"family": "square", "id": f"{board}.{opt['value']}"}, opt["label"]
        drawn = str(face(s.catalog, "square", opt["face"]["id"]))
        marked = re.findall(r'class="board-square[^"]*\bmarked"[^>]*data-square="(\w+)"', drawn)
        assert marked == [opt["value"]]  # that square outlined, the rest of its sector faded
        assert 'data-square="cr2"' in drawn and "cr2" not in re.sub(r'data-[a-z]+="[^"]*"', "", drawn)
    assert sorted(o["value"] for o in legal_actions(s, A)) == sorted(
        q.id for q in s.catalog.boards[board].sector("craftsman") if q.id != "cr2")


def test_R_TURN_RESCUE_2_every_square_of_every_board_has_a_face():
    ids = record_ids(CATALOG, "square")
    assert len(ids) == sum(len(b.squares) for b in CATALOG.boards.values()) == 90
    for rid in ids:
        assert f'data-id="{rid}"' in str(face(CATALOG, "square", rid))


def _worth_after(s, seat, track) -> tuple[str, int]:
    """The scroll choice's words for `track`, and the track's points at the end once it is taken."""
    label = find(s, seat, track)["label"]
    pick(s, seat, track)
    line = next(ln for ln in score(s)["seats"][seat]["lines"] if ln["key"] == f"scroll-{track}")
    return label, line["points"]


def test_R_ACT_5_a_scroll_choice_says_what_the_next_level_is_worth_in_numbers():
    s = scenario()
    set_scroll(s, A, board="a", boats=2)
    s.seats[A].boats = ["boat-1", "boat-2", "boat-3"]
    boats = next(t for t in s.catalog.scroll_boards["a"].tracks if t.id == "boats")
    grant(s, A, "scroll")
    label, after = _worth_after(s, A, "boats")
    # R-SCORE-4: 3 boats × the level's value, before and after the advance, as the estate stands now
    was, now = boats.levels[2], boats.levels[3]
    assert label == (f"boats track: level 2 → 3 ({now} VP each instead of {was}; your 3 boats: "
                     f"{3 * was} → {3 * now} VP)")
    assert after == 3 * now


def test_R_ACT_5_Q_14_a_cap_and_a_half_are_said_as_printed():
    s = scenario(advanced=True)
    set_scroll(s, A, board="b1")
    give(s, A, coins=12)
    grant(s, A, "scroll")
    coins = next(t for t in s.catalog.scroll_boards["b1"].tracks if t.id == "coins")
    label = find(s, A, "coins")["label"]
    assert f"instead of ½, at most {coins.cap} counted" in label  # the start level's ½ per coin
    assert f"{coins.cap // 2} → {coins.cap * coins.levels[1]} VP" in label


def test_R_ADV_5_R_ADV_6_register_and_overseer_tracks_say_their_values_and_yours():
    s = scenario(advanced=True)
    set_scroll(s, A, board="b1")
    reg = s.catalog.register("city", s.players)
    set_registers(s, A, city=reg.double_bar)
    grant(s, A, "scroll")
    track = next(t for t in s.catalog.scroll_boards["b1"].tracks if t.id == "register-city")
    lesser, greater = track.levels[1]
    label, after = _worth_after(s, A, "register-city")
    assert f"{lesser} VP past the single bar, {greater} past the double bar; yours now: 0 → {greater} VP" in label
    assert after == greater
    set_scroll(s, A, board="b2")
    grant(s, A, "scroll")
    first, second, centre = next(t for t in s.catalog.scroll_boards["b2"].tracks if t.id == "overseers").levels[1]
    assert f"{first}/{second}/{centre} VP for an overseer on step 4/5/6" in find(s, A, "overseers")["label"]


def test_Q_17_a_track_at_its_top_is_greyed_without_a_worth():
    s = scenario()
    top = next(t for t in s.catalog.scroll_boards["a"].tracks if t.id == "boats").top
    set_scroll(s, A, board="a", boats=top)
    grant(s, A, "scroll")
    opt = find(s, A, "boats")
    assert not opt["available"] and opt["label"] == f"boats track: level {top} → {top + 1}"


def test_the_scroll_worth_is_the_same_game_after_game_whatever_the_words():
    """A saved game replays by values: the scroll choices' values are the track ids, as before."""
    s = new_game(options_for(2), 3, CATALOG)
    grant(s, 0, "scroll")
    assert sorted(values(s, 0)) == sorted(t.id for t in s.catalog.scroll_boards[s.seats[0].scroll_board].tracks)
