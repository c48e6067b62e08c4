"""A game's file proves itself: every row of its log is played again from the game's start, through the very
writes the store made it with (store/writes.py), in a scratch database in memory, and must arrive at exactly
the game the file records.

An act is played as a tap is: the option of the open question whose value is the file's pick (by its JSON,
so `true` is never taken for 1), refused by the engine as any tap would be; its words and whether it starts
an act must be the file's. An undo takes back the last acts as the store does (the host's, or a phone's own
one), and its note (what the table puts back, the log it took away) must be the file's. Then every undone
mark and the final state must be the file's. The first row that does not replay refuses the whole file, named
by its number, who and what; nothing is written outside the scratch database, which the resume then copies
(store/resume.py)."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlite_utils

from ..catalog import Catalog
from ..engine import GameMovedOn, IllegalAction, NotOnMenu, new_game
from ..engine.acts import HOST
from ..engine.events import who as seat_name
from ..engine.flow import decision_for
from ..engine.records import LogEntry
from ..engine.state import GameState
from ..words import Text
from .game_file import GameFile, Refused, Row
from .put_back import SaidAct, UndoNote
from .schema import migrations
from .writes import write_act, write_undo

SCRATCH = "replay"  # the game's id in the scratch database
log = logging.getLogger(__name__)


@dataclass
class Step:
    """One row as it replayed: the state after it, the words of an act and the log entries it added, or an
    undo's note. What `replay FILE` prints (resume/story.py)."""

    row: Row
    state: GameState
    said: SaidAct = field(default_factory=SaidAct)
    added: list[LogEntry] = field(default_factory=list)
    note: UndoNote | None = None


@dataclass
class Replayed:
    """The file's game, replayed: the scratch database holding its rows as the store wrote them, the state at
    its last version and the catalog it was played with."""

    db: sqlite_utils.Database
    state: GameState
    catalog: Catalog
    file: GameFile


def replay(file: GameFile, catalog: Catalog, heard: Callable[[Step], None] | None = None) -> Replayed:
    """Play the file's game again from its start (with `catalog`: the file's own, or for a format-1 file the
    catalog in force); Refused at the first row that does not replay, or when the end is not the file's."""
    db = sqlite_utils.Database(sqlite3.connect(":memory:"))
    migrations.apply(db)
    try:
        state = new_game(file.options, file.seed, catalog)
    except IllegalAction as exc:
        raise Refused(Text("The file's players cannot start a game: {reason}", reason=exc.reason), "options") from None
    db.execute("insert into games (id, created, options, seed, host_token, version) values (?, 0, ?, ?, '', 0)",
               [SCRATCH, json.dumps(file.options.to_dict()), file.seed])
    db.execute("insert into snapshots (game_id, version, state) values (?, 0, ?)",
               [SCRATCH, json.dumps(state.to_dict())])
    for row in file.rows:
        step = _played(db, row, state, catalog)
        state = step.state
        if heard is not None:
            heard(step)
    _undone_as_marked(db, file)
    if file.state is not None:
        where = first_difference(json.loads(json.dumps(state.to_dict())), file.state, "state")
        if where:
            raise Refused(Text("The file's game is not where its acts lead: {field} differs.", field=where), where)
    return Replayed(db, state, catalog, file)


def _played(db, row: Row, state: GameState, catalog: Catalog) -> Step:
    """One row played, or Refused naming it."""
    try:
        return _act(db, row, state) if row.kind == "act" else _undo(db, row, state, catalog)
    except Refused:
        raise
    except GameMovedOn:
        raise _refused(row, state, Text("the question it answers is not open at that point")) from None
    except NotOnMenu:
        raise _refused(row, state, Text("that choice is not on the menu at that point")) from None
    except IllegalAction as exc:
        raise _refused(row, state, Text("that choice is not possible at that point: {reason}",
                                        reason=exc.reason)) from None
    except Exception as exc:  # a file's own catalog may take the engine where no table's game goes: no 500
        log.warning("act %s of a game's file could not be replayed", row.version, exc_info=exc)
        raise _refused(row, state, Text("this companion cannot play it")) from None


