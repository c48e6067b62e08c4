"""Component catalog: every printed tile and board as validated, immutable data (docs/CATALOG.md)."""

from __future__ import annotations

from .families import COUNTS, FAMILIES, CatalogError
from .in_force import InForce, catalog_in_force, default_catalog, shipped_catalog
from .loader import catalog_from_json, catalog_from_records, load_catalog
from .model import Catalog
from .read import default_override_path
from .rewards import Bundle, GrammarError, Item, Need, Reward, parse_citizens, parse_cost, parse_reward

__all__ = [
    "COUNTS", "FAMILIES", "Catalog", "CatalogError", "InForce", "catalog_from_json", "catalog_from_records",
    "catalog_in_force", "default_catalog", "default_override_path", "load_catalog", "shipped_catalog",
    "Bundle", "GrammarError", "Item", "Need", "Reward", "parse_citizens", "parse_cost", "parse_reward",
]
