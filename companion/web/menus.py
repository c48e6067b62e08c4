"""A long menu made short to read: what you can choose first, by kind, and the rest folded away.

Display only. The engine's menu is the one list of what is legal: each option keeps its `choice` (its
index on that menu, what a tap sends), so showing the options in another order changes nothing a tap
does, and nothing here judges an option: `available` and `group` come from the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from ..engine.records import MenuOption

#: Headings for the kinds of option the engine marks (engine/turns.py), in the order shown.
KINDS = ("hexes", "docks", "recall")

#: Menus longer than this fold their greyed options behind "not possible now (n)": a turn's movement
#: menu lists every hex and boat (17–21 options); a short menu shows its greyed options and their reasons.
LONG = 8

Option = MenuOption  # an option of the engine's menu, as a screen's view gives it


class Arranged(TypedDict):
    groups: list[tuple[str | None, list[Option]]]  # (heading or None, available options)
    folded: list[Option]  # the greyed options
    fold: bool  # hidden behind a fold (a long menu)


def headings(_: Callable[[str], str]) -> dict[str, str]:
    """The words above each kind of option, in the reader's language."""
    return {"hexes": _("Hexes in the city"), "docks": _("Boats at the docks"), "recall": _("Go home")}


def arranged(menu: list[Option], _: Callable[[str], str]) -> Arranged:
    """The menu as a phone shows it: `groups` [(heading or None, available options)] with choosable
    options first, grouped by kind in the engine's order, and `folded`: the greyed options, hidden behind
    a fold when the menu is long (`fold` True), else shown after the rest."""
    open_ = [o for o in menu if o["available"]]
    greyed = [o for o in menu if not o["available"]]
    names = headings(_)
    kinds = [k for k in KINDS if any(o.get("group") == k for o in open_)]
    groups: list[tuple[str | None, list[Option]]] = [(names[k], [o for o in open_ if o.get("group") == k])
                                                     for k in kinds]
    rest = [o for o in open_ if o.get("group") not in kinds]
    if rest:
        groups.insert(0, (None, rest))
    if len(groups) == 1:  # one kind: a heading says nothing the question does not
        groups = [(None, groups[0][1])]
    return {"groups": groups, "folded": greyed, "fold": len(menu) > LONG and bool(greyed)}
