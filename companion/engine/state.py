"""The whole game at one moment, as plain serialisable data.

Nothing derived is stored where it could drift from the physical table: lieutenants owned, tiles left
and register order are computed from these fields. Tiles whose order the table does not know sit in
`hidden` lists and are drawn only when revealed (by the seeded RNG, or by the host in table-draw mode).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from .records import LogEntry, Scoring, Step
from .rulebook import SOLO_LIEUTENANTS
from .serial import Serial, copy_sharing

CLASSES = ("aristocrat", "nun", "craftsman")
TOKENS = ("coins", "lumber", "fire", "major_fire")
COLOURS = ("red", "yellow", "blue", "green")
#: one letter per colour, for colour-blind players
COLOUR_LETTERS = {"red": "R", "yellow": "Y", "blue": "B", "green": "G"}
#: the end-of-round rules new games play by (`GameState.upkeep_rules`)
UPKEEP_RULES = 1
APPEND_ONLY = ("log", "setup_steps", "report")  # a game's lists whose entries never change once written


@dataclass
class PlayerOption(Serial):
    name: str
    colour: str


@dataclass
class Options(Serial):
    """What the host chooses at the start (issue: 1–4 players, a/b boards, priority tile, draw mode)."""

    players: list[PlayerOption]
    advanced: bool = False
    priority_tile: bool = False
    draw: str = "app"  # "app": the seeded RNG reveals; "table": the host enters each reveal

    @property
    def count(self) -> int:
        return len(self.players)


@dataclass
class Citizen(Serial):
    id: int
    cls: str
    upgraded: bool = False


class Place(NamedTuple):
    """Where a lieutenant is or goes: "supply", "estate", "box", or a spot in Messina, "hex:<tile>" or
    "dock:<id>". A saved game keeps the text (`Lieutenant.where`), and distances are keyed by it;
    `Place.of` reads it and `str()` writes it, so nothing else splits the text."""

    kind: str
    at: str = ""

    @classmethod
    def hex(cls, tile: str) -> Place:
        return cls("hex", tile)

    @classmethod
    def dock(cls, dock: str) -> Place:
        return cls("dock", dock)

    @classmethod
    def space(cls, space: str) -> Place:
        """An empty space of the city (start or expansion), named where a step points at it."""
        return cls("space", space)

    @staticmethod
    def of(where: str) -> Place:
        return _parse_place(where)

    @property
    def in_messina(self) -> bool:
        return self.kind in ("hex", "dock")

    def __str__(self) -> str:
        return f"{self.kind}:{self.at}" if self.at else self.kind


@lru_cache(maxsize=512)
def _parse_place(where: str) -> Place:
    kind, _, at = where.partition(":")
    return Place(kind, at)


@dataclass
class Lieutenant(Serial):
    """One figure. `where`: a Place as text (supply, estate, box, hex:<tile>, dock:<dock>). `used`:
    stood up this round."""

    where: str
    used: bool = False

    @property
    def place(self) -> Place:
        return Place.of(self.where)


@dataclass
class Cabin(Serial):
    improvement: str | None = None
    citizen: Citizen | None = None
    space: int = 0  # 1 or 2 while a citizen is in quarantine (R-CIT-3)


@dataclass
class Workshop(Serial):
    tile: str
    citizen: Citizen | None = None
    spent: bool = False  # a late workshop turned face down after its one-time reward (R-BUILD-5)


@dataclass
class Overseer(Serial):
    step: int = 0  # 0 = start space, 6 = centre (R-OVS-3)
    branch: str | None = None  # "left" / "right", chosen at the 2nd advance
    upgraded: bool = False


@dataclass
class WagonOwned(Serial):
    tile: str
    used: bool = False  # turned face down after a repopulation this round (R-REPOP-3)


@dataclass
class Seat(Serial):
    name: str
    colour: str
    board: str
    scroll_board: str
    coins: int = 0
    lumber: int = 0
    fire: int = 0
    major_fire: int = 0
    rats: int = 0
    vp: int = 0
    lieutenants: list[Lieutenant] = field(default_factory=list)
    squares: dict[str, Citizen] = field(default_factory=dict)  # board square id -> citizen
    cabins: list[Cabin] = field(default_factory=list)
    workshops: list[Workshop] = field(default_factory=list)
    overseers: dict[str, Overseer] = field(default_factory=dict)
    scroll: dict[str, int] = field(default_factory=dict)  # track id -> level
    registers: dict[str, int] = field(default_factory=dict)  # popularity/city/church -> space index
    stamps: dict[str, int] = field(default_factory=dict)  # register/score -> arrival stamp (stack order)
    boats: list[str] = field(default_factory=list)
    wagons: list[WagonOwned] = field(default_factory=list)
    spent_squares: list[str] = field(default_factory=list)  # single-use squares already used (R-ADV-2)
    deferred: list[str] = field(default_factory=list)  # register rewards waiting for an action step (R-REG-8)

    @property
    def owned_lieutenants(self) -> int:
        """R-REG-3 / D-14: every lieutenant ever owned, boxed ones included."""
        return sum(1 for lt in self.lieutenants if lt.where != "supply")

    def citizens(self):
        """Every citizen on the estate with where it is: ("square", id), ("cabin", i), ("workshop", i)."""
        for sq, c in self.squares.items():
            yield ("square", sq), c
        for i, cab in enumerate(self.cabins):
            if cab.citizen:
                yield ("cabin", i), cab.citizen
        for i, ws in enumerate(self.workshops):
            if ws.citizen:
                yield ("workshop", i), ws.citizen


@dataclass
class Hex(Serial):
    """A placed hex (neighborhood or harbor) at a layout space."""

    tile: str
    space: str  # "s01"… start space, harbor id, or "x1"… expansion space
    cubes: int = 0
    citizens: list[Citizen] = field(default_factory=list)
    repopulated_by: int | None = None


@dataclass
class BoatAtDock(Serial):
    tile: str
    cube: bool


@dataclass
class Stack(Serial):
    """A tile stack as the table knows it: `top` (known tiles, next first), then `hidden` tiles of
    unknown order drawn from the shared `pool` (GameState.pools) when revealed, then `bottom` (tiles
    cycled under, known order). `up` is the face-up tile, if the stack shows one.

    Three improvement stacks dealt at random share one pool: drawing uniformly from the unseen tiles
    is the same chance as the random deal, and it is exactly what the host can enter in table mode."""

    pool: str
    up: str | None = None
    top: list[str] = field(default_factory=list)
    hidden: int = 0
    bottom: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        """The tiles below the face-up one (R-BUILD-4: what is left to turn up)."""
        return len(self.top) + self.hidden + len(self.bottom)

    def __bool__(self) -> bool:
        """A stack is on the table even when nothing lies below its face-up tile, so `if stack` never hides
        the last tile of a stack (issue 31)."""
        return True

    @property
    def empty(self) -> bool:
        """Nothing face up and nothing left to turn up (R-BUILD-4, R-SETUP-9/11: the stack is used up)."""
        return self.up is None and len(self) == 0


@dataclass
class WagonStack(Serial):
    """R-SETUP-10: one wagon per back number 1–5; which of the pair is unknown until it turns up."""

    up: str | None = None
    backs: list[int] = field(default_factory=list)  # back numbers still below, next first

    @property
    def empty(self) -> bool:
        """Nothing face up and no wagon left below (R-BUILD-7: the stack is used up)."""
        return self.up is None and not self.backs


@dataclass
class Opponent(Serial):
    """The solo game's virtual opponent (R-SOLO-1…9): a popularity counter, its deck of solo tiles and
    the hexes its lieutenants stand on this round."""

    colour: str
    popularity: int = 0
    stamp: int = 0
    deck: Stack | None = None  # the face-down solo tiles (pool "solo")
    aside: list[str] = field(default_factory=list)  # revealed this round: invalid or played (R-SOLO-5)
    placed: list[str] = field(default_factory=list)  # hexes with its standing lieutenants this round
    skipped: int = 0  # turns lost when no solo tile named an available hex
    moved_last: bool = False  # turns strictly alternate

    def lieutenants(self, rnd: int) -> int:
        """R-SOLO-3: 3 in rounds I–III, 4 in IV–V, 5 in VI."""
        return SOLO_LIEUTENANTS[rnd - 1]


@dataclass
class GameState(Serial):
    options: Options
    seed: int
    rng: int
    players: int
    round: int = 1
    phase: str = "setup"  # setup / play / upkeep / over
    seats: list[Seat] = field(default_factory=list)
    order: list[int] = field(default_factory=list)  # play order of this round, seat indexes
    wheel: int = 0  # index of the window showing
    supply_cubes: int = 0  # plague cubes in play but not on the map (R-SETUP-5, Q-6)
    hexes: dict[str, Hex] = field(default_factory=dict)  # tile id -> placed hex
    docks: dict[str, list[BoatAtDock]] = field(default_factory=dict)
    pools: dict[str, list[str]] = field(default_factory=dict)  # unseen tiles, by pool name (Stack)
    boats: list[Stack] = field(default_factory=list)  # the boat stack: one part per back number, 1 first
    docking: Stack | None = None  # the face-down docking pile
    docked_at: str | None = None  # docking tile drawn in this setup's step V
    expansion: Stack | None = None
    improvements: list[Stack] = field(default_factory=list)
    workshops: dict[str, Stack] = field(default_factory=dict)  # class -> the current era's stack
    wagon_stacks: list[WagonStack] = field(default_factory=list)
    opponent: Opponent | None = None
    turn: int = -1  # index in `order` of the seat taking (or who last took) a turn
    active: dict[str, Any] | None = None  # the turn in progress: seat, kind, tile/dock, lieutenant, acted
    rights: list[dict[str, Any]] = field(default_factory=list)  # register rewards usable this action step
    held: list[dict[str, Any]] = field(default_factory=list)  # production builds, resolved in play order
    stamp: int = 0  # arrival counter: a higher stamp sits higher in a stack (R-REG-7)
    together: int = 0  # while seats produce or leave quarantine at once: their arrivals' base stamp (C-9)
    next_citizen: int = 1
    lanes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # pending work (flow.py)
    log: list[LogEntry] = field(default_factory=list)
    setup_steps: list[Step] = field(default_factory=list)
    report: list[Step] = field(default_factory=list)  # the latest upkeep report
    scoring: Scoring | None = None
    decisions: int = 0  # decisions applied so far
    #: the next round's turns wait for the host's "the table is ready" (C-18); games saved before this
    #: version load without it and play on as they were recorded
    hold_upkeep: bool = False
    #: the end-of-round rules the game started with: 1, a Build or any-hex action earned in production comes
    #: before quarantine (R-EOR-4, C-4) and a citizen leaving quarantine may make room (C-21); games saved
    #: before (0) load without it and play on as they were recorded
    upkeep_rules: int = 0
    #: round I's first turn waits for the host's "the table is ready" after the setup steps (C-18, issue 25);
    #: games saved before load without it and play on as they were recorded
    hold_setup: bool = False
    #: the solo opponent's turn waits for the host to say the table has moved its pieces (C-23, issue 33): the
    #: player's next turn (or the upkeep) comes after; games saved before load without it and play on as recorded
    hold_opponent: bool = False

    _catalog: Any = field(default=None, repr=False, compare=False)  # given by whoever made or loaded the state
    _tally: Any = field(default=None, repr=False, compare=False)  # a sweep's count of what it reached (reach.py)
    _twin: Any = field(default=None, repr=False, compare=False)  # a move's table steps, as they come (twin/told.py)

    @property
    def catalog(self):
        """The components this game is played with: passed in by `new_game` or `state_from_dict`, never
        read from the disk here (the engine does no I/O; a game keeps the catalog it started with)."""
        if self._catalog is None:
            raise RuntimeError("this game state was made without its catalog (new_game / state_from_dict take it)")
        return self._catalog

    def clone(self) -> GameState:
        """An independent copy of this moment of the game, with the same catalog (through the saved form,
        which copies exactly what a restart would keep). The log, the setup steps and the upkeep report
        are only ever appended to, and an entry never changes once written: the copy has its own lists
        of the same entries."""
        copy = copy_sharing(self, APPEND_ONLY)
        copy._catalog = self._catalog
        return copy

    @property
    def side(self) -> str:
        return "2p" if self.players <= 2 else "3-4p"

    def round_row(self, rnd: int | None = None):
        return self.catalog.round_info[self.side].rounds[(rnd or self.round) - 1]

    def priority(self, rnd: int) -> str:
        """R-NEXT-4 / R-PRIO-1: the register deciding play order in a round."""
        if self.options.priority_tile:
            return self.catalog.priority_tiles[self.side].priority[rnd - 1]
        return self.round_row(rnd).priority

    def new_citizen(self, cls: str) -> Citizen:
        c = Citizen(self.next_citizen, cls)
        self.next_citizen += 1
        return c

    def next_stamp(self) -> int:
        self.stamp += 1
        return self.stamp

    def arrival(self, seat: int) -> int:
        """The stack position of a counter of `seat` arriving now (R-REG-7, C-9). While seats act at once
        (R-EOR-1) their arrivals stack in current play order, later player on top, whichever phone
        answered first."""
        if self.together:
            return self.together + self.order.index(seat)
        return self.next_stamp()

    def all_at_once(self) -> None:
        """Seats start acting at once: reserve one stamp per play position, above every earlier one."""
        self.together = self.stamp + 1
        self.stamp += len(self.order)


def state_from_dict(data: dict, catalog) -> GameState:
    """A saved game (`GameState.to_dict()`, as JSON data) again, played with `catalog`."""
    state = GameState.from_dict(data)
    state._catalog = catalog
    return state
