"""Whole games by a seeded random legal policy, with every invariant checked after every decision.

This is how we know the engine never gets stuck, never loses a cube or a citizen, and always reaches
final scoring (`python -m companion simulate ...`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from .catalog import Catalog, default_catalog
from .engine import apply, legal_actions, new_game, options_for, pending
from .engine.invariants import broken
from .engine.reach import count
from .engine.records import PlayableOption
from .engine.state import GameState
from .engine.twin import Recorder, told


class InvariantBroken(Exception):
    def __init__(self, seed: int, decision: int, invariant: str):
        self.seed, self.decision, self.invariant = seed, decision, invariant
        super().__init__(f"seed {seed}, decision {decision}: {invariant}")


@dataclass
class Played:
    seed: int
    state: GameState
    decisions: int


def random_policy(rng: random.Random):
    def choose(state: GameState, who, menu: list[PlayableOption]) -> PlayableOption:
        return rng.choice([o for o in menu if o["available"]])
    return choose


def weighted_policy(weights: dict, declining: float, building: float):
    """A seeded policy that picks options in proportion to what they do: `weights` by (key, value) of an
    option's value ("act": "pay"…), `declining` for a None value (stop, do not advance, take the rat),
    `building` for a Build of a tile; anything else weighs 1."""
    def weight(value) -> float:
        if value is None:
            return declining
        if isinstance(value, dict):
            for key in ("act", "go", "build"):
                if key in value:
                    return weights.get((key, value[key]), building if key == "build" else 1.0)
        return 1.0

    def policy(rng: random.Random):
        def choose(state: GameState, who, menu: list[PlayableOption]) -> PlayableOption:
            opts = [o for o in menu if o["available"]]
            return rng.choices(opts, [weight(o["value"]) for o in opts])[0]
        return choose
    return policy


#: eager: pays to climb the registers, repopulates, builds, fights, advances and activates, and seldom
#: stops, declines or recalls. Random play rarely gets far up the city register; this one does.
eager_policy = weighted_policy({("act", "pay"): 6.0, ("act", "repopulate"): 40.0, ("act", "hex"): 3.0,
                                ("act", "right"): 3.0, ("act", "workshop"): 2.0, ("act", "end"): 0.3,
                                ("go", "recall"): 0.3, ("build", None): 0.2}, declining=0.2, building=3.0)
#: idle: recalls, ends its turns early and declines what it may: the rules of what lapses or is lost
idle_policy = weighted_policy({("go", "recall"): 8.0, ("act", "end"): 4.0, ("build", None): 3.0},
                              declining=3.0, building=1.0)

POLICIES = {"random": random_policy, "eager": eager_policy, "idle": idle_policy}


def play_game(players: int, seed: int, advanced: bool = False, priority_tile: bool = False, draw: str = "app",
              check: bool = True, roundtrip: bool = True, choose=None, on_decision=None,
              catalog: Catalog | None = None, tally: Counter | None = None,
              position: Callable[[GameState], None] | None = None, on_told=None) -> Played:
    """Play one game to its end. `choose(state, who, menu)` picks an option (random by default);
    `on_decision(state, question, menu, picked, events)` sees every step (the golden playthrough).
    `catalog`: the components to play with (default: the catalog in force). `tally`: count there what
    the game reaches once set up (engine/reach.py). `position`: arranges the table once round I's setup
    is done: a seeded position a sweep plays on from (companion/sweep.py). `on_told(before, after, items)`: what
    each move tells the table (engine/twin/told.py), as the store keeps it; costs a copy of the game a move."""
    choose = choose or random_policy(random.Random(seed))
    state = new_game(options_for(players, advanced=advanced, priority_tile=priority_tile, draw=draw), seed,
                     catalog or default_catalog())
    if tally is not None:
        count(state, tally)
    decisions = 0
    problem = broken(state, roundtrip) if check else None
    while problem is None and state.phase != "over":
        if position is not None and state.phase == "play":
            position(state)
            position = None
        question = pending(state)[0]
        who = question["who"]
        menu = legal_actions(state, who)
        picked = choose(state, who, menu)
        if on_told is not None:
            before, state._twin = state.clone(), Recorder(state)
        _, events = apply(state, picked["action"])
        if on_told is not None:
            rec, state._twin = state._twin, None
            on_told(before, state, told(before, state, rec))
        decisions += 1
        if on_decision:
            on_decision(state, question, menu, picked, events)
        if check:
            problem = broken(state, roundtrip)
        if decisions > 20000:
            problem = "the game did not end within 20000 decisions"
    if problem:
        raise InvariantBroken(seed, decisions, problem)
    return Played(seed, state, decisions)


class SeatSummary(TypedDict):
    """A seat's final score in a game's summary: its total, rank and points by scoring line."""

    seat: int
    name: str
    total: int
    rank: int
    lines: dict[str, int]


class GameSummary(TypedDict):
    """One simulated game in short (`simulate --json`): its seed, length, winners and scores."""

    seed: int
    rounds: int
    decisions: int
    winners: list[int]
    winner_names: list[str]
    tiebreak: str | None
    scoring: list[SeatSummary]


def summary(p: Played) -> GameSummary:
    s = p.state
    scoring = s.scoring
    assert scoring is not None, "a game is played to its end"
    return {"seed": p.seed, "rounds": s.round, "decisions": p.decisions, "winners": scoring["winners"],
            "winner_names": [s.seats[i].name for i in scoring["winners"]], "tiebreak": scoring["tiebreak"],
            "scoring": [{"seat": x["seat"], "name": x["name"], "total": x["total"], "rank": x["rank"],
                         "lines": {ln["key"]: ln["points"] for ln in x["lines"]}} for x in scoring["seats"]]}
