"""A seat's estate region: the estate board as one picture, and what the seat holds as a readable list.

Drawn top to bottom so it reads on a phone held upright. `estate_key` says when a seat's region must be
drawn again, so a move by one player redraws one estate instead of every phone's.
"""

from __future__ import annotations

import json
import math

from markupsafe import Markup

from ...engine.repopulate import tiles_left
from ...engine.describe import tile_name
from ...engine.state import Citizen, Overseer, Place
from .glyphs import CLASS_LETTER, ERA, PLAYER_FILL, citizen_chip, ink, letter
from .icons import reward_icons, words
from .markup import Gettext, digest, el, english, svg, txt

SQ_W, SQ_H, GAP = 118, 74, 6
SECTOR_W = 3 * SQ_W + 2 * GAP + 12
SECTORS = (("craftsman", 208), ("aristocrat", 8), ("nun", 408))  # top, left, right


def estate_key(state, seat_index: int) -> str:
    """Everything a seat's estate region shows, as one short string: the seat itself and the hexes it
    repopulated (tokens_html shows how many tiles are left); the rest comes from the catalog, which a game never changes.
    Two moments with the same key draw the same estate, so a move by one player redraws one estate
    instead of every phone's (tests/test_svg.py checks this over whole games)."""
    seat = state.seats[seat_index].to_dict()
    return digest(f"{json.dumps(seat, sort_keys=True)}|{tiles_left(state, seat_index)}")


def estate_svg(state, seat_index: int, _: Gettext = english) -> Markup:
    """A seat's whole estate in one picture: sectors, cabins, workshops, overseers and a legend,
    stacked top to bottom so it reads on a phone held upright."""
    seat = state.seats[seat_index]
    board = state.catalog.boards[seat.board]
    parts, y = [_estate_header(seat, board, _)], 38
    for section in (_sectors, _cabins, _workshops, _overseers):
        g, y = section(state, seat, board, y, _)
        parts.append(g)
    parts.append(_legend(8, y + 8, _))
    return svg(0, 0, 800, y + 40, f"{_('Estate of')} {seat.name}", "estate", parts)


def _estate_header(seat, board, _: Gettext) -> Markup:
    """Whose estate this is: colour swatch with letter, name, and the board's printed side (its id is
    printed nowhere)."""
    who = f"{seat.name} ({letter(seat.colour)})"
    return el("g", {"class": "estate-head"},
              el("rect", {"x": 8, "y": 4, "width": 26, "height": 26, "fill": PLAYER_FILL.get(seat.colour, "#888"),
                          "stroke": "#000"}),
              txt(21, 17, letter(seat.colour), size=14, fill=ink(seat.colour), **{"font-weight": "bold"}),
              txt(42, 17, f"{_('Estate of')} {who} · {_('board side')} {board.side.upper()}", size=15, anchor="start",
                  **{"font-weight": "bold"}))


def _heading(y, label: str) -> Markup:
    """A section title inside the estate picture."""
    return txt(8, y + 8, label, size=13, anchor="start", **{"font-weight": "bold"})


