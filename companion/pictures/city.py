"""The city region of the host's screen: the map of Messina (hexes, docks, boats, figures) and the wheel.

A phone's minimap is the same picture with `targets`: the places its menu offers, tappable and labelled.
`city_key` says when the region must be drawn again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import TypedDict

from markupsafe import Markup

from ..engine.city import space_coord, start_spaces
from ..engine.state import Citizen, Place
from .elements import (
    HW,
    MAP_TEXT_MIN,
    Attrs,
    Gettext,
    R,
    axial_to_xy,
    digest,
    el,
    english,
    fmt,
    hex_points,
    readable,
    spread,
    svg,
    txt,
)
from .faces.frame import colour_mark, number_disc
from .faces.shapes import anchor, cargo_mark
from .glyphs import HEX_FILL, PLAYER_FILL, badge, citizen_chip, cubes_mark, ink, letter, lieutenant_mark, rat_glyph
from .icons import reward_icons
from .map_marks import step_marks


def _standing_at(state, place: str) -> list[tuple]:
    """(seat, lieutenant) pairs whose figure stands at a place ("hex:<tile>" or "dock:<id>")."""
    figs = [(seat, lt) for seat in state.seats for lt in seat.lieutenants if lt.where == place]
    opp = getattr(state, "opponent", None)
    spot = Place.of(place)
    if opp is not None and spot.kind == "hex" and spot.at in opp.placed:
        figs.append((SimpleNamespace(name="Opponent", colour=opp.colour), SimpleNamespace(used=True)))
    return figs


class MapMark(TypedDict, total=False):
    """How the table's map shows one place (`city_svg`'s targets): the `label` in its badge; `mark`: outlined
    as a step's place (not tapped); `attrs`: what a tap on it does."""

    label: str
    mark: bool
    attrs: Attrs


def _target_attrs(base: Attrs, target: MapMark | None) -> Attrs:
    """Merge a target's attrs over the group's own; a class is added to, never replaced. A place a
    step marks (`mark`) is outlined and labelled like a target, but is not tapped."""
    if not target:
        return base
    extra = dict(target.get("attrs") or {})
    classes = [base["class"], "marked" if target.get("mark") else "target", extra.pop("class", None)]
    return {**base, **extra, "class": " ".join(c for c in classes if c)}


def _hex_group(state, tile: str, cx, cy, target, _: Gettext, placed: Placed) -> Markup:
    """One placed hex as it lies: colour (with its letter) or a harbor's anchor, rat, printed action as
    icons, repopulation tile, citizens, cubes, lieutenants and a badge. Its id stays in attributes only:
    the table finds a hex by what is printed on it."""
    info = state.catalog.tile(tile)
    h = state.hexes[tile]
    key = info.colour if info.colour in HEX_FILL else "harbor"
    base = {"id": f"hex-{tile}", "class": f"hex hex-{key}", "data-place": str(Place.hex(tile))}
    return el("g", _target_attrs(base, target),
              el("title", {}, info.name),
              el("polygon", {"points": hex_points(cx, cy), "fill": HEX_FILL[key], "stroke": "#222",
                             "stroke-width": 4 if target else 1.5, "class": "hex-shape"}),
              placed(state.catalog, "t-" + tile, (), cx, cy, lambda x, y: print_at(info, x, y, _), _),
              _repop_tile(state, h, cx - HW + 14, cy + 2, _),
              _hex_citizens(state, h, cx + (8 if h.repopulated_by is not None else 0), cy, _, placed),
              cubes_mark(h.cubes, cx - HW + 12, cy + 27, _),
              _figures(state, str(Place.hex(tile)), cx + 24, cy + 27, _, placed),
              badge(cx, cy + 43, str(target.get("label") or "")) if target and target.get("label") else None)


def tile_print(info, _: Gettext = english) -> Markup:
    """What is printed on a hex of the map, around its centre (0, 0): its colour mark (a harbor's anchor),
    its rat and its action as icons. The same for the whole game: a page keeps it once (web/library.py)."""
    key = info.colour if info.colour in HEX_FILL else "harbor"
    mark = colour_mark(info.colour, 2, -37, 8, _) if key != "harbor" else anchor(2, -37, 16)
    return Markup(rat_glyph(info.rat, -24, -37, _) + mark + reward_icons(info.action, 0, -20, 2 * HW - 20, 15, _))


