"""Rules at a tap (issue 35): every rule a screen cites is a link to that rule told in the reader's language.

- `rule_links` (the template filter every screen draws a rule reference through): the rule IDs in a text
  (a greyed option's rule, a step's, a scoring line's, a hint that names one) become links to `/rules#ID`.
  Without JavaScript that is the rules page at the rule's anchor; with it (static/rules.js) the same tap
  opens the rule in a dialog over the screen, from `/rules/<ID>`, and the screen behind keeps its place.
- `/rules`: every rule by topic in the rulebook's order, each at its ID as an anchor, with a search box.
- `/rules/<ID>`: one rule, alone; asked by the page's script (HX-Request), the dialog's content only.

The words are data (companion/rules_text/), read and checked once when the app is made (`check`).
Both pages depend only on the language, so each is drawn once per language (web/page_cache.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from flask import Blueprint, abort, render_template, request, url_for
from markupsafe import Markup, escape

from ...faults import StartupError
from ...rules_text import RulesTextError, shipped
from ...words import Text
from ..language import reader_language
from ..page_cache import drawn_once

bp = Blueprint("rules", __name__, url_prefix="/rules")

#: a rule ID as the documents write it: R-TURN-MOVE-3, Q-4, C-18 (whole: not inside XR-ACT-1 or R-ACT-10)
RULE_ID = re.compile(r"(?<![\w-])(R-[A-Z0-9]+(?:-[A-Z0-9]+)*|[QC]-\d+)(?!\w)")


#: the rules that read each catalog family's values, shown on its page of the catalog (catalog/family.html)
FAMILY_RULES = {
    "hex": ("R-SETUP-1", "R-SETUP-2", "R-SETUP-3", "R-R1-2", "R-TURN-ACT-1", "R-REPOP-2", "R-REPOP-5", "R-SCORE-3"),
    "harbor": ("R-SETUP-2", "R-TURN-ACT-1", "R-ACT-7", "C-3"),
    "dock": ("R-TURN-DOCK-1", "R-TURN-DOCK-2", "R-NEXT-5"),
    "docking_tile": ("R-SETUP-7", "R-R1-1", "R-NEXT-5", "Q-22"),
    "boat": ("R-COMP-4", "R-SETUP-8", "R-TURN-DOCK-5", "R-SCORE-4"),
    "workshop": ("R-SETUP-11", "R-BUILD-4", "R-BUILD-5", "R-BUILD-6", "R-EOR-3", "R-NEXT-8"),
    "improvement": ("R-SETUP-9", "R-BUILD-3", "R-EOR-2", "C-2"),
    "wagon": ("R-SETUP-10", "R-BUILD-7", "R-REPOP-3"),
    "solo_tile": ("R-SOLO-2", "R-SOLO-5", "R-SOLO-7"),
    "board": ("R-TURN-RESCUE-2", "R-OVS-3", "R-OVS-7", "R-OVS-8", "R-ADV-2"),
    "scroll_board": ("R-SCORE-4", "R-ADV-4", "R-ADV-5", "R-ADV-6", "Q-14"),
    "round_info": ("R-TURN-FIRE-1", "R-NEXT-4", "R-NEXT-5", "R-NEXT-9"),
    "priority_tile": ("R-SETUP-13", "R-PRIO-1"),
    "register": ("R-REG-1", "R-REG-6", "R-SCORE-1", "R-ADV-5"),
    "rat_table": ("R-END-2", "Q-2"),
    "layout": ("R-SETUP-2", "R-NEXT-6", "Q-11"),
    "wheel": ("R-SETUP-6", "R-R1-2", "R-NEXT-9"),
}


def check() -> None:
    """At start, as the catalog is: the rules' texts load whole in every language, or the companion says
    which rule lacks what in which language and does not start."""
    try:
        shipped()
    except RulesTextError as exc:
        shown = "; ".join(exc.problems[:10]) + (f" (and {len(exc.problems) - 10} more)" if len(exc.problems) > 10
                                                 else "")
        raise StartupError(f"The rules' texts in companion/rules_text/ are incomplete: {shown}.") from None


def rule_links(text) -> Markup:
    """`text` (a rule field, or a sentence that cites rules) escaped, each known rule ID in it a link to its
    explanation; an ID we hold no text for (a test's "R-TEST-9") stays as written."""
    if text is None or text == "":
        return Markup("")
    return Markup(_linked(str(escape(text)), url_for("rules.page")))


@lru_cache(maxsize=8192)
def _linked(escaped: str, page: str) -> str:
    known = shipped().told["en"]
    return RULE_ID.sub(lambda m: (f'<a class="rule" href="{page}#{m.group(1)}">{m.group(1)}</a>'
                                  if m.group(1) in known else m.group(1)), escaped)


def _page_key() -> tuple | None:
    """Both pages depend on the address, the reader's language and whether the script asked (a dialog's
    content or a whole page)."""
    if request.method not in ("GET", "HEAD"):
        return None
    return ("rules", request.script_root, request.path, reader_language(), bool(request.headers.get("HX-Request")))


drawn_once(bp, _page_key)


@bp.get("")
def page():
    told = shipped()
    lang = reader_language()
    topics = [(t, [told.explain(i, lang) for i in t.ids]) for t in told.topics]
    return render_template("rules/page.html", topics=topics, lang=lang)


@bp.get("/<rule_id>")
def one(rule_id: str):
    lang = reader_language()
    rule = shipped().explain(rule_id, lang)
    if rule is None:
        abort(404, Text("There is no rule {rule} here: the rules page lists them all.", rule=rule_id[:40]))
    if request.headers.get("HX-Request"):
        return render_template("rules/_dialog.html", rule=rule, lang=lang)
    return render_template("rules/one.html", rule=rule, lang=lang)


__all__ = ["FAMILY_RULES", "RULE_ID", "bp", "check", "rule_links"]
