"""The records engine/view.py makes for the screens: a seat's phone (`SeatView`), the host's table screen
(`TableView`) and their parts, as TypedDicts (plain JSON data a type checker holds; view.py's docstring tells
what each field means)."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from .records import LogEntry, MenuOption, Question, StoredText


class Upkeep(TypedDict):
    """Between two rounds (`between_rounds`)."""

    round: int
    final: bool
    ready: bool


class SetupMoment(TypedDict):
    """While the table sets up the game (C-18): whether only the host's tap still holds round I."""

    ready: bool


class Moment(TypedDict):
    """Where the game is, shown alike on every screen."""

    phase: str
    round: int
    over: bool
    upkeep: Upkeep | None
    setup: SetupMoment | None
    table_round: int


class Who(TypedDict):
    """A seat as its player is named and marked."""

    seat: int
    name: str
    colour: str
    letter: str


class InOrder(Who):
    turn: bool


class SeatRow(Who):
    """A seat on the table screen."""

    vp: int
    registers: dict[str, int]
    rats: int
    lieutenants_left: int
    repopulation_tiles_left: int
    waiting: bool


class Target(TypedDict):
    """A spot on the map a tap can choose: its cheapest option's index on the menu and cost."""

    choice: int
    cost: NotRequired[str | None]
    cost_msg: NotRequired[str]
    cost_args: NotRequired[dict[str, Any]]


class Boat(TypedDict):
    tile: str
    cargo: str


class Wagon(TypedDict):
    tile: str
    used: bool


class Lieutenant(TypedDict):
    where: str
    kind: str
    at: str | None
    name: str | None
    used: bool


class ScrollTrack(TypedDict):
    track: str
    level: int
    top: int


class Estate(TypedDict):
    """A seat's estate board and what lies on it."""

    coins: int
    lumber: int
    fire: int
    major_fire: int
    rats: int
    vp: int
    boats: list[Boat]
    wagons: list[Wagon]
    lieutenants: list[Lieutenant]
    repopulation_tiles_left: int
    registers: dict[str, int]
    scroll: list[ScrollTrack]
    deferred: list[str]


class Takes(TypedDict):
    """What a seat takes from the box at setup."""

    colour: str | None
    letter: str | None
    side: str
    board: str | None
    scroll_board: str | None
    pieces: list[StoredText]
    start: list[StoredText]


class Score(TypedDict):
    total: int
    rank: int


class Opponent(TypedDict):
    """The solo opponent (C-23)."""

    colour: str
    letter: str
    popularity: int
    lieutenants_placed: int
    lieutenants: int
    moves: list[LogEntry]  # this round's log entries of its turns


class HostAsked(TypedDict):
    """The host's own question, as a seat's is shown."""

    question: Question | None
    decision: int | None
    menu: list[MenuOption]


class RoundRow(TypedDict):
    fire_cost: int
    boats: int
    double_wheel: bool


class SeatView(Moment):
    """What a seat's phone shows (`seat_view`; the fields are told in this module's docstring)."""

    seat: int
    name: str
    colour: str
    letter: str
    turn: int | None
    your_turn: bool
    question: Question | None
    decision: int | None
    menu: list[MenuOption]
    targets: dict[str, Target]
    waiting_for: list[str]
    estate: Estate
    score: Score | None
    opponent: Opponent | None
    takes: Takes | None


class TableView(Moment):
    """What the host's table screen shows (`table_view`)."""

    turn: int | None
    waiting_for: list[str]
    questions: list[Question]
    round_row: RoundRow
    supply_cubes: int
    order: list[InOrder]
    seats: list[SeatRow]
    opponent: Opponent | None
    setup_open: bool
    phones_open: bool
    winners: list[str]
    host: HostAsked
