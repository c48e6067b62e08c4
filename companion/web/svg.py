"""Pictures of the table as inline SVG and small HTML fragments: state in, `Markup` out.

Pure functions, no Flask and no request, so the views stay thin and every picture is testable. Each
catalog or player text is escaped (a name may be "<script>"); each fixed English word goes through `_`
so the pages can be translated. Colours are never the only cue: players carry their letter (R/Y/B/G),
citizens their class letter (A/N/C), and upgraded citizens are gold with a star.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import textwrap
from types import SimpleNamespace
from typing import Callable

from markupsafe import Markup, escape

from ..engine.city import space_coord
from ..engine.state import COLOUR_LETTERS, Citizen, Overseer
from .translate import tr

Gettext = Callable[[str], str]
SVG_NS = "http://www.w3.org/2000/svg"
R = 60  # hex radius (centre to corner) in SVG units
HW = R * math.sqrt(3) / 2  # half the width of a pointy-top hex
PLAYER_FILL = {"red": "#d62728", "yellow": "#f2c12e", "blue": "#1f6fd1", "green": "#2ca02c"}
HEX_FILL = {"orange": "#f6a04d", "white": "#f4f1e8", "blue": "#9cc3ec", "red": "#e8847a", "harbor": "#b9b9b9"}
CLASS_LETTER = {"aristocrat": "A", "nun": "N", "craftsman": "C"}
CLASS_FILL = {"aristocrat": "#6a4c93", "nun": "#37474f", "craftsman": "#8d5524"}
RAT_LETTER = {"left": "L", "right": "R", "standing": "S"}
GOLD = "#d4a017"
ERA = {1: "I", 2: "II"}
_ATTR_NAME = re.compile(r"^[A-Za-z_:][-A-Za-z0-9_:.]*$")


def _same(s: str) -> str:
    """The default `_`: English as written, when no translation is installed."""
    return s


# ---------------------------------------------------------------- markup helpers


def _fmt(v) -> str:
    """Numbers short (12.5, not 12.500000001) so the markup stays small."""
    if isinstance(v, float):
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return str(v)


def el(tag: str, attrs: dict | None = None, *children) -> Markup:
    """One element; attribute values and text children escaped, Markup children kept as they are.
    Attribute names are checked because targets' attrs come from callers. Built as one plain string and
    marked safe once: a phone's estate is a few hundred elements, drawn again after every move."""
    head = [tag]
    for k, v in (attrs or {}).items():
        if v is None or v is False:
            continue
        if k not in _CHECKED and not _ATTR_NAME.match(k):
            raise ValueError(f"bad attribute name {k!r}")
        head.append(f'{k}="{_fmt(v) if type(v) in _NUMBERS else escape(v)}"')  # digits need no escaping
    inner = "".join(c if isinstance(c, Markup) else escape(c if isinstance(c, str) else _fmt(c))
                    for c in _flatten(children) if c is not None)
    opening = " ".join(head)
    if not inner and tag not in _NEVER_EMPTY:
        return Markup(f"<{opening}/>")
    return Markup(f"<{opening}>{inner}</{tag}>")


_NUMBERS = (int, float)
_NEVER_EMPTY = frozenset(("text", "title", "dd", "dt", "td", "th", "li", "span", "div"))
_CHECKED = frozenset(("x", "y", "width", "height", "fill", "stroke", "class", "font-size", "text-anchor",
                      "dominant-baseline", "points", "d", "r", "cx", "cy", "transform", "stroke-width", "id",
                      "data-seat", "opacity", "font-weight", "x1", "y1", "x2", "y2", "rx"))


def _flatten(items):
    """Children may come as nested lists, so callers can build rows with comprehensions."""
    for c in items:
        if isinstance(c, (list, tuple)):
            yield from _flatten(c)
        else:
            yield c


def txt(x, y, s, size=10, anchor="middle", fill="#111", **attrs) -> Markup:
    """Text centred on (x, y) by default: one place decides font and baseline for every label."""
    base = {"x": x, "y": y, "font-size": size, "text-anchor": anchor, "fill": fill, "dominant-baseline": "central"}
    return el("text", {**base, **attrs}, s)


def svg(x0, y0, w, h, label: str, cls: str, *body) -> Markup:
    """The root: a viewBox and width 100% so one picture scales from a phone to a TV."""
    return el("svg", {"xmlns": SVG_NS, "viewBox": f"{_fmt(x0)} {_fmt(y0)} {_fmt(w)} {_fmt(h)}", "class": cls,
                      "role": "img", "aria-label": label, "width": "100%", "font-family": "sans-serif",
                      "preserveAspectRatio": "xMidYMid meet"},  # sized by static/app.css (no style attribute: CSP)
              el("title", {}, label), *body)


def hex_points(cx, cy, r=R) -> str:
    """Corners of a pointy-top hex."""
    pts = [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30)))
           for k in range(6)]
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in pts)


def axial_to_xy(q: int, r: int) -> tuple[float, float]:
    """Pointy-top axial coordinates (row r shifted half a hex per row) to SVG units."""
    return R * math.sqrt(3) * (q + r / 2), 1.5 * R * r


def _ink(colour: str) -> str:
    """Text colour that stays legible on a player's colour."""
    return "#000" if colour == "yellow" else "#fff"


