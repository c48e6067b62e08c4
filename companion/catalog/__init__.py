"""Component catalog: every printed tile and board as validated, immutable data (docs/CATALOG.md)."""

from __future__ import annotations

from functools import lru_cache

from .loader import COUNTS, FAMILIES, CatalogError, default_override_path, load_catalog
from .model import Catalog
from .rewards import Bundle, GrammarError, Item, Need, Reward, parse_citizens, parse_cost, parse_reward

__all__ = [
    "COUNTS", "FAMILIES", "Catalog", "CatalogError", "default_override_path", "load_catalog", "default_catalog",
    "Bundle", "GrammarError", "Item", "Need", "Reward", "parse_citizens", "parse_cost", "parse_reward",
]


@lru_cache(maxsize=4)
def _cached(path: str, stamp: float) -> Catalog:
    return load_catalog(path)


def default_catalog(override: str | None = None) -> Catalog:
    """The catalog with the table's override applied; reloaded when the override file changes."""
    path = default_override_path() if override is None else override
    from pathlib import Path

    p = Path(path)
    stamp = p.stat().st_mtime if p.exists() else 0.0
    return _cached(str(p), stamp)
