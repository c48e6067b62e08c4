"""The catalog a request works with, looked up once per request: what new games start with now (the
corrections in force, or the shipped catalog and the problems that keep the corrections out), and the
corrections' records as plain values. Both are loaded once per content of the corrections file
(catalog/in_force.py, catalog/corrections.py), so a page costs one small read of the file and no load.

`notice` is what the host screen's and the front page's catalog notice shows (templates/host/_catalog_notice.html
is given it and reads nothing itself)."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from flask import current_app, g

from ..catalog import CatalogError, InForce, catalog_in_force
from ..catalog.corrections import Corrections, shipped_record
from ..catalog.families import Records
from ..catalog.model import Catalog


class GameCatalog(TypedDict):
    """A game's catalog on its host screen: how much of it is checked, and whether new games start with another."""

    checked: int
    total: int
    fingerprint: str  # its first 12 characters
    changed: bool


class Notice(TypedDict):
    problems: tuple[str, ...]  # why the corrections are not in force
    override: Path  # the corrections file looked at
    corrected: bool
    game: GameCatalog | None  # on a host screen


def corrections() -> Corrections:
    return Corrections(current_app.extensions["catalog_file"])


def now() -> InForce:
    """The catalog in force for this request (the same answer for every question the request asks)."""
    if "catalog_now" not in g:
        g.catalog_now = catalog_in_force(current_app.extensions["catalog_file"])
    return g.catalog_now


def records() -> Records:
    """The corrections in force as plain records (none while the file is broken: the shipped ones rule)."""
    if not now().corrected:
        return {}
    try:
        return corrections().records()
    except CatalogError:  # broken since `now` was read: the next page names its problems
        return {}


def plain():
    """A lookup of each record in force as plain values, the table's correction before the shipped one."""
    corrected = {(family, rec["id"]): rec for family, recs in records().items() for rec in recs}
    return lambda family, rid: corrected.get((family, rid)) or shipped_record(family, rid)


def notice(game_catalog: Catalog | None = None) -> Notice:
    """What the catalog notice says: the corrections' problems, whether they are in force, and, on a host
    screen, whether the game's catalog is still the one new games start with and how much of it is checked."""
    force = now()
    out: Notice = {"problems": force.problems, "override": force.override, "corrected": force.corrected, "game": None}
    if game_catalog is not None:
        sources = game_catalog.sources()
        out["game"] = {"checked": sources["checked"], "total": sum(sources.values()),
                       "fingerprint": game_catalog.fingerprint[:12],
                       "changed": game_catalog.fingerprint != force.catalog.fingerprint}
    return out
