"""The linter and the type checker find nothing in companion/ (issue 34 item 6): the same two commands .ci/run
runs before the tests, here so the everyday loop catches a finding too. Their rules live in pyproject.toml."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed (pip install -e '.[test]' brings it)")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_ruff_finds_nothing_in_companion():
    done = run("ruff", "check", "--no-cache", "companion")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_companion():
    """mypy keeps its cache in .mypy_cache (git ignores it), so a run after a small change takes seconds."""
    done = run("mypy", "companion")
    assert done.returncode == 0, done.stdout + done.stderr
