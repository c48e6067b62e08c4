"""The golden playthrough: one seeded 3-player game written as text (every menu, choice, upkeep report
and the scoring), regenerated and diffed on every run. Set UPDATE_GOLDEN=1 to accept a change."""

import difflib
import os
from pathlib import Path

from companion.playthrough import golden_text

GOLDEN = Path(__file__).parent / "golden" / "playthrough_3p_seed7.txt"


def test_golden_playthrough_3p_matches_recorded_game():
    text = golden_text(3, 7)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    want = GOLDEN.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True), "recorded", "now", n=2))
        raise AssertionError("the golden playthrough changed (UPDATE_GOLDEN=1 to accept):\n" + diff[:6000])


def test_golden_playthrough_reaches_final_scoring_with_upkeep_reports():
    text = GOLDEN.read_text(encoding="utf-8")
    assert "# Final scoring" in text and "Winner:" in text
    for rule in ("R-EOR-1", "R-NEXT-1", "R-NEXT-4", "R-NEXT-5", "R-NEXT-6", "R-NEXT-12"):
        assert f"[{rule}]" in text, rule
