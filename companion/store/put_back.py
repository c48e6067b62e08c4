"""What an undo leaves for the table: the instruction to put pieces back and the log entries it took away,
kept with the undo's row of the action log (its `action`), so a restart loses neither.

The screen changes at once; the pieces on the table do not. engine/put_back/ says what differs; this
module only stores it beside the undone versions and reads it back for the screens."""

from __future__ import annotations

import json
from typing import NotRequired, TypedDict, cast

from ..engine.acts import ActLine, act_line, opens_act, revealed
from ..engine.flow import IllegalAction
from ..engine.kinds import Action
from ..engine.records import LogEntry
from ..engine.state import GameState
from ..engine.twin import put_back, undone_log
from ..engine.twin.lines import Line
from ..words import Text
from .parts import Part

MOST_ACTS = 20  # undo takes back at most this many acts at once


class SaidAct(ActLine, total=False):
    """An action's words as its row keeps them (`said_json`): and whether it brought something hidden to light."""

    revealed: bool


class LastAct(TypedDict):
    """One act of the live log: who began it, its versions (latest first), the words of each of its actions
    in the order played (engine/acts.py), whether it brought something hidden to light, and who made its
    last action (seat numbers as the log writes them, or "host")."""

    who: str
    versions: list[int]
    lines: list[SaidAct]
    revealed: bool
    latest: str


class UndoneAct(TypedDict):
    """An act an undo took back, as its note keeps it: who began it and the words of its actions."""

    who: str
    lines: list[SaidAct]


class UndoNote(TypedDict):
    """An undo's row as written (undo_note). Undos saved before notes were kept have only `undo`."""

    undo: list[int]
    acts: NotRequired[list[UndoneAct]]
    put_back: NotRequired[list[Line]]
    log_at: NotRequired[int]
    undone_log: NotRequired[list[LogEntry]]
    round: NotRequired[int]
    phase: NotRequired[str]


class Undo(UndoNote):
    """An undo's note as read back (undos_of): its version, who undid it ("host" or a seat number) and, on
    the last undo only, who has acted since."""

    version: int
    by: str
    acted_after: NotRequired[list[str]]


def undo_note(undone: list[int], before: GameState, after: GameState, acts: list[UndoneAct] | None = None) -> UndoNote:
    """The undo's row: the versions undone, the acts they made (their words), what the table puts back, the
    log entries taken away with where they stood (after entry `log_at`), and the moment of the game it
    leaves (round, phase)."""
    kept, gone = undone_log(before, after)
    return {"undo": undone, "acts": acts or [], "put_back": put_back(before, after), "log_at": kept,
            "undone_log": gone, "round": after.round, "phase": after.phase}


def act_columns(db, gid: str, state: GameState, action: Action) -> tuple[ActLine, int, LastAct | None]:
    """(its words, whether it starts an act, the live log's last act before it) for an action about to be
    applied to `state`: the question and option it answers (engine/acts.py) and who acted last."""
    before = latest_act(db, gid)
    line = act_line(state, action)
    return line, int(opens_act(line, action["who"], before["latest"] if before else None)), before


def with_action(before: LastAct | None, version: int, who: str, opens: int | None, said: str) -> LastAct:
    """The live log's last act once an action is written after `before` (its last act until then): a new act,
    or `before` grown by the action. The tapping phone's undo is drawn from it, with no read after the
    write's commit."""
    line: SaidAct = json.loads(said) if said else {}
    shown = bool(line.get("revealed", not said))
    if opens or before is None:
        return {"who": who, "versions": [version], "lines": [line], "revealed": shown, "latest": who}
    return {**before, "versions": [version, *before["versions"]], "lines": [*before["lines"], line],
            "revealed": before["revealed"] or shown, "latest": who}


def said_json(line: ActLine, before: GameState, after: GameState) -> str:
    """What the row keeps of an applied action: its words and whether it brought something to light."""
    return json.dumps({**line, "revealed": revealed(before, after)})


def last_acts(db, gid: str, count: int) -> list[LastAct]:
    """The last `count` acts of the live log, latest first: each {who, versions (latest first), lines (the
    words of each action, in the order played), revealed, latest (who made its last action)}. Rows saved
    before acts were kept are an act each, without words."""
    acts: list[LastAct] = []
    rows = db.execute("select version, who, act, said from actions where game_id = ? and kind = 'act' "
                      "and undone = 0 order by version desc limit ?", [gid, 40 * MOST_ACTS])
    current: LastAct | None = None
    for version, who, opens, said in rows:
        if current is None:
            current = {"who": who, "versions": [], "lines": [], "revealed": False, "latest": who}
        line: SaidAct = json.loads(said) if said else {}
        current["versions"].append(version)
        current["lines"].insert(0, line)
        current["revealed"] = current["revealed"] or bool(line.get("revealed", not said))
        if opens:
            current["who"] = who
            acts.append(current)
            current = None
            if len(acts) == count:
                break
    return acts


def latest_act(db, gid: str) -> LastAct | None:
    """The live log's last act (last_acts), or None: a game carries it, read with its state."""
    acts = last_acts(db, gid, 1)
    return acts[0] if acts else None


def undos_of(db, gid: str, latest: bool = False) -> list[Undo]:
    """Every undo of the game, oldest first (`latest`: only the last one, all a phone needs): its version
    and its note (undos saved before notes were kept have only "undo"), and who undid it ("by": "host" or a
    seat number, a phone taking back its own act). The last one also says who has
    acted since (`acted_after`: seat numbers as the log writes them)."""
    rows = db.execute("select version, action, who from actions where game_id = ? and kind = 'undo' "
                      "order by version desc" + (" limit 1" if latest else ""), [gid]).fetchall()
    undos = [cast(Undo, {**json.loads(action), "version": version, "by": who})
             for version, action, who in reversed(rows)]
    if undos:
        undos[-1]["acted_after"] = [who for (who,) in db.execute(
            "select distinct who from actions where game_id = ? and version > ? and kind = 'act'",
            [gid, undos[-1]["version"]])]
    return undos


def acted(undos: list[Undo], who: str) -> list[Undo]:
    """The undos' notes once `who` (a seat number as the log writes it, or "host") has acted after them: the
    last undo's `acted_after` gains it. A new list; the notes given are kept as they were (the games kept
    in memory share them)."""
    if not undos or who in undos[-1].get("acted_after", []):
        return undos
    return [*undos[:-1], {**undos[-1], "acted_after": [*undos[-1].get("acted_after", []), who]}]


def acts_to_undo(db, gid: str, count: int, seat: int | None) -> list[LastAct]:
    """The acts an undo takes back: the host's last `count`; a phone's (`seat`) only its own last act, and only
    while nothing hidden came to light since it began (BGA's policy: what was seen stays seen)."""
    acts = last_acts(db, gid, count)
    if not acts:
        raise IllegalAction(Text("there is nothing to undo"))
    if seat is not None:
        if acts[0]["who"] != str(seat):
            raise IllegalAction(Text("another seat or the host has acted since your last act"))
        if acts[0]["revealed"]:
            raise IllegalAction(Text("something hidden came to light since your last act"))
    return acts


class UndoReads(Part):
    """The Store's reads of undos and acts (mixed into store/games.py's Store, which gives `_db`)."""

    def undos(self, gid: str, latest: bool = False) -> list[Undo]:
        return undos_of(self._db(), gid, latest)

    def last_acts(self, gid: str, count: int) -> list[LastAct]:
        """The last acts of the live log, latest first, with their words (an undo's preview)."""
        return last_acts(self._db(), gid, count)