def _letter(colour: str) -> str:
    """A player colour's letter, so colour is never the only cue."""
    return COLOUR_LETTERS.get(colour, "?")


def _row(n: int, cx: float, step: float) -> list[float]:
    """x positions of n things centred on cx."""
    return [cx + (i - (n - 1) / 2) * step for i in range(n)]


# ---------------------------------------------------------------- small glyphs


def citizen_chip(c, x, y, _: Gettext = _same, r=7) -> Markup:
    """A citizen: class colour and letter; upgraded ones gold with a black star."""
    cls = c.cls
    fill = GOLD if c.upgraded else CLASS_FILL.get(cls, "#777")
    title = (_("upgraded") + " " if c.upgraded else "") + _(cls)
    star = _star(x + r * 0.85, y - r * 0.85, r * 0.6) if c.upgraded else None
    return el("g", {"class": f"citizen citizen-{cls}" + (" upgraded" if c.upgraded else "")},
              el("title", {}, title),
              el("circle", {"cx": x, "cy": y, "r": r, "fill": fill, "stroke": "#000", "stroke-width": 1}),
              txt(x, y, CLASS_LETTER.get(cls, "?"), size=r * 1.3, fill="#000" if c.upgraded else "#fff",
                  **{"font-weight": "bold"}), star)


def _star(x, y, r) -> Markup:
    """The upgrade mark: a small black star, visible without seeing gold."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append(f"{_fmt(x + rad * math.cos(a))},{_fmt(y + rad * math.sin(a))}")
    return el("polygon", {"class": "upgrade-mark", "points": " ".join(pts), "fill": "#000", "stroke": "#fff",
                          "stroke-width": 0.5})


def lieutenant_mark(seat, used: bool, x, y, _: Gettext = _same) -> Markup:
    """A lieutenant: standing (used this round) upright, lying (unused) flat; seat colour and letter."""
    w, h = (11, 19) if used else (19, 11)
    pose = _("standing") if used else _("lying")
    return el("g", {"class": "lieutenant " + ("standing" if used else "lying"), "data-colour": seat.colour},
              el("title", {}, f"{seat.name} ({_letter(seat.colour)}): {_('lieutenant')}, {pose}"),
              el("rect", {"x": x - w / 2, "y": y - h / 2, "width": w, "height": h, "rx": 2,
                          "fill": PLAYER_FILL.get(seat.colour, "#888"), "stroke": "#000"}),
              txt(x, y, _letter(seat.colour), size=8, fill=_ink(seat.colour), **{"font-weight": "bold"}))


def rat_glyph(rat: str, x, y, _: Gettext = _same, size=1.0) -> Markup:
    """The rat icon a hex or window shows: a little rat facing its way, plus its initial L/R/S."""
    if rat not in RAT_LETTER:
        return Markup("")
    s = size
    if rat == "standing":
        body = el("ellipse", {"cx": x, "cy": y + 1 * s, "rx": 3.5 * s, "ry": 5.5 * s, "fill": "#555"})
        head = el("circle", {"cx": x, "cy": y - 5 * s, "r": 2.5 * s, "fill": "#555"})
    else:
        d = -1 if rat == "left" else 1
        body = el("ellipse", {"cx": x, "cy": y, "rx": 5.5 * s, "ry": 3.5 * s, "fill": "#555"})
        head = el("circle", {"cx": x + d * 5.5 * s, "cy": y - 1 * s, "r": 2.5 * s, "fill": "#555"})
    return el("g", {"class": f"rat rat-{rat}"}, el("title", {}, f"{_('rat')}: {_(rat)}"), body, head,
              txt(x + 12 * s, y, RAT_LETTER[rat], size=9 * s, **{"font-weight": "bold"}))


def cubes_mark(n: int, x, y, _: Gettext = _same) -> Markup:
    """Plague cubes as black squares from x rightwards; above 3, one square and the count."""
    if n <= 0:
        return Markup("")
    shown = n if n <= 3 else 1
    body = [el("rect", {"x": x + i * 11, "y": y - 4.5, "width": 9, "height": 9, "fill": "#000"}) for i in range(shown)]
    if n > 3:
        body.append(txt(x + 12, y, f"×{n}", size=10, anchor="start", **{"font-weight": "bold"}))
    return el("g", {"class": "cubes", "data-count": n}, el("title", {}, f"{n} {_('plague cubes')}"), body)


def badge(x, y, label: str) -> Markup:
    """A target's label (e.g. its cost) drawn over the place it belongs to."""
    w = max(30, 6.2 * len(label) + 10)
    return el("g", {"class": "badge"},
              el("rect", {"x": x - w / 2, "y": y - 8, "width": w, "height": 16, "rx": 8, "fill": "#fff",
                          "stroke": "#000", "stroke-width": 1.5}),
              txt(x, y, label, size=10, **{"font-weight": "bold"}))


# ---------------------------------------------------------------- the city


def _standing_at(state, place: str) -> list[tuple]:
    """(seat, lieutenant) pairs whose figure stands at a place ("hex:<tile>" or "dock:<id>")."""
    figs = [(seat, lt) for seat in state.seats for lt in seat.lieutenants if lt.where == place]
    opp = getattr(state, "opponent", None)
    if opp is not None and place.startswith("hex:") and place[4:] in opp.placed:
        figs.append((SimpleNamespace(name="Opponent", colour=opp.colour), SimpleNamespace(used=True)))
    return figs


