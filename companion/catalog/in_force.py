"""Which catalog new games start with now: the table's corrections when they are valid, otherwise the
shipped catalog, with the problems that keep the corrections out (docs/CATALOG.md).

The file is read again on every question (it is small) and loaded once per content, so a correction made
while the server runs counts for the next new game, and a broken one is reported at once, without a restart. A game in
progress never asks: it keeps the catalog it started with (companion/store/).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .families import CatalogError
from .loader import catalog_from_files
from .model import Catalog
from .read import default_override_path, read_override


@dataclass(frozen=True)
class InForce:
    """The answer to "what would a new game start with now, and why not the corrections?"."""

    catalog: Catalog  # what a new game starts with
    override: Path  # the corrections file looked at
    corrected: bool  # that file exists and its corrections are in `catalog`
    problems: tuple[str, ...] = ()  # why that file is not in force: Texts naming file, record and problem


def catalog_in_force(override: str | os.PathLike | None = None) -> InForce:
    path = default_override_path() if override is None else Path(override)
    try:
        data = read_override(path)
    except CatalogError as exc:
        return InForce(shipped_catalog(), path, False, tuple(exc.problems))
    return settled(str(path), data)


@lru_cache(maxsize=8)
def settled(path: str, data: bytes | None) -> InForce:
    """What a corrections file's content makes, loaded once per content (the /catalog pages' changes check
    theirs here too), so asking again costs one small read."""
    if data is None:
        return InForce(shipped_catalog(), Path(path), False)
    try:
        return InForce(catalog_from_files(Path(path), data), Path(path), True)
    except CatalogError as exc:
        return InForce(shipped_catalog(), Path(path), False, tuple(exc.problems))


@lru_cache(maxsize=1)
def shipped_catalog() -> Catalog:
    """The catalog as shipped, with no corrections."""
    return catalog_from_files(Path("no override"), None)


def default_catalog(override: str | os.PathLike | None = None) -> Catalog:
    """The catalog in force: the table's corrections applied, or the shipped catalog while they are broken."""
    return catalog_in_force(override).catalog
