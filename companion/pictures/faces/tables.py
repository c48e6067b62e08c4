"""Faces of the scoreboard's small tables: the round info table, the register priority tile and the
rat penalty table. Each is a grid of what the rulebook prints per round or per rat."""

from __future__ import annotations

from markupsafe import Markup

from ..elements import Gettext, el, ngettext, txt
from ..glyphs import rat_glyph
from ..icons import church, city, fire, popularity, vp
from .boards import side_words
from .frame import EDGE, PAPER, face_svg
from .shapes import boat_shape

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
PRIORITY_ICON = {"popularity": popularity, "city": city, "church": church}


def _priority(which: str, x, y, s=20) -> Markup:
    """Which register sets play order in a round: its icon; the score track a VP shield; round I's
    random order a die."""
    if which in PRIORITY_ICON:
        return PRIORITY_ICON[which](x, y, s)
    if which == "score":
        return vp(x, y, s)
    return el("g", {"class": "icon icon-random"},
              el("rect", {"x": x - s * 0.4, "y": y - s * 0.4, "width": s * 0.8, "height": s * 0.8, "rx": s * 0.15,
                          "fill": "#fff", "stroke": EDGE}),
              [el("circle", {"cx": x + dx * s, "cy": y + dy * s, "r": s * 0.07, "fill": "#000"})
               for dx, dy in ((-0.2, -0.2), (0, 0), (0.2, 0.2))])


def _frame(w, h) -> Markup:
    return el("rect", {"x": 1, "y": 1, "width": w - 2, "height": h - 2, "rx": 8, "fill": PAPER, "stroke": EDGE})


def round_info_face(catalog, rid: str, _: Gettext) -> Markup:
    """The round info table (M-5): per round, the priority register, the boats that arrive, the fire
    cost of a plague cube and the double-turn mark of the wheel."""
    info = catalog.round_info[rid]
    title = _("Round info table, {side}: {rounds}.").format(side=side_words(rid, _), rounds="; ".join(
        (_("round {round}: {priority}, {boats}, {fire}, wheel turns twice") if r.double_wheel
         else _("round {round}: {priority}, {boats}, {fire}")).format(
            round=ROMAN[i], priority=_(r.priority),
            boats=ngettext("{n} boat", "{n} boats", r.boats, _).format(n=r.boats),
            fire=ngettext("{n} fire", "{n} fires", r.fire_cost, _).format(n=r.fire_cost))
        for i, r in enumerate(info.rounds)))
    cols = []
    for i, r in enumerate(info.rounds):
        x = 34 + i * 44
        cols.append(el("g", {"class": "round", "data-round": i + 1},
                       txt(x, 14, ROMAN[i], size=13, **{"font-weight": "bold"}), _priority(r.priority, x, 38),
                       [boat_shape(x + (k - (r.boats - 1) / 2) * 16, 66, 18) for k in range(r.boats)],
                       [fire(x + (k - (r.fire_cost - 1) / 2) * 14, 92, 16) for k in range(r.fire_cost)],
                       _double(x, 116) if r.double_wheel else None))
    width = 34 + len(info.rounds) * 44
    return face_svg("round_info", rid, (0, 0, width, 132), title, _frame(width, 132), cols)


def _double(x, y) -> Markup:
    """The wheel turns twice: two curved arrows with "×2"."""
    return el("g", {"class": "double-wheel"},
              el("circle", {"cx": x, "cy": y, "r": 9, "fill": "none", "stroke": EDGE, "stroke-width": 2,
                            "stroke-dasharray": "14 4"}),
              txt(x, y, "×2", size=9, **{"font-weight": "bold"}))


def priority_tile_face(catalog, rid: str, _: Gettext) -> Markup:
    """The register priority tile (M-6): the register that sets play order in each round."""
    tile = catalog.priority_tiles[rid]
    title = _("Register priority tile, {side}: {rounds}.").format(side=side_words(rid, _), rounds=", ".join(
        ROMAN[i] + " " + _(p) for i, p in enumerate(tile.priority)))
    cells = [el("g", {"class": "round", "data-round": i + 1}, txt(24 + i * 40, 14, ROMAN[i], size=12,
                                                                  **{"font-weight": "bold"}),
                _priority(p, 24 + i * 40, 40, 24)) for i, p in enumerate(tile.priority)]
    width = 8 + len(tile.priority) * 40
    return face_svg("priority_tile", rid, (0, 0, width, 62), title, _frame(width, 62), cells)


def rat_table_face(catalog, rid: str, _: Gettext) -> Markup:
    """The rat penalty table (M-19, Q-2): VP lost for each number of rats; the last column is the most."""
    table = catalog.rat_table
    n = len(table.penalty)
    title = _("Rat penalty: {penalties}.").format(penalties=", ".join(
        ngettext("{n} rat −{vp} VP", "{n} rats −{vp} VP", i, _).format(n=f"{i}{'+' if i == n - 1 else ''}", vp=v)
        for i, v in enumerate(table.penalty)))
    cols = [el("g", {"class": "rat-count", "data-rats": i},
               txt(40 + i * 30, 16, f"{i}{'+' if i == n - 1 else ''}", size=12, **{"font-weight": "bold"}),
               txt(40 + i * 30, 40, f"−{v}" if v else "0", size=12)) for i, v in enumerate(table.penalty)]
    width = 40 + n * 30
    return face_svg("rat_table", rid, (0, 0, width, 56), title, _frame(width, 56),
                    el("g", {"class": "legend"}, rat_glyph("left", 10, 16, _), vp(14, 40, 18)), cols)
