"""One builder per family: a plain record (as the files or a stored game give it) becomes its immutable
object, or a RecordError saying in words what is wrong with it. Checks that need other families
(a dock's harbor, how many B hexes) wait for the whole catalog: companion/catalog/checks.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise
from types import MappingProxyType
from typing import Any

from ..words import Text
from . import model as m
from .fields import (
    Problem,
    bool_field,
    citizens_field,
    coord,
    cost_field,
    int_field,
    one_of,
    provenance,
    reward_field,
    str_field,
)
from .problems import exception_text
from .rewards import CLASSES, GrammarError

COLOURS = ("orange", "white", "blue", "red")
RATS = ("left", "right", "standing")
PRIORITIES = ("none", "popularity", "city", "church", "score")
SOLO_ACTIONS = ("boat", "wagon", "workshop-aristocrat", "workshop-nun", "workshop-craftsman", "improvements")
TRACK_KINDS = ("buildings", "boats", "repopulated", "goods", "workshops", "lumber", "improvements",
               "coins", "register-city", "register-church", "register-popularity", "overseers")


class RecordError(ValueError):
    """One record is wrong; the message says what, in words (the caller adds file, family and id)."""


def build_record(family: str, rec: dict) -> Any:
    """One record as its immutable object. Whatever a hand-typed value makes a builder raise (a table
    where a list belongs, a list nested too deeply) becomes a RecordError saying so, never a crash."""
    try:
        return _BUILDERS[family](rec)
    except (Problem, GrammarError) as exc:
        raise RecordError(exception_text(exc)) from None
    except RecursionError:
        raise RecordError(Text("nested too deeply")) from None
    except Exception as exc:
        raise RecordError(Text("missing or malformed field: {error}", error=repr(exc))) from None


def _hex(rec: dict) -> m.Hex:
    cls = one_of(rec, "class", ("A", "B", "C"))
    repop = bool_field(rec, "repop")
    return m.Hex(
        id=rec["id"], name=str_field(rec, "name"), cls=cls,
        players=one_of(rec, "players", ("all", "3-4", "4")) if cls == "A" else None,
        colour=one_of(rec, "colour", COLOURS), rat=one_of(rec, "rat", RATS + ("none",)),
        action=reward_field(rec, "action"), repop=repop,
        repop_cost=cost_field(rec, "repop_cost") if repop else None,
        repop_citizens=citizens_field(rec) if repop else (),
        repop_lieutenant=bool_field(rec, "repop_lieutenant", False) if repop else False,
        repop_vp=int_field(rec, "repop_vp", 0, 30) if repop else 0,
        prov=provenance(rec),
    )


def _harbor(rec):
    return m.Harbor(rec["id"], str_field(rec, "name"), reward_field(rec, "action"), provenance(rec))


def _dock(rec):
    return m.Dock(rec["id"], str_field(rec, "harbor"), int_field(rec, "spaces", 1, 9), provenance(rec))


def _docking_tile(rec):
    return m.DockingTile(rec["id"], str_field(rec, "dock"), provenance(rec))


def _layout(rec):
    players = rec.get("players")
    if not isinstance(players, list) or not players or not all(p in (2, 3, 4) for p in players):
        raise Problem(Text("{key} must list player counts 2–4, not {value}", key="players", value=repr(players)))
    start = tuple(coord(c, "start") for c in rec.get("start", []))
    harbors = rec.get("harbors")
    if not isinstance(harbors, dict) or len(harbors) != 4:
        raise Problem(Text("{key} must map the 4 harbor ids to coordinates", key="harbors"))
    harbors = {h: coord(c, Text("harbor {harbor}", harbor=h)) for h, c in harbors.items()}
    expansion = {}
    for x in rec.get("expansion", []):
        expansion[str_field(x, "id")] = coord(x.get("at"), Text("expansion {space}", space=str(x.get("id"))))
    if len(expansion) != 6:
        raise Problem(Text("a city has 6 expansion spaces (R-NEXT-6), found {n}", n=len(expansion)))
    ring = tuple(rec.get("ring", []))
    if sorted(ring) != sorted(list(harbors) + list(expansion)):
        raise Problem(Text("{key} must list each harbor and expansion space exactly once", key="ring"))
    cells = list(start) + list(harbors.values()) + list(expansion.values())
    if len(set(cells)) != len(cells):
        raise Problem(Text("two spaces share a coordinate"))
    placed = set(start) | set(harbors.values())
    if not _connected(placed):
        raise Problem(Text("start hexes and harbors do not form one connected city"))
    for xid, at in expansion.items():
        if sum(_neighbour(at, c) for c in placed) < 2:
            raise Problem(Text("expansion space {space} touches fewer than 2 placed hexes", space=xid))
    for hid, at in harbors.items():
        if not any(_neighbour(at, c) for c in start):
            raise Problem(Text("harbor {harbor} touches no start hex", harbor=hid))
    return m.Layout(rec["id"], tuple(players), start, MappingProxyType(harbors), MappingProxyType(expansion),
                    ring, provenance(rec))


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
        value = one_of(rec, colour, CLASSES + ("none",))
        colours[colour] = None if value == "none" else value
    given = [c for c in colours.values() if c]
    if sorted(given) != sorted(CLASSES):
        raise Problem(Text("a window shows each citizen class on exactly one colour and one colour empty (R-R1-2)"))
    return m.WheelWindow(rec["id"], one_of(rec, "rat", RATS), MappingProxyType(colours), provenance(rec))


def _round_info(rec):
    rows = rec.get("rounds")
    if not isinstance(rows, list) or len(rows) != 6:
        raise Problem(Text("{key} must list the 6 rounds I–VI", key="rounds"))
    out = []
    for i, row in enumerate(rows, 1):
        try:
            out.append(m.RoundRow(one_of(row, "priority", PRIORITIES), int_field(row, "boats", 1, 2),
                                  int_field(row, "fire_cost", 1, 2), bool_field(row, "double_wheel")))
        except Problem as exc:
            raise Problem(Text("round {round}: {problem}", round=i, problem=exception_text(exc))) from None
    if out[0].priority != "none" or out[0].boats != 1:
        raise Problem(Text("round I has no priority register (random order) and 1 boat (R-R1-1, R-R1-3)"))
    if any(r.priority == "none" for r in out[1:]):
        raise Problem(Text("rounds II–VI need a priority register (R-NEXT-4)"))
    return m.RoundInfo(rec["id"], tuple(out), provenance(rec))


def _priority_tile(rec):
    values = rec.get("priority")
    if not isinstance(values, list) or len(values) != 6 or values[0] != "none" or any(
            v not in PRIORITIES[1:] for v in values[1:]):
        raise Problem(Text("{key} must list 6 values: {none} for round I, then {others}", key="priority", none="'none'",
                           others="/".join(PRIORITIES[1:])))
    return m.PriorityTile(rec["id"], tuple(values), provenance(rec))


def _register(rec):
    spaces = rec.get("space")
    if not isinstance(spaces, list) or len(spaces) < 2:
        raise Problem(Text("a register needs its {table} list", table="[[register.space]]"))
    built = []
    for i, s in enumerate(spaces):
        try:
            built.append(m.RegisterSpace(reward_field(s, "reward"), int_field(s, "vp", 0, 99)))
        except Problem as exc:
            raise Problem(Text("space {space}: {problem}", space=i, problem=exception_text(exc))) from None
    n = len(built)
    single, double = int_field(rec, "single_bar", 1, n - 1), int_field(rec, "double_bar", 1, n - 1)
    if double <= single:
        raise Problem(Text("{key} must lie beyond {other} (R-ADV-5)", key="double_bar", other="single_bar"))
    if not built[0].reward.is_nothing:
        raise Problem(Text("the start space (index 0) gives nothing"))
    return m.Register(rec["id"], one_of(rec, "kind", ("popularity", "city", "church")),
                      one_of(rec, "side", ("2p", "3-4p")), single, double, tuple(built), provenance(rec))


def _rat_table(rec):
    pen = rec.get("penalty")
    if not isinstance(pen, list) or len(pen) < 8 or not all(isinstance(p, int) and p >= 0 for p in pen):
        raise Problem(Text("{key} must list VP lost for 0, 1, 2 … rats", key="penalty"))
    if any(b < a for a, b in pairwise(pen)):
        raise Problem(Text("{key} must never shrink as rats grow", key="penalty"))
    if pen[7] != 13 or pen[-1] != 21 or max(pen) != 21:
        raise Problem(Text("the rulebook fixes 7 rats → 13 VP and a maximum of 21 (R-END-2)"))
    return m.RatTable(rec["id"], tuple(pen), provenance(rec))


def _boat(rec):
    reward = reward_field(rec, "reward")
    if reward.is_choice or not reward.icons() <= {"coin", "vp"}:
        raise Problem(Text("a boat gives coins or VP (R-TURN-DOCK-5)"))
    return m.Boat(rec["id"], int_field(rec, "back", 1, 9), one_of(rec, "cargo", ("stones", "spices", "silk")),
                  reward, provenance(rec))


def _workshop(rec):
    era = int_field(rec, "era", 1, 2)
    output = reward_field(rec, "output") if era == 1 else None
    up = reward_field(rec, "upgraded_output") if era == 1 and "upgraded_output" in rec else None
    reward = reward_field(rec, "reward") if era == 2 else None
    return m.Workshop(rec["id"], era, one_of(rec, "class", CLASSES), cost_field(rec, "cost"),
                      bool_field(rec, "needs_upgraded"), output, up, reward, provenance(rec))


def _improvement(rec):
    cls = rec.get("class")
    if cls is not None and cls not in CLASSES:
        raise Problem(Text("{key} must be one of {allowed}, not {value}", key="class", allowed=str(CLASSES),
                           value=repr(cls)))
    return m.Improvement(rec["id"], cost_field(rec, "cost"), reward_field(rec, "output"), cls, provenance(rec))


def _wagon(rec):
    return m.Wagon(rec["id"], int_field(rec, "back", 1, 5), cost_field(rec, "cost"), int_field(rec, "vp", 0, 30),
                   provenance(rec))


def _solo_tile(rec):
    return m.SoloTile(rec["id"], str_field(rec, "hex"), one_of(rec, "action", SOLO_ACTIONS), provenance(rec))


def _square(rec, parent):
    prov = provenance(rec) if "source" in rec else parent
    return m.Square(str_field(rec, "id"), one_of(rec, "sector", CLASSES), str_field(rec, "region"),
                    reward_field(rec, "reward"), bool_field(rec, "once", False), prov)


def _space(rec, where: str) -> m.PathSpace:
    if not isinstance(rec, dict):
        raise Problem(Text("{where}: a path space is a table", where=where))
    t = one_of(rec, "type", ("T1", "T2", "T3", "T4"))
    sq, rg = tuple(rec.get("squares", [])), tuple(rec.get("regions", []))
    need = {"T1": (2, 0), "T2": (0, 1), "T3": (0, 2), "T4": (0, 0)}[t]
    if (len(sq), len(rg)) != need:
        raise Problem(Text("{where} {space}: {type} needs {squares} squares and {regions} regions (R-OVS-7)",
                           where=where,
                           space=str(rec.get("id")), type=t, squares=need[0], regions=need[1]))
    return m.PathSpace(str_field(rec, "id"), t, sq, rg, bool_field(rec, "hexagonal", False))


def _board(rec):
    prov = provenance(rec)
    squares = tuple(_square(s, prov) for s in rec.get("square", []))
    by_id = {s.id: s for s in squares}
    if len(squares) != 18 or len(by_id) != 18:
        raise Problem(Text("a board has 18 squares with distinct ids (3 sectors × 6)"))
    side = one_of(rec, "side", ("a", "b"))
    regions = _regions(squares, side)
    paths = {}
    for p in rec.get("path", []):
        path = _path(p, by_id, regions)
        paths[path.overseer] = path
    if sorted(paths) != sorted(CLASSES):
        raise Problem(Text("a board has one path per overseer ({overseers})", overseers=", ".join(CLASSES)))
    return m.Board(rec["id"], side, int_field(rec, "cabins", 1, 6), int_field(rec, "workshop_slots", 1, 12),
                   squares, MappingProxyType(paths), prov, MappingProxyType(by_id))


def _regions(squares: tuple[m.Square, ...], side: str) -> dict[str, list[m.Square]]:
    """The board's regions by id, once each sector has 6 squares (R-ADV-2's single-use square on b
    boards) and each region is 3 squares of one sector."""
    regions: dict[str, list[m.Square]] = {}
    for s in squares:
        regions.setdefault(s.region, []).append(s)
    for cls in CLASSES:
        sector = [s for s in squares if s.sector == cls]
        if len(sector) != 6:
            raise Problem(Text("sector {sector} has {n} squares, needs 6", sector=cls, n=len(sector)))
        once = sum(s.once for s in sector)
        if once != (1 if side == "b" else 0):
            raise Problem(Text("sector {sector}: {n} single-use squares (R-ADV-2: one on b boards, none on a)",
                               sector=cls,
                               n=once))
    for rid, members in regions.items():
        if len(members) != 3 or len({s.sector for s in members}) != 1:
            raise Problem(Text("region {region} must be 3 squares of one sector", region=rid))
    return regions


def _path(p, by_id: dict[str, m.Square], regions: dict[str, list[m.Square]]) -> m.Path:
    """An overseer's path: step 1, then two branches of steps 2–6 (R-OVS-3), each space naming squares
    and regions of this board, and the centre (T4) at step 6 only."""
    cls = one_of(p, "overseer", CLASSES)
    first = _space(p.get("first"), Text("{overseer} path step 1", overseer=cls))
    left = tuple(_space(s, Text("{overseer} path left", overseer=cls)) for s in p.get("left", []))
    right = tuple(_space(s, Text("{overseer} path right", overseer=cls)) for s in p.get("right", []))
    if len(left) != 5 or len(right) != 5:
        raise Problem(Text("{overseer} path: each branch lists steps 2–6 (R-OVS-3)", overseer=cls))
    for space in (first,) + left + right:
        for sid in space.squares:
            if sid not in by_id:
                raise Problem(Text("{overseer} path space {space}: unknown square {square}", overseer=cls,
                                   space=space.id,
                                   square=sid))
        for rid in space.regions:
            if rid not in regions:
                raise Problem(Text("{overseer} path space {space}: unknown region {region}", overseer=cls,
                                   space=space.id,
                                   region=rid))
        if space.type == "T3" and len({regions[r][0].sector for r in space.regions}) != 2:
            raise Problem(Text("{overseer} path space {space}: T3 regions must be of different sectors", overseer=cls,
                               space=space.id))
    for branch in (left, right):
        if branch[-1].type != "T4" or any(s.type == "T4" for s in (first,) + branch[:-1]):
            raise Problem(Text("{overseer} path: step 6, and only step 6, is the centre (T4)", overseer=cls))
    return m.Path(cls, first, left, right)


def _track(rec, parent):
    prov = provenance(rec) if "source" in rec else parent
    counts = one_of(rec, "counts", TRACK_KINDS)
    levels = rec.get("levels")
    if not isinstance(levels, list) or len(levels) < 2:
        raise Problem(Text("track {track}: {key} must list at least 2 levels", track=str(rec.get("id")), key="levels"))
    width = 2 if counts.startswith("register-") else 3 if counts == "overseers" else 1
    for lv in levels:
        vals = lv if width > 1 else [lv]
        if width > 1 and (not isinstance(lv, list) or len(lv) != width):
            raise Problem(Text("track {track}: each level of a {counts} track is a list of {width} numbers",
                               track=str(rec.get("id")), counts=counts, width=width))
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < math.inf for v in vals):
            raise Problem(Text("track {track}: level values must be numbers ≥ 0", track=str(rec.get("id"))))
    return m.Track(str_field(rec, "id"), counts, int_field(rec, "cap", 0, 99),
                   tuple(tuple(lv) if isinstance(lv, list) else lv for lv in levels), prov)


def _scroll_board(rec):
    prov = provenance(rec)
    tracks = tuple(_track(t, prov) for t in rec.get("track", []))
    if len(tracks) != 3 or len({t.id for t in tracks}) != 3:
        raise Problem(Text("a scroll board has 3 tracks with distinct ids"))
    return m.ScrollBoard(rec["id"], one_of(rec, "side", ("a", "b")), tracks, prov)


_BUILDERS: dict[str, Callable[[dict], Any]] = {
    "hex": _hex, "harbor": _harbor, "dock": _dock, "docking_tile": _docking_tile, "layout": _layout,
    "wheel": _wheel, "round_info": _round_info, "priority_tile": _priority_tile, "register": _register,
    "rat_table": _rat_table, "boat": _boat, "workshop": _workshop, "improvement": _improvement,
    "wagon": _wagon, "solo_tile": _solo_tile, "board": _board, "scroll_board": _scroll_board,
}