def hex_small(info, printed: Markup) -> Markup:
    """A hex at the size of a line of text, as the map shows it: its shape in its colour (a harbor's
    grey) and its print (`tile_print`, or a reference to it) around (0, 0); the finer print of its face
    (repopulation, class) would be a blur at that size."""
    key = info.colour if info.colour in HEX_FILL else "harbor"
    return Markup(el("polygon", {"points": hex_points(0, 0), "fill": HEX_FILL[key], "stroke": "#222",
                                 "stroke-width": 1.5}) + printed)


HEX_SMALL_BOX = (-HW - 2, -R - 2, 2 * HW + 4, 2 * R + 4)  # hex_small's viewBox


def print_at(info, cx, cy, _: Gettext = english) -> Markup:
    """A hex's print (`tile_print`) placed at its centre."""
    return el("g", {"class": "print", "transform": f"translate({fmt(cx)} {fmt(cy)})"}, tile_print(info, _))


def place_here(catalog, sid: str, key: tuple, x, y, draw_at: Callable, _: Gettext = english) -> Markup:
    """A picture that never changes (a hex's print, a citizen, a lieutenant) drawn in place: the map on its
    own, as tests read it. The host's page places a reference to its library's copy instead
    (web/pictures.placed_use), named `sid` in the page and kept by `key` besides."""
    return draw_at(x, y)


Placed = Callable[..., Markup]  # (catalog, sid, key, x, y, draw_at(x, y), _) -> the picture at (x, y)


def _repop_tile(state, h, x, y, _: Gettext) -> Markup | None:
    """A repopulated hex carries its repopulator's tile: a square in their colour with their letter."""
    if h.repopulated_by is None:
        return None
    seat = state.seats[h.repopulated_by]
    return el("g", {"class": "repop-tile", "data-colour": seat.colour},
              el("title", {}, _("repopulated by {name} ({letter})").format(name=seat.name,
                                                                          letter=letter(seat.colour, _))),
              el("rect", {"x": x - 9, "y": y - 9, "width": 18, "height": 18,
                          "fill": PLAYER_FILL.get(seat.colour, "#888"), "stroke": "#000", "stroke-width": 1.5}),
              txt(x, y, letter(seat.colour, _), size=10, fill=ink(seat.colour), **{"font-weight": "bold"}))


def _hex_citizens(state, h, cx, cy, _: Gettext, placed: Placed = place_here) -> Markup:
    """Up to two rows of five citizens; more than ten shows the rest as +n."""
    cits = h.citizens
    out = []
    for row in range(2):
        part = cits[row * 5:(row + 1) * 5]
        y = cy - 4 + row * 15
        out += [placed(state.catalog, f"c-{c.cls}" + ("-up" if c.upgraded else ""), (), x, y,
                       lambda x, y, c=c: citizen_chip(c, x, y, _), _)
                for x, c in zip(spread(len(part), cx, 16), part, strict=True)]
    if len(cits) > 10:
        out.append(txt(cx + 44, cy + 11, f"+{len(cits) - 10}", size=9, anchor="end"))
    return el("g", {"class": "citizens", "data-count": len(cits)}, out)


def _figures(state, place: str, cx, y, _: Gettext, placed: Placed = place_here) -> Markup:
    """Every lieutenant at a place, side by side, squeezed when there are many."""
    figs = _standing_at(state, place)
    step = 14 if len(figs) <= 3 else 42 / (len(figs) - 1)
    return el("g", {"class": "figures"},
              [placed(state.catalog, f"lt-{seat.colour}-{'s' if lt.used else 'l'}", (seat.name,), x, y,
                      lambda x, y, seat=seat, lt=lt: lieutenant_mark(seat, lt.used, x, y, _), _)
               for x, (seat, lt) in zip(spread(len(figs), cx, step), figs, strict=True)])


def _empty_space(sid: str, cx, cy, label: str | None, _: Gettext) -> Markup:
    """An expansion space nobody has built on yet: a dashed outline (its id in attributes only); a
    step's `label` outlines it boldly and badges it."""
    cls = "space-empty" + (" marked" if label else "")
    return el("g", {"class": cls, "id": f"space-{sid}", "data-space": sid, "data-place": f"space:{sid}"},
              el("title", {}, _("the marked space") if label else _("empty space")),
              el("polygon", {"points": hex_points(cx, cy, R - 3), "fill": "none", "stroke": "#222" if label else "#777",
                             "stroke-width": 5 if label else 1.5, "stroke-dasharray": "6 4", "class": "space-outline"}),
              _fitted(cx, cy, _("empty space")),
              badge(cx, cy + 43, label) if label else None)


