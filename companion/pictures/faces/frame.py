"""What every face shares: its root (family and record as data attributes, a plain title), the marks a
colour always comes with (a letter), a price tag for costs and a disc for a printed number.

A face is recognised by its picture: no internal id is ever drawn as text, only kept in data-id.
"""

from __future__ import annotations

from markupsafe import Markup

from ..elements import Gettext, el, english, hex_points, svg, txt
from ..glyphs import HEX_FILL
from ..icons import cost_icons
from ..letters import hex_letter

PAPER = "#fbf7ee"
EDGE = "#3a3a3a"


def face_svg(family: str, rid: str, box: tuple, title: str, *body) -> Markup:
    """A face's root: it scales with CSS (class `face`), says what it is in its title, and keeps its
    family and record id in attributes only."""
    x0, y0, w, h = box
    return svg(x0, y0, w, h, title, f"face face-{family.replace('_', '-')}", *body,
               attrs={"data-family": family, "data-id": rid})


def colour_mark(colour: str, x, y, r=9, _: Gettext | None = None) -> Markup:
    """A hex colour as a disc of that colour with its letter, so the colour is never the only cue."""
    return el("g", {"class": f"colour-mark colour-{colour}", "data-colour": colour},
              el("title", {}, _(colour)) if _ else None,
              el("circle", {"cx": x, "cy": y, "r": r, "fill": HEX_FILL.get(colour, "#ccc"), "stroke": EDGE,
                            "stroke-width": 1.2}),
              txt(x, y, hex_letter(colour, _ or english), size=r * 1.2, **{"font-weight": "bold"}))


def price(cost, x, y, w, h, _: Gettext, s=16) -> Markup:
    """A cost on a tag (a light box with a notch), so it never reads as something received."""
    return el("g", {"class": "price"},
              el("rect", {"x": x, "y": y, "width": w, "height": h, "rx": h / 2, "fill": "#fff", "stroke": EDGE,
                          "stroke-width": 1.2, "stroke-dasharray": "4 2"}),
              cost_icons(cost, x + w / 2, y + h / 2, w - 8, s, _))


def number_disc(n, x, y, r=10, cls="back-number") -> Markup:
    """A number printed in a circle (a boat's or wagon's back number, a round)."""
    return el("g", {"class": cls, "data-number": n},
              el("circle", {"cx": x, "cy": y, "r": r, "fill": "#fff", "stroke": EDGE, "stroke-width": 1.5}),
              txt(x, y, str(n), size=r * 1.2, **{"font-weight": "bold"}))


def hexagon(cx, cy, r, fill, **attrs) -> Markup:
    """A pointy-top hexagon outline, as the city's tiles lie."""
    return el("polygon", {"points": hex_points(cx, cy, r), "fill": fill, "stroke": EDGE, "stroke-width": 1.5,
                          **attrs})
