"""Every rule of RULES.md (all sections: components, setup, rounds, turns, actions, citizens, registers,
end of round, scoring, advanced, priority tile, solo) is cited by at least one test, so an untested rule
shows up as a failure naming it.

Only what a test says about itself counts: a test function's name, its docstring, and the message of
an `assert` in a test file. A comment, a string elsewhere or a rule id in code (a menu's rule field, a
log entry) is not a citation. Rule IDs are matched exactly: "R-TURN-MOVE-3" is not found inside
"R-TURN-MOVE-30". Test names write an ID with underscores (test_R_TURN_MOVE_3_...).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
RULES = ROOT / "docs" / "RULES.md"  # shipped with the repository: every clone can run this check
SHARED_RULES = ROOT.parent / "shared" / "rules" / "RULES.md"  # where it comes from, beside the repository

DEFINITION = re.compile(r"^- \*\*(R-[A-Z0-9]+(?:-[A-Z0-9]+)*)\*\*")
ANY_ID = re.compile(r"(?<![A-Za-z0-9])(?=(R[-_][A-Z0-9]+(?:[-_][A-Z0-9]+)*))")  # overlapping: R_A_1_R_B_2


def rule_ids(text: str) -> list[str]:
    """The rule IDs RULES.md defines: a top-level list item starting "- **R-...**", in any section."""
    return [d.group(1) for d in map(DEFINITION.match, text.splitlines()) if d]


def citations(source: str) -> list[str]:
    """What a test file says about its tests: the names and docstrings of its test functions and the
    messages of its asserts (the literal parts of an f-string message too)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            out.append(node.name)
            doc = ast.get_docstring(node)
            if doc:
                out.append(doc)
        elif isinstance(node, ast.Assert) and node.msg is not None:
            out += [c.value for c in ast.walk(node.msg) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return out


def cited(rule: str, text: str) -> bool:
    """`rule` appears in `text` as a whole ID, with dashes or (in identifiers) underscores."""
    for form in {rule, rule.replace("-", "_")}:
        if re.search(r"(?<![A-Za-z0-9])" + re.escape(form) + r"(?![0-9])", text):
            return True
    return False


@pytest.fixture(scope="module")
def rules_text() -> str:
    assert RULES.is_file(), f"docs/RULES.md is missing: copy ../shared/rules/RULES.md there ({RULES})"
    return RULES.read_text(encoding="utf-8")


def test_the_rules_shipped_are_the_shared_rules_document(rules_text):
    """docs/RULES.md is ../shared/rules/RULES.md as it stands; where that document is beside the repository,
    a change to it fails here until the copy is taken again."""
    assert len(rule_ids(rules_text)) > 100
    if SHARED_RULES.is_file():
        assert SHARED_RULES.read_text(encoding="utf-8") == rules_text, "copy ../shared/rules/RULES.md to docs/RULES.md"


@pytest.fixture(scope="module")
def cited_text() -> str:
    return "\n".join(c for p in sorted(TESTS.rglob("test_*.py")) for c in citations(p.read_text(encoding="utf-8")))


def test_rule_ids_are_collected_from_every_section(rules_text):
    ids = rule_ids(rules_text)
    assert len(ids) == len(set(ids)), "a rule ID is defined twice"
    for prefix in ("R-COMP-", "R-SETUP-", "R-ROUND-", "R-R1-", "R-NEXT-", "R-TURN-", "R-ACT-", "R-OVS-", "R-UPG-",
                   "R-BUILD-", "R-REPOP-", "R-CIT-", "R-REG-", "R-EOR-", "R-END-", "R-SCORE-", "R-ADV-", "R-PRIO-",
                   "R-SOLO-"):
        assert any(i.startswith(prefix) for i in ids), prefix


def test_every_rule_of_rules_md_is_cited_by_a_test(rules_text, cited_text):
    missing = [r for r in rule_ids(rules_text) if not cited(r, cited_text)]
    assert not missing, f"rules without a test naming them (name, docstring or assert message): {', '.join(missing)}"


def unknown_ids(known: set[str], text: str) -> set[str]:
    """Rule-like IDs in `text` that RULES.md does not define. Test names run on after an ID
    (R_SOLO_8_9_scoring): a defined ID as a prefix will do; a family alone ("the R-NEXT steps") names a
    group of rules, not a misspelt one."""
    families = {i.rsplit("-", 1)[0] for i in known} | {"-".join(i.split("-")[:2]) for i in known}
    out = set()
    for m in ANY_ID.finditer(text):
        name = m.group(1).replace("_", "-")
        parts = name.split("-")
        if name not in families and not any("-".join(parts[:k]) in known for k in range(len(parts), 1, -1)):
            out.add(name)
    return out


def test_every_rule_a_test_cites_exists_in_rules_md(rules_text, cited_text):
    """A misspelt or withdrawn ID in a test name would cover nothing."""
    unknown = unknown_ids(set(rule_ids(rules_text)), cited_text)
    assert not unknown, f"tests cite rule IDs RULES.md does not define: {sorted(unknown)}"


def test_unknown_ids_finds_misspelt_rules_only():
    known = {"R-SOLO-8", "R-SOLO-9", "R-TURN-MOVE-3", "R-NEXT-1"}
    text = "test_R_SOLO_8_9_scoring R-TURN-MOVE-3 the R-NEXT steps test_R_SOLO_11_x R-TURN-MOVE-30 R_NEXT_1_R_NEXT_7"
    assert unknown_ids(known, text) == {"R-SOLO-11", "R-TURN-MOVE-30", "R-NEXT-7"}


def test_citation_matching_is_exact():
    assert cited("R-TURN-MOVE-3", "test_R_TURN_MOVE_3_costs")
    assert cited("R-TURN-MOVE-3", "R-TURN-MOVE-3: cost.")
    assert cited("R-TURN-MOVE-3", "(R-TURN-MOVE-3)")
    assert not cited("R-TURN-MOVE-3", "R-TURN-MOVE-30")
    assert not cited("R-TURN-MOVE-3", "test_R_TURN_MOVE_30_x")
    assert not cited("R-TURN-1", "R-TURN-10")
    assert not cited("R-ACT-1", "XR-ACT-1")


def test_only_names_docstrings_and_assert_messages_count():
    source = '''
"""Module docstring: R-MOD-1."""
# a comment: R-COMMENT-1
RULE = "R-CONSTANT-1"


def helper():
    """Helper docstring: R-HELPER-1."""
    assert True, "helper assert: R-HELPER-2"


def test_R_NAME_1_something():
    """Test docstring: R-DOC-1."""
    x = {"rule": "R-CODE-1"}
    assert x, f"message R-MSG-1 for {x}"
    assert x == {"rule": "R-CODE-2"}


class TestGroup:
    def test_in_class(self):
        """R-CLASS-1"""
'''
    text = "\n".join(citations(source))
    for counted in ("R-NAME-1", "R-DOC-1", "R-MSG-1", "R-HELPER-2", "R-CLASS-1"):
        assert cited(counted, text), counted
    for ignored in ("R-MOD-1", "R-COMMENT-1", "R-CONSTANT-1", "R-HELPER-1", "R-CODE-1", "R-CODE-2"):
        assert not cited(ignored, text), ignored


def test_rule_ids_parser_reads_every_section_but_only_definitions():
    text = "\n".join([
        "## 1. Components", "- **R-COMP-1** a", "## 3. Round", "- **R-ROUND-1** x", "## 4. Turn",
        "- **R-TURN-1** a", "  - **R-TURN-9** nested", "text R-TURN-2 mention", "- **R-TURN-MOVE-3** b",
        "## 12. Solo", "- **R-SOLO-10** c", "## 15. Open questions", "- **Q-1** not a rule id",
    ])
    assert rule_ids(text) == ["R-COMP-1", "R-ROUND-1", "R-TURN-1", "R-TURN-MOVE-3", "R-SOLO-10"]
