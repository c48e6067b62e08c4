"""What a game's file holds, and the check every file passes before anything is built from it.

A file comes from anywhere: a table's own export, a copy from a backup folder, or a stranger's upload. So
it is read as untrusted: at most LARGEST bytes, JSON only (no NaN), and every field checked for its type
and range before the store replays it (replay.py), which then proves every act through the engine.
Nothing in the file is ever used as a path or a name on disk, and no text from it is shown as a template.

Format 2 (this one): {"format": 2, "kind", "game" (the id it had), "exported", "options", "seed",
"version", "catalog": {"fingerprint", "records" (the text the game stored)}, "actions": [{"version", "who",
"via", "kind" ("act" or "undo"), "action", "undone", "time", "act", "said"}], "ticks": [{"list", "step",
"words", "time"}], "state": the game at its last version}. Format 1 (exports before games could be resumed:
no "format") has no catalog, act words or state; it replays with the catalog in force here, act by act."""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog, CatalogError, catalog_from_json, shipped_catalog
from ..engine.state import Options, PlayerOption
from ..names import BadName, player_name, same_names
from ..words import Text
from .ticks import LIST, MOST_STEPS, Tick

FORMAT = 2
KIND = "messina-1347-game"
LARGEST = 5 * 1024 * 1024  # bytes: a whole four-player game with its catalog is under 1 MB
MOST_ROWS = 2000  # a four-player game logs 200 to 500 acts; undos and a long evening stay far below this
MOST_UNDONE = 800  # versions one undo may take back (store/put_back.py: 20 acts)
LATEST = 1e11  # seconds since 1970: the year 5138, far past any clock
ID = re.compile(r"^[0-9A-Za-z_-]{1,64}$")
VIA = re.compile(r"^(host|phone [0-9]{1,6}|)$")
SEAT = re.compile(r"[0-3]")
WORDS = re.compile(r"^[0-9a-f]{16}$")
FINGERPRINT = re.compile(r"^[0-9a-f]{64}$")
NOT_A_GAME = Text("This is not a game's file from the companion.")


class Refused(ValueError):
    """Why a file is refused: the words for whoever reads it (a Text, translated where shown) and where in
    the file the problem is (a field's path, "act 12", "state.seats[1].coins")."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.message, self.where = message, where


@dataclass(frozen=True)
class Row:
    """One row of the file's action log. `said`: the words the file gives an act (a dict to check against the
    replay's own; "" for a row saved before acts had words; None in format 1, which made none)."""

    version: int
    who: str
    via: str
    kind: str
    action: dict
    undone: bool
    time: float
    act: int | None = None
    said: dict | str | None = None


@dataclass
class GameFile:
    """A file that passed the check: everything the replay needs, each field of its kind and range."""

    format: int
    game: str
    options: Options
    seed: int
    version: int
    catalog: Catalog | None  # None: format 1, replayed with the catalog in force
    rows: list[Row]
    ticks: list[Tick]
    state: dict | None  # the game as recorded at its last version (None: format 1)


