"""The host's ticks on the setup and upkeep checklists, stored with the game.

A tick is a note the host keeps while the table works through a list ("done: the harbor hexes are out"); it
changes no rule of the game. So it is no action of the log: it moves no version (a phone's open menu stays
good), undo never counts it or takes it back, and a replay never sees it. It lives in its own table, keyed by
the list ("setup", "upkeep-<round being set up>"), the step's number and the step's words: after an undo or
a table draw entered again, a step that now says something else is not ticked, while the steps that stayed
keep their ticks. `games.ticked` counts every change, so a second host screen hears of it as news (the host's
question carries it, as it carries the count of joins)."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Mapping
from typing import Any, TypedDict

from .parts import Part

LIST = re.compile(r"^(setup|upkeep-[1-7])$")  # the checklists a host may tick (7: round VI's final upkeep)
MOST_STEPS = 200
HELD = "held"  # the acts of a turn held on the host's moment: its "step" is the version of the move ticked Done
MOST_VERSIONS = 10**7


def words_of(step: Mapping[str, Any]) -> str:
    """A short fingerprint of a step's English words and rule: what its tick belongs to."""
    said = f"{step.get('text', '')}|{step.get('rule', '')}"
    return hashlib.sha256(said.encode("utf-8")).hexdigest()[:16]


def valid(checklist: str, step: int, words: str) -> bool:
    most = MOST_VERSIONS if checklist == HELD else MOST_STEPS
    return (bool(LIST.match(checklist)) or checklist == HELD) and 1 <= step <= most and \
        bool(re.fullmatch(r"[0-9a-f]{16}", words))


def set_tick(db, gid: str, checklist: str, step: int, words: str, on: bool) -> None:
    """Tick or untick one step (inside the caller's write transaction) and count the change."""
    if on:
        db.execute("insert or replace into ticks (game_id, list, step, words, time) values (?, ?, ?, ?, ?)",
                   [gid, checklist, step, words, time.time()])
    else:
        db.execute("delete from ticks where game_id = ? and list = ? and step = ?", [gid, checklist, step])
    db.execute("update games set ticked = ticked + 1 where id = ?", [gid])


#: a host's tick on a checklist: the list ("setup", "upkeep-<round>"), the step's number and words, when
class Tick(TypedDict):
    list: str
    step: int
    words: str
    time: float


def ticks_of(db, gid: str) -> list[Tick]:
    """Every tick of the game: {list, step, words, time}, in list and step order (the export shows them)."""
    return [{"list": c, "step": s, "words": w, "time": t} for c, s, w, t in db.execute(
        "select list, step, words, time from ticks where game_id = ? order by list, step", [gid])]


def ticked_steps(ticks: list[Tick]) -> set[tuple[str, int, str]]:
    """(list, step, words) of each tick: a step shows ticked when its own words were ticked."""
    return {(t["list"], t["step"], t["words"]) for t in ticks}


class Ticks(Part):
    """The Store's ticks (mixed into store/games.py's Store, which gives `_immediate`, `_db`, `_missing` and
    `on_look_again`)."""

    def tick(self, gid: str, checklist: str, step: int, words: str, on: bool) -> None:
        """Tick (or untick) a checklist step; the game's version stays, its screens hear of it (`on_look_again`)."""
        with self._immediate() as db:
            if db.execute("select 1 from games where id = ?", [gid]).fetchone() is None:
                raise self._missing(gid)
            set_tick(db, gid, checklist, step, words, on)
        for hear in self.on_look_again:
            hear(gid)

    def ticks(self, gid: str) -> list[Tick]:
        return ticks_of(self._db(), gid)

    def ticked(self, gid: str) -> int:
        """How many times the game's checklists were ticked or unticked: news for the host screens."""
        row = self._db().execute("select ticked from games where id = ?", [gid]).fetchone()
        if row is None:
            raise self._missing(gid)
        return row[0]
