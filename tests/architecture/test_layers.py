"""The rooms of companion/ and what each may import (issue 24 item 1), read from the source with `ast`:
data flows catalog -> engine -> store -> web, the pictures draw without Flask, the server machinery knows
no rule of the game, and the web speaks to the database only through the store."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / "companion"


def imported(path: Path, text: str | None = None) -> set[str]:
    """Every module one file imports (or `text`, as if it stood there), wherever the import stands,
    relative ones made absolute."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts if parts[-1] == "__init__" else parts[:-1]
    package = [p for p in package if p != "__init__"]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8") if text is None else text)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names)
    return out


def offenders(room: str, banned: tuple[str, ...]) -> dict[str, list[str]]:
    files = sorted((COMPANION / room).rglob("*.py"))
    assert len(files) > 3, room
    found = {}
    for f in files:
        hits = sorted(m for m in imported(f) if any(m == b or m.startswith(b + ".") for b in banned))
        if hits:
            found[str(f.relative_to(COMPANION))] = hits
    return found


def test_the_pictures_import_nothing_from_flask_the_web_or_the_server():
    """companion/pictures/ draws from plain data and a gettext function passed in (words.tr, plurals
    through words.plural_form): a script or a test draws a face with no app."""
    assert offenders("pictures", ("flask", "flask_babel", "werkzeug", "jinja2", "companion.web",
                                  "companion.serve", "companion.store", "sqlite3", "sqlite_utils")) == {}


def test_the_server_machinery_knows_no_rule_of_the_game():
    """companion/serve/ carries requests and news: it reads no rule, catalog, picture or screen."""
    assert offenders("serve", ("companion.engine", "companion.catalog", "companion.pictures", "companion.web",
                               "companion.scoresheet")) == {}


def test_the_server_wraps_the_app_and_the_app_knows_nothing_of_the_server():
    """Issue 34: companion/serve/ keeps the process, the sockets, the workers and the waiting connections and
    imports nothing of Flask; companion/web/ imports nothing of serve/ (news reaches it through the port,
    companion/news.py); companion/cli.py puts the two together."""
    assert offenders("serve", ("flask", "flask_babel", "werkzeug", "jinja2", "companion.web")) == {}
    assert offenders("web", ("companion.serve", "cheroot")) == {}


def test_the_web_never_speaks_sqlite():
    """Every read and write goes through the store (companion/store/), which owns the SQL."""
    assert offenders("web", ("sqlite3", "sqlite_utils")) == {}


def test_the_engine_and_the_catalog_know_nothing_of_the_outer_rooms():
    outer = ("companion.store", "companion.web", "companion.serve", "companion.pictures", "flask")
    assert offenders("engine", outer) == {} and offenders("catalog", outer + ("companion.engine",)) == {}


def test_the_import_reader_sees_a_banned_import():
    """A check that cannot fail is no check: a relative import into the web is found from a picture."""
    assert "companion.web.translate" in imported(COMPANION / "pictures" / "icons.py", "from ..web.translate import tr\n")
