"""The code's shape, read from the source with `ast`: imports at the top of each engine module only, no
import cycle anywhere in companion/, small modules and functions in all of companion/, and one handler
per task name.

An import inside a function hides a dependency (that is how estate, gain and registers came to import
each other); a cycle makes the order modules load in matter. These checks keep both visible."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.engine  # noqa: F401  (registers every task)
from companion.engine import tasks
from companion.engine.flow import HANDLERS

ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / "companion"
ENGINE = COMPANION / "engine"
MODULE_LINES = 400
FUNCTION_LINES = 60


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(COMPANION.rglob("*.py"))}


def _imported(name: str, path: Path, node: ast.AST, known: dict) -> set[str]:
    """The companion modules one import statement loads: `from pkg import sub` names the submodule."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    out = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        out.add(sub if sub in known else base)
    return out & set(known)


def import_graph() -> dict[str, set[str]]:
    """Every companion module and the companion modules it imports, wherever the import stands."""
    known = _modules()
    graph = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set().union(*(_imported(name, path, n, known) for n in ast.walk(tree))) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a loop (strongly connected)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_among_companion_modules():
    graph = import_graph()
    assert "companion.engine.gain" in graph and graph["companion.engine.registers"]
    assert cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle():
    """A check that cannot fail is no check: a loop of three is found, a chain is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def _function_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            out += [f"{path.name}:{n.lineno} {ast.unparse(n)}" for n in ast.walk(fn)
                    if isinstance(n, (ast.Import, ast.ImportFrom))]
    return out


def test_no_import_inside_a_function_outside_the_command_line():
    """The command line (cli/) alone imports inside its commands (each command loads only what it needs, so
    `catalog check` starts without the web); everywhere else a dependency stands at the top of its module."""
    files = [f for f in sorted(COMPANION.rglob("*.py")) if COMPANION / "cli" not in f.parents]
    assert len(files) > 100
    assert [hit for f in files for hit in _function_imports(f)] == []


def test_a_function_import_is_noticed(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import json\n\ndef f():\n    from .state import GameState\n    return GameState\n")
    assert _function_imports(sample) == ["sample.py:4 from .state import GameState"]


def test_modules_and_functions_stay_small():
    """Issue 12: no module in companion/ over ~400 lines, no function over ~60."""
    long_modules, long_functions = [], []
    for f in sorted(COMPANION.rglob("*.py")):
        text = f.read_text(encoding="utf-8")
        if len(text.splitlines()) > MODULE_LINES:
            long_modules.append(str(f.relative_to(COMPANION)))
        for fn in ast.walk(ast.parse(text)):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = fn.end_lineno - fn.lineno + 1
                if size > FUNCTION_LINES:
                    long_functions.append(f"{f.relative_to(COMPANION)}:{fn.name} ({size} lines)")
    assert long_modules == [] and long_functions == []


def test_every_task_name_has_one_handler_and_every_handler_a_name():
    """Saved games name tasks by these strings: each is written once (tasks.py) and handled once."""
    names = {v for k, v in vars(tasks).items() if k.isupper()}
    assert len(names) == len([k for k in vars(tasks) if k.isupper()])  # no two constants share a value
    assert names == set(HANDLERS)


def test_the_engine_reads_no_files():
    """The catalog comes in from the edges (cli, store, simulate, tests): the engine imports only its
    pure records and reward grammar, never the loader or the catalog in force."""
    graph = import_graph()
    used = {m for name, deps in graph.items() if name.startswith("companion.engine") for m in deps}
    assert {m for m in used if not m.startswith("companion.engine")} == {
        "companion.catalog.model", "companion.catalog.rewards", "companion.words"}
