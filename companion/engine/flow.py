"""Who must decide what next: the queue of pending work and the decisions it waits on.

Work is a stack of small tasks per *lane*. The `main` lane carries the game (setup, turns, upkeep);
a lane per seat exists only while several seats decide at once (production and leaving quarantine,
R-EOR-1), and `main` waits until every seat lane is empty. A task either does its work and pushes
follow-up tasks, or asks: it leaves a decision on top of its lane, listing every option. Answering
pushes the decision's `then` task with the chosen value as `pick`, so every rule step is written once
and resumes the same way whether the RNG or a person supplied the choice.
"""

from __future__ import annotations

from typing import Any, Callable

from .state import GameState
from ..words import keep

MAIN = "main"
Handler = Callable[[GameState, dict, str], None]
HANDLERS: dict[str, Handler] = {}


class IllegalAction(ValueError):
    """An action that is not on the menu; the message says why, the state is unchanged."""

    def __init__(self, reason: str, rule: str | None = None):
        self.reason, self.rule = reason, rule
        super().__init__(reason + (f" ({rule})" if rule else ""))


def task(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def push(state: GameState, lane: str, *tasks: dict) -> None:
    """Queue tasks on a lane so that the first given runs first."""
    stack = state.lanes.setdefault(lane, [])
    stack.extend(reversed(tasks))


def option(value: Any, label: str, available: bool = True, reason: str | None = None,
           rule: str | None = None, cost: str | None = None) -> dict:
    """One menu entry; Text label, reason and cost also keep their templates (`label_msg`, `label_args`…)."""
    opt = keep({"value": value}, "label", label)
    opt["available"] = available
    if cost:
        keep(opt, "cost", cost)
    if not available:
        keep(opt, "reason", reason)
        opt["rule"] = rule
    return opt


def ask(state: GameState, lane: str, who: int | str, kind: str, prompt: str, options: list[dict],
        then: dict, rule: str | None = None) -> None:
    """Leave a decision on top of `lane`; answering it pushes `then` with `pick` set."""
    decision = keep({"do": "ask", "id": _next_id(state), "who": who, "kind": kind}, "prompt", prompt)
    decision.update(options=options, then=then)
    if rule:
        decision["rule"] = rule
    state.lanes.setdefault(lane, []).append(decision)


def _next_id(state: GameState) -> int:
    state.stamp += 1
    return state.stamp


def run(state: GameState) -> None:
    """Do all work that needs nobody's input; stop where decisions wait."""
    lanes = state.lanes
    while True:
        busy = False
        for name in [k for k in lanes if k != MAIN]:
            lane = lanes[name]
            while lane and lane[-1]["do"] != "ask":
                t = lane.pop()
                HANDLERS[t["do"]](state, t, name)
            if lane:
                busy = True
            else:
                del lanes[name]
        if busy:
            return
        main = lanes.setdefault(MAIN, [])
        if not main or main[-1]["do"] == "ask":
            return
        t = main.pop()
        HANDLERS[t["do"]](state, t, MAIN)


def waiting(state: GameState) -> list[tuple[str, dict]]:
    """The decisions that can be answered now, with their lanes."""
    out = []
    seat_lanes = [k for k, v in state.lanes.items() if k != MAIN and v]
    for name in seat_lanes:
        top = state.lanes[name][-1]
        if top["do"] == "ask":
            out.append((name, top))
    if not seat_lanes:
        main = state.lanes.get(MAIN) or []
        if main and main[-1]["do"] == "ask":
            out.append((MAIN, main[-1]))
    return out


def decision_for(state: GameState, who: int | str) -> tuple[str, dict] | None:
    for lane, d in waiting(state):
        if d["who"] == who:
            return lane, d
    return None


def answer(state: GameState, who: int | str, pick: Any, decision_id: int | None = None) -> dict:
    """Apply one choice from the menu of `who`; raise IllegalAction (state unchanged) otherwise."""
    found = decision_for(state, who)
    if found is None:
        raise IllegalAction("nothing to decide for you right now")
    lane, d = found
    if decision_id is not None and decision_id != d["id"]:
        raise IllegalAction("the game moved on: that choice belongs to an earlier question")
    for opt in d["options"]:
        if opt["value"] == pick:
            if not opt["available"]:
                raise IllegalAction(f"not possible: {opt.get('reason')}", opt.get("rule"))
            break
    else:
        raise IllegalAction(f"{pick!r} is not one of the options for: {d['prompt']}")
    state.lanes[lane].pop()
    state.decisions += 1
    push(state, lane, {**d["then"], "pick": pick})
    run(state)
    return d
