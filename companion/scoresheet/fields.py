"""The score sheet's fields by name, in the words a player reads, and how one entry is read: a whole
number within what the table can hold, or a refusal that names the field. The position they fill in is
typed here too (`Position`, `PositionSeat`): read_position and position_of make it, across and table read it.

A refusal is a `Refused` carrying the field's path in the position ("seats[1].rats") and a message made
of templates (companion/words.py), so the page shows it in the reader's language and marks the field.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..words import Text

#: Tokens, rats and coins of one kind are unlimited (R-COMP-3: the table makes up what runs out), so no
#: rule caps them; the sheet stops at 99 of a kind, past what any game gives, to catch a slipped finger (C-19).
MOST = 99
#: Times a counter passed the 50 space of the score track (R-SCORE-7): 19 laps is 999 VP, past any game.
MOST_LAPS = 19

#: every field of a player's column, as the sheet names it
FIELDS = {
    "name": Text("name"),
    "colour": Text("colour"),
    "track": Text("space on the score track"),
    "laps": Text("times past 50 on the score track"),
    "rats": Text("rats"),
    "popularity": Text("popularity register"),
    "city": Text("city register"),
    "church": Text("church register"),
    "fire": Text("fire"),
    "major_fire": Text("major fire"),
    "coins": Text("coins"),
    "lumber": Text("lumber"),
    "scroll_board": Text("scroll board"),
    "scroll": Text("scroll tracks"),
    "improvements": Text("cabin improvements"),
    "workshops": Text("workshops"),
    "wagons": Text("wagons"),
    "boats": Text("boats"),
    "repopulated": Text("repopulated hexes"),
    "overseers": Text("overseers"),
}
COIN_FIELDS = {"1": Text("coins of 1"), "3": Text("coins of 3"), "5": Text("coins of 5")}
OPPONENT = Text("the opponent's popularity register")


class Refused(ValueError):
    """An entry no game ends with, or one the sheet cannot read: `field` is its path in the position
    (`seats[0].rats`, `seats[1].scroll.coins`, `opponent_popularity`, "" for the whole), `message` says why
    and names the field, in templates."""

    def __init__(self, field: str, message: Text):
        super().__init__(str(message))
        self.field, self.message = field, message


def player_word(seat: int, name: str | None = None) -> str:
    """A player as a message names them: by the name given, else by their place on the sheet."""
    return name if name else Text("player {n}", n=seat + 1)


def seat_field(seat: int, name: str | None, key: str, detail: Text | None = None) -> Text:
    """"Ada, rats", "player 2, scroll track: coins": who and which field, for a message."""
    what = detail if detail is not None else FIELDS[key]
    return Text("{player}, {field}", player=player_word(seat, name), field=what)


def whole(value, field: str, where: Text, least: int = 0, most: int = MOST, too_many: Text | None = None) -> int:
    """A whole number from `least` to `most`; `too_many` says what lies past the end (a register's last
    space, a track's top level) in place of "at most"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(field, Text("{where}: enter a whole number.", where=where))
    if value < least:
        raise Refused(field, Text("{where}: not below {least}.", where=where, least=least))
    if value > most:
        raise Refused(field, too_many if too_many is not None else
                      Text("{where}: at most {most}.", where=where, most=most))
    return value


def known_keys(data: dict, keys, field: str, where: str) -> None:
    """A script's typo is refused by name, never silently scored as 0."""
    for key in data:
        if key not in keys:
            raise Refused(f"{field}.{key}" if field else str(key),
                          Text("{where}: the sheet has no field {key}.", where=where, key=str(key)[:40]))


def mapping(value, field: str, where: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Refused(field, Text("{where}: expected an object of fields.", where=where))
    return value


#: coins by the value printed on them ("1", "3", "5")
Coins = TypedDict("Coins", {"1": int, "3": int, "5": int})


class PositionSeat(TypedDict):
    """One player's column of the sheet: scoring track and laps, registers, counters, coins, scroll board and
    its levels (by track), estate counts, boats by cargo, repopulated hexes, overseers' steps (by class)."""

    name: str
    colour: str
    track: int
    laps: int
    rats: int
    popularity: int
    city: int
    church: int
    fire: int
    major_fire: int
    coins: Coins
    lumber: int
    scroll_board: str
    scroll: dict[str, int]
    improvements: int
    workshops: int
    wagons: int
    boats: dict[str, int]
    repopulated: list[str]
    overseers: dict[str, int]


class Position(TypedDict):
    """What lies on the table at the end of a game, every field filled in (position.py shows one)."""

    players: int
    advanced: bool
    seats: list[PositionSeat]
    opponent_popularity: NotRequired[int]
