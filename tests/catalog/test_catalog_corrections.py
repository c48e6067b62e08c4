"""The corrections a table makes on /catalog, at the catalog's level (companion/catalog/corrections.py):
written back as TOML that reads as the same records, checked by the loader before anything is written
(a refused change leaves the file byte for byte), marked `checked` honestly, reset, exported and imported
to the same fingerprint; and `catalog check` counts what was checked."""

from __future__ import annotations

import json
import tomllib

import pytest

from companion.catalog import CatalogError, catalog_in_force, shipped_catalog
from companion.catalog.corrections import (Corrections, checked, differences, shipped_record, source_of, values,
                                           with_values)
from companion.catalog.loader import catalog_from_files
from companion.catalog.read import merge_files
from companion.catalog.write import toml_text
from tables import run_command


@pytest.fixture
def file(tmp_path):
    return tmp_path / "catalog.toml"


def test_every_shipped_record_written_back_reads_as_the_same_records_in_the_same_order(file):
    records, _ = merge_files(file, None)
    text = toml_text(records, "# all of it\n")
    assert json.dumps(tomllib.loads(text)) == json.dumps(records)
    assert catalog_from_files(file, text.encode()).fingerprint == shipped_catalog().fingerprint


def test_text_a_table_types_survives_the_round_trip(file):
    odd = {"hex": [dict(shipped_record("hex", "n02"), name='Quote " back\\slash \x7f tab\t é 🐀')]}
    assert tomllib.loads(toml_text(odd))["hex"][0]["name"] == odd["hex"][0]["name"]


def test_matches_my_copy_marks_the_record_checked_and_keeps_what_a_rulebook_prints(file):
    """M-1, R-REPOP-5: n01's requirements are the rulebook's example; checked, they are still named as printed."""
    catalog = Corrections(file).mark_checked("hex", "n01")
    assert catalog.hexes["n01"].prov.source == "checked"
    assert catalog.hexes["n01"].prov.of("repop_cost") == "rulebook"
    assert catalog.hexes["n01"].prov.of("colour") == "checked"
    assert catalog.sources()["checked"] == 1 and sum(catalog.sources().values()) == 145
    assert catalog_in_force(file).catalog.fingerprint == catalog.fingerprint  # new games get it, no restart


def test_a_corrected_value_no_longer_claims_the_rulebook(file):
    """R-ACT-2: n04's "build or 1 major-fire" is the rulebook's example; a table whose copy differs has
    checked its own value, which a rulebook does not print."""
    c = Corrections(file)
    catalog = c.correct("hex", "n04", with_values(c.record("hex", "n04"), {"action": "2 coin or 1 lumber",
                                                                            "repop_vp": 7}))
    n04 = catalog.hexes["n04"]
    assert (n04.action.phrase, n04.repop_vp) == ("2 coin or 1 lumber", 7)
    assert n04.prov.of("action") == "checked"
    assert differences(shipped_record("hex", "n04"), c.record("hex", "n04")) == [
        ("action", "build or 1 major-fire", "2 coin or 1 lumber"), ("repop_vp", 3, 7)]


def test_sub_records_are_checked_with_their_board(file):
    """A board's square that carries its own source is checked with the board; its printed fields stay printed."""
    c = Corrections(file)
    c.mark_checked("board", "a")
    board = c.record("board", "a")
    assert board["source"] == "checked" and board["square"][1]["source"] == "checked"
    assert source_of(board, "square[1].reward") == "rulebook" and source_of(board, "square[0].reward") == "checked"
    assert source_of(shipped_record("rat_table", "rats"), "penalty") == "mixed"  # R-END-2 prints two entries


BREAKING = {
    "a third B hex (R-SETUP-2/3)": ("hex", "n16", {"class": "B"}, "3 B hexes"),
    "a broken reward": ("boat", "boat-1", {"reward": "2 gold"}, "unknown icon 'gold'"),
    "a wrong count (M-6: six rounds)": ("priority_tile", "2p", {"priority": ["none", "city"]}, "priority"),
}


