"""Shared fixtures: the shipped catalog, isolated from any table's override file."""

from __future__ import annotations

import pytest

from companion.catalog import load_catalog


@pytest.fixture(scope="session", autouse=True)
def _no_table_override(tmp_path_factory):
    """Every test sees the default catalog: point MESSINA_CATALOG at a file that does not exist, so a
    developer's instance/catalog.toml never changes a result (docs/CATALOG.md, "Correcting a value").
    Session-scoped so hypothesis tests accept it."""
    mp = pytest.MonkeyPatch()
    mp.setenv("MESSINA_CATALOG", str(tmp_path_factory.mktemp("no-override") / "absent.toml"))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def catalog(tmp_path_factory):
    """The default catalog, loaded with an override path that does not exist."""
    return load_catalog(override=tmp_path_factory.mktemp("catalog") / "absent.toml")
