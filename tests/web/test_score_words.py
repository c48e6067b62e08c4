"""The score sheet speaks the reader's language (issue 26, issue 15): every count and mode of the empty sheet,
a scored sheet with its breakdown, and a refused one read in French and in German with no English left
(tests/web/test_no_english.py's reader), in the rulebooks' words (docs/GLOSSARY.md)."""

from __future__ import annotations

import copy

import pytest

from companion.catalog import shipped_catalog
from companion.scoresheet import read_position
from companion.web.score.form import sheet_query
from sheets import SHEETS
from tables import translated_app
from test_no_english import english_in

#: a word of each language's rulebook the sheet must use (GLOSSARY: score track, register, scroll board…)
TERMS = {"fr": ("Piste de score", "Registre de la Ville", "Plateau parchemin", "Quartiers repeuplés",
               "Feuille de score"),
         "de": ("Wertungsleiste", "Stadtbuch", "Schriftrollentafel", "Wiederbevölkerte Stadt-Hexfelder",
                "Wertungsbogen")}


@pytest.fixture(scope="module")
def words_app(tmp_path_factory):
    return translated_app(tmp_path_factory.mktemp("words"))


def pages(client) -> dict[str, str]:
    out = {}
    for players in (1, 2, 3, 4):
        for advanced in (0, 1):
            out[f"sheet {players}p adv={advanced}"] = client.get(f"/score?players={players}&advanced={advanced}")
    for name, sheet in SHEETS.items():
        position = read_position(copy.deepcopy(sheet["position"]), shipped_catalog())
        out[f"scored: {name}"] = client.get("/score?" + sheet_query(position))
    out["refused"] = client.get("/score?players=3&score=1&p0.name=Ada&p0.rats=100&p1.city=99")
    out["front page"] = client.get("/")
    return out


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_score_sheet_reads_without_english(words_app, lang):
    client = words_app.test_client()
    client.get(f"/language/{lang}")
    found = {}
    for name, r in pages(client).items():
        assert r.status_code in (200, 400), name
        for line in english_in(r.get_data(as_text=True), lang):
            found.setdefault(line, name)
    assert found == {}, "\n".join(f"{where}: {line}" for line, where in list(found.items())[:30])


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_score_sheet_uses_the_rulebooks_words(words_app, lang):
    client = words_app.test_client()
    client.get(f"/language/{lang}")
    page = client.get("/score?players=3").get_data(as_text=True)
    for term in TERMS[lang]:
        assert term in page, term
