"""The faces of the components a menu or a line of text names, and the filter of a table draw.

The engine marks what it names (an option's `face`, a text's hidden `face` values, words.faces_in); this
draws those faces, so a player matches a picture to the tile in front of them instead of reading a
description. A table draw with many candidates (20 hexes) gets a filter by what is visible on a tile:
its colour, its rat and the icons of its action (static/app.js hides the faces that do not match).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from markupsafe import Markup

from ..catalog.rewards import ICONS
from ..engine.records import MenuOption, Option
from ..words import faces_in
from .elements import Attrs, Gettext, el, english, svg, txt
from .faces import face
from .faces.frame import colour_mark
from .glyphs import RAT_LETTER, rat_glyph
from .icons import ICON, LETTERED, vp, words

FILTER_FROM = 8  # fewer candidates than this fit on a screen at a glance: no filter
Picture = Callable[..., Markup]  # (catalog, family, id, _) -> a face, drawn or referenced


def option_face(state, opt: Option, _: Gettext = english, picture: Picture = face) -> Markup:
    """The picture on an option's button: the face of the component it stands for, or nothing.
    `picture(catalog, family, id, _)` draws it (a page shows a reference to its library's copy)."""
    named = opt.get("face")
    if not named:
        return Markup("")
    return picture(state.catalog, named["family"], named["id"], _)


def line_faces(state, entry: Mapping[str, Any], _: Gettext = english, picture: Picture = face) -> Markup:
    """Small faces of the components a log line, a setup or upkeep step names, to sit beside its words:
    every one it names (a setup step may name eleven hexes: the table looks for each)."""
    found = faces_in(entry.get("args"))
    if not found:
        return Markup("")
    pictures = [picture(state.catalog, *ref.split(":", 1), _) for ref in found]
    return el("span", {"class": "line-faces"}, pictures)


def pick_marks(state, opt: MenuOption) -> Attrs:
    """What the filter can see on an option's hex, as data attributes of its form (none for other faces)."""
    named = opt.get("face")
    if named is None or named["family"] != "hex":
        return {}
    h = state.catalog.hexes[named["id"]]
    return {"data-colour": h.colour, "data-rat": h.rat, "data-action": " ".join(_action_icons(h))}


class FilterGroup(TypedDict):
    """One group of a table draw's filter (`pick_filter`): its name, its heading and its choices, each a value
    and a small picture."""

    name: str
    heading: str
    choices: list[tuple[str, Markup]]


def pick_filter(state, menu: list[MenuOption], _: Gettext = english) -> list[FilterGroup]:
    """The filter's groups for a menu of many hexes: each a name, a heading and its choices (value and a
    small picture); a group shows only when the candidates differ in it. Empty for a short menu."""
    named = [o["face"] for o in menu if o.get("face")]
    hexes = [state.catalog.hexes[f["id"]] for f in named if f["family"] == "hex"]
    if len(hexes) < FILTER_FROM:
        return []
    colours = sorted({h.colour for h in hexes})
    rats = [r for r in (*RAT_LETTER, "none") if any(h.rat == r for h in hexes)]
    icons = sorted({i for h in hexes for i in _action_icons(h)})
    groups: list[FilterGroup] = [
        {"name": "colour", "heading": _("Colour"), "choices": [(c, _colour_chip(c, _)) for c in colours]},
        {"name": "rat", "heading": _("Rat"), "choices": [(r, _rat_chip(r, _)) for r in rats]},
        {"name": "action", "heading": _("Action"), "choices": [(i, _icon_chip(i, _)) for i in icons]}]
    return [g for g in groups if len(g["choices"]) > 1]


def _action_icons(h) -> list[str]:
    """The kinds of icon printed in a hex's action, in reading order, each once."""
    seen: list[str] = []
    for bundle in h.action.options:
        seen.extend(i.icon for i in bundle.items if i.icon not in seen)
    return seen


def _chip(label: str, *body) -> Markup:
    return svg(-14, -14, 28, 28, label, "chip", *body)


def _colour_chip(colour: str, _: Gettext) -> Markup:
    return _chip(_(colour), colour_mark(colour, 0, 0, 12, _))


def _rat_chip(rat: str, _: Gettext) -> Markup:
    if rat == "none":
        return _chip(_("no rat"), txt(0, 0, "–", size=18, **{"font-weight": "bold"}))
    return _chip(_("rat: {rat}").format(rat=_(rat)), rat_glyph(rat, -4, 0, _, 1.2))


def _icon_chip(icon: str, _: Gettext) -> Markup:
    draw: Callable[..., Markup] = vp if icon == "vp" else ICON[icon][0]
    return _chip(words(ICONS[icon], _), draw(0, 0, 22, _) if icon in LETTERED else draw(0, 0, 22))


__all__ = ["line_faces", "option_face", "pick_filter", "pick_marks"]
