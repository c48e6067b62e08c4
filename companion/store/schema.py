"""The games file's tables, one migration per change: an older file is brought up to date when the
companion opens it, and nothing already saved is rewritten."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils.migrations import Migrations

from .codes import give_codes

migrations = Migrations("companion")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    db.table("games").create({"id": str, "created": float, "options": str, "seed": int, "host_token": str,
                        "version": int}, pk="id")
    db.table("seats").create({"game_id": str, "seat": int, "token": str, "device": str, "joined": float},
                       pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
    db.table("seats").create_index(["token"], unique=True)
    db.table("actions").create({"game_id": str, "version": int, "who": str, "action": str, "undone": int,
                          "kind": str, "time": float}, pk=("game_id", "version"),
                         foreign_keys=[("game_id", "games", "id")])
    db.table("snapshots").create({"game_id": str, "version": int, "state": str}, pk=("game_id", "version"),
                           foreign_keys=[("game_id", "games", "id")])


@migrations()
def m002_deleted(db: sqlite_utils.Database) -> None:
    """What the host deleted (the game's id and its seats' links), so those screens can say so."""
    db.table("deleted").create({"key": str, "time": float}, pk="key")


@migrations()
def m003_phones(db: sqlite_utils.Database) -> None:
    """Which phone: a seat counts the phones it has been on (a scan on another phone makes the next one),
    and each action keeps who sent it ("phone 2", "host"), so two phones of one seat can be told apart."""
    db.table("seats").add_column("phone", int, not_null_default=0)
    db.execute("update seats set phone = 1 where device != ''")
    db.table("actions").add_column("via", str, not_null_default="")


@migrations()
def m004_game_catalog(db: sqlite_utils.Database) -> None:
    """A game keeps the catalog it started with: each catalog's records stored once, by fingerprint."""
    db.table("catalogs").create({"fingerprint": str, "records": str, "created": float}, pk="fingerprint")
    db.execute("alter table games add column catalog text references catalogs(fingerprint)")


@migrations()
def m005_join_codes(db: sqlite_utils.Database) -> None:
    """A short code per seat to type on /join (store/codes.py), unique among the games on the server;
    the seats of games already saved get theirs now."""
    db.table("seats").add_column("code", str, not_null_default="")
    give_codes(db)
    db.execute("create unique index seats_code on seats (code) where code != ''")


@migrations()
def m006_ticks(db: sqlite_utils.Database) -> None:
    """The host's ticks on the setup and upkeep checklists, kept with the game (store/ticks.py): a tick is no
    move of the game, so it has its own table and its own counter (`games.ticked`), never the version."""
    db.table("ticks").create({"game_id": str, "list": str, "step": int, "words": str, "time": float},
                       pk=("game_id", "list", "step"), foreign_keys=[("game_id", "games", "id")])
    db.table("games").add_column("ticked", int, not_null_default=0)


@migrations()
def m007_acts(db: sqlite_utils.Database) -> None:
    """Undo counts a player's acts, not the steps of one (engine/acts.py): each action row says whether it
    starts an act (`act`) and keeps its words (`said`, JSON) for the undo's preview. Rows saved before count
    as an act each, as undo counted them then, and say nothing more."""
    db.table("actions").add_column("act", int, not_null_default=1)
    db.table("actions").add_column("said", str, not_null_default="")


@migrations()
def m008_told(db: sqlite_utils.Database) -> None:
    """What the table was told after each move (engine/twin/told.py): the steps written by hand and the twin's
    line for every other difference, in order (`told`, JSON), for the host's moment, the checklists and the
    phones. Rows saved before tell nothing more than their log."""
    db.table("actions").add_column("told", str, not_null_default="")


@migrations()
def m009_tries(db: sqlite_utils.Database) -> None:
    """What the per-device limits count (store/tries.py: new games, join codes tried), kept where every
    worker process of `serve` sees the same count and a restarted one forgets nothing."""
    db.table("tries").create({"kind": str, "who": str, "time": float})
    db.table("tries").create_index(["kind", "who", "time"])