def _fitted(cx, cy, words: str) -> Markup:
    """An empty space's label, squeezed to the hex's width where the reader's language makes it long
    ("emplacement vide"): the host's map floors its text at MAP_TEXT_MIN, so it would spill onto the next hex."""
    wide = len(words) * 0.56 * MAP_TEXT_MIN > 2 * HW - 16
    fit = {"textLength": fmt(2 * HW - 16), "lengthAdjust": "spacingAndGlyphs"} if wide else {}
    return txt(cx, cy, words, size=10, fill="#555", **fit)


DOCK_W, BOAT_H = 100, 24


def _dock_box(state, dock, x, y, target, _: Gettext, placed: Placed = place_here) -> tuple[Markup, float]:
    """A dock beside its harbor (the pier shows which): its boats, free spaces dashed, lieutenants there.
    (x, y) is the box's top-left corner; returns the markup and the box height."""
    boats = state.docks.get(dock.id, [])
    height = 22 + dock.spaces * BOAT_H + 28
    body = [el("rect", {"x": x, "y": y, "width": DOCK_W, "height": height, "rx": 6, "fill": "#dbe9f4",
                        "stroke": "#222", "stroke-width": 4 if target else 1.5, "class": "dock-shape"}),
            txt(x + DOCK_W / 2, y + 11, _("Dock"), size=11, **{"font-weight": "bold"})]
    for i in range(dock.spaces):
        by = y + 22 + i * BOAT_H + BOAT_H / 2
        body.append(_boat(state, boats[i], x + 42, by, _) if i < len(boats) else
                    el("rect", {"class": "boat-space", "x": x + 10, "y": by - 8, "width": 64, "height": 16,
                                "fill": "none", "stroke": "#777", "stroke-dasharray": "4 3"}))
    place = str(Place.dock(dock.id))
    body.append(_figures(state, place, x + DOCK_W / 2, y + height - 14, _, placed))
    if target and target.get("label"):
        body.append(badge(x + DOCK_W / 2, y + height, str(target["label"])))
    base = {"id": f"dock-{dock.id}", "class": "dock", "data-place": place}
    return el("g", _target_attrs(base, target), el("title", {}, _("Dock")), body), height


def _boat(state, at, x, y, _: Gettext) -> Markup:
    """A boat at a dock as the table sees it: a hull with its back number and its cargo; a black cube
    beside it while it carries plague."""
    info = state.catalog.boats.get(at.tile)
    hull = " ".join(f"{fmt(x + dx)},{fmt(y + dy)}" for dx, dy in ((-32, -8), (32, -8), (24, 8), (-24, 8)))
    cube = el("rect", {"class": "boat-cube", "x": x + 36, "y": y - 5, "width": 10, "height": 10, "fill": "#000"})
    words = (_("Boat, back {back}, carries {cargo}").format(back=info.back, cargo=_(info.cargo)) if info
             else _("Boat"))
    return el("g", {"class": "boat" + (" has-cube" if at.cube else ""), "data-boat": at.tile},
              el("title", {}, words + (", " + _("plague cube") if at.cube else "")),
              el("polygon", {"points": hull, "fill": "#8d6e63", "stroke": "#3e2723"}),
              number_disc(info.back, x - 12, y, 7) if info else None,
              cargo_mark(info.cargo, x + 12, y, 18) if info else None, cube if at.cube else None)


def city_svg(state, targets: dict[str, MapMark] | None = None, _: Gettext = english, marked: bool = False,
             placed: Placed = place_here) -> Markup:
    """The city as the table sees it; `targets` ("hex:<tile>"/"dock:<id>" → label, attrs) makes
    places tappable and labelled, drawn last so their badges sit on top. `marked` (the host's map)
    outlines and numbers the places the current setup or upkeep steps point at (map_marks.py). `placed`
    places what never changes (each hex's print, the citizens, the lieutenants): drawn there, or a
    reference to the page's copy."""
    marks = step_marks(state) if marked else {}
    marked_too: dict[str, MapMark] = {p: {"label": label, "mark": True} for p, label in marks.items()}
    targets = {**marked_too, **(targets or {})}
    lay, centres, empty = city_plan(state)
    bounds = [(x - HW, y - R, x + HW, y + R) for x, y in centres]
    under = [_empty_space(sid, x, y, marks.get(f"space:{sid}"), _) for sid, (x, y) in empty.items()]
    places = []
    for dock in state.catalog.docks.values():
        if dock.harbor in lay.harbors:
            place = str(Place.dock(dock.id))
            pier, box, edge = _placed_dock(state, dock, lay, centres, targets.get(place), _, placed)
            under.insert(0, pier)
            places.append((place, box))
            bounds.append(edge)
    for tile in sorted(state.hexes):
        hx, hy = axial_to_xy(*space_coord(state, state.hexes[tile].space))
        place = str(Place.hex(tile))
        places.append((place, _hex_group(state, tile, hx, hy, targets.get(place), _, placed)))
    places.sort(key=lambda p: p[0] in targets)  # stable: targets last, on top
    body: list = [under, [p[1] for p in places]]
    if marked:  # the host's map: the moment's crop of a place shows this group again (pictures/where.py)
        body = [el("g", {"id": "city-map"}, *body)]
    drawn = svg(*view_box(bounds), _("City of Messina"), "city", *body)
    return readable(drawn) if marked else drawn  # the host's map: read across the table


