"""Each game's catalog: a game keeps the catalog it started with (stored once per fingerprint, built once
per process), whatever the corrections file says later."""

from __future__ import annotations

import time

from ..catalog import Catalog, catalog_from_json, shipped_catalog
from .parts import Part


class GameCatalogs(Part):
    """The catalogs' part of the Store (games.py), on its connections."""

    def _give_catalog(self, db, gid: str, catalog: Catalog) -> None:
        db.execute("insert or ignore into catalogs (fingerprint, records, created) values (?, ?, ?)",
                   [catalog.fingerprint, catalog.records_json, time.time()])
        db.execute("update games set catalog = ? where id = ?", [catalog.fingerprint, gid])
        self._catalogs.setdefault(catalog.fingerprint, catalog)

    def catalog_of(self, gid: str, db=None) -> Catalog:
        """The catalog this game started with, whatever the catalog files say now."""
        db = db or self._db()
        row = db.execute("select catalog from games where id = ?", [gid]).fetchone()
        if row is None:
            raise self._missing(gid)
        fingerprint = row[0]
        if fingerprint is None:  # only between m004 and _settle_older_games
            return shipped_catalog()
        catalog = self._catalogs.get(fingerprint)
        if catalog is None:
            (records,) = db.execute("select records from catalogs where fingerprint = ?", [fingerprint]).fetchone()
            catalog = self._catalogs[fingerprint] = catalog_from_json(records)
        return catalog

    def _settle_older_games(self, db) -> None:
        """Games started before games kept their catalog were played with the corrections file as it
        was at each move: they keep the catalog in force the first time this version opens them."""
        if db.execute("select 1 from games where catalog is null limit 1").fetchone() is None:
            return
        catalog = self._catalog_now()
        with self._immediate() as tx:
            for (gid,) in tx.execute("select id from games where catalog is null").fetchall():
                self._give_catalog(tx, gid, catalog)
