"""What an undo leaves for the table: the instruction to put pieces back and the log entries it took away,
kept with the undo's row of the action log (its `action`), so a restart loses neither.

The screen changes at once; the pieces on the table do not. engine/put_back.py says what differs; this
module only stores it beside the undone versions and reads it back for the screens."""

from __future__ import annotations

import json

from ..engine.put_back import put_back, undone_log
from ..engine.state import GameState


def undo_note(undone: list[int], before: GameState, after: GameState) -> dict:
    """The undo's row: the versions undone, what the table puts back, and the log entries taken away
    with where they stood (after entry `log_at`), and the moment of the game it leaves (round, phase)."""
    kept, gone = undone_log(before, after)
    return {"undo": undone, "put_back": put_back(before, after), "log_at": kept, "undone_log": gone,
            "round": after.round, "phase": after.phase}


def undos_of(db, gid: str, latest: bool = False) -> list[dict]:
    """Every undo of the game, oldest first (`latest`: only the last one, all a phone needs): its version
    and its note (undos saved before notes were kept have only "undo"). The last one also says who has
    acted since (`acted_after`: seat numbers as the log writes them)."""
    rows = db.execute("select version, action from actions where game_id = ? and kind = 'undo' "
                      "order by version desc" + (" limit 1" if latest else ""), [gid]).fetchall()
    undos = [{**json.loads(action), "version": version} for version, action in reversed(rows)]
    if undos:
        undos[-1]["acted_after"] = [who for (who,) in db.execute(
            "select distinct who from actions where game_id = ? and version > ? and kind = 'act'",
            [gid, undos[-1]["version"]])]
    return undos


def acted(undos: list[dict], who: str) -> list[dict]:
    """The undos' notes once `who` (a seat number as the log writes it, or "host") has acted after them: the
    last undo's `acted_after` gains it. A new list; the notes given are kept as they were (the games kept
    in memory share them)."""
    if not undos or who in undos[-1].get("acted_after", []):
        return undos
    return [*undos[:-1], {**undos[-1], "acted_after": [*undos[-1].get("acted_after", []), who]}]
