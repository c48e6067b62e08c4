"""Who must decide what next: the queue of pending work and the decisions it waits on.

Work is a stack of small tasks per *lane*. The `main` lane carries the game (setup, turns, upkeep);
a lane per seat exists only while several seats decide at once (production and leaving quarantine,
R-EOR-1), and `main` waits until every seat lane is empty. A task either does its work and pushes
follow-up tasks, or asks: it leaves a decision on top of its lane, listing every option. Answering
pushes the decision's `then` task with the chosen value as `pick`, so every rule step is written once
and resumes the same way whether the RNG or a person supplied the choice.

A task asks through `choose`, which also applies the forced-choice ruling (C-10) for every question.
A tap arrives as `{who, decision, choice}` (the option's index on the menu the screen showed):
`resolve` checks it and turns it into the logged action `{who, decision, pick}`, whose value `answer`
applies; the log keeps values, so a saved game replays whatever the menus' order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..words import from_plain, put_text
from .kinds import Action, DecisionKind
from .reach import reached
from .records import Option, Question
from .state import GameState

MAIN = "main"
ASK = "ask"  # the "do" of a decision waiting on top of a lane
Handler = Callable[[GameState, dict, str], None]
HANDLERS: dict[str, Handler] = {}


class IllegalAction(ValueError):
    """An action that is not on the menu; the message says why, the state is unchanged."""

    def __init__(self, reason: str, rule: str | None = None):
        self.reason, self.rule = reason, rule
        super().__init__(reason + (f" ({rule})" if rule else ""))


class GameMovedOn(IllegalAction):
    """The choice answers a question that is no longer open: the screen showed an older menu."""


class NotOnMenu(IllegalAction):
    """The choice names no option of the open question (a forged or garbled request)."""


class _Asked:
    """What `choose` returns while the question waits for an answer."""

    def __repr__(self) -> str:
        return "ASKED"


ASKED = _Asked()


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
           rule: str | None = None, cost: str | None = None, place: str | None = None,
           face: str | None = None, group: str | None = None) -> Option:
    """One menu entry; Text label, reason and cost also keep their templates (`label_msg`, `label_args`…).
    `place`: the spot on the map the option names ("hex:<tile>" / "dock:<id>"), so a screen can offer it
    there without reading the value. `face`: the printed component it stands for ("boat:boat-3"), so a
    screen shows that picture as the option's button. Unset, a screen shows the first component the label
    names (view.pictured: looked up when a screen asks, not on every menu the engine makes).
    `group`: the kind of option in a long menu ("hexes", "docks", "recall"), so a screen can show the
    kinds apart without reading labels."""
    opt = cast(Option, put_text({"value": value}, "label", label))  # value first, as saved games keep it
    opt["available"] = available
    if group:
        opt["group"] = group
    if place:
        opt["place"] = place
    if face:
        family, rid = face.split(":", 1)
        opt["face"] = {"family": family, "id": rid}
    if cost:
        put_text(opt, "cost", cost)
    if not available:
        put_text(opt, "reason", reason)
        opt["rule"] = rule
    return opt


def ask(state: GameState, lane: str, who: int | str, kind: DecisionKind, prompt: str, options: list[Option],
        then: dict, rule: str | None = None, place: str | None = None) -> None:
    """Leave a decision on top of `lane`; answering it pushes `then` with `pick` set. `place`: the spot on
    the map the question is about ("space:s04"), for the map to mark."""
    decision = put_text({"do": ASK, "id": _next_id(state), "who": who, "kind": kind}, "prompt", prompt)
    decision.update(options=options, then=then)
    if rule:
        decision["rule"] = rule
    if place:
        decision["place"] = place
    state.lanes.setdefault(lane, []).append(decision)
    reached(state, kind, "decision")


def choose(state: GameState, lane: str, who: int | str, kind: DecisionKind, prompt: str,
           options: list[Option] | Callable[[], list[Option]], then: dict, rule: str | None = None, *,
           alike: Callable[[Any], Any] | None = None, forced: bool = True, place: str | None = None) -> Any:
    """The answer to task `then`'s question: its `pick` once answered; else, when every available option
    comes to the same (only one, or one `alike` key: two lieutenants on the estate), that option's value,
    taken for you (C-10); else the question is left on `lane` and ASKED returned, and the answer re-runs
    `then`. `forced=False` always asks: a turn's or action step's menu shows the greyed options with their
    reasons, and saved games answered the other such questions, so their replay needs them asked.
    `options` may be a function making the menu, for menus too costly to make once answered."""
    if "pick" in then:
        return then["pick"]
    if callable(options):
        options = options()
    if forced:
        open_ = [o for o in options if o["available"]]
        keys = {alike(o["value"]) for o in open_} if alike else range(len(open_))
        if len(keys) == 1:
            return open_[0]["value"]
    ask(state, lane, who, kind, prompt, options, then, rule, place)
    return ASKED


def _next_id(state: GameState) -> int:
    state.stamp += 1
    return state.stamp


def run(state: GameState) -> None:
    """Do all work that needs nobody's input; stop where decisions wait."""
    lanes = state.lanes
    while True:
        busy = False
        for name in [k for k in lanes if k != MAIN] if len(lanes) > 1 or MAIN not in lanes else ():
            lane = lanes[name]
            while lane and lane[-1]["do"] != ASK:
                t = lane.pop()
                HANDLERS[t["do"]](state, t, name)
            if lane:
                busy = True
            else:
                del lanes[name]
        if busy:
            return
        main = lanes.setdefault(MAIN, [])
        if not main or main[-1]["do"] == ASK:
            return
        t = main.pop()
        HANDLERS[t["do"]](state, t, MAIN)


