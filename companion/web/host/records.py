"""The host screen's records, as its templates print them: the host's context (`HostParts`, and `HostScreen` with
its moment: routes.host_context) and the moment's kinds (moment.py). Here, since the context's makers (routes),
its readers (screen, moment) and the moment share them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

from ...engine.records import Question, Scoring
from ...engine.view import HostAsked, TableView
from ...store.put_back import LastAct
from ..put_back import LogRow, MarkedLine, PlaceMark
from ..told import Held, ToldScreens
from ..views import HostSeat, ScreenBase


class Deciding(TypedDict):
    """A seat deciding now, with its question."""

    seat: int
    name: str
    colour: str
    question: Question


class Finale(TypedDict):
    kind: Literal["finale"]
    winners: list[str]
    scoring: Scoring | None


class OpponentTurn(TypedDict):
    kind: Literal["opponent"]
    question: Question
    held: Held | None


class Draw(TypedDict):
    kind: Literal["draw"]
    question: Question
    places: list[str]


# a setup or upkeep step ("list": the checklist's name); number, step, words and places while one is left
class Step(TypedDict):
    kind: Literal["setup", "upkeep"]
    list: str
    count: int
    question: Question | None
    seats: list[Deciding]
    left: int
    done: bool
    number: NotRequired[int | None]
    step: NotRequired[Mapping[str, Any]]
    words: NotRequired[str]
    places: NotRequired[list[str]]


class Turn(TypedDict):
    kind: Literal["turn"]
    seats: list[Deciding]
    turn: int | None
    held: Held | None


class Wait(TypedDict):
    kind: Literal["wait"]
    question: Question | None
    waiting_for: list[str]
    held: Held | None


Moment = Finale | OpponentTurn | Draw | Step | Turn | Wait


class HostParts(ScreenBase, ToldScreens):
    """What the host screen's templates print, but its moment (which is drawn from these)."""

    put_back: list[MarkedLine]
    back_marks: dict[str, PlaceMark]
    log_rows: list[LogRow]
    log_shows: str
    log_most: int
    last_acts: list[LastAct]
    undo_preview: list[LastAct] | None  # the undo's confirm step: the acts it would take back
    ticked: int
    ticks: set[tuple[str, int, str]]
    table: TableView
    joins: int
    phones: str
    seats: list[HostSeat]
    waiting: list[HostSeat]
    host: HostAsked
    key: str
    news_url: str
    unreachable: str | None
    join_page: str


class HostScreen(HostParts):
    moment: Moment
    steps_later: NotRequired[bool]  # a page's first drawing leaves the closed setup checklist's steps to load
