"""The score sheet's fields as its page sends them, and back. The page is a GET form, so a filled sheet is
its own address: `sheet_data` reads the fields into the position's JSON-like data (position.py checks
it), and `sheet_query` writes a checked position as the shortest query that reopens it (the link to
share, the export's address).

    p0.name=Ada&p0.colour=red&p0.track=23&p0.laps=1&p0.city=5&p0.coins.3=1&p0.boats.silk=2
    &p0.scroll_board=b2&p0.scroll.b2.goods=3&p0.overseers.nun=4&hex.n07=1&players=3&advanced=1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast
from urllib.parse import urlencode

from ...engine.state import CLASSES
from ...names import BadName, player_name
from ...scoresheet import Refused
from ...scoresheet.fields import FIELDS, Position, seat_field
from ...words import Text

NUMBERS = ("track", "laps", "rats", "popularity", "city", "church", "fire", "major_fire", "lumber", "improvements",
           "workshops", "wagons")
COINS = ("1", "3", "5")
TICKED = ("1", "on", "true")

Entry = int | str  # a field's number, or what was typed for the position's check to refuse by name


class SheetSeat(TypedDict):
    """One player's column as the position's data (scoresheet/position.py reads it); NUMBERS are its counts."""

    name: str
    colour: NotRequired[str]  # else the seat's own colour
    track: Entry
    laps: Entry
    rats: Entry
    popularity: Entry
    city: Entry
    church: Entry
    fire: Entry
    major_fire: Entry
    lumber: Entry
    improvements: Entry
    workshops: Entry
    wagons: Entry
    coins: dict[str, Entry]  # by the coin's value
    boats: dict[str, Entry]  # by cargo
    scroll_board: NotRequired[str]  # the advanced game's board left unpicked: the position's check names it
    scroll: NotRequired[dict[str, Entry]]  # the board's tracks' levels
    overseers: dict[str, Entry]  # by class
    repopulated: list[str]  # the hexes bearing this player's repopulation tile


class SheetData(TypedDict):
    players: int
    advanced: bool
    seats: list[SheetSeat]
    opponent_popularity: NotRequired[Entry]  # solo


def players_of(args) -> int:
    """The player count the sheet is for: 1 (solo) to 4; anything else asks for 2 again."""
    raw = args.get("players", "2")
    return int(raw) if raw in ("1", "2", "3", "4") else 2


def advanced_of(args) -> bool:
    return args.get("advanced", "") in TICKED


def number(raw: str | None) -> int | str:
    """A field's number: empty is 0; anything not a whole number is passed on as typed, for the position's
    check to refuse by the field's name."""
    if raw is None or raw.strip() == "":
        return 0
    text = raw.strip()
    if text.isascii() and len(text) <= 6 and (text.isdigit() or (text[0] == "-" and text[1:].isdigit())):
        return int(text)
    return text[:12]


def sheet_data(args, catalog, blank_name) -> SheetData:
    """The position's data from the page's fields; `blank_name(i)` names a player whose name was left empty."""
    n, advanced = players_of(args), advanced_of(args)
    seats = [_seat(args, i, advanced, catalog, blank_name) for i in range(n)]
    for key in sorted(k for k in args if k.startswith("hex.")):
        raw = args.get(key, "")
        if raw == "":
            continue
        if raw not in [str(i + 1) for i in range(n)]:
            raise Refused(key, Text("Hex {hex}: the repopulation tile names player {n}, but the sheet has {players}.",
                                    hex=key[4:40], n=raw[:4], players=n))
        seats[int(raw) - 1]["repopulated"].append(key[4:])
    data: SheetData = {"players": n, "advanced": advanced, "seats": seats}
    if n == 1:
        data["opponent_popularity"] = number(args.get("opponent_popularity"))
    return data


