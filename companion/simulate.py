"""Whole games by a seeded random legal policy, with every invariant checked after every decision.

This is how we know the engine never gets stuck, never loses a cube or a citizen, and always reaches
final scoring (`python -m companion simulate ...`)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .catalog import Catalog, default_catalog
from .engine import apply, legal_actions, new_game, options_for, pending
from .engine.invariants import broken
from .engine.state import GameState


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
    def choose(state: GameState, who, menu: list[dict]) -> dict:
        return rng.choice([o for o in menu if o["available"]])
    return choose


def play_game(players: int, seed: int, advanced: bool = False, priority_tile: bool = False, draw: str = "app",
              check: bool = True, roundtrip: bool = True, choose=None, on_decision=None,
              catalog: Catalog | None = None) -> Played:
    """Play one game to its end. `choose(state, who, menu)` picks an option (random by default);
    `on_decision(state, question, menu, picked, events)` sees every step (the golden playthrough).
    `catalog`: the components to play with (default: the catalog in force)."""
    choose = choose or random_policy(random.Random(seed))
    state = new_game(options_for(players, advanced=advanced, priority_tile=priority_tile, draw=draw), seed,
                     catalog or default_catalog())
    decisions = 0
    problem = broken(state, roundtrip) if check else None
    while problem is None and state.phase != "over":
        question = pending(state)[0]
        who = question["who"]
        menu = legal_actions(state, who)
        picked = choose(state, who, menu)
        _, events = apply(state, picked["action"])
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


def summary(p: Played) -> dict:
    s = p.state
    return {"seed": p.seed, "rounds": s.round, "decisions": p.decisions, "winners": p.state.scoring["winners"],
            "winner_names": [s.seats[i].name for i in s.scoring["winners"]], "tiebreak": s.scoring["tiebreak"],
            "scoring": [{"seat": x["seat"], "name": x["name"], "total": x["total"], "rank": x["rank"],
                         "lines": {ln["key"]: ln["points"] for ln in x["lines"]}} for x in s.scoring["seats"]]}
