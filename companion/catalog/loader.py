"""Read the TOML data files (and a table's override file) into a validated Catalog.

Every problem is reported with the file, the family, the record id and what is wrong, so a table that
mistypes a correction knows exactly where to look; nothing half-valid is ever returned.

Two steps, so that a game can keep the catalog it started with: the files become plain records
(merged by id), and records become a Catalog. A game stores its records and is rebuilt from them,
never from the files as they are now (docs/CATALOG.md).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tomllib
from collections import Counter
from pathlib import Path as FsPath
from types import MappingProxyType
from typing import Any, Callable, Mapping

from . import model as m
from .rewards import CLASSES, GrammarError, parse_citizens, parse_cost, parse_reward

DATA_DIR = FsPath(__file__).parent / "data"
DATA_FILES = ("city.toml", "layout.toml", "scoreboard.toml", "tiles.toml", "boards.toml")
#: The shipped catalog is under 80 KB; an override bigger than this is not a list of corrections.
OVERRIDE_LIMIT = 1_000_000
#: Arrays, tables or dotted keys nested deeper than this are refused before parsing: the shipped files
#: nest 4 deep, and the TOML parser recurses per level (and keeps every prefix of a dotted key).
NESTING_LIMIT = 32

#: R-COMP-2: how many records each family must have.
COUNTS = {
    "hex": 20,
    "harbor": 4,
    "dock": 4,
    "docking_tile": 4,
    "boat": 9,
    "workshop": 33,
    "improvement": 15,
    "wagon": 10,
    "solo_tile": 14,
    "board": 5,
    "scroll_board": 5,
    "round_info": 2,
    "priority_tile": 2,
    "register": 6,
    "rat_table": 1,
    "layout": 3,
}
FAMILIES = tuple(COUNTS) + ("wheel",)
COLOURS = ("orange", "white", "blue", "red")
RATS = ("left", "right", "standing")
PRIORITIES = ("none", "popularity", "city", "church", "score")
SOLO_ACTIONS = ("boat", "wagon", "workshop-aristocrat", "workshop-nun", "workshop-craftsman", "improvements")
TRACK_KINDS = ("buildings", "boats", "repopulated", "goods", "workshops", "lumber", "improvements",
               "coins", "register-city", "register-church", "register-popularity", "overseers")

Records = dict[str, list[dict]]  # family -> its records, in catalog order
Origins = dict[tuple[str, str], str]  # (family, id) -> the file the record came from


class CatalogError(Exception):
    """The catalog (defaults or override) is invalid; `problems` lists every finding."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


class _Problem(Exception):
    pass


class RecordError(ValueError):
    """One record is wrong; the message says what, in words (the caller adds file, family and id)."""


def build_record(family: str, rec: dict) -> Any:
    """One record as its immutable object. Whatever a hand-typed value makes a builder raise (a table
    where a list belongs, a list nested too deeply) becomes a RecordError saying so, never a crash."""
    try:
        return _BUILDERS[family](rec)
    except (_Problem, GrammarError) as exc:
        raise RecordError(str(exc)) from None
    except RecursionError:
        raise RecordError("nested too deeply") from None
    except Exception as exc:
        raise RecordError(f"missing or malformed field: {exc!r}") from None


def default_override_path(instance: str | os.PathLike | None = None) -> FsPath:
    """The table's corrections: the file $MESSINA_CATALOG names, else `catalog.toml` in the instance
    folder the server uses (companion/instance.py), whatever the working directory."""
    named = os.environ.get("MESSINA_CATALOG")
    if named:
        return FsPath(named)
    from ..instance import instance_folder

    return instance_folder(instance) / "catalog.toml"


