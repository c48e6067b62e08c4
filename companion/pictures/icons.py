"""The rulebook's icons as small SVG drawings, and a reward drawn from its parsed form with them.

One icon set serves every face (companion/pictures/faces/) so a coin, a fire or a VP looks the same on a
hex, a workshop and a register space. Tokens differ by shape, not only by colour (a ringed disc, a log,
a flame, a flame in a ring); citizens and overseers carry their class letter (glyphs.py).
Each icon is drawn centred on (x, y) in a box about `s` units high.
"""

from __future__ import annotations

from markupsafe import Markup

from ..catalog.rewards import Bundle, Item, Need, Reward
from ..engine.state import Citizen
from ..words import tr
from .elements import Gettext, el, english, fmt, txt
from .glyphs import CLASS_FILL, GOLD, citizen_chip, star
from .letters import class_letter

INK = "#222"


def _pts(x, y, s, points) -> str:
    """Points given on a unit box centred on (0, 0), scaled to `s` and moved to (x, y)."""
    return " ".join(f"{fmt(x + px * s)},{fmt(y + py * s)}" for px, py in points)


def coin(x, y, s=20) -> Markup:
    """A coin: a gold disc with an inner ring."""
    return el("g", {"class": "icon icon-coin"},
              el("circle", {"cx": x, "cy": y, "r": s * 0.45, "fill": "#f2c94c", "stroke": "#7a5c00",
                            "stroke-width": 1.2}),
              el("circle", {"cx": x, "cy": y, "r": s * 0.28, "fill": "none", "stroke": "#7a5c00"}))


def lumber(x, y, s=20) -> Markup:
    """Lumber: a log lying down, its cut end showing rings."""
    return el("g", {"class": "icon icon-lumber"},
              el("rect", {"x": x - s * 0.45, "y": y - s * 0.22, "width": s * 0.8, "height": s * 0.44,
                          "rx": s * 0.08, "fill": "#a0663a", "stroke": "#4e2c12", "stroke-width": 1.2}),
              el("ellipse", {"cx": x + s * 0.35, "cy": y, "rx": s * 0.12, "ry": s * 0.22, "fill": "#e0b98a",
                             "stroke": "#4e2c12"}))


_FLAME = ((0, -0.48), (0.16, -0.2), (0.32, -0.3), (0.34, 0.12), (0.2, 0.42), (-0.2, 0.42), (-0.34, 0.12),
          (-0.26, -0.16), (-0.1, -0.06))


def fire(x, y, s=20) -> Markup:
    """Fire: a single flame."""
    return el("g", {"class": "icon icon-fire"},
              el("polygon", {"points": _pts(x, y, s, _FLAME), "fill": "#ef6c2e", "stroke": "#7f1d00",
                             "stroke-width": 1.2}))


def major_fire(x, y, s=20) -> Markup:
    """A major fire: a flame inside a dark ring, so it never reads as an ordinary fire."""
    return el("g", {"class": "icon icon-major-fire"},
              el("circle", {"cx": x, "cy": y, "r": s * 0.5, "fill": "#5b0f00", "stroke": "#000"}),
              el("polygon", {"points": _pts(x, y, s * 0.8, _FLAME), "fill": "#ffb13b", "stroke": "#fff",
                             "stroke-width": 0.8}))


def vp(x, y, s=20, count: int | str | None = None) -> Markup:
    """Victory points: a shield with the number on it (a star when no number: no word in any language)."""
    shield = ((-0.42, -0.45), (0.42, -0.45), (0.42, 0.1), (0, 0.5), (-0.42, 0.1))
    return el("g", {"class": "icon icon-vp"},
              el("polygon", {"points": _pts(x, y, s, shield), "fill": "#fff3c4", "stroke": "#6b4f00",
                             "stroke-width": 1.4}),
              txt(x, y - s * 0.04, "★" if count is None else str(count), size=s * (0.4 if count is None else 0.5),
                  **{"font-weight": "bold"}) if count != "" else None)  # "": the bare shield, its number beside it


