"""The rules explained in our own words, in every language the companion speaks.

A screen cites a rule by its ID (R-BUILD-3, Q-4, C-18); a player taps it and reads what that rule says.
The words are data: one TOML file per language (en.toml, fr.toml, de.toml), one table per rule ID of
docs/RULES.md (its rules R-… and rulings Q-…) and per ruling of docs/RULINGS.md (C-…), each with a
`title` and a `text`, and where they help `numbers` (what to count), `example` (the rulebook's own
example, its facts told anew) and `why` (a ruling's reason; every C-… has one). topics.toml orders the
IDs by topic as the rulebook does. French and German use each rulebook's own terms (docs/GLOSSARY.md).

`load` reads and checks them, as the catalog's loader does: a rule without a text in a language, an
empty field, a field one language has and another lacks, a text for an ID no topic lists, all fail
together, each problem naming the rule and the language. The web checks them at start.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..words import Text

HERE = Path(__file__).resolve().parent
LANGUAGES = ("en", "fr", "de")
FIELDS = ("title", "text", "numbers", "example", "why")
REQUIRED = ("title", "text")
#: the topics of the rules page, in the rulebook's order, with their headings
TOPICS = (("setup", Text("Setup")), ("turn", Text("A turn")), ("plague", Text("Fire and plague")),
          ("boats", Text("Docks and boats")), ("building", Text("Building")), ("registers", Text("Registers")),
          ("estate", Text("Overseers and citizens")), ("round_end", Text("The end of a round")),
          ("scoring", Text("Final scoring")), ("advanced", Text("Advanced game")), ("solo", Text("Solo game")),
          ("rulings", Text("Our rulings")))


class RulesTextError(Exception):
    """The rules' texts cannot be used: every problem found, each naming its rule and language."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class Explanation:
    """One rule told in one language."""

    id: str
    title: str
    text: str
    numbers: str = ""
    example: str = ""
    why: str = ""


@dataclass(frozen=True)
class Topic:
    key: str
    heading: str  # English; the page shows it through gettext
    ids: tuple[str, ...]


@dataclass(frozen=True)
class RulesText:
    topics: tuple[Topic, ...]
    told: dict  # language -> rule ID -> Explanation

    @property
    def ids(self) -> tuple[str, ...]:
        """Every rule ID, in the rules page's order."""
        return tuple(i for t in self.topics for i in t.ids)

    def explain(self, rule_id: str, language: str) -> Explanation | None:
        """The rule in `language` (English for a language we do not speak), None for an unknown ID."""
        return self.told.get(language, self.told["en"]).get(rule_id)


def load(folder: Path = HERE) -> RulesText:
    """The topics and every language's texts from `folder`, checked; RulesTextError lists what is wrong."""
    problems: list[str] = []
    topics = _topics(_read(folder / "topics.toml", problems), problems)
    ids = [i for t in topics for i in t.ids]
    told = {lang: _language(lang, _read(folder / f"{lang}.toml", problems), ids, problems) for lang in LANGUAGES}
    _same_fields(told, problems)
    if problems:
        raise RulesTextError(problems)
    return RulesText(topics, told)


@cache
def shipped() -> RulesText:
    """The texts shipped with the companion, read once."""
    return load()


def _read(path: Path, problems: list[str]) -> dict:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        problems.append(f"{path.name}: the file is missing")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        problems.append(f"{path.name}: cannot be read: {exc}")
    return {}


def _topics(data: dict, problems: list[str]) -> tuple[Topic, ...]:
    """topics.toml: each topic's list of IDs, every topic of TOPICS, no ID twice."""
    out, seen = [], set()
    for key, heading in TOPICS:
        ids = data.get(key)
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            problems.append(f"topics.toml: topic {key} needs a list of rule IDs")
            continue
        for i in ids:
            if i in seen:
                problems.append(f"topics.toml: {i} is listed twice")
            seen.add(i)
        out.append(Topic(key, heading, tuple(ids)))
    problems += [f"topics.toml: unknown topic {k}" for k in data if k not in dict(TOPICS)]
    return tuple(out)


def _language(lang: str, data: dict, ids: list[str], problems: list[str]) -> dict[str, Explanation]:
    """One language's texts: every listed ID with a non-empty title and text, known fields only, C-… with
    its `why`."""
    out = {}
    for rule in ids:
        entry = data.get(rule)
        if not isinstance(entry, dict):
            problems.append(f"{rule} ({lang}): no text")
            continue
        bad = [f for f in entry if f not in FIELDS or not isinstance(entry[f], str)]
        problems += [f"{rule} ({lang}): unknown field {f}" for f in bad]
        fields = {f: _tidy(v) for f, v in entry.items() if f not in bad}
        needed = REQUIRED + (("why",) if rule.startswith("C-") else ())
        empty = [f for f in needed if not fields.get(f)] + [f for f, v in fields.items() if not v and f not in needed]
        problems += [f"{rule} ({lang}): empty {f}" for f in empty]
        if not empty:
            out[rule] = Explanation(rule, **fields)
    problems += [f"{rule} ({lang}): a text for a rule no topic lists" for rule in data if rule not in ids]
    return out


def _tidy(value: str) -> str:
    """A field as written over several lines: its paragraphs (split by a blank line), each on one line."""
    return "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", value.strip()) if p.strip())


def _same_fields(told: dict, problems: list[str]) -> None:
    """Every language tells a rule with the same fields: an example in English is an example in German."""
    for rule, english in told["en"].items():
        has = {f for f in FIELDS if getattr(english, f)}
        for lang in LANGUAGES[1:]:
            other = told[lang].get(rule)
            if other is None:
                continue
            theirs = {f for f in FIELDS if getattr(other, f)}
            problems += [f"{rule} ({lang}): no {f}, which en has" for f in sorted(has - theirs)]
            problems += [f"{rule} ({lang}): {f}, which en lacks" for f in sorted(theirs - has)]


__all__ = ["Explanation", "LANGUAGES", "RulesText", "RulesTextError", "TOPICS", "Topic", "load", "shipped"]