def read_override(path: str | os.PathLike) -> bytes | None:
    """The override file's bytes, or None when there is none. Read once, so what is checked is what
    is used even if the file changes meanwhile."""
    try:
        with open(path, "rb") as f:
            data = f.read(OVERRIDE_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CatalogError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    if len(data) > OVERRIDE_LIMIT:
        raise CatalogError([f"{path}: larger than {OVERRIDE_LIMIT // 1000} KB; the whole catalog is under 100 KB"])
    return data


def load_catalog(override: str | os.PathLike | None = None, data_dir: FsPath = DATA_DIR) -> m.Catalog:
    """Load the defaults, replace records by id from `override` if that file exists, validate."""
    path = default_override_path() if override is None else FsPath(override)
    return catalog_from_files(path, read_override(path), data_dir)


def catalog_from_files(override: FsPath, data: bytes | None, data_dir: FsPath = DATA_DIR) -> m.Catalog:
    """The shipped files with the override's bytes (None: no override) merged in, validated."""
    records, origins = merge_files(override, data, data_dir)
    return catalog_from_records(records, origins)


def merge_files(override: FsPath, data: bytes | None, data_dir: FsPath = DATA_DIR) -> tuple[Records, Origins]:
    """Plain records from the shipped files, each replaced whole by the override's record of the same id."""
    merged: dict[str, dict[str, dict]] = {f: {} for f in FAMILIES}
    origins: Origins = {}
    problems: list[str] = []

    def take(doc: dict, label: str, replacing: bool) -> None:
        for family, records in doc.items():
            if family not in merged:
                problems.append(f"{label}: unknown family [[{family}]] (known: {', '.join(FAMILIES)})")
                continue
            if not isinstance(records, list):
                problems.append(f"{label}: {family} must be an array of tables ([[{family}]])")
                continue
            for rec in records:
                rid = rec.get("id") if isinstance(rec, dict) else None
                if not isinstance(rid, str) or not rid:
                    problems.append(f"{label}: {family}: a record has no string id")
                    continue
                if replacing and rid not in merged[family]:
                    problems.append(f"{label}: {family} {rid}: no default record with this id to replace")
                    continue
                if not replacing and rid in merged[family]:
                    problems.append(f"{label}: {family} {rid}: duplicate id")
                    continue
                merged[family][rid] = rec  # a replaced record keeps its place in the order
                origins[(family, rid)] = label

    for name in DATA_FILES:
        label = f"companion/catalog/data/{name}"
        try:
            shipped = (data_dir / name).read_bytes()
        except OSError as exc:
            problems.append(f"{label}: cannot read: {exc}")
            continue
        doc = parse_toml(shipped, label, problems)
        if doc is not None:
            take(doc, label, replacing=False)
    if data is not None:
        doc = parse_toml(data, str(override), problems)
        if doc is not None:
            take(doc, str(override), replacing=True)
    if problems:
        raise CatalogError(problems)
    return {f: list(recs.values()) for f, recs in merged.items()}, origins


def parse_toml(data: bytes, label: str, problems: list[str]) -> dict | None:
    """One TOML document, or None with the reason added to `problems`. A correction file is hand-typed
    (and may come from anywhere), so whatever the parser raises on it is a problem with that file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{label}: not UTF-8 text: {exc}")
        return None
    deep = _too_deep(text)
    if deep:
        problems.append(f"{label}: {deep}")
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{label}: not valid TOML: {exc}")
    except RecursionError:
        problems.append(f"{label}: nested too deeply to read")
    except Exception as exc:  # e.g. ValueError for a number of thousands of digits
        problems.append(f"{label}: not valid TOML: {exc}")
    return None


def _too_deep(text: str) -> str | None:
    """Why `text` nests too deeply to hand to the TOML parser, if it does: brackets and braces open at
    once, or dots in one key. Strings and comments are skipped; anything unfinished is left for the
    parser to report."""
    depth = chain = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            i = _string_end(text, i)
            continue
        if c == "#":
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        if c in "[{":
            depth += 1
            if depth > NESTING_LIMIT:
                return f"arrays or tables nested more than {NESTING_LIMIT} deep"
        elif c in "]}":
            depth = max(0, depth - 1)
        if c == ".":
            chain += 1
            if chain > NESTING_LIMIT:
                return f"a key with more than {NESTING_LIMIT} dotted parts"
        elif not (c.isalnum() or c in "_- \t"):
            chain = 0
        i += 1
    return None


def _string_end(text: str, i: int) -> int:
    """The index just past the string that starts at `i` (TOML's four kinds of string)."""
    q = text[i]
    quote = q * 3 if text.startswith(q * 3, i) else q
    j, n = i + len(quote), len(text)
    while j < n:
        c = text[j]
        if c == "\\" and q == '"':
            j += 2
            continue
        if c == "\n" and len(quote) == 1:
            return j
        if text.startswith(quote, j):
            j += len(quote)
            if len(quote) == 3:  # up to two quotes may stand just before the closing three
                extra = 0
                while extra < 2 and j < n and text[j] == q:
                    j, extra = j + 1, extra + 1
            return j
        j += 1
    return n


def canonical_json(records: Mapping[str, Any]) -> str:
    """One text per catalog, no spaces, keys in the order the files give them: the engine walks some
    tables in that order (a layout's harbors, say), so a game rebuilt from its stored catalog after a
    restart must meet them in the same order, or its setup text and draws would change."""
    return json.dumps(records, separators=(",", ":"), ensure_ascii=False)


def catalog_from_json(text: str) -> m.Catalog:
    """A game's stored catalog (`Catalog.records_json`) built again."""
    try:
        records = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CatalogError([f"a stored catalog is not readable: {exc}"]) from None
    return catalog_from_records(records)


def catalog_from_records(records: Mapping[str, Any], origins: Mapping[tuple[str, str], str] | None = None
                         ) -> m.Catalog:
    """Validate plain records (merged files, or a game's stored catalog) and build the Catalog.

    Each record first goes through JSON, exactly as a game stores it, so the catalog a game starts
    with and the one it is rebuilt with after a restart are built from the same values."""
    origins = dict(origins or {})
    problems: list[str] = []
    if not isinstance(records, Mapping):
        raise CatalogError([f"a catalog is a table of families, not {type(records).__name__}"])
    for family in records:
        if family not in FAMILIES:
            problems.append(f"unknown family [[{family}]] (known: {', '.join(FAMILIES)})")

    def where(family: str, rid: str) -> str:
        return origins.get((family, rid), _file_of(family))

    plain: Records = {}
    built: dict[str, dict[str, Any]] = {f: {} for f in FAMILIES}
    ids: dict[str, set[str]] = {f: set() for f in FAMILIES}
    for family in FAMILIES:
        plain[family] = []
        listed = records.get(family, [])
        if not isinstance(listed, list):
            problems.append(f"{_file_of(family)}: {family} must be a list of records")
            continue
        for rec in listed:
            rid = rec.get("id") if isinstance(rec, dict) else None
            if not isinstance(rid, str) or not rid:
                problems.append(f"{_file_of(family)}: {family}: a record has no string id")
                continue
            if rid in ids[family]:
                problems.append(f"{where(family, rid)}: {family} {rid}: duplicate id")
                continue
            ids[family].add(rid)
            try:
                rec = json.loads(json.dumps(rec, default=str))  # TOML dates become text, as stored
                built[family][rid] = build_record(family, rec)
                plain[family].append(rec)
            except (ValueError, RecursionError) as exc:  # RecordError, or a value JSON cannot hold
                problems.append(f"{where(family, rid)}: {family} {rid}: {exc}")
    for family, want in COUNTS.items():
        if len(ids[family]) != want:
            problems.append(f"{_file_of(family)}: {family}: {len(ids[family])} records, R-COMP needs {want}")
    if problems:
        raise CatalogError(problems)

    def ro(d):
        return MappingProxyType(dict(d))

    text = canonical_json(plain)
    catalog = m.Catalog(
        hexes=ro(built["hex"]), harbors=ro(built["harbor"]), docks=ro(built["dock"]),
        docking_tiles=ro(built["docking_tile"]), layouts=ro(built["layout"]),
        wheel=tuple(built["wheel"].values()), round_info=ro(built["round_info"]),
        priority_tiles=ro(built["priority_tile"]), registers=ro(built["register"]),
        rat_table=next(iter(built["rat_table"].values())), boats=ro(built["boat"]),
        workshops=ro(built["workshop"]), improvements=ro(built["improvement"]), wagons=ro(built["wagon"]),
        solo_tiles=ro(built["solo_tile"]), boards=ro(built["board"]), scroll_boards=ro(built["scroll_board"]),
        origins=ro(origins), records_json=text, fingerprint=hashlib.sha256(text.encode()).hexdigest(),
    )
    problems.extend(_cross_checks(catalog))
    if problems:
        raise CatalogError(problems)
    return catalog


def _file_of(family: str) -> str:
    for name, fams in (("city.toml", ("hex", "harbor")), ("layout.toml", ("dock", "docking_tile", "layout")),
                       ("scoreboard.toml", ("wheel", "round_info", "priority_tile", "register", "rat_table")),
                       ("tiles.toml", ("boat", "workshop", "improvement", "wagon", "solo_tile")),
                       ("boards.toml", ("board", "scroll_board"))):
        if family in fams:
            return f"companion/catalog/data/{name}"
    return family


# --- field helpers -------------------------------------------------------------------------------

def _prov(rec: dict) -> m.Provenance:
    source = rec.get("source")
    if source not in ("rulebook", "assumed", "mixed"):
        raise _Problem(f"source must be 'rulebook', 'assumed' or 'mixed', not {source!r}")
    fields = rec.get("rulebook_fields", [])
    if source == "mixed" and not fields:
        raise _Problem("a 'mixed' record must list its rulebook_fields")
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise _Problem("rulebook_fields must be a list of field names")
    return m.Provenance(source, tuple(fields))


def _one_of(rec: dict, key: str, allowed) -> Any:
    value = rec.get(key)
    if value not in allowed:
        raise _Problem(f"{key} must be one of {', '.join(map(str, allowed))}, not {value!r}")
    return value


def _int(rec: dict, key: str, lo: int = 0, hi: int = 10**6) -> int:
    value = rec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _Problem(f"{key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _bool(rec: dict, key: str, default: bool | None = None) -> bool:
    value = rec.get(key, default)
    if not isinstance(value, bool):
        raise _Problem(f"{key} must be true or false, not {value!r}")
    return value


def _str(rec: dict, key: str) -> str:
    value = rec.get(key)
    if not isinstance(value, str) or not value:
        raise _Problem(f"{key} must be a text, not {value!r}")
    return value


def _coord(value, what: str) -> m.Coord:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise _Problem(f"{what} must be [q, r] whole numbers, not {value!r}")
    return (value[0], value[1])


def _reward(rec: dict, key: str) -> m.Reward:
    if key not in rec:
        raise _Problem(f"missing {key}")
    try:
        return parse_reward(rec[key])
    except GrammarError as exc:
        raise _Problem(f"{key}: unparsable reward: {exc}") from None


def _cost(rec: dict, key: str) -> m.Bundle:
    if key not in rec:
        raise _Problem(f"missing {key}")
    try:
        return parse_cost(rec[key])
    except GrammarError as exc:
        raise _Problem(f"{key}: unparsable cost: {exc}") from None


# --- builders ------------------------------------------------------------------------------------

def _hex(rec: dict) -> m.Hex:
    cls = _one_of(rec, "class", ("A", "B", "C"))
    repop = _bool(rec, "repop")
    return m.Hex(
        id=rec["id"], name=_str(rec, "name"), cls=cls,
        players=_one_of(rec, "players", ("all", "3-4", "4")) if cls == "A" else None,
        colour=_one_of(rec, "colour", COLOURS), rat=_one_of(rec, "rat", RATS + ("none",)),
        action=_reward(rec, "action"), repop=repop,
        repop_cost=_cost(rec, "repop_cost") if repop else None,
        repop_citizens=_citizens(rec) if repop else (),
        repop_lieutenant=_bool(rec, "repop_lieutenant", False) if repop else False,
        repop_vp=_int(rec, "repop_vp", 0, 30) if repop else 0,
        prov=_prov(rec),
    )


def _citizens(rec: dict):
    try:
        return parse_citizens(rec.get("repop_citizens"))
    except GrammarError as exc:
        raise _Problem(f"repop_citizens: {exc}") from None


def _harbor(rec):
    return m.Harbor(rec["id"], _str(rec, "name"), _reward(rec, "action"), _prov(rec))


def _dock(rec):
    return m.Dock(rec["id"], _str(rec, "harbor"), _int(rec, "spaces", 1, 9), _prov(rec))


def _docking_tile(rec):
    return m.DockingTile(rec["id"], _str(rec, "dock"), _prov(rec))


def _layout(rec):
    players = rec.get("players")
    if not isinstance(players, list) or not players or not all(p in (2, 3, 4) for p in players):
        raise _Problem(f"players must list player counts 2–4, not {players!r}")
    start = tuple(_coord(c, "start") for c in rec.get("start", []))
    harbors = rec.get("harbors")
    if not isinstance(harbors, dict) or len(harbors) != 4:
        raise _Problem("harbors must map the 4 harbor ids to coordinates")
    harbors = {h: _coord(c, f"harbor {h}") for h, c in harbors.items()}
    expansion = {}
    for x in rec.get("expansion", []):
        expansion[_str(x, "id")] = _coord(x.get("at"), f"expansion {x.get('id')}")
    if len(expansion) != 6:
        raise _Problem(f"a city has 6 expansion spaces (R-NEXT-6), found {len(expansion)}")
    ring = tuple(rec.get("ring", []))
    if sorted(ring) != sorted(list(harbors) + list(expansion)):
        raise _Problem("ring must list each harbor and expansion space exactly once")
    cells = list(start) + list(harbors.values()) + list(expansion.values())
    if len(set(cells)) != len(cells):
        raise _Problem("two spaces share a coordinate")
    placed = set(start) | set(harbors.values())
    if not _connected(placed):
        raise _Problem("start hexes and harbors do not form one connected city")
    for xid, at in expansion.items():
        if sum(_neighbour(at, c) for c in placed) < 2:
            raise _Problem(f"expansion space {xid} touches fewer than 2 placed hexes")
    for hid, at in harbors.items():
        if not any(_neighbour(at, c) for c in start):
            raise _Problem(f"harbor {hid} touches no start hex")
    return m.Layout(rec["id"], tuple(players), start, MappingProxyType(harbors), MappingProxyType(expansion),
                    ring, _prov(rec))


def _neighbour(a: m.Coord, b: m.Coord) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in m.AXIAL_STEPS


def _connected(cells: set) -> bool:
    if not cells:
        return False
    seen, todo = set(), [next(iter(cells))]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo.extend((c[0] + dq, c[1] + dr) for dq, dr in m.AXIAL_STEPS if (c[0] + dq, c[1] + dr) in cells)
    return seen == cells


def _wheel(rec):
    colours = {}
    for colour in COLOURS:
        value = _one_of(rec, colour, CLASSES + ("none",))
        colours[colour] = None if value == "none" else value
    given = [c for c in colours.values() if c]
    if sorted(given) != sorted(CLASSES):
        raise _Problem("a window shows each citizen class on exactly one colour and one colour empty (R-R1-2)")
    return m.WheelWindow(rec["id"], _one_of(rec, "rat", RATS), MappingProxyType(colours), _prov(rec))


def _round_info(rec):
    rows = rec.get("rounds")
    if not isinstance(rows, list) or len(rows) != 6:
        raise _Problem("rounds must list the 6 rounds I–VI")
    out = []
    for i, row in enumerate(rows, 1):
        try:
            out.append(m.RoundRow(_one_of(row, "priority", PRIORITIES), _int(row, "boats", 1, 2),
                                  _int(row, "fire_cost", 1, 2), _bool(row, "double_wheel")))
        except _Problem as exc:
            raise _Problem(f"round {i}: {exc}") from None
    if out[0].priority != "none" or out[0].boats != 1:
        raise _Problem("round I has no priority register (random order) and 1 boat (R-R1-1, R-R1-3)")
    if any(r.priority == "none" for r in out[1:]):
        raise _Problem("rounds II–VI need a priority register (R-NEXT-4)")
    return m.RoundInfo(rec["id"], tuple(out), _prov(rec))


def _priority_tile(rec):
    values = rec.get("priority")
    if not isinstance(values, list) or len(values) != 6 or values[0] != "none" or any(
            v not in PRIORITIES[1:] for v in values[1:]):
        raise _Problem("priority must list 6 values: 'none' for round I, then popularity/city/church/score")
    return m.PriorityTile(rec["id"], tuple(values), _prov(rec))


def _register(rec):
    spaces = rec.get("space")
    if not isinstance(spaces, list) or len(spaces) < 2:
        raise _Problem("a register needs its [[register.space]] list")
    built = []
    for i, s in enumerate(spaces):
        try:
            built.append(m.RegisterSpace(_reward(s, "reward"), _int(s, "vp", 0, 99)))
        except _Problem as exc:
            raise _Problem(f"space {i}: {exc}") from None
    n = len(built)
    single, double = _int(rec, "single_bar", 1, n - 1), _int(rec, "double_bar", 1, n - 1)
    if double <= single:
        raise _Problem("double_bar must lie beyond single_bar (R-ADV-5)")
    if not built[0].reward.is_nothing:
        raise _Problem("the start space (index 0) gives nothing")
    return m.Register(rec["id"], _one_of(rec, "kind", ("popularity", "city", "church")),
                      _one_of(rec, "side", ("2p", "3-4p")), single, double, tuple(built), _prov(rec))


def _rat_table(rec):
    pen = rec.get("penalty")
    if not isinstance(pen, list) or len(pen) < 8 or not all(isinstance(p, int) and p >= 0 for p in pen):
        raise _Problem("penalty must list VP lost for 0, 1, 2 … rats")
    if any(b < a for a, b in zip(pen, pen[1:])):
        raise _Problem("penalty must never shrink as rats grow")
    if pen[7] != 13 or pen[-1] != 21 or max(pen) != 21:
        raise _Problem("the rulebook fixes 7 rats → 13 VP and a maximum of 21 (R-END-2)")
    return m.RatTable(rec["id"], tuple(pen), _prov(rec))


def _boat(rec):
    reward = _reward(rec, "reward")
    if reward.is_choice or not reward.icons() <= {"coin", "vp"}:
        raise _Problem("a boat gives coins or VP (R-TURN-DOCK-5)")
    return m.Boat(rec["id"], _int(rec, "back", 1, 9), _one_of(rec, "cargo", ("stones", "spices", "silk")),
                  reward, _prov(rec))


def _workshop(rec):
    era = _int(rec, "era", 1, 2)
    output = _reward(rec, "output") if era == 1 else None
    up = _reward(rec, "upgraded_output") if era == 1 and "upgraded_output" in rec else None
    reward = _reward(rec, "reward") if era == 2 else None
    return m.Workshop(rec["id"], era, _one_of(rec, "class", CLASSES), _cost(rec, "cost"),
                      _bool(rec, "needs_upgraded"), output, up, reward, _prov(rec))


def _improvement(rec):
    cls = rec.get("class")
    if cls is not None and cls not in CLASSES:
        raise _Problem(f"class must be one of {CLASSES}, not {cls!r}")
    return m.Improvement(rec["id"], _cost(rec, "cost"), _reward(rec, "output"), cls, _prov(rec))


def _wagon(rec):
    return m.Wagon(rec["id"], _int(rec, "back", 1, 5), _cost(rec, "cost"), _int(rec, "vp", 0, 30), _prov(rec))


def _solo_tile(rec):
    return m.SoloTile(rec["id"], _str(rec, "hex"), _one_of(rec, "action", SOLO_ACTIONS), _prov(rec))


def _square(rec, parent):
    prov = _prov(rec) if "source" in rec else parent
    return m.Square(_str(rec, "id"), _one_of(rec, "sector", CLASSES), _str(rec, "region"),
                    _reward(rec, "reward"), _bool(rec, "once", False), prov)


def _space(rec, where: str) -> m.PathSpace:
    if not isinstance(rec, dict):
        raise _Problem(f"{where}: a path space is a table")
    t = _one_of(rec, "type", ("T1", "T2", "T3", "T4"))
    sq, rg = tuple(rec.get("squares", [])), tuple(rec.get("regions", []))
    need = {"T1": (2, 0), "T2": (0, 1), "T3": (0, 2), "T4": (0, 0)}[t]
    if (len(sq), len(rg)) != need:
        raise _Problem(f"{where} {rec.get('id')}: {t} needs {need[0]} squares and {need[1]} regions (R-OVS-7)")
    return m.PathSpace(_str(rec, "id"), t, sq, rg, _bool(rec, "hexagonal", False))


def _board(rec):
    prov = _prov(rec)
    squares = tuple(_square(s, prov) for s in rec.get("square", []))
    by_id = {s.id: s for s in squares}
    if len(squares) != 18 or len(by_id) != 18:
        raise _Problem("a board has 18 squares with distinct ids (3 sectors × 6)")
    side = _one_of(rec, "side", ("a", "b"))
    regions: dict[str, list[m.Square]] = {}
    for s in squares:
        regions.setdefault(s.region, []).append(s)
    for cls in CLASSES:
        sector = [s for s in squares if s.sector == cls]
        if len(sector) != 6:
            raise _Problem(f"sector {cls} has {len(sector)} squares, needs 6")
        once = sum(s.once for s in sector)
        if once != (1 if side == "b" else 0):
            raise _Problem(f"sector {cls}: {once} single-use squares (R-ADV-2: one on b boards, none on a)")
    for rid, members in regions.items():
        if len(members) != 3 or len({s.sector for s in members}) != 1:
            raise _Problem(f"region {rid} must be 3 squares of one sector")
    paths = {}
    for p in rec.get("path", []):
        cls = _one_of(p, "overseer", CLASSES)
        first = _space(p.get("first"), f"{cls} path step 1")
        left = tuple(_space(s, f"{cls} path left") for s in p.get("left", []))
        right = tuple(_space(s, f"{cls} path right") for s in p.get("right", []))
        if len(left) != 5 or len(right) != 5:
            raise _Problem(f"{cls} path: each branch lists steps 2–6 (R-OVS-3)")
        for space in (first,) + left + right:
            for sid in space.squares:
                if sid not in by_id:
                    raise _Problem(f"{cls} path space {space.id}: unknown square {sid}")
            for rid in space.regions:
                if rid not in regions:
                    raise _Problem(f"{cls} path space {space.id}: unknown region {rid}")
            if space.type == "T3" and len({regions[r][0].sector for r in space.regions}) != 2:
                raise _Problem(f"{cls} path space {space.id}: T3 regions must be of different sectors")
        for branch in (left, right):
            if branch[-1].type != "T4" or any(s.type == "T4" for s in (first,) + branch[:-1]):
                raise _Problem(f"{cls} path: step 6, and only step 6, is the centre (T4)")
        paths[cls] = m.Path(cls, first, left, right)
    if sorted(paths) != sorted(CLASSES):
        raise _Problem("a board has one path per overseer (aristocrat, nun, craftsman)")
    return m.Board(rec["id"], side, _int(rec, "cabins", 1, 6), _int(rec, "workshop_slots", 1, 12), squares,
                   MappingProxyType(paths), prov, MappingProxyType(by_id))


def _track(rec, parent):
    prov = _prov(rec) if "source" in rec else parent
    counts = _one_of(rec, "counts", TRACK_KINDS)
    levels = rec.get("levels")
    if not isinstance(levels, list) or len(levels) < 2:
        raise _Problem(f"track {rec.get('id')}: levels must list at least 2 levels")
    width = 2 if counts.startswith("register-") else 3 if counts == "overseers" else 1
    for lv in levels:
        vals = lv if width > 1 else [lv]
        if width > 1 and (not isinstance(lv, list) or len(lv) != width):
            raise _Problem(f"track {rec.get('id')}: each level of a {counts} track is a list of {width} numbers")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < math.inf for v in vals):
            raise _Problem(f"track {rec.get('id')}: level values must be numbers ≥ 0")
    return m.Track(_str(rec, "id"), counts, _int(rec, "cap", 0, 99),
                   tuple(tuple(lv) if isinstance(lv, list) else lv for lv in levels), prov)


def _scroll_board(rec):
    prov = _prov(rec)
    tracks = tuple(_track(t, prov) for t in rec.get("track", []))
    if len(tracks) != 3 or len({t.id for t in tracks}) != 3:
        raise _Problem("a scroll board has 3 tracks with distinct ids")
    return m.ScrollBoard(rec["id"], _one_of(rec, "side", ("a", "b")), tracks, prov)


_BUILDERS: dict[str, Callable[[dict], Any]] = {
    "hex": _hex, "harbor": _harbor, "dock": _dock, "docking_tile": _docking_tile, "layout": _layout,
    "wheel": _wheel, "round_info": _round_info, "priority_tile": _priority_tile, "register": _register,
    "rat_table": _rat_table, "boat": _boat, "workshop": _workshop, "improvement": _improvement,
    "wagon": _wagon, "solo_tile": _solo_tile, "board": _board, "scroll_board": _scroll_board,
}


# --- cross-family checks -------------------------------------------------------------------------

def _cross_checks(c: m.Catalog) -> list[str]:
    out: list[str] = []

    def family(name: str) -> str:
        """Where to look for a family-wide problem: the override file and its records, if any."""
        default = _file_of(name)
        changed = sorted(rid for (fam, rid), origin in c.origins.items() if fam == name and origin != default)
        if changed:
            origin = c.origins[(name, changed[0])]
            return f"{origin}: {name} {', '.join(changed)}"
        return f"{default}: {name}"

    def bad(fam: str, rid: str, problem: str) -> None:
        out.append(f"{c.origins.get((fam, rid), _file_of(fam))}: {fam} {rid}: {problem}")

    classes = Counter(h.cls for h in c.hexes.values())
    if classes["B"] != 2:
        out.append(f"{family('hex')}: {classes['B']} B hexes, R-SETUP-2/3 needs exactly 2")
    if classes["C"] < 4:
        out.append(f"{family('hex')}: {classes['C']} C hexes, 5 expansions (R-NEXT-6) need at least 4")
    for d in c.docks.values():
        if d.harbor not in c.harbors:
            bad("dock", d.id, f"unknown harbor {d.harbor}")
    named = Counter(t.dock for t in c.docking_tiles.values())
    for t in c.docking_tiles.values():
        if t.dock not in c.docks:
            bad("docking_tile", t.id, f"unknown dock {t.dock}")
        elif named[t.dock] > 1:
            bad("docking_tile", t.id, f"dock {t.dock} is named by {named[t.dock]} tiles; each dock by one (M-4)")
    if len({d.harbor for d in c.docks.values()}) != 4:
        out.append(f"{family('dock')}: each harbor needs exactly one dock (M-4)")
    for lay in c.layouts.values():
        for h in lay.harbors:
            if h not in c.harbors:
                bad("layout", lay.id, f"unknown harbor {h}")
        for n in lay.players:
            kept = sum(1 for h in c.hexes.values() if h.cls == "A" and h.in_count(n))
            if kept + 1 != len(lay.start):
                bad("layout", lay.id, f"{len(lay.start)} start spaces but {n} players keep {kept} A hexes + 1 B "
                                      "(R-SETUP-2)")
    for n in (2, 3, 4):
        if not any(n in lay.players for lay in c.layouts.values()):
            out.append(f"{family('layout')}: no city for {n} players")
    stones = sum(1 for b in c.boats.values() if b.cargo == "stones")
    if stones != 3:
        out.append(f"{family('boat')}: {stones} boats carry precious stones; 2p keeps 6 of 9 (R-SETUP-8)")
    for side, boats in (("2p", 6), ("3-4p", 9)):
        info = c.round_info.get(side)
        if info is None:
            out.append(f"{family('round_info')}: no table for side {side}")
        elif sum(r.boats for r in info.rounds) > boats:
            bad("round_info", side, f"{sum(r.boats for r in info.rounds)} boats arrive but only {boats} are in play")
        if side not in c.priority_tiles:
            out.append(f"{family('priority_tile')}: no column for side {side}")
        for kind in ("popularity", "city", "church"):
            reg = c.registers.get(f"{kind}-{side}")
            if reg is None:
                out.append(f"{family('register')}: missing {kind}-{side}")
            elif reg.kind != kind or reg.side != side:
                bad("register", reg.id, "kind and side must match the id")
            elif kind == "city":
                icons = [s.reward.icons() for s in reg.spaces]
                if sum("lieutenant" in i for i in icons) < 2:
                    bad("register", reg.id, "the city register needs 2 figure spaces (R-SETUP-15, R-REG-4)")
                if not any("any-hex" in i for i in icons):
                    bad("register", reg.id, "the city register has an any-hex space (R-REG-4)")
    eras = Counter((w.era, w.cls) for w in c.workshops.values())
    for era in (1, 2):
        for cls in CLASSES:
            if eras[(era, cls)] == 0:
                out.append(f"{family('workshop')}: no era {era} {cls} workshop (R-SETUP-11)")
    backs = Counter(w.back for w in c.wagons.values())
    if sorted(backs.items()) != [(n, 2) for n in range(1, 6)]:
        out.append(f"{family('wagon')}: backs must be 5 pairs numbered 1–5 (R-SETUP-10)")
    for t in c.solo_tiles.values():
        if t.hex not in c.hexes and t.hex not in c.harbors:
            bad("solo_tile", t.id, f"unknown hex {t.hex}")
        elif t.hex in c.hexes and not c.hexes[t.hex].in_count(1):
            bad("solo_tile", t.id, f"hex {t.hex} is never in a solo game (it uses the 2-player set, R-SETUP-20)")
    if not c.wheel:
        out.append(f"{family('wheel')}: no windows")
    for sid in ("a",):
        if sid not in c.boards:
            out.append(f"{family('board')}: player board a is missing")
        if sid not in c.scroll_boards:
            out.append(f"{family('scroll_board')}: scroll board a is missing")
    return out
