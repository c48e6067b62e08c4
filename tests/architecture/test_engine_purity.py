"""DESIGN: the engine is pure rules: no web framework, no database, no clock, no global RNG. It must run
(set up a game and take decisions) in a fresh interpreter without pulling any of them in."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "companion" / "engine"
FORBIDDEN = ("flask", "sqlite_utils", "sqlite3", "jinja2", "werkzeug")

SCRIPT = r"""
import json, sys
import companion.engine as e
from companion.catalog import shipped_catalog
catalog = shipped_catalog()
for n in (1, 2, 3, 4):
    for draw in ("app", "table"):
        s = e.new_game(e.options_for(n, advanced=n % 2 == 0, priority_tile=n > 2, draw=draw), n, catalog)
        for _ in range(40):
            ps = e.pending(s)
            if not ps:
                break
            opts = [o for o in e.legal_actions(s, ps[0]["who"]) if o["available"]]
            if not opts:
                break
            e.apply(s, opts[0]["action"])
        e.state_from_dict(json.loads(json.dumps(s.to_dict())), catalog)
forbidden = FORBIDDEN
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in forbidden)))
"""


def test_engine_imports_no_web_or_database_modules(tmp_path):
    env = dict(os.environ, MESSINA_CATALOG=str(tmp_path / "absent.toml"))
    env.pop("PYTHONPATH", None)
    res = subprocess.run([sys.executable, "-c", SCRIPT.replace("FORBIDDEN", repr(FORBIDDEN))], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    loaded = json.loads(res.stdout.strip().splitlines()[-1])
    assert loaded == []


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_engine_sources_use_no_clock_no_global_rng_no_io_frameworks():
    """Chance lives in the state (draws.py, seeded) and nothing reads the clock, so a replay of the
    same actions gives the same game."""
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    banned = set(FORBIDDEN) | {"random", "time", "datetime", "secrets", "uuid"}
    for f in files:
        assert not _imports(f) & banned, (f.name, _imports(f) & banned)
