"""The TOML data files (and a table's override file) into a validated Catalog.

Two steps, so that a game can keep the catalog it started with: the files become plain records
(merged by id, companion/catalog/read.py), and records become a Catalog: each built by its family's
builder (build.py), then checked across families (checks.py). A game stores its records and is
rebuilt from them, never from the files as they are now (docs/CATALOG.md). Nothing half-valid is ever
returned: every problem is reported at once, with the file, the family and the record id.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path as FsPath
from types import MappingProxyType
from typing import Any

from ..words import Text
from . import model as m
from .build import build_record
from .checks import cross_checks, record_counts
from .families import FAMILIES, CatalogError, Records, file_of, record_id
from .problems import exception_text, in_file, in_record
from .read import DATA_DIR, default_override_path, merge_files, read_override, unknown_family


def load_catalog(override: str | os.PathLike | None = None, data_dir: FsPath = DATA_DIR) -> m.Catalog:
    """Load the defaults, replace records by id from `override` if that file exists, validate."""
    path = default_override_path() if override is None else FsPath(override)
    return catalog_from_files(path, read_override(path), data_dir)


def catalog_from_files(override: FsPath, data: bytes | None, data_dir: FsPath = DATA_DIR) -> m.Catalog:
    """The shipped files with the override's bytes (None: no override) merged in, validated."""
    records, origins = merge_files(override, data, data_dir)
    return catalog_from_records(records, origins)


def canonical_json(records: Mapping[str, Any]) -> str:
    """One text per catalog, no spaces, keys in the order the files give them: the engine walks some
    tables in that order (a layout's harbors, say), so a game rebuilt from its stored catalog after a
    restart must meet them in the same order, or its setup text and draws would change."""
    return json.dumps(records, separators=(",", ":"), ensure_ascii=False)


def catalog_from_json(text: str) -> m.Catalog:
    """A game's stored catalog (`Catalog.records_json`) built again."""
    try:
        records = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CatalogError([Text("a stored catalog is not readable: {error}", error=str(exc))]) from None
    return catalog_from_records(records)


def catalog_from_records(records: Mapping[str, Any], origins: Mapping[tuple[str, str], str] | None = None
                         ) -> m.Catalog:
    """Validate plain records (merged files, or a game's stored catalog) and build the Catalog.

    Each record first goes through JSON, exactly as a game stores it, so the catalog a game starts
    with and the one it is rebuilt with after a restart are built from the same values."""
    origins = dict(origins or {})
    if not isinstance(records, Mapping):
        raise CatalogError([Text("a catalog is a table of families, not {kind}", kind=type(records).__name__)])
    built = _Built(origins)
    built.problems += [unknown_family(family) for family in records if family not in FAMILIES]
    for family in FAMILIES:
        built.family(family, records.get(family, []))
    built.problems += record_counts(built.ids)
    if built.problems:
        raise CatalogError(built.problems)
    catalog = _catalog(built.objects, built.plain, origins)
    problems = cross_checks(catalog)
    if problems:
        raise CatalogError(problems)
    return catalog


class _Built:
    """Each family's records so far: built objects, plain records as a game stores them, every id seen
    (R-COMP-2 counts them), and each problem met on the way."""

    def __init__(self, origins: Mapping[tuple[str, str], str]):
        self.origins = origins
        self.objects: dict[str, dict[str, Any]] = {f: {} for f in FAMILIES}
        self.plain: Records = {f: [] for f in FAMILIES}
        self.ids: dict[str, set[str]] = {f: set() for f in FAMILIES}
        self.problems: list[str] = []

    def family(self, family: str, listed) -> None:
        """One family's records, each built by its builder; a duplicate id is built once."""
        if not isinstance(listed, list):
            self.problems.append(in_file(file_of(family), Text("{family} must be a list of records", family=family)))
            return
        for rec in listed:
            rid = record_id(rec, file_of(family), family, self.problems)
            if rid is None:
                continue
            where = self.origins.get((family, rid), file_of(family))
            if rid in self.ids[family]:
                self.problems.append(in_record(where, family, rid, Text("duplicate id")))
                continue
            self.ids[family].add(rid)
            try:
                rec = json.loads(json.dumps(rec, default=str))  # TOML dates become text, as stored
                self.objects[family][rid] = build_record(family, rec)
                self.plain[family].append(rec)
            except (ValueError, RecursionError) as exc:  # RecordError, or a value JSON cannot hold
                self.problems.append(in_record(where, family, rid, exception_text(exc)))


def _catalog(built: dict[str, dict[str, Any]], plain: Records, origins: Mapping[tuple[str, str], str]) -> m.Catalog:
    """The Catalog of built records, read-only, with the text a game stores and its fingerprint."""

    def ro(d):
        return MappingProxyType(dict(d))

    text = canonical_json(plain)
    return m.Catalog(
        hexes=ro(built["hex"]), harbors=ro(built["harbor"]), docks=ro(built["dock"]),
        docking_tiles=ro(built["docking_tile"]), layouts=ro(built["layout"]),
        wheel=tuple(built["wheel"].values()), round_info=ro(built["round_info"]),
        priority_tiles=ro(built["priority_tile"]), registers=ro(built["register"]),
        rat_table=next(iter(built["rat_table"].values())), boats=ro(built["boat"]),
        workshops=ro(built["workshop"]), improvements=ro(built["improvement"]), wagons=ro(built["wagon"]),
        solo_tiles=ro(built["solo_tile"]), boards=ro(built["board"]), scroll_boards=ro(built["scroll_board"]),
        origins=ro(origins), records_json=text, fingerprint=hashlib.sha256(text.encode()).hexdigest(),
    )
