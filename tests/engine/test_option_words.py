"""Choices say what they do (issue 14 item 5): an overseer advance names what its landing space
activates, a free register advance the reward of the space it lands on, a greyed option what is missing
in numbers, and a repopulation every requirement it does not meet."""

from __future__ import annotations

import random
import re

from companion.engine import apply, legal_actions, pending
from companion.engine.flow import decision_for
from companion.simulate import play_game

from scenario import (add_wagon, clear_citizens, find, give, go_hex, grant, menu, on_square, pick, place_hex,
                      scenario, set_registers, squares_of, turn_for)

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


def test_R_REG_1_a_free_register_advance_names_the_reward_of_the_space_it_lands_on():
    """R-ACT-4: the free advance's options say what the next space gives (city 1: 1 coin; church 1:
    nothing; city 2: a lieutenant), and taking it gives that."""
    s = scenario()
    set_registers(s, A, city=1, church=0)
    grant(s, A, "register")
    labels = {o["value"]: o["label"] for o in menu(s, A)}
    assert labels["city"] == "Advance on the city register (space 1 → 2) — reward of that space: take a lieutenant"
    assert labels["church"] == "Advance on the church register (space 0 → 1) — no reward on that space"
    s2 = scenario()
    grant(s2, A, "register")
    assert find(s2, A, "city")["label"].endswith("— reward of that space: 1 coin")
    coins = s2.seats[A].coins
    pick(s2, A, "city")
    assert s2.seats[A].coins == coins + 1


def test_R_BUILD_3_a_build_too_dear_says_what_you_have_and_what_it_needs():
    s = scenario()
    give(s, A, coins=0, lumber=0, fire=0, major_fire=0)
    grant(s, A, "build")
    greyed = [o for o in menu(s, A) if o["value"].get("build") and not o["available"]]
    assert greyed
    for o in greyed:
        assert re.fullmatch(r"you have 0 [a-z ]+, need \d+(; you have 0 [a-z ]+, need \d+)*", o["reason"]), o
    assert any(o["reason"].startswith("you have 0 lumber, need ") for o in greyed)


def test_R_REPOP_3_a_greyed_repopulation_lists_every_unmet_requirement():
    """No wagon, no coin and no craftsman for the white hex that asks 1 coin and 1 craftsman: all three
    said at once, in numbers; the rule is the first unmet one's (R-REPOP-2, the wagon)."""
    s = clear_citizens(scenario())
    give(s, A, coins=0)
    turn_for(s, A)
    go_hex(s, A, "n02")
    opt = find(s, A, {"act": "repopulate"})
    assert not opt["available"] and opt["rule"] == "R-REPOP-2"
    assert opt["reason"] == ("you need a wagon not used this round; you have 0 coins, need 1; you are short of "
                             "1 craftsman in your sectors or workshops")


def test_R_REPOP_5_an_upgraded_requirement_says_which_citizens_are_short():
    """1 nun and 1 upgraded craftsman, with only a regular craftsman: short of the upgraded craftsman
    and the nun (a regular citizen never meets an upgraded requirement)."""
    s = clear_citizens(scenario())
    add_wagon(s, A, "wagon-1a")
    on_square(s, A, squares_of(s, A, "craftsman")[0], "craftsman")
    give(s, A, coins=1)
    turn_for(s, A)
    go_hex(s, A, "n06")
    opt = find(s, A, {"act": "repopulate"})
    assert not opt["available"] and opt["rule"] == "R-REPOP-3"
    assert opt["reason"] == "you are short of 1 nun + 1 upgraded craftsman in your sectors or workshops"


def _hex_action_at_city(at: int) -> str:
    s = scenario()
    place_hex(s, "n19", "x1")  # its action: a free city advance
    set_registers(s, A, city=at)
    turn_for(s, A)
    go_hex(s, A, "n19")
    return find(s, A, {"act": "hex"})["label"]


def test_R_ACT_4_a_hex_action_that_is_one_free_advance_names_the_landing_reward():
    """The hex whose action is a free city advance asks no question once taken, so its option says what
    the space gives (city 2: a lieutenant), and at the end of the register that there is none (Q-17)."""
    assert _hex_action_at_city(1) == "Take the hex action: free city advance — reward of that space: take a lieutenant"
    last = scenario().catalog.register("city", 3).last
    assert _hex_action_at_city(last) == "Take the hex action: free city advance — already on the last space"
