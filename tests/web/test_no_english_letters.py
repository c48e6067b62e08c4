"""No English letters in a French or German line (issue 33 item 8, docs/GLOSSARY.md "Letters" and "play order"):
a seat is named with its colour's letter in the reader's language ("Bruno (J)", "Bruno (Ge)", never "Bruno (Y)"),
and a play position with the reader's initial (J1 / S1, never P1), in every setup step, upkeep line and log
entry, the play order after an upkeep (R-NEXT-4) and the wagons turned face up (R-NEXT-13) included. The lines
are the engine's, read through the committed catalogs as the web shows them (words.tr)."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.words import tr
from scenario import CATALOG, add_wagon, report_with, scenario, upkeep

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"

NAMES = ("Ada", "Bruno", "Chiara", "Dario")  # red, yellow, blue, green (options_for)
#: the reader's letter for yellow and green (red and blue are R and B in all three languages)
LETTERS = {"fr": {"Bruno": "J", "Dario": "V"}, "de": {"Bruno": "Ge", "Dario": "Gr"}}
ENGLISH_SEAT = re.compile(r"\b(?:Bruno \(Y\)|Dario \(G\))")
#: a play position: J1…J4 in French, S1…S4 in German
POSITION = re.compile(r"\b([A-Z])([1-4])\b")


def reader(lang: str):
    """gettext for `lang` from the committed catalog, with its plural and context lookups (as words.tr takes them)."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        po = read_po(f, locale=lang)
    mo = io.BytesIO()
    write_mo(mo, po)
    mo.seek(0)
    found = Translations(fp=mo)

    def _(text: str) -> str:
        return found.ugettext(text)

    _.ngettext, _.pgettext = found.ungettext, found.upgettext
    return _


def lines_of(state, _) -> list[str]:
    """Every line the table reads: the setup steps, the upkeep report and the whole log, in `_`'s language."""
    return [tr(e, "text", _) for e in state.setup_steps + state.report + state.log]


def played(players: int, seed: int, rounds: int, **options):
    """A seeded random game played until round `rounds` has begun (every setup and upkeep line said so far)."""
    rng = random.Random(seed)
    state = new_game(options_for(players, **options), seed, CATALOG)
    while state.phase != "over" and state.round < rounds:
        q = pending(state)[0]
        apply(state, rng.choice([o for o in legal_actions(state, q["who"]) if o["available"]])["action"])
    return state


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_seats_and_play_positions_use_the_readers_letters(lang):
    """R-SETUP-17/19, R-NEXT-4, R-NEXT-13, R-SOLO-4 in French and German."""
    _ = reader(lang)
    state = scenario(4, 3, rnd=2)
    for seat in (1, 3):  # yellow and green each turned a wagon face down this round
        add_wagon(state, seat, sorted(CATALOG.wagons)[seat], used=True)
    upkeep(state)
    (order,) = report_with(state, "R-NEXT-4")
    (flipped,) = report_with(state, "R-NEXT-13")
    for line in (tr(order, "text", _), tr(flipped, "text", _)):
        assert all(f"{name} ({letter})" in line for name, letter in LETTERS[lang].items()), line
    games = [state, played(4, 5, 4), played(3, 7, 3, draw="table"), played(1, 2, 4, advanced=True),
             played(2, 4, 3, advanced=True, draw="table")]
    initial = {"fr": "J", "de": "S"}[lang]
    seen_positions = 0
    for game in games:
        for line in lines_of(game, _):
            assert not ENGLISH_SEAT.search(line), line
            for letter, _n in POSITION.findall(line):
                assert letter == initial, line  # one seat label: never P1, and in German never a mix of S1 and P1
                seen_positions += 1
    assert seen_positions >= 10, "the round I play order and the compensation name play positions"
