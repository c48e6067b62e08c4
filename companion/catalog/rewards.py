"""The one reward language every component speaks (docs/CATALOG.md, "The reward grammar").

The rulebook draws what a hex, square, register space or tile gives as icons joined by "and" and a
slash for "or" (R-ACT-1…9). Writing them as short phrases lets one parser and one interpreter serve
every component instead of code per tile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..words import Plural, Text, joined

TOKENS = ("coin", "lumber", "fire", "major-fire")
CLASSES = ("aristocrat", "nun", "craftsman")

#: icon -> what it means to a player (the wording shown on screens).
ICONS = {
    "coin": Text("coin"),
    "lumber": Text("lumber"),
    "fire": Text("fire"),
    "major-fire": Text("major fire"),
    "vp": Text("VP"),
    "scroll": Text("scroll advance"),
    "city": Text("free city advance"),
    "church": Text("free church advance"),
    "register": Text("free city or church advance"),
    "upgrade-citizen": Text("upgrade a citizen"),
    "advance-aristocrat": Text("advance the aristocrat overseer"),
    "advance-nun": Text("advance the nun overseer"),
    "advance-craftsman": Text("advance the craftsman overseer"),
    "advance-any": Text("advance any overseer"),
    "advance-skip": Text("advance any overseer, may skip a step"),
    "upgrade-overseer": Text("upgrade an overseer"),
    "upgrade-advance": Text("upgrade and advance an overseer"),
    "lieutenant": Text("take a lieutenant"),
    "any-hex": Text("use any hex's action"),
    "build": Text("build"),
    "activate": Text("activate citizens"),
}


class GrammarError(ValueError):
    """A reward, cost or requirement phrase that does not follow the grammar; the message is a Text, so the
    catalog's problems can say it in the reader's language."""


@dataclass(frozen=True)
class Item:
    icon: str
    count: int = 1

    def text(self) -> Text:
        """In words, translatable (companion/words.py); the English is what the rulebook icons say."""
        return _item_text(self)


@lru_cache(maxsize=4096)
def _item_text(item: Item) -> Text:
    n, icon = item.count, item.icon
    if icon == "coin":
        return Plural("{n} coin", "{n} coins", n=n)
    if icon == "fire":
        return Plural("{n} fire", "{n} fires", n=n)
    if icon == "major-fire":
        return Plural("{n} major fire", "{n} major fires", n=n)
    if icon == "lumber":
        return Plural("{n} lumber", "{n} lumber", n=n)  # one word in English, not in every language
    if icon == "vp":
        return Text("{n} VP", n=n)
    if icon == "activate":
        return Plural("activate up to {n} citizen", "activate up to {n} citizens", n=n)
    return ICONS[icon] if n == 1 else Text("{n}× {what}", n=n, what=ICONS[icon])


@dataclass(frozen=True)
class Bundle:
    """Items received together ("and")."""

    items: tuple[Item, ...]

    def text(self) -> Text:
        return _bundle_text(self)

    def tokens(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in self.items:
            if item.icon in TOKENS:
                out[item.icon] = out.get(item.icon, 0) + item.count
        return out


@dataclass(frozen=True)
class Reward:
    """A choice between bundles ("or", R-ACT-2); a single bundle means no choice."""

    options: tuple[Bundle, ...]
    phrase: str = ""

    @property
    def is_choice(self) -> bool:
        return len(self.options) > 1

    @property
    def is_nothing(self) -> bool:
        return all(not b.items for b in self.options)

    def text(self) -> Text:
        """Kept on the reward once made: a turn menu asks every hex's action for its words, and hashing a
        reward (its bundles and their items) to find them again costs more than making them once."""
        made = self.__dict__.get("_text")
        if made is None:
            made = _reward_text(self)
            object.__setattr__(self, "_text", made)
        return made

    def icons(self) -> set[str]:
        return {i.icon for b in self.options for i in b.items}


@lru_cache(maxsize=4096)
def _bundle_text(bundle: Bundle) -> Text:
    return joined((i.text() for i in bundle.items), " + ") if bundle.items else Text("nothing")


@lru_cache(maxsize=4096)
def _reward_text(reward: Reward) -> Text:
    """Texts are immutable, so one per reward serves every menu that shows it. "or" is a word to translate,
    not a separator: "a or b or c" is "(a or b) or c"."""
    texts = [b.text() for b in reward.options]
    text = texts[0]
    for more in texts[1:]:
        text = Text("{first} or {second}", first=text, second=more)
    return text


NOTHING = Reward((Bundle(()),), "nothing")

_ITEM = re.compile(r"^(?:(\d+)\s+)?([a-z][a-z-]*)$")


def parse_reward(phrase: str) -> Reward:
    """Parse `"build or 1 major-fire"` into a Reward; raise GrammarError naming the bad part."""
    if not isinstance(phrase, str):
        raise GrammarError(Text("expected a phrase, got {phrase}", phrase=repr(phrase)))
    text = " ".join(phrase.split())
    if text == "nothing":
        return NOTHING
    if not text:
        raise GrammarError(Text("empty reward (write {nothing})", nothing="'nothing'"))
    options = []
    for part in text.split(" or "):
        items = []
        for raw in part.split(" and "):
            items.append(_parse_item(raw, phrase))
        options.append(Bundle(tuple(items)))
    return Reward(tuple(options), text)


def _parse_item(raw: str, phrase: str) -> Item:
    m = _ITEM.match(raw.strip())
    if not m:
        raise GrammarError(Text("cannot read {part} in {phrase}", part=repr(raw), phrase=repr(phrase)))
    count = int(m.group(1)) if m.group(1) else 1
    icon = m.group(2)
    if icon not in ICONS:
        raise GrammarError(Text("unknown icon {icon} in {phrase}", icon=repr(icon), phrase=repr(phrase)))
    if count < 1:
        raise GrammarError(Text("count must be at least 1 in {phrase}", phrase=repr(phrase)))
    return Item(icon, count)


def parse_cost(phrase: str) -> Bundle:
    """A cost is one bundle of tokens (R-BUILD-3, R-REPOP-3) or 'nothing'."""
    reward = parse_reward(phrase)
    if reward.is_choice:
        raise GrammarError(Text("a cost cannot offer a choice: {phrase}", phrase=repr(phrase)))
    bundle = reward.options[0]
    for item in bundle.items:
        if item.icon not in TOKENS:
            raise GrammarError(Text("a cost may only use tokens {tokens}, not {icon} in {phrase}", tokens=str(TOKENS),
                                    icon=repr(item.icon), phrase=repr(phrase)))
    return bundle


@dataclass(frozen=True)
class Need:
    """Citizens a repopulation requires (R-REPOP-3 step 3)."""

    cls: str
    count: int
    upgraded: bool

    def text(self) -> Text:
        """One phrase per class, so a language can inflect the class and "upgraded" with the count."""
        n, up = self.count, self.upgraded
        if self.cls == "aristocrat":
            return Plural("{n} upgraded aristocrat", "{n} upgraded aristocrats", n=n) if up else \
                Plural("{n} aristocrat", "{n} aristocrats", n=n)
        if self.cls == "nun":
            return Plural("{n} upgraded nun", "{n} upgraded nuns", n=n) if up else Plural("{n} nun", "{n} nuns", n=n)
        return Plural("{n} upgraded craftsman", "{n} upgraded craftsmen", n=n) if up else \
            Plural("{n} craftsman", "{n} craftsmen", n=n)


_NEED = re.compile(r"^(\d+)\s+(upgraded\s+)?([a-z]+)$")


def parse_citizens(phrase: object) -> tuple[Need, ...]:
    """Parse `"1 nun and 1 upgraded craftsman"` (R-REPOP-5)."""
    if not isinstance(phrase, str) or not phrase.strip():
        raise GrammarError(Text("expected a citizen requirement, got {phrase}", phrase=repr(phrase)))
    needs = []
    for raw in " ".join(phrase.split()).split(" and "):
        m = _NEED.match(raw)
        if not m:
            raise GrammarError(Text("cannot read {part} in {phrase} (write e.g. {example})", part=repr(raw),
                                    phrase=repr(phrase), example="'2 upgraded nun'"))
        cls = m.group(3)
        if cls not in CLASSES:
            raise GrammarError(Text("unknown citizen class {cls} in {phrase}", cls=repr(cls), phrase=repr(phrase)))
        if int(m.group(1)) < 1:
            raise GrammarError(Text("count must be at least 1 in {phrase}", phrase=repr(phrase)))
        needs.append(Need(cls, int(m.group(1)), bool(m.group(2))))
    return tuple(needs)
