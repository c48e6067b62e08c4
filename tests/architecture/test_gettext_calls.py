"""No gettext call inside an f-string (issue 15): pybabel cannot see `_()` there, so the words never
reach messages.pot, and pieces glued word by word cannot be translated well anyway. A phrase is one
template with named fields, formatted after translation: _("Boat, back {back}").format(back=...)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "companion"
GETTEXT = {"_", "gettext", "ngettext", "T", "N", "plural_form"}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def gettext_in_fstrings(source: str, filename: str = "<string>") -> list[int]:
    """Line numbers of gettext calls made inside an f-string (a JoinedStr) in `source`."""
    lines = set()
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and _name(inner.func) in GETTEXT:
                    lines.add(inner.lineno)
    return sorted(lines)


def test_the_scan_finds_one():
    assert gettext_in_fstrings('x = f"{_(\'Boat\')}, back {b}"\ny = _("ok {n}").format(n=1)\n') == [1]
    assert gettext_in_fstrings('z = f"{n} " \\\n    f"{ngettext(\'a\', \'b\', n)}"\n') == [2]


def test_no_gettext_call_inside_an_fstring():
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for line in gettext_in_fstrings(path.read_text(encoding="utf-8"), str(path)):
            found.append(f"{path.relative_to(ROOT.parent)}:{line}")
    assert not found, "gettext inside an f-string (pybabel cannot see it):\n" + "\n".join(found)
