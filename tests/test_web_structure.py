"""The web layer's shape (issue 12): small modules with one job, short functions, and no second judge of a
tap: routes hand taps to the store (web/tap.py), which asks the engine's menu."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "companion" / "web"
MODULE_LINES = 400
FUNCTION_LINES = 60


def test_no_web_module_or_function_is_long():
    long_modules, long_functions = [], []
    for f in sorted(WEB.rglob("*.py")):
        text = f.read_text(encoding="utf-8")
        if len(text.splitlines()) > MODULE_LINES:
            long_modules.append(str(f.relative_to(WEB)))
        for fn in ast.walk(ast.parse(text)):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.end_lineno - fn.lineno + 1 > FUNCTION_LINES:
                long_functions.append(f"{f.relative_to(WEB)}:{fn.name}")
    assert long_modules == [] and long_functions == []


def test_only_the_tap_module_hands_a_tap_to_the_store_and_no_route_reads_a_menu_to_judge_it():
    """Store.act is called in one place; the routes that take a tap never build a menu before it."""
    acting = [f.name for f in sorted(WEB.rglob("*.py")) if ".act(" in f.read_text(encoding="utf-8")]
    assert acting == ["tap.py"]
    for name in ("seat.py", "host.py", "api.py", "seat_screen.py"):
        assert "legal_actions" not in (WEB / name).read_text(encoding="utf-8"), name
