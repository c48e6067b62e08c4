"""The German catalog is complete: every msgid of messages.pot has a German translation (every plural
form), not fuzzy, naming the same values as its English template (issue 15). A German seat and host
page then read in German."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.web import TRANSLATIONS, create_app

ROOT = Path(__file__).resolve().parents[1]
POT = ROOT / "companion" / "translations" / "messages.pot"
DE_PO = ROOT / "companion" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)[sd]")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def german_problems(pot, po) -> list[str]:
    """What is missing or wrong in `po` against the template `pot` (both babel catalogs)."""
    problems = []
    for m in pot:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        t = po.get(key)
        if t is None or t.id != m.id:
            problems.append(f"missing: {m.id!r}")
            continue
        if t.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = t.string if isinstance(t.string, tuple) else (t.string,)
        if len(forms) != (2 if isinstance(m.id, tuple) else 1) or not all(f and f.strip() for f in forms):
            problems.append(f"untranslated: {m.id!r}")
            continue
        for i, form in enumerate(forms):
            english = ids[min(i, len(ids) - 1)]
            if placeholders(form) != placeholders(english):
                problems.append(f"placeholders differ: {english!r} -> {form!r}")
    return problems


def test_every_msgid_has_a_german_translation_with_the_same_placeholders():
    with POT.open("rb") as f:
        pot = read_po(f)
    with DE_PO.open("rb") as f:
        po = read_po(f, locale="de")
    assert po.plural_forms == "nplurals=2; plural=(n != 1);"
    assert german_problems(pot, po) == []


def test_the_check_fails_when_a_translation_is_missing_or_drops_a_value():
    with POT.open("rb") as f:
        pot = read_po(f)
    with DE_PO.open("rb") as f:
        po = read_po(f, locale="de")
    po["End your turn"].string = ""
    po["{who} takes {what} ({why})."].string = "{who} nimmt: {what}."
    del po["Undo"]
    problems = german_problems(pot, po)
    assert "untranslated: 'End your turn'" in problems
    assert "missing: 'Undo'" in problems
    assert any(p.startswith("placeholders differ: '{who} takes {what} ({why}).'") for p in problems)


@pytest.fixture
def app(tmp_path):
    translations = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, translations, ignore=shutil.ignore_patterns("*.mo"))
    app = create_app({"INSTANCE": str(tmp_path / "instance"), "TESTING": True,
                      "BABEL_TRANSLATION_DIRECTORIES": str(translations)})
    assert (translations / "de" / "LC_MESSAGES" / "messages.mo").exists()
    return app


def page(client, url):
    r = client.get(url, headers={"Accept-Language": "de"}, follow_redirects=True)
    assert r.status_code == 200
    return html.unescape(r.get_data(as_text=True))


def test_a_german_seat_and_host_page(app):
    client = app.test_client()
    players = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
    game = client.post("/api/games", json={"players": players, "seed": 7}).get_json()
    host = {"X-Host-Token": game["host_token"]}
    first = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()["pending"][0]["who"]
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
    de = page(client, f"/seat/{game['seats'][first]['token']}")
    assert f"{players[first]['name']}, dein Zug: wohin geht ein Leutnant?" in de
    assert "Einen Leutnant auf dein Anwesen zurückrufen und 1 Münze nehmen" in de
    assert "your turn" not in de
    host_page = page(client, f"/host/{game['id']}?key={game['host_token']}")
    assert "Stellt das Bevölkerungsrad auf Fenster" in host_page
    assert re.search(r"Setzt 1 Bürger \((Nonne|Aristokrat|Handwerker)\) auf jedes Hexfeld", host_page)
    assert "Runde I beginnt. Zugfolge:" in host_page
    assert "Spielprotokoll" in host_page
