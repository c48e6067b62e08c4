"""Every rule of RULES.md sections 4–7 and 10 (turns, actions, citizens, registers, advanced variant) is
cited by at least one test file, so an untested rule shows up as a failure naming it.

Rule IDs are matched exactly: "R-TURN-MOVE-3" is not found inside "R-TURN-MOVE-30". Test names may
write an ID with underscores (test_R_TURN_MOVE_3_...).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
RULES = Path(__file__).resolve().parents[2] / "shared" / "rules" / "RULES.md"
SECTIONS = ("4", "5", "6", "7", "10")

DEFINITION = re.compile(r"^- \*\*(R-[A-Z0-9]+(?:-[A-Z0-9]+)*)\*\*")
SECTION = re.compile(r"^## (\d+)\.")


def rule_ids(text: str, sections=SECTIONS) -> list[str]:
    """The rule IDs defined ("- **R-...**" at the start of a line) in the given numbered sections."""
    out, current = [], None
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            current = m.group(1)
            continue
        if line.startswith("## "):
            current = None
            continue
        d = DEFINITION.match(line)
        if d and current in sections:
            out.append(d.group(1))
    return out


def cited(rule: str, text: str) -> bool:
    """`rule` appears in `text` as a whole ID, with dashes or (in identifiers) underscores."""
    for form in {rule, rule.replace("-", "_")}:
        if re.search(r"(?<![A-Za-z0-9])" + re.escape(form) + r"(?![0-9])", text):
            return True
    return False


@pytest.fixture(scope="module")
def rules_text() -> str:
    if not RULES.is_file():
        pytest.skip(f"RULES.md not found at {RULES}: the shared rules document is needed for this check")
    return RULES.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tests_text() -> str:
    here = Path(__file__).resolve()
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.rglob("*.py")) if p.resolve() != here)


def test_rule_ids_are_collected_from_sections_4_5_6_7_and_10(rules_text):
    ids = rule_ids(rules_text)
    assert len(ids) == len(set(ids)), "a rule ID is defined twice"
    for prefix in ("R-TURN-", "R-ACT-", "R-OVS-", "R-UPG-", "R-BUILD-", "R-REPOP-", "R-CIT-", "R-REG-", "R-ADV-"):
        assert any(i.startswith(prefix) for i in ids), prefix
    assert not any(i.startswith(("R-SETUP-", "R-NEXT-", "R-EOR-", "R-SCORE-", "R-SOLO-")) for i in ids)


def test_every_rule_of_sections_4_5_6_7_10_is_cited_by_a_test(rules_text, tests_text):
    missing = [r for r in rule_ids(rules_text) if not cited(r, tests_text)]
    assert not missing, f"rules without a test citing them: {', '.join(missing)}"


def test_citation_matching_is_exact():
    assert cited("R-TURN-MOVE-3", "def test_R_TURN_MOVE_3_costs(): ...")
    assert cited("R-TURN-MOVE-3", '"""R-TURN-MOVE-3: cost."""')
    assert cited("R-TURN-MOVE-3", "(R-TURN-MOVE-3)")
    assert not cited("R-TURN-MOVE-3", "R-TURN-MOVE-30")
    assert not cited("R-TURN-MOVE-3", "test_R_TURN_MOVE_30_x")
    assert not cited("R-TURN-1", "R-TURN-10")
    assert not cited("R-ACT-1", "XR-ACT-1")


def test_rule_ids_parser_reads_only_definitions_of_the_chosen_sections():
    text = "\n".join([
        "## 3. Round", "- **R-ROUND-1** x", "## 4. Turn", "- **R-TURN-1** a", "  - **R-TURN-9** nested",
        "text R-TURN-2 mention", "- **R-TURN-MOVE-3** b", "## 10. Advanced", "- **R-ADV-1** c",
        "## 13. Discrepancies", "- **R-X-1** d",
    ])
    assert rule_ids(text) == ["R-TURN-1", "R-TURN-MOVE-3", "R-ADV-1"]
