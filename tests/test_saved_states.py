"""Games saved before issue 12 still load and play on exactly as they did (DESIGN: the action log is
the truth, a saved state is plain JSON).

tests/saved/states_main_27a00e5.json was written by main at 27a00e5, before the engine was reorganised:
four mid-game states (a turn in round II; production of a 4-player advanced game; a solo game with
table draws; a host's reveal), the 30 actions a seeded random player took next from each, and what the
game looked like after them. Loaded here with `state_from_dict`, each must give back the same data and,
replaying the same logged actions, reach the same log, estates, city, random state and questions.
Issue 13 rewords what the table reads (places are marked on the map, not named by id), so the log and
the questions are compared by what happened (entry, round, rule, data), not by their words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.catalog import shipped_catalog
from companion.engine import apply, choose_action, legal_actions, pending, state_from_dict

SAVED = json.loads((Path(__file__).parent / "saved" / "states_main_27a00e5.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", SAVED, ids=[c["label"] for c in SAVED])
def test_a_state_saved_by_the_old_engine_loads_and_plays_on_the_same(case):
    state = state_from_dict(case["state"], shipped_catalog())
    assert json.loads(json.dumps(state.to_dict())) == case["state"]
    for action in case["actions"]:
        menu = legal_actions(state, action["who"])
        choice = next(i for i, o in enumerate(menu) if o["value"] == action["pick"])
        # the tap for that option resolves to the very action the old log holds
        assert choose_action(state, action["who"], action["decision"], choice) == action
        apply(state, action)
    now = state.to_dict()
    after = case["after"]
    assert [gist(e) for e in now["log"][len(case["state"]["log"]):]] == [gist(e) for e in after["log"]]
    assert {k: now[k] for k in ("seats", "hexes", "rng", "round", "phase")} == \
        {k: after[k] for k in ("seats", "hexes", "rng", "round", "phase")}
    assert [gist(q) for q in json.loads(json.dumps(pending(state)))] == [gist(q) for q in after["pending"]]


WORDS = {"text", "msg", "args", "prompt", "prompt_msg", "prompt_args", "places"}


def gist(entry: dict) -> dict:
    """A log entry or question without its words and the places it marks: what happened, not how it reads."""
    out = {k: v for k, v in entry.items() if k not in WORDS}
    if "data" in out:
        out["data"] = {k: v for k, v in out["data"].items() if k not in WORDS}
    return out
