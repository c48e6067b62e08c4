"""The few pieces every picture is built from: escaped elements, text labels, the SVG root, hex geometry.

One place escapes and one place rounds numbers, so no picture can forget either: each catalog or player
text is escaped (a name may be "<script>"), and numbers stay short so the markup stays small.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from ..words import plural_form

Gettext = Callable[[str], str]
SVG_NS = "http://www.w3.org/2000/svg"
R = 60  # hex radius (centre to corner) in SVG units
HW = R * math.sqrt(3) / 2  # half the width of a pointy-top hex
_ATTR_NAME = re.compile(r"^[A-Za-z_:][-A-Za-z0-9_:.]*$")


def english(s: str) -> str:
    """The default `_`: English as written, when no translation is installed."""
    return s


def ngettext(singular: str, plural: str, n: int, _: Gettext = english) -> str:
    """The form of a phrase with a count `n`, through the `_` a picture was given: its catalog's plural
    rule when `_` carries one (words.plural_form), English rules otherwise. Named like gettext's, so
    pybabel extracts both templates; format the fields after: ngettext("{n} cube", "{n} cubes", n, _)."""
    return plural_form(_, singular, plural, n)


def pgettext(context: str, message: str, _: Gettext = english) -> str:
    """`message` in its `context` through the `_` a picture was given (its catalog's pgettext when `_` carries
    one, else English): one letter may stand for different words ("R": red, or a rat facing right)."""
    lookup = getattr(_, "pgettext", None)
    return lookup(context, message) if lookup is not None else message


def upper_first(s: str) -> str:
    """A phrase starting with a capital (a template may start with a lowercase word such as a class)."""
    return s[:1].upper() + s[1:]


def fmt(v) -> str:
    """Numbers short (12.5, not 12.500000001) so the markup stays small."""
    if isinstance(v, float):
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return str(v)


#: an element's attributes by name (a free mapping: any SVG or HTML attribute; None or False leaves it out)
Attrs = dict[str, Any]

def el(tag: str, attrs: Attrs | None = None, *children) -> Markup:
    """One element; attribute values and text children escaped, Markup children kept as they are.
    Attribute names are checked because targets' attrs come from callers. Built as one plain string and
    marked safe once: a phone's estate is a few hundred elements, drawn again after every move."""
    head = [tag]
    for k, v in (attrs or {}).items():
        if v is None or v is False:
            continue
        if k not in _CHECKED and not _ATTR_NAME.match(k):
            raise ValueError(f"bad attribute name {k!r}")
        head.append(f'{k}="{fmt(v) if type(v) in _NUMBERS else escape(v)}"')  # digits need no escaping
    inner = "".join(c if isinstance(c, Markup) else escape(c if isinstance(c, str) else fmt(c))
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
    """Text centred on (x, y) by default: one place decides font and baseline for every label. Centred is
    what every picture's root says (TEXT_ROOT), so a centred label does not say it again."""
    base = {"x": x, "y": y, "font-size": size, "text-anchor": None if anchor == "middle" else anchor, "fill": fill}
    return el("text", {**base, **attrs}, s)


#: how a picture's labels sit unless they say otherwise, given once at its root (every text inherits it)
TEXT_ROOT = {"text-anchor": "middle", "dominant-baseline": "central"}


def svg(x0, y0, w, h, label: str, cls: str, *body, attrs: Attrs | None = None) -> Markup:
    """The root: a viewBox and width 100% so one picture scales from a phone to a TV; `attrs` adds data-*
    attributes (a face's family and record)."""
    return el("svg", {"xmlns": SVG_NS, "viewBox": f"{fmt(x0)} {fmt(y0)} {fmt(w)} {fmt(h)}", "class": cls,
                      "role": "img", "aria-label": label, "width": "100%", "font-family": "sans-serif",
                      "preserveAspectRatio": "xMidYMid meet", **TEXT_ROOT, **(attrs or {})},  # sized by app.css
              el("title", {}, label), *body)


#: the smallest text of the host's map, in its units: the map is drawn about 1.24 px a unit at 1280 px wide
#: (one column, issue 25 item 3), so 11.5 units are at least 14 px there
MAP_TEXT_MIN = 11.5
_FONT_SIZE = re.compile(r'font-size="([0-9.]+)"')


def readable(markup: str, least: float = MAP_TEXT_MIN) -> Markup:
    """A picture of the host's map with no text smaller than `least` units (a letter in a small disc, a rat's
    letter, a badge): what is read from across the table."""
    return Markup(_FONT_SIZE.sub(lambda m: f'font-size="{fmt(max(float(m.group(1)), least))}"', str(markup)))


def hex_points(cx, cy, r=R) -> str:
    """Corners of a pointy-top hex."""
    pts = [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30)))
           for k in range(6)]
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)


def axial_to_xy(q: int, r: int) -> tuple[float, float]:
    """Pointy-top axial coordinates (row r shifted half a hex per row) to SVG units."""
    return R * math.sqrt(3) * (q + r / 2), 1.5 * R * r


def spread(n: int, cx: float, step: float) -> list[float]:
    """x positions of n things centred on cx."""
    return [cx + (i - (n - 1) / 2) * step for i in range(n)]


def digest(text: str) -> str:
    """A region's key in 32 hex digits: what the pages compare to skip redrawing an unchanged picture."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
