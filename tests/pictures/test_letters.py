"""Letters come from the reader's language (issue 25 item 3, TABLE.md 7): a French or German screen shows no
English initial (W for blanc/weiß, Y for jaune/gelb, "Artisan (C)", rat letters L/R/S), and no two colours
share a letter on one screen. docs/GLOSSARY.md "Letters" is the table; the catalogs must say the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.engine import new_game, options_for
from companion.engine.events import who
from companion.pictures.letters import class_letter, colour_letter, hex_letter, rat_letter

from scenario import CATALOG
from tables import page

ROOT = Path(__file__).resolve().parents[2]
KINDS = {"player colour": ("player colour letter", colour_letter), "hex colour": ("hex colour letter", hex_letter),
         "citizen class": ("citizen class letter", class_letter), "rat": ("rat letter", rat_letter)}


def table() -> list[tuple[str, str, dict[str, str]]]:
    """(kind, word, {EN, FR, DE}) of each row of the glossary's Letters table."""
    text = (ROOT / "docs" / "GLOSSARY.md").read_text(encoding="utf-8")
    section = text[text.index("## Letters"):text.index("## Words that are ours")]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] != "For" and not set(cells[0]) <= set("-"):
            kind, word = next((k, cells[0][len(k) + 1:]) for k in KINDS if cells[0].startswith(k + " "))
            out.append((kind, word, dict(zip(("EN", "FR", "DE"), cells[1:]))))
    return out


def catalog(lang: str):
    with (ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_the_glossary_lists_every_letter_and_english_is_what_the_code_writes():
    rows = table()
    assert {(k, w) for k, w, _ in rows} == {
        *(("player colour", c) for c in ("red", "yellow", "blue", "green")),
        *(("hex colour", c) for c in ("orange", "white", "blue", "red")),
        *(("citizen class", c) for c in ("aristocrat", "nun", "craftsman")),
        *(("rat", r) for r in ("left", "right", "standing"))}
    for kind, word, letters in rows:
        assert KINDS[kind][1](word) == letters["EN"], (kind, word)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_catalogs_write_the_glossarys_letters(lang):
    po = catalog(lang)
    for kind, word, letters in table():
        context, draw = KINDS[kind]
        msg = po.get(letters["EN"], context=context)
        assert msg is not None and msg.string == letters[lang.upper()], (kind, word)


@pytest.mark.parametrize("lang", ["EN", "FR", "DE"])
def test_no_two_colours_share_a_letter_on_one_screen(lang):
    """A screen shows player colours and hex colours together (the map): one letter per colour word."""
    colours: dict[str, str] = {}
    for kind, word, letters in table():
        if kind.endswith("colour"):
            assert colours.setdefault(word, letters[lang]) == letters[lang], word  # red hex, red player
    assert len(set(colours.values())) == len(colours), colours
    for kind in ("citizen class", "rat"):
        mine = [letters[lang] for k, _, letters in table() if k == kind]
        assert len(set(mine)) == len(mine), (kind, mine)


@pytest.mark.parametrize("lang", ["FR", "DE"])
def test_no_english_initial_where_the_word_differs(lang):
    letters = {(k, w): x[lang] for k, w, x in table()}
    assert letters[("player colour", "yellow")] != "Y" and letters[("citizen class", "craftsman")] != "C"
    if lang == "FR":
        assert letters[("hex colour", "white")] != "W" and letters[("player colour", "green")] != "G"
        assert {letters[("rat", r)] for r in ("left", "right", "standing")}.isdisjoint({"L", "R", "S"})


def test_the_log_names_a_seat_with_a_letter_each_language_writes():
    state = new_game(options_for(2), 1, CATALOG)
    bruno = who(state, 1)  # yellow
    assert bruno == "Bruno (Y)" and bruno.msg == "{name} (Y)"


def test_french_and_german_screens_show_their_own_letters(french_app):  # noqa: F811
    client = french_app.test_client()
    players = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
               {"name": "Chiara", "colour": "green"}]
    game = client.post("/api/games", json={"players": players, "seed": 7}).get_json()
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
    bruno = game["seats"][1]["token"]
    fr = page(client, f"/seat/{bruno}", "fr")
    assert re.search(r'class="sym">\S+ J</span> Bruno', fr), "jaune is J"
    assert "Artisan (At)" in fr and "Artisan (C)" not in fr
    de = page(client, f"/seat/{bruno}", "de")
    assert re.search(r'class="sym">\S+ Ge</span> Bruno', de), "gelb is Ge"
    assert "Handwerker (H)" in de and "(C)" not in de
    host = page(client, f"/host/{game['id']}?key={game['host_token']}", "fr")
    assert "Bruno (J)" in host and "Chiara (V)" in host and "Bruno (Y)" not in host
    assert re.search(r"<text[^>]*>Bl</text>", host), "a white hex carries Bl in French"
    host = page(client, f"/host/{game['id']}?key={game['host_token']}", "de")
    assert "Bruno (Ge)" in host and "Chiara (Gr)" in host
