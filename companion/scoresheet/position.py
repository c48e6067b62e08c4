"""A score sheet's position: what lies on the table at the end of a game the companion did not track
(issue 26), read from JSON-like data — the API's body or the page's fields — and checked against the
catalog in force and the rules' counts. Whatever no game can end with is refused, naming its field.

    {"players": 3, "advanced": false, "seats": [{"name": "Ada", "colour": "red", "track": 23, "laps": 1,
      "rats": 2, "popularity": 7, "city": 5, "church": 3, "fire": 1, "major_fire": 0,
      "coins": {"1": 2, "3": 1, "5": 0}, "lumber": 1, "scroll_board": "a",
      "scroll": {"buildings": 2, "boats": 1, "repopulated": 0}, "improvements": 2, "workshops": 3,
      "wagons": 1, "boats": {"silk": 2}, "repopulated": ["n07"],
      "overseers": {"aristocrat": 4, "nun": 2, "craftsman": 0}}, …],
     "opponent_popularity": 6}                       (solo only)

A field left out counts as nothing (0, none), the colour as the seat's place in red, yellow, blue, green.
"""

from __future__ import annotations

from typing import Any, cast

from ..engine.rulebook import REPOPULATION_TILES, SCORE_LAP
from ..engine.state import CLASSES, COLOURS
from ..words import Text, joined
from .across import check_across
from .fields import (
    COIN_FIELDS,
    FIELDS,
    MOST_LAPS,
    OPPONENT,
    Coins,
    Position,
    PositionSeat,
    Refused,
    known_keys,
    mapping,
    player_word,
    seat_field,
    whole,
)
from .supply import boats_in_game, cargos

TOP_KEYS = ("players", "advanced", "seats", "opponent_popularity")
REGISTERS = ("popularity", "city", "church")
COUNTED = ("rats", "fire", "major_fire", "lumber", "workshops", "wagons")
LONGEST_NAME = 40

def read_position(data, catalog) -> Position:
    """The position with every field filled in, checked; or Refused naming the first field no game ends with."""
    if not isinstance(data, dict):
        raise Refused("", Text("A score sheet is an object with its players' seats."))
    known_keys(data, TOP_KEYS, "", Text("the sheet"))
    seats = data.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 4:
        raise Refused("seats", Text("A score sheet has 1 to 4 players (1 is the solo game)."))
    n = len(seats)
    if "players" in data and (isinstance(data["players"], bool) or data["players"] != n):
        raise Refused("players", Text("The sheet says {players} players but fills {n} seats.",
                                      players=str(data["players"])[:10], n=n))
    advanced = data.get("advanced", False)
    if not isinstance(advanced, bool):
        raise Refused("advanced", Text("Say whether the game was advanced: true or false."))
    read = [_seat(raw, i, n, advanced, catalog) for i, raw in enumerate(seats)]
    check_across(read, n, catalog)
    position: Position = {"players": n, "advanced": advanced, "seats": read}
    if n == 1:
        reg = catalog.register("popularity", 1)
        position["opponent_popularity"] = whole(data.get("opponent_popularity", 0), "opponent_popularity", OPPONENT,
                                                0, reg.last, _past_end(OPPONENT, reg))
    elif "opponent_popularity" in data:
        raise Refused("opponent_popularity", Text("Only the solo game has a virtual opponent (R-SOLO-1)."))
    return position


def _seat(raw, i: int, n: int, advanced: bool, catalog) -> PositionSeat:
    """One player's column, field by field, in the order the sheet asks for them."""
    field = f"seats[{i}]"
    raw = mapping(raw, field, player_word(i))
    known_keys(raw, FIELDS, field, player_word(i))
    name = _name(raw.get("name"), i, field)

    def at(key: str, detail=None):
        return seat_field(i, name, key, detail)

    colour = raw.get("colour", COLOURS[i])
    if colour not in COLOURS:
        raise Refused(f"{field}.colour", Text("{where}: red, yellow, blue or green.", where=at("colour")))
    seat: dict[str, Any] = {"name": name, "colour": colour,
            "track": whole(raw.get("track", 0), f"{field}.track", at("track"), 0, SCORE_LAP - 1),
            "laps": whole(raw.get("laps", 0), f"{field}.laps", at("laps"), 0, MOST_LAPS)}
    for kind in REGISTERS:
        reg = catalog.register(kind, n)
        seat[kind] = whole(raw.get(kind, 0), f"{field}.{kind}", at(kind), 0, reg.last, _past_end(at(kind), reg))
    for key in COUNTED:
        seat[key] = whole(raw.get(key, 0), f"{field}.{key}", at(key))
    seat["coins"] = _coins(raw.get("coins"), field, at)
    board = catalog.boards.get(f"b-{colour}" if advanced else "a") or catalog.boards["a"]
    seat["improvements"] = whole(raw.get("improvements", 0), f"{field}.improvements", at("improvements"), 0,
                                 board.cabins, Text("{where}: a player board has {n} quarantine cabins, each with room "
                                                    "for one improvement.", where=at("improvements"), n=board.cabins))
    seat["scroll_board"], seat["scroll"] = _scroll(raw, i, field, at, advanced, catalog)
    seat["boats"] = _boats(raw.get("boats"), field, at, n, catalog)
    seat["repopulated"] = _hexes(raw.get("repopulated"), field, at, n, catalog)
    seat["overseers"] = _overseers(raw.get("overseers"), field, at, board)
    return cast(PositionSeat, seat)  # every field filled in above, the registers and counters by name


