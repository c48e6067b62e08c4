"""What the players' columns must agree on together: one colour and one name each, one copy of each b
scroll board, one repopulation tile per hex, and no more tiles of a kind than the game has (R-COMP-2)."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from ..words import Text
from .fields import PositionSeat, Refused, seat_field
from .supply import boats_in_game, wagons_in_game


def check_across(seats: list[PositionSeat], n: int, catalog) -> None:
    """Refuse the first field (in sheet order) that two players cannot both have, or that takes the game
    past the tiles it has."""
    _once_each(seats, "colour", lambda s: s["colour"], lambda where, other: Text(
        "{where}: {other} plays that colour already; each player has their own (R-SETUP-14).", where=where,
        other=other))
    _once_each(seats, "name", lambda s: s["name"].casefold(), lambda where, other: Text(
        "{where}: {other} has that name already; give each player a different name.", where=where, other=other))
    _once_each(seats, "scroll_board", lambda s: s["scroll_board"] if s["scroll_board"] != "a" else None,
               lambda where, other: Text("{where}: {other} has that scroll board already; there is one of each b "
                                         "board (R-ADV-1).", where=where, other=other))
    _one_tile_per_hex(seats)
    _within(seats, "workshops", len(catalog.workshops), lambda where, most, count: Text(
        "{where}: the game has {most} workshops, and the sheet counts {count} in all (R-COMP-2).", where=where,
        most=most, count=count))
    _within(seats, "improvements", len(catalog.improvements), lambda where, most, count: Text(
        "{where}: the game has {most} cabin improvements, and the sheet counts {count} in all (R-COMP-2).",
        where=where, most=most, count=count))
    _within(seats, "wagons", len(wagons_in_game(catalog, n)), lambda where, most, count: Text(
        "{where}: a game of {players} players has {most} wagons, and the sheet counts {count} in all "
        "(R-SETUP-10).", where=where, players=n, most=most, count=count))
    _boats_within(seats, n, catalog)


def _once_each(seats: list[PositionSeat], key: str, value, message) -> None:
    first: dict = {}
    for i, s in enumerate(seats):
        v = value(s)
        if v is None:
            continue
        if v in first:
            raise Refused(f"seats[{i}].{key}", message(seat_field(i, s["name"], key), seats[first[v]]["name"]))
        first[v] = i


def _one_tile_per_hex(seats: list[PositionSeat]) -> None:
    """R-REPOP-2: an already repopulated hex cannot be repopulated again."""
    holder: dict[str, int] = {}
    for i, s in enumerate(seats):
        for k, tid in enumerate(s["repopulated"]):
            if tid in holder:
                raise Refused(f"seats[{i}].repopulated[{k}]",
                              Text("{where}: hex {hex} carries {other}'s repopulation tile already; a hex is "
                                   "repopulated once (R-REPOP-2).", where=seat_field(i, s["name"], "repopulated"),
                                   hex=tid, other=seats[holder[tid]]["name"]))
            holder[tid] = i


def _within(seats: list[PositionSeat], key: Literal["workshops", "improvements", "wagons"], most: int,
            message) -> None:
    total = 0
    for i, s in enumerate(seats):
        total += s[key]
        if total > most:
            raise Refused(f"seats[{i}].{key}", message(seat_field(i, s["name"], key), most,
                                                       sum(x[key] for x in seats)))


def _boats_within(seats: list[PositionSeat], n: int, catalog) -> None:
    """R-SETUP-8: the boats of each cargo the game has (2p and solo keep none carrying stones)."""
    printed = Counter(b.cargo for b in boats_in_game(catalog, n))
    counted: Counter = Counter()
    for i, s in enumerate(seats):
        for cargo, count in s["boats"].items():
            counted[cargo] += count
            if counted[cargo] > printed[cargo]:
                where = seat_field(i, s["name"], "boats", Text("boats carrying {cargo}", cargo=cargo))
                raise Refused(f"seats[{i}].boats.{cargo}",
                              Text("{where}: the game has {most} of these boats, and the sheet counts {count} in all "
                                   "(R-SETUP-8).", where=where, most=printed[cargo],
                                   count=sum(x["boats"].get(cargo, 0) for x in seats)))