def rat(x, y, s=20) -> Markup:
    """A rat token: a grey rat in profile (body, head, ear and tail), facing right."""
    return el("g", {"class": "icon icon-rat"},
              el("path", {"d": f"M{fmt(x - s * 0.3)},{fmt(y + s * 0.1)} q{fmt(-s * 0.2)},{fmt(s * 0.3)} "
                               f"{fmt(-s * 0.18)},{fmt(-s * 0.2)}", "fill": "none", "stroke": INK,
                          "stroke-width": 1.2}),
              el("ellipse", {"cx": x - s * 0.04, "cy": y + s * 0.08, "rx": s * 0.3, "ry": s * 0.2, "fill": "#757575",
                             "stroke": INK}),
              el("circle", {"cx": x + s * 0.28, "cy": y - s * 0.04, "r": s * 0.14, "fill": "#757575", "stroke": INK}),
              el("circle", {"cx": x + s * 0.24, "cy": y - s * 0.2, "r": s * 0.07, "fill": "#bdbdbd", "stroke": INK}))


def scroll(x, y, s=20) -> Markup:
    """A scroll advance: a rolled parchment with an up arrow."""
    return el("g", {"class": "icon icon-scroll"},
              el("rect", {"x": x - s * 0.38, "y": y - s * 0.3, "width": s * 0.76, "height": s * 0.6,
                          "fill": "#f5e6c4", "stroke": "#7a5c2e", "stroke-width": 1.2}),
              el("circle", {"cx": x - s * 0.38, "cy": y, "r": s * 0.12, "fill": "#e0c99a", "stroke": "#7a5c2e"}),
              el("circle", {"cx": x + s * 0.38, "cy": y, "r": s * 0.12, "fill": "#e0c99a", "stroke": "#7a5c2e"}),
              el("polygon", {"points": _pts(x, y, s, ((0, -0.22), (0.14, 0.02), (-0.14, 0.02))), "fill": INK}),
              el("rect", {"x": x - s * 0.04, "y": y, "width": s * 0.08, "height": s * 0.2, "fill": INK}))


def city(x, y, s=20) -> Markup:
    """The city register: a tower with battlements."""
    tower = ((-0.36, 0.45), (-0.36, -0.3), (-0.36, -0.45), (-0.2, -0.45), (-0.2, -0.3), (-0.06, -0.3),
             (-0.06, -0.45), (0.08, -0.45), (0.08, -0.3), (0.22, -0.3), (0.22, -0.45), (0.36, -0.45), (0.36, 0.45))
    return el("g", {"class": "icon icon-city"},
              el("polygon", {"points": _pts(x, y, s, tower), "fill": "#b0bec5", "stroke": INK, "stroke-width": 1.2}),
              el("rect", {"x": x - s * 0.1, "y": y + s * 0.1, "width": s * 0.2, "height": s * 0.35, "fill": INK}))


def church(x, y, s=20) -> Markup:
    """The church register: a cross."""
    cross = ((-0.08, -0.48), (0.08, -0.48), (0.08, -0.22), (0.3, -0.22), (0.3, -0.06), (0.08, -0.06), (0.08, 0.48),
             (-0.08, 0.48), (-0.08, -0.06), (-0.3, -0.06), (-0.3, -0.22), (-0.08, -0.22))
    return el("g", {"class": "icon icon-church"},
              el("polygon", {"points": _pts(x, y, s, cross), "fill": "#fafafa", "stroke": INK, "stroke-width": 1.4}))


def register(x, y, s=20) -> Markup:
    """A free city or church advance: the tower and the cross side by side."""
    return el("g", {"class": "icon icon-register"}, city(x - s * 0.28, y, s * 0.7), church(x + s * 0.3, y, s * 0.7))


