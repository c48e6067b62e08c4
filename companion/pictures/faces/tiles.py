"""Faces of the building and boat tiles: boats, workshops, cabin improvements, wagons and solo tiles.

A cost always sits on a dashed tag, what a tile gives sits in the open, so the two never read alike.
"""

from __future__ import annotations

from markupsafe import Markup

from ...words import Text
from ..elements import Gettext, el, txt
from ..glyphs import ERA, HEX_FILL, RAT_LETTER, rat_glyph
from ..icons import citizen, reward_icons, vp, words
from ..letters import class_letter, hex_letter
from .frame import EDGE, PAPER, colour_mark, face_svg, hexagon, number_disc, price
from .shapes import anchor, boat_shape, cabin_shape, cargo_mark, hourglass, wagon_shape, workshop_shape

W, H = 120, 96


def _card(fill=PAPER, h=H) -> Markup:
    return el("rect", {"x": 1, "y": 1, "width": W - 2, "height": h - 2, "rx": 8, "fill": fill, "stroke": EDGE,
                       "stroke-width": 1.5})


def boat_face(catalog, rid: str, _: Gettext) -> Markup:
    """A boat tile (M-9): its back number, its goods and what it gives on arrival."""
    b = catalog.boats[rid]
    title = _("Boat, back {back}, carries {cargo}: {reward}.").format(back=b.back, cargo=_(b.cargo),
                                                                      reward=words(b.reward.text(), _))
    return face_svg("boat", rid, (0, 0, W, H), title, _card("#e3f2fd"),
                    number_disc(b.back, 16, 16, 11), cargo_mark(b.cargo, W - 24, 16, 26),
                    txt(W - 24, 34, _(b.cargo), size=10),
                    boat_shape(34, 62, 46), reward_icons(b.reward, 88, 64, 56, 24, _))


def workshop_face(catalog, rid: str, _: Gettext) -> Markup:
    """A workshop tile (M-11): class, era (late ones marked), cost, and its output for a regular and
    an upgraded citizen, or the once-only reward of a late workshop."""
    w = catalog.workshops[rid]
    era = ERA.get(w.era, str(w.era))
    who = _("upgraded {citizen}").format(citizen=_(w.cls)) if w.needs_upgraded else _(w.cls)
    title = _("Workshop, era {era}, {citizen} ({letter}), costs {cost}").format(
        era=era, citizen=who, letter=class_letter(w.cls, _), cost=words(w.cost.text(), _))
    rows = []
    if w.era == 1:
        if w.output is not None and not w.needs_upgraded:
            rows.append((False, w.output))
        if w.upgraded_output is not None or w.needs_upgraded:
            rows.append((True, w.upgraded_output or w.output))
        title += "; " + "; ".join((_("upgraded: {reward}") if up else _("regular: {reward}")).format(
            reward=words(r.text(), _)) for up, r in rows)
    elif w.reward is not None:
        rows.append((w.needs_upgraded, w.reward))
        title += "; " + _("once: {reward}").format(reward=words(w.reward.text(), _))
    body = [_card(), el("rect", {"x": 1, "y": 1, "width": W - 2, "height": 28, "rx": 8, "fill": "#d7ccc8",
                                 "stroke": EDGE}),
            citizen(15, 15, 22, w.cls, w.needs_upgraded, _),
            txt(36, 15, era, size=14, **{"font-weight": "bold", "class": "era"}),
            hourglass(52, 15, 16) if w.era == 2 else None,
            price(w.cost, W - 58, 5, 54, 20, _, 15)]
    for i, (up, reward) in enumerate(rows):
        y = 48 + i * 30 if len(rows) > 1 else 60
        body += [citizen(16, y, 20, w.cls, up, _), txt(32, y, "→", size=13),
                 txt(44, y, "1×", size=11, **{"font-weight": "bold", "class": "once"}) if w.era == 2 else None,
                 reward_icons(reward, 80 + (4 if w.era == 2 else 0), y, 70, 20, _)]
    return face_svg("workshop", rid, (0, 0, W, H), title + ".", body)


