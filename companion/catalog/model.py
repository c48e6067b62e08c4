"""Immutable records for every printed component (docs/CATALOG.md).

The engine reads tiles and boards only through these objects, so a table's corrections (the override
file) reach every rule at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from .rewards import Bundle, Need, Reward

Coord = tuple[int, int]
AXIAL_STEPS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class Provenance:
    """Where a record's values come from: the rulebook, our assumption (never shown as printed), or a
    table that compared the record with its own copy ("checked": seen on a copy, still not a rulebook's word)."""

    source: str  # "rulebook" | "assumed" | "mixed" | "checked"
    rulebook_fields: tuple[str, ...] = ()  # mixed or checked: the fields a rulebook prints

    def of(self, name: str) -> str:
        """`name` is a field, or one entry of a list field (`penalty[7]`, `space[2].reward`)."""
        if self.source in ("mixed", "checked") and name in self.rulebook_fields:
            return "rulebook"
        return "assumed" if self.source == "mixed" else self.source


class Record(Protocol):
    """What a record of every family has: its id, and where its values come from."""

    @property
    def id(self) -> str: ...

    @property
    def prov(self) -> Provenance: ...


@dataclass(frozen=True)
class Hex:
    id: str
    name: str
    cls: str  # A / B / C
    players: str | None  # A hexes: "all", "3-4", "4"
    colour: str
    rat: str  # left / right / standing / none
    action: Reward
    repop: bool
    repop_cost: Bundle | None
    repop_citizens: tuple[Need, ...]
    repop_lieutenant: bool
    repop_vp: int
    prov: Provenance

    harbor = False

    def in_count(self, players: int) -> bool:
        """R-SETUP-1: which A hexes a player count keeps (solo keeps the 2p set)."""
        if self.cls != "A":
            return True
        n = max(players, 2)
        return self.players == "all" or (self.players == "3-4" and n >= 3) or (self.players == "4" and n == 4)


@dataclass(frozen=True)
class Harbor:
    id: str
    name: str
    action: Reward
    prov: Provenance

    harbor = True
    colour = None
    rat = "none"
    repop = False
    repop_vp = 0


@dataclass(frozen=True)
class Dock:
    id: str
    harbor: str
    spaces: int
    prov: Provenance


@dataclass(frozen=True)
class DockingTile:
    id: str
    dock: str
    prov: Provenance


@dataclass(frozen=True)
class Layout:
    """One city (M-3): where hexes, harbors and expansion spaces sit, in axial coordinates."""

    id: str
    players: tuple[int, ...]
    start: tuple[Coord, ...]
    harbors: Mapping[str, Coord]
    expansion: Mapping[str, Coord]
    ring: tuple[str, ...]
    prov: Provenance

    def walk_from(self, harbor: str) -> tuple[str, ...]:
        """R-NEXT-6: the expansion spaces met going clockwise from a harbor."""
        i = self.ring.index(harbor)
        order = self.ring[i + 1:] + self.ring[:i]
        return tuple(s for s in order if s in self.expansion)


@dataclass(frozen=True)
class WheelWindow:
    id: str
    rat: str
    colours: Mapping[str, str | None]  # colour -> citizen class, or None
    prov: Provenance


@dataclass(frozen=True)
class RoundRow:
    priority: str  # none / popularity / city / church / score
    boats: int
    fire_cost: int
    double_wheel: bool


@dataclass(frozen=True)
class RoundInfo:
    id: str  # "2p" / "3-4p"
    rounds: tuple[RoundRow, ...]
    prov: Provenance


@dataclass(frozen=True)
class PriorityTile:
    id: str
    priority: tuple[str, ...]
    prov: Provenance


@dataclass(frozen=True)
class RegisterSpace:
    reward: Reward
    vp: int


@dataclass(frozen=True)
class Register:
    """One register (R-REG-1) on its side of the board: a marker climbs its spaces, some of which pay at once."""

    id: str
    kind: str  # popularity / city / church
    side: str
    single_bar: int
    double_bar: int
    spaces: tuple[RegisterSpace, ...]
    prov: Provenance

    @property
    def last(self) -> int:
        """The top space's number: a marker there climbs no further."""
        return len(self.spaces) - 1


@dataclass(frozen=True)
class RatTable:
    """The scoreboard's rat table (R-END-2, Q-2): victory points lost by rats held at the end."""

    id: str
    penalty: tuple[int, ...]
    prov: Provenance

    def loss(self, rats: int) -> int:
        """R-END-2 / Q-2: VP lost for a number of rats; the last entry caps every higher count."""
        return self.penalty[min(rats, len(self.penalty) - 1)]


@dataclass(frozen=True)
class Boat:
    id: str
    back: int
    cargo: str
    reward: Reward
    prov: Provenance


@dataclass(frozen=True)
class Workshop:
    id: str
    era: int
    cls: str
    cost: Bundle
    needs_upgraded: bool
    output: Reward | None
    upgraded_output: Reward | None
    reward: Reward | None
    prov: Provenance


@dataclass(frozen=True)
class Improvement:
    id: str
    cost: Bundle
    output: Reward
    cls: str | None
    prov: Provenance


@dataclass(frozen=True)
class Wagon:
    id: str
    back: int
    cost: Bundle
    vp: int
    prov: Provenance


@dataclass(frozen=True)
class SoloTile:
    id: str
    hex: str
    action: str
    prov: Provenance


@dataclass(frozen=True)
class Square:
    id: str
    sector: str
    region: str
    reward: Reward
    once: bool
    prov: Provenance


@dataclass(frozen=True)
class PathSpace:
    id: str
    type: str  # T1..T4
    squares: tuple[str, ...]
    regions: tuple[str, ...]
    hexagonal: bool


@dataclass(frozen=True)
class Path:
    overseer: str
    first: PathSpace
    left: tuple[PathSpace, ...]
    right: tuple[PathSpace, ...]

    def space(self, step: int, branch: str | None) -> PathSpace | None:
        """The space at a step (1…6) of a branch; step 0 is the start space (no activation)."""
        if step <= 0:
            return None
        if step == 1:
            return self.first
        return (self.left if branch == "left" else self.right)[step - 2]


@dataclass(frozen=True)
class Board:
    id: str
    side: str
    cabins: int
    workshop_slots: int
    squares: tuple[Square, ...]
    paths: Mapping[str, Path]
    prov: Provenance
    _by_id: Mapping[str, Square] = field(default_factory=lambda: MappingProxyType({}), repr=False, compare=False)

    def square(self, sid: str) -> Square:
        return self._by_id[sid]

    def sector(self, cls: str) -> tuple[Square, ...]:
        return tuple(s for s in self.squares if s.sector == cls)

    def region(self, rid: str) -> tuple[Square, ...]:
        return tuple(s for s in self.squares if s.region == rid)


@dataclass(frozen=True)
class Track:
    """One row of a scroll board (M-16): a scroll cube climbs its levels; at the end the row scores what it
    `counts` (at most `cap` of them, 0 for no cap) at the level the cube reached."""

    id: str
    counts: str
    cap: int
    levels: tuple  # numbers, pairs or triples (docs/CATALOG.md)
    prov: Provenance

    @property
    def top(self) -> int:
        """The highest level's number (the start level is 0)."""
        return len(self.levels) - 1


@dataclass(frozen=True)
class ScrollBoard:
    """A scroll board (M-16, M-17): side a, or one of the four b boards, each with three tracks."""

    id: str
    side: str
    tracks: tuple[Track, ...]
    prov: Provenance

    def track(self, tid: str) -> Track:
        for t in self.tracks:
            if t.id == tid:
                return t
        raise KeyError(tid)


@dataclass(frozen=True)
class Catalog:
    """Every family by id. Families are read-only mappings."""

    hexes: Mapping[str, Hex]
    harbors: Mapping[str, Harbor]
    docks: Mapping[str, Dock]
    docking_tiles: Mapping[str, DockingTile]
    layouts: Mapping[str, Layout]
    wheel: tuple[WheelWindow, ...]
    round_info: Mapping[str, RoundInfo]
    priority_tiles: Mapping[str, PriorityTile]
    registers: Mapping[str, Register]
    rat_table: RatTable
    boats: Mapping[str, Boat]
    workshops: Mapping[str, Workshop]
    improvements: Mapping[str, Improvement]
    wagons: Mapping[str, Wagon]
    solo_tiles: Mapping[str, SoloTile]
    boards: Mapping[str, Board]
    scroll_boards: Mapping[str, ScrollBoard]
    origins: Mapping[tuple[str, str], str] = field(default_factory=lambda: MappingProxyType({}), repr=False,
                                                   compare=False)
    #: the records it was built from, as one canonical JSON text, and that text's sha256: what a game
    #: stores so that it keeps this catalog whatever happens to the files later
    records_json: str = field(default="", repr=False, compare=False)
    fingerprint: str = field(default="", compare=False)

    def family(self, name: str) -> Mapping[str, Record]:
        """One family's records by id, by the family's name in the files (`hex`, `wheel`, `rat_table`…)."""
        if name == "wheel":
            return MappingProxyType({w.id: w for w in self.wheel})
        if name == "rat_table":
            return MappingProxyType({self.rat_table.id: self.rat_table})
        return getattr(self, _ATTRIBUTES.get(name, name + "s"))

    def sources(self) -> dict[str, int]:
        """How many records are printed in a rulebook, mixed, assumed or checked against a copy: a
        table sees how far its catalog is from the box on its table."""
        counts = {"rulebook": 0, "mixed": 0, "assumed": 0, "checked": 0}
        for name in _ATTRIBUTES:
            for record in self.family(name).values():
                counts[record.prov.source] += 1
        return counts

    def tile(self, tid: str) -> Hex | Harbor:
        """A neighborhood or harbor hex by id."""
        return self.hexes[tid] if tid in self.hexes else self.harbors[tid]

    def layout_for(self, players: int) -> Layout:
        for layout in self.layouts.values():
            if max(players, 2) in layout.players:
                return layout
        raise KeyError(f"no city layout for {players} players")

    @staticmethod
    def side_for(players: int) -> str:
        """R-SETUP-12: solo and 2p use the 2p side of the scoreboard."""
        return "2p" if players <= 2 else "3-4p"

    def register(self, kind: str, players: int) -> Register:
        return self.registers[f"{kind}-{self.side_for(players)}"]


#: the file's family name -> the Catalog's attribute (wheel and rat_table are held differently)
_ATTRIBUTES = {
    "hex": "hexes", "harbor": "harbors", "dock": "docks", "docking_tile": "docking_tiles", "layout": "layouts",
    "wheel": "wheel", "round_info": "round_info", "priority_tile": "priority_tiles", "register": "registers",
    "rat_table": "rat_table", "boat": "boats", "workshop": "workshops", "improvement": "improvements",
    "wagon": "wagons", "solo_tile": "solo_tiles", "board": "boards", "scroll_board": "scroll_boards",
}
