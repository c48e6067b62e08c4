"""The web room: the Flask app through its test client (tests/conftest.py's `app`, `client`, `game`, `phone`):
routes, forms, refusals, translations on every screen, the score sheet. `sheet_client` is one app shared by a
module's many score-sheet requests (no game is stored by them), answering as in production: a crash is a
500, never an exception in the test."""

from __future__ import annotations

import pytest

from tables import app_on


@pytest.fixture(scope="module")
def sheet_client(tmp_path_factory):
    return app_on(tmp_path_factory.mktemp("sheets"), TESTING=False).test_client()
