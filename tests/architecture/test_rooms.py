"""tests/ in rooms (issue 24 item 5): one folder per part of the companion, each with its conftest.py, no
test file left at the top, no two test files of the same name (pytest imports each by its name), and each
shared fixture and helper written once: the app, its client, a game and a phone in tests/conftest.py, the
helpers in tests/tables.py. A module says how its app differs by overriding `app_config` (`server_args` for
a served module's server), never by writing its own `app`."""

from __future__ import annotations

import ast
from collections import Counter
from functools import cache
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOMS = ("architecture", "catalog", "engine", "store", "pictures", "web", "served", "browser")
SHARED = ("app", "client", "game", "phone")  # tests/conftest.py
HELPERS = ("app_on", "new_game", "fingerprint", "create", "api_table_ready", "run_command")  # tests/tables.py
OVERRIDES = ("app_config", "server_args")


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def fixtures(path: Path) -> list[str]:
    """The fixtures a file defines (functions decorated with pytest.fixture, with or without arguments)."""
    out = []
    for node in parsed(path).body:
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                target = d.func if isinstance(d, ast.Call) else d
                if ast.unparse(target) in ("pytest.fixture", "fixture"):
                    out.append(node.name)
    return out


def functions(path: Path) -> list[str]:
    return [n.name for n in parsed(path).body if isinstance(n, ast.FunctionDef)]


def test_every_room_has_its_conftest_and_no_test_stands_outside_a_room():
    assert [r for r in ROOMS if not (TESTS / r / "conftest.py").is_file()] == []
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
    assert sorted({p.parent.name for p in TESTS.rglob("test_*.py")}) == sorted(ROOMS)


def test_no_two_test_files_share_a_name():
    names = Counter(p.name for p in TESTS.rglob("*.py") if p.name != "conftest.py")
    assert [n for n, k in names.items() if k > 1] == []


def test_each_shared_fixture_and_helper_is_written_once():
    files = sorted(TESTS.rglob("*.py"))
    fixture_homes = {name: [str(p.relative_to(TESTS)) for p in files if name in fixtures(p)] for name in SHARED}
    assert fixture_homes == {name: ["conftest.py"] for name in SHARED}
    helper_homes = {name: [str(p.relative_to(TESTS)) for p in files if name in functions(p)] for name in HELPERS}
    assert helper_homes == {name: ["tables.py"] for name in HELPERS}


def test_a_room_fixture_is_not_written_again_in_its_room():
    """What a room's conftest.py defines, its test files use; only the override hooks are redefined."""
    again = {}
    for room in ROOMS:
        mine = set(fixtures(TESTS / room / "conftest.py")) - set(OVERRIDES)
        for p in sorted((TESTS / room).glob("test_*.py")):
            twice = mine & set(fixtures(p))
            if twice:
                again[p.name] = sorted(twice)
    assert again == {}


def test_the_fixture_reader_sees_a_fixture(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import pytest\n\n@pytest.fixture(scope='module')\ndef app():\n    pass\n\n"
                      "@pytest.fixture\ndef client(app):\n    pass\n\ndef helper():\n    pass\n")
    assert fixtures(sample) == ["app", "client"] and functions(sample) == ["app", "client", "helper"]
