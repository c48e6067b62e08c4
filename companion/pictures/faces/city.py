"""Faces of the city's pieces: neighborhood hexes, harbors, docks and docking tiles, the population
wheel's windows and a city layout.

A hex is drawn as it lies: its colour (with its letter), the rat icon, the class and player-count mark,
the printed action as icons, and the repopulation requirements with their VP.
"""

from __future__ import annotations

from markupsafe import Markup

from ..elements import HW, Gettext, R, axial_to_xy, el, ngettext, txt
from ..glyphs import HEX_FILL, RAT_LETTER, rat_glyph
from ..icons import GAP, citizen, fitted, needs_icons, reward_icons, row_of, vp, words
from ..letters import hex_letter
from .frame import EDGE, PAPER, colour_mark, face_svg, hexagon
from .shapes import anchor, boat_shape, waves

HEX_BOX = (-HW - 2, -R - 2, 2 * HW + 4, 2 * R + 4)
PLAYERS_MARK = {"3-4": "3–4", "4": "4"}


def hex_face(catalog, rid: str, _: Gettext) -> Markup:
    """A neighborhood hex (M-1)."""
    h = catalog.hexes[rid]
    rat = _("rat: {rat}").format(rat=_(h.rat)) if h.rat in RAT_LETTER else _("no rat")
    title = _("Neighborhood hex, class {cls}, {colour} ({letter}), {rat}. Action: {action}.").format(
        cls=h.cls, colour=_(h.colour), letter=hex_letter(h.colour, _), rat=rat,
        action=words(h.action.text(), _))
    if h.players in PLAYERS_MARK:
        title += " " + _("Only with {players} players.").format(players=PLAYERS_MARK[h.players])
    if h.repop:
        title += " " + _("Repopulate: {needs}; {vp} VP.").format(needs=_repop_words(h, _), vp=h.repop_vp)
    return face_svg("hex", rid, HEX_BOX, title,
                    hexagon(0, 0, R, HEX_FILL.get(h.colour, "#ccc"), **{"class": f"hex-shape hex-{h.colour}"}),
                    colour_mark(h.colour, 0, -R + 14, 9, _),
                    rat_glyph(h.rat, -HW + 22, -22, _, 1.3),
                    _class_mark(h, HW - 20, -22),
                    reward_icons(h.action, 0, 0 if h.repop else 8, 2 * HW - 12, 22, _),
                    _repop_box(h, _) if h.repop else None)


def _repop_words(h, _: Gettext) -> str:
    parts = ([words(h.repop_cost.text(), _)] if h.repop_cost and h.repop_cost.items else [])
    parts += [words(n.text(), _) for n in h.repop_citizens]
    if h.repop_lieutenant:
        parts.append(_("a lieutenant"))
    return " + ".join(parts)


def _class_mark(h, x, y) -> Markup:
    """The hex's class letter in a square, and under it the player counts an A hex is only kept for."""
    counts = PLAYERS_MARK.get(h.players or "")
    return el("g", {"class": "class-mark", "data-class": h.cls, "data-players": h.players or ""},
              el("rect", {"x": x - 9, "y": y - 9, "width": 18, "height": 18, "fill": "#fff", "stroke": EDGE}),
              txt(x, y, h.cls, size=12, **{"font-weight": "bold"}),
              txt(x, y + 17, counts, size=10, **{"font-weight": "bold", "class": "players-mark"}) if counts else None)


def _repop_box(h, _: Gettext) -> Markup:
    """What repopulating takes (tokens, citizens, a lieutenant) in a box, and the VP it scores below it."""
    s = 16
    parts, x = row_of((h.repop_cost,), 0, s, _=_) if h.repop_cost and h.repop_cost.items else ([], 0.0)
    needs, x = needs_icons(h.repop_citizens, h.repop_lieutenant, x + (GAP * s * 2 if parts else 0), 0, s, _)
    return el("g", {"class": "repop", "transform": "translate(0 24)"},
              el("title", {}, _("Repopulate: {needs}").format(needs=_repop_words(h, _))),
              el("rect", {"x": -44, "y": -11, "width": 88, "height": 22, "rx": 4, "fill": PAPER, "stroke": EDGE}),
              fitted(parts + needs, x, 0, 0, 82, "needs"), vp(0, 22, 18, h.repop_vp))


def harbor_face(catalog, rid: str, _: Gettext) -> Markup:
    """A harbor hex (M-2): grey with waves and an anchor, and its action."""
    h = catalog.harbors[rid]
    title = _("Harbor hex. Action: {action}.").format(action=words(h.action.text(), _))
    return face_svg("harbor", rid, HEX_BOX, title,
                    hexagon(0, 0, R, HEX_FILL["harbor"], **{"class": "hex-shape hex-harbor"}),
                    anchor(0, -R + 22, 22), waves(0, R - 22, 60),
                    reward_icons(h.action, 0, 6, 2 * HW - 12, 22, _))


