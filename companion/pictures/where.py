"""A place of the city in view: a crop of the host's map around it, and the place said in words.

A host question about a place ("Which hex is on the marked space?") is answered at the table by looking at
that place; the whole map sits below the moment, out of view. So the moment shows the map again, cropped
round the place: an `<svg>` whose viewBox frames it and whose only content is `<use href="#city-map">`, a
reference to the map the page already shows (pictures/city.py gives the host's map that id), so the crop costs
a few hundred bytes, not a second map. Its words say where the place is, counted among the hexes lying on
the table and the place itself (empty spaces are not on the table): the row from the top and the place in
that row from the left, and its side of the city (the engine's corner words, "north-west").
"""

from __future__ import annotations

from markupsafe import Markup

from ..engine.city import space_coord
from ..engine.state import Place
from .city import city_plan, dock_spot
from .elements import HW, Gettext, R, axial_to_xy, el, english, fmt

MAP_ID = "city-map"  # the id of the group inside the host's map that a crop shows again


def place_xy(state, place: str) -> tuple[float, float] | None:
    """The centre of a place ("hex:<tile>", "space:<id>", "dock:<id>") in the map's units, or None."""
    spot = Place.of(place)
    lay, centres, empty = city_plan(state)
    if spot.kind == "hex" and spot.at in state.hexes:
        return axial_to_xy(*space_coord(state, state.hexes[spot.at].space))
    if spot.kind == "space" and spot.at in empty:
        return empty[spot.at]
    if spot.kind == "space":
        try:
            return axial_to_xy(*space_coord(state, spot.at))
        except (KeyError, IndexError, ValueError):
            return None
    if spot.kind == "dock" and spot.at in state.catalog.docks:
        dock = state.catalog.docks[spot.at]
        if dock.harbor not in lay.harbors:
            return None
        x, y, height, _h = dock_spot(dock, lay, centres)
        return x + 30, y + height / 2
    return None


def crop_svg(state, places: list[str], label: str, _: Gettext = english) -> Markup:
    """The host's map cropped round `places` (each ringed), as a reference to the map on the page."""
    spots = [xy for xy in (place_xy(state, p) for p in places) if xy]
    if not spots:
        return Markup("")
    x0, x1 = min(x for x, _y in spots) - 2.6 * HW, max(x for x, _y in spots) + 2.6 * HW
    y0, y1 = min(y for _x, y in spots) - 2.1 * R, max(y for _x, y in spots) + 2.1 * R
    rings = [el("circle", {"cx": fmt(x), "cy": fmt(y), "r": fmt(R * 1.08), "fill": "none", "stroke": "#000",
                           "stroke-width": 10, "stroke-dasharray": "18 10", "class": "crop-ring"}) for x, y in spots]
    return el("svg", {"xmlns": "http://www.w3.org/2000/svg", "class": "crop", "role": "img", "aria-label": label,
                      "viewBox": f"{fmt(x0)} {fmt(y0)} {fmt(x1 - x0)} {fmt(y1 - y0)}"},
              el("title", {}, label), el("use", {"href": "#" + MAP_ID}), *rings)


def place_words(state, place: str, _: Gettext = english) -> str:
    """Where a place is, as the table finds it: "row 2 from the top, place 3 from the left (north-west)"."""
    xy = place_xy(state, place)
    if xy is None:
        return ""
    lay, centres, _empty = city_plan(state)
    # counted among what lies on the table (the hexes placed) and the place itself: empty spaces are not there
    lying = [axial_to_xy(*space_coord(state, h.space)) for h in state.hexes.values()] + [xy]
    rows = sorted({round(y) for _x, y in lying})
    row = min(range(len(rows)), key=lambda i: abs(rows[i] - xy[1]))
    in_row = sorted(x for x, y in lying if round(y) == rows[row])
    col = min(range(len(in_row)), key=lambda i: abs(in_row[i] - xy[0]))
    cx, cy = sum(x for x, _y in centres) / len(centres), sum(y for _x, y in centres) / len(centres)
    side = _side(xy[0] - cx, xy[1] - cy, HW, _)
    if Place.of(place).kind == "dock":
        return _("the dock beside the harbor, {side} of the city").format(side=side)
    return _("row {row} from the top, place {place} from the left ({side} of the city)").format(
        row=row + 1, place=col + 1, side=side)


def _side(dx: float, dy: float, near: float, _: Gettext) -> str:
    """Which side of the city's centre a point lies on, in the engine's corner words."""
    ns = "north" if dy < -near else "south" if dy > near else ""
    ew = "west" if dx < -near else "east" if dx > near else ""
    words = {"north": _("north"), "south": _("south"), "west": _("west"), "east": _("east"),
             "north-west": _("north-west"), "north-east": _("north-east"), "south-west": _("south-west"),
             "south-east": _("south-east"), "": _("centre")}
    return words["-".join(w for w in (ns, ew) if w)]
