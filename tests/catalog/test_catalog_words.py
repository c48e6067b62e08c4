"""The catalog pages say a record's fields and values as the box does (companion/web/catalog/words.py):
"Space 3 · Reward", "build or 1 major fire", "north-west dock", and 0,5 for a French or German reader.
The form still takes the catalog's own values; tests/web/test_no_english.py reads every page in French and
German."""

from __future__ import annotations

import re

import pytest

from companion.catalog import default_catalog
from companion.catalog.corrections import shipped_ids, shipped_record, values
from companion.web import create_app
from companion.web.catalog.form import FormProblem, read_form
from companion.web.catalog.screen import FAMILY_NAMES
from companion.web.catalog.words import LABELS, label, say, shown


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


def english(value) -> str:
    return say(value, lambda s: s)


def test_every_field_of_every_record_has_a_name_a_player_reads():
    """No field falls back to the catalog's own key ("workshop_slots" -> "Workshop slots" by chance)."""
    for family in FAMILY_NAMES:
        for rid in shipped_ids(family):
            for name in values(shipped_record(family, rid)):
                for part in name.split("."):
                    key = re.sub(r"\[.*", "", part)
                    assert key in LABELS or key.startswith("harbor-"), (family, name)


def test_a_field_name_counts_from_one_as_the_box_does():
    assert english(label("space[2].reward")) == "Space 3 · Reward"
    assert english(label("path[0].left[1].squares")) == "Overseer path 1 · Left branch step 2 · Squares"
    assert english(label("harbors.harbor-nw")) == "Harbors (column, row) · north-west harbor"


def test_values_in_words_not_in_the_grammar_or_ids(catalog):
    """R-ACT-2: a slash is a choice; a hex action or a reward reads as the menus say it."""
    assert english(shown("hex", "action", "build or 1 major-fire", catalog)) == "build or 1 major fire"
    assert english(shown("hex", "repop_cost", "nothing", catalog)) == "nothing"
    assert english(shown("hex", "repop_citizens", "1 nun and 1 upgraded craftsman", catalog)) == \
        "1 nun + 1 upgraded craftsman"
    assert english(shown("hex", "players", "3-4", catalog)) == "3 and 4 players"
    assert english(shown("hex", "repop", True, catalog)) == "yes"
    assert english(shown("docking_tile", "dock", "dock-nw", catalog)) == "north-west dock"
    assert english(shown("wheel", "blue", "none", catalog)) == "no citizen"
    assert english(shown("solo_tile", "action", "boat", catalog)) == "take a boat"
    assert english(shown("round_info", "rounds[0].priority", "score", catalog)) == "scoring track"
    solo_hex = english(shown("solo_tile", "hex", "n01", catalog))
    assert "hex" in solo_hex and "n01" not in solo_hex
    assert english(shown("layout", "harbors.harbor-ne", [5, 1], catalog)) == "(5, 1)"


def test_a_value_that_does_not_parse_is_shown_as_typed(catalog):
    """A correction the loader refuses is shown back as the table typed it, to fix it."""
    assert shown("hex", "action", "2 coinz", catalog) == "2 coinz"


def test_french_and_german_numbers_and_words(tmp_path, catalog):
    app = create_app({"INSTANCE": str(tmp_path / "instance"), "TESTING": True})
    levels = values(shipped_record("scroll_board", "b1"))["track[1].levels"]
    assert 0.5 in levels
    for lang, half, yes in (("fr", "0,5", "oui"), ("de", "0,5", "ja"), ("en", "0.5", "yes")):
        client = app.test_client()
        client.get(f"/language/{lang}")
        page = client.get("/catalog/scroll_board").get_data(as_text=True)
        assert f"{half} · 1 · 1 · 2 · 2 · 3" in page
        assert f'<span class="value">{yes}</span>' in client.get("/catalog/hex/n04").get_data(as_text=True)  # repop


def test_a_form_problem_names_the_field_in_words():
    record = shipped_record("hex", "n04")
    form = {name: str(value) for name, value in values(record).items()} | {"repop": "maybe"}
    with pytest.raises(FormProblem) as refused:
        read_form("hex", record, form)
    assert english(refused.value.args[0]) == "Has repopulation requirements: choose yes or no."
