"""The Store: games, the action log and undo. Its other parts stand beside it: the seats and their phones
(seats.py), each game's catalog (catalogs.py), deleting and pruning (deleting.py), the host's ticks
(ticks.py), undo's reads (put_back.py), connections and transactions (connection.py), the log's two writes
(writes.py), a game's file written (export.py), proved by its replay (replay.py) and resumed (resume.py).

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
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, cast

from ..catalog import Catalog, default_catalog
from ..engine import GameMovedOn, new_game
from ..engine.state import GameState, Options
from ..faults import StartupError
from .catalogs import GameCatalogs
from .codes import give_codes
from .connection import Connections
from .deleting import Deleting
from .disk import check_database
from .export import Exports
from .game_file import GameFile
from .put_back import LastAct, Undo, UndoReads, acted, latest_act, undos_of
from .recent import CACHE_GAMES, RecentGames
from .replay import replay
from .resume import Resuming
from .schema import migrations
from .seats import Glance, Seats, token
from .ticks import Ticks
from .told import StepReplays, ToldMove, told_of, with_move
from .tries import Tries
from .writes import rebuild, write_act, write_undo

ID_ATTEMPTS = 5  # a new game's id is drawn again if it is taken (64 bits: in practice never)


class Stale(Exception):
    """The action was made against an older version of the game."""


class NotFound(Exception):
    pass


class Deleted(NotFound):
    """The game (or the seat's game) was deleted by its host or by `prune`."""


@dataclass
class Game:
    """A game at one version: its state, every undo's note (store/put_back.py: what the table puts back
    and the log it took away, the last one with who has acted since), what the recent moves told the
    table (store/told.py) and the live log's last act (a phone's own undo), read at the same moment."""

    id: str
    version: int
    state: GameState
    host_token: str
    undos: list[Undo] = field(default_factory=list)
    told: list[ToldMove] = field(default_factory=list)
    last_act: LastAct | None = None


# what a game carries beside its state (Game's last three fields), kept with it in memory
Notes = tuple[list[Undo], list[ToldMove], LastAct | None]


class GameRow(TypedDict):
    """A game's row: when it was made, its options (JSON), seed, host key, version, its catalog's fingerprint
    (None: a game saved before games kept one) and how often its checklists were ticked."""

    id: str
    created: float
    options: str
    seed: int
    host_token: str
    version: int
    catalog: str | None
    ticked: int


class GameListed(TypedDict):
    """A game as the list of games shows it (Store.games)."""

    id: str
    created: float
    options: str
    version: int


class HostGlance(Glance):
    """What a host screen's question compares (Store.glance): the game's version and key, how often its seats
    were taken by a phone and its checklists ticked."""

    game_id: str
    ticked: int
    joins: int


def new_game_id() -> str:
    """64 random bits: nobody finds a game by guessing its number, and two games never share one."""
    return secrets.token_hex(8)


class Store(Connections, Seats, GameCatalogs, Deleting, Ticks, Tries, UndoReads, Exports, Resuming, StepReplays):
    def __init__(self, path: str | Path, catalog: Catalog | Callable[[], Catalog] | None = None,
                 cache_games: int = CACHE_GAMES):
        """`catalog`: what new games start with, fixed or asked anew for each game (default: the
        catalog in force, companion/catalog/in_force.py). A game in progress only ever uses its own."""
        super().__init__(str(path))
        catalog = default_catalog if catalog is None else catalog
        self._catalog_now = catalog if callable(catalog) else lambda: catalog
        self._catalogs: dict[str, Catalog] = {}  # games' catalogs by fingerprint, each built once
        self._cache = RecentGames(cache_games)
        self._moments: dict = {}  # the table at each step of the checklists being worked through (told.py)
        self._moments_lock = threading.Lock()
        self.on_move: list = []  # each called (game id, new version) after every commit that moves a game on
        self.on_look_again: list = []  # each called (game id) when its screens must look again though the game
        # did not move: a seat taken by another phone, a tick (companion/news.py)
        check_database(self.path)
        try:
            db = self._db()
            db.enable_wal()
            migrations.apply(db)
        except sqlite3.Error as exc:
            raise StartupError(f"Cannot open the games file {self.path}: {exc}. Check that its folder exists and "
                               "that the companion may write there (and that the disk is not full).") from None
        self._settle_older_games(db)

    def _one(self, sql: str, params: list, missing: str) -> dict:  # any table's row: its caller names it
        rows = self._rows(sql, params)
        if not rows:
            raise self._missing(missing)
        return rows[0]

    def _missing(self, key: str) -> NotFound:
        """Not found; `Deleted` when the host deleted it, so its screens can say so instead of "no such"."""
        gone = self._db().execute("select 1 from deleted where key = ?", [key]).fetchone()
        return Deleted(key) if gone else NotFound(key)

    # --- games -----------------------------------------------------------------------------------

    def create(self, options: Options, seed: int | None = None) -> Game:
        seed = secrets.randbelow(2**31) if seed is None else seed
        state = new_game(options, seed, self._catalog_now())
        host = token()
        gid = self._new_id(lambda gid: self._insert_game(gid, options, seed, host, state))
        self._cache.put(gid, 0, state, ([], [], None))
        return Game(gid, 0, state, host)

    def resume(self, file: GameFile) -> Game:
        """A game from its file (game_file.py), proved by replaying it (store/replay.py; Refused
        naming the first act that does not replay, and nothing written), then written in one transaction as a
        new game: a new id, host key, seat links and codes, so no link of the machine it came from works here.
        Its log, undos' notes, ticks and catalog come along."""
        replayed = replay(file, file.catalog or self._catalog_now())
        host = token()
        gid = self._new_id(lambda gid: self._write_resumed(replayed, gid, host))
        with self._reading() as db:
            notes = _notes(db, gid)
        self._cache.put(gid, file.version, replayed.state, notes)
        return Game(gid, file.version, replayed.state, host, *notes)

    def _new_id(self, write: Callable[[str], None]) -> str:
        """A new game's id, written by `write` (one transaction); drawn again if it is taken."""
        for _ in range(ID_ATTEMPTS - 1):
            gid = new_game_id()
            try:
                write(gid)
                return gid
            except sqlite3.IntegrityError:  # the id (or a seat's link) is taken: draw again
                continue
        gid = new_game_id()
        write(gid)  # the last try: whatever fails now is said as it is
        return gid

    def _insert_game(self, gid: str, options: Options, seed: int, host: str, state: GameState) -> None:
        with self._immediate() as db:
            self._game_rows(db, gid, options, seed, host, state.catalog)
            db.execute("insert into snapshots (game_id, version, state) values (?, 0, ?)",
                       [gid, json.dumps(state.to_dict())])

    def _game_rows(self, db, gid: str, options: Options, seed: int, host: str, catalog: Catalog,
                   version: int = 0) -> None:
        """A new game's row, its catalog, and its seats with new links and codes (nobody has joined)."""
        db.execute("insert into games (id, created, options, seed, host_token, version) values (?, ?, ?, ?, ?, ?)",
                   [gid, time.time(), json.dumps(options.to_dict()), seed, host, version])
        self._give_catalog(db, gid, catalog)
        for i in range(options.count):
            db.execute("insert into seats (game_id, seat, token, device, joined) values (?, ?, ?, '', 0)",
                       [gid, i, token()])
        give_codes(db, gid)

    def games(self) -> list[GameListed]:
        return cast(list[GameListed], self._rows("select id, created, options, version from games "
                                                 "order by created desc"))

    def row(self, gid: str) -> GameRow:
        return cast(GameRow, self._one("select * from games where id = ?", [gid], gid))

    def glance(self, gid: str) -> HostGlance:
        """What a host screen's question compares, in one read: the game's `version`, its `host_token`, how many
        times its seats were taken by a phone (`joins`) and its checklists ticked (`ticked`); with `load(gid,
        glance)` a game kept in memory at that version costs no more."""
        return cast(HostGlance, self._one("select id as game_id, version, host_token, ticked, (select coalesce("
                                          "sum(phone), 0) from seats where game_id = games.id) as joins from games "
                                          "where id = ?", [gid], gid))

    def version(self, gid: str) -> int:
        """The near-free "anything new?" answer."""
        row = self._db().execute("select version from games where id = ?", [gid]).fetchone()
        if row is None:
            raise self._missing(gid)
        return row[0]

    # --- state -----------------------------------------------------------------------------------

    def load(self, gid: str, glance: Glance | None = None) -> Game:
        """The game as of its latest commit: the version, the state and the undos' notes come from one
        moment of the database (a game kept in memory is kept with its notes, by version), so an undo
        committed meanwhile can never mislabel the state. `glance`: the game's version and host key as just
        read (`glance`, `seat_glance`), so a game kept in memory at that version is read no further."""
        row = ((glance["version"], glance["host_token"]) if glance else
               self._db().execute("select version, host_token from games where id = ?", [gid]).fetchone())
        cached = self._cache.get(gid)
        if row is not None and cached and cached[0] == row[0]:  # one read: the version is all that can differ
            return Game(gid, row[0], cached[1], row[1], *cached[2])
        with self._reading() as db:
            row = db.execute("select version, host_token from games where id = ?", [gid]).fetchone()
            if row is None:
                raise self._missing(gid)
            version, host = row
            state, notes = self._rebuild(db, gid, version), _notes(db, gid)
        self._cache.put(gid, version, state, notes)
        return Game(gid, version, state, host, *notes)

    def _rebuild(self, db, gid: str, version: int) -> GameState:
        return rebuild(db, gid, version, self.catalog_of(gid, db))

    @contextmanager
    def _write(self, gid: str, seen_version: int):
        """One write transaction guarded by the version the screen showed; the game's version moves on
        by one when it commits, and nothing is written when anything in it fails. Gives the database,
        the version and the host's key."""
        with self._immediate() as db:
            row = db.execute("select version, host_token from games where id = ?", [gid]).fetchone()
            if row is None:
                raise self._missing(gid)
            if row[0] != seen_version:
                raise Stale(f"the game moved on (version {row[0]}, you saw {seen_version})")
            yield db, row[0], row[1]
            db.execute("update games set version = ? where id = ?", [row[0] + 1, gid])
        for hear in self.on_move:
            hear(gid, row[0] + 1)

    def _as_of(self, db, gid: str, version: int) -> tuple[GameState, Notes]:
        """The state and its notes (undos', moves told) at `version` inside a transaction: kept in memory, else
        rebuilt."""
        cached = self._cache.get(gid)
        if cached and cached[0] == version:
            return cached[1], cached[2]
        return self._rebuild(db, gid, version), _notes(db, gid)

    def act(self, gid: str, seen_version: int, who: int | str, decision: int | None, choice: int,
            via: str = "") -> Game:
        """Play option number `choice` of the menu `who` was shown for question `decision`, if the game is
        still at `seen_version`; all or nothing. Raises Stale when the game moved on (another version, or
        that question is no longer open) and IllegalAction with the reason (and rule) for an option that
        is not on the menu or not possible. The log keeps the option's value (engine.choose_action), so a
        game replays whatever its menus' order. `via` names who sent it ("phone 2", "host"): never a
        secret, so the export can show it. Returns the game it wrote, for the screens to draw: a tap
        reads the game once and writes it once."""
        with self._write(gid, seen_version) as (db, version, host):
            state, (undos, recent, _last) = self._as_of(db, gid, version)
            try:
                written = write_act(db, gid, version, state, who, decision, choice, via)
            except GameMovedOn as exc:
                raise Stale(exc.reason) from exc
            notes = (acted(undos, str(written.action["who"])),
                     with_move(recent, version + 1, str(written.action["who"]), written.kind, written.told),
                     written.last_act)
        self._cache.put(gid, version + 1, written.state, notes)
        return Game(gid, version + 1, written.state, host, *notes)

    def undo(self, gid: str, seen_version: int, count: int = 1, seat: int | None = None, via: str = "host") -> Game:
        """Take back the last `count` acts (a phone, `seat`: its own last one, store/put_back.py): marked undone,
        replayed with the same seed (draws come out as before); the undo's row keeps the acts' words, what
        the table puts back and the log it took away."""
        with self._write(gid, seen_version) as (db, version, host):
            before, _ = self._as_of(db, gid, version)
            state, _ = write_undo(db, gid, version, before, self.catalog_of(gid, db), count, seat, via)
            notes = _notes(db, gid)
        self._cache.put(gid, version + 1, state, notes)
        return Game(gid, version + 1, state, host, *notes)


def _notes(db, gid: str) -> Notes:
    """What a game carries beside its state, read in the same transaction: the undos' notes, the recent moves'
    lines and the live log's last act."""
    return undos_of(db, gid), told_of(db, gid), latest_act(db, gid)
