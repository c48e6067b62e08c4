"""companion/web/ in rooms (issue 34 item 3): one package per screen, each holding that screen's routes, its
context and its regions, so a newcomer finds a screen's whole code in one folder; the modules at web/'s top
level are the app (__init__.py) and what several screens share. Templates follow the same rooms: a room's
pages and partials in templates/<room>/, what several rooms share at templates/' top level and in
templates/partials/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_layers import imported

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "companion" / "web"
TEMPLATES = ROOT / "templates"
SCREENS = ("api", "catalog", "host", "join", "score", "seat")
ROOMS = SCREENS + ("rules",)  # /rules is a screen of its own, and every screen cites a rule through it
#: the one room that draws another's module: the host acting for an absent seat shows the seat's own screen
ACROSS = {("host/routes.py", "companion.web.seat.screen")}
SHARED_ROUTES = {"language"}  # the language switch in every page's header (web/language.py)
TEMPLATE = re.compile(r"""["']([\w/{}.-]+\.html)["']""")


def room_of(path: Path) -> str | None:
    """The room a web module stands in, or None for the app and the shared modules at the top."""
    parts = path.relative_to(WEB).parts
    return parts[0] if len(parts) > 1 else None


def web_imports(path: Path) -> set[str]:
    """The modules of companion.web one file imports (`from ..seat import screen` is seat.screen: the room's
    package alone, read from it, is not counted)."""
    out = set()
    for module in imported(path):
        parts = module.split(".")
        if parts[:2] == ["companion", "web"] and len(parts) > 2 and not (len(parts) == 3 and parts[2] in ROOMS):
            out.add(module)
    return out


def test_web_has_one_package_per_screen_and_nothing_else_below_it():
    packages = sorted(p.name for p in WEB.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    assert packages == sorted(ROOMS)
    assert [p.name for p in WEB.iterdir() if p.is_dir() and p.name != "__pycache__" and p.name not in ROOMS] == []
    assert all((WEB / room / "routes.py").is_file() for room in ROOMS)


def test_each_screens_routes_live_in_its_package(app):
    """Every route the app answers is a view of a room's package (a screen's blueprint in the room of its
    name); only the language switch, which every page's header carries, is shared."""
    outside, misplaced = [], []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        blueprint, module = rule.endpoint.partition(".")[0], app.view_functions[rule.endpoint].__module__
        room = module.split(".")[2] if module.count(".") >= 3 else None
        if room is None and blueprint not in SHARED_ROUTES:
            outside.append(rule.rule)
        if blueprint in ROOMS and room != blueprint:
            misplaced.append((rule.rule, module))
    assert outside == [] and misplaced == []
    assert {r.endpoint.partition(".")[0] for r in app.url_map.iter_rules()} >= set(SCREENS)


def test_rooms_do_not_reach_into_each_other():
    """A room imports the shared modules and its own; the one exception is the host acting for a seat."""
    across = set()
    for path in sorted(WEB.rglob("*.py")):
        room = room_of(path)
        for module in web_imports(path):
            other = module.split(".")[2]
            if room is not None and other in ROOMS and other != room:
                across.add((path.relative_to(WEB).as_posix(), module))
    assert {(f, m) for f, m in across if not any(m == a or m.startswith(a + ".") for _, a in ACROSS)} == set()
    assert {a for a in ACROSS if any(f == a[0] and m.startswith(a[1]) for f, m in across)} == ACROSS


def test_a_module_at_the_top_is_shared_by_more_than_one_room():
    """A top-level module whose only users stand in one room belongs in that room; the app's own helpers
    (imported by __init__.py alone) stay beside it."""
    users: dict[str, set[str]] = {}
    for path in sorted(WEB.rglob("*.py")):
        for module in web_imports(path):
            name = module.split(".")[2]
            if (WEB / f"{name}.py").is_file() and path != WEB / f"{name}.py":
                users.setdefault(name, set()).add(room_of(path) or "top")
    alone = {name: rooms for name, rooms in users.items() if len(rooms) == 1 and rooms != {"top"}}
    assert alone == {}
    unused = [p.stem for p in WEB.glob("*.py") if p.stem != "__init__" and p.stem not in users]
    assert unused == []


def templates_named(path: Path) -> set[str]:
    """The templates a module or template names (an f-string's name as written: host/_{name}.html)."""
    return set(TEMPLATE.findall(path.read_text(encoding="utf-8")))


def shared_template(name: str) -> bool:
    return "/" not in name or name.startswith("partials/")


@pytest.mark.parametrize("room", sorted(set(ROOMS) - {"api"}))  # the API answers JSON only
def test_a_room_draws_its_own_templates_and_the_shared_ones(room):
    """The templates a room's code renders and its templates include stand in templates/<room>/, or are
    shared; the shared modules and templates use only shared templates."""
    files = list((WEB / room).glob("*.py")) + list((TEMPLATES / room).glob("*.html"))
    named = set().union(*(templates_named(f) for f in files))
    assert named, room
    assert sorted(n for n in named if not (n.startswith(f"{room}/") or shared_template(n))) == []


def test_the_shared_code_and_templates_use_only_shared_templates():
    files = [p for p in WEB.glob("*.py")] + list(TEMPLATES.glob("*.html")) + list((TEMPLATES / "partials").glob("*.html"))
    assert sorted(n for f in files for n in templates_named(f) if not shared_template(n)) == []
    folders = sorted(p.name for p in TEMPLATES.iterdir() if p.is_dir())
    assert folders == sorted(set(ROOMS) - {"api"} | {"partials"})


def test_every_template_named_is_there():
    """A name in the code or a template that no file answers is a page that fails only when drawn."""
    files = list(WEB.rglob("*.py")) + list(TEMPLATES.rglob("*.html"))
    names = {n for f in files for n in templates_named(f) if "{" not in n}
    assert sorted(n for n in names if not (TEMPLATES / n).is_file()) == []


def test_the_room_reader_sees_a_module_in_its_room():
    """The checks above read rooms from paths: a screen's module is in its room, a shared one in none."""
    assert room_of(WEB / "host" / "routes.py") == "host" and room_of(WEB / "access.py") is None
    assert shared_template("partials/_poll.html") and not shared_template("seat/_menu.html")
