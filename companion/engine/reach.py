"""Where the rules went: an optional tally, for sweeps (`python -m companion simulate --coverage`), of every
question asked (by kind), every reward icon handed out and every rule-bearing branch taken.

A random sweep that never reaches a rule cannot notice when that rule breaks, so the sweep counts what it
reached and a test fails on anything never reached. A game is counted only when its state carries a tally
(`count`); otherwise each hook is one attribute read and a comparison, so play pays nothing for it. The
tally is never saved with the game.

The lists below are the whole of what is counted: tests/engine/test_reach.py checks them against the engine's
source (every kind a question is asked with, every branch name a hook names), so they cannot drift.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import NotRequired, TypedDict

from ..catalog.rewards import Reward
from .kinds import DecisionKind

#: every kind of question the engine asks, with the rule the question answers
DECISIONS: dict[DecisionKind, str] = {
    "turn": "R-TURN-1", "send": "R-TURN-MOVE-3", "rescue": "R-TURN-RESCUE-2", "fight": "R-TURN-FIRE-1",
    "adjacent_cube": "R-TURN-FIRE-5", "boat_cube": "R-TURN-DOCK-4", "action_step": "R-TURN-ACT-2",
    "reward_choice": "R-ACT-2", "scroll": "R-ACT-5", "register": "R-ACT-4", "any_hex": "R-ACT-7",
    "upgrade_citizen": "R-UPG-1", "advance_overseer": "R-OVS-2", "activate": "R-OVS-6",
    "upgrade_overseer": "R-ACT-8", "build": "R-BUILD-1", "place_improvement": "R-BUILD-3",
    "give_citizen": "R-REPOP-3", "give_lieutenant": "R-REPOP-3", "production": "R-CIT-4",
    "leave_quarantine": "R-CIT-3", "reveal": "C-1", "table_ready": "C-18",
    "opponent_done": "C-23",
}

#: every reward icon of the grammar (catalog/rewards.py) with its rule, counted when it is carried out
ICON_RULES = {
    "coin": "R-ACT-1", "lumber": "R-ACT-1", "fire": "R-ACT-1", "major-fire": "R-ACT-1", "vp": "R-ACT-3",
    "city": "R-ACT-4", "church": "R-ACT-4", "register": "R-ACT-4", "scroll": "R-ACT-5", "lieutenant": "R-ACT-6",
    "any-hex": "R-ACT-7", "upgrade-overseer": "R-ACT-8", "upgrade-advance": "R-ACT-8", "activate": "R-ACT-9",
    "upgrade-citizen": "R-UPG-1", "advance-aristocrat": "R-OVS-1", "advance-nun": "R-OVS-1",
    "advance-craftsman": "R-OVS-1", "advance-any": "R-OVS-1", "advance-skip": "R-OVS-5", "build": "R-BUILD-1",
}

#: every rule-bearing branch a hook names: (rule, what happened)
BRANCHES = {
    # a turn (R-TURN, R-REG-3)
    "recall": ("R-TURN-RECALL-1", "a lieutenant is recalled to the estate for 1 coin"),
    "recall-lapses": ("C-17", "a recall lets rewards earned in production lapse"),
    "paid-move": ("R-TURN-MOVE-3", "a lying lieutenant pays coins to go farther"),
    "repopulator-vp": ("R-TURN-MOVE-6", "a repopulated hex is chosen: 2 VP to its repopulator"),
    "actions-lapse": ("R-TURN-ACT-2", "earned actions left unused lapse at the end of the turn"),
    "paid-advance": ("R-REG-3", "an advance on the city or church register paid in coins"),
    "register-end": ("Q-17", "an advance past a register's last space is lost"),
    # rescue and plague (R-TURN-RESCUE, R-TURN-FIRE)
    "rescue-to-quarantine": ("R-TURN-RESCUE-3", "a citizen from a plagued hex goes into quarantine"),
    "rescue-no-cabin": ("R-TURN-RESCUE-3", "no empty cabin: the plagued citizen is discarded"),
    "rescue-to-sector": ("R-TURN-RESCUE-2", "a citizen from a clean hex goes onto its sector"),
    "rescue-make-room": ("R-TURN-RESCUE-2", "a full sector makes room by a move into a workshop"),
    "rescue-discard": ("R-TURN-RESCUE-2", "a full sector: the rescued citizen is discarded"),
    "cube-removed": ("R-TURN-FIRE-1", "a plague cube is fought off a hex"),
    "rats-for-cubes": ("R-TURN-FIRE-4", "the fight stops: a rat for each cube left"),
    "two-fire-vp": ("R-TURN-FIRE-2", "2 VP for a cube removed in a 2-fire round"),
    "adjacent-removed": ("R-TURN-FIRE-5", "a major fire also clears a cube on an adjacent hex"),
    # docks (R-TURN-DOCK)
    "boat-cube-fought": ("Q-5", "a boat's cube is fought off"),
    "boat-cube-rat": ("R-TURN-DOCK-4", "a rat instead of fighting a boat's cube"),
    "even-boats": ("R-TURN-DOCK-6", "an even number of boats: an overseer advance"),
    # repopulation (R-REPOP)
    "repopulate": ("R-REPOP-3", "a hex is repopulated"),
    "repop-plagued": ("R-REPOP-3", "a plagued hex is repopulated: 1 rat"),
    "lieutenant-to-box": ("R-REPOP-6", "a lieutenant is given up to the box"),
    # build (R-BUILD)
    "build-improvement": ("R-BUILD-3", "a cabin improvement is built"),
    "build-workshop": ("R-BUILD-4", "a workshop is built"),
    "build-wagon": ("R-BUILD-7", "a wagon is built"),
    "build-nothing": ("C-6", "a Build is declined"),
    "cycle": ("R-BUILD-2", "the stacks of a kind are cycled, paid with a token or a VP"),
    "built-after-cycling": ("R-BUILD-2", "a build paid after cycling"),
    "stack-emptied": ("R-BUILD-4", "a stack's last tile is taken: nothing turns up"),
    # citizens and workshops (R-CIT, R-UPG)
    "workshop-move": ("R-CIT-4", "a sector citizen moves into a workshop"),
    "late-reward": ("R-BUILD-5", "a late workshop pays its one-time reward"),
    # overseers (R-OVS, R-ADV-2, Q-15)
    "overseer-skip": ("R-OVS-5", "an overseer skips a step on its path"),
    "overseer-branch": ("R-OVS-3", "an overseer takes the left or right branch of its path"),
    "advance-lost": ("Q-15", "no overseer can advance: the advance is lost"),
    "activate-T1": ("R-OVS-7", "a T1 space activates its squares"),
    "activate-T2": ("R-OVS-7", "a T2 space activates its region"),
    "activate-T3": ("R-OVS-7", "a T3 space activates its two regions"),
    "activate-T4": ("R-OVS-7", "the centre activates any 3 citizens"),
    "single-use-square": ("R-ADV-2", "a single-use square is used up"),
    # the end of a round (R-EOR, R-CIT-3, R-REG-8, C-4)
    "upgraded-output": ("R-EOR-3", "an early workshop produces at its upgraded level"),
    "upgraded-workshop-vp": ("R-EOR-3", "an upgraded citizen in a workshop produces 1 VP"),
    "deferred-action": ("R-REG-8", "an action earned in production waits for the next action step"),
    "deferred-lost": ("R-REG-8", "an action earned in round VI's production is lost: no action step follows"),
    "held-production": ("R-EOR-4", "a Build or any-hex action earned in production, before quarantine"),
    "held-quarantine": ("C-4", "a Build or any-hex action earned leaving quarantine, after it"),
    "leave-to-square": ("R-CIT-3", "a citizen leaves quarantine for a sector square"),
    "leave-to-workshop": ("R-CIT-3", "a citizen leaves quarantine for a workshop"),
    "leave-make-room": ("C-21", "a citizen leaving quarantine first has room made in its sector"),
    "leave-discard": ("Q-7", "a citizen leaving quarantine finds no room and is discarded"),
    # the next round's setup (R-NEXT, R-PRIO)
    "clear-plagued": ("R-NEXT-3", "citizens on plagued hexes go back to the supply"),
    "order-by-score": ("R-NEXT-4", "the scoring track decides the play order"),
    "priority-tile": ("R-PRIO-1", "the priority tile decides the play order"),
    "two-boats": ("R-NEXT-5", "a round brings two boats"),
    "boat-overflow": ("R-NEXT-5", "a full dock passes the boat on clockwise"),
    "docking-reshuffle": ("R-NEXT-5", "the empty docking pile is reshuffled"),
    "late-workshops": ("R-NEXT-8", "round V brings the late workshops"),
    "double-wheel": ("R-NEXT-9", "a double-wheel round turns the wheel twice"),
    "cube-limit": ("R-NEXT-10", "too few cubes in the supply: a cube step adds none"),
    "repop-cube-rat": ("R-NEXT-11", "a cube on a repopulated hex gives its repopulator a rat"),
    "quiet-round": ("R-NEXT-12", "round VI brings no cubes and no citizens"),
    "wagons-up": ("R-NEXT-13", "used wagons turn face up again"),
    # the solo opponent (R-SOLO, Q-18, C-15)
    "solo-boat": ("R-SOLO-7", "the opponent's red action takes a boat"),
    "solo-wagon": ("R-SOLO-7", "the opponent's red action takes a wagon"),
    "solo-workshop": ("R-SOLO-7", "the opponent's red action takes a workshop"),
    "solo-improvements": ("R-SOLO-7", "the opponent's red action takes every improvement"),
    "solo-takes-nothing": ("Q-18", "the opponent's red action finds nothing to take"),
    "solo-reveals-again": ("R-SOLO-5", "the opponent's tile names an unavailable hex: it reveals again"),
    "solo-deck-reshuffle": ("R-SOLO-5", "the opponent's deck runs out: its spent tiles are reshuffled"),
    "solo-repopulator-vp": ("Q-18", "the opponent chooses your repopulated hex: 2 VP to you"),
    # scoring (R-SCORE, R-ADV-3, R-SOLO-8…9)
    "score-lap": ("R-SCORE-7", "a score counter passes 50"),
    "majority-bonus": ("R-ADV-3", "the advanced repopulation majority bonus scores"),
    "solo-popularity-bonus": ("R-SOLO-8", "solo: popularity equals or beats the opponent's"),
    "solo-repop-bonus": ("R-SOLO-9", "solo: the repopulation count bonus scores"),
}


def count(state, tally: Counter | None = None) -> Counter:
    """Count what this game reaches from now on, in `tally` (one Counter may serve many games)."""
    state._tally = Counter() if tally is None else tally
    return state._tally


def reached(state, name: str, part: str = "branch") -> None:
    """A hook: branch `name` was taken (or, with `part`, a question of kind `name` was asked, or reward
    icon `name` carried out) in this game. Counted as "<part>:<name>"."""
    tally = state._tally
    if tally is not None:
        tally[f"{part}:{name}"] += 1


class Reached(TypedDict):
    """One kind, icon or branch in a coverage report: how often it was reached and its rule; an icon says
    whether the catalog prints it anywhere, a branch what it does."""

    count: int
    rule: str
    printed: NotRequired[bool]
    what: NotRequired[str]


class Coverage(TypedDict):
    """What a sweep reached (`report`)."""

    games: int
    decisions: dict[str, Reached]
    icons: dict[str, Reached]
    branches: dict[str, Reached]
    never: list[str]
    not_printed: list[str]
    unknown: list[str]


def report(tally: Counter, games: int, catalog) -> Coverage:
    """What a sweep reached: each known kind, icon and branch with its count (0: never) and rule, the
    names never reached, and anything counted that these lists do not know (a hook's name gone astray).
    An icon the catalog prints nowhere cannot be reached by play: it is listed apart, not as never reached."""
    printed = printed_icons(catalog)
    decisions: dict[str, Reached] = {k: {"count": tally[f"decision:{k}"], "rule": r} for k, r in DECISIONS.items()}
    icons: dict[str, Reached] = {k: {"count": tally[f"icon:{k}"], "rule": r, "printed": k in printed}
                                 for k, r in ICON_RULES.items()}
    branches: dict[str, Reached] = {k: {"count": tally[f"branch:{k}"], "rule": r, "what": w}
                                    for k, (r, w) in BRANCHES.items()}
    parts = (("decision", decisions), ("icon", icons), ("branch", branches))
    never = [f"{part}:{k}" for part, table in parts for k, v in table.items()
             if not v["count"] and v.get("printed", True)]
    known = {f"{part}:{k}" for part, table in parts for k in table}
    return {"games": games, "decisions": decisions, "icons": icons, "branches": branches, "never": never,
            "not_printed": sorted(k for k in ICON_RULES if k not in printed),
            "unknown": sorted(k for k in tally if k not in known)}


def printed_icons(catalog) -> set[str]:
    """The reward icons printed somewhere in `catalog` (a hex, square, register space, tile, boat…)."""
    found: set[str] = set()
    todo = [getattr(catalog, f.name) for f in fields(catalog)]
    while todo:
        x = todo.pop()
        if isinstance(x, Reward):
            found |= x.icons()
        elif is_dataclass(x):
            todo += [getattr(x, f.name) for f in fields(x)]
        elif isinstance(x, (tuple, list)):
            todo += list(x)
        elif isinstance(x, Mapping):
            todo += list(x.values())
    return found
