"""One catalog record as a form a person fills in with the box open, and the form back into the record.

Each printed value is its own field, named as the catalog names it (`action`, `space[2].reward`): a
number is a number box, yes/no a choice, a value with a fixed set of answers (a colour, a rat icon) a
list to pick from, a reward a line of text in the reward grammar, explained beside it. Only a value
that is itself a list (a rat table's penalties, a layout's start spaces) is typed as a list. Whether
the record is right is the loader's question (companion/catalog/corrections.py), not this module's.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...catalog.build import COLOURS, PRIORITIES, RATS, SOLO_ACTIONS, TRACK_KINDS
from ...catalog.corrections import values
from ...catalog.problems import exception_text
from ...catalog.rewards import CLASSES, GrammarError
from ...catalog.write import toml_value
from ...words import Text
from .reward_words import check
from .words import label

#: fields whose text is a reward or a cost in the one reward grammar (docs/CATALOG.md)
GRAMMAR = ("action", "reward", "output", "upgraded_output", "cost", "repop_cost")
#: (family, field) -> the values it may take; a field named alone holds for every family
CHOICES: dict[str | tuple[str, str], tuple[str, ...]] = {
    ("hex", "class"): ("A", "B", "C"), ("hex", "players"): ("all", "3-4", "4"), "colour": COLOURS,
    "rat": RATS + ("none",), "cargo": ("stones", "spices", "silk"), ("workshop", "class"): CLASSES,
    ("improvement", "class"): CLASSES, "sector": CLASSES, "overseer": CLASSES, "kind": ("popularity", "city", "church"),
    ("solo_tile", "action"): SOLO_ACTIONS, "counts": TRACK_KINDS, "priority": PRIORITIES,
    **{("wheel", c): CLASSES + ("none",) for c in COLOURS},
}
class FormProblem(ValueError):
    """A field that is missing or cannot be read (the message names the field)."""


@dataclass(frozen=True)
class Field:
    name: str  # as the catalog names it: `space[2].reward`
    kind: str  # "number", "yes-no", "choice", "grammar", "list" or "text"
    value: str  # as the form shows it
    choices: tuple[str, ...] = ()


def form_fields(family: str, record: dict) -> list[Field]:
    """The fields of a record's form, in the record's own order."""
    return [_field(family, name, value) for name, value in values(record).items()]


def lacking(family: str, record: dict, others: list[dict]) -> list[Field]:
    """Fields other records of the family have and this one lacks (a hex shipped without repopulation
    requirements), each empty, so a table can add what its copy prints. Only a record's own top-level
    values: a list of squares or spaces is the record's shape, not a value to add."""
    have = values(record)
    found: dict[str, Field] = {}
    for other in others:
        for name, value in values(other).items():
            if "." not in name and "[" not in name and name not in have and name not in found:
                example = _field(family, name, value)
                found[name] = Field(name, example.kind, "", ("",) + example.choices if example.choices else ())
    return list(found.values())


def read_form(family: str, record: dict, form, phrases: Callable[[str, str], str] = lambda leaf, raw: raw,
              added: Sequence[Field] = ()) -> dict:
    """{field name: value} as typed, each of the kind the record holds there; FormProblem otherwise.
    `phrases` reads a reward typed as the pages write it ("3 coins") into the grammar ("3 coin"); a field
    in `added` that was filled in is added to the record."""
    typed = {}
    for name, before in values(record).items():
        raw = form.get(name)
        if raw is None:
            raise FormProblem(Text("The form has no field “{field}”. Load the page again and retry.",
                                   field=label(name)))
        typed[name] = _read(_field(family, name, before), raw.strip(), phrases)
    for field in added:
        raw = (form.get(field.name) or "").strip()
        if raw:
            typed[field.name] = _read(field, raw, phrases)
    return typed


def _field(family: str, name: str, value) -> Field:
    leaf = name.rsplit(".", 1)[-1].split("[")[0]
    choices = CHOICES.get((family, leaf)) or CHOICES.get(leaf)
    if isinstance(value, bool):
        return Field(name, "yes-no", "yes" if value else "no", ("yes", "no"))
    if isinstance(value, int):
        return Field(name, "number", str(value))
    if isinstance(value, str) and choices:
        return Field(name, "choice", value, tuple(choices))
    if isinstance(value, str):
        return Field(name, "grammar" if leaf in GRAMMAR else "text", value)
    return Field(name, "list", toml_value(value))


def _read(field: Field, raw: str, phrases: Callable[[str, str], str]):
    """One typed value, as the kind of value the record holds there."""
    if field.kind == "yes-no":
        if raw not in ("yes", "no"):
            raise FormProblem(Text("{field}: choose yes or no.", field=label(field.name)))
        return raw == "yes"
    if field.kind == "number":
        if not (raw.lstrip("-").isdecimal() and len(raw) <= 6):
            raise FormProblem(Text("{field}: enter a whole number, not “{typed}”.", field=label(field.name),
                                   typed=raw[:40]))
        return int(raw)
    if field.kind == "list":
        return _list(field, raw if raw.startswith("[") else f"[{raw}]")
    leaf = field.name.rsplit(".", 1)[-1].split("[")[0]
    said = phrases(leaf, raw)
    try:
        check(said, leaf)
    except GrammarError as exc:
        raise FormProblem(Text("{field}: {problem}", field=label(field.name), problem=exception_text(exc))) from None
    return said


def _list(field: Field, raw: str) -> list:
    """A list typed as the catalog writes it ([1, 2], [[0, 1], [2, 3]]), or its items with commas."""
    try:
        return tomllib.loads(f"value = {raw}")["value"]
    except (tomllib.TOMLDecodeError, RecursionError, ValueError, KeyError):
        raise FormProblem(Text("{field}: write the values separated by commas, like {example}.",
                               field=label(field.name),
                               example=field.value[:60])) from None