@pytest.mark.parametrize("case", BREAKING)
def test_a_correction_breaking_a_catalog_rule_is_refused_with_the_loaders_words_and_writes_nothing(file, case):
    family, rid, change, words = BREAKING[case]
    c = Corrections(file)
    c.mark_checked("hex", "n02")
    before = file.read_bytes()
    with pytest.raises(CatalogError) as refused:
        c.correct(family, rid, with_values(c.record(family, rid), change))
    assert any(words in p and str(file) in p for p in refused.value.problems), refused.value.problems
    assert file.read_bytes() == before
    with pytest.raises(CatalogError) as loader:  # the same words as `catalog check` would print
        catalog_from_files(file, toml_text({family: [checked(shipped_record(family, rid),
                                                             with_values(shipped_record(family, rid), change))]})
                           .encode())
    assert any(words in p for p in loader.value.problems)


def test_reset_returns_a_record_to_the_shipped_one(file):
    c = Corrections(file)
    c.correct("hex", "n04", with_values(c.record("hex", "n04"), {"repop_vp": 8}))
    c.mark_checked("boat", "boat-2")
    catalog = c.reset("hex", "n04")
    assert catalog.hexes["n04"].repop_vp == 3 and catalog.hexes["n04"].prov.source == "mixed"
    assert [r["id"] for r in c.records()["boat"]] == ["boat-2"] and "hex" not in c.records()
    assert c.reset("boat", "boat-2").fingerprint == shipped_catalog().fingerprint


def test_the_exported_file_imported_elsewhere_gives_the_same_fingerprint(tmp_path):
    here = Corrections(tmp_path / "here.toml")
    here.mark_checked("wheel", "w1")
    catalog = here.correct("hex", "n04", with_values(here.record("hex", "n04"), {"action": "2 coin"}))
    there = Corrections(tmp_path / "there" / "catalog.toml")
    there.path.parent.mkdir()
    assert there.replace(here.export()).fingerprint == catalog.fingerprint
    assert catalog_in_force(there.path).catalog.fingerprint == catalog.fingerprint


def test_an_invalid_import_is_refused_whole(file):
    c = Corrections(file)
    c.mark_checked("hex", "n01")
    before = file.read_bytes()
    bad = before + b'\n[[boat]]\nid = "boat-1"\nback = 1\ncargo = "silk"\nreward = "1 ducat"\nsource = "checked"\n'
    for data in (bad, b"\xff\xfe not text", b"[[hex]\n"):
        with pytest.raises(CatalogError):
            c.replace(data)
        assert file.read_bytes() == before


def test_an_unknown_source_is_refused_and_checked_is_known(file):
    rec = dict(shipped_record("boat", "boat-1"), source="printed")
    with pytest.raises(CatalogError, match="'rulebook', 'assumed', 'mixed' or 'checked'"):
        catalog_from_files(file, toml_text({"boat": [rec]}).encode())


def test_catalog_check_counts_checked_beside_rulebook_mixed_and_assumed(file):
    c = Corrections(file)
    for rid in ("n01", "n02", "n03"):
        c.mark_checked("hex", rid)
    res = run_command("catalog", "check", "--override", file)
    assert res.exit_code == 0
    out = res.stdout
    assert "checked" in out.splitlines()[1]
    hexes = next(line.split() for line in out.splitlines() if line.startswith("hex "))
    assert hexes == ["hex", "20", "0", "3", "14", "3"]  # count, rulebook, mixed, assumed, checked
    assert next(line.split() for line in out.splitlines() if line.startswith("all "))[-1] == "3"


def test_values_name_every_printed_field_as_rulebook_fields_do(file):
    register = shipped_record("register", "popularity-3-4p")
    names = values(register)
    assert "space[2].reward" in names and "kind" in names and "id" not in names and "source" not in names
