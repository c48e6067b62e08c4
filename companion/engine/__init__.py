"""The rules of Messina 1347 as a pure engine: no web, no database, no clock.

`new_game` sets up; `pending` says who must decide; `legal_actions` is that seat's (or the host's)
menu; `apply` takes one choice from it and refuses anything else with a reason, changing nothing.
"""

from __future__ import annotations

from . import build, docks, estate, gain, plague, registers, repopulate, scoring, setup, solo, turns, upkeep  # noqa: F401
from .flow import IllegalAction, answer, waiting
from .scoring import final_scoring, score
from .setup import new_game, options_for
from .state import GameState, Options, PlayerOption, state_from_dict
from .upkeep import start_upkeep

__all__ = ["GameState", "IllegalAction", "Options", "PlayerOption", "apply", "final_scoring", "legal_actions",
           "new_game", "options_for", "pending", "score", "start_upkeep", "state_from_dict"]


def pending(state: GameState) -> list[dict]:
    """Every question open now: who must answer and what (several seats at once in production)."""
    return [{"who": d["who"], "id": d["id"], "kind": d["kind"], "prompt": d["prompt"], "rule": d.get("rule"),
             **{k: d[k] for k in ("prompt_msg", "prompt_args") if k in d}} for _, d in waiting(state)]


def legal_actions(state: GameState, who: int | str) -> list[dict]:
    """The menu of `who` (a seat index or "host"): every option with its label, the available ones
    as actions to send back to `apply`, the others greyed with their reason and rule."""
    for _, d in waiting(state):
        if d["who"] == who:
            return [{**opt, "action": {"who": who, "decision": d["id"], "pick": opt["value"]}} for opt in d["options"]]
    return []


def apply(state: GameState, action: dict, copy_first: bool = False) -> tuple[GameState, list[dict]]:
    """Apply one action from a menu; returns the state and the log entries it produced.

    The state is changed in place (fast for simulations); pass `copy_first=True` to keep the caller's
    state untouched. On IllegalAction nothing has changed."""
    if not isinstance(action, dict) or "who" not in action or "pick" not in action:
        raise IllegalAction("an action names who acts and what they pick")
    if copy_first:
        state = state_from_dict(state.to_dict(), state._catalog)
    before = len(state.log)
    answer(state, action["who"], action["pick"], action.get("decision"))
    return state, state.log[before:]
