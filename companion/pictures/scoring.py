"""The final scoring as bars: one block per player, one bar per scoring line, winners starred.

Two layouts of the same bars: `wide` (a line's words beside its bar: the host's screen, a printed sheet)
and `narrow` (the words above the bar, so they keep a phone's reading size: the score sheet on a 390 px
phone shows them at 12 px and more, issue 33 item 9)."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..engine.records import Scoring, SeatScore
from ..words import tr
from .elements import Gettext, el, english, svg, txt
from .glyphs import PLAYER_FILL, ink, letter


@dataclass(frozen=True)
class Layout:
    """Where a line's words and bar sit: words beside the bar (`label_w` wide) or above it (`label_w` 0)."""

    width: float  # the whole picture
    label_w: float  # the words' column beside the bars (0: the words go above each bar)
    bar_w: float  # the longest bar
    text: float  # a line's words and points
    head: float  # a player's heading
    step: float  # from one line to the next


WIDE = Layout(width=710, label_w=230, bar_w=420, text=10, head=13, step=17)
NARROW = Layout(width=330, label_w=0, bar_w=250, text=13, head=15, step=36)


def scoring_svg(scoring: Scoring, state, _: Gettext = english, narrow: bool = False) -> Markup:
    """Final scoring as bars per player and line; negatives to the left of the axis, winners starred."""
    lay = NARROW if narrow else WIDE
    seats = scoring["seats"]
    pts = [ln["points"] for s in seats for ln in s["lines"]]
    lo, hi = min([0, *pts]), max([1, *pts])
    scale = lay.bar_w / (hi - lo)
    axis = (lay.label_w + 10 if lay.label_w else 8 + lay.text * 2.2) + (-lo) * scale
    out, y = [], 8.0
    for s in seats:
        g, y = _score_seat(s, scoring, state, y, axis, scale, lay, _)
        out.append(g)
    top = el("line", {"class": "axis", "x1": axis, "y1": 0, "x2": axis, "y2": y, "stroke": "#000"})
    return svg(0, 0, lay.width, y + 6, _("Final scoring"), "scoring" + (" narrow" if narrow else ""), out, top)


def _score_seat(s: SeatScore, scoring: Scoring, state, y, axis, scale, lay: Layout, _: Gettext) -> tuple[Markup, float]:
    """One player's block: a heading with total (and winner mark), then one bar per scoring line."""
    colour = s.get("colour") or state.seats[s["seat"]].colour
    won = s["seat"] in scoring.get("winners", [])
    head = _("{name} ({letter}) · total {total}").format(name=s["name"], letter=letter(colour, _), total=s["total"])
    if won:
        head = "★ " + _("{head} · winner").format(head=head)
    box = lay.head + 5
    out = [el("rect", {"x": 4, "y": y, "width": box, "height": box, "fill": PLAYER_FILL.get(colour, "#888"),
                       "stroke": "#000"}),
           txt(4 + box / 2, y + box / 2, letter(colour, _), size=lay.head - 2, fill=ink(colour),
               **{"font-weight": "bold"}),
           txt(box + 10, y + box / 2, head, size=lay.head, anchor="start", **{"font-weight": "bold"})]
    y += box + 6
    for ln in s["lines"]:
        p = ln["points"]
        x = axis if p >= 0 else axis + p * scale
        words_y, bar_y = (y + 7, y) if lay.label_w else (y + lay.text * 0.6, y + lay.text * 1.3)
        bar_h = 14 if lay.label_w else lay.text * 1.3
        out += [txt(8, words_y, tr(ln, "label", _), size=lay.text, anchor="start"),
                el("rect", {"class": "bar " + ("positive" if p >= 0 else "negative"), "x": x, "y": bar_y,
                            "width": max(abs(p) * scale, 0.5), "height": bar_h,
                            "fill": PLAYER_FILL.get(colour, "#888") if p >= 0 else "#555", "stroke": "#000",
                            "stroke-width": 0.5}),
                txt(axis + p * scale + (4 if p >= 0 else -4), bar_y + bar_h / 2, str(p), size=lay.text,
                    anchor="start" if p >= 0 else "end")]
        y += lay.step
    cls = "score-seat" + (" winner" if won else "")
    return el("g", {"class": cls, "data-seat": s["seat"], "data-total": s["total"]}, out), y + 10
