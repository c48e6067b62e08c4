"""The browser room: end-to-end tests in Debian's headless Chromium driven by Playwright, against a real
`serve` (tests/server.py). A test that needs the browser skips where chromium or playwright is missing, and
fails instead under CI (test_browser._need_browser). Every test here is marked slow."""

from __future__ import annotations

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, _need_browser


@pytest.fixture
def srv(tmp_path):
    """A real server of its own for the test (its games file in the test's folder)."""
    _need_browser()
    with Server(tmp_path) as server:
        yield server


@pytest.fixture
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright  # here: a machine without it skips, not fails to collect

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