def _target_attrs(base: dict, target: dict | None) -> dict:
    """Merge a target's attrs over the group's own; a class is added to, never replaced."""
    if not target:
        return base
    extra = dict(target.get("attrs") or {})
    classes = [base["class"], "target", extra.pop("class", None)]
    return {**base, **extra, "class": " ".join(c for c in classes if c)}


def _hex_group(state, tile: str, cx, cy, target, _: Gettext) -> Markup:
    """One placed hex: fill, id, rat, name, repopulation tile, citizens, cubes, lieutenants, badge."""
    info = state.catalog.tile(tile)
    h = state.hexes[tile]
    key = info.colour if info.colour in HEX_FILL else "harbor"
    base = {"id": f"hex-{tile}", "class": f"hex hex-{key}", "data-place": f"hex:{tile}"}
    name = info.name
    squeeze = {"textLength": 2 * HW - 16, "lengthAdjust": "spacingAndGlyphs"} if len(name) > 14 else {}
    name_size = min(11, (2 * HW - 16) / (0.6 * len(name)))
    return el("g", _target_attrs(base, target),
              el("title", {}, f"{name} ({tile})"),
              el("polygon", {"points": hex_points(cx, cy), "fill": HEX_FILL[key], "stroke": "#222",
                             "stroke-width": 4 if target else 1.5, "class": "hex-shape"}),
              rat_glyph(info.rat, cx - 24, cy - 37, _),
              txt(cx + (10 if info.rat in RAT_LETTER else 0), cy - 37, tile, size=10, fill="#333"),
              txt(cx, cy - 21, name, size=name_size, **{"font-weight": "bold"}, **squeeze),
              _repop_tile(state, h, cx - HW + 14, cy + 2, _),
              _hex_citizens(h, cx + (8 if h.repopulated_by is not None else 0), cy, _),
              cubes_mark(h.cubes, cx - HW + 12, cy + 27, _),
              _figures(state, f"hex:{tile}", cx + 24, cy + 27, _),
              badge(cx, cy + 43, str(target.get("label") or "")) if target and target.get("label") else None)


def _repop_tile(state, h, x, y, _: Gettext) -> Markup | None:
    """A repopulated hex carries its repopulator's tile: a square in their colour with their letter."""
    if h.repopulated_by is None:
        return None
    seat = state.seats[h.repopulated_by]
    return el("g", {"class": "repop-tile", "data-colour": seat.colour},
              el("title", {}, f"{_('repopulated by')} {seat.name} ({_letter(seat.colour)})"),
              el("rect", {"x": x - 9, "y": y - 9, "width": 18, "height": 18,
                          "fill": PLAYER_FILL.get(seat.colour, "#888"), "stroke": "#000", "stroke-width": 1.5}),
              txt(x, y, _letter(seat.colour), size=10, fill=_ink(seat.colour), **{"font-weight": "bold"}))


def _hex_citizens(h, cx, cy, _: Gettext) -> Markup:
    """Up to two rows of five citizens; more than ten shows the rest as +n."""
    cits = h.citizens
    out = []
    for row in range(2):
        part = cits[row * 5:(row + 1) * 5]
        y = cy - 4 + row * 15
        out += [citizen_chip(c, x, y, _) for x, c in zip(_row(len(part), cx, 16), part)]
    if len(cits) > 10:
        out.append(txt(cx + 44, cy + 11, f"+{len(cits) - 10}", size=9, anchor="end"))
    return el("g", {"class": "citizens", "data-count": len(cits)}, out)


def _figures(state, place: str, cx, y, _: Gettext) -> Markup:
    """Every lieutenant at a place, side by side, squeezed when there are many."""
    figs = _standing_at(state, place)
    step = 14 if len(figs) <= 3 else 42 / (len(figs) - 1)
    return el("g", {"class": "figures"},
              [lieutenant_mark(seat, lt.used, x, y, _) for x, (seat, lt) in zip(_row(len(figs), cx, step), figs)])


def _empty_space(sid: str, cx, cy, _: Gettext) -> Markup:
    """An expansion space nobody has built on yet: a dashed outline with its id."""
    return el("g", {"class": "space-empty", "id": f"space-{sid}", "data-space": sid},
              el("title", {}, f"{_('empty space')} {sid}"),
              el("polygon", {"points": hex_points(cx, cy, R - 3), "fill": "none", "stroke": "#777",
                             "stroke-width": 1.5, "stroke-dasharray": "6 4", "class": "space-outline"}),
              txt(cx, cy - 8, sid, size=12, fill="#555", **{"font-weight": "bold"}),
              txt(cx, cy + 10, _("empty space"), size=9, fill="#555"))


DOCK_W, BOAT_H = 100, 24