def city_plan(state) -> tuple:
    """The map's geometry for this player count, shared by the host's map and a phone's mini map: the
    layout, every space's centre, and the empty spaces' centres by id (start spaces are empty while dealt)."""
    lay = state.catalog.layout_for(state.players)
    centres = [axial_to_xy(q, r) for q, r in [*lay.start, *lay.harbors.values(), *lay.expansion.values()]]
    used = {h.space for h in state.hexes.values()}
    spaces = {**dict(zip(start_spaces(state), lay.start, strict=False)), **lay.expansion}
    return lay, centres, {sid: axial_to_xy(*coord) for sid, coord in spaces.items() if sid not in used}


def view_box(bounds) -> tuple[float, float, float, float]:
    """The smallest box round every (x0, y0, x1, y1) with a margin: a map's viewBox."""
    x0, y0 = min(b[0] for b in bounds) - 8, min(b[1] for b in bounds) - 8
    x1, y1 = max(b[2] for b in bounds) + 8, max(b[3] for b in bounds) + 8
    return x0, y0, x1 - x0, y1 - y0


def dock_spot(dock, lay, centres) -> tuple[float, float, float, tuple[float, float]]:
    """Where a dock's box sits: beside its harbor on the side away from the city's centre. Its top-left
    corner, its height and its harbor's centre (where the pier starts)."""
    cx = sum(p[0] for p in centres) / len(centres)
    cy = sum(p[1] for p in centres) / len(centres)
    hx, hy = axial_to_xy(*lay.harbors[dock.harbor])
    height = 22 + dock.spaces * BOAT_H + 28
    x = hx + HW + 10 if hx >= cx else hx - HW - 10 - DOCK_W
    return x, hy - height / 2 + (-R * 0.3 if hy < cy else R * 0.3), height, (hx, hy)


def _placed_dock(state, dock, lay, centres, target, _: Gettext, placed: Placed = place_here):
    """A dock box beside its harbor, with a pier to it. Returns the pier, the box and the box's bounds
    (its badge included)."""
    x, y, height, (hx, hy) = dock_spot(dock, lay, centres)
    pier = el("line", {"class": "pier", "x1": hx, "y1": hy, "x2": x + DOCK_W / 2, "y2": y + height / 2,
                       "stroke": "#555", "stroke-width": 6})
    box, _h = _dock_box(state, dock, x, y, target, _, placed)
    return pier, box, (x - 10, y, x + DOCK_W + 10, y + height + 10)


def city_key(state) -> str:
    """Everything the host's city region draws (the map and the wheel), as one short string: the hexes,
    the docks, the wheel and round, and each seat's name, colour and lieutenants (and the solo
    opponent's figures). The same key draws the same city (tests/pictures/test_svg.py checks this over whole
    games), so a move that leaves the city alone does not redraw it."""
    seats = [(s.name, s.colour, [lt.to_dict() for lt in s.lieutenants]) for s in state.seats]
    opp = getattr(state, "opponent", None)
    what = {"hexes": {k: h.to_dict() for k, h in state.hexes.items()},
            "docks": {k: [b.to_dict() for b in v] for k, v in state.docks.items()},
            "wheel": state.wheel, "round": state.round, "players": state.players, "seats": seats,
            "opponent": (opp.colour, sorted(opp.placed)) if opp is not None else None, "marks": step_marks(state)}
    return digest(json.dumps(what, sort_keys=True))


def wheel_svg(state, _: Gettext = english) -> Markup:
    """The population-wheel window: its rat and which class each hex colour receives."""
    w = state.catalog.wheel[state.wheel]
    rows = [txt(10, 14, _("Population wheel"), size=13, anchor="start",
                **{"font-weight": "bold"}),
            txt(310, 38, _("Round {n}").format(n=state.round), size=12, anchor="end"),
            el("g", {"class": "wheel-rat", "data-rat": w.rat}, txt(10, 38, _("rat:"), size=11, anchor="start"),
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
    return svg(0, 0, 320, height, _("Population wheel"), "wheel", rows, attrs={"data-window": w.id})
