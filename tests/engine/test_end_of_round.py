"""The end of a round read once more against the rulebook (issue 22 item 3; docs/END_OF_ROUND.md): the
order of its steps, who decides each, and what the table is told, each checklist line with its rule."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.simulate import POLICIES, play_game
from companion.sweep import crowded

from scenario import CATALOG, add_workshop, set_registers, set_round, to_upkeep
from scenario import bare

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules" / "RULES.md"


def test_R_REG_8_an_action_earned_in_round_VI_production_is_lost_and_the_table_is_told():
    """R-REG-8: "After round VI's production it is lost": the counter still moves, nothing waits for an
    action step that never comes, and the log says so instead of promising the next action step."""
    state = bare()
    set_round(state, 6)
    cat = state.catalog
    ws = next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and w.output.phrase in ("church", "city"))
    kind = ws.output.phrase
    reg = cat.register(kind, state.players)
    start = next(i for i in range(reg.last) if not reg.spaces[i + 1].reward.is_nothing)
    set_registers(state, 2, **{kind: start})
    add_workshop(state, 2, ws.id, ws.cls, upgraded=True)
    to_upkeep(state)
    s = state.seats[2]
    assert state.phase == "over" and s.registers[kind] == start + 1, "R-REG-8: the counter moves at once"
    assert s.deferred == [], "R-REG-8: no action step follows round VI"
    said = [e["text"] for e in state.log if e.get("rule") == "R-REG-8"]
    assert said and "it is lost" in said[-1] and "next action step" not in said[-1]


def _known_ids() -> set[str]:
    """Every rule ID RULES.md defines (R-…, M-…, Q-…, D-…) and every ruling of docs/RULINGS.md (C-…)."""
    if not RULES.is_file():
        pytest.skip("RULES.md is needed to know the rule IDs")
    text = RULES.read_text(encoding="utf-8") + (ROOT / "docs" / "RULINGS.md").read_text(encoding="utf-8")
    return set(re.findall(r"\*\*([RMQDC]-[A-Z0-9-]*[0-9])\*?\*?", text))


def _checklists(players: int, seed: int, policy: str, position) -> list[list[dict]]:
    """Each upkeep checklist of a whole game, as it stood when the host was asked to start the next round
    (or the game ended)."""
    seen: list[list[dict]] = []

    def look(state, question, menu, picked, events):
        if (question["kind"] == "table_ready" and question["rule"] != "C-18") or state.phase == "over":
            # (round I's own "the table is ready" closes the setup, not an upkeep: C-18)
            seen.append([dict(e) for e in state.report])

    play_game(players, seed, check=False, catalog=CATALOG, choose=POLICIES[policy](random.Random(seed)),
              on_decision=look, position=position)
    return seen


@pytest.mark.parametrize("players,seed,policy", [(1, 3, "eager"), (3, 4, "random"), (4, 5, "eager")])
def test_R_EOR_1_R_EOR_4_R_NEXT_every_checklist_line_cites_its_rule_in_the_rulebooks_order(players, seed, policy):
    """Every line the table reads between two rounds names its rule; production comes first (R-EOR-1),
    its Builds before quarantine (R-EOR-4), quarantine before the next round's setup, whose steps follow
    R-NEXT-1…14 (tests/engine/test_upkeep.py checks their numbers)."""
    known = _known_ids()
    lists = _checklists(players, seed, policy, crowded)
    assert len(lists) == 6
    for report in lists:
        rules = [e.get("rule") for e in report]
        assert all(r in known for r in rules), f"a checklist line without a known rule: {rules}"
        assert rules[0] == "R-EOR-1", "R-EOR-1: the end of a round starts with production"
        header = [i for i, e in enumerate(report) if e["rule"] == "R-EOR-4" and "seat" not in e.get("data", {})]
        setup = rules.index("R-NEXT-1") if "R-NEXT-1" in rules else len(rules)
        if not header:  # round VI: no quarantine, the final scoring follows production
            assert "R-CIT-3" not in rules and setup == len(rules)
            continue
        q = header[0]
        assert all(i < q for i, r in enumerate(rules) if r == "R-EOR-2"), "R-EOR-4: quarantine after production"
        assert all(i < q for i, e in enumerate(report) if e["rule"] == "R-EOR-4" and i != q), \
            "R-EOR-4: a Build earned in production comes before quarantine"
        assert all(q < i < setup for i, r in enumerate(rules) if r in ("R-CIT-3", "Q-7", "C-4")), \
            "R-CIT-3 / C-4: quarantine, and what leaving it earned, before the next round's setup"
