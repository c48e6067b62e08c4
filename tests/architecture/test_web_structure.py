"""The web layer's shape (issue 12): no second judge of a tap. Routes hand taps to the store (web/tap.py),
which asks the engine's menu. (Module and function sizes: tests/architecture/test_engine_structure.py, for all of
companion/.)"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "companion" / "web"


def where(path: Path) -> str:
    """A web module as its room and name (web/host/routes.py is host/routes.py)."""
    return path.relative_to(WEB).as_posix()


def test_only_the_tap_module_hands_a_tap_to_the_store_and_no_route_reads_a_menu_to_judge_it():
    """Store.act is called in one place; the routes that take a tap never build a menu before it."""
    acting = [where(f) for f in sorted(WEB.rglob("*.py")) if ".act(" in f.read_text(encoding="utf-8")]
    assert acting == ["tap.py"]
    for name in ("seat/routes.py", "host/routes.py", "api/routes.py", "seat/screen.py"):
        assert "legal_actions" not in (WEB / name).read_text(encoding="utf-8"), name


def test_one_observer_per_screen_and_the_host_acting_for_a_seat_sees_the_phones_view():
    """issue 24 item 2: a seat's screen, on its phone or on the host screen acting for it, is built in one
    place from engine.seat_view (seat/screen.py); the host's own screen from engine.table_view, which carries
    the host's question as seat_view carries a seat's. No screen module reads a menu of its own."""
    calls = {name: sorted(where(f) for f in WEB.rglob("*.py") if f"{name}(" in f.read_text(encoding="utf-8"))
             for name in ("seat_view", "table_view", "legal_actions", "menu_view")}
    assert calls == {"seat_view": ["seat/screen.py"], "table_view": ["host/routes.py"], "legal_actions": ["tap.py"],
                     "menu_view": []}
