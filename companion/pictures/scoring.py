"""The final scoring as bars: one block per player, one bar per scoring line, winners starred."""

from __future__ import annotations

from markupsafe import Markup

from ..words import tr
from .glyphs import PLAYER_FILL, ink, letter
from .elements import Gettext, el, english, svg, txt


def scoring_svg(scoring: dict, state, _: Gettext = english) -> Markup:
    """Final scoring as bars per player and line; negatives to the left of the axis, winners starred."""
    seats = scoring["seats"]
    pts = [ln["points"] for s in seats for ln in s["lines"]]
    lo, hi = min([0, *pts]), max([1, *pts])
    label_w, bar_w = 230, 420
    scale = bar_w / (hi - lo)
    axis = label_w + 10 + (-lo) * scale
    out, y = [], 8
    for s in seats:
        g, y = _score_seat(s, scoring, state, y, axis, scale, _)
        out.append(g)
    top = el("line", {"class": "axis", "x1": axis, "y1": 0, "x2": axis, "y2": y, "stroke": "#000"})
    return svg(0, 0, label_w + bar_w + 60, y + 6, _("Final scoring"), "scoring", out, top)


def _score_seat(s: dict, scoring: dict, state, y, axis, scale, _: Gettext) -> tuple[Markup, float]:
    """One player's block: a heading with total (and winner mark), then one bar per scoring line."""
    colour = s.get("colour") or state.seats[s["seat"]].colour
    won = s["seat"] in scoring.get("winners", [])
    head = _("{name} ({letter}) · total {total}").format(name=s["name"], letter=letter(colour, _), total=s["total"])
    if won:
        head = "★ " + _("{head} · winner").format(head=head)
    out = [el("rect", {"x": 4, "y": y, "width": 18, "height": 18, "fill": PLAYER_FILL.get(colour, "#888"),
                       "stroke": "#000"}),
           txt(13, y + 9, letter(colour, _), size=11, fill=ink(colour), **{"font-weight": "bold"}),
           txt(28, y + 9, head, size=13, anchor="start", **{"font-weight": "bold"})]
    y += 24
    for ln in s["lines"]:
        p = ln["points"]
        x = axis if p >= 0 else axis + p * scale
        out += [txt(8, y + 7, tr(ln, "label", _), size=10, anchor="start"),
                el("rect", {"class": "bar " + ("positive" if p >= 0 else "negative"), "x": x, "y": y,
                            "width": max(abs(p) * scale, 0.5), "height": 14,
                            "fill": PLAYER_FILL.get(colour, "#888") if p >= 0 else "#555", "stroke": "#000",
                            "stroke-width": 0.5}),
                txt(axis + p * scale + (4 if p >= 0 else -4), y + 7, str(p), size=10,
                    anchor="start" if p >= 0 else "end")]
        y += 17
    cls = "score-seat" + (" winner" if won else "")
    return el("g", {"class": cls, "data-seat": s["seat"], "data-total": s["total"]}, out), y + 10
