"""A catalog record's fields and values in words a table reads, in any language.

The catalog names its fields for the loader (`space[2].reward`) and writes its values in the reward
grammar or as ids (`1 lumber and 1 coin`, `dock-nw`). The catalog pages show both as the box does:
"Space 3 · Reward", "1 lumber + 1 coin", "north-west dock". Each is a Text (companion/words.py), so it
reads in the reader's language; the form itself still takes the catalog's own values.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from ...catalog.problems import in_family, in_file, in_record
from ...catalog.rewards import GrammarError, parse_citizens, parse_cost, parse_reward
from ...engine.describe import CORNERS, tile_name
from ...words import T, Text, again, joined, keep, tr
from ...pictures.faces.tiles import SOLO_ACTIONS
from ...pictures.icons import words

#: each part of a field's name (`path[0].left[1].squares` has four) as the box calls it
LABELS = {
    "name": T("Name"), "class": T("Class"), "players": T("Player-count mark"), "colour": T("Colour"),
    "rat": T("Rat icon"), "action": T("Action"), "repop": T("Has repopulation requirements"),
    "repop_cost": T("Repopulation cost"), "repop_citizens": T("Citizens to repopulate"),
    "repop_lieutenant": T("Lieutenant to repopulate"), "repop_vp": T("Repopulation VP"),
    "back": T("Number on the back"), "cargo": T("Cargo"), "reward": T("Reward"), "era": T("Era"),
    "cost": T("Cost"), "needs_upgraded": T("Needs an upgraded citizen"), "output": T("Output"),
    "upgraded_output": T("Output with an upgraded citizen"), "vp": T("VP"), "hex": T("Hex"),
    "space": T("Space"), "square": T("Square"), "track": T("Track"), "levels": T("Levels"),
    "penalty": T("VP lost per rat count"), "rounds": T("Round"), "boats": T("Boats arriving"),
    "fire_cost": T("Fire cost"), "double_wheel": T("Wheel turns twice"), "once": T("Single use"),
    "dock": T("Dock"), "harbor": T("Harbor"), "spaces": T("Boat spaces"), "side": T("Side"),
    "orange": T("Orange window"), "white": T("White window"), "blue": T("Blue window"), "red": T("Red window"),
    "cabins": T("Quarantine cabins"), "workshop_slots": T("Workshop slots"), "sector": T("Sector"),
    "region": T("Area of the picture"), "path": T("Overseer path"), "overseer": T("Overseer"),
    "first": T("First step"), "left": T("Left branch step"), "right": T("Right branch step"),
    "type": T("Step kind"), "squares": T("Squares"), "regions": T("Areas of the picture"),
    "hexagonal": T("Hexagonal step"), "counts": T("Counts"), "cap": T("Highest count"), "kind": T("Register"),
    "single_bar": T("Single bar after space"), "double_bar": T("Double bar after space"),
    "priority": T("Priority"), "start": T("Starting hexes (column, row)"), "harbors": T("Harbors (column, row)"),
    "expansion": T("Expansion space"), "at": T("Column, row"), "ring": T("Order around the city"),
}
#: choices whose catalog value is no word a player would read as such
CHOICE_WORDS = {
    ("players", "all"): T("every player count"), ("players", "3-4"): T("3 and 4 players"),
    ("players", "4"): T("4 players only"), ("priority", "none"): T("none (random order)"),
    ("priority", "score"): T("scoring track"), **{("action", k): v for k, v in SOLO_ACTIONS.items()},
    **{(colour, "none"): T("no citizen") for colour in ("orange", "white", "blue", "red")},
}
REWARDS = ("action", "reward", "output", "upgraded_output")
COSTS = ("cost", "repop_cost")
PLACES = ("hex", "dock", "harbor")  # fields that name another component by its id


def label(name: str) -> Text:
    """A field's name as the box would say it: `space[2].reward` -> "Space 3 · Reward"."""
    parts = []
    for part in name.split("."):
        key, _, index = part.partition("[")
        word = LABELS.get(key) or _harbor(key) or key.replace("_", " ").capitalize()
        parts.append(T("{what} {n}", what=word, n=int(index.rstrip("]").split("][")[0]) + 1) if index else word)
    return joined(parts, " · ")