def _dock_box(state, dock, x, y, target, _: Gettext) -> tuple[Markup, float]:
    """A dock beside its harbor: its boats (id, cube marker), free spaces dashed, lieutenants there.
    (x, y) is the box's top-left corner; returns the markup and the box height."""
    boats = state.docks.get(dock.id, [])
    height = 22 + dock.spaces * BOAT_H + 28
    body = [el("rect", {"x": x, "y": y, "width": DOCK_W, "height": height, "rx": 6, "fill": "#dbe9f4",
                        "stroke": "#222", "stroke-width": 4 if target else 1.5, "class": "dock-shape"}),
            txt(x + DOCK_W / 2, y + 11, f"{_('Dock')} {dock.id.removeprefix('dock-')}", size=11,
                **{"font-weight": "bold"})]
    for i in range(dock.spaces):
        by = y + 22 + i * BOAT_H + BOAT_H / 2
        body.append(_boat(state, boats[i], x + 42, by, _) if i < len(boats) else
                    el("rect", {"class": "boat-space", "x": x + 10, "y": by - 8, "width": 64, "height": 16,
                                "fill": "none", "stroke": "#777", "stroke-dasharray": "4 3"}))
    body.append(_figures(state, f"dock:{dock.id}", x + DOCK_W / 2, y + height - 14, _))
    if target and target.get("label"):
        body.append(badge(x + DOCK_W / 2, y + height, str(target["label"])))
    base = {"id": f"dock-{dock.id}", "class": "dock", "data-place": f"dock:{dock.id}"}
    return el("g", _target_attrs(base, target), el("title", {}, f"{_('Dock')} {dock.id}"), body), height


def _boat(state, at, x, y, _: Gettext) -> Markup:
    """A boat at a dock: a hull with its id; a black cube beside it while it carries plague."""
    cargo = state.catalog.boats[at.tile].cargo if at.tile in state.catalog.boats else ""
    hull = " ".join(f"{_fmt(x + dx)},{_fmt(y + dy)}" for dx, dy in ((-32, -8), (32, -8), (24, 8), (-24, 8)))
    cube = el("rect", {"class": "boat-cube", "x": x + 36, "y": y - 5, "width": 10, "height": 10, "fill": "#000"})
    return el("g", {"class": "boat" + (" has-cube" if at.cube else ""), "data-boat": at.tile},
              el("title", {}, f"{at.tile} ({cargo})" + (f", {_('plague cube')}" if at.cube else "")),
              el("polygon", {"points": hull, "fill": "#8d6e63", "stroke": "#3e2723"}),
              txt(x, y, at.tile, size=10, fill="#fff", **{"font-weight": "bold"}), cube if at.cube else None)


def city_svg(state, targets: dict | None = None, _: Gettext = _same) -> Markup:
    """The city as the table sees it; `targets` ("hex:<tile>"/"dock:<id>" → label, attrs) makes
    places tappable and labelled, drawn last so their badges sit on top."""
    targets = targets or {}
    lay = state.catalog.layout_for(state.players)
    centres = [axial_to_xy(q, r) for q, r in [*lay.start, *lay.harbors.values(), *lay.expansion.values()]]
    bounds = [(x - HW, y - R, x + HW, y + R) for x, y in centres]
    used = {h.space for h in state.hexes.values()}
    under = [_empty_space(sid, *axial_to_xy(*coord), _) for sid, coord in lay.expansion.items() if sid not in used]
    places = []
    for dock in state.catalog.docks.values():
        if dock.harbor in lay.harbors:
            pier, box, edge = _placed_dock(state, dock, lay, centres, targets.get(f"dock:{dock.id}"), _)
            under.insert(0, pier)
            places.append((f"dock:{dock.id}", box))
            bounds.append(edge)
    for tile in sorted(state.hexes):
        hx, hy = axial_to_xy(*space_coord(state, state.hexes[tile].space))
        places.append((f"hex:{tile}", _hex_group(state, tile, hx, hy, targets.get(f"hex:{tile}"), _)))
    places.sort(key=lambda p: p[0] in targets)  # stable: targets last, on top
    x0, y0 = min(b[0] for b in bounds) - 8, min(b[1] for b in bounds) - 8
    x1, y1 = max(b[2] for b in bounds) + 8, max(b[3] for b in bounds) + 8
    return svg(x0, y0, x1 - x0, y1 - y0, _("City of Messina"), "city", under, [p[1] for p in places])


def _placed_dock(state, dock, lay, centres, target, _: Gettext):
    """A dock box beside its harbor on the side away from the city's centre, with a pier to it.
    Returns the pier, the box and the box's bounds (its badge included)."""
    cx = sum(p[0] for p in centres) / len(centres)
    cy = sum(p[1] for p in centres) / len(centres)
    hx, hy = axial_to_xy(*lay.harbors[dock.harbor])
    height = 22 + dock.spaces * BOAT_H + 28
    x = hx + HW + 10 if hx >= cx else hx - HW - 10 - DOCK_W
    y = hy - height / 2 + (-R * 0.3 if hy < cy else R * 0.3)
    pier = el("line", {"class": "pier", "x1": hx, "y1": hy, "x2": x + DOCK_W / 2, "y2": y + height / 2,
                       "stroke": "#555", "stroke-width": 6})
    box, _h = _dock_box(state, dock, x, y, target, _)
    return pier, box, (x - 10, y, x + DOCK_W + 10, y + height + 10)


# ---------------------------------------------------------------- the estate

SQ_W, SQ_H, GAP = 118, 74, 6
SECTOR_W = 3 * SQ_W + 2 * GAP + 12
SECTORS = (("craftsman", 208), ("aristocrat", 8), ("nun", 408))  # top, left, right