def dock_face(catalog, rid: str, _: Gettext) -> Markup:
    """A dock (M-4): its boat spaces beside its harbor."""
    d = catalog.docks[rid]
    title = ngettext("Dock: {n} boat space, beside its harbor.", "Dock: {n} boat spaces, beside its harbor.",
                     d.spaces, _).format(n=d.spaces)
    spaces = [el("rect", {"class": "boat-space", "x": 44, "y": 8 + i * 26, "width": 66, "height": 20, "rx": 4,
                          "fill": "none", "stroke": EDGE, "stroke-dasharray": "4 3"}) for i in range(d.spaces)]
    height = 16 + d.spaces * 26
    return face_svg("dock", rid, (0, 0, 120, height), title,
                    el("rect", {"x": 1, "y": 1, "width": 118, "height": height - 2, "rx": 6, "fill": "#dbe9f4",
                                "stroke": EDGE}),
                    anchor(20, height / 2, 24), spaces)


def docking_tile_face(catalog, rid: str, _: Gettext) -> Markup:
    """A docking tile (M-4): which corner's dock it names, shown on a little map of the four harbors."""
    tile = catalog.docking_tiles[rid]
    dock = catalog.docks.get(tile.dock)
    harbor = dock.harbor if dock else None
    title = _("Docking tile: the dock of the marked harbor.")
    return face_svg("docking_tile", rid, (0, 0, 120, 90), title,
                    el("rect", {"x": 1, "y": 1, "width": 118, "height": 88, "rx": 8, "fill": "#dbe9f4",
                                "stroke": EDGE, "stroke-width": 1.5}),
                    _corner_map(catalog, harbor, 60, 45, 34), boat_shape(60, 45, 30))


def _corner_map(catalog, marked: str | None, cx, cy, half) -> Markup:
    """The four harbors at the city's corners as they lie in the largest layout; the marked one
    bigger, dark, with an anchor (shape and size, not colour, say which)."""
    layout = max(catalog.layouts.values(), key=lambda lay: max(lay.players))
    spots = {hid: axial_to_xy(*at) for hid, at in layout.harbors.items()}
    mx = sum(x for x, _y in spots.values()) / len(spots)
    my = sum(y for _x, y in spots.values()) / len(spots)
    span = max(max(abs(x - mx), abs(y - my)) for x, y in spots.values()) or 1
    out = []
    for hid, (x, y) in spots.items():
        px, py = cx + (x - mx) / span * half * 1.2, cy + (y - my) / span * half
        if hid == marked:
            out.append(el("g", {"class": "marked-harbor"}, hexagon(px, py, 15, "#1b3a4b"), anchor(px, py, 16, "#fff")))
        else:
            out.append(hexagon(px, py, 9, HEX_FILL["harbor"], **{"class": "other-harbor"}))
    return el("g", {"class": "corner-map"}, out)


def wheel_face(catalog, rid: str, _: Gettext) -> Markup:
    """One window of the population wheel (M-10): its rat, and which citizen each hex colour receives."""
    w = {win.id: win for win in catalog.wheel}[rid]
    gets = [_(c) + " → " + (_(cls) if cls else _("nobody")) for c, cls in w.colours.items()]
    title = _("Population wheel window: rat {rat}; {colours}.").format(rat=_(w.rat), colours=", ".join(gets))
    rows = []
    for i, (colour, cls) in enumerate(w.colours.items()):
        y = 44 + i * 24
        rows.append(el("g", {"class": "wheel-row", "data-colour": colour, "data-class": cls or ""},
                       hexagon(22, y, 11, HEX_FILL.get(colour, "#ccc")),
                       txt(22, y, hex_letter(colour, _), size=11, **{"font-weight": "bold"}),
                       txt(50, y, "→", size=13),
                       citizen(78, y, 22, cls, False, _) if cls else txt(78, y, "—", size=16)))
    height = 44 + len(w.colours) * 24
    return face_svg("wheel", rid, (0, 0, 100, height), title,
                    el("rect", {"x": 1, "y": 1, "width": 98, "height": height - 2, "rx": 10, "fill": PAPER,
                                "stroke": EDGE, "stroke-width": 1.5}),
                    rat_glyph(w.rat, 42, 17, _, 1.5), rows)


def layout_face(catalog, rid: str, _: Gettext) -> Markup:
    """A city layout (M-3): start spaces, corner harbors and expansion spaces, as a small map."""
    lay = catalog.layouts[rid]
    counts = "/".join(str(p) for p in lay.players)
    title = _("City layout for {players} players: {start} start spaces, {harbors} harbors, "
              "{expansion} expansion spaces.").format(players=counts, start=len(lay.start),
                                                      harbors=len(lay.harbors), expansion=len(lay.expansion))
    r = 20
    cells = ([(axial_to_xy(*at), "start") for at in lay.start] + [(axial_to_xy(*at), "harbor")
             for at in lay.harbors.values()] + [(axial_to_xy(*at), "expansion") for at in lay.expansion.values()])
    k = r / R
    xs, ys = [p[0][0] * k for p in cells], [p[0][1] * k for p in cells]
    x0, y0 = min(xs) - r, min(ys) - r
    out = []
    for ((x, y), kind) in cells:
        x, y = x * k, y * k
        if kind == "harbor":
            out.append(el("g", {"class": "layout-harbor"}, hexagon(x, y, r - 1, HEX_FILL["harbor"]),
                          anchor(x, y, 16)))
        elif kind == "start":
            out.append(hexagon(x, y, r - 1, "#fff", **{"class": "layout-start"}))
        else:
            out.append(hexagon(x, y, r - 3, "none", **{"class": "layout-expansion", "stroke-dasharray": "4 3"}))
    return face_svg("layout", rid, (x0, y0, max(xs) + r - x0, max(ys) + r - y0), title, out)
