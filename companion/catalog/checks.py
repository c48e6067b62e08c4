"""The catalog's checks across families, made once every record is built: one small function per
constraint, each naming the rule it keeps, so a table's correction that breaks the game's setup is
refused with a reason instead of failing mid-game.

Every problem names where to look: the record's own file (the override's, if the record came from
there), or for a family-wide problem, the override's records of that family when it changed any.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from ..words import Text
from . import model as m
from .families import COUNTS, file_of
from .problems import in_family, in_record
from .rewards import CLASSES

SIDES = (("2p", 6), ("3-4p", 9))  # each scoreboard side and the boats in play on it (R-SETUP-8)
KINDS = ("popularity", "city", "church")


class Findings:
    """The problems found so far, each placed where a table would look for it."""

    def __init__(self, catalog: m.Catalog):
        self.origins = catalog.origins
        self.problems: list[Text] = []

    def family(self, name: str, problem: Text) -> None:
        """A problem with a family as a whole: the override's changed records of it, else its file."""
        default = file_of(name)
        changed = sorted(rid for (fam, rid), origin in self.origins.items() if fam == name and origin != default)
        if changed:
            self.problems.append(in_record(self.origins[(name, changed[0])], name, ", ".join(changed), problem))
        else:
            self.problems.append(in_family(default, name, problem))

    def record(self, family: str, rid: str, problem: Text) -> None:
        """A problem with one record, in the file it came from."""
        self.problems.append(in_record(self.origins.get((family, rid), file_of(family)), family, rid, problem))


def record_counts(ids: Mapping[str, set[str]]) -> list[Text]:
    """R-COMP-2: each family has as many records as the box has pieces (checked before anything else,
    on the ids alone)."""
    return [in_family(file_of(family), family, Text("{n} records, R-COMP needs {want}", n=len(ids[family]), want=want))
            for family, want in COUNTS.items() if len(ids[family]) != want]


def cross_checks(c: m.Catalog) -> list[Text]:
    """Every problem the built catalog has across its families, in the order of CHECKS."""
    say = Findings(c)
    for check in CHECKS:
        check(c, say)
    return say.problems


