"""Games on disk: SQLite through sqlite-utils, in WAL mode, in `instance/`.

The action log is the truth: a game's state is its last snapshot plus a replay of the actions after
it, so a killed server loses nothing that was committed and undo is a replay without the undone
actions (the seed is in the state, so a replay never re-rolls a draw). Each write checks the version
the player saw: two phones tapping at once, one wins and the other hears "the game moved on".
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils
from sqlite_utils.migrations import Migrations

from .engine import IllegalAction, apply, new_game, state_from_dict
from .engine.state import GameState, Options

SNAPSHOT_EVERY = 10
migrations = Migrations("companion")


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    db["games"].create({"id": str, "created": float, "options": str, "seed": int, "host_token": str,
                        "version": int}, pk="id")
    db["seats"].create({"game_id": str, "seat": int, "token": str, "device": str, "joined": float},
                       pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
    db["seats"].create_index(["token"], unique=True)
    db["actions"].create({"game_id": str, "version": int, "who": str, "action": str, "undone": int,
                          "kind": str, "time": float}, pk=("game_id", "version"),
                         foreign_keys=[("game_id", "games", "id")])
    db["snapshots"].create({"game_id": str, "version": int, "state": str}, pk=("game_id", "version"),
                           foreign_keys=[("game_id", "games", "id")])


@migrations()
def m003_phones(db: sqlite_utils.Database) -> None:
    """Which phone: a seat counts the phones it has been on (a scan on another phone makes the next one),
    and each action keeps who sent it ("phone 2", "host"), so two phones of one seat can be told apart."""
    db["seats"].add_column("phone", int, not_null_default=0)
    db.execute("update seats set phone = 1 where device != ''")
    db["actions"].add_column("via", str, not_null_default="")


class Stale(Exception):
    """The action was made against an older version of the game."""


class NotFound(Exception):
    pass


@dataclass
class Game:
    id: str
    version: int
    state: GameState
    host_token: str


def token() -> str:
    """Secret tokens: 128 bits from `secrets`, URL-safe."""
    return secrets.token_urlsafe(16)


class Store:
    def __init__(self, path: str | Path, catalog=None):
        self.path = str(path)
        self.catalog = catalog
        self._cache: dict[str, tuple[int, GameState]] = {}
        self._local = threading.local()
        self.listeners: list = []  # told (game id, new version) after every commit that moves a game on
        db = self._db()
        db.enable_wal()
        migrations.apply(db)

    def _db(self) -> sqlite_utils.Database:
        """One connection per server thread, kept open: a "anything new?" poll costs one indexed read."""
        db = getattr(self._local, "db", None)
        if db is None:
            conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 10000")
            db = self._local.db = sqlite_utils.Database(conn)
        return db

    def _rows(self, sql: str, params: list | None = None) -> list[dict]:
        return list(self._db().query(sql, params or []))

    def _one(self, sql: str, params: list, missing: str) -> dict:
        rows = self._rows(sql, params)
        if not rows:
            raise NotFound(missing)
        return rows[0]

    # --- games -----------------------------------------------------------------------------------

    def create(self, options: Options, seed: int | None = None) -> Game:
        seed = secrets.randbelow(2**31) if seed is None else seed
        state = new_game(options, seed, self.catalog)
        gid = secrets.token_hex(4)
        host = token()
        with self._immediate() as db:
            db.execute("insert into games (id, created, options, seed, host_token, version) values (?, ?, ?, ?, ?, 0)",
                       [gid, time.time(), json.dumps(options.to_dict()), seed, host])
            for i in range(options.count):
                db.execute("insert into seats (game_id, seat, token, device, joined) values (?, ?, ?, '', 0)",
                           [gid, i, token()])
            db.execute("insert into snapshots (game_id, version, state) values (?, 0, ?)",
                       [gid, json.dumps(state.to_dict())])
        self._cache[gid] = (0, state)
        return Game(gid, 0, state, host)

    def games(self) -> list[dict]:
        return self._rows("select id, created, options, version from games order by created desc")

    def row(self, gid: str) -> dict:
        return self._one("select * from games where id = ?", [gid], gid)

    def version(self, gid: str) -> int:
        """The near-free "anything new?" answer."""
        row = self._db().execute("select version from games where id = ?", [gid]).fetchone()
        if row is None:
            raise NotFound(gid)
        return row[0]

    def seats(self, gid: str) -> list[dict]:
        return self._rows("select * from seats where game_id = ? order by seat", [gid])

    def seat_by_token(self, tok: str) -> dict:
        return self._one("select * from seats where token = ?", [tok], "seat")

    def join(self, tok: str) -> tuple[dict, str]:
        """A phone scanned a seat's code: it becomes that seat's device (moving it from any other) and
        the seat's next phone number."""
        seat = self.seat_by_token(tok)
        device = token()
        with self._immediate() as db:
            where = [seat["game_id"], seat["seat"]]
            db.execute("update seats set device = ?, joined = ?, phone = phone + 1 where game_id = ? and seat = ?",
                       [device, time.time(), *where])
            seat = self._rows("select * from seats where game_id = ? and seat = ?", where)[0]
        return seat, device

    # --- state -----------------------------------------------------------------------------------

    def load(self, gid: str) -> Game:
        row = self.row(gid)
        cached = self._cache.get(gid)
        if cached and cached[0] == row["version"]:
            return Game(gid, row["version"], cached[1], row["host_token"])
        db = self._db()
        state = self._rebuild(db, gid, row["version"])
        self._cache[gid] = (row["version"], state)
        return Game(gid, row["version"], state, row["host_token"])

    def _rebuild(self, db, gid: str, version: int) -> GameState:
        snap = db.execute("select version, state from snapshots where game_id = ? and version <= ? "
                          "order by version desc limit 1", [gid, version]).fetchone()
        state = state_from_dict(json.loads(snap[1]), self.catalog)
        for (action,) in db.execute("select action from actions where game_id = ? and version > ? and version <= ? "
                                    "and kind = 'act' and undone = 0 order by version", [gid, snap[0], version]):
            apply(state, json.loads(action))
        return state

    @contextmanager
    def _immediate(self):
        """A write transaction that takes the write lock up front, so a busy database makes it wait
        (busy_timeout) instead of failing halfway with "database is locked"."""
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @contextmanager
    def _write(self, gid: str, seen_version: int):
        """One write transaction guarded by the version the screen showed; the game's version moves on
        by one when it commits, and nothing is written when anything in it fails."""
        with self._immediate() as db:
            row = db.execute("select version from games where id = ?", [gid]).fetchone()
            if row is None:
                raise NotFound(gid)
            if row[0] != seen_version:
                raise Stale(f"the game moved on (version {row[0]}, you saw {seen_version})")
            yield db, row[0]
            db.execute("update games set version = ? where id = ?", [row[0] + 1, gid])
        for hear in self.listeners:
            hear(gid, row[0] + 1)

    def act(self, gid: str, seen_version: int, action: dict, via: str = "") -> Game:
        """Apply one menu choice if the game is still at `seen_version`; all or nothing. `via` names who
        sent it ("phone 2", "host"): never a secret, so the export can show it."""
        with self._write(gid, seen_version) as (db, version):
            cached = self._cache.get(gid)
            state = cached[1] if cached and cached[0] == version else self._rebuild(db, gid, version)
            work = state_from_dict(state.to_dict(), self.catalog)  # a refused action changes nothing
            apply(work, action)
            new = version + 1
            db["actions"].insert({"game_id": gid, "version": new, "who": str(action["who"]),
                                  "action": json.dumps(action), "undone": 0, "kind": "act", "time": time.time(),
                                  "via": via})
            if new % SNAPSHOT_EVERY == 0:
                db["snapshots"].insert({"game_id": gid, "version": new, "state": json.dumps(work.to_dict())})
        self._cache[gid] = (new, work)
        return Game(gid, new, work, "")

    def undo(self, gid: str, seen_version: int, count: int = 1) -> Game:
        """Take back the last `count` actions. The log keeps them (marked undone); the replay uses the
        same seed, so every draw comes out as before (ANCHORS: undo never re-rolls)."""
        with self._write(gid, seen_version) as (db, version):
            live = [v for (v,) in db.execute("select version from actions where game_id = ? and kind = 'act' "
                                             "and undone = 0 order by version desc limit ?", [gid, count])]
            if not live:
                raise IllegalAction("there is nothing to undo")
            for v in live:
                db.execute("update actions set undone = 1 where game_id = ? and version = ?", [gid, v])
            db.execute("delete from snapshots where game_id = ? and version >= ?", [gid, min(live)])
            new = version + 1
            db["actions"].insert({"game_id": gid, "version": new, "who": "host",
                                  "action": json.dumps({"undo": sorted(live)}), "undone": 0, "kind": "undo",
                                  "time": time.time(), "via": "host"})
            state = self._rebuild(db, gid, new)
        self._cache[gid] = (new, state)
        return Game(gid, new, state, "")

    def history(self, gid: str) -> list[dict]:
        """Every logged action, undone ones included (a whole game in one export)."""
        return [{**r, "action": json.loads(r["action"])} for r in
                self._db().query("select version, who, via, kind, action, undone, time from actions "
                                 "where game_id = ? order by version", [gid])]
