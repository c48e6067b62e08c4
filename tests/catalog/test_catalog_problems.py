"""Every problem the catalog loader reports is a Text (companion/words.py) built from templates that
messages.pot holds, nested templates included, so the catalog pages can show it in the reader's
language (no f-string slipped through). Its English is still what `catalog check` prints, and the
French and German pages read it translated, with paths, families, ids and field names as written."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.catalog import FAMILIES, CatalogError, catalog_in_force
from companion.catalog.build import RecordError, build_record
from companion.catalog.corrections import shipped_ids, shipped_record
from companion.catalog.loader import catalog_from_files, catalog_from_json
from companion.catalog.write import toml_text
from companion.web import TRANSLATIONS
from companion.web.catalog.words import problem_words
from companion.words import Text

OVERRIDE = Path("corrections.toml")
#: corrections a loader refuses, as record values: each names the rule it breaks where it breaks one
BREAKING = {
    "a third B hex (R-SETUP-2/3)": ("hex", "n16", {"class": "B"}),
    "a reward the grammar cannot read": ("boat", "boat-1", {"reward": "2 gold"}),
    "a priority column too short": ("priority_tile", "2p", {"priority": ["none", "city"]}),
    "a dock beside no harbor (M-4)": ("dock", "dock-nw", {"harbor": "harbor-xx"}),
    "two docking tiles name one dock (M-4)": ("docking_tile", "docking-nw", {"dock": "dock-ne"}),
    "a fourth boat of precious stones (R-SETUP-8)": ("boat", "boat-2", {"cargo": "stones"}),
    "a wagon back past 5 (R-SETUP-10)": ("wagon", "wagon-1a", {"back": 6}),
    "a solo tile on no hex (R-SOLO-2)": ("solo_tile", "solo-01", {"hex": "n99"}),
    "a city for no player count (M-3)": ("layout", "2p", {"players": [5]}),
}
#: corrections files the loader refuses before any record is built
FILES = {
    "not UTF-8": b"\xff",
    "not TOML": b"x = ",
    "nested too deeply": b"x = " + b"[" * 40,
    "an unknown family": b'[[dragon]]\nid = "x"\n',
    "a family that is no array": b"hex = 3\n",
    "a record with no id": b'[[hex]]\nname = "x"\n',
    "an id the shipped catalog lacks": b'[[hex]]\nid = "n99"\n',
    "a record broken in two places": b'[[hex]]\nid = "n01"\n[[hex]]\nid = "n01"\n',
}
WRONG = ("?", 99999, [[]], {"x": 1})  # a value of the wrong kind for any field


@pytest.fixture(scope="module")
def templates() -> set[str]:
    with open(TRANSLATIONS / "messages.pot", "rb") as f:
        return {m.id for m in read_po(f) if m.id and isinstance(m.id, str)}


def refused(data: bytes) -> list:
    with pytest.raises(CatalogError) as caught:
        catalog_from_files(OVERRIDE, data)
    return caught.value.problems


def corrected(family: str, rid: str, change: dict) -> bytes:
    return toml_text({family: [shipped_record(family, rid) | change]}).encode()


def untranslatable(problem, templates: set[str]) -> list[str]:
    """What in a problem a catalog cannot translate: not a Text, or a template messages.pot lacks."""
    if not isinstance(problem, Text):
        return [f"a plain str: {problem!r}"]
    return _missing(problem.msg, problem.args, templates)


def _missing(msg: str, args: dict, templates: set[str]) -> list[str]:
    """Templates messages.pot lacks, and a `problem` value that is plain text: a wrapper ("{file}: {problem}",
    "round {round}: {problem}") holds its problem as a nested template (Python's own texts are an `error`)."""
    found = [] if msg in templates else [f"not in messages.pot: {msg!r}"]
    for key, value in args.items():
        if isinstance(value, dict) and "msg" in value:
            found += _missing(value["msg"], value["args"], templates)
        elif key == "problem":
            found.append(f"plain text where a problem belongs: {value!r}")
    return found


@pytest.mark.parametrize("case", BREAKING)
def test_a_refused_correction_says_each_problem_as_a_text_of_the_template(case, templates):
    problems = refused(corrected(*BREAKING[case]))
    assert problems
    for problem in problems:
        assert not untranslatable(problem, templates), problem


@pytest.mark.parametrize("case", FILES)
def test_a_refused_file_says_each_problem_as_a_text_of_the_template(case, templates):
    problems = refused(FILES[case])
    assert problems
    for problem in problems:
        assert str(problem).startswith(f"{OVERRIDE}: ") and not untranslatable(problem, templates), problem


def test_every_field_a_builder_reads_says_its_problem_as_a_text(templates):
    """Each field of the first record of each family, given a value of the wrong kind: the builder's
    problem, nested however deep (a register space's reward, a board's path), is a translatable Text."""
    seen = 0
    for family in FAMILIES:
        record = shipped_record(family, shipped_ids(family)[0])
        for field in record:
            for wrong in WRONG if field != "id" else ():
                broken = copy.deepcopy(record) | {field: wrong}
                try:
                    build_record(family, broken)
                except RecordError as exc:
                    seen += 1
                    assert not untranslatable(exc.args[0], templates), (family, field, exc.args[0])
    assert seen > 150


def test_what_a_stored_catalog_or_an_unreadable_file_says_is_a_text(tmp_path, templates):
    with pytest.raises(CatalogError) as caught:
        catalog_from_json("{")
    now = catalog_in_force(tmp_path)  # a folder where the corrections file should be: it cannot be read
    for problem in caught.value.problems + list(now.problems):
        assert not untranslatable(problem, templates), problem
    assert now.problems and not now.corrected


@pytest.mark.parametrize("lang", ("fr", "de"))
def test_a_problem_reads_in_english_as_printed_and_translated_with_its_values_as_written(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        words = {m.id: m.string for m in read_po(f, locale=lang) if m.id and m.string}
    problems = [p for case in BREAKING.values() for p in refused(corrected(*case))] + refused(FILES["not TOML"])
    for problem in problems:
        assert problem_words(problem, lambda msg: msg) == str(problem)  # the template gives back the English
        said = problem_words(problem, lambda msg: words.get(msg, msg))
        file = str(problem).split(": ")[0]  # the correction's file, or the shipped file a check names
        assert said != str(problem) and "{" not in said and said.startswith(file), said
    assert problem_words("a plain sentence", str.upper) == "A PLAIN SENTENCE"  # a plain str: gettext of it


def test_the_ids_and_fields_a_problem_names_stay_as_the_catalog_writes_them():
    """French words around, the catalog's own words inside: a family, an id, a field name (`boats`, which
    the game's vocabulary would otherwise translate), a value as typed."""
    with open(TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po", "rb") as f:
        words = {m.id: m.string for m in read_po(f, locale="fr") if m.id and m.string}
    rounds = shipped_record("round_info", "2p")["rounds"]
    [problem] = refused(corrected("round_info", "2p", {"rounds": [rounds[0] | {"boats": 5}] + rounds[1:]}))
    assert problem == "corrections.toml: round_info 2p: round 1: boats must be a whole number from 1 to 2, not 5"
    assert problem_words(problem, lambda msg: words.get(msg, msg)) == \
        "corrections.toml : round_info 2p : manche 1 : boats doit être un nombre entier de 1 à 2, pas 5"
