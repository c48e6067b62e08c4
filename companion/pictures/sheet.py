"""Pictures of the score sheet (issue 26): each field shows the piece the table counts, and the registers,
scroll tracks and overseer paths are tapped space by space, each space drawn from the catalog in force as
its face draws it (faces/boards.py): a register space's reward and end VP, a track level's printed value.

Small pictures, each at least 44 px on a phone: one per choice, so a choice is a plain radio button.
"""

from __future__ import annotations

from markupsafe import Markup

from .elements import Gettext, el, english, svg, txt
from .faces.boards import _counted, _level
from .faces.frame import EDGE, PAPER, hexagon
from .faces.shapes import boat_shape, cabin_shape, cargo_mark, wagon_shape, workshop_shape
from .glyphs import PLAYER_FILL, ink, letter
from .icons import coin, fire, lumber, major_fire, overseer, rat, reward_icons, vp, words

ICON = 28  # a stepper's picture, in px and SVG units alike


def _icon(label: str, *body) -> Markup:
    return svg(0, 0, ICON, ICON, label, "sheet-icon", *body)


def counted_icon(key: str, _: Gettext = english) -> Markup:
    """What a stepper counts, as the piece itself (a coin's value printed on it)."""
    c = ICON / 2
    draw = {
        "track": lambda: vp(c, c, 24), "laps": lambda: _fifty(c),
        "rats": lambda: rat(c, c, 26), "fire": lambda: fire(c, c, 26), "major_fire": lambda: major_fire(c, c, 24),
        "lumber": lambda: lumber(c, c, 26), "improvements": lambda: cabin_shape(c, c, 24),
        "workshops": lambda: workshop_shape(c, c, 24), "wagons": lambda: wagon_shape(c, c + 2, 26),
    }
    if key.startswith("coins."):
        value = key.split(".", 1)[1]
        return _icon(_("coin of {value}").format(value=value), coin(c, c, 26),
                     txt(c, c, value, size=11, **{"font-weight": "bold"}))
    if key.startswith("boats."):
        cargo = key.split(".", 1)[1]
        return _icon(_("boat carrying {cargo}").format(cargo=_(cargo)), boat_shape(c - 3, c + 2, 22),
                     cargo_mark(cargo, c + 7, c + 6, 13))
    return _icon("", draw[key]()) if key in draw else Markup("")


def _fifty(c) -> Markup:
    return el("g", {}, el("circle", {"cx": c, "cy": c, "r": 12, "fill": "#fff", "stroke": EDGE, "stroke-width": 1.5}),
              txt(c, c, "50", size=11, **{"font-weight": "bold"}))


SPACE_W, SPACE_H = 46, 58


def register_space(reg, index: int, _: Gettext = english) -> Markup:
    """One space of a register as its face prints it: the space's number, what landing there gives, and
    the VP it scores at the end (R-SCORE-1); a bar line before the first space past it (R-ADV-5)."""
    space = reg.spaces[index]
    said = _("space {n}: {reward}; {vp} VP").format(n=index + 1, reward=words(space.reward.text(), _), vp=space.vp)
    bars = [el("line", {"x1": 2 + d, "y1": 0, "x2": 2 + d, "y2": SPACE_H, "stroke": "#000", "stroke-width": 2.5})
            for d in ((0, 4) if index == reg.double_bar else (0,) if index == reg.single_bar else ())]
    return svg(0, 0, SPACE_W, SPACE_H, said, "sheet-space",
               el("rect", {"x": 1, "y": 1, "width": SPACE_W - 2, "height": SPACE_H - 2, "rx": 4,
                           "fill": "#fff" if index else "#eee", "stroke": EDGE}),
               txt(9, 9, str(index + 1), size=10, anchor="start", fill="#444"),
               reward_icons(space.reward, SPACE_W / 2, 25, SPACE_W - 8, 16, _) if not space.reward.is_nothing else None,
               vp(SPACE_W / 2, SPACE_H - 13, 18, space.vp), bars)


def track_head(track, _: Gettext = english) -> Markup:
    """A scroll track's heading picture: what it counts, as its face draws it."""
    return svg(0, 0, ICON, ICON, _(track.counts.removeprefix("register-")), "sheet-icon",
               _counted(track.counts, ICON / 2, ICON / 2, 20))


def track_level(track, level: int, _: Gettext = english) -> Markup:
    """One level of a scroll track with its printed value (½ for a half, pairs and triples as printed)."""
    value = _level(track.levels[level])
    said = _("level {n}: {value}").format(n=level, value=value)
    return svg(0, 0, SPACE_W, 34, said, "sheet-level",
               el("rect", {"x": 1, "y": 1, "width": SPACE_W - 2, "height": 32, "rx": 3,
                           "fill": "#fff" if level else "#eee", "stroke": EDGE}),
               txt(SPACE_W / 2, 17, value, size=13 if len(value) < 5 else 10, **{"font-weight": "bold"}))


def overseer_step(cls: str, step: int, last: int, _: Gettext = english) -> Markup:
    """A step of an overseer's path: the start space, a plain step, the two hexagonal spaces before the
    centre (R-ADV-6) or the centre itself."""
    if step == 0:
        said, shape = _("start space"), el("rect", {"x": 9, "y": 9, "width": 28, "height": 20, "rx": 4,
                                                     "fill": "#eee", "stroke": EDGE})
    elif step == last:
        said, shape = _("centre"), el("circle", {"cx": 23, "cy": 19, "r": 15, "fill": PAPER, "stroke": EDGE,
                                                  "stroke-width": 2})
    elif step >= last - 2:
        said, shape = _("hexagonal space {n}").format(n=step), hexagon(23, 19, 15, "#fff")
    else:
        said, shape = _("step {n}").format(n=step), el("rect", {"x": 9, "y": 7, "width": 28, "height": 24, "rx": 4,
                                                                 "fill": "#fff", "stroke": EDGE})
    return svg(0, 0, SPACE_W, 40, said, "sheet-step", shape,
               overseer(23, 19, 16, cls, _=_) if step == 0 else
               txt(23, 19, str(step), size=13, **{"font-weight": "bold"}))


def player_chip(colour: str, number: int, _: Gettext = english) -> Markup:
    """A player's repopulation tile: their colour with its letter, and their place on the sheet."""
    return svg(0, 0, 40, 28, _("player {n}").format(n=number), "sheet-chip",
               el("rect", {"x": 1, "y": 1, "width": 38, "height": 26, "rx": 5, "fill": PLAYER_FILL.get(colour, "#888"),
                           "stroke": EDGE}),
               txt(20, 14, f"{letter(colour, _)}{number}", size=14, fill=ink(colour), **{"font-weight": "bold"}))