def shown(family: str, name: str, value: Any, catalog, number: Callable[[Any], str] = str) -> Any:
    """A value in words (a Text, a word the catalogs translate, or a number); the catalog's own value where
    it has no words (a picture's area code) or does not parse (a correction the loader will refuse).
    `number` writes a number as the reader does (0,5 in French and German)."""
    leaf = name.rsplit(".", 1)[-1].split("[")[0]
    if isinstance(value, bool):
        return T("yes") if value else T("no")
    if value is None:
        return "—"
    if isinstance(value, list) and (leaf == "at" or leaf.startswith("harbor-")):
        return _item(value, catalog, number)  # a place on the city's grid: (column, row)
    if isinstance(value, list):
        return joined([_item(v, catalog, number) for v in value], " · ") if value else T("none")
    if not isinstance(value, str):
        return number(value)
    if (leaf, value) in CHOICE_WORDS and (leaf != "action" or family == "solo_tile"):
        return CHOICE_WORDS[leaf, value]
    try:
        if leaf in REWARDS:
            return parse_reward(value).text()
        if leaf in COSTS:
            cost = parse_cost(value)
            return cost.text() if cost.items else T("nothing")
        if leaf == "repop_citizens":
            return joined([need.text() for need in parse_citizens(value)], " + ")
    except GrammarError:
        return value
    if leaf in PLACES or family == "docking_tile":
        return _place(value, catalog)
    return value


def say(value: Any, gettext: Callable[[str], str]) -> str:
    """What `shown` gives, in the reader's words."""
    return words(value, gettext) if isinstance(value, Text) else gettext(value) if isinstance(value, str) \
        else str(value)


def problem_words(problem: str, gettext: Callable[[str], str]) -> str:
    """A problem the loader or the correction form found, in the reader's words: its templates (nested ones
    too) translated, its values (files, families, ids, field names, what was typed) as the catalog writes
    them. A problem that is a plain str goes through gettext whole."""
    return tr(keep({}, "text", problem), "text", gettext, literal=True)


WHERE = {in_record("", "", "", "").msg: "record", in_family("", "", "").msg: "family", in_file("", "").msg: "file"}


def in_words(problem: Any, record_name: Callable[[str, str], Any], family_name: Callable[[str], Any]) -> Any:
    """A loader's problem as a record's page says it: the record by its name on the box ("Hex 4"), a field
    by its label ("Repopulation cost"), and never the file it lies in (a path on the server)."""
    where = WHERE.get(getattr(problem, "msg", ""))
    if where is None:
        return problem
    args = problem.args
    said = _field_named(again(args["problem"]))
    if where == "record":
        return T("{record}: {problem}", record=record_name(args["family"], args["record"]), problem=said)
    if where == "family":
        return T("{family}: {problem}", family=family_name(args["family"]), problem=said)
    return said


def _field_named(problem: Any) -> Any:
    """A problem that begins with its field's key ("repop_cost: …") names the field by its label instead."""
    args = getattr(problem, "args", None) or {}
    if not getattr(problem, "msg", "").startswith("{key}") or not isinstance(args.get("key"), str):
        return problem
    return T(problem.msg, **{**{k: again(v) for k, v in args.items()}, "key": label(args["key"])})


def _item(value: Any, catalog, number: Callable[[Any], str]) -> Any:
    """One item of a list: a number, a pair of numbers, a place, a register."""
    if isinstance(value, list):
        return T("({pair})", pair=joined([_item(v, catalog, number) for v in value], ", "))
    if isinstance(value, str):
        return _place(value, catalog)
    return number(value)


def _place(value: str, catalog) -> Any:
    """A hex, harbor or dock by what is printed on it; anything else as the catalog writes it."""
    named = tile_name(SimpleNamespace(catalog=catalog), value)  # type: ignore[arg-type]  # it reads only .catalog
    if isinstance(named, Text):
        return named
    return T("scoring track") if value == "score" else value


def _harbor(key: str) -> Text | None:
    corner = CORNERS.get(key.removeprefix("harbor-")) if key.startswith("harbor-") else None
    return T("{corner} harbor", corner=corner) if corner else None
