"""A reward, cost or citizen requirement typed the way the catalog pages write it, read back into the grammar.

The correction form takes the reward grammar ("3 coin", "build or 1 major-fire"), but the card above it
shows the same value in words ("3 coins", "build or 1 major fire", "3 pièces" for a French reader), and a
person copies what they see. So a box also takes those words, in English and in the reader's language:
each phrase the pages can print (every icon with every count up to MAX_COUNT, "nothing", each citizen
need), joined by " + " or "and" and, for a choice, by "or" or the reader's word for it. What cannot be
read this way is left as typed, for the grammar to refuse with its own words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from ...catalog.rewards import CLASSES, ICONS, GrammarError, Item, Need, parse_citizens, parse_cost, parse_reward
from ...pictures.icons import words
from ...words import Text

REWARDS = ("action", "reward", "output", "upgraded_output")
COSTS = ("cost", "repop_cost")
CITIZENS = ("repop_citizens",)
MAX_COUNT = 30  # no component gives or costs more of one thing
NOTHING = Text("nothing")
EITHER = Text("{first} or {second}")
PLUS = re.compile(r"\s*\+\s*|\s+and\s+")


def to_grammar(typed: str, leaf: str, language: str, gettext: Callable[[str], str]) -> str:
    """`typed` in the grammar for a field named `leaf`; unchanged when it already is, or cannot be read."""
    text = " ".join(typed.split())
    if leaf not in REWARDS + COSTS + CITIZENS or not text or _follows_grammar(text, leaf):
        return text
    phrases = _phrases(language, gettext)
    options = []
    for option in re.split(_either(language, gettext), text.casefold()):
        found = [phrases.get(" ".join(part.split())) for part in PLUS.split(option)]
        items = [item for item in found if item]
        if len(items) < len(found):
            return text
        options.append(" and ".join(items))
    said = " or ".join(options)
    return said if _follows_grammar(said, leaf) else text


def check(text: str, leaf: str) -> None:
    """GrammarError (with the grammar's own words) unless `text` is a value the field `leaf` can hold."""
    if leaf in REWARDS:
        parse_reward(text)
    elif leaf in COSTS:
        parse_cost(text)
    elif leaf in CITIZENS:
        parse_citizens(text)


def _follows_grammar(text: str, leaf: str) -> bool:
    try:
        check(text, leaf)
    except GrammarError:
        return False
    return True


@lru_cache(maxsize=8)
def _either(language: str, gettext: Callable[[str], str]) -> re.Pattern:
    """What separates a choice: "or", and the reader's word for it ("ou", "oder")."""
    template = gettext(EITHER.msg)
    said = template.split("{first}", 1)[-1].split("{second}", 1)[0].strip().casefold() if "{first}" in template \
        else "or"
    return re.compile(r"\s+(?:or|" + re.escape(said) + r")\s+" if said else r"\s+or\s+")


@lru_cache(maxsize=8)
def _phrases(language: str, gettext: Callable[[str], str]) -> dict[str, str]:
    """Every phrase the pages print for one item, in English and in `language`, to its grammar."""
    found: dict[str, str] = {}
    many = getattr(gettext, "ngettext", None)

    def add(text, grammar: str) -> None:
        said = [str(text), words(text, gettext)]
        if getattr(text, "plural", None):  # a count: either form, whatever the count ("1 coins" is meant too)
            forms = {text.msg, text.plural} | ({many(text.msg, text.plural, k) for k in (1, 2, 5)} if many else set())
            said += [form.format(**text.args) for form in forms]
        for one in said:
            found.setdefault(" ".join(one.split()).casefold(), grammar)

    add(NOTHING, "nothing")
    for icon in ICONS:
        add(ICONS[icon], icon)
        named = {str(ICONS[icon]), words(ICONS[icon], gettext)}  # the icon's name in the grammar's key
        for n in range(1, MAX_COUNT + 1):
            add(Item(icon, n).text(), f"{n} {icon}")
            for name in named | {icon}:  # a count before the icon's name: "1 incendie majeur", "2 major-fire"
                found.setdefault(f"{n} {' '.join(name.split()).casefold()}", f"{n} {icon}")
    for cls in CLASSES:
        for n in range(1, MAX_COUNT + 1):
            add(Need(cls, n, False).text(), f"{n} {cls}")
            add(Need(cls, n, True).text(), f"{n} upgraded {cls}")
    return found
