"""The small pieces a player recognises on the table: citizens, lieutenants, rats, plague cubes, badges.

Colours are never the only cue: players carry their letter, citizens their class letter (letters.py: in the
reader's language),
and upgraded citizens are gold with a star, so every glyph reads without seeing colour.
"""

from __future__ import annotations

import math

from markupsafe import Markup

from .elements import Gettext, el, english, fmt, ngettext, txt
from .letters import RATS, class_letter, colour_letter, rat_letter

PLAYER_FILL = {"red": "#d62728", "yellow": "#f2c12e", "blue": "#1f6fd1", "green": "#2ca02c"}
HEX_FILL = {"orange": "#f6a04d", "white": "#f4f1e8", "blue": "#9cc3ec", "red": "#e8847a", "harbor": "#b9b9b9"}
CLASS_FILL = {"aristocrat": "#6a4c93", "nun": "#37474f", "craftsman": "#8d5524"}
RAT_LETTER = RATS  # the rats that carry a letter (letters.py writes it in the reader's language)
GOLD = "#d4a017"
ERA = {1: "I", 2: "II"}


def ink(colour: str) -> str:
    """Text colour that stays legible on a player's colour."""
    return "#000" if colour == "yellow" else "#fff"


def letter(colour: str, _: Gettext = english) -> str:
    """A player colour's letter in the reader's language, so colour is never the only cue."""
    return colour_letter(colour, _)


def citizen_chip(c, x, y, _: Gettext = english, r=7, kind="citizen") -> Markup:
    """A citizen: class colour and letter; upgraded ones gold with a black star. `kind` names the group:
    a citizen on the table, or a citizen icon printed on a tile (icons.py)."""
    cls = c.cls
    fill = GOLD if c.upgraded else CLASS_FILL.get(cls, "#777")
    title = _("upgraded {cls}").format(cls=_(cls)) if c.upgraded else _(cls)
    mark = star(x + r * 0.85, y - r * 0.85, r * 0.6) if c.upgraded else None
    return el("g", {"class": f"{kind} {kind}-{cls}" + (" upgraded" if c.upgraded else "")},
              el("title", {}, title) if cls != "any" else None,  # an icon's "any citizen": its reward says it
              el("circle", {"cx": x, "cy": y, "r": r, "fill": fill, "stroke": "#000", "stroke-width": 1}),
              txt(x, y, class_letter(cls, _), size=r * 1.3, fill="#000" if c.upgraded else "#fff",
                  **{"font-weight": "bold"}), mark)


def star(x, y, r) -> Markup:
    """The upgrade mark: a small black star, visible without seeing gold (citizens, overseers, icons)."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append(f"{fmt(x + rad * math.cos(a))},{fmt(y + rad * math.sin(a))}")
    return el("polygon", {"class": "upgrade-mark", "points": " ".join(pts), "fill": "#000", "stroke": "#fff",
                          "stroke-width": 0.5})


def lieutenant_mark(seat, used: bool, x, y, _: Gettext = english) -> Markup:
    """A lieutenant: standing (used this round) upright, lying (unused) flat; seat colour and letter."""
    w, h = (11, 19) if used else (19, 11)
    pose = _("standing") if used else _("lying")
    return el("g", {"class": "lieutenant " + ("standing" if used else "lying"), "data-colour": seat.colour},
              el("title", {}, _("{name} ({letter}): lieutenant, {pose}").format(name=seat.name,
                                                                             letter=letter(seat.colour, _), pose=pose)),
              el("rect", {"x": x - w / 2, "y": y - h / 2, "width": w, "height": h, "rx": 2,
                          "fill": PLAYER_FILL.get(seat.colour, "#888"), "stroke": "#000"}),
              txt(x, y, letter(seat.colour, _), size=8, fill=ink(seat.colour), **{"font-weight": "bold"}))


def rat_glyph(rat: str, x, y, _: Gettext = english, size=1.0) -> Markup:
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
    return el("g", {"class": f"rat rat-{rat}"}, el("title", {}, _("rat: {rat}").format(rat=_(rat))), body, head,
              txt(x + 12 * s, y, rat_letter(rat, _), size=9 * s, **{"font-weight": "bold"}))


def cubes_mark(n: int, x, y, _: Gettext = english) -> Markup:
    """Plague cubes as black squares from x rightwards; above 3, one square and the count."""
    if n <= 0:
        return Markup("")
    shown = n if n <= 3 else 1
    body = [cube(x + 4.5 + i * 11, y, 9) for i in range(shown)]
    if n > 3:
        body.append(txt(x + 12, y, f"×{n}", size=10, anchor="start", **{"font-weight": "bold"}))
    title = el("title", {}, ngettext("{n} plague cube", "{n} plague cubes", n, _).format(n=n))
    return el("g", {"class": "cubes", "data-count": n}, title, body)


def cube(x, y, side=9) -> Markup:
    """One plague cube: a black square centred on (x, y), on the map and on any face that prints one."""
    return el("rect", {"x": x - side / 2, "y": y - side / 2, "width": side, "height": side, "fill": "#000"})


def badge(x, y, label: str) -> Markup:
    """A target's label (e.g. its cost) drawn over the place it belongs to."""
    w = max(30, 6.2 * len(label) + 10)
    return el("g", {"class": "badge"},
              el("rect", {"x": x - w / 2, "y": y - 8, "width": w, "height": 16, "rx": 8, "fill": "#fff",
                          "stroke": "#000", "stroke-width": 1.5}),
              txt(x, y, label, size=10, **{"font-weight": "bold"}))
