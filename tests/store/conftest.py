"""The store room: games on disk (SQLite through sqlite-utils): consistent reads, the action log and undo,
deleting and pruning, a failing disk. `store` is a Store of its own on the test's folder, starting new games
with the shipped catalog."""

from __future__ import annotations

import pytest

from companion.catalog import default_catalog
from companion.store import Store


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "g.db", default_catalog())
