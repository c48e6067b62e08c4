"""Faces of the printed boards: a register's spaces, a player board's squares, a scroll board's tracks.

These are long pieces, drawn wide; they scale with CSS like every face. Values come from the record:
a register space's reward and VP, a square's reward and single-use mark, a track's levels.
"""

from __future__ import annotations

from markupsafe import Markup

from ..elements import Gettext, el, fmt, txt, upper_first
from ..glyphs import PLAYER_FILL, ink, letter
from ..icons import church, citizen, city, coin, lumber, overseer, popularity, reward_icons, vp, words
from ..letters import class_letter
from .frame import EDGE, PAPER, face_svg, hexagon
from .shapes import boat_shape, cabin_shape, cargo_mark, workshop_shape

KIND_ICON = {"popularity": popularity, "city": city, "church": church}
CELL_W, CELL_H, PER_ROW = 50, 62, 8


def side_words(side: str, _: Gettext) -> str:
    """A scoreboard side ("2p", "3-4p") as players read it."""
    return _("{players} players").format(players=side.removesuffix("p").replace("-", "–"))


def register_face(catalog, rid: str, _: Gettext) -> Markup:
    """A register (M-7): its spaces from the start, each with what it gives and the VP it scores at the
    end, and the single and double bar lines (R-ADV-5)."""
    reg = catalog.registers[rid]
    title = upper_first(_("{register} register, {side}: {n} spaces, single bar before space {single}, "
                          "double bar before space {double}.").format(
        register=_(reg.kind), side=side_words(reg.side, _), n=len(reg.spaces), single=reg.single_bar + 1,
        double=reg.double_bar + 1))
    cells = []
    for i, space in enumerate(reg.spaces):
        x, y = 6 + (i % PER_ROW) * CELL_W, 34 + (i // PER_ROW) * (CELL_H + 8)
        cells.append(el("g", {"class": "register-space", "data-index": i},
                        el("title", {}, _("space {n}: {reward}; {vp} VP").format(
                            n=i + 1, reward=words(space.reward.text(), _), vp=space.vp)),
                        el("rect", {"x": x, "y": y, "width": CELL_W - 4, "height": CELL_H, "rx": 4,
                                    "fill": "#fff" if i else "#eee", "stroke": EDGE}),
                        txt(x + 6, y + 8, str(i + 1), size=9, anchor="start", fill="#555"),
                        reward_icons(space.reward, x + (CELL_W - 4) / 2, y + 26, CELL_W - 10, 18, _)
                        if not space.reward.is_nothing else None,
                        vp(x + (CELL_W - 4) / 2, y + CELL_H - 13, 18, space.vp)))
        if i in (reg.single_bar, reg.double_bar):
            cells.append(_bar(x - 3, y, i == reg.double_bar))
    rows = -(-len(reg.spaces) // PER_ROW)
    width, height = 12 + PER_ROW * CELL_W, 34 + rows * (CELL_H + 8)
    icon = KIND_ICON.get(reg.kind, popularity)
    return face_svg("register", rid, (0, 0, width, height), title,
                    el("rect", {"x": 1, "y": 1, "width": width - 2, "height": height - 2, "rx": 8, "fill": PAPER,
                                "stroke": EDGE}),
                    icon(18, 16, 20), txt(34, 16, _(reg.kind).capitalize() + " · " + side_words(reg.side, _), size=13,
                                           anchor="start", **{"font-weight": "bold"}), cells)


def _bar(x, y, double: bool) -> Markup:
    """A bar line drawn before the first space past it: one line, or two for the double bar."""
    lines = [el("line", {"x1": x + d, "y1": y - 3, "x2": x + d, "y2": y + CELL_H + 3, "stroke": "#000",
                         "stroke-width": 2.5}) for d in ((-2, 2) if double else (0,))]
    return el("g", {"class": "bar " + ("double-bar" if double else "single-bar")}, lines)


SQ_W, SQ_H = 56, 46
SECTOR_ORDER = ("aristocrat", "craftsman", "nun")  # left, top, right on the board: drawn in a row


def board_face(catalog, rid: str, _: Gettext) -> Markup:
    """A player board (M-14, M-15): each sector's squares in their regions, with what each gives and
    the single-use mark (R-ADV-2); a b side shows its colour with the colour's letter."""
    board = catalog.boards[rid]
    colour = rid.partition("-")[2] if board.side == "b" else ""
    counts = dict(side=board.side, squares=len(board.squares), cabins=board.cabins, slots=board.workshop_slots)
    if colour in PLAYER_FILL:
        title = _("Player board, side {side}, {colour} ({letter}): {squares} squares, {cabins} cabins, "
                  "{slots} workshop slots.").format(colour=_(colour), letter=letter(colour, _), **counts)
    else:
        title = _("Player board, side {side}: {squares} squares, {cabins} cabins, {slots} workshop slots.").format(
            **counts)
    sectors = [_sector(board, cls, 6 + k * (3 * SQ_W + 16), 34, _) for k, cls in enumerate(SECTOR_ORDER)]
    width = 6 + 3 * (3 * SQ_W + 16)
    height = 34 + max(h for _g, h in sectors) + 6
    head = [txt(12, 16, _("side {side}").format(side=board.side), size=13, anchor="start", **{"font-weight": "bold"})]
    if colour in PLAYER_FILL:
        head += [el("rect", {"x": 70, "y": 6, "width": 20, "height": 20, "fill": PLAYER_FILL[colour], "stroke": EDGE}),
                 txt(80, 16, letter(colour, _), size=12, fill=ink(colour), **{"font-weight": "bold"})]
    return face_svg("board", rid, (0, 0, width, height), title,
                    el("rect", {"x": 1, "y": 1, "width": width - 2, "height": height - 2, "rx": 8,
                                "fill": "#efe6d2" if board.side == "b" else PAPER, "stroke": EDGE}),
                    head, [g for g, _h in sectors])


def square_face(catalog, rid: str, _: Gettext) -> Markup:
    """One square of a player board ("<board>.<square>"), shown where it lies: its sector as the board prints
    it, that square outlined and the others faded, so a player finds it among squares that look alike
    (a rescued citizen's square, R-TURN-RESCUE-2)."""
    board_id, _dot, square_id = rid.partition(".")
    board = catalog.boards[board_id]
    sq = board.square(square_id)
    said = words(sq.reward.text(), _)
    if sq.once:
        said = _("{reward} (once per game)").format(reward=said)
    title = upper_first(_("{cls} sector: the “{reward}” square").format(cls=_(sq.sector), reward=said))
    sector, height = _sector(board, sq.sector, 6, 6, _, marked=square_id)
    width = 3 * SQ_W + 20
    return face_svg("square", rid, (0, 0, width, height + 12), title,
                    el("rect", {"x": 1, "y": 1, "width": width - 2, "height": height + 10, "rx": 8,
                                "fill": "#efe6d2" if board.side == "b" else PAPER, "stroke": EDGE}), sector)


def _sector(board, cls: str, x, y, _: Gettext, marked: str | None = None) -> tuple[Markup, float]:
    """A sector's heading (its class citizen) and its regions, three squares to a row; `marked`: the one
    square shown outlined, the others faded."""
    out = [citizen(x + 12, y + 8, 18, cls, False, _),
           txt(x + 26, y + 8, _(cls).capitalize() + f" ({class_letter(cls, _)})", size=11, anchor="start")]
    ry = y + 20
    for rid in dict.fromkeys(s.region for s in board.sector(cls)):
        squares = board.region(rid)
        rows = -(-len(squares) // 3)
        out.append(el("rect", {"class": "region", "x": x, "y": ry, "width": 3 * SQ_W + 8, "height": rows * SQ_H + 8,
                               "rx": 6, "fill": "none", "stroke": "#888", "stroke-dasharray": "5 3"}))
        out += [_square(sq, x + 4 + (i % 3) * SQ_W, ry + 4 + (i // 3) * SQ_H, _, marked)
                for i, sq in enumerate(squares)]
        ry += rows * SQ_H + 14
    return el("g", {"class": f"sector sector-{cls}"}, out), ry - y


def _square(sq, x, y, _: Gettext, marked: str | None = None) -> Markup:
    """One square: what a citizen there gives when activated; single-use squares marked in a corner.
    With a `marked` square, that one is outlined thick and the others faded."""
    once = [el("polygon", {"points": f"{fmt(x + SQ_W - 20)},{fmt(y + 1)} {fmt(x + SQ_W - 1)},{fmt(y + 1)} "
                                     f"{fmt(x + SQ_W - 1)},{fmt(y + 20)}", "fill": "#222"}),
            txt(x + SQ_W - 7, y + 7, "1", size=9, fill="#fff", **{"font-weight": "bold"})] if sq.once else []
    said = words(sq.reward.text(), _)
    if sq.once:
        said = _("{reward} (once per game)").format(reward=said)
    attrs = {"class": "board-square" + (" single-use" if sq.once else ""), "data-square": sq.id}
    edge: dict[str, str | int] = {"stroke": "#444"}
    if marked is not None and sq.id == marked:
        attrs["class"] += " marked"
        edge = {"stroke": "#8a2b1a", "stroke-width": 4}
    elif marked is not None:
        attrs["opacity"] = 0.35
    return el("g", attrs, el("title", {}, said),
              el("rect", {"x": x, "y": y, "width": SQ_W - 2, "height": SQ_H - 2, "rx": 4, "fill": "#fffdf5", **edge}),
              reward_icons(sq.reward, x + SQ_W / 2 - 1, y + SQ_H / 2, SQ_W - 10, 18, _), once)


def _counted(counts: str, x, y, s=18) -> Markup:
    """What a scroll track counts, as the piece it counts."""
    kind = counts.removeprefix("register-")
    if counts.startswith("register-"):
        return KIND_ICON.get(kind, popularity)(x, y, s)
    draw = {"buildings": lambda: el("g", {}, workshop_shape(x - 5, y, s * 0.8), cabin_shape(x + 7, y + 2, s * 0.7)),
            "boats": lambda: boat_shape(x, y, s * 1.3), "repopulated": lambda: hexagon(x, y, s * 0.5, "#fff"),
            "goods": lambda: el("g", {}, [cargo_mark(c, x - 7 + 7 * i, y - 3 + 3 * i, s * 0.7)
                                            for i, c in enumerate(("stones", "spices", "silk"))]),
            "workshops": lambda: workshop_shape(x, y, s),
            "lumber": lambda: lumber(x, y, s), "improvements": lambda: cabin_shape(x, y, s),
            "coins": lambda: coin(x, y, s), "overseers": lambda: overseer(x, y, s)}
    return draw[counts]() if counts in draw else Markup("")


def _level(value) -> str:
    """A level's printed value: a number (½ for a half), a pair or a triple."""
    if isinstance(value, (list, tuple)):
        return "/".join(_level(v) for v in value)
    return "½" if value == 0.5 else fmt(value)


TRACK_W, LEVEL_H = 96, 24


def scroll_board_face(catalog, rid: str, _: Gettext) -> Markup:
    """A scroll board (M-16, M-17): three tracks side by side, levels from the bottom up, each track
    headed by what it counts and its cap."""
    sb = catalog.scroll_boards[rid]
    title = _("Scroll board, side {side}: {tracks}.").format(side=sb.side,
                                                             tracks=", ".join(_(t.counts) for t in sb.tracks))
    tall = max(len(t.levels) for t in sb.tracks)
    height = 60 + tall * LEVEL_H + 8
    cols = []
    for k, t in enumerate(sb.tracks):
        x = 8 + k * (TRACK_W + 8)
        cap = _("max {n}").format(n=t.cap) if t.cap else ""
        levels = [el("g", {"class": "level", "data-level": i},
                       el("rect", {"x": x, "y": height - 8 - (i + 1) * LEVEL_H, "width": TRACK_W, "height": LEVEL_H - 2,
                                   "rx": 3, "fill": "#fff" if i else "#eee", "stroke": EDGE}),
                       txt(x + TRACK_W / 2, height - 8 - (i + 0.5) * LEVEL_H - 1, _level(v), size=12,
                           **{"font-weight": "bold"}))
                  for i, v in enumerate(t.levels)]
        cols.append(el("g", {"class": "track", "data-counts": t.counts},
                       el("title", {}, _("{track}: {levels}").format(track=_(t.counts) + (", " + cap if cap else ""),
                                                                     levels=", ".join(_level(v) for v in t.levels))),
                       _counted(t.counts, x + 14, 18), txt(x + 30, 18, _(t.counts.removeprefix("register-")), size=10,
                                                            anchor="start"),
                       txt(x + TRACK_W / 2, 40, cap, size=10, fill="#444") if cap else None, levels))
    width = 8 + len(sb.tracks) * (TRACK_W + 8)
    return face_svg("scroll_board", rid, (0, 0, width, height), title,
                    el("rect", {"x": 1, "y": 1, "width": width - 2, "height": height - 2, "rx": 8,
                                "fill": "#efe6d2" if sb.side == "b" else PAPER, "stroke": EDGE}), cols)
