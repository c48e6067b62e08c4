"""The action log's two writes, as the Store makes them inside its transaction: an act (a menu's option
played) and an undo (whole acts taken back, replayed with the same seed). They stand apart from the Store
so that resuming a game from its file (store/replay.py) plays every row of the file through exactly these
writes, the ones that made it."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from ..catalog import Catalog
from ..engine import Action, apply, choose_action, state_from_dict
from ..engine.records import LogEntry
from ..engine.state import GameState
from ..engine.twin.told import Told
from .put_back import LastAct, UndoNote, act_columns, acts_to_undo, said_json, undo_note, with_action
from .told import recorder, told_json

SNAPSHOT_EVERY = 10


@dataclass
class Written:
    """An act as the log keeps it: the state after it, the action by value, whether it starts an act, its
    words (`said`, JSON) and the log entries it added."""

    state: GameState
    action: Action
    opens: int | None  # None: a row saved before acts were counted keeps none (kept)
    said: str
    log: list[LogEntry]
    kind: str | None  # the kind of question it answered
    told: list[Told]  # what it told the table (engine/twin/told.py)
    last_act: LastAct | None = None  # the live log's last act once it is written (store/put_back.py)


def rebuild(db, gid: str, version: int, catalog: Catalog) -> GameState:
    """The state at `version`: the last snapshot at or before it, then the live acts after it."""
    snap = db.execute("select version, state from snapshots where game_id = ? and version <= ? "
                      "order by version desc limit 1", [gid, version]).fetchone()
    state = state_from_dict(json.loads(snap[1]), catalog)
    for (action,) in db.execute("select action from actions where game_id = ? and version > ? and version <= ? "
                                "and kind = 'act' and undone = 0 order by version", [gid, snap[0], version]):
        apply(state, json.loads(action))
    return state


def write_act(db, gid: str, version: int, state: GameState, who: int | str, decision: int | None, choice: int,
              via: str, at: float | None = None, kept: tuple[int | None, str] | None = None) -> Written:
    """Play option `choice` of `who`'s menu on a copy of `state` (at `version`) and log it as version + 1.
    Raises GameMovedOn / NotOnMenu / IllegalAction (engine.choose_action) with nothing written. `at`: the
    row's time (now); `kept`: the act flag and words a row saved before acts had words keeps as it was."""
    action = choose_action(state, who, decision, choice)
    line, act, before = act_columns(db, gid, state, action)  # undo counts acts (engine/acts.py)
    opens: int | None = act
    work = state.clone()  # a refused action changes nothing
    recorder(work)  # what the move tells the table, as it comes (engine/twin/told.py)
    _, added = apply(work, action)
    told, items = told_json(state, work)
    new = version + 1
    said = said_json(line, state, work)
    if kept is not None:
        opens, said = kept
    db.execute("insert into actions (game_id, version, who, action, undone, kind, time, via, act, said, told) "
               "values (?, ?, ?, ?, 0, 'act', ?, ?, ?, ?, ?)",
               [gid, new, str(action["who"]), json.dumps(action), time.time() if at is None else at, via, opens,
                said, told])
    if new % SNAPSHOT_EVERY == 0:
        db.execute("insert into snapshots (game_id, version, state) values (?, ?, ?)",
                   [gid, new, json.dumps(work.to_dict())])
    return Written(work, action, opens, said, added, line.get("kind"), items,
                   with_action(before, new, str(action["who"]), opens, said))


def write_undo(db, gid: str, version: int, before: GameState, catalog: Catalog, count: int, seat: int | None,
               via: str, at: float | None = None) -> tuple[GameState, UndoNote]:
    """Take back the last `count` acts (a phone, `seat`: its own last one, store/put_back.py) of the game at
    `version` (whose state is `before`): marked undone, replayed with the same seed, so draws come out as
    before. The undo's row (version + 1) keeps the acts' words, what the table puts back and the log it took
    away. Gives the state after it and that note."""
    acts = acts_to_undo(db, gid, count, seat)
    live = sorted(v for act in acts for v in act["versions"])
    db.execute(f"update actions set undone = 1 where game_id = ? and version in ({','.join('?' * len(live))})",
               [gid, *live])
    db.execute("delete from snapshots where game_id = ? and version >= ?", [gid, min(live)])
    state = rebuild(db, gid, version, catalog)
    note = undo_note(live, before, state, [{"who": a["who"], "lines": a["lines"]} for a in acts])
    db.execute("insert into actions (game_id, version, who, action, undone, kind, time, via) "
               "values (?, ?, ?, ?, 0, 'undo', ?, ?)",
               [gid, version + 1, "host" if seat is None else str(seat), json.dumps(note),
                time.time() if at is None else at, via])
    return state, note
