"""docs/GLOSSARY.md (issue 15 item 2): the EN / FR / DE table the fr and de catalogs are translated
through. Every term not marked "(ours)" must be a word its rulebook uses: each EN term occurs in the
English rulebook (seed 000), each FR term in the French one (001), each DE term in the German one (002),
case-insensitively. The German text breaks words across lines with a hyphen ("Zeit-" / "punkt"); a
line-end hyphen followed by a lower-case letter is joined before searching, whitespace runs count as one
space. And the glossary covers the core terms the companion's screens use.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "GLOSSARY.md"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
LANGUAGES = ("EN", "FR", "DE")
SEED_OF = {"EN": "000", "FR": "001", "DE": "002"}
OURS = "(ours)"

#: Game terms the companion shows that the glossary must have a row for (its EN column, as written).
CORE = (
    # pieces and places
    "lieutenant", "figure", "standing", "lying", "overseer", "upgraded overseer", "path", "branch", "step",
    "space", "square", "sector", "region", "estate", "player board", "scroll board", "track", "level",
    "scoreboard", "round counter", "round info table", "play-order indicator", "scoring track", "counter",
    "register", "popularity register", "city register", "church register", "register priority tile",
    "population wheel", "window", "hex", "neighborhood", "harbor hex", "harbor", "dock", "docking tile",
    "boat", "boat tile", "cargo", "goods", "silk", "spices", "precious stones", "quarantine",
    "quarantine cabin", "quarantine space", "workshop", "early-game workshop", "late-game workshop", "era",
    "improvement", "cabin improvement", "wagon", "building", "repopulation tile", "coin", "lumber",
    "fire token", "major fire token", "major fire", "rat", "rat token", "plague cube", "plague",
    "citizen", "citizen token", "aristocrat", "nun", "craftsman", "upgraded citizen", "supply",
    "solo game tile", "opponent", "point", "VP",
    # actions and phases
    "turn", "round", "action step", "move", "recall", "rescue", "fight the plague", "hex action",
    "advance", "activate", "upgrade", "build", "tile cycling", "repopulate", "repopulation",
    "production", "end of round", "setup", "setup for next round", "upkeep", "play order",
    "final scoring", "rat penalty", "tie", "winner", "advanced variant", "solo variant",
    # the companion's own words
    "host", "phone", "seat", "table draw",
)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _plain(cell: str) -> str:
    """A term as written in a cell, without markdown emphasis or code marks."""
    return re.sub(r"\s+", " ", cell.replace("*", "").replace("`", "")).strip()


@cache
def rows() -> list[dict[str, str]]:
    """Every row of every glossary table whose header starts with the three language columns."""
    found, header = [], None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if header is None:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue  # the |---| line
        if [h.split()[0] for h in header[:3]] == list(LANGUAGES):
            found.append(dict(zip(LANGUAGES, map(_plain, cells[:3]))))
    return found


def _normal(text: str) -> str:
    text = re.sub(r"(\w)-[ \t]*\r?\n\s*(?=[a-zäöüß])", r"\1", text)  # "Zeit-\npunkt" -> "Zeitpunkt"
    return re.sub(r"\s+", " ", text.replace("’", "'")).lower()


@cache
def seed(lang: str) -> str:
    files = sorted(SEEDS.glob(f"{SEED_OF[lang]}_*"))
    assert files, (f"rulebook seed {SEED_OF[lang]}_* not found in {SEEDS}: the glossary is checked against the "
                   "rulebooks' text beside the repository (../shared/seeds)")
    return _normal(files[0].read_text(encoding="utf-8"))


def test_glossary_has_tables():
    assert len(rows()) >= 100, f"GLOSSARY.md has only {len(rows())} rows with EN / FR / DE columns"
    for row in rows():
        assert all(row[lang] for lang in LANGUAGES), f"a glossary row has an empty term: {row}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_term_not_ours_is_in_its_rulebook(lang):
    text = seed(lang)
    missing = [row[lang] for row in rows() if OURS not in row[lang] and _normal(row[lang]) not in text]
    assert not missing, f"{lang} terms not found in rulebook seed {SEED_OF[lang]}_*: {missing}"


def test_glossary_covers_the_core_terms():
    english = {row["EN"].replace(OURS, "").strip().lower() for row in rows()}
    missing = [term for term in CORE if term.lower() not in english]
    assert not missing, f"GLOSSARY.md has no row for: {missing}"


def test_english_terms_are_unique():
    seen: dict[str, int] = {}
    for row in rows():
        key = row["EN"].replace(OURS, "").strip().lower()
        seen[key] = seen.get(key, 0) + 1
    doubled = sorted(k for k, n in seen.items() if n > 1)
    assert not doubled, f"GLOSSARY.md has more than one row for: {doubled}"
