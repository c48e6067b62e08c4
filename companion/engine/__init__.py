"""The rules of Messina 1347 as a pure engine: no web, no database, no clock, no files.

- `new_game(options, seed, catalog)` sets up (the caller loads the catalog; a saved game comes back with
  `state_from_dict(data, catalog)`).
- `pending(state)` says who must decide; `legal_actions(state, who)` is that seat's (or the host's)
  menu: every option, the greyed ones with their reason and rule.
- `choose_action(state, who, decision, choice)` turns a tap (the index of an option on the menu of
  question `decision`) into the action to log, `{"who", "decision", "pick": value}`, or refuses it:
  `GameMovedOn` (that question is no longer open), `NotOnMenu` (no such option) or `IllegalAction`
  with the greyed option's reason and rule.
- `apply(state, action)` plays a logged action (by its value, so every saved game replays unchanged)
  and refuses anything not on the menu, changing nothing.
- `seat_view(state, seat)` and `table_view(state)` are what a seat's screen and the host's screen show
  (engine/view.py).
"""

from __future__ import annotations

# every module that registers tasks (flow.task), so a game can run any step
from . import (  # noqa: F401
    build,
    docks,
    estate,
    gain,
    next_round,
    offer,
    overseers,
    plague,
    registers,
    repopulate,
    round_setup,
    scoring,
    setup,
    solo,
    stacks,
    turns,
    upkeep,
)
from .flow import GameMovedOn, IllegalAction, NotOnMenu, answer, question, resolve, waiting
from .kinds import Action, DecisionKind
from .records import LogEntry, MenuOption, Option, PlayableOption, Question
from .scoring import final_scoring, score
from .setup import new_game, options_for
from .state import GameState, Options, PlayerOption, state_from_dict
from .upkeep import start_upkeep
from .view import seat_view, table_view

__all__ = ["Action", "DecisionKind", "GameMovedOn", "GameState", "IllegalAction", "MenuOption", "NotOnMenu",
           "Option", "Options", "PlayableOption", "PlayerOption", "Question", "apply",
           "choose_action", "final_scoring", "legal_actions", "new_game", "options_for", "pending", "score",
           "seat_view", "start_upkeep", "state_from_dict", "table_view"]


def pending(state: GameState) -> list[Question]:
    """Every question open now: who must answer and what (several seats at once in production)."""
    return [question(d) for _, d in waiting(state)]


def legal_actions(state: GameState, who: int | str) -> list[PlayableOption]:
    """The menu of `who` (a seat index or "host"): every option with its label, the available ones
    as actions to send back to `apply`, the others greyed with their reason and rule."""
    for _, d in waiting(state):
        if d["who"] == who:
            menu: list[Option] = d["options"]
            return [{**opt, "action": {"who": who, "decision": d["id"], "pick": opt["value"]}} for opt in menu]
    return []


def choose_action(state: GameState, who: int | str, decision: int | None, choice: int) -> Action:
    """The action for option number `choice` on the menu of `who`'s question `decision` (None: whichever
    question is open), checked: this is how a tap becomes the action `apply` plays and the log keeps."""
    return resolve(state, who, decision, choice)


def apply(state: GameState, action: Action, copy_first: bool = False) -> tuple[GameState, list[LogEntry]]:
    """Apply one action from a menu; returns the state and the log entries it produced.

    The state is changed in place (fast for simulations); pass `copy_first=True` to keep the caller's
    state untouched. On IllegalAction nothing has changed."""
    if not isinstance(action, dict) or "who" not in action or "pick" not in action:
        raise IllegalAction("an action names who acts and what they pick")
    if copy_first:
        state = state.clone()
    before = len(state.log)
    answer(state, action["who"], action["pick"], action.get("decision"))
    return state, state.log[before:]
