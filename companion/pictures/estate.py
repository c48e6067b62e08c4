"""A seat's estate board as pictures a phone can hold upright: each sector, the quarantine cabins, the
workshops and the overseers' paths is its own picture, 320 units wide with no text under 12 units. A phone
360 px wide shows each at about its own size across the screen, so nothing scrolls sideways and every word
reads (at least 11 px); a wide screen lays the pictures side by side (static/app.css).
`estate_key` says when a seat's region must be drawn again, so a move by one player redraws one estate
instead of every phone's.
"""

from __future__ import annotations

import json
import math

from markupsafe import Markup

from ..engine.repopulate import tiles_left
from ..engine.state import Citizen, Overseer
from .elements import Gettext, digest, el, english, svg, txt
from .glyphs import ERA, citizen_chip, letter
from .icons import reward_icons, words
from .letters import class_letter

W = 320  # every picture's width: about a phone's width in px, so 12 units of text show at about 12 px
TEXT = 12  # the smallest text drawn
ICON = 28  # reward icons: their numbers (0.75) and class letters (0.4) stay at 11 units or more
CHIP = 10  # a citizen's radius: its letter is 13 units
SQ_W, SQ_H, GAP = 98, 80, 5
HALF = (W - 14) / 2  # a cabin or a workshop: two to a row
SECTORS = ("craftsman", "aristocrat", "nun")  # as the board lays them out: top, then left and right


def estate_key(state, seat_index: int) -> str:
    """Everything a seat's estate region shows, as one short string: the seat itself and the hexes it
    repopulated (the holdings show how many tiles are left); the rest comes from the catalog, which a game
    never changes.
    Two moments with the same key draw the same estate, so a move by one player redraws one estate
    instead of every phone's (tests/pictures/test_svg.py checks this over whole games)."""
    seat = state.seats[seat_index].to_dict()
    return digest(f"{json.dumps(seat, sort_keys=True)}|{tiles_left(state, seat_index)}")


def estate_svg(state, seat_index: int, _: Gettext = english) -> Markup:
    """A seat's whole estate: whose board it is, then one picture per part of the board, then a key in
    words, so colour is never needed to read it."""
    seat = state.seats[seat_index]
    board = state.catalog.boards[seat.board]
    parts = [_figure(_(cls).capitalize() + f" ({class_letter(cls, _)})", f"sector sector-{cls}",
                     *_sector(board, cls, seat, _)) for cls in SECTORS]
    parts += [_figure(_("Quarantine cabins"), "cabins", *_cabins(state, seat, _)),
              _figure(_("Workshops"), "workshops", *_workshops(state, seat, board, _)),
              _figure(_("Overseers"), "overseers", *_overseers(board, seat, _))]
    head = el("p", {"class": "estate-head"},
              el("span", {"class": f"seat-chip c-{seat.colour}"}, letter(seat.colour, _)),
              " " + _("Estate of {name} · board side {side}").format(name=seat.name, side=board.side.upper()))
    return el("div", {"class": "estate", "data-seat": seat_index}, head,
              el("div", {"class": "estate-pictures"}, parts), _legend(_))


def _figure(caption: str, cls: str, body, height: float) -> Markup:
    """One part of the board: its name in words above its picture."""
    return el("figure", {"class": "estate-part"}, el("figcaption", {}, caption),
              svg(0, 0, W, height, caption, "estate-picture", el("g", {"class": cls}, body)))


def _legend(_: Gettext) -> Markup:
    """A one-glance key in words, so colour is never needed to read the estate."""
    lines = [" · ".join(mark + " = " + _(cls) for mark, cls in (("A", "aristocrat"), ("N", "nun"), ("C", "craftsman"))),
             _("gold with a star = upgraded"),
             _("{once} = single-use square · crossed out = already used").format(once=_("once")),
             "T1–T4 = " + _("landing space type")]
    return el("ul", {"class": "legend"}, [el("li", {}, line) for line in lines])


