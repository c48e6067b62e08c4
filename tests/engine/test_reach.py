"""Sweeps that reach every decision (issue 22 item 2): `simulate --coverage` counts, over the games it plays,
every kind of question asked, every reward icon carried out and every rule-bearing branch taken
(companion/engine/reach.py), and lists what was never reached. CI's sweep (companion/sweep.py) must reach
all of them: a rule the sweep never reaches could break without any sweep noticing."""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import pytest

from companion.catalog.rewards import ICONS
from companion.engine import reach
from companion.engine.reach import BRANCHES, DECISIONS, ICON_RULES, count, printed_icons, report
from companion.simulate import play_game
from companion.sweep import KINDS, STARTS, coverage_text, sweep

from scenario import CATALOG, game
from tables import run_command

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"

#: how many seeds of every kind CI's sweep plays (3 × 4 × 16 kinds each: 384 games, well under a minute)
CI_SEEDS = 2


def _calls(name: str):
    """Every call of the engine function `name` in the engine's source, with its file."""
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                yield path.name, node


def test_every_question_kind_the_engine_asks_is_counted():
    asked = {node.args[3].value for name in ("choose", "ask") for _, node in _calls(name)
             if len(node.args) > 3 and isinstance(node.args[3], ast.Constant)}
    assert asked == set(DECISIONS), "engine/reach.py DECISIONS must list exactly the kinds the engine asks"


def test_every_branch_a_hook_names_is_listed_and_every_listed_branch_has_a_hook():
    literal, prefixes = set(), set()
    for where, node in _calls("reached"):
        if len(node.args) > 2 or node.keywords:
            continue  # a question kind or a reward icon, not a branch
        arg = node.args[1]
        if isinstance(arg, ast.Constant):
            literal.add(arg.value)
        elif isinstance(arg, ast.JoinedStr) and isinstance(arg.values[0], ast.Constant):
            prefixes.add(arg.values[0].value)
        elif isinstance(arg, ast.BinOp) and isinstance(arg.left, ast.Constant):
            prefixes.add(arg.left.value)
        else:
            raise AssertionError(f"{where}:{node.lineno}: a branch name must start with its literal part")
    assert literal <= set(BRANCHES), literal - set(BRANCHES)
    assert all(any(b.startswith(p) for b in BRANCHES) for p in prefixes), prefixes
    unhooked = [b for b in BRANCHES if b not in literal and not any(b.startswith(p) for p in prefixes)]
    assert not unhooked, f"listed in engine/reach.py but no hook names them: {unhooked}"


def test_R_ACT_1_every_icon_of_the_reward_grammar_is_counted():
    assert set(ICON_RULES) == set(ICONS)
    assert printed_icons(CATALOG) <= set(ICONS)
    assert {"build", "any-hex", "activate", "lieutenant"} <= printed_icons(CATALOG)


def test_a_game_without_a_tally_counts_nothing_and_a_tally_is_never_saved():
    state = game(2, 1)
    assert state._tally is None
    reach.reached(state, "recall")  # off: nothing to count, nothing raised
    tally = count(state)
    reach.reached(state, "recall")
    reach.reached(state, "turn", "decision")
    assert tally == Counter({"branch:recall": 1, "decision:turn": 1})
    assert "_tally" not in state.to_dict() and state.clone()._tally is None, "the tally is the sweep's, not the game's"


def test_a_kind_never_reached_is_reported_and_an_icon_the_catalog_lacks_is_set_apart():
    found = report(Counter({"decision:turn": 3, "icon:coin": 1, "branch:recall": 2, "branch:no-such": 1}), 1, CATALOG)
    assert found["decisions"]["turn"] == {"count": 3, "rule": "R-TURN-1"}
    assert "decision:turn" not in found["never"] and "decision:any_hex" in found["never"]
    assert "branch:recall" not in found["never"] and "branch:held-production" in found["never"]
    assert found["unknown"] == ["branch:no-such"]
    missing = set(ICONS) - printed_icons(CATALOG)
    assert set(found["not_printed"]) == missing
    assert not any(f"icon:{i}" in found["never"] for i in missing), "an icon no component prints cannot be reached"
    text = coverage_text(found)
    assert "never reached: decision:" in text and "branch:no-such" in text


def test_the_sweep_plays_every_kind_of_game_with_every_policy_and_start():
    assert {k.players for k in KINDS} == {1, 2, 3, 4} and {k.advanced for k in KINDS} == {False, True}
    assert {k.draw for k in KINDS} == {"app", "table"} and {k.start for k in KINDS} == set(STARTS)
    assert {k.policy for k in KINDS} == {"random", "eager", "idle"}
    assert any(k.priority_tile for k in KINDS) and not any(k.priority_tile for k in KINDS if k.players == 1)


def test_simulate_coverage_json_lists_every_decision_kind_with_its_count():
    res = run_command("simulate", "--players", "1", "--games", "1", "--no-roundtrip", "--coverage", "--json")
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert "winners" in json.loads(lines[0]), "each game's summary first"
    found = json.loads(lines[-1])["coverage"]
    assert set(found["decisions"]) == set(DECISIONS) and found["games"] == 1
    assert found["decisions"]["turn"]["count"] > 0 and found["branches"]["solo-workshop"]["rule"] == "R-SOLO-7"
    assert "branch:order-by-score" in found["never"], "solo: the play order alternates instead (R-SOLO-4)"


def test_simulate_needs_players_unless_it_sweeps():
    res = run_command("simulate")
    assert res.exit_code == 2
    assert "--players" in res.stderr


def test_a_game_played_with_a_tally_counts_what_it_reached():
    tally: Counter = Counter()
    play_game(3, 2, check=False, catalog=CATALOG, tally=tally)
    found = report(tally, 1, CATALOG)
    assert found["decisions"]["turn"]["count"] == tally["decision:turn"] > 0
    assert found["branches"]["quiet-round"]["count"] == 1, "R-NEXT-12: round VI's setup, once a game"
    assert found["unknown"] == []


@pytest.mark.slow
def test_CI_sweep_reaches_every_decision_kind_reward_icon_and_rule_bearing_branch():
    """Among them the any-hex action (R-ACT-7), a build paid after cycling (R-BUILD-2), a citizen discarded
    leaving quarantine (Q-7), a skip on an overseer path (R-OVS-5), the solo opponent's red actions
    (R-SOLO-7), the advanced majority bonus (R-ADV-3), and the Builds of production before quarantine
    (R-EOR-4) and of leaving quarantine after it (C-4)."""
    tally, games = sweep(CI_SEEDS, catalog=CATALOG)
    found = report(tally, games, CATALOG)
    assert found["unknown"] == [], "a hook counts a name engine/reach.py does not list"
    assert found["never"] == [], "never reached by CI's sweep:\n" + coverage_text(found)