def _sectors(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """Craftsman sector on top, aristocrat left and nun right below it, as on the board."""
    top, th = _sector(board, SECTORS[0][0], seat, SECTORS[0][1], y, _)
    below = [_sector(board, cls, seat, sx, y + th + 6, _) for cls, sx in SECTORS[1:]]
    return el("g", {"class": "sectors"}, top, [g for g, _h in below]), y + th + 6 + max(h for _g, h in below) + 8


def _cabins(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """The quarantine cabins, four to a row."""
    cabins = [_cabin(state, i, cab, 8 + (i % 4) * 196, y + 20 + (i // 4) * 100, _) for i, cab in enumerate(seat.cabins)]
    return el("g", {"class": "cabins"}, _heading(y, _("Quarantine cabins")), cabins), \
        y + 20 + math.ceil(max(len(seat.cabins), 1) / 4) * 100


def _workshops(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """Built workshops first, then the board's free slots dashed."""
    slots = max(board.workshop_slots, len(seat.workshops))
    shops = [_workshop(state, seat.workshops[i] if i < len(seat.workshops) else None, 8 + (i % 6) * 130,
                       y + 20 + (i // 6) * 84, _) for i in range(slots)]
    return el("g", {"class": "workshops"}, _heading(y, _("Workshops")), shops), \
        y + 20 + math.ceil(max(slots, 1) / 6) * 84


def _overseers(state, seat, board, y, _: Gettext) -> tuple[Markup, float]:
    """One track per overseer, in the sectors' order."""
    rows = [_overseer(board, cls, seat.overseers.get(cls) or Overseer(), 8, y + 20 + k * 42, _)
            for k, (cls, _x) in enumerate(SECTORS)]
    return el("g", {"class": "overseers"}, _heading(y, _("Overseers")), rows), y + 20 + 3 * 42


def _legend(x, y, _: Gettext) -> Markup:
    """A one-glance key so colour is never needed to read the estate."""
    line1 = f"A = {_('aristocrat')} · N = {_('nun')} · C = {_('craftsman')} · {_('gold with a star = upgraded')}"
    line2 = (f"{_('once')} = {_('single-use square')} · {_('crossed out = already used')} · "
             f"T1–T4 = {_('landing space type')}")
    return el("g", {"class": "legend"}, txt(x, y, line1, size=10, anchor="start"),
              txt(x, y + 14, line2, size=10, anchor="start"))


def _square(board, sq, seat, x, y, _: Gettext) -> Markup:
    """One estate square as printed: its citizen, its reward, a single-use mark, crossed out once spent
    (its id only in attributes: the board prints none)."""
    spent = sq.id in seat.spent_squares
    cit = seat.squares.get(sq.id)
    body = [el("rect", {"x": x, "y": y, "width": SQ_W, "height": SQ_H, "rx": 4,
                        "fill": "#ddd" if spent else "#fffdf5", "stroke": "#444"}),
            citizen_chip(cit, x + 12, y + 12, _, r=8) if cit else
            el("circle", {"cx": x + 12, "cy": y + 12, "r": 8, "fill": "none", "stroke": "#999",
                          "stroke-dasharray": "2 2"}),
            reward_icons(sq.reward, x + SQ_W / 2, y + 42, SQ_W - 16, 24, _)]
    if sq.once:
        body.append(el("g", {"class": "once"}, el("rect", {"x": x + 30, "y": y + 4, "width": 42, "height": 14,
                                                            "rx": 7, "fill": "#222"}),
                       txt(x + 51, y + 11, _("once"), size=9, fill="#fff")))
    if spent:
        body += [el("line", {"class": "cross", "x1": x + 4, "y1": y + 4, "x2": x + SQ_W - 4, "y2": y + SQ_H - 4,
                             "stroke": "#b00", "stroke-width": 3}),
                 el("line", {"class": "cross", "x1": x + SQ_W - 4, "y1": y + 4, "x2": x + 4, "y2": y + SQ_H - 4,
                             "stroke": "#b00", "stroke-width": 3}),
                 txt(x + SQ_W / 2, y + SQ_H - 8, _("used"), size=9, fill="#b00", **{"font-weight": "bold"})]
    cls = "square" + (" single-use" if sq.once else "") + (" spent" if spent else "")
    return el("g", {"class": cls, "id": f"square-{sq.id}", "data-square": sq.id},
              el("title", {}, words(sq.reward.text(), _)), body)


def _sector(board, cls: str, seat, x, y, _: Gettext) -> tuple[Markup, float]:
    """A sector: a heading and its squares grouped in regions (one row of up to 3 each)."""
    squares = board.sector(cls)
    regions = list(dict.fromkeys(s.region for s in squares))
    out = [txt(x + SECTOR_W / 2, y + 9, f"{_(cls).capitalize()} ({CLASS_LETTER[cls]})", size=13,
               **{"font-weight": "bold"})]
    ry = y + 20
    for rid in regions:
        mine = [s for s in squares if s.region == rid]
        rows = math.ceil(len(mine) / 3)
        rh = 16 + rows * (SQ_H + GAP)
        out.append(el("g", {"class": "region", "data-region": rid},
                      el("rect", {"x": x, "y": ry, "width": SECTOR_W, "height": rh, "rx": 6, "fill": "none",
                                  "stroke": "#888", "stroke-dasharray": "5 3"}),
                      [_square(board, s, seat, x + 6 + (i % 3) * (SQ_W + GAP), ry + 14 + (i // 3) * (SQ_H + GAP), _)
                       for i, s in enumerate(mine)]))
        ry += rh + 4
    return el("g", {"class": f"sector sector-{cls}"}, out), ry - y


def _cabin(state, i: int, cab, x, y, _: Gettext) -> Markup:
    """A quarantine cabin: spaces I and II (the citizen in the one it occupies) and its improvement."""
    imp = state.catalog.improvements.get(cab.improvement) if cab.improvement else None
    body = [el("rect", {"x": x, "y": y, "width": 188, "height": 92, "rx": 5, "fill": "#f3efe6", "stroke": "#444"}),
            txt(x + 8, y + 10, f"{_('Cabin')} {i + 1}", size=11, anchor="start", **{"font-weight": "bold"})]
    for k, roman in ((1, "I"), (2, "II")):
        sx = x + 10 + (k - 1) * 60
        body += [el("rect", {"x": sx, "y": y + 22, "width": 52, "height": 32, "fill": "#fff", "stroke": "#777",
                             "class": f"cabin-space space-{k}"}),
                 txt(sx + 10, y + 30, roman, size=9, fill="#555")]
        if cab.citizen and cab.space == k:
            body.append(citizen_chip(cab.citizen, sx + 32, y + 40, _, r=9))
    if cab.citizen and cab.space not in (1, 2):  # defensive: a citizen without a space still shows
        body.append(citizen_chip(cab.citizen, x + 150, y + 38, _, r=9))
    if imp:  # what the improvement yields, drawn as the improvement's face draws it
        body.append(el("g", {"class": "improvement", "data-tile": imp.id},
                       txt(x + 8, y + 74, _("yields"), size=9, anchor="start"),
                       reward_icons(imp.output, x + 110, y + 74, 140, 20, _)))
    else:
        body.append(txt(x + 8, y + 74, _("not improved"), size=9, anchor="start"))
    return el("g", {"class": "cabin" + (" improved" if imp or cab.improvement else ""), "data-cabin": i,
                    "data-space": cab.space}, body)


def _workshop(state, ws, x, y, _: Gettext) -> Markup:
    """A workshop: tile id, class, era I/II, its citizen, and "spent" once a late one is face down."""
    w = state.catalog.workshops.get(ws.tile) if ws else None
    body = [el("rect", {"x": x, "y": y, "width": 122, "height": 76, "rx": 5,
                        "fill": "#ddd" if ws and ws.spent else "#f3efe6", "stroke": "#444",
                        "stroke-dasharray": None if ws else "5 3"})]
    if not ws:
        return el("g", {"class": "workshop empty"}, body, txt(x + 61, y + 38, _("empty slot"), size=10, fill="#666"))
    cls = w.cls if w else "?"
    body += [txt(x + 8, y + 11, f"{_(cls)} ({CLASS_LETTER.get(cls, '?')})", size=10, anchor="start",
                 **{"font-weight": "bold"}),
             txt(x + 114, y + 11, f"{_('era')} {ERA.get(w.era, w.era) if w else '?'}", size=9, anchor="end"),
             _workshop_gives(w, x + 46, y + 30, _) if w else None]
    body.append(citizen_chip(ws.citizen, x + 100, y + 50, _, r=9) if ws.citizen else
                txt(x + 8, y + 46, _("no citizen"), size=9, anchor="start", fill="#666"))
    if ws.spent:
        body.append(txt(x + 8, y + 64, _("spent"), size=10, anchor="start", fill="#b00", **{"font-weight": "bold"}))
    return el("g", {"class": "workshop" + (" spent" if ws.spent else ""), "data-tile": ws.tile}, body)


def _workshop_gives(w, cx, cy, _: Gettext) -> Markup | None:
    """What a workshop gives, drawn as its face draws it: an early one's printed output, a late one's
    once-only reward."""
    reward = w.output if w.era == 1 else w.reward
    return reward_icons(reward, cx, cy, 80, 18, _) if reward is not None else None


def _step_type(path, step: int, branch: str | None, _: Gettext) -> str:
    """The landing space type at a step; before the branch is chosen both branches' types show."""
    if step == 0:
        return _("start")
    if step == 1 or branch:
        return path.space(step, branch).type
    left, right = path.space(step, "left").type, path.space(step, "right").type
    return left if left == right else f"{left}/{right}"


def _overseer(board, cls: str, ov, x, y, _: Gettext) -> Markup:
    """One overseer's track of 7 steps (start … centre) with its marker, branch and upgrade."""
    path = board.paths.get(cls)
    status = [_("step") + f" {ov.step}", _("branch") + f" {_(ov.branch)}" if ov.branch else _("no branch yet")]
    if ov.upgraded:
        status.append(_("upgraded"))
    out = [txt(x, y + 8, f"{_(cls).capitalize()} ({CLASS_LETTER[cls]})", size=11, anchor="start",
               **{"font-weight": "bold"}),
           txt(x, y + 24, ", ".join(status), size=9, anchor="start", fill="#333")]
    for k in range(7):
        sx = x + 170 + k * 86
        here = k == ov.step
        out += [el("rect", {"x": sx, "y": y, "width": 80, "height": 32, "rx": 4, "stroke": "#444",
                            "fill": "#fff8e1" if here else "#fff", "stroke-width": 2.5 if here else 1,
                            "class": "step" + (" here" if here else "")}),
                txt(sx + 6, y + 9, str(k), size=9, anchor="start", fill="#555"),
                txt(sx + 40, y + 22, _step_type(path, k, ov.branch, _) if path else "", size=10)]
    mark = Citizen(0, cls, ov.upgraded)
    mx = x + 170 + ov.step * 86 + 66
    out.append(el("g", {"class": "overseer-marker", "data-step": ov.step}, citizen_chip(mark, mx, y + 12, _, r=10)))
    return el("g", {"class": f"overseer overseer-{cls}" + (" upgraded" if ov.upgraded else ""),
                    "data-step": ov.step, "data-branch": ov.branch or ""}, out)


def _where(state, lt, _: Gettext) -> str:
    """Where a lieutenant is, in the words the log uses for that hex or dock (engine.describe.tile_name:
    what is printed on it, never an id or an invented name)."""
    place = Place.of(lt.where)
    if place.in_messina:
        return words(tile_name(state, place.at), _)
    return _(lt.where)


def _lieutenant_text(state, lt, _: Gettext) -> str:
    """Where a lieutenant is; its pose only for figures in play (supply and box have none)."""
    if lt.where in ("supply", "box"):
        return _where(state, lt, _)
    return f"{_where(state, lt, _)}, {_('standing') if lt.used else _('lying')}"


def _boat_text(c, boat: str, _: Gettext) -> str:
    """A boat as its tile reads: the number on its back and its goods (its id is on no tile)."""
    b = c.boats.get(boat)
    return f"{_('back')} {b.back}, {_(b.cargo)}" if b else "?"


def _wagon_text(c, w, _: Gettext) -> str:
    """A wagon as its tile reads: the number on its back, and whether it is used this round."""
    info = c.wagons.get(w.tile)
    return f"{_('back')} {info.back if info else '?'} ({_('used') if w.used else _('ready')})"


def _items(values) -> Markup:
    """A list in a <dd>, or a dash when empty, so every row has a value to read."""
    values = list(values)
    return el("ul", {}, [el("li", {}, v) for v in values]) if values else Markup("—")


def tokens_html(state, seat_index: int, _: Gettext = english) -> Markup:
    """Everything a seat holds as a definition list: readable by screen readers and on any screen."""
    seat = state.seats[seat_index]
    c = state.catalog
    board = c.scroll_boards.get(seat.scroll_board)
    tops = {t.id: t.top for t in board.tracks} if board else {}
    rows = [(_("Coins"), seat.coins), (_("Lumber"), seat.lumber), (_("Fire"), seat.fire),
            (_("Major fire"), seat.major_fire), (_("Rats"), seat.rats), (_("VP"), seat.vp),
            (_("Boats"), _items(_boat_text(c, b, _) for b in seat.boats)),
            (_("Wagons"), _items(_wagon_text(c, w, _) for w in seat.wagons)),
            (_("Lieutenants"), _items(_lieutenant_text(state, lt, _) for lt in seat.lieutenants)),
            (_("Repopulation tiles left"), tiles_left(state, seat_index)),
            (_("Registers"), _items(f"{_(k)}: {v}" for k, v in seat.registers.items())),
            (_("Scroll tracks"), _items(f"{k}: {v} / {tops.get(k, '?')}" for k, v in seat.scroll.items())),
            (_("Deferred rewards"), _items(seat.deferred))]
    body = [el("div", {"class": "token-row"}, el("dt", {}, k), el("dd", {}, v)) for k, v in rows]
    return el("dl", {"class": f"tokens tokens-{seat.colour}", "data-seat": seat_index},
              el("div", {"class": "token-row token-head"}, el("dt", {}, _("Player")),
                 el("dd", {}, f"{seat.name} ({letter(seat.colour)})")), body)