def popularity(x, y, s=20) -> Markup:
    """The popularity register: a crowd of three heads."""
    heads = [(-0.26, 0.08), (0.26, 0.08), (0, -0.12)]
    return el("g", {"class": "icon icon-popularity"},
              [el("g", {}, el("circle", {"cx": x + dx * s, "cy": y + dy * s - s * 0.14, "r": s * 0.14,
                                         "fill": "#ffccbc", "stroke": INK}),
                  el("path", {"d": f"M{fmt(x + dx * s - s * 0.2)},{fmt(y + dy * s + s * 0.3)} "
                                   f"q{fmt(s * 0.2)},{fmt(-s * 0.4)} {fmt(s * 0.4)},0 z",
                              "fill": "#ffccbc", "stroke": INK}))
               for dx, dy in heads])


def lieutenant(x, y, s=20, fill="#607d8b") -> Markup:
    """A lieutenant: a standing wooden figure (head and body)."""
    body = ((-0.3, 0.48), (-0.14, -0.08), (0.14, -0.08), (0.3, 0.48))
    return el("g", {"class": "icon icon-lieutenant"},
              el("polygon", {"points": _pts(x, y, s, body), "fill": fill, "stroke": INK, "stroke-width": 1.2}),
              el("circle", {"cx": x, "cy": y - s * 0.26, "r": s * 0.17, "fill": fill, "stroke": INK,
                            "stroke-width": 1.2}))


def overseer(x, y, s=20, cls: str | None = None, upgraded=False, _: Gettext = english) -> Markup:
    """An overseer disc: a thick ring round its class colour and letter ("?" for any overseer);
    upgraded ones gold with a star, as citizens are."""
    fill = GOLD if upgraded else CLASS_FILL.get(cls, "#9e9e9e") if cls else "#9e9e9e"
    ink = "#000" if upgraded else "#fff"
    return el("g", {"class": "icon icon-overseer" + (f" overseer-{cls}" if cls else "")},
              el("circle", {"cx": x, "cy": y, "r": s * 0.45, "fill": "#fff", "stroke": INK, "stroke-width": 1.2}),
              el("circle", {"cx": x, "cy": y, "r": s * 0.34, "fill": fill, "stroke": INK}),
              txt(x, y, class_letter(cls, _) if cls else "?", size=s * 0.4, fill=ink, **{"font-weight": "bold"}),
              star(x + s * 0.36, y - s * 0.36, s * 0.2) if upgraded else None)


def arrow(x, y, s=20, double=False) -> Markup:
    """An advance: a right-pointing arrow (two heads when a step may be skipped)."""
    heads = [el("polygon", {"points": _pts(x + dx * s, y, s, ((-0.1, -0.2), (0.14, 0), (-0.1, 0.2))),
                            "fill": INK}) for dx in ((-0.1, 0.12) if double else (0.08,))]
    return el("g", {"class": "icon icon-arrow" + (" skip" if double else "")},
              el("rect", {"x": x - s * 0.3, "y": y - s * 0.05, "width": s * 0.4, "height": s * 0.1, "fill": INK}),
              heads)


def hex_any(x, y, s=20) -> Markup:
    """Any hex's action: a dashed hexagon with a star in it."""
    corners = [(0.45 * c, 0.45 * d) for c, d in ((0, -1), (0.87, -0.5), (0.87, 0.5), (0, 1), (-0.87, 0.5),
                                                   (-0.87, -0.5))]
    return el("g", {"class": "icon icon-any-hex"},
              el("polygon", {"points": _pts(x, y, s, corners), "fill": "#fff", "stroke": INK,
                             "stroke-dasharray": "3 2", "stroke-width": 1.2}),
              star(x, y, s * 0.24))


def build(x, y, s=20) -> Markup:
    """Build: a hammer."""
    return el("g", {"class": "icon icon-build"},
              el("rect", {"x": x - s * 0.05, "y": y - s * 0.22, "width": s * 0.12, "height": s * 0.68,
                          "fill": "#8d6e63", "stroke": INK, "transform": f"rotate(35 {fmt(x)} {fmt(y)})"}),
              el("rect", {"x": x - s * 0.3, "y": y - s * 0.42, "width": s * 0.6, "height": s * 0.22, "rx": s * 0.04,
                          "fill": "#78909c", "stroke": INK, "transform": f"rotate(35 {fmt(x)} {fmt(y)})"}))