def _square(board, sq, seat, x, y, _: Gettext) -> Markup:
    """One estate square: its citizen, its reward, a single-use mark, crossed out once spent."""
    spent = sq.id in seat.spent_squares
    cit = seat.squares.get(sq.id)
    lines = textwrap.wrap(sq.reward.text(), 20)[:4]
    body = [el("rect", {"x": x, "y": y, "width": SQ_W, "height": SQ_H, "rx": 4,
                        "fill": "#ddd" if spent else "#fffdf5", "stroke": "#444"}),
            txt(x + SQ_W - 5, y + 9, sq.id, size=9, anchor="end", fill="#555"),
            citizen_chip(cit, x + 12, y + 12, _, r=8) if cit else
            el("circle", {"cx": x + 12, "cy": y + 12, "r": 8, "fill": "none", "stroke": "#999",
                          "stroke-dasharray": "2 2"})]
    body += [txt(x + SQ_W / 2, y + 32 + i * 12 - (len(lines) - 1) * 4, ln, size=10) for i, ln in enumerate(lines)]
    if sq.once:
        body.append(el("g", {"class": "once"}, el("rect", {"x": x + 30, "y": y + 4, "width": 42, "height": 14,
                                                            "rx": 7, "fill": "#222"}),
                       txt(x + 51, y + 11, _("once"), size=9, fill="#fff")))
    if spent:
        body += [el("line", {"class": "cross", "x1": x + 4, "y1": y + 4, "x2": x + SQ_W - 4, "y2": y + SQ_H - 4,
                             "stroke": "#b00", "stroke-width": 3}),
                 el("line", {"class": "cross", "x1": x + SQ_W - 4, "y1": y + 4, "x2": x + 4, "y2": y + SQ_H - 4,
                             "stroke": "#b00", "stroke-width": 3}),
                 txt(x + SQ_W / 2, y + SQ_H - 8, _("used"), size=9, fill="#b00", **{"font-weight": "bold"})]
    cls = "square" + (" single-use" if sq.once else "") + (" spent" if spent else "")
    return el("g", {"class": cls, "id": f"square-{sq.id}", "data-square": sq.id},
              el("title", {}, f"{sq.id}: {sq.reward.text()}"), body)