def _name(value, i: int, field: str) -> str:
    if value is None:
        return Text("Player {n}", n=i + 1)
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > LONGEST_NAME:
        raise Refused(f"{field}.name", Text("{where}: a name of 1 to {most} characters.",
                                            where=seat_field(i, None, "name"), most=LONGEST_NAME))
    return value.strip()


def _past_end(where, reg) -> Text:
    return Text("{where}: the register's spaces go from 0 (its start) to {last}.", where=where, last=reg.last)


def _coins(value, field: str, at) -> Coins:
    """Coins by the value printed on them (1, 3, 5); they score by value (R-SCORE-5, Q-21)."""
    data = mapping(value, f"{field}.coins", at("coins"))
    known_keys(data, COIN_FIELDS, f"{field}.coins", at("coins"))
    return cast(Coins, {v: whole(data.get(v, 0), f"{field}.coins.{v}", at("coins", COIN_FIELDS[v]))
                        for v in COIN_FIELDS})


def _scroll(raw: dict, i: int, field: str, at, advanced: bool, catalog) -> tuple[str, dict[str, int]]:
    """The scroll board — side a in the standard game (R-SETUP-14, D-11); in the advanced game a b board,
    or side a mixed in (R-ADV-1 allows it) — and the level of each of its tracks' cubes, 0 at the start
    (Q-14)."""
    b_boards = sorted(k for k, b in catalog.scroll_boards.items() if b.side == "b")
    bid = raw.get("scroll_board", b_boards[i % len(b_boards)] if advanced and b_boards else "a")
    board = catalog.scroll_boards.get(bid) if isinstance(bid, str) else None
    if board is None:
        raise Refused(f"{field}.scroll_board", Text("{where}: no such scroll board.", where=at("scroll_board")))
    if board.side != "a" and not advanced:
        raise Refused(f"{field}.scroll_board", Text("{where}: the standard game plays side a of the scroll board "
                                                    "(R-SETUP-14).", where=at("scroll_board")))
    data = mapping(raw.get("scroll"), f"{field}.scroll", at("scroll"))
    known_keys(data, [t.id for t in board.tracks], f"{field}.scroll", at("scroll"))
    levels = {}
    for track in board.tracks:
        where = at("scroll", Text("scroll track: {track}", track=track.id))
        levels[track.id] = whole(data.get(track.id, 0), f"{field}.scroll.{track.id}", where, 0, track.top,
                                 Text("{where}: the track's levels go from 0 (its start) to {top}.", where=where,
                                      top=track.top))
    return bid, levels


def _boats(value, field: str, at, n: int, catalog) -> dict[str, int]:
    """Boat tiles by cargo (R-COMP-4): the goods track of the advanced game counts one cargo (R-ADV-4). The
    order given is kept: a tie for the most common cargo names the first (engine/scoring.py)."""
    data = mapping(value, f"{field}.boats", at("boats"))
    printed, playing = cargos(catalog), {b.cargo for b in boats_in_game(catalog, n)}
    out = {}
    for cargo, count in data.items():
        where = at("boats", Text("boats carrying {cargo}", cargo=str(cargo)[:20]))
        if cargo not in printed:
            raise Refused(f"{field}.boats.{cargo}", Text("{where}: the boats carry {cargos}.", where=where,
                                                       cargos=joined(printed)))
        out[cargo] = whole(count, f"{field}.boats.{cargo}", where)
        if out[cargo] and cargo not in playing:
            raise Refused(f"{field}.boats.{cargo}", Text("{where}: a game of 1 or 2 players returns these boats to the "
                                                       "box (R-SETUP-8).", where=where))
    return {cargo: count for cargo, count in out.items() if count}


def _hexes(value, field: str, at, n: int, catalog) -> list[str]:
    """The neighborhood hexes carrying this player's repopulation tiles (R-REPOP-2, R-COMP-3), by id: any
    the player count may place (C-20)."""
    where = at("repopulated")
    if value is None:
        return []
    if not isinstance(value, list):
        raise Refused(f"{field}.repopulated", Text("{where}: expected a list of hexes.", where=where))
    if len(value) > REPOPULATION_TILES:
        raise Refused(f"{field}.repopulated", Text("{where}: at most {most}, as each player has {most} repopulation "
                                                   "tiles (R-COMP-3).", where=where, most=REPOPULATION_TILES))
    out = []
    for k, tid in enumerate(value):
        h = catalog.hexes.get(tid) if isinstance(tid, str) else None
        here = f"{field}.repopulated[{k}]"
        if h is None:
            raise Refused(here, Text("{where}: no such neighborhood hex.", where=where))
        if not h.repop:
            raise Refused(here, Text("{where}: hex {hex} prints no requirements, so it is never repopulated "
                                     "(R-REPOP-2).", where=where, hex=tid))
        if not h.in_count(n):
            raise Refused(here, Text("{where}: hex {hex} is not in a game of {n} players (R-SETUP-1).", where=where,
                                     hex=tid, n=n))
        if tid in out:
            raise Refused(here, Text("{where}: hex {hex} is listed twice.", where=where, hex=tid))
        out.append(tid)
    return sorted(out)


def _overseers(value, field: str, at, board) -> dict[str, int]:
    """Each overseer's step on its path, 0 on its start space, the centre last (R-OVS-3)."""
    data = mapping(value, f"{field}.overseers", at("overseers"))
    known_keys(data, CLASSES, f"{field}.overseers", at("overseers"))
    out = {}
    for cls in CLASSES:
        most = 1 + len(board.paths[cls].left)
        where = at("overseers", Text("{cls} overseer", cls=cls))
        out[cls] = whole(data.get(cls, 0), f"{field}.overseers.{cls}", where, 0, most,
                         Text("{where}: a path has {most} steps after the start space (R-OVS-3).", where=where,
                              most=most))
    return out
