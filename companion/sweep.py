"""The coverage sweep: whole games of every kind (solo to 4 players, a and b boards, the priority tile, app
and table draws), played by three seeded policies (random, eager, idle) from the usual start and from three
seeded positions, counting every question, reward icon and rule-bearing branch they reach
(engine/reach.py). CI runs it and fails on anything never reached (tests/engine/test_reach.py);
`python -m companion simulate --sweep --coverage` prints what it reached.

Random legal play seldom gets far up the registers, builds much or fills an estate; the eager policy and
the rich and far positions do, so the rules at the far end (the any-hex space, the last spaces, the centre
of a path, repopulating with a lieutenant, passing 50 VP) are reached too; the crowded position makes room
scarce (rescues and citizens leaving quarantine with a full sector, Builds earned in production) and the
idle policy lets what lapses lapse. A seeded position is a table arranged to reach a rule, not always one
a real round I could show (late workshops on an estate, a solo deck mostly spent); every invariant is
still checked after every decision.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .catalog import Catalog, default_catalog
from .engine.overseers import centre_step
from .engine.reach import Coverage
from .engine.state import CLASSES, GameState, Workshop
from .simulate import POLICIES, play_game

#: what every seat holds on top of its start in the rich seeded position (40 VP: close to the 50 space)
RICH = {"coins": 30, "lumber": 10, "fire": 10, "major_fire": 4, "vp": 40}


def rich(state: GameState) -> None:
    """Every seat starts with a full purse, so it can pay its way up the registers, build, repopulate and
    fight from round I on, and its score counter is 10 VP short of a lap."""
    for s in state.seats:
        for name, n in RICH.items():
            setattr(s, name, getattr(s, name) + n)


def crowded(state: GameState) -> None:
    """Every estate crowded: the aristocrat and nun sectors full, the craftsman sector empty, a citizen in
    quarantine space II of each cabin (craftsmen first), two early workshops of each class (from its
    stack's unseen tiles): one producing something rule-bearing (a Build, a register advance) with an
    upgraded citizen in it, one empty; and the late workshops that pay a Build (taken out of the late
    stacks), empty. So production earns Builds and register actions for later (R-EOR-4, R-REG-8); rescues
    and citizens leaving quarantine must make room, fill a workshop or be discarded; and a citizen leaving
    quarantine may enter a late workshop and earn its Build there (Q-9, C-4)."""
    c = state.catalog
    late = [t for cls in CLASSES for t in state.pools[f"late-{cls}"] if "build" in c.workshops[t].reward.icons()]
    leaving = list(dict.fromkeys([c.workshops[t].cls for t in late] + ["craftsman"] + list(CLASSES)))
    for s in state.seats:
        board = c.boards[s.board]
        for cls in CLASSES:
            for sq in board.sector(cls) if cls != "craftsman" else ():
                if sq.id not in s.squares:
                    s.squares[sq.id] = state.new_citizen(cls)
            producing = _take_workshop(state, s, state.workshops[cls])
            if producing is not None:
                producing.citizen = state.new_citizen(cls)
                producing.citizen.upgraded = True
            _take_workshop(state, s, state.workshops[cls])
        for tile in late:
            if tile in state.pools[f"late-{c.workshops[tile].cls}"]:
                state.pools[f"late-{c.workshops[tile].cls}"].remove(tile)
                s.workshops.append(Workshop(tile))
        for n, cab in enumerate(s.cabins):
            if cab.citizen is None:
                cab.citizen, cab.space = state.new_citizen(leaving[n % len(leaving)]), 2


def _take_workshop(state: GameState, seat, stack) -> Workshop | None:
    """An unseen tile of a workshop stack, built on `seat` (empty): one whose production touches a rule
    (a Build, a register advance) if the stack has one. None when the stack has no unseen tile."""
    pool = state.pools[stack.pool]
    if not (stack.hidden and pool):
        return None
    tile = min(pool, key=lambda t: (not _rule_bearing(state.catalog.workshops[t]), t))
    pool.remove(tile)
    stack.hidden -= 1
    seat.workshops.append(Workshop(tile))
    return seat.workshops[-1]


def _rule_bearing(workshop) -> bool:
    return bool(workshop.output and workshop.output.icons() & {"build", "any-hex", "register", "city", "church"})


def far(state: GameState) -> None:
    """Every seat is far along: each register counter 2 spaces before its last, each overseer one step
    before the centre (on the left or right branch by seat), so advances reach the last spaces, the
    centre and then nothing more (Q-15, Q-17). Solo: the opponent has revealed all but 3 of its solo tiles
    this round, so its deck runs out and its spent tiles are reshuffled (R-SOLO-5)."""
    c = state.catalog
    opp = state.opponent
    if opp is not None and opp.deck is not None and opp.deck.hidden > 3:
        pool = state.pools[opp.deck.pool]
        spent, pool[:] = pool[3:], pool[:3]
        opp.aside += spent
        opp.deck.hidden = len(pool)
    for i, s in enumerate(state.seats):
        for kind in s.registers:
            s.registers[kind] = max(s.registers[kind], c.register(kind, state.players).last - 2)
        for cls, ov in s.overseers.items():
            ov.step, ov.branch = centre_step(state, i, cls) - 1, ("left", "right")[i % 2]


#: the seeded positions a sweep plays from, each arranged once round I's setup is done
STARTS = {"usual": None, "rich": rich, "crowded": crowded, "far": far}


@dataclass(frozen=True)
class Kind:
    """One kind of game the sweep plays."""

    players: int
    advanced: bool
    draw: str
    policy: str
    start: str

    @property
    def priority_tile(self) -> bool:
        return self.players > 1 and self.advanced == (self.draw == "app")  # half the multi-player games


KINDS = tuple(Kind(players, advanced, draw, policy, start)
              for players in (1, 2, 3, 4) for advanced in (False, True) for draw in ("app", "table")
              for policy in POLICIES for start in STARTS)


def sweep(seeds: int = 1, first_seed: int = 1, catalog: Catalog | None = None, check: bool = True,
          kinds: tuple[Kind, ...] = KINDS, tally: Counter | None = None) -> tuple[Counter, int]:
    """Play `seeds` games of every kind (seeds first_seed, first_seed + 1, …) and count what they reach
    (in `tally`, if given). Every invariant is checked after every decision except the JSON round-trip,
    which costs seconds per game and is the round-trip tests' job (tests/engine/test_roundtrip.py). Returns the tally
    and the number of games played."""
    catalog = catalog or default_catalog()
    tally = Counter() if tally is None else tally
    games = 0
    for seed in range(first_seed, first_seed + seeds):
        for kind in kinds:
            play_game(kind.players, seed, kind.advanced, kind.priority_tile, kind.draw, check=check,
                      roundtrip=False, choose=POLICIES[kind.policy](random.Random(seed)), catalog=catalog,
                      tally=tally, position=STARTS[kind.start])
            games += 1
    return tally, games


def coverage_text(found: Coverage) -> str:
    """A coverage report (engine/reach.report) as lines a person reads: the totals, then each part's counts
    with their rules, then what was never reached."""
    lines = []
    for part, reached_by in (("decisions", found["decisions"]), ("icons", found["icons"]),
                             ("branches", found["branches"])):
        table = {k: v for k, v in reached_by.items() if v.get("printed", True)}
        reached = sum(1 for v in table.values() if v["count"])
        lines.append(f"{part}: {reached} of {len(table)} reached in {found['games']} games")
        lines += [f"  {v['count']:7d}  {k:24s} {v['rule']:16s} {v.get('what', '')}".rstrip()
                  for k, v in table.items()]
    if found["not_printed"]:
        lines.append("icons the catalog prints nowhere (cannot be reached): " + ", ".join(found["not_printed"]))
    lines.append("never reached: " + (", ".join(found["never"]) or "none"))
    if found["unknown"]:
        lines.append("counted but unknown to engine/reach.py: " + ", ".join(found["unknown"]))
    return "\n".join(lines)
