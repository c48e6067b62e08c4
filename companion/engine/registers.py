"""The popularity, city and church registers, and play order read from them (R-REG, R-NEXT-4)."""

from __future__ import annotations

from ..words import Text, from_plain, plain
from . import tasks as do
from .describe import remembered
from .events import note, who
from .flow import ASKED, choose, option, task
from .gain import gain, reward_of
from .reach import reached
from .rulebook import ROUNDS
from .state import GameState


def advance(state: GameState, lane: str, seat: int, kind: str) -> bool:
    """Move a counter 1 space (on top of any counter there, R-REG-7) and earn that space's reward.

    An advance during production moves at once but its reward waits for the seat's next action step
    (R-REG-8); after round VI's production there is none, and the reward is lost. No counter goes past the
    last space (Q-17). Returns whether the counter moved."""
    s = state.seats[seat]
    reg = state.catalog.register(kind, state.players)
    if s.registers[kind] >= reg.last:
        reached(state, "register-end")
        note(state, Text("{who} is already on the last space of the {kind} register.", who=who(state, seat), kind=kind),
             "Q-17")
        return False
    s.registers[kind] += 1
    s.stamps[kind] = state.arrival(seat)
    space = reg.spaces[s.registers[kind]]
    note(state, Text("{who} advances to space {n} of the {kind} register.", who=who(state, seat), n=s.registers[kind],
                     kind=kind), "R-REG-1")
    if not space.reward.is_nothing:
        why = Text("{kind} register space {n}", kind=kind, n=s.registers[kind])
        if state.phase == "upkeep" and state.round >= ROUNDS:  # no action step comes after round VI
            reached(state, "deferred-lost")
            note(state, Text("{who} earns '{reward}', but the game ends after this production: it is lost.",
                             who=who(state, seat), reward=space.reward.text()), "R-REG-8")
        elif state.phase == "upkeep":
            reached(state, "deferred-action")
            s.deferred.append(space.reward.phrase)
            note(state, Text("{who} earns '{reward}' and will use it in their next action step.", who=who(state, seat),
                             reward=space.reward.text()), "R-REG-8")
        elif state.active and state.active["seat"] == seat:
            # R-TURN-FIRE-3 / R-TURN-ACT-2: usable any time in this turn's action step, lapsing at its end
            state.rights.append({"reward": space.reward.phrase, "why": plain(why)})
            note(state, Text("{who} earns '{reward}' for this action step.", who=who(state, seat),
                             reward=space.reward.text()), "R-TURN-ACT-2")
        else:
            gain(state, lane, seat, space.reward.phrase, why)
    return True


def landing_text(state: GameState, kind: str, at: int) -> str:
    """What the next space of a register gives (R-REG-1): an advance's option says it before the tap."""
    known = remembered(state, "landing")
    key = (kind, state.players, at)
    if key not in known:
        known[key] = _landing_text(state, kind, at)
    return known[key]


def _landing_text(state: GameState, kind: str, at: int) -> str:
    reg = state.catalog.register(kind, state.players)
    if at >= reg.last:
        return Text("already on the last space")
    if reg.spaces[at + 1].reward.is_nothing:
        return Text("no reward on that space")
    return Text("reward of that space: {reward}", reward=reg.spaces[at + 1].reward.text())


def with_landing(state: GameState, seat: int, phrase: str, label: str) -> str:
    """An option whose reward is one free city or church advance (a hex action, an earned right) also
    says what the space it lands on gives: that advance asks no further question (R-ACT-4)."""
    reward = reward_of(phrase)
    items = reward.options[0].items
    if reward.is_choice or len(items) != 1 or items[0].icon not in ("city", "church") or items[0].count != 1:
        return label
    kind = items[0].icon
    return Text("{label} — {gives}", label=label, gives=landing_text(state, kind, state.seats[seat].registers[kind]))


def advance_cost(state: GameState, seat: int) -> int:
    """R-REG-3: 1 coin per lieutenant ever owned (boxed ones too, D-14)."""
    return state.seats[seat].owned_lieutenants


def standing(state: GameState, kind: str) -> list[int]:
    """Seats from farthest ahead to farthest behind; on a shared space the counter on top (the later
    arrival, R-REG-7) is ahead. `kind` is a register or "score" (the scoring track)."""
    def key(i: int):
        s = state.seats[i]
        pos = s.vp if kind == "score" else s.registers[kind]
        return (pos, s.stamps[kind])

    return sorted(range(len(state.seats)), key=key, reverse=True)


@task(do.REGISTER)
def _register(state: GameState, t: dict, lane: str) -> None:
    """R-ACT-4: a free advance on the city or church register (`kind` None: the player's choice)."""
    seat, kind = t["seat"], t.get("kind")
    if kind is None:
        s = state.seats[seat]
        opts = [option(k, Text("Advance on the {kind} register (space {at} → {to}) — {gives}", kind=k,
                               at=s.registers[k], to=s.registers[k] + 1, gives=landing_text(state, k, s.registers[k])),
                       s.registers[k] < state.catalog.register(k, state.players).last,
                       Text("already on the last space"), "Q-17") for k in ("city", "church")]
        if not any(o["available"] for o in opts):
            reached(state, "register-end")
            note(state, Text("{who} is at the end of both registers: the advance is lost.", who=who(state, seat)),
                 "Q-17")
            return
        kind = choose(state, lane, seat, "register", Text("Free advance on which register? ({why})",
                                                          why=from_plain(t["why"])),
                      opts, t, "R-ACT-4")
        if kind is ASKED:
            return
    advance(state, lane, seat, kind)
