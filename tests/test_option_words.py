"""Choices say what they do (issue 14 item 5): an overseer advance names what its landing space
activates, a free register advance the reward of the space it lands on, a greyed option what is missing
in numbers, and a repopulation every requirement it does not meet."""

from __future__ import annotations

import random
import re

from companion.engine import apply, legal_actions, pending
from companion.engine.flow import decision_for
from companion.simulate import play_game

from scenario import (add_wagon, clear_citizens, give, scenario, set_registers, stand, turn_for)

A = 0
CITIZEN = re.compile(r"^Activate (the \w+ on the “.+?” square)")


def _open(state, who):
    found = decision_for(state, who)
    return found[1] if found else None


def _pick(state, who, value):
    d = _open(state, who)
    opt = next(o for o in d["options"] if o["value"] == value)
    apply(state, {"who": who, "decision": d["id"], "pick": opt["value"]})


def _activations(state, who) -> tuple[list[str], int]:
    """Play on from an overseer's landing: the citizens its activation question offers, and how many
    it lets this seat activate (taking the first each time; any other question on the way answered
    with its first open option)."""
    offered, made, why = None, 0, None
    for _ in range(40):
        d = _open(state, who)
        if d is None or d["kind"] in ("turn", "action_step"):
            break
        if d["kind"] == "activate" and d["then"].get("rule") == "R-OVS-7" and why in (None, d["then"]["why"]):
            why = d["then"]["why"]
            squares = [o for o in d["options"] if o["value"] is not None]
            if offered is None:
                offered = [CITIZEN.match(o["label"]).group(1) for o in squares]
            _pick(state, who, squares[0]["value"])
            made += 1
            continue
        first = next(o for o in d["options"] if o["available"])
        _pick(state, who, first["value"])
    return offered or [], made


def _check_advances(state, who, menu, seen):
    for opt in menu:
        if opt["value"] is None or not opt["available"]:
            continue
        label = opt["label"]
        after = state.clone()
        apply(after, opt["action"])
        offered, made = _activations(after, who)
        if label.endswith("activates nothing: no citizen in reach"):
            assert (offered, made) == ([], 0), label
            seen.add("nothing")
            continue
        reach = label.split(" — ", 1)[1]
        assert offered and all(c in reach for c in offered), (label, offered)
        assert reach.count("” square") == len(offered), (label, offered)
        m = re.match(r"activates (?:up to )?(\d+) of: ", reach)
        assert made == (int(m.group(1)) if m else len(offered)), (label, offered, made)
        seen.add("some of" if m else "all")


def test_R_OVS_7_an_overseer_advance_says_what_it_activates_and_choosing_it_does_that():
    """Over every overseer advance of seeded random games, each option's words match the activation
    choosing it opens: the same citizens, and as many activations as it says."""
    seen: set[str] = set()

    def choose(state, who, menu):
        if pending(state)[0]["kind"] == "advance_overseer":
            _check_advances(state, who, menu, seen)
        return rng.choice([o for o in menu if o["available"]])

    for seed in (3, 5, 8, 13):
        rng = random.Random(seed)
        play_game(4 if seed % 2 else 3, seed, check=False, roundtrip=False, choose=choose)
    assert seen == {"nothing", "all", "some of"}