def _sector(board, cls: str, seat, _: Gettext) -> tuple[list[Markup], float]:
    """A sector: its squares grouped in regions as printed (one row of up to 3 each)."""
    squares = board.sector(cls)
    out, y = [], 2
    for rid in dict.fromkeys(s.region for s in squares):
        mine = [s for s in squares if s.region == rid]
        height = 10 + math.ceil(len(mine) / 3) * (SQ_H + GAP)
        out.append(el("g", {"class": "region", "data-region": rid},
                      el("rect", {"x": 2, "y": y, "width": W - 4, "height": height, "rx": 6, "fill": "none",
                                  "stroke": "#888", "stroke-dasharray": "5 3"}),
                      [_square(s, seat, 8 + (i % 3) * (SQ_W + GAP), y + 5 + (i // 3) * (SQ_H + GAP), _)
                       for i, s in enumerate(mine)]))
        y += height + 6
    return out, y - 4


def _square(sq, seat, x, y, _: Gettext) -> Markup:
    """One estate square as printed: its citizen, its reward, a single-use mark, crossed out once spent
    (its id only in attributes: the board prints none)."""
    spent = sq.id in seat.spent_squares
    cit = seat.squares.get(sq.id)
    body = [el("rect", {"x": x, "y": y, "width": SQ_W, "height": SQ_H, "rx": 4,
                        "fill": "#ddd" if spent else "#fffdf5", "stroke": "#444"}),
            citizen_chip(cit, x + 14, y + 14, _, r=CHIP) if cit else
            el("circle", {"cx": x + 14, "cy": y + 14, "r": CHIP, "fill": "none", "stroke": "#999",
                          "stroke-dasharray": "2 2"}),
            reward_icons(sq.reward, x + SQ_W / 2, y + 50, SQ_W - 8, ICON, _)]
    if sq.once:
        body.append(el("g", {"class": "once"}, el("rect", {"x": x + 30, "y": y + 5, "width": 62, "height": 18,
                                                            "rx": 9, "fill": "#222"}),
                       txt(x + 61, y + 14, _("once"), size=TEXT, fill="#fff")))
    if spent:
        body += [el("line", {"class": "cross", "x1": x + 4, "y1": y + 4, "x2": x + SQ_W - 4, "y2": y + SQ_H - 4,
                             "stroke": "#b00", "stroke-width": 3}),
                 el("line", {"class": "cross", "x1": x + SQ_W - 4, "y1": y + 4, "x2": x + 4, "y2": y + SQ_H - 4,
                             "stroke": "#b00", "stroke-width": 3}),
                 txt(x + SQ_W / 2, y + SQ_H - 9, _("used"), size=TEXT, fill="#b00", **{"font-weight": "bold"})]
    cls = "square" + (" single-use" if sq.once else "") + (" spent" if spent else "")
    return el("g", {"class": cls, "id": f"square-{sq.id}", "data-square": sq.id},
              el("title", {}, words(sq.reward.text(), _)), body)


def _cabins(state, seat, _: Gettext) -> tuple[list[Markup], float]:
    """The quarantine cabins, two to a row."""
    cabins = [_cabin(state, i, cab, 4 + (i % 2) * (HALF + 6), 2 + (i // 2) * 102, _)
              for i, cab in enumerate(seat.cabins)]
    return cabins, 2 + math.ceil(max(len(seat.cabins), 1) / 2) * 102


def _cabin(state, i: int, cab, x, y, _: Gettext) -> Markup:
    """A quarantine cabin: spaces I and II (the citizen in the one it occupies) and its improvement."""
    imp = state.catalog.improvements.get(cab.improvement) if cab.improvement else None
    body = [el("rect", {"x": x, "y": y, "width": HALF, "height": 96, "rx": 5, "fill": "#f3efe6", "stroke": "#444"}),
            txt(x + 8, y + 12, _("Cabin {n}").format(n=i + 1), size=TEXT, anchor="start", **{"font-weight": "bold"})]
    for k, roman in ((1, "I"), (2, "II")):
        sx = x + 8 + (k - 1) * 68
        body += [el("rect", {"x": sx, "y": y + 24, "width": 62, "height": 36, "fill": "#fff", "stroke": "#777",
                             "class": f"cabin-space space-{k}"}),
                 txt(sx + 5, y + 33, roman, size=TEXT, anchor="start", fill="#555")]
        if cab.citizen and cab.space == k:
            body.append(citizen_chip(cab.citizen, sx + 42, y + 42, _, r=CHIP))
    if cab.citizen and cab.space not in (1, 2):  # defensive: a citizen without a space still shows
        body.append(citizen_chip(cab.citizen, x + HALF - 14, y + 42, _, r=CHIP))
    if imp:  # what the improvement yields, drawn as the improvement's face draws it
        body.append(el("g", {"class": "improvement", "data-tile": imp.id},
                       txt(x + 8, y + 80, _("yields"), size=TEXT, anchor="start"),
                       reward_icons(imp.output, x + 100, y + 80, HALF - 64, ICON, _)))
    else:
        body.append(txt(x + 8, y + 80, _("not improved"), size=TEXT, anchor="start"))
    return el("g", {"class": "cabin" + (" improved" if imp or cab.improvement else ""), "data-cabin": i,
                    "data-space": cab.space}, body)


def _workshops(state, seat, board, _: Gettext) -> tuple[list[Markup], float]:
    """Built workshops first, then the board's free slots dashed, two to a row."""
    slots = max(board.workshop_slots, len(seat.workshops))
    shops = [_workshop(state, seat.workshops[i] if i < len(seat.workshops) else None, 4 + (i % 2) * (HALF + 6),
                       2 + (i // 2) * 90, _) for i in range(slots)]
    return shops, 2 + math.ceil(max(slots, 1) / 2) * 90


def _workshop(state, ws, x, y, _: Gettext) -> Markup:
    """A workshop: its class, era I/II, what it gives, its citizen, and "spent" once a late one is face down."""
    w = state.catalog.workshops.get(ws.tile) if ws else None
    body: list[Markup | None] = [el("rect", {"x": x, "y": y, "width": HALF, "height": 84, "rx": 5,
                        "fill": "#ddd" if ws and ws.spent else "#f3efe6", "stroke": "#444",
                        "stroke-dasharray": None if ws else "5 3"})]
    if not ws:
        return el("g", {"class": "workshop empty"}, body,
                  txt(x + HALF / 2, y + 42, _("empty slot"), size=TEXT, fill="#666"))
    cls = w.cls if w else "?"
    body += [txt(x + 8, y + 12, _(cls) + f" ({class_letter(cls, _)})", size=TEXT, anchor="start",
                 **{"font-weight": "bold"}),
             txt(x + HALF - 6, y + 12, _("era {era}").format(era=ERA.get(w.era, w.era) if w else "?"), size=TEXT,
                 anchor="end"),
             _workshop_gives(w, x + 56, y + 42, _) if w else None]
    body.append(citizen_chip(ws.citizen, x + HALF - 18, y + 42, _, r=CHIP) if ws.citizen else
                txt(x + 8, y + 72, _("no citizen"), size=TEXT, anchor="start", fill="#666"))
    if ws.spent:
        body.append(txt(x + HALF - 6, y + 72, _("spent"), size=TEXT, anchor="end", fill="#b00",
                        **{"font-weight": "bold"}))
    return el("g", {"class": "workshop" + (" spent" if ws.spent else ""), "data-tile": ws.tile}, body)


def _workshop_gives(w, cx, cy, _: Gettext) -> Markup | None:
    """What a workshop gives, drawn as its face draws it: an early one's printed output, a late one's
    once-only reward."""
    reward = w.output if w.era == 1 else w.reward
    return reward_icons(reward, cx, cy, 100, ICON, _) if reward is not None else None


def _overseers(board, seat, _: Gettext) -> tuple[list[Markup], float]:
    """One path per overseer, in the sectors' order."""
    rows = [_overseer(board, cls, seat.overseers.get(cls) or Overseer(), 2 + k * TRACK_H, _)
            for k, cls in enumerate(SECTORS)]
    return rows, 2 + len(SECTORS) * TRACK_H - 8


STEP_W, STEP_H = 75, 38
TRACK_H = 40 + 2 * (STEP_H + 4) + 8  # its name and status, then steps 0–3 and 4–6


def _step_type(path, step: int, branch: str | None, _: Gettext) -> str:
    """The landing space type at a step; before the branch is chosen both branches' types show."""
    if step == 0:
        return _("start")
    if step == 1 or branch:
        return path.space(step, branch).type
    left, right = path.space(step, "left").type, path.space(step, "right").type
    return left if left == right else f"{left}/{right}"


def _overseer(board, cls: str, ov, y, _: Gettext) -> Markup:
    """One overseer's path of 7 steps (start … centre), four then three to a row, with its marker, branch and
    upgrade."""
    path = board.paths.get(cls)
    status = [_("step {n}").format(n=ov.step),
              _("branch {branch}").format(branch=_(ov.branch)) if ov.branch else _("no branch yet")]
    if ov.upgraded:
        status.append(_("upgraded"))
    out = [txt(4, y + 8, _(cls).capitalize() + f" ({class_letter(cls, _)})", size=13, anchor="start",
               **{"font-weight": "bold"}),
           txt(4, y + 26, ", ".join(status), size=TEXT, anchor="start", fill="#333")]
    for k in range(7):
        sx, sy = 4 + (k % 4) * (STEP_W + 4), y + 40 + (k // 4) * (STEP_H + 4)
        here = k == ov.step
        out += [el("rect", {"x": sx, "y": sy, "width": STEP_W, "height": STEP_H, "rx": 4, "stroke": "#444",
                            "fill": "#fff8e1" if here else "#fff", "stroke-width": 2.5 if here else 1,
                            "class": "step" + (" here" if here else "")}),
                txt(sx + 5, sy + 10, str(k), size=TEXT, anchor="start", fill="#555"),
                txt(sx + 32, sy + 26, _step_type(path, k, ov.branch, _) if path else "", size=TEXT)]
        if here:
            out.append(el("g", {"class": "overseer-marker", "data-step": ov.step},
                          citizen_chip(Citizen(0, cls, ov.upgraded), sx + STEP_W - 13, sy + 13, _, r=CHIP)))
    return el("g", {"class": f"overseer overseer-{cls}" + (" upgraded" if ov.upgraded else ""),
                    "data-step": ov.step, "data-branch": ov.branch or ""}, out)
