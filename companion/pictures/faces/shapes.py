"""Silhouettes of the pieces themselves (an anchor, a boat, a wagon, a cabin, a workshop, goods), so a
face can point at another piece by its shape: a solo tile's red action, a docking tile's boat."""

from __future__ import annotations

from markupsafe import Markup

from ..elements import el, fmt, txt
from .frame import EDGE

#: boat cargo (R-COMP-4): a shape and the first letters of its name, never the colour alone
CARGO = {"stones": ("#7e57c2", "St"), "spices": ("#e65100", "Sp"), "silk": ("#26a69a", "Si")}


def _p(x, y, s, pts) -> str:
    return " ".join(f"{fmt(x + a * s)},{fmt(y + b * s)}" for a, b in pts)


def anchor(x, y, s=20, ink=EDGE) -> Markup:
    """A harbor's anchor."""
    return el("g", {"class": "anchor"},
              el("circle", {"cx": x, "cy": y - s * 0.34, "r": s * 0.1, "fill": "none", "stroke": ink,
                            "stroke-width": 1.6}),
              el("line", {"x1": x, "y1": y - s * 0.24, "x2": x, "y2": y + s * 0.4, "stroke": ink, "stroke-width": 2}),
              el("line", {"x1": x - s * 0.2, "y1": y - s * 0.12, "x2": x + s * 0.2, "y2": y - s * 0.12, "stroke": ink,
                          "stroke-width": 1.6}),
              el("path", {"d": f"M{fmt(x - s * 0.36)},{fmt(y + s * 0.1)} Q{fmt(x - s * 0.3)},{fmt(y + s * 0.42)} "
                               f"{fmt(x)},{fmt(y + s * 0.42)} Q{fmt(x + s * 0.3)},{fmt(y + s * 0.42)} "
                               f"{fmt(x + s * 0.36)},{fmt(y + s * 0.1)}", "fill": "none", "stroke": ink,
                          "stroke-width": 1.8}))


def waves(x, y, w) -> Markup:
    """Water: two wavy lines, the harbor's pattern beside its grey."""
    rows = []
    for dy in (-4, 4):
        d = f"M{fmt(x - w / 2)},{fmt(y + dy)}" + "".join(f" q{fmt(w / 12)},-4 {fmt(w / 6)},0" for _ in range(6))
        rows.append(el("path", {"d": d, "fill": "none", "stroke": "#1f5f8b", "stroke-width": 1.5}))
    return el("g", {"class": "waves"}, rows)


def boat_shape(x, y, s=30, fill="#8d6e63") -> Markup:
    """A boat: a hull with a sail."""
    return el("g", {"class": "boat-shape"},
              el("polygon", {"points": _p(x, y, s, ((-0.5, 0.1), (0.5, 0.1), (0.34, 0.4), (-0.34, 0.4))),
                             "fill": fill, "stroke": EDGE, "stroke-width": 1.2}),
              el("polygon", {"points": _p(x, y, s, ((0, -0.45), (0, 0.05), (0.32, 0.05))), "fill": "#fff",
                             "stroke": EDGE}))


def wagon_shape(x, y, s=30) -> Markup:
    """A wagon: a box on two wheels."""
    return el("g", {"class": "wagon-shape"},
              el("rect", {"x": x - s * 0.45, "y": y - s * 0.3, "width": s * 0.9, "height": s * 0.4, "fill": "#a1887f",
                          "stroke": EDGE, "stroke-width": 1.2}),
              [el("circle", {"cx": x + d * s, "cy": y + s * 0.2, "r": s * 0.16, "fill": "#fff", "stroke": EDGE,
                             "stroke-width": 1.5}) for d in (-0.26, 0.26)])


def cabin_shape(x, y, s=30, fill="#f3efe6") -> Markup:
    """A quarantine cabin: a small house."""
    return el("polygon", {"class": "cabin-shape", "fill": fill, "stroke": EDGE, "stroke-width": 1.2,
                          "points": _p(x, y, s, ((-0.4, 0.4), (-0.4, -0.1), (0, -0.45), (0.4, -0.1), (0.4, 0.4)))})


def workshop_shape(x, y, s=30) -> Markup:
    """A workshop: a hall with a saw-tooth roof."""
    roof = ((-0.45, 0.4), (-0.45, -0.1), (-0.15, -0.4), (-0.15, -0.1), (0.15, -0.4), (0.15, -0.1), (0.45, -0.4),
            (0.45, 0.4))
    return el("polygon", {"class": "workshop-shape", "fill": "#d7ccc8", "stroke": EDGE, "stroke-width": 1.2,
                          "points": _p(x, y, s, roof)})


def cargo_mark(cargo: str, x, y, s=20) -> Markup:
    """A boat's goods: a bale in the cargo's colour with its letters."""
    fill, letters = CARGO.get(cargo, ("#9e9e9e", "?"))
    return el("g", {"class": f"cargo cargo-{cargo}", "data-cargo": cargo},
              el("rect", {"x": x - s * 0.5, "y": y - s * 0.4, "width": s, "height": s * 0.8, "rx": s * 0.2,
                          "fill": fill, "stroke": EDGE, "stroke-width": 1.2}),
              txt(x, y, letters, size=s * 0.5, fill="#fff", **{"font-weight": "bold"}))


def hourglass(x, y, s=16) -> Markup:
    """The late mark of an era II workshop (available from round V, R-BUILD-5)."""
    return el("polygon", {"class": "late-mark", "fill": "#ffe082", "stroke": EDGE, "stroke-width": 1.2,
                          "points": _p(x, y, s, ((-0.35, -0.45), (0.35, -0.45), (0, 0), (0.35, 0.45), (-0.35, 0.45),
                                                  (0, 0)))})
