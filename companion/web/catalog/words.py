"""A catalog record's fields and values in words a table reads, in any language.

The catalog names its fields for the loader (`space[2].reward`) and writes its values in the reward
grammar or as ids (`1 lumber and 1 coin`, `dock-nw`). The catalog pages show both as the box does:
"Space 3 · Reward", "1 lumber + 1 coin", "north-west dock". Each is a Text (companion/words.py), so it
reads in the reader's language; the form itself still takes the catalog's own values.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from ...catalog.problems import in_family, in_file, in_record
from ...catalog.rewards import GrammarError, parse_citizens, parse_cost, parse_reward
from ...engine.describe import CORNERS, tile_name
from ...pictures.faces.tiles import SOLO_ACTIONS
from ...pictures.icons import words
from ...words import Text, from_plain, joined, put_text, tr

#: each part of a field's name (`path[0].left[1].squares` has four) as the box calls it
LABELS = {
    "name": Text("Name"), "class": Text("Class"), "players": Text("Player-count mark"), "colour": Text("Colour"),
    "rat": Text("Rat icon"), "action": Text("Action"), "repop": Text("Has repopulation requirements"),
    "repop_cost": Text("Repopulation cost"), "repop_citizens": Text("Citizens to repopulate"),
    "repop_lieutenant": Text("Lieutenant to repopulate"), "repop_vp": Text("Repopulation VP"),
    "back": Text("Number on the back"), "cargo": Text("Cargo"), "reward": Text("Reward"), "era": Text("Era"),
    "cost": Text("Cost"), "needs_upgraded": Text("Needs an upgraded citizen"), "output": Text("Output"),
    "upgraded_output": Text("Output with an upgraded citizen"), "vp": Text("VP"), "hex": Text("Hex"),
    "space": Text("Space"), "square": Text("Square"), "track": Text("Track"), "levels": Text("Levels"),
    "penalty": Text("VP lost per rat count"), "rounds": Text("Round"), "boats": Text("Boats arriving"),
    "fire_cost": Text("Fire cost"), "double_wheel": Text("Wheel turns twice"), "once": Text("Single use"),
    "dock": Text("Dock"), "harbor": Text("Harbor"), "spaces": Text("Boat spaces"), "side": Text("Side"),
    "orange": Text("Orange window"), "white": Text("White window"), "blue": Text("Blue window"),
    "red": Text("Red window"),
    "cabins": Text("Quarantine cabins"), "workshop_slots": Text("Workshop slots"), "sector": Text("Sector"),
    "region": Text("Area of the picture"), "path": Text("Overseer path"), "overseer": Text("Overseer"),
    "first": Text("First step"), "left": Text("Left branch step"), "right": Text("Right branch step"),
    "type": Text("Step kind"), "squares": Text("Squares"), "regions": Text("Areas of the picture"),
    "hexagonal": Text("Hexagonal step"), "counts": Text("Counts"), "cap": Text("Highest count"),
    "kind": Text("Register"),
    "single_bar": Text("Single bar after space"), "double_bar": Text("Double bar after space"),
    "priority": Text("Priority"), "start": Text("Starting hexes (column, row)"),
    "harbors": Text("Harbors (column, row)"),
    "expansion": Text("Expansion space"), "at": Text("Column, row"), "ring": Text("Order around the city"),
}
#: choices whose catalog value is no word a player would read as such
CHOICE_WORDS = {
    ("players", "all"): Text("every player count"), ("players", "3-4"): Text("3 and 4 players"),
    ("players", "4"): Text("4 players only"), ("priority", "none"): Text("none (random order)"),
    ("priority", "score"): Text("scoring track"), **{("action", k): v for k, v in SOLO_ACTIONS.items()},
    **{(colour, "none"): Text("no citizen") for colour in ("orange", "white", "blue", "red")},
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
        parts.append(Text("{what} {n}", what=word, n=int(index.rstrip("]").split("][")[0]) + 1) if index else word)
    return joined(parts, " · ")


def shown(family: str, name: str, value: Any, catalog, number: Callable[[Any], str] = str) -> Any:
    """A value in words (a Text, a word the catalogs translate, or a number); the catalog's own value where
    it has no words (a picture's area code) or does not parse (a correction the loader will refuse).
    `number` writes a number as the reader does (0,5 in French and German)."""
    leaf = name.rsplit(".", 1)[-1].split("[")[0]
    if isinstance(value, bool):
        return Text("yes") if value else Text("no")
    if value is None:
        return "—"
    if isinstance(value, list) and (leaf == "at" or leaf.startswith("harbor-")):
        return _item(value, catalog, number)  # a place on the city's grid: (column, row)
    if isinstance(value, list):
        return joined([_item(v, catalog, number) for v in value], " · ") if value else Text("none")
    if not isinstance(value, str):
        return number(value)
    if (leaf, value) in CHOICE_WORDS and (leaf != "action" or family == "solo_tile"):
        return CHOICE_WORDS[leaf, value]
    try:
        if leaf in REWARDS:
            return parse_reward(value).text()
        if leaf in COSTS:
            cost = parse_cost(value)
            return cost.text() if cost.items else Text("nothing")
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
    return tr(put_text({}, "text", problem), "text", gettext, literal=True)


WHERE = {in_record("", "", "", "").msg: "record", in_family("", "", "").msg: "family", in_file("", "").msg: "file"}


def in_words(problem: Any, record_name: Callable[[str, str], Any], family_name: Callable[[str], Any]) -> Any:
    """A loader's problem as a record's page says it: the record by its name on the box ("Hex 4"), a field
    by its label ("Repopulation cost"), and never the file it lies in (a path on the server)."""
    where = WHERE.get(getattr(problem, "msg", ""))
    if where is None:
        return problem
    args = problem.args
    said = _field_named(from_plain(args["problem"]))
    if where == "record":
        return Text("{record}: {problem}", record=record_name(args["family"], args["record"]), problem=said)
    if where == "family":
        return Text("{family}: {problem}", family=family_name(args["family"]), problem=said)
    return said


def _field_named(problem: Any) -> Any:
    """A problem that begins with its field's key ("repop_cost: …") names the field by its label instead."""
    args = getattr(problem, "args", None) or {}
    if not getattr(problem, "msg", "").startswith("{key}") or not isinstance(args.get("key"), str):
        return problem
    return Text(problem.msg, **{**{k: from_plain(v) for k, v in args.items()}, "key": label(args["key"])})


def _item(value: Any, catalog, number: Callable[[Any], str]) -> Any:
    """One item of a list: a number, a pair of numbers, a place, a register."""
    if isinstance(value, list):
        return Text("({pair})", pair=joined([_item(v, catalog, number) for v in value], ", "))
    if isinstance(value, str):
        return _place(value, catalog)
    return number(value)


def _place(value: str, catalog) -> Any:
    """A hex, harbor or dock by what is printed on it; anything else as the catalog writes it."""
    named = tile_name(SimpleNamespace(catalog=catalog), value)  # type: ignore[arg-type]  # it reads only .catalog
    if isinstance(named, Text):
        return named
    return Text("scoring track") if value == "score" else value


def _harbor(key: str) -> Text | None:
    corner = CORNERS.get(key.removeprefix("harbor-")) if key.startswith("harbor-") else None
    return Text("{corner} harbor", corner=corner) if corner else None