def _sector(board, cls: str, seat, x, y, _: Gettext) -> tuple[Markup, float]:
    """A sector: a heading and its squares grouped in regions (one row of up to 3 each)."""
    squares = board.sector(cls)
    regions = list(dict.fromkeys(s.region for s in squares))
    out = [txt(x + SECTOR_W / 2, y + 9, f"{_(cls).capitalize()} ({CLASS_LETTER[cls]})", size=13,
               **{"font-weight": "bold"})]
    ry = y + 20
    for rid in regions:
        mine = [s for s in squares if s.region == rid]
        rows = math.ceil(len(mine) / 3)
        rh = 16 + rows * (SQ_H + GAP)
        out.append(el("g", {"class": "region", "data-region": rid},
                      el("rect", {"x": x, "y": ry, "width": SECTOR_W, "height": rh, "rx": 6, "fill": "none",
                                  "stroke": "#888", "stroke-dasharray": "5 3"}),
                      txt(x + 6, ry + 8, f"{_('region')} {rid}", size=9, anchor="start", fill="#555"),
                      [_square(board, s, seat, x + 6 + (i % 3) * (SQ_W + GAP), ry + 14 + (i // 3) * (SQ_H + GAP), _)
                       for i, s in enumerate(mine)]))
        ry += rh + 4
    return el("g", {"class": f"sector sector-{cls}"}, out), ry - y


def _cabin(state, i: int, cab, x, y, _: Gettext) -> Markup:
    """A quarantine cabin: spaces I and II (the citizen in the one it occupies) and its improvement."""
    imp = state.catalog.improvements.get(cab.improvement) if cab.improvement else None
    what = f"{cab.improvement}: {imp.output.text()}" if imp else (cab.improvement or _("not improved"))
    body = [el("rect", {"x": x, "y": y, "width": 188, "height": 92, "rx": 5, "fill": "#f3efe6", "stroke": "#444"}),
            txt(x + 8, y + 10, f"{_('Cabin')} {i + 1}", size=11, anchor="start", **{"font-weight": "bold"})]
    for k, roman in ((1, "I"), (2, "II")):
        sx = x + 10 + (k - 1) * 60
        body += [el("rect", {"x": sx, "y": y + 22, "width": 52, "height": 32, "fill": "#fff", "stroke": "#777",
                             "class": f"cabin-space space-{k}"}),
                 txt(sx + 10, y + 30, roman, size=9, fill="#555")]
        if cab.citizen and cab.space == k:
            body.append(citizen_chip(cab.citizen, sx + 32, y + 40, _, r=9))
    if cab.citizen and cab.space not in (1, 2):  # defensive: a citizen without a space still shows
        body.append(citizen_chip(cab.citizen, x + 150, y + 38, _, r=9))
    lines = textwrap.wrap(what, 32)[:2]
    body += [txt(x + 8, y + 68 + j * 12, ln, size=9, anchor="start") for j, ln in enumerate(lines)]
    return el("g", {"class": "cabin" + (" improved" if imp or cab.improvement else ""), "data-cabin": i,
                    "data-space": cab.space}, body)


def _workshop(state, ws, x, y, _: Gettext) -> Markup:
    """A workshop: tile id, class, era I/II, its citizen, and "spent" once a late one is face down."""
    w = state.catalog.workshops.get(ws.tile) if ws else None
    body = [el("rect", {"x": x, "y": y, "width": 122, "height": 76, "rx": 5,
                        "fill": "#ddd" if ws and ws.spent else "#f3efe6", "stroke": "#444",
                        "stroke-dasharray": None if ws else "5 3"})]
    if not ws:
        return el("g", {"class": "workshop empty"}, body, txt(x + 61, y + 38, _("empty slot"), size=10, fill="#666"))
    cls = w.cls if w else "?"
    body += [txt(x + 8, y + 11, ws.tile, size=11, anchor="start", **{"font-weight": "bold"}),
             txt(x + 114, y + 11, f"{_('era')} {ERA.get(w.era, w.era) if w else '?'}", size=9, anchor="end"),
             txt(x + 8, y + 28, f"{_(cls)} ({CLASS_LETTER.get(cls, '?')})", size=10, anchor="start")]
    body.append(citizen_chip(ws.citizen, x + 100, y + 50, _, r=9) if ws.citizen else
                txt(x + 8, y + 46, _("no citizen"), size=9, anchor="start", fill="#666"))
    if ws.spent:
        body.append(txt(x + 8, y + 64, _("spent"), size=10, anchor="start", fill="#b00", **{"font-weight": "bold"}))
    return el("g", {"class": "workshop" + (" spent" if ws.spent else ""), "data-tile": ws.tile}, body)


def _step_type(path, step: int, branch: str | None, _: Gettext) -> str:
    """The landing space type at a step; before the branch is chosen both branches' types show."""
    if step == 0:
        return _("start")
    if step == 1 or branch:
        return path.space(step, branch).type
    left, right = path.space(step, "left").type, path.space(step, "right").type
    return left if left == right else f"{left}/{right}"


def _overseer(board, cls: str, ov, x, y, _: Gettext) -> Markup:
    """One overseer's track of 7 steps (start … centre) with its marker, branch and upgrade."""
    path = board.paths.get(cls)
    status = [_("step") + f" {ov.step}", _("branch") + f" {_(ov.branch)}" if ov.branch else _("no branch yet")]
    if ov.upgraded:
        status.append(_("upgraded"))
    out = [txt(x, y + 8, f"{_(cls).capitalize()} ({CLASS_LETTER[cls]})", size=11, anchor="start",
               **{"font-weight": "bold"}),
           txt(x, y + 24, ", ".join(status), size=9, anchor="start", fill="#333")]
    for k in range(7):
        sx = x + 170 + k * 86
        here = k == ov.step
        out += [el("rect", {"x": sx, "y": y, "width": 80, "height": 32, "rx": 4, "stroke": "#444",
                            "fill": "#fff8e1" if here else "#fff", "stroke-width": 2.5 if here else 1,
                            "class": "step" + (" here" if here else "")}),
                txt(sx + 6, y + 9, str(k), size=9, anchor="start", fill="#555"),
                txt(sx + 40, y + 22, _step_type(path, k, ov.branch, _) if path else "", size=10)]
    mark = Citizen(0, cls, ov.upgraded)
    mx = x + 170 + ov.step * 86 + 66
    out.append(el("g", {"class": "overseer-marker", "data-step": ov.step}, citizen_chip(mark, mx, y + 12, _, r=10)))
    return el("g", {"class": f"overseer overseer-{cls}" + (" upgraded" if ov.upgraded else ""),
                    "data-step": ov.step, "data-branch": ov.branch or ""}, out)


def city_key(state) -> str:
    """Everything the host's city region draws (the map and the wheel), as one short string: the hexes,
    the docks, the wheel and round, and each seat's name, colour and lieutenants (and the solo
    opponent's figures). The same key draws the same city (tests/test_svg.py checks this over whole
    games), so a move that leaves the city alone does not redraw it."""
    seats = [(s.name, s.colour, [lt.to_dict() for lt in s.lieutenants]) for s in state.seats]
    opp = getattr(state, "opponent", None)
    what = {"hexes": {k: h.to_dict() for k, h in state.hexes.items()},
            "docks": {k: [b.to_dict() for b in v] for k, v in state.docks.items()},
            "wheel": state.wheel, "round": state.round, "players": state.players, "seats": seats,
            "opponent": (opp.colour, sorted(opp.placed)) if opp is not None else None}
    return _digest(json.dumps(what, sort_keys=True))


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def estate_key(state, seat_index: int) -> str:
    """Everything a seat's estate region shows, as one short string: the seat itself and the hexes it
    repopulated (tokens_html counts them); the rest comes from the catalog, which a game never changes.
    Two moments with the same key draw the same estate, so a move by one player redraws one estate
    instead of every phone's (tests/test_svg.py checks this over whole games)."""
    seat = state.seats[seat_index].to_dict()
    repopulated = sum(1 for h in state.hexes.values() if h.repopulated_by == seat_index)
    return _digest(f"{json.dumps(seat, sort_keys=True)}|{repopulated}")


def estate_svg(state, seat_index: int, _: Gettext = _same) -> Markup:
    """A seat's whole estate in one picture: sectors, cabins, workshops, overseers and a legend,
    stacked top to bottom so it reads on a phone held upright."""
    seat = state.seats[seat_index]
    board = state.catalog.boards[seat.board]
    parts, y = [_estate_header(seat, board, _)], 38
    for section in (_sectors, _cabins, _workshops, _overseers):
        g, y = section(state, seat, board, y, _)
        parts.append(g)
    parts.append(_legend(8, y + 8, _))
    return svg(0, 0, 800, y + 40, f"{_('Estate of')} {seat.name}", "estate", parts)


def _estate_header(seat, board, _: Gettext) -> Markup:
    """Whose estate this is: colour swatch with letter, name, board id."""
    who = f"{seat.name} ({_letter(seat.colour)})"
    return el("g", {"class": "estate-head"},
              el("rect", {"x": 8, "y": 4, "width": 26, "height": 26, "fill": PLAYER_FILL.get(seat.colour, "#888"),
                          "stroke": "#000"}),
              txt(21, 17, _letter(seat.colour), size=14, fill=_ink(seat.colour), **{"font-weight": "bold"}),
              txt(42, 17, f"{_('Estate of')} {who} · {_('board')} {board.id}", size=15, anchor="start",
                  **{"font-weight": "bold"}))


def _heading(y, label: str) -> Markup:
    """A section title inside the estate picture."""
    return txt(8, y + 8, label, size=13, anchor="start", **{"font-weight": "bold"})


def _sectors(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """Craftsman sector on top, aristocrat left and nun right below it, as on the board."""
    top, th = _sector(board, SECTORS[0][0], seat, SECTORS[0][1], y, _)
    below = [_sector(board, cls, seat, sx, y + th + 6, _) for cls, sx in SECTORS[1:]]
    return el("g", {"class": "sectors"}, top, [g for g, _h in below]), y + th + 6 + max(h for _g, h in below) + 8


def _cabins(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """The quarantine cabins, four to a row."""
    cabins = [_cabin(state, i, cab, 8 + (i % 4) * 196, y + 20 + (i // 4) * 100, _) for i, cab in enumerate(seat.cabins)]
    return el("g", {"class": "cabins"}, _heading(y, _("Quarantine cabins")), cabins), \
        y + 20 + math.ceil(max(len(seat.cabins), 1) / 4) * 100


def _workshops(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """Built workshops first, then the board's free slots dashed."""
    slots = max(board.workshop_slots, len(seat.workshops))
    shops = [_workshop(state, seat.workshops[i] if i < len(seat.workshops) else None, 8 + (i % 6) * 130,
                       y + 20 + (i // 6) * 84, _) for i in range(slots)]
    return el("g", {"class": "workshops"}, _heading(y, _("Workshops")), shops), \
        y + 20 + math.ceil(max(slots, 1) / 6) * 84


def _overseers(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """One track per overseer, in the sectors' order."""
    rows = [_overseer(board, cls, seat.overseers.get(cls) or Overseer(), 8, y + 20 + k * 42, _)
            for k, (cls, _x) in enumerate(SECTORS)]
    return el("g", {"class": "overseers"}, _heading(y, _("Overseers")), rows), y + 20 + 3 * 42


def _legend(x, y, _: Gettext) -> Markup:
    """A one-glance key so colour is never needed to read the estate."""
    line1 = f"A = {_('aristocrat')} · N = {_('nun')} · C = {_('craftsman')} · {_('gold with a star = upgraded')}"
    line2 = (f"{_('once')} = {_('single-use square')} · {_('crossed out = already used')} · "
             f"T1–T4 = {_('landing space type')}")
    return el("g", {"class": "legend"}, txt(x, y, line1, size=10, anchor="start"),
              txt(x, y + 14, line2, size=10, anchor="start"))


# ---------------------------------------------------------------- tokens (HTML)


def _where(state, lt, _: Gettext) -> str:
    """Where a lieutenant is, in words a player uses."""
    kind, _sep, rest = lt.where.partition(":")
    if kind == "hex" and rest:
        try:
            return f"{state.catalog.tile(rest).name} ({rest})"
        except KeyError:
            return rest
    if kind == "dock":
        return f"{_('Dock')} {rest}"
    return _(lt.where)


def _lieutenant_text(state, lt, _: Gettext) -> str:
    """Where a lieutenant is; its pose only for figures in play (supply and box have none)."""
    if lt.where in ("supply", "box"):
        return _where(state, lt, _)
    return f"{_where(state, lt, _)}, {_('standing') if lt.used else _('lying')}"


def _items(values) -> Markup:
    """A list in a <dd>, or a dash when empty, so every row has a value to read."""
    values = list(values)
    return el("ul", {}, [el("li", {}, v) for v in values]) if values else Markup("—")


def tokens_html(state, seat_index: int, _: Gettext = _same) -> Markup:
    """Everything a seat holds as a definition list: readable by screen readers and on any screen."""
    seat = state.seats[seat_index]
    c = state.catalog
    repop = 5 - sum(1 for h in state.hexes.values() if h.repopulated_by == seat_index)
    board = c.scroll_boards.get(seat.scroll_board)
    tops = {t.id: t.top for t in board.tracks} if board else {}
    rows = [(_("Coins"), seat.coins), (_("Lumber"), seat.lumber), (_("Fire"), seat.fire),
            (_("Major fire"), seat.major_fire), (_("Rats"), seat.rats), (_("VP"), seat.vp),
            (_("Boats"), _items(f"{b} ({c.boats[b].cargo if b in c.boats else '?'})" for b in seat.boats)),
            (_("Wagons"), _items(f"{w.tile} ({_('used') if w.used else _('ready')})" for w in seat.wagons)),
            (_("Lieutenants"), _items(_lieutenant_text(state, lt, _) for lt in seat.lieutenants)),
            (_("Repopulation tiles left"), repop),
            (_("Registers"), _items(f"{_(k)}: {v}" for k, v in seat.registers.items())),
            (_("Scroll tracks"), _items(f"{k}: {v} / {tops.get(k, '?')}" for k, v in seat.scroll.items())),
            (_("Deferred rewards"), _items(seat.deferred))]
    body = [el("div", {"class": "token-row"}, el("dt", {}, k), el("dd", {}, v)) for k, v in rows]
    return el("dl", {"class": f"tokens tokens-{seat.colour}", "data-seat": seat_index},
              el("div", {"class": "token-row token-head"}, el("dt", {}, _("Player")),
                 el("dd", {}, f"{seat.name} ({_letter(seat.colour)})")), body)


# ---------------------------------------------------------------- wheel and scoring


def wheel_svg(state, _: Gettext = _same) -> Markup:
    """The population-wheel window: its rat and which class each hex colour receives."""
    w = state.catalog.wheel[state.wheel]
    rows = [txt(10, 14, f"{_('Population wheel')} · {_('window')} {w.id}", size=13, anchor="start",
                **{"font-weight": "bold"}),
            txt(310, 38, f"{_('Round')} {state.round}", size=12, anchor="end"),
            el("g", {"class": "wheel-rat", "data-rat": w.rat}, txt(10, 38, f"{_('rat')}:", size=11, anchor="start"),
               rat_glyph(w.rat, 56, 38, _, 1.4), txt(90, 38, _(w.rat), size=11, anchor="start"))]
    for i, (colour, cls) in enumerate(w.colours.items()):
        y = 66 + i * 26
        who = (citizen_chip(Citizen(0, cls), 160, y, _, r=9),
               txt(176, y, _(cls), size=11, anchor="start")) if cls else txt(152, y, "— " + _("nobody"), size=11,
                                                                              anchor="start")
        rows.append(el("g", {"class": f"wheel-row wheel-{colour}", "data-colour": colour, "data-class": cls or ""},
                       el("polygon", {"points": hex_points(20, y, 10), "fill": HEX_FILL.get(colour, "#ccc"),
                                      "stroke": "#222", "class": f"hex-{colour}"}),
                       txt(36, y, _(colour), size=11, anchor="start"), txt(130, y, "→", size=12), who))
    height = 66 + len(w.colours) * 26
    return svg(0, 0, 320, height, f"{_('Population wheel')} {w.id}", "wheel", rows)


def scoring_svg(scoring: dict, state, _: Gettext = _same) -> Markup:
    """Final scoring as bars per player and line; negatives to the left of the axis, winners starred."""
    seats = scoring["seats"]
    pts = [ln["points"] for s in seats for ln in s["lines"]]
    lo, hi = min([0, *pts]), max([1, *pts])
    label_w, bar_w = 230, 420
    scale = bar_w / (hi - lo)
    axis = label_w + 10 + (-lo) * scale
    out, y = [], 8
    for s in seats:
        g, y = _score_seat(s, scoring, state, y, axis, scale, _)
        out.append(g)
    top = el("line", {"class": "axis", "x1": axis, "y1": 0, "x2": axis, "y2": y, "stroke": "#000"})
    return svg(0, 0, label_w + bar_w + 60, y + 6, _("Final scoring"), "scoring", out, top)


def _score_seat(s: dict, scoring: dict, state, y, axis, scale, _: Gettext) -> tuple[Markup, float]:
    """One player's block: a heading with total (and winner mark), then one bar per scoring line."""
    colour = s.get("colour") or state.seats[s["seat"]].colour
    won = s["seat"] in scoring.get("winners", [])
    head = f"{s['name']} ({_letter(colour)}) · {_('total')} {s['total']}"
    if won:
        head = "★ " + head + f" · {_('winner')}"
    out = [el("rect", {"x": 4, "y": y, "width": 18, "height": 18, "fill": PLAYER_FILL.get(colour, "#888"),
                       "stroke": "#000"}),
           txt(13, y + 9, _letter(colour), size=11, fill=_ink(colour), **{"font-weight": "bold"}),
           txt(28, y + 9, head, size=13, anchor="start", **{"font-weight": "bold"})]
    y += 24
    for ln in s["lines"]:
        p = ln["points"]
        x = axis if p >= 0 else axis + p * scale
        out += [txt(8, y + 7, tr(ln, "label", _), size=10, anchor="start"),
                el("rect", {"class": "bar " + ("positive" if p >= 0 else "negative"), "x": x, "y": y,
                            "width": max(abs(p) * scale, 0.5), "height": 14,
                            "fill": PLAYER_FILL.get(colour, "#888") if p >= 0 else "#555", "stroke": "#000",
                            "stroke-width": 0.5}),
                txt(axis + p * scale + (4 if p >= 0 else -4), y + 7, str(p), size=10,
                    anchor="start" if p >= 0 else "end")]
        y += 17
    cls = "score-seat" + (" winner" if won else "")
    return el("g", {"class": cls, "data-seat": s["seat"], "data-total": s["total"]}, out), y + 10