def activate(x, y, s=20) -> Markup:
    """Activate citizens: a lightning spark."""
    bolt = ((0.08, -0.48), (-0.28, 0.06), (-0.02, 0.06), (-0.12, 0.48), (0.28, -0.1), (0.02, -0.1), (0.14, -0.48))
    return el("g", {"class": "icon icon-activate"},
              el("polygon", {"points": _pts(x, y, s, bolt), "fill": "#ffeb3b", "stroke": INK, "stroke-width": 1.2}))


def citizen(x, y, s=20, cls: str | None = None, upgraded=False, _: Gettext = english) -> Markup:
    """A citizen token of a class (its colour and letter; gold with a star when upgraded); "?" for any."""
    return citizen_chip(Citizen(0, cls or "any", upgraded), x, y, _, r=s * 0.4, kind="icon-citizen")


def _upgrade_citizen(x, y, s):
    return el("g", {"class": "icon icon-upgrade-citizen"}, citizen(x - s * 0.1, y + s * 0.05, s, None, True),
              arrow(x + s * 0.4, y - s * 0.3, s * 0.5))


def _advance(cls, upgraded=False, skip=False):
    """An overseer with the arrow of its advance (its class letter in the reader's language)."""
    def draw(x, y, s, _: Gettext = english):
        return el("g", {"class": "icon icon-advance"}, overseer(x - s * 0.15, y, s, cls, upgraded, _),
                  arrow(x + s * 0.42, y, s * 0.6, skip))
    return draw


#: a reward icon (companion/catalog/rewards.py) -> how to draw it, and how wide it is in units of `s`
ICON = {
    "coin": (coin, 1), "lumber": (lumber, 1), "fire": (fire, 1), "major-fire": (major_fire, 1),
    "scroll": (scroll, 1), "city": (city, 1), "church": (church, 1), "register": (register, 1.2),
    "upgrade-citizen": (_upgrade_citizen, 1.2), "advance-aristocrat": (_advance("aristocrat"), 1.4),
    "advance-nun": (_advance("nun"), 1.4), "advance-craftsman": (_advance("craftsman"), 1.4),
    "advance-any": (_advance(None), 1.4), "advance-skip": (_advance(None, skip=True), 1.5),
    "upgrade-overseer": (lambda x, y, s: overseer(x, y, s, None, True), 1),
    "upgrade-advance": (_advance(None, upgraded=True), 1.4), "lieutenant": (lieutenant, 1),
    "any-hex": (hex_any, 1), "build": (build, 1), "activate": (activate, 1),
}
GAP = 0.15  # between items of a bundle, in units of s
COUNT_W = 0.55  # one digit of a count, in units of s


def item_width(item: Item) -> float:
    """How wide one item is drawn, in units of s: its icon, plus its count unless the icon shows it."""
    if item.icon == "vp":
        return 1
    width = ICON[item.icon][1]
    return width + (COUNT_W * len(str(item.count)) if item.count > 1 else 0)


#: the icons that carry a letter, drawn in the reader's language
LETTERED = frozenset(("advance-aristocrat", "advance-nun", "advance-craftsman"))


def draw_item(item: Item, x0, y, s, _: Gettext = english) -> Markup:
    """One item from its left edge: "2" then the coin; VP carry their number on the shield."""
    attrs = {"class": "item", "data-icon": item.icon, "data-count": item.count}
    if item.icon == "vp":
        return el("g", attrs, vp(x0 + s / 2, y, s, item.count))
    draw, width = ICON[item.icon]
    parts = []
    if item.count > 1:
        digits = len(str(item.count))
        parts.append(txt(x0 + COUNT_W * s * digits / 2, y, str(item.count), size=s * 0.75, **{"font-weight": "bold"}))
        x0 += COUNT_W * s * digits
    parts.append(draw(x0 + width * s / 2, y, s, _) if item.icon in LETTERED else draw(x0 + width * s / 2, y, s))
    return el("g", attrs, parts)


