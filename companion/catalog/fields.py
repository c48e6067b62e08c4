"""Reading one field of a hand-typed record: each reader says in words what the field must be, so a
table's typo comes back as "spaces must be a whole number from 1 to 9, not 'two'", never as a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..words import Text
from . import model as m
from .problems import exception_text
from .rewards import GrammarError, parse_citizens, parse_cost, parse_reward

SOURCES = ("rulebook", "assumed", "mixed", "checked")


class Problem(Exception):
    """What is wrong with one record, in words (build_record turns it into a RecordError)."""


def provenance(rec: dict) -> m.Provenance:
    """Where a record's values come from, so a reader can tell the rulebook from our assumptions and
    from what a table checked against its own copy."""
    source = rec.get("source")
    if source not in SOURCES:
        raise Problem(Text("{key} must be {choices} or {last}, not {value}", key="source",
                           choices=", ".join(map(repr, SOURCES[:-1])), last=repr(SOURCES[-1]), value=repr(source)))
    fields = rec.get("rulebook_fields", [])
    if source == "mixed" and not fields:
        raise Problem(Text("a {mixed} record must list its {key}", mixed="'mixed'", key="rulebook_fields"))
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise Problem(Text("{key} must be a list of field names", key="rulebook_fields"))
    return m.Provenance(source, tuple(fields))


def one_of(rec: dict, key: str, allowed) -> Any:
    """A field with a fixed set of values; the message lists them, so the table can pick one."""
    value = rec.get(key)
    if value not in allowed:
        raise Problem(Text("{key} must be one of {allowed}, not {value}", key=key, allowed=", ".join(map(str, allowed)),
                           value=repr(value)))
    return value


def int_field(rec: dict, key: str, lo: int = 0, hi: int = 10**6) -> int:
    """A whole number in a range (TOML's true is not a number here, though Python's bool is an int)."""
    value = rec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise Problem(Text("{key} must be a whole number from {lo} to {hi}, not {value}", key=key, lo=lo, hi=hi,
                           value=repr(value)))
    return value


def bool_field(rec: dict, key: str, default: bool | None = None) -> bool:
    """true or false; with a default, the field may be left out."""
    value = rec.get(key, default)
    if not isinstance(value, bool):
        raise Problem(Text("{key} must be true or false, not {value}", key=key, value=repr(value)))
    return value


def str_field(rec: dict, key: str) -> str:
    """A text that is not empty: ids and names are looked up by it."""
    value = rec.get(key)
    if not isinstance(value, str) or not value:
        raise Problem(Text("{key} must be a text, not {value}", key=key, value=repr(value)))
    return value


def coord(value, what: str) -> m.Coord:
    """A place in the city's axial grid, [q, r]."""
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise Problem(Text("{what} must be [q, r] whole numbers, not {value}", what=what, value=repr(value)))
    return (value[0], value[1])


def reward_field(rec: dict, key: str) -> m.Reward:
    """A reward in the one reward grammar (catalog/rewards.py)."""
    try:
        return _parsed(rec, key, parse_reward)
    except GrammarError as exc:
        raise Problem(Text("{key}: unparsable reward: {problem}", key=key, problem=exception_text(exc))) from None


def cost_field(rec: dict, key: str) -> m.Bundle:
    """A cost in the same grammar: a bundle to pay, never a choice."""
    try:
        return _parsed(rec, key, parse_cost)
    except GrammarError as exc:
        raise Problem(Text("{key}: unparsable cost: {problem}", key=key, problem=exception_text(exc))) from None


def _parsed(rec: dict, key: str, parse: Callable[[Any], Any]) -> Any:
    """The field parsed; GrammarError when it does not parse (each caller says what it should have been)."""
    if key not in rec:
        raise Problem(Text("missing {key}", key=key))
    return parse(rec[key])


def citizens_field(rec: dict):
    """The citizens a hex asks for to be repopulated (R-REPOP-3)."""
    try:
        return parse_citizens(rec.get("repop_citizens"))
    except GrammarError as exc:
        raise Problem(Text("{key}: {problem}", key="repop_citizens", problem=exception_text(exc))) from None
