"""The French and German catalogs are complete (issue 15): every msgid of messages.pot has a translation in
each language, every plural form filled, not fuzzy, naming exactly the values of its English template
({name}, %(name)s), no more and no fewer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "companion" / "translations"
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)[sd]")
PLURALS = {"fr": "nplurals=2; plural=(n > 1);", "de": "nplurals=2; plural=(n != 1);"}


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def read(lang: str | None):
    path = TRANSLATIONS / "messages.pot" if lang is None else TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def problems(pot, po) -> list[str]:
    """What is missing or wrong in `po` against the template `pot` (both babel catalogs)."""
    out = []
    for m in pot:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        t = po.get(key, context=m.context)  # a letter has its context ("rat letter", web/draw/letters.py)
        if t is None or t.id != m.id:
            out.append(f"missing: {m.id!r}")
            continue
        if t.fuzzy:
            out.append(f"fuzzy: {m.id!r}")
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = t.string if isinstance(t.string, tuple) else (t.string,)
        if len(forms) != (po.num_plurals if len(ids) > 1 else 1) or not all(f and f.strip() for f in forms):
            out.append(f"untranslated: {m.id!r}")
            continue
        for i, form in enumerate(forms):
            english = ids[min(i, len(ids) - 1)]
            if placeholders(form) != placeholders(english):
                out.append(f"placeholders differ: {english!r} -> {form!r}")
    return out


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_every_msgid_is_translated_with_the_same_values(lang):
    po = read(lang)
    assert po.plural_forms == PLURALS[lang]
    found = problems(read(None), po)
    assert not found, "\n".join(found[:40])


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_the_check_fails_when_a_translation_is_missing_empty_or_drops_a_value(lang):
    pot, po = read(None), read(lang)
    po["End your turn"].string = ""
    po["{who} takes {what} ({why})."].string = "{who}: {what}."
    del po["Undo"]
    found = problems(pot, po)
    assert "untranslated: 'End your turn'" in found
    assert "missing: 'Undo'" in found
    assert any(p.startswith("placeholders differ: '{who} takes {what} ({why}).'") for p in found)
