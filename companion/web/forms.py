"""What a request says, read once: the new-game options (from the host's form or the API's JSON) and the
fields of a tap. A bad field is refused here with a message a person can act on (400), before the store
is asked anything."""

from __future__ import annotations

from collections.abc import Mapping

from flask import abort, request

from ..engine.state import Options, PlayerOption
from ..names import BadName, player_name, same_names
from ..words import Text

MOST_PLAYERS = 4
TICKED = ("on", "true", "1")  # what a checkbox or a script sends for "yes"


def form_options(form: Mapping) -> tuple[Options, int | None]:
    """The host's new-game form: rows name0/colour0 … name3/colour3 (empty rows are skipped), seed, draw,
    and the advanced and priority_tile boxes."""
    extra = [k for k in form if k.startswith("name") and k[4:].isdecimal() and int(k[4:]) >= MOST_PLAYERS]
    if extra:
        abort(400, Text("A game has at most 4 players."))
    rows = [(form.get(f"name{i}") or "", form.get(f"colour{i}") or "") for i in range(MOST_PLAYERS)]
    return _options(rows, form.get("seed") or "", form.get("draw") or "app",
                    advanced=form.get("advanced") in TICKED, priority_tile=form.get("priority_tile") in TICKED)


def json_options(data: dict) -> tuple[Options, int | None]:
    """The API's new game: {"players": [{"name", "colour"}, …1 to 4], "seed", "draw", "advanced",
    "priority_tile"}; every listed player needs a name."""
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players) \
            or not 1 <= len(players) <= MOST_PLAYERS:
        abort(400, Text("players must be a list of 1 to 4 objects with a name and a colour."))
    if not all(isinstance(p.get("name"), str) and isinstance(p.get("colour"), str) for p in players):
        abort(400, Text("every player needs a name and a colour, both texts."))
    rows = [(p["name"], p["colour"]) for p in players]
    seed_raw = str(data["seed"]) if data.get("seed") is not None else ""
    opts, seed = _options(rows, seed_raw, str(data.get("draw", "app")) or "app", advanced=bool(data.get("advanced")),
                          priority_tile=bool(data.get("priority_tile")))
    if len(opts.players) != len(players):
        abort(400, Text("every player needs a name."))
    return opts, seed


def _options(rows: list[tuple[str, str]], seed_raw: str, draw: str, advanced: bool,
             priority_tile: bool) -> tuple[Options, int | None]:
    """1–4 players with distinct names (companion/names.py) and their colours, and a seed that is a whole number."""
    try:
        names = [player_name(name) for name, _ in rows]
    except BadName as exc:
        abort(400, exc.args[0])  # the Text it was raised with, translated where shown
    players = [PlayerOption(n, colour) for n, (_, colour) in zip(names, rows, strict=False) if n]
    if not players:
        abort(400, Text("Enter at least one player's name."))
    twice = same_names(names)
    if twice:  # by row number: error pages show their message as it is, so it never carries typed text
        abort(400, Text("Players {a} and {b} have the same name. Give each player a different name.",
                        a=twice[0] + 1, b=twice[1] + 1))
    seed_raw = seed_raw.strip()
    seed = None
    if seed_raw:
        if not (seed_raw.isascii() and seed_raw.isdigit()) or len(seed_raw) > 12:
            abort(400, Text("The seed must be a whole number."))
        seed = int(seed_raw)
    return Options(players, advanced=advanced, priority_tile=priority_tile, draw=draw), seed


def int_field(name: str, source=None) -> int:
    source = request.form if source is None else source
    raw = source.get(name)
    try:
        return int(raw)
    except (TypeError, ValueError):
        abort(400, Text("The form is missing a valid '{name}'.", name=name))


def tap_fields() -> tuple[int, int, int]:
    """A tap's form: the version and question the screen showed, and the option's place on its menu."""
    return int_field("version"), int_field("decision"), int_field("choice")


def json_tap(data: dict) -> tuple[int, object, int]:
    """A tap by the API: {"version": V, "choice": n} and, to refuse an answer to an older question,
    "decision" (left out: whichever question is open)."""
    version, choice = data.get("version"), data.get("choice")
    if not isinstance(version, int) or isinstance(version, bool) or not isinstance(choice, int) \
            or isinstance(choice, bool):
        abort(400, Text("Send {\"version\": <int>, \"choice\": <menu index>}."))
    decision = data.get("decision")
    if "decision" in data and (not isinstance(decision, int) or isinstance(decision, bool)):
        decision = -1  # names no question: refused as an answer to an older one, like any other id
    return version, decision, choice
