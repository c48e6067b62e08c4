"""The decision kinds a checker holds (engine/kinds.py, issue 34 item 6) are the kinds the engine asks: the
same list as the sweep's tally (engine/reach.py, which tests/engine/test_reach.py checks against every
`choose` in the source), and every question a played game leaves is of one of them."""

from __future__ import annotations

from companion.engine.kinds import DECISION_KINDS
from companion.engine.reach import DECISIONS
from companion.simulate import play_game


def test_decision_kinds_are_the_tallied_kinds():
    assert DECISION_KINDS == set(DECISIONS)


def test_every_question_of_a_played_game_is_of_a_known_kind():
    """R-TURN-1 and the rest: whatever the game asks, its kind is one the type names."""
    seen: set[str] = set()
    play_game(2, seed=3, check=False, roundtrip=False,
              on_decision=lambda state, question, menu, picked, events: seen.add(question["kind"]))
    assert len(seen) > 5 and seen <= DECISION_KINDS
