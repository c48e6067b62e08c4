"""The catalog room: the component catalog (TOML -> records), a table's corrections, and the /catalog pages.
Every other room sees the shipped catalog only (tests/conftest.py points $MESSINA_CATALOG at no file); a
test here that corrects the catalog asks for `own_corrections`, so the corrections file of its instance
counts."""

from __future__ import annotations

import pytest


@pytest.fixture
def own_corrections(monkeypatch):
    """Corrections live in the instance's folder: the suite-wide $MESSINA_CATALOG is lifted."""
    monkeypatch.delenv("MESSINA_CATALOG", raising=False)
