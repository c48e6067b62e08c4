"""The engine's words a type checker can hold: every kind of question a seat or the host is asked, and the
action a tap becomes. Saved games keep these strings, so a value here is never changed (as tasks.py's)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, get_args

#: every kind of decision `flow.choose` leaves on a lane (a screen may show a kind its own way: web/moment.py)
DecisionKind = Literal[
    # setup and the rounds' setup (the host enters what the table drew: C-1)
    "reveal", "table_ready",
    # a turn and its action step (turns.py, docks.py, repopulate.py, build.py, plague.py)
    "turn", "send", "action_step", "fight", "rescue", "any_hex", "build", "place_improvement", "give_citizen",
    "give_lieutenant", "adjacent_cube", "boat_cube",
    # rewards and registers (gain.py, registers.py, overseers.py, estate.py)
    "reward_choice", "register", "scroll", "activate", "advance_overseer", "upgrade_overseer", "upgrade_citizen",
    # the end of a round (upkeep.py) and the solo opponent (solo.py, C-23)
    "production", "leave_quarantine", "opponent_done",
]
DECISION_KINDS: frozenset[str] = frozenset(get_args(DecisionKind))

#: who a question is for: a seat by its number, or "host"
Who = int | str


class Action(TypedDict):
    """A tap as the engine plays it and the log keeps it: who answers, which question (`decision`, its id;
    absent in actions saved before questions had ids) and the chosen option's value (`pick`)."""

    who: Who
    decision: NotRequired[int | None]
    pick: Any