def two_b_hexes(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-2/3: one B hex starts in the city, the other tops the expansion stack."""
    n = sum(1 for h in c.hexes.values() if h.cls == "B")
    if n != 2:
        say.family("hex", Text("{n} B hexes, R-SETUP-2/3 needs exactly 2", n=n))


def enough_c_hexes(c: m.Catalog, say: Findings) -> None:
    """R-NEXT-6: five rounds add a hex; the B hex comes first, so at least 4 C hexes follow it."""
    n = sum(1 for h in c.hexes.values() if h.cls == "C")
    if n < 4:
        say.family("hex", Text("{n} C hexes, 5 expansions (R-NEXT-6) need at least 4", n=n))


def docks_at_known_harbors(c: m.Catalog, say: Findings) -> None:
    """M-4: each dock lies beside a harbor of the catalog."""
    for d in c.docks.values():
        if d.harbor not in c.harbors:
            say.record("dock", d.id, Text("unknown harbor {harbor}", harbor=d.harbor))


def one_tile_per_dock(c: m.Catalog, say: Findings) -> None:
    """M-4: each docking tile names a dock, and no dock is named twice (a boat's dock is drawn)."""
    named = Counter(t.dock for t in c.docking_tiles.values())
    for t in c.docking_tiles.values():
        if t.dock not in c.docks:
            say.record("docking_tile", t.id, Text("unknown dock {dock}", dock=t.dock))
        elif named[t.dock] > 1:
            say.record("docking_tile", t.id, Text("dock {dock} is named by {n} tiles; each dock by one (M-4)",
                                                  dock=t.dock,
                                                  n=named[t.dock]))


def one_dock_per_harbor(c: m.Catalog, say: Findings) -> None:
    """M-4: four docks, one per harbor."""
    if len({d.harbor for d in c.docks.values()}) != 4:
        say.family("dock", Text("each harbor needs exactly one dock (M-4)"))


def layout_harbors_known(c: m.Catalog, say: Findings) -> None:
    """M-3: a city layout places the catalog's harbors."""
    for lay in c.layouts.values():
        for h in lay.harbors:
            if h not in c.harbors:
                say.record("layout", lay.id, Text("unknown harbor {harbor}", harbor=h))


def start_spaces_fit(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-2: a layout has one start space for each A hex its player counts keep, plus the B hex."""
    for lay in c.layouts.values():
        for n in lay.players:
            kept = sum(1 for h in c.hexes.values() if h.cls == "A" and h.in_count(n))
            if kept + 1 != len(lay.start):
                say.record("layout", lay.id, Text("{start} start spaces but {n} players keep {kept} A hexes + 1 B "
                                                  "(R-SETUP-2)", start=len(lay.start), n=n, kept=kept))


def a_city_for_each_count(c: m.Catalog, say: Findings) -> None:
    """M-3: a layout for 2, 3 and 4 players (solo plays on the 2-player city)."""
    for n in (2, 3, 4):
        if not any(n in lay.players for lay in c.layouts.values()):
            say.family("layout", Text("no city for {n} players", n=n))


def three_stone_boats(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-8: 2p removes the 3 boats with precious stones, keeping 6 of 9."""
    stones = sum(1 for b in c.boats.values() if b.cargo == "stones")
    if stones != 3:
        say.family("boat", Text("{n} boats carry precious stones; 2p keeps 6 of 9 (R-SETUP-8)", n=stones))


def round_tables(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-12, M-5: each scoreboard side has its round info table, and its rounds bring no more
    boats than that side has in play (R-SETUP-8)."""
    for side, boats in SIDES:
        info = c.round_info.get(side)
        if info is None:
            say.family("round_info", Text("no table for side {side}", side=side))
        elif (arriving := sum(r.boats for r in info.rounds)) > boats:
            say.record("round_info", side, Text("{arriving} boats arrive but only {boats} are in play",
                                                arriving=arriving,
                                                boats=boats))


def priority_columns(c: m.Catalog, say: Findings) -> None:
    """R-PRIO-1, M-6: the register priority tile has a column for each scoreboard side."""
    for side, _boats in SIDES:
        if side not in c.priority_tiles:
            say.family("priority_tile", Text("no column for side {side}", side=side))


def registers_by_side(c: m.Catalog, say: Findings) -> None:
    """R-REG-1: each scoreboard side has a popularity, a city and a church register, named by kind and side."""
    for side, _boats in SIDES:
        for kind in KINDS:
            reg = c.registers.get(f"{kind}-{side}")
            if reg is None:
                say.family("register", Text("missing {register}", register=f"{kind}-{side}"))
            elif reg.kind != kind or reg.side != side:
                say.record("register", reg.id, Text("{kind} and {side} must match the id", kind="kind", side="side"))


def city_register_spaces(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-15, R-REG-4: the city register's figure spaces hand out the 2 supply lieutenants, and
    one of its spaces is an any-hex action."""
    for side, _boats in SIDES:
        reg = c.registers.get(f"city-{side}")
        if reg is None or reg.kind != "city" or reg.side != side:
            continue  # registers_by_side says so
        icons = [s.reward.icons() for s in reg.spaces]
        if sum("lieutenant" in i for i in icons) < 2:
            say.record("register", reg.id, Text("the city register needs 2 figure spaces (R-SETUP-15, R-REG-4)"))
        if not any("any-hex" in i for i in icons):
            say.record("register", reg.id, Text("the city register has an {icon} space (R-REG-4)", icon="any-hex"))


def workshops_for_each_stack(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-11: six workshop stacks, one per era and citizen class, none of them empty."""
    eras = Counter((w.era, w.cls) for w in c.workshops.values())
    for era in (1, 2):
        for cls in CLASSES:
            if eras[(era, cls)] == 0:
                say.family("workshop", Text("no era {era} {cls} workshop (R-SETUP-11)", era=era, cls=cls))


def wagon_pairs(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-10: the wagons are 5 pairs numbered 1–5 on the back, one of each pair per stack."""
    backs = Counter(w.back for w in c.wagons.values())
    if sorted(backs.items()) != [(n, 2) for n in range(1, 6)]:
        say.family("wagon", Text("backs must be 5 pairs numbered 1–5 (R-SETUP-10)"))


def solo_tiles_on_solo_hexes(c: m.Catalog, say: Findings) -> None:
    """R-SOLO-2, R-SETUP-20: each solo tile names a hex (or harbor) of the 2-player city a solo game uses."""
    for t in c.solo_tiles.values():
        if t.hex not in c.hexes and t.hex not in c.harbors:
            say.record("solo_tile", t.id, Text("unknown hex {hex}", hex=t.hex))
        elif t.hex in c.hexes and not c.hexes[t.hex].in_count(1):
            say.record("solo_tile", t.id,
                       Text("hex {hex} is never in a solo game (it uses the 2-player set, R-SETUP-20)",
                            hex=t.hex))


def wheel_has_windows(c: m.Catalog, say: Findings) -> None:
    """R-R1-2: the population wheel turns through its windows, so it needs at least one."""
    if not c.wheel:
        say.family("wheel", Text("no windows"))


def side_a_boards(c: m.Catalog, say: Findings) -> None:
    """R-SETUP-14: a standard game plays side a of the player board and of the scroll board."""
    if "a" not in c.boards:
        say.family("board", Text("player board {board} is missing", board="a"))
    if "a" not in c.scroll_boards:
        say.family("scroll_board", Text("scroll board {board} is missing", board="a"))


CHECKS: tuple[Callable[[m.Catalog, Findings], None], ...] = (
    two_b_hexes, enough_c_hexes, docks_at_known_harbors, one_tile_per_dock, one_dock_per_harbor,
    layout_harbors_known, start_spaces_fit, a_city_for_each_count, three_stone_boats, round_tables,
    priority_columns, registers_by_side, city_register_spaces, workshops_for_each_stack, wagon_pairs,
    solo_tiles_on_solo_hexes, wheel_has_windows, side_a_boards,
)