def _seat(args, i: int, advanced: bool, catalog, blank_name) -> SheetSeat:
    p = f"p{i}."

    def entry(key: str) -> Entry:
        return number(args.get(p + key))

    seat: SheetSeat = {
        "name": checked_name(args.get(p + "name", ""), i) or blank_name(i),
        "track": entry("track"), "laps": entry("laps"), "rats": entry("rats"), "popularity": entry("popularity"),
        "city": entry("city"), "church": entry("church"), "fire": entry("fire"), "major_fire": entry("major_fire"),
        "lumber": entry("lumber"), "improvements": entry("improvements"), "workshops": entry("workshops"),
        "wagons": entry("wagons"),
        "coins": {v: entry(f"coins.{v}") for v in COINS},
        "boats": {k[len(p) + 6:]: number(args.get(k)) for k in args if k.startswith(p + "boats.")},
        "overseers": {cls: entry(f"overseers.{cls}") for cls in CLASSES},
        "repopulated": []}
    if args.get(p + "colour"):
        seat["colour"] = args.get(p + "colour")
    board = args.get(p + "scroll_board") or (None if advanced else "a")
    if board is not None:
        seat["scroll_board"] = board
        known = catalog.scroll_boards.get(board)
        seat["scroll"] = {t.id: number(args.get(f"{p}scroll.{board}.{t.id}")) for t in known.tracks} if known else {}
    return seat


def checked_name(raw, i: int) -> str:
    """A player's name as the table reads it (companion/names.py), or Refused naming the field."""
    if not isinstance(raw, str):
        return raw
    try:
        return player_name(raw)
    except BadName as exc:
        raise Refused(f"seats[{i}].name", Text("{where}: {problem}", where=seat_field(i, None, "name"),
                                               problem=exc.args[0])) from None


def sheet_query(position: Position, score: bool = True) -> str:
    """The shortest query that reopens this sheet (and its result): fields at 0 are left out."""
    pairs: list[tuple[str, int | str]] = [("players", position["players"])]
    if position["advanced"]:
        pairs.append(("advanced", 1))
    if position.get("opponent_popularity"):
        pairs.append(("opponent_popularity", position["opponent_popularity"]))
    for i, s in enumerate(position["seats"]):
        p, counts, coins = f"p{i}.", cast(Mapping[str, int], s), cast(Mapping[str, int], s["coins"])  # read by name
        pairs += [(p + "name", s["name"]), (p + "colour", s["colour"])]
        pairs += [(p + key, counts[key]) for key in NUMBERS if counts[key]]
        pairs += [(f"{p}coins.{v}", coins[v]) for v in COINS if coins[v]]
        pairs += [(f"{p}boats.{cargo}", count) for cargo, count in s["boats"].items() if count]
        if position["advanced"] or s["scroll_board"] != "a":
            pairs.append((p + "scroll_board", s["scroll_board"]))
        pairs += [(f"{p}scroll.{s['scroll_board']}.{t}", level) for t, level in s["scroll"].items() if level]
        pairs += [(f"{p}overseers.{cls}", step) for cls, step in s["overseers"].items() if step]
        pairs += [(f"hex.{tile}", i + 1) for tile in s["repopulated"]]
    if score:
        pairs.append(("score", 1))
    return urlencode(pairs)


def form_name(field: str, data: Mapping[str, Any]) -> str:
    """The page's field for a refusal's path in the position ("seats[1].scroll.coins" → "p1.scroll.b3.coins"),
    so the page can mark it."""
    if not field.startswith("seats["):
        return field
    head, _, rest = field.partition("].")
    i = int(head[6:]) if head[6:].isdigit() else 0
    seat = data["seats"][i] if i < len(data.get("seats", [])) else {}
    key = rest.split("[")[0]
    if rest == "repopulated":
        return "hexes"
    if key == "repopulated":
        k = rest[len("repopulated["):-1]
        hexes = seat.get("repopulated", [])
        return f"hex.{hexes[int(k)]}" if k.isdigit() and int(k) < len(hexes) else "hexes"
    if key.startswith("scroll.") and seat.get("scroll_board"):
        return f"p{i}.scroll.{seat['scroll_board']}.{key[7:]}"
    return f"p{i}.{key}" if key.split(".")[0] in FIELDS else f"p{i}"
