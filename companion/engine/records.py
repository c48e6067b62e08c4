"""The records the engine hands to screens, shared by several modules: a menu option, a question, a picture.

They are TypedDicts: plain JSON data a type checker can hold (saved games, templates and the wire see the
same dicts as before). A text field (`label`, `reason`, `cost`, `prompt`, `lapses`) may carry its template
beside it (`label_msg`, `label_args`, `label_plural`: words.put_text)."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from .kinds import Action, DecisionKind, Who


class Face(TypedDict):
    """A printed component as a picture: its catalog family ("boat") and id ("boat-3")."""

    family: str
    id: str


class StoredText(TypedDict):
    """A text on its own (a setup step's piece, a log line's words): the English, and its template when it has
    one (words.put_text under the key "text")."""

    text: str
    msg: NotRequired[str]
    args: NotRequired[dict[str, Any]]
    plural: NotRequired[str]


class Option(TypedDict):
    """One entry of a menu (flow.option): the value a pick sends back, its words, and whether it is open now;
    greyed with its `reason` and `rule`; `cost`, `place` on the map, `face` (the component it stands for) and
    `group` (its kind in a long menu) when it has them."""

    value: Any
    label: str
    label_msg: NotRequired[str]
    label_args: NotRequired[dict[str, Any]]
    label_plural: NotRequired[str]
    available: bool
    group: NotRequired[str]
    place: NotRequired[str]
    face: NotRequired[Face]
    cost: NotRequired[str | None]
    cost_msg: NotRequired[str]
    cost_args: NotRequired[dict[str, Any]]
    cost_plural: NotRequired[str]
    reason: NotRequired[str | None]
    reason_msg: NotRequired[str]
    reason_args: NotRequired[dict[str, Any]]
    reason_plural: NotRequired[str]
    rule: NotRequired[str | None]
    lapses: NotRequired[str]  # "End your turn": the earned actions that would lapse unused (R-TURN-ACT-2)
    lapses_msg: NotRequired[str]
    lapses_args: NotRequired[dict[str, Any]]
    lapses_plural: NotRequired[str]


class MenuOption(Option):
    """An option as a screen shows it: with `choice`, its index on the menu (what a tap sends back)."""

    choice: int


class PlayableOption(Option):
    """An option as `legal_actions` lists it: with the `action` that picking it sends to `apply`."""

    action: Action


class Question(TypedDict):
    """An open decision as its screens ask it (flow.question): who answers, its id and kind, the prompt and
    rule; `place` (the spot it names) and `places` (what the host's map marks) when it has them."""

    who: Who
    id: int
    kind: DecisionKind
    prompt: str
    prompt_msg: NotRequired[str]
    prompt_args: NotRequired[dict[str, Any]]
    prompt_plural: NotRequired[str]
    rule: str | None
    place: NotRequired[str]
    places: NotRequired[list[str]]


class ScoreLine(TypedDict):
    """One line of a seat's final scoring (scoring._line): what it counts, its points, rule and detail."""

    key: str
    label: str
    label_msg: NotRequired[str]
    label_args: NotRequired[dict[str, Any]]
    label_plural: NotRequired[str]
    points: int
    rule: str
    detail: str
    detail_msg: NotRequired[str]
    detail_args: NotRequired[dict[str, Any]]
    detail_plural: NotRequired[str]


class SeatScore(TypedDict):
    """A seat's final scoring: its lines, then (once every seat is counted) its total and rank."""

    seat: int
    name: str
    colour: str
    lines: list[ScoreLine]
    popularity_after_rats: int
    repopulated: list[str]
    repop_vp: int
    total: NotRequired[int]
    rank: NotRequired[int]


class Scoring(TypedDict):
    """The game's final scoring (scoring.score, kept in the state): every seat's, the winners (seat numbers)
    and how a tie was broken; `target` a good solo score (R-SOLO-10)."""

    seats: list[SeatScore]
    winners: list[int]
    tiebreak: str | None  # None: no tie on total
    tiebreak_msg: NotRequired[str]
    tiebreak_args: NotRequired[dict[str, Any]]
    tiebreak_plural: NotRequired[str]
    target: NotRequired[int]


class LogData(TypedDict, total=False):
    """What a log entry or a table step says beside its words: `table` (a step the table carries out),
    `places` it marks on the map, and the pieces it is about."""

    table: bool
    places: list[str]
    tile: str
    space: str
    window: str
    order: list[int]
    boat: str
    dock: str
    hexes: list[str]
    cls: str
    deck: int
    seat: int
    opponent: bool
    hex: str
    register: str
    due: list[str]


class Said(StoredText):
    """Words the game says to the table, with their rule and what else they say (`data`): a log entry's, a step's."""

    rule: NotRequired[str]
    data: NotRequired[LogData]


class LogEntry(Said):
    """One entry of the game's log (events.note): its number and the round, besides its words."""

    n: int
    round: int


class Step(Said):
    """A step the table carries out (events.instruct), kept in the setup steps or the upkeep report: its number
    there, and `mark`, the number the host's map shows at its places."""

    step: int
    mark: NotRequired[str]