def _act(db, row: Row, state: GameState) -> Step:
    action = row.action
    choice = _choice(state, action)
    kept = (row.act, "") if row.said == "" else None  # a row saved before acts had words keeps none
    written = write_act(db, SCRATCH, row.version - 1, state, action["who"], action["decision"], choice, row.via,
                        at=row.time, kept=kept)
    said: SaidAct = json.loads(written.said) if written.said else {}
    if isinstance(row.said, dict) and (said != row.said or written.opens != row.act):
        raise _refused(row, state, Text("the file's words for it are not what the game says"))
    return Step(row, written.state, said, written.log)


def _choice(state: GameState, action: dict) -> int:
    """The place on the open menu of the option whose value is the file's pick, compared as JSON."""
    found = decision_for(state, action["who"])
    if found is None:
        raise GameMovedOn("nothing to decide")
    pick = _canonical(action["pick"])
    for i, opt in enumerate(found[1]["options"]):
        if _canonical(opt["value"]) == pick:
            return i
    raise NotOnMenu("not on the menu")


def _undo(db, row: Row, state: GameState, catalog: Catalog) -> Step:
    note = row.action
    count = len(note["acts"]) if "acts" in note else len(note["undo"])
    seat = None if row.who == "host" else int(row.who)
    after, made = write_undo(db, SCRATCH, row.version - 1, state, catalog, count, seat, row.via, at=row.time)
    if made["undo"] != sorted(note["undo"]):
        raise _refused(row, state, Text("it takes back other acts than the file says"))
    # a note saved before notes said more than the versions is kept as the replay makes it now
    if "acts" in note and json.loads(json.dumps(made)) != note:
        raise _refused(row, state, Text("what the file says the table puts back is not what the game says"))
    return Step(row, after, note=made)


def _undone_as_marked(db, file: GameFile) -> None:
    """Every act the undos took back is marked undone in the file, and no other."""
    marks = dict(db.execute("select version, undone from actions where game_id = ?", [SCRATCH]).fetchall())
    for row in file.rows:
        if bool(marks[row.version]) != row.undone:
            message = (Text("Act {act} is marked undone, but no undo takes it back.",
                            act=row.version) if row.undone else
                       Text("Act {act} was taken back by an undo, but the file does not mark it undone.",
                            act=row.version))
            raise Refused(message, f"actions[{row.version - 1}].undone")


def _refused(row: Row, state: GameState, reason: str) -> Refused:
    """The first row that does not replay, said as the table knows it: its number, who and what."""
    who = row.action["who"] if row.kind == "act" else ("host" if row.who == "host" else int(row.who))
    name = HOST if who == "host" else seat_name(state, int(who))
    if row.kind == "undo":
        return Refused(Text("Undo {act} ({who}) does not replay: {reason}.", act=row.version, who=name, reason=reason),
                       f"act {row.version}")
    return Refused(Text("Act {act} ({who}: {what}) does not replay: {reason}.", act=row.version, who=name,
                        what=_what(row, state), reason=reason), f"act {row.version}")


def _what(row: Row, state: GameState) -> str:
    """The option as the menu words it, when the pick is on the menu; else the file's own words for it
    (shown as plain text, never as a template), else the question's number."""
    found = decision_for(state, row.action["who"])
    pick = _canonical(row.action["pick"])
    for opt in found[1]["options"] if found else []:
        if _canonical(opt["value"]) == pick:
            return opt["label"]
    label = row.said.get("label") if isinstance(row.said, dict) else None
    if isinstance(label, str) and shown(label):
        return shown(label)
    return Text("an answer to question {decision}", decision=row.action["decision"])


def shown(text: str, most: int = 80) -> str:
    """Text from a file, fit to be quoted in a message: printable characters only, and not too many."""
    return "".join(c for c in text[:most] if c.isprintable()).strip()


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def first_difference(mine, theirs, where: str) -> str:
    """The path of the first place where two JSON values differ ("state.seats[1].coins"), or ""."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            if key not in mine or key not in theirs:
                return f"{where}.{shown(key)}"
            found = first_difference(mine[key], theirs[key], f"{where}.{key}")
            if found:
                return found
        return ""
    if isinstance(mine, list) and isinstance(theirs, list):
        for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        return f"{where}[{min(len(mine), len(theirs))}]" if len(mine) != len(theirs) else ""
    return "" if type(mine) is type(theirs) and mine == theirs else where