def read_file(data: bytes) -> GameFile:
    """The file's bytes, checked (Refused otherwise)."""
    if len(data) > LARGEST:
        raise Refused(Text("The file is larger than {most} MB: it is not a game's file.", most=LARGEST // 2**20))
    try:
        body = json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise Refused(Text("The file is not readable: it stops or breaks at line {line}, column {column} (it may be "
                           "cut short).", line=exc.lineno, column=exc.colno), f"line {exc.lineno}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(NOT_A_GAME) from None
    return checked(body)


def checked(body: Any) -> GameFile:
    """A parsed file (the API's JSON body), every field checked."""
    if not isinstance(body, dict) or "actions" not in body or "options" not in body:
        raise Refused(NOT_A_GAME)
    form = body.get("format", 1)
    if type(form) is not int or form < 1:
        raise Refused(NOT_A_GAME, "format")
    if form > FORMAT:
        raise Refused(Text("This file was written by a newer companion (format {format}): update this one to resume "
                           "it.", format=form), "format")
    if form >= 2 and body.get("kind") != KIND:
        raise Refused(NOT_A_GAME, "kind")
    options = _options(_field(body, "options", dict))
    version = _whole(body, "version", 0, MOST_ROWS)
    rows = [_row(r, i, form, options.count) for i, r in enumerate(_list(body, "actions", MOST_ROWS))]
    if len(rows) != version:
        raise Refused(Text("The file says the game is at version {version} but it lists {count} actions: it is cut "
                           "short or added to.", version=version, count=len(rows)), "version")
    game = body.get("game", "")
    if not isinstance(game, str) or (game and not ID.fullmatch(game)):
        raise Refused(_bad("game"), "game")
    seed = _whole(body, "seed", 0, 10**12)
    ticks = _ticks(_list(body, "ticks", 8 * MOST_STEPS)) if "ticks" in body or form >= 2 else []
    state = _field(body, "state", dict) if form >= 2 else None
    catalog = _catalog(_field(body, "catalog", dict)) if form >= 2 else None  # the costliest check comes last
    return GameFile(form, game, options, seed, version, catalog, rows, ticks, state)


def _no_constant(name: str):
    raise ValueError(name)  # NaN and Infinity are no JSON


def _bad(where: str) -> str:
    return Text("The file's field {field} is not valid.", field=where)


def _field(body: dict, key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    where = where or key
    if key not in body:
        raise Refused(Text("The file's field {field} is missing.", field=where), where)
    value = body[key]
    if not isinstance(value, kind) or isinstance(value, bool):  # JSON's true is no number
        raise Refused(_bad(where), where)
    return value


def _whole(body: dict, key: str, low: int, high: float, where: str = "") -> int:
    value = _field(body, key, int, where)
    if not low <= value <= high:
        raise Refused(Text("The file's field {field} must be a whole number from {low} to {high}.",
                           field=where or key, low=low, high=high), where or key)
    return value


def _list(body: dict, key: str, most: int) -> list:
    value = _field(body, key, list)
    if len(value) > most:
        raise Refused(Text("The file's field {field} has more than {most} entries.", field=key, most=most), key)
    return value


def _time(body: dict, where: str) -> float:
    value = _field(body, "time", (int, float), where + ".time")
    if not (math.isfinite(value) and 0 <= value <= LATEST):
        raise Refused(_bad(where + ".time"), where + ".time")
    return float(value)


def _options(body: dict) -> Options:
    """1 to 4 players with names a table can read (companion/names.py, as a typed name) and distinct colours,
    the boards, the priority tile and who draws: the engine checks the rest when it sets the game up."""
    players = _field(body, "players", list, "options.players")
    if not 1 <= len(players) <= 4 or not all(isinstance(p, dict) and isinstance(p.get("name"), str)
                                             and isinstance(p.get("colour"), str) for p in players):
        raise Refused(_bad("options.players"), "options.players")
    names = [p["name"] for p in players]
    try:
        if any(player_name(n) != n or not n for n in names) or same_names(names):
            raise Refused(_bad("options.players"), "options.players")
    except BadName:
        raise Refused(_bad("options.players"), "options.players") from None
    flags = {k: body.get(k, False) for k in ("advanced", "priority_tile")}
    if not all(isinstance(v, bool) for v in flags.values()) or body.get("draw", "app") not in ("app", "table"):
        raise Refused(_bad("options"), "options")
    return Options([PlayerOption(p["name"], p["colour"]) for p in players], draw=body.get("draw", "app"), **flags)


def _catalog(body: dict) -> Catalog:
    """The catalog the game was started with: its records as the very text the game stored (the order of its
    keys is part of the game: the engine walks some tables in it), valid, with the fingerprint the file gives."""
    records = _field(body, "records", str, "catalog.records")
    fingerprint = _field(body, "fingerprint", str, "catalog.fingerprint")
    if not FINGERPRINT.fullmatch(fingerprint):
        raise Refused(_bad("catalog.fingerprint"), "catalog.fingerprint")
    if hashlib.sha256(records.encode("utf-8", "surrogatepass")).hexdigest() != fingerprint:
        raise Refused(Text("The file's catalog was changed: its records do not match its fingerprint."),
                      "catalog.records")
    if fingerprint == shipped_catalog().fingerprint:  # the same text as the shipped catalog: built once
        return shipped_catalog()
    try:
        catalog = catalog_from_json(records)
    except CatalogError as exc:
        raise Refused(Text("The file's catalog is not valid: {problem}", problem=exc.problems[0]),
                      "catalog.records") from None
    except (TypeError, KeyError, AttributeError, IndexError, ValueError, RecursionError):
        raise Refused(_bad("catalog.records"), "catalog.records") from None  # a shape no table file could give
    if catalog.fingerprint != fingerprint:  # valid records, but not written as the companion writes them
        raise Refused(_bad("catalog.records"), "catalog.records")
    return catalog


def _row(body: Any, index: int, form: int, players: int) -> Row:
    where = f"actions[{index}]"
    if not isinstance(body, dict):
        raise Refused(_bad(where), where)
    version = _whole(body, "version", index + 1, index + 1, where + ".version")
    kind = body.get("kind")
    who, via = _field(body, "who", str, where + ".who"), _field(body, "via", str, where + ".via")
    if kind not in ("act", "undo") or not VIA.fullmatch(via):
        raise Refused(_bad(where), where)
    action = _field(body, "action", dict, where + ".action")
    undone = _field(body, "undone", int, where + ".undone")
    if undone not in (0, 1) or (kind == "undo" and undone):
        raise Refused(_bad(where + ".undone"), where + ".undone")
    if kind == "act":
        _act(action, who, players, where)
    else:
        _undo(action, who, version, players, where)
    act, said = (None, None) if form < 2 or kind == "undo" else _said(body, where)
    return Row(version, who, via, kind, action, bool(undone), _time(body, where), act, said)


def _act(action: dict, who: str, players: int, where: str) -> None:
    """An act as Store.act logs it: {"who": a seat or "host", "decision": the question's id, "pick": a value}."""
    if set(action) != {"who", "decision", "pick"}:
        raise Refused(_bad(where + ".action"), where + ".action")
    seat = action["who"]
    if not (seat == "host" or type(seat) is int and 0 <= seat < players) or who != str(seat):
        raise Refused(_bad(where + ".action.who"), where + ".action.who")
    _whole(action, "decision", 1, 10**9, where + ".action.decision")


def _undo(note: dict, who: str, version: int, players: int, where: str) -> None:
    """An undo's note (store/put_back.py): the versions it took back, and (since notes were kept) the acts."""
    if not (who == "host" or SEAT.fullmatch(who) and int(who) < players):
        raise Refused(_bad(where + ".who"), where + ".who")
    undone = _field(note, "undo", list, where + ".action.undo")
    if not 1 <= len(undone) <= MOST_UNDONE or len(set(map(str, undone))) != len(undone) or not all(
            type(v) is int and 1 <= v < version for v in undone):
        raise Refused(_bad(where + ".action.undo"), where + ".action.undo")
    acts = note.get("acts", [None])
    if not isinstance(acts, list) or not 1 <= len(acts) <= 20 or ("acts" not in note and len(note) != 1):
        raise Refused(_bad(where + ".action"), where + ".action")


def _said(body: dict, where: str) -> tuple[int, dict | str]:
    """The act flag and words a format-2 row gives (null words: a row saved before acts had words)."""
    act = _field(body, "act", int, where + ".act")
    said = body.get("said")
    if act not in (0, 1) or not (said is None or isinstance(said, dict)) or (said is None and act != 1):
        raise Refused(_bad(where + ".said"), where + ".said")
    return act, "" if said is None else said


def _ticks(ticks: list) -> list[Tick]:
    """The host's ticks (store/ticks.py): each list and step once."""
    seen: set[tuple[str, int]] = set()
    out: list[Tick] = []
    for i, tick in enumerate(ticks):
        where = f"ticks[{i}]"
        if not isinstance(tick, dict) or not isinstance(tick.get("list"), str) or not LIST.fullmatch(tick["list"]) \
                or not isinstance(tick.get("words"), str) or not WORDS.fullmatch(tick["words"]):
            raise Refused(_bad(where), where)
        step = _whole(tick, "step", 1, MOST_STEPS, where + ".step")
        if (tick["list"], step) in seen:
            raise Refused(_bad(where), where)
        seen.add((tick["list"], step))
        out.append({"list": tick["list"], "step": step, "words": tick["words"], "time": _time(tick, where)})
    return out