def waiting(state: GameState) -> list[tuple[str, dict]]:
    """The decisions that can be answered now, with their lanes."""
    out = []
    seat_lanes = [k for k, v in state.lanes.items() if k != MAIN and v]
    for name in seat_lanes:
        top = state.lanes[name][-1]
        if top["do"] == ASK:
            out.append((name, top))
    if not seat_lanes:
        main = state.lanes.get(MAIN) or []
        if main and main[-1]["do"] == ASK:
            out.append((MAIN, main[-1]))
    return out


def question(d: dict) -> Question:
    """An open decision as its screens ask it: who, its id and kind, the prompt (with its template) and rule."""
    asked = {"who": d["who"], "id": d["id"], "kind": d["kind"], "prompt": d["prompt"], "rule": d.get("rule"),
             **{k: d[k] for k in ("prompt_msg", "prompt_args", "prompt_plural", "place") if k in d}, **_marked(d)}
    return cast(Question, asked)  # the keys it has are picked from the decision: not a TypedDict literal


def _marked(d: dict) -> dict[str, list[str]]:
    """The places a question is about, for the host's map to mark: its task's, or the one it names."""
    places = d.get("then", {}).get("places") or ([d["place"]] if d.get("place") else [])
    return {"places": places} if places else {}


def decision_for(state: GameState, who: int | str) -> tuple[str, dict] | None:
    for lane, d in waiting(state):
        if d["who"] == who:
            return lane, d
    return None


def _open_question(state: GameState, who: int | str, decision_id: int | None) -> tuple[str, dict]:
    """The question `who` must answer now, if it is the one the screen showed (`decision_id`; None:
    whichever is open)."""
    found = decision_for(state, who)
    if found is None:
        raise GameMovedOn("nothing to decide for you right now")
    if decision_id is not None and decision_id != found[1]["id"]:
        raise GameMovedOn("the game moved on: that choice belongs to an earlier question")
    return found


def resolve(state: GameState, who: int | str, decision_id: int | None, choice: int) -> Action:
    """The action for a tap: option number `choice` of the question `decision_id` that `who` must answer.
    Refused with GameMovedOn (another question is open), NotOnMenu (no such option) or IllegalAction with
    the greyed option's own reason and rule."""
    _, d = _open_question(state, who, decision_id)
    if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(d["options"]):
        raise NotOnMenu("that option is not on the menu")
    opt = d["options"][choice]
    if not opt["available"]:
        raise IllegalAction(_reason(opt), opt.get("rule"))
    return Action(who=who, decision=d["id"], pick=opt["value"])


def _reason(opt: Option) -> str:
    """A greyed option's reason as Text again (its template kept for the screen's language)."""
    if "reason_msg" in opt:
        return from_plain({"msg": opt["reason_msg"], "args": opt["reason_args"]})
    return opt.get("reason") or "not possible now"


def answer(state: GameState, who: int | str, pick: Any, decision_id: int | None = None) -> dict:
    """Apply one choice from the menu of `who`, by its value; raise IllegalAction (state unchanged) otherwise."""
    lane, d = _open_question(state, who, decision_id)
    for opt in d["options"]:
        if opt["value"] == pick:
            if not opt["available"]:
                raise IllegalAction(f"not possible: {opt.get('reason')}", opt.get("rule"))
            break
    else:
        raise NotOnMenu(f"{pick!r} is not one of the options for: {d['prompt']}")
    state.lanes[lane].pop()
    state.decisions += 1
    push(state, lane, {**d["then"], "pick": pick})
    run(state)
    return d
