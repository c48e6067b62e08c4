"""The rules told in our own words (issue 35, companion/rules_text/): every rule ID of docs/RULES.md (its rules
R-… and rulings Q-…) and every ruling of docs/RULINGS.md (C-…) has a title and a text in English, French and
German; none of them shares a run of 8 words with a rulebook in ../shared/seeds; a broken or missing text
stops the companion at start with the rule and the language named.

A new rule ID in the documents without its texts fails here, naming it."""

from __future__ import annotations

import re
import shutil
import tomllib
import unicodedata
from functools import cache
from pathlib import Path

import pytest

from companion.catalog.families import FAMILIES
from companion.faults import StartupError
from companion.rules_text import HERE, LANGUAGES, RulesTextError, load, shipped
from companion.web import create_app
from companion.web.rules import routes as rules
from test_layers import imported

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"  # the rulebooks as text, beside the repository
RUN = 8  # words in a row that make a copied sentence


def documented_ids() -> list[str]:
    """The rule IDs the documents define: RULES.md's "- **R-…**" and "- **Q-n**", RULINGS.md's "- **C-n**"."""
    rules_md = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    rulings_md = (ROOT / "docs" / "RULINGS.md").read_text(encoding="utf-8")
    return (re.findall(r"^- \*\*((?:R|Q)-[A-Z0-9]+(?:-[A-Z0-9]+)*)\*\*", rules_md, re.M)
            + re.findall(r"^- \*\*(C-\d+)\b", rulings_md, re.M))


def test_every_rule_and_ruling_of_the_documents_has_its_text_in_every_language():
    """R-…, Q-… and C-… of the documents, each with a non-empty title and text in en, fr and de, in a topic."""
    ids = documented_ids()
    assert len(ids) > 180 and any(i.startswith("Q-") for i in ids) and any(i.startswith("C-") for i in ids)
    told = shipped()
    missing = [f"{rule} ({lang})" for rule in ids for lang in LANGUAGES
               if not (told.explain(rule, lang) and told.explain(rule, lang).title and told.explain(rule, lang).text)]
    assert not missing, f"rules without their text: {', '.join(missing)}"
    extra = sorted(set(told.ids) - set(ids))
    assert not extra, f"texts for IDs the documents do not define: {extra}"
    assert all(told.explain(c, lang).why for c in ids if c.startswith("C-") for lang in LANGUAGES)


def test_the_rules_page_orders_the_topics_as_the_rulebook_does():
    topics = [t.key for t in shipped().topics]
    assert topics == ["setup", "turn", "plague", "boats", "building", "registers", "estate", "round_end", "scoring",
                      "advanced", "solo", "rulings"]
    first = {t.key: t.ids[0] for t in shipped().topics}
    assert first["setup"] == "R-COMP-1" and first["plague"] == "R-TURN-FIRE-1" and first["rulings"] == "C-1"


def words(text: str) -> list[str]:
    """Words as the check compares them: case folded, punctuation and spacing ignored (l'hexagone = l hexagone)."""
    return re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold())


def runs(text: str) -> set[tuple[str, ...]]:
    ws = words(text)
    return {tuple(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1)}


@cache
def seed_runs() -> dict[tuple[str, ...], str]:
    """Every run of 8 words of every rulebook, each with its book's file name; a word broken at a line's end
    by a hyphen ("Spielvor-\\nbereitung") is read both ways."""
    out = {}
    for path in sorted(SEEDS.glob("*.txt")):
        raw = path.read_text(encoding="utf-8")
        for text in (raw, re.sub(r"(\w)-[ \t]*\n\s*(\w)", r"\1\2", raw)):
            out.update(dict.fromkeys(runs(text), path.name))
    return out


def shared_runs(told_by_language: dict) -> list[str]:
    """Each text field that shares a run of 8 words with a rulebook: rule, language, field, the run, the book."""
    books = seed_runs()
    found = []
    for lang, told in told_by_language.items():
        for rule, entry in told.items():
            for field, value in entry.items():
                for run in sorted(runs(value) & books.keys()):
                    found.append(f"{rule} ({lang}, {field}): \"{' '.join(run)}\" is in {books[run]}")
    return found


def raw_texts() -> dict:
    return {lang: tomllib.loads((HERE / f"{lang}.toml").read_text(encoding="utf-8")) for lang in LANGUAGES}


needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks (../shared/seeds) are not beside the repository")


@needs_seeds
def test_no_text_shares_a_run_of_8_words_with_a_rulebook():
    """Our own words: no field of any rule in any language repeats 8 words in a row of any book in
    ../shared/seeds (the English, French and German rulebooks, the excerpt and the third-party summary)."""
    found = shared_runs(raw_texts())
    assert not found, "texts that copy a rulebook:\n" + "\n".join(found)