def _bundle(bundle: Bundle, x0, y, s, _: Gettext = english) -> tuple[list[Markup], float]:
    """Items side by side ("and"), from x0; returns them and the x after the last."""
    out = []
    for i, item in enumerate(bundle.items):
        if i:
            x0 += GAP * s
        out.append(draw_item(item, x0, y, s, _))
        x0 += item_width(item) * s
    return out, x0


def _slash(x, y, s) -> Markup:
    """The printed slash between options (R-ACT-2: choose one)."""
    return el("line", {"class": "or", "x1": x + s * 0.15, "y1": y + s * 0.45, "x2": x + s * 0.45, "y2": y - s * 0.45,
                       "stroke": INK, "stroke-width": 2})


def row_of(bundles, y, s, x0=0.0, _: Gettext = english) -> tuple[list[Markup], float]:
    """Bundles from x0 with a slash between them; returns the drawing and the x after it."""
    out, x = [], x0
    for i, bundle in enumerate(bundles):
        if i:
            out.append(_slash(x, y, s))
            x += 0.6 * s
        if not bundle.items:
            out.append(txt(x + s * 0.4, y, "—", size=s * 0.8))
            x += 0.8 * s
            continue
        drawn, x = _bundle(bundle, x, y, s, _)
        out += drawn
    return out, x


def fitted(parts, width: float, cx, cy, max_w: float, cls: str, title: str | None = None) -> Markup:
    """A row drawn from x = 0 (centred on y = 0), moved to centre on (cx, cy) and shrunk to max_w if wider."""
    k = min(1.0, max_w / width) if width else 1.0
    move = f"translate({fmt(cx - width * k / 2)} {fmt(cy)})" + (f" scale({fmt(round(k, 3))})" if k < 1 else "")
    return el("g", {"class": cls, "transform": move}, el("title", {}, title) if title else None, parts)


def words(text, _: Gettext = english) -> str:
    """Catalog words (a reward's Text, companion/words.py) in the reader's language: an icon row's tooltip."""
    return tr({"text": str(text), "msg": getattr(text, "msg", None), "args": getattr(text, "args", None)}, "text", _)


def reward_icons(reward: Reward, cx, cy, max_w: float, s=20, _: Gettext = english) -> Markup:
    """A reward as the rulebook prints it: icons with numbers, side by side for "and", a slash for "or";
    centred on (cx, cy) and never wider than max_w; its words (translated) are the tooltip."""
    parts, width = row_of(reward.options, 0, s, _=_)
    return fitted(parts, width, cx, cy, max_w, "reward", words(reward.text(), _))


def cost_icons(cost: Bundle, cx, cy, max_w: float, s=20, _: Gettext = english) -> Markup:
    """A cost (one bundle of tokens) drawn as a reward is: the same tokens, the same numbers."""
    parts, width = row_of((cost,), 0, s, _=_)
    return fitted(parts, width, cx, cy, max_w, "cost", words(cost.text(), _))


def needs_icons(needs: tuple[Need, ...], lieutenant_too: bool, x0, y, s=20, _: Gettext = english
                ) -> tuple[list[Markup], float]:
    """Citizens a repopulation needs (count, class letter, gold when upgraded), then a lieutenant;
    from x0, returns the drawing and the x after it."""
    out = []
    for need in needs:
        if need.count > 1:
            out.append(txt(x0 + COUNT_W * s / 2, y, str(need.count), size=s * 0.75, **{"font-weight": "bold"}))
            x0 += COUNT_W * s
        out.append(citizen(x0 + s / 2, y, s, need.cls, need.upgraded, _))
        x0 += s + GAP * s
    if lieutenant_too:
        out.append(lieutenant(x0 + s / 2, y, s))
        x0 += s + GAP * s
    return out, x0 - GAP * s