def improvement_face(catalog, rid: str, _: Gettext) -> Markup:
    """A cabin improvement (M-12): cost, what a citizen in the cabin produces, and the one class it
    serves if it names one."""
    imp = catalog.improvements[rid]
    title = _("Cabin improvement, costs {cost}: {output}").format(cost=words(imp.cost.text(), _),
                                                                  output=words(imp.output.text(), _))
    if imp.cls:
        title += " " + _("(only for {citizen}, {letter})").format(citizen=_(imp.cls),
                                                                  letter=class_letter(imp.cls, _))
    return face_svg("improvement", rid, (0, 0, W, H), title + ".", _card("#f3efe6"),
                    cabin_shape(18, 18, 26), price(imp.cost, W - 52, 5, 48, 22, _, 15),
                    citizen(22, 62, 22, imp.cls, False, _), txt(40, 62, "→", size=13),
                    reward_icons(imp.output, 80, 62, 70, 22, _))


def wagon_face(catalog, rid: str, _: Gettext) -> Markup:
    """A wagon (M-13): back number, cost and the VP it scores when built."""
    wg = catalog.wagons[rid]
    title = _("Wagon, back {back}, costs {cost}: {vp} VP.").format(back=wg.back, cost=words(wg.cost.text(), _),
                                                                   vp=wg.vp)
    return face_svg("wagon", rid, (0, 0, W, H), title, _card("#efebe9"),
                    number_disc(wg.back, 16, 16, 11), price(wg.cost, W - 60, 5, 56, 22, _, 15),
                    wagon_shape(36, 64, 48), vp(90, 62, 32, wg.vp))


SOLO_ACTIONS = {"boat": Text("take a boat"), "wagon": Text("take the wagon"),
                "improvements": Text("take every cabin improvement"),
                "workshop-aristocrat": Text("take the aristocrat workshop"),
                "workshop-nun": Text("take the nun workshop"),
                "workshop-craftsman": Text("take the craftsman workshop")}  # Text: words the catalogs translate


def solo_tile_face(catalog, rid: str, _: Gettext) -> Markup:
    """A solo tile (M-18, R-SOLO-2): the white part shows the hex, the red part the opponent's action."""
    t = catalog.solo_tiles[rid]
    tile = catalog.hexes.get(t.hex) or catalog.harbors.get(t.hex)
    if tile is None or tile.harbor:
        where = _("a harbor")
    else:
        where = _("{colour} ({letter}) hex, rat {rat}").format(
            colour=_(tile.colour), letter=hex_letter(tile.colour, _), rat=_(tile.rat))
    title = _("Solo tile: {hex}; red action: {action}.").format(hex=where,
                                                                action=_(SOLO_ACTIONS.get(t.action, t.action)))
    return face_svg("solo_tile", rid, (0, 0, W, 70), title,
                    el("rect", {"x": 1, "y": 1, "width": W - 2, "height": 68, "rx": 6, "fill": "#fff", "stroke": EDGE,
                                "stroke-width": 1.5}),
                    el("rect", {"class": "red-part", "x": W / 2, "y": 1, "width": W / 2 - 1, "height": 68,
                                "fill": "#c62828", "stroke": EDGE, "stroke-width": 1.5}),
                    _mini_hex(tile, 30, 35, 26, _), _solo_action(t.action, 90, 35, _))


def _mini_hex(tile, x, y, r, _: Gettext) -> Markup:
    """The hex a solo tile names, small: its colour and letter, rat and action (a harbor: its anchor)."""
    if tile is None:
        return Markup("")
    if tile.harbor:
        return el("g", {"class": "mini-hex harbor"}, hexagon(x, y, r, HEX_FILL["harbor"]), anchor(x, y - 6, 16),
                  reward_icons(tile.action, x, y + 10, r * 1.5, 11, _))
    return el("g", {"class": "mini-hex", "data-colour": tile.colour},
              hexagon(x, y, r, HEX_FILL.get(tile.colour, "#ccc")), colour_mark(tile.colour, x, y - r + 9, 6),
              rat_glyph(tile.rat, x - 11, y - 3, _, 0.8) if tile.rat in RAT_LETTER else None,
              reward_icons(tile.action, x, y + 9, r * 1.6, 12, _))


def _solo_action(action: str, x, y, _: Gettext) -> Markup:
    """The red part: the piece the opponent takes (a class workshop carries the class's citizen)."""
    kind, _sep, cls = action.partition("-")
    if kind == "boat":
        shape = boat_shape(x, y, 40, "#fff")
    elif kind == "wagon":
        shape = wagon_shape(x, y, 40)
    elif kind == "workshop":
        shape = el("g", {}, workshop_shape(x - 6, y + 2, 34), citizen(x + 14, y - 14, 20, cls, False, _))
    else:
        shape = el("g", {}, [cabin_shape(x + d, y + 4, 22) for d in (-16, 0, 16)])
    return el("g", {"class": f"solo-action solo-{action}", "data-action": action}, shape)
