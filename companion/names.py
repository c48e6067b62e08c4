"""Player names as the table reads them: on the TV, on every phone and in the log.

A name is refused when it hides something: control characters, text-direction overrides (they make a
name read backwards and can reorder the text around it on every screen), invisible characters (two
names that look alike but differ), or nothing visible at all. Two seats may not share a name: the
screens and the log tell players apart by it.
"""

from __future__ import annotations

import unicodedata

from .words import Text

LONGEST = 40
# Zero-width (non-)joiners shape some scripts (Persian, Indic) and join emoji (a family): allowed
# between two visible characters, where they do that job, and nowhere else.
JOINERS = {"\u200c", "\u200d"}
# Letters and signs that draw nothing (Hangul fillers, the blank Braille pattern): not enough for a name.
BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
# Control (Cc) and format (Cf: direction marks and overrides, zero-width spaces, BOM, ...) characters,
# surrogates (Cs), and line or paragraph separators (Zl, Zp).
HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}

UNSHOWABLE = Text("A player's name has characters that cannot be shown.")
INVISIBLE = Text("A player's name may not contain control, text-direction or invisible characters.")
NOTHING = Text("A player's name needs at least one visible letter or sign.")


class BadName(ValueError):
    """Why a name was refused, in words for the person typing it."""


def player_name(raw: str) -> str:
    """The name to keep (spaces trimmed and single, at most 40 characters), "" for a row left blank,
    or BadName."""
    name = raw.strip()
    if any(unicodedata.category(c) == "Cs" for c in name):
        raise BadName(UNSHOWABLE)
    name = unicodedata.normalize("NFC", name)
    for i, c in enumerate(name):
        if unicodedata.category(c) in HIDDEN and not (c in JOINERS and _between_visible(name, i)):
            raise BadName(INVISIBLE)
    name = " ".join(name.split())[:LONGEST].rstrip()
    if name and (name[-1] in JOINERS):  # cut in the middle of a joined pair
        name = name[:-1]
    if name and not any(_visible(c) for c in name):
        raise BadName(NOTHING)
    return name


def _visible(c: str) -> bool:
    return not (c.isspace() or c in BLANK or c in JOINERS or unicodedata.category(c) in ("Mn", "Me")
                or unicodedata.category(c) in HIDDEN)


def _between_visible(name: str, i: int) -> bool:
    """A joiner's neighbours: letters, signs or their marks (an emoji's variation selector), not spaces."""
    def shown(c: str) -> bool:
        return not (c.isspace() or c in JOINERS or unicodedata.category(c) in HIDDEN)

    return 0 < i < len(name) - 1 and shown(name[i - 1]) and shown(name[i + 1])


def same_name(a: str, b: str) -> bool:
    """Names the table could not tell apart: case, width and compatibility forms, and joiners aside."""
    return _key(a) == _key(b)


def _key(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(c for c in folded if c not in JOINERS).split())


def same_names(names: list[str]) -> tuple[int, int] | None:
    """The places of the first two players who share a name (rows left blank aside), if any."""
    for j, name in enumerate(names):
        for i in range(j):
            if name and same_name(names[i], name):
                return i, j
    return None
