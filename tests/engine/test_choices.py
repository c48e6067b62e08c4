"""How a question is asked and how a tap answers it: `flow.choose` (with the forced-choice ruling C-10
in one place) and `engine.choose_action` / `Store.act`, which turn {who, decision, choice index} into the
logged, value-based action or refuse it with the reason and rule."""

from __future__ import annotations

import json

import pytest

from companion.engine import (GameMovedOn, IllegalAction, NotOnMenu, apply, choose_action, legal_actions,
                              options_for, pending)
from companion.engine.flow import ASKED, MAIN, choose, option, waiting
from companion.store import Stale, Store

from scenario import game, scenario, stand, turn_for

A = 0


def _ask(state, options, **kw):
    t = {"do": "scroll", "seat": A}
    return choose(state, MAIN, A, "test", "Which one?", options, t, "R-TEST", **kw), t


def test_C_10_a_question_with_one_open_answer_is_not_asked():
    s = scenario()
    before = s.stamp
    pick, _ = _ask(s, [option("a", "A"), option("b", "B", False, "greyed", "Q-17")])
    assert pick == "a" and waiting(s) == [] and s.stamp == before


def test_C_10_answers_that_come_to_the_same_are_one_answer():
    s = scenario()
    alike = {"x": "estate", "y": "estate", "z": "hex:n01"}
    pick, _ = _ask(s, [option("x", "X"), option("y", "Y")], alike=alike.get)
    assert pick == "x" and waiting(s) == []
    pick, t = _ask(s, [option("x", "X"), option("z", "Z")], alike=alike.get)
    assert pick is ASKED and [d["id"] for _, d in waiting(s)] == [s.stamp]


def test_a_question_with_several_answers_waits_and_resumes_with_the_pick():
    s = scenario()
    pick, t = _ask(s, [option("a", "A"), option("b", "B")])
    assert pick is ASKED
    (lane, d), = waiting(s)
    assert lane == MAIN and d["who"] == A and d["then"] == t and [o["value"] for o in d["options"]] == ["a", "b"]
    assert choose(s, MAIN, A, "test", "Which one?", [], {**t, "pick": "b"}) == "b"


def test_forced_false_asks_even_with_one_answer():
    s = scenario()
    pick, _ = _ask(s, [option("a", "A")], forced=False)
    assert pick is ASKED and len(waiting(s)) == 1


def test_a_menu_made_by_a_function_is_made_only_when_asking():
    s = scenario()
    made = []
    t = {"do": "scroll", "seat": A, "pick": "a"}
    assert choose(s, MAIN, A, "test", "Which one?", lambda: made.append(1) or [], t) == "a"
    assert made == []


# --- a tap: {who, decision, choice} ----------------------------------------------------------------

def _turn():
    """Seat A's turn, with one hex taken by seat B's standing lieutenant (greyed, R-TURN-MOVE-4)."""
    s = scenario()
    stand(s, 1, sorted(s.hexes)[0])
    turn_for(s, A)
    (q,) = pending(s)
    return s, q


def test_a_tap_resolves_to_the_menus_own_action():
    s, q = _turn()
    menu = legal_actions(s, A)
    for i, opt in enumerate(menu):
        if opt["available"]:
            assert choose_action(s, A, q["id"], i) == opt["action"]


def test_a_tap_on_an_earlier_question_or_out_of_turn_is_refused_as_moved_on():
    s, q = _turn()
    with pytest.raises(GameMovedOn):
        choose_action(s, A, q["id"] - 1, 0)
    with pytest.raises(GameMovedOn):
        choose_action(s, 1, q["id"], 0)  # seat B has nothing to decide
    with pytest.raises(GameMovedOn):
        choose_action(s, "host", None, 0)


@pytest.mark.parametrize("choice", [-1, 999, True, "0", None])
def test_a_choice_that_is_no_option_is_refused(choice):
    s, q = _turn()
    before = s.to_dict()
    with pytest.raises(NotOnMenu):
        choose_action(s, A, q["id"], choice)
    assert s.to_dict() == before


def test_R_TURN_MOVE_4_a_greyed_option_is_refused_with_its_own_reason_and_rule():
    s, q = _turn()
    menu = legal_actions(s, A)
    i = next(i for i, o in enumerate(menu) if not o["available"])
    assert menu[i]["rule"] == "R-TURN-MOVE-4"
    with pytest.raises(IllegalAction) as refused:
        choose_action(s, A, q["id"], i)
    assert refused.value.reason == menu[i]["reason"] and refused.value.rule == menu[i]["rule"]
    assert refused.value.reason.msg == menu[i]["reason_msg"]  # still translatable
    assert not isinstance(refused.value, (GameMovedOn, NotOnMenu))


def test_the_store_plays_a_tap_and_logs_the_value(tmp_path):
    store = Store(tmp_path / "games.db", catalog=game().catalog)
    created = store.create(options_for(3), seed=4)
    q = pending(created.state)[0]
    menu = legal_actions(created.state, q["who"])
    i = max(i for i, o in enumerate(menu) if o["available"])
    played = store.act(created.id, created.version, q["who"], q["id"], i, via="host")
    assert played.version == 1
    (entry,) = store.history(created.id)
    assert entry["action"] == json.loads(json.dumps(menu[i]["action"]))
    twin = created.state.clone()
    apply(twin, menu[i]["action"])
    assert store.load(created.id).state.to_dict() == twin.to_dict()


def test_the_store_refuses_a_stale_tap_and_a_greyed_option_writing_nothing(tmp_path):
    store = Store(tmp_path / "games.db", catalog=game().catalog)
    gid = store.create(options_for(3), seed=4).id
    for _ in range(100):  # play first options until a turn menu greys a place (a hex someone stands on)
        g = store.load(gid)
        q = pending(g.state)[0]
        menu = legal_actions(g.state, q["who"])
        ok = next(i for i, o in enumerate(menu) if o["available"])
        if q["kind"] == "turn" and not all(o["available"] for o in menu):
            break
        store.act(gid, g.version, q["who"], q["id"], ok)
    with pytest.raises(Stale):
        store.act(gid, g.version - 1, q["who"], q["id"], ok)  # an older version
    with pytest.raises(Stale):
        store.act(gid, g.version, q["who"], q["id"] - 1, ok)  # an earlier question
    greyed = [i for i, o in enumerate(menu) if not o["available"]]
    assert greyed
    with pytest.raises(IllegalAction) as refused:
        store.act(gid, g.version, q["who"], q["id"], greyed[0])
    assert refused.value.rule == menu[greyed[0]]["rule"]
    with pytest.raises(NotOnMenu):
        store.act(gid, g.version, q["who"], q["id"], len(menu))
    assert store.load(gid).version == g.version and len(store.history(gid)) == g.version
