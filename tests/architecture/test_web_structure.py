"""The web layer's shape (issue 12): no second judge of a tap. Routes hand taps to the store (web/tap.py),
which asks the engine's menu. (Module and function sizes: tests/architecture/test_engine_structure.py, for all of
companion/.)"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "companion" / "web"


def test_only_the_tap_module_hands_a_tap_to_the_store_and_no_route_reads_a_menu_to_judge_it():
    """Store.act is called in one place; the routes that take a tap never build a menu before it."""
    acting = [f.name for f in sorted(WEB.rglob("*.py")) if ".act(" in f.read_text(encoding="utf-8")]
    assert acting == ["tap.py"]
    for name in ("seat.py", "host.py", "api.py", "seat_screen.py"):
        assert "legal_actions" not in (WEB / name).read_text(encoding="utf-8"), name
