"""A game's file (game_file.py, format 2): everything another companion needs to replay the game
from its start and resume it where it stands, read at one moment of the database. It holds no secret: no
host key, seat link, join code or phone key ("via" says "phone 2" or "host")."""

from __future__ import annotations

import json
import time
from typing import Any, TypedDict

from ..engine.kinds import Action
from .game_file import FORMAT, KIND
from .parts import Part
from .put_back import UndoNote
from .ticks import Tick, ticks_of

ACTIONS = ("select version, who, via, kind, action, undone, time, act, said from actions where game_id = ? "
           "order by version")


class LoggedAction(TypedDict):
    """One row of the action log as the game's file lists it: an act (`action`: what was played) or an undo
    (`action`: its note); `act` says whether it starts an act, `said` keeps its words."""

    version: int
    who: str
    via: str
    kind: str
    action: Action | UndoNote
    undone: int
    time: float
    act: int
    said: dict[str, Any] | None


class CatalogKept(TypedDict):
    fingerprint: str
    records: str


class GameFileJson(TypedDict):
    """A game's file as written (the format game_file.py reads back)."""

    format: int
    kind: str
    game: str
    exported: float
    options: dict[str, Any]
    seed: int
    version: int
    catalog: CatalogKept
    actions: list[LoggedAction]
    ticks: list[Tick]
    state: dict[str, Any]


class Exports(Part):
    """The export's part of the Store (games.py), on its connections."""

    def game_file(self, gid: str) -> GameFileJson:
        """The whole game: options, seed, the catalog it started with, every action (undone ones marked,
        the undos' notes, each act's words), the host's ticks, and the state at its last version, which a
        replay must arrive at exactly."""
        with self._reading() as db:
            row = db.execute("select options, seed, version from games where id = ?", [gid]).fetchone()
            if row is None:
                raise self._missing(gid)
            options, seed, version = row
            actions = [_action(r) for r in db.execute(ACTIONS, [gid])]
            catalog = self.catalog_of(gid, db)
            cached = self._cache.get(gid)
            state = cached[1] if cached and cached[0] == version else self._rebuild(db, gid, version)
            ticks = ticks_of(db, gid)
        return {"format": FORMAT, "kind": KIND, "game": gid, "exported": time.time(), "options": json.loads(options),
                "seed": seed, "version": version,
                "catalog": {"fingerprint": catalog.fingerprint, "records": catalog.records_json},
                "actions": actions, "ticks": ticks, "state": state.to_dict()}

    def history(self, gid: str) -> list[LoggedAction]:
        """Every logged action, undone ones included, as the game's file lists them."""
        return [_action(r) for r in self._db().execute(ACTIONS, [gid])]


def _action(row: tuple) -> LoggedAction:
    version, who, via, kind, action, undone, at, act, said = row
    return {"version": version, "who": who, "via": via, "kind": kind, "action": json.loads(action), "undone": undone,
            "time": at, "act": act, "said": json.loads(said) if said else None}