@needs_seeds
def test_the_copy_check_finds_8_copied_words_in_any_case_and_punctuation_and_lets_7_pass():
    book = sorted(SEEDS.glob("000_*.txt"))[0]
    copied = words(book.read_text(encoding="utf-8"))[400:408]
    assert len(copied) == RUN
    shouted = ", ".join(w.upper() for w in copied) + "!"
    found = shared_runs({"fr": {"R-TEST-1": {"text": f"Nos mots : {shouted}", "title": " ".join(copied[:7])}}})
    assert len(found) == 1 and found[0].startswith("R-TEST-1 (fr, text)") and book.name in found[0], found
    assert " ".join(copied) in found[0]


def broken(tmp_path: Path, lang: str, edit) -> Path:
    """A copy of the shipped texts with `edit(text) -> text` applied to one language's file."""
    folder = tmp_path / "rules_text"
    shutil.copytree(HERE, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = folder / f"{lang}.toml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


def problems(folder: Path) -> list[str]:
    with pytest.raises(RulesTextError) as exc:
        load(folder)
    return exc.value.problems


def test_a_missing_text_is_an_error_naming_the_rule_and_the_language(tmp_path):
    folder = broken(tmp_path, "de", lambda s: s.replace("[R-BUILD-3]", "[R-BUILD-3-GONE]"))
    assert "R-BUILD-3 (de): no text" in problems(folder)


def test_an_empty_text_or_title_is_an_error_naming_the_rule_and_the_language(tmp_path):
    def empty(s):
        start = s.index("[R-REG-3]")
        return s[:start] + s[start:].replace('title = "Payer pour avancer"', 'title = "  "', 1)
    assert "R-REG-3 (fr): empty title" in problems(broken(tmp_path, "fr", empty))


def test_a_ruling_without_its_why_and_a_field_one_language_lacks_are_errors(tmp_path):
    def no_why(s):
        start = s.index("[C-5]")
        end = s.index("[C-6]")
        return s[:start] + re.sub(r'why = """.*?"""', "", s[start:end], flags=re.S) + s[end:]
    assert problems(broken(tmp_path, "fr", no_why)) == ["C-5 (fr): empty why"]

    def no_example(s):
        start = s.index("[R-TURN-MOVE-3]")
        end = s.index("[R-TURN-MOVE-4]")
        return s[:start] + re.sub(r'example = """.*?"""', "", s[start:end], flags=re.S) + s[end:]
    assert problems(broken(tmp_path / "2", "de", no_example)) == ["R-TURN-MOVE-3 (de): no example, which en has"]


def test_a_missing_file_is_an_error(tmp_path):
    folder = broken(tmp_path, "de", lambda s: s)
    (folder / "de.toml").unlink()
    assert "de.toml: the file is missing" in problems(folder)


def test_the_companion_does_not_start_with_a_rule_left_untold(tmp_path, monkeypatch):
    """Checked at start, as the catalog is: the message names the rule and the language."""
    folder = broken(tmp_path, "fr", lambda s: s.replace("[R-SOLO-4]", "[R-SOLO-4-GONE]"))
    monkeypatch.setattr(rules, "shipped", lambda: load(folder))
    with pytest.raises(StartupError, match=r"R-SOLO-4 \(fr\): no text"):
        create_app({"INSTANCE": str(tmp_path / "instance"), "TESTING": True})


def test_the_rules_texts_are_data_read_without_flask_or_the_web():
    """companion/rules_text/ is read like the catalog: by the web, a script or a test, with no app."""
    banned = ("flask", "flask_babel", "jinja2", "werkzeug", "companion.web", "companion.serve", "companion.store")
    found = {m for f in HERE.glob("*.py") for m in imported(f) if any(m == b or m.startswith(b + ".") for b in banned)}
    assert found == set()


def test_every_catalog_family_names_the_rules_that_use_it():
    assert set(rules.FAMILY_RULES) == set(FAMILIES)
    assert {r for ids in rules.FAMILY_RULES.values() for r in ids} <= set(shipped().ids)


#: words each rulebook uses for these things where the other word would be a synonym (docs/GLOSSARY.md,
#: "Where a rulebook uses two words for one concept"), as they must not appear in our texts
NOT_THE_BOOKS_WORD = {
    "fr": (r"registre de population", r"\brégions?\b", r"\bparcours\b", r"\binfecté", r"\bsauv(er|é)",
           r"\btour(s)? de jeu\b"),
    "de": (r"\bRegister\b", r"\bBoot(e)?\b", r"\bRundenwürfel", r"\bPriorität", r"\bzurückholen", r"\bBürgertyp"),
}


def test_french_and_german_texts_use_their_rulebook_s_words():
    found = [f"{rule} ({lang}, {field}): {pattern}" for lang, patterns in NOT_THE_BOOKS_WORD.items()
             for rule, entry in raw_texts()[lang].items() for field, value in entry.items()
             for pattern in patterns if re.search(pattern, value)]
    assert not found, found
