"""The French catalog is complete (issue 15): every msgid of messages.pot has a French translation, every
plural form is filled, and each translation keeps the msgid's placeholders ({name} and %(name)s), no
more and no fewer."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
POT = ROOT / "companion" / "translations" / "messages.pot"
PO = ROOT / "companion" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sd]")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def problems(pot, po) -> list[str]:
    out = []
    for m in pot:
        if not m.id:
            continue
        t = po.get(m.id)
        ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        if t is None:
            out.append(f"missing: {m.id!r}")
            continue
        strings = t.string if isinstance(t.string, (tuple, list)) else (t.string,)
        if len(strings) != (po.num_plurals if len(ids) > 1 else 1) or not all(s and s.strip() for s in strings):
            out.append(f"untranslated: {m.id!r}")
            continue
        if t.fuzzy:
            out.append(f"fuzzy: {m.id!r}")
        want = set(placeholders(ids[-1])) | set(placeholders(ids[0]))
        for s in strings:
            got = set(placeholders(s))
            if got != want:
                out.append(f"placeholders differ: {m.id!r} -> {s!r}")
    return out


def test_every_msgid_has_a_french_translation_with_the_same_placeholders():
    with POT.open("rb") as f:
        pot = read_po(f)
    with PO.open("rb") as f:
        po = read_po(f, locale="fr")
    assert po.num_plurals == 2
    found = problems(pot, po)
    assert not found, "\n".join(found[:40])


def test_the_check_fails_on_a_missing_or_broken_translation():
    with POT.open("rb") as f:
        pot = read_po(f)
    with PO.open("rb") as f:
        po = read_po(f, locale="fr")
    first = next(m for m in pot if m.id and "{" in str(m.id))
    po[first.id].string = ("",) * 2 if isinstance(first.id, tuple) else ""
    assert problems(pot, po)
    po[first.id].string = ("x {oops}",) * 2 if isinstance(first.id, tuple) else "x {oops}"
    assert problems(pot, po)
