"""A phone's mini map: the city as shapes a thumb can hit, each place the seat's menu offers marked with a
large number that the key under the map explains (templates/seat/_minimap.html).

At a phone's width the host's map shows at about a third of its size, so its words would be 3–4 px. Here the
only words are the numbers and the hexes' colour letters, drawn big enough to read at 360 px with four
players (the widest city); the rest (citizens, cubes, figures) is on the table and on the host's map.
"""

from __future__ import annotations

from typing import TypedDict

from markupsafe import Markup

from ..engine.city import space_coord
from ..engine.state import Place
from .city import BOAT_H, DOCK_W, city_plan, dock_spot, view_box
from .elements import HW, Attrs, Gettext, R, axial_to_xy, el, english, hex_points, svg, txt
from .faces.frame import colour_mark
from .faces.shapes import anchor
from .glyphs import HEX_FILL

LETTER_R = 30  # a hex's colour disc: its letter is 36 units
MARK_R, MARK_TEXT = 28, 40  # a place's number on the map


class Tappable(TypedDict):
    """A place a seat can tap on its mini map (the web's map targets; it adds the words for the map's key):
    its number and what a tap sends."""

    number: int
    attrs: Attrs


def minimap_svg(state, targets: dict[str, Tappable], _: Gettext = english) -> Markup:
    """The city with the seat's `targets` ("hex:<tile>"/"dock:<id>" → number, key, attrs) tappable and
    numbered; places it cannot choose are drawn pale, without a number."""
    lay, centres, empty = city_plan(state)
    bounds = [(x - HW, y - R, x + HW, y + R) for x, y in centres]
    under = [el("polygon", {"class": "space-empty", "points": hex_points(x, y, R - 3), "fill": "none",
                            "stroke": "#999", "stroke-width": 2, "stroke-dasharray": "6 4"})
             for x, y in empty.values()]
    places = []
    for dock in state.catalog.docks.values():
        if dock.harbor in lay.harbors:
            x, y, height, _harbor = dock_spot(dock, lay, centres)
            places.append(_dock(state, dock, x, y, height, targets.get(str(Place.dock(dock.id)))))
            bounds.append((x - 10, y, x + DOCK_W + 10, y + height + 10))
    for tile in sorted(state.hexes):
        cx, cy = axial_to_xy(*space_coord(state, state.hexes[tile].space))
        places.append(_hex(state, tile, cx, cy, targets.get(str(Place.hex(tile))), _))
    return svg(*view_box(bounds), _("Map of the city: tap a numbered place"), "minimap", under, places)


def _place(base: Attrs, target: Tappable | None) -> Attrs:
    """A place's attributes: a target's tap (hx-post …, and its number and words for screen readers)."""
    if not target:
        return {**base, "class": base["class"] + " not-offered"}
    return {**base, **target["attrs"], "class": base["class"] + " target"}


def _number(target: Tappable | None, cx, cy) -> Markup | None:
    """A target's number in a white disc, over everything else of its place."""
    if not target:
        return None
    return el("g", {"class": "marker"},
              el("circle", {"cx": cx, "cy": cy, "r": MARK_R, "fill": "#fff", "stroke": "#000", "stroke-width": 3}),
              txt(cx, cy, str(target["number"]), size=MARK_TEXT, **{"font-weight": "bold"}))


def _hex(state, tile: str, cx, cy, target, _: Gettext) -> Markup:
    """A hex: its colour with the colour's letter (a harbor: its anchor), and its number when offered."""
    colour = state.catalog.tile(tile).colour
    key = colour if colour in HEX_FILL else "harbor"
    mark = colour_mark(colour, cx, cy - 26, LETTER_R, _) if key != "harbor" else anchor(cx, cy - 26, 44)
    return el("g", _place({"class": f"hex hex-{key}", "data-place": str(Place.hex(tile))}, target),
              el("polygon", {"points": hex_points(cx, cy), "fill": HEX_FILL[key], "stroke": "#222",
                             "stroke-width": 5 if target else 1.5}),
              mark, _number(target, cx, cy + 28))


def _dock(state, dock, x, y, height, target) -> Markup:
    """A dock: a blue box beside its harbor with its boats as hulls and free spaces dashed."""
    boats = state.docks.get(dock.id, [])
    hulls = [el("rect", {"x": x + 14, "y": y + 22 + i * BOAT_H + 4, "width": DOCK_W - 28, "height": BOAT_H - 8,
                         "rx": 4, "fill": "#8d6e63" if i < len(boats) else "none", "stroke": "#3e2723",
                         "stroke-dasharray": None if i < len(boats) else "4 3"}) for i in range(dock.spaces)]
    return el("g", _place({"class": "dock", "data-place": str(Place.dock(dock.id))}, target),
              el("rect", {"x": x, "y": y, "width": DOCK_W, "height": height, "rx": 6, "fill": "#dbe9f4",
                          "stroke": "#222", "stroke-width": 5 if target else 1.5}),
              hulls, _number(target, x + DOCK_W / 2, y + height / 2))
