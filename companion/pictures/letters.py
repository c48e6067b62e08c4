"""The letters that go with a colour, a citizen class or a rat, so colour is never the only cue, in the
reader's language (docs/GLOSSARY.md, "Letters"): W for white is B… in French, Y for yellow is J in French and
Ge in German. Each letter is a gettext message with its own context (one English letter may stand for two
words: R is red and a rat facing right), and each language picks letters no two colours share on a screen.
"""

from __future__ import annotations

from .elements import Gettext, english, pgettext

PLAYER = "player colour letter"
HEX = "hex colour letter"
CLASS = "citizen class letter"
RAT = "rat letter"

#: the English letters, each written out once as a call, so extraction puts every one in the catalog
_WRITTEN = {
    (PLAYER, "red"): lambda _: pgettext("player colour letter", "R", _),
    (PLAYER, "yellow"): lambda _: pgettext("player colour letter", "Y", _),
    (PLAYER, "blue"): lambda _: pgettext("player colour letter", "B", _),
    (PLAYER, "green"): lambda _: pgettext("player colour letter", "G", _),
    (HEX, "orange"): lambda _: pgettext("hex colour letter", "O", _),
    (HEX, "white"): lambda _: pgettext("hex colour letter", "W", _),
    (HEX, "blue"): lambda _: pgettext("hex colour letter", "B", _),
    (HEX, "red"): lambda _: pgettext("hex colour letter", "R", _),
    (CLASS, "aristocrat"): lambda _: pgettext("citizen class letter", "A", _),
    (CLASS, "nun"): lambda _: pgettext("citizen class letter", "N", _),
    (CLASS, "craftsman"): lambda _: pgettext("citizen class letter", "C", _),
    (RAT, "left"): lambda _: pgettext("rat letter", "L", _),
    (RAT, "right"): lambda _: pgettext("rat letter", "R", _),
    (RAT, "standing"): lambda _: pgettext("rat letter", "S", _),
}


def _letter(kind: str, word: str, _: Gettext) -> str:
    said = _WRITTEN.get((kind, word))
    return said(_) if said else "?"


def colour_letter(colour: str, _: Gettext = english) -> str:
    """A player colour's letter ("R", "J" for jaune, "Ge" for gelb)."""
    return _letter(PLAYER, colour, _)


def hex_letter(colour: str, _: Gettext = english) -> str:
    """A hex colour's letter (white: "W", "Bl" for blanc, "W" for weiß)."""
    return _letter(HEX, colour, _)


def class_letter(cls: str, _: Gettext = english) -> str:
    """A citizen class's letter (craftsman: "C", "At" for artisan, "H" for Handwerker)."""
    return _letter(CLASS, cls, _)


def rat_letter(rat: str, _: Gettext = english) -> str:
    """The letter beside a rat icon (right: "R", "D" for droite)."""
    return _letter(RAT, rat, _)


RATS = ("left", "right", "standing")
