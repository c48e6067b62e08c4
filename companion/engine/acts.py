"""What a player did, in the table's terms: one *act* is a choice that starts something (a turn's lieutenant,
an action step's choice, a production or quarantine answer, the host's reveal or "the table is ready")
together with the questions it led to for the same person (which lieutenant goes, the hex action's
reward, the Build it allowed…). Undo counts acts, never the internal steps of one (issue 25 item 6).

The engine says what an act is; the store keeps, with each logged action, whether it starts one and its
words (the option the person chose, its template kept for every language), so a screen can say "Ada (R):
Move to the white hex…, then Build…" before anything is taken back. BGA's policy for a phone's own undo
needs one more fact: whether anything hidden came to light during the act (`revealed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from ..words import Text, put_text
from .events import who as seat_name
from .flow import decision_for, waiting
from .kinds import Action, DecisionKind
from .state import GameState

#: the questions that start an act; any other question continues the act of whoever answers it
OPENS = frozenset(("turn", "action_step", "production", "leave_quarantine", "reveal", "table_ready",
                   "opponent_done"))
HOST = Text("the host")


class ActLine(TypedDict, total=False):
    """The words of one action (`act_line`), as the store keeps them with it: the kind of question, who answered
    and the chosen option's label, each with its template; empty when nothing asked that person."""

    kind: DecisionKind
    name: str
    name_msg: str
    name_args: dict[str, Any]
    name_plural: str
    label: str
    label_msg: str
    label_args: dict[str, Any]
    label_plural: str


def act_line(state: GameState, action: Action) -> ActLine:
    """The words of one action, read before it is applied: the kind of question, who answered (a name the
    table knows) and the chosen option's label with its template ("label", "label_msg", "label_args"…)."""
    found = decision_for(state, action["who"])
    if found is None:
        return {}
    d = found[1]
    opt: Mapping[str, Any] = next((o for o in d["options"] if o["value"] == action["pick"]), {})
    name = HOST if action["who"] == "host" else seat_name(state, int(action["who"]))
    line = cast(ActLine, put_text({"kind": d["kind"]}, "name", name))
    line.update(cast(ActLine, {k: v for k, v in opt.items() if k == "label" or k.startswith("label_")}))
    return line


def opens_act(line: ActLine, who, last_who) -> bool:
    """Whether this action starts a new act: a question that starts one, or the first answer of someone other
    than whoever acted last."""
    return line.get("kind") in OPENS or last_who is None or str(who) != str(last_who)


def revealed(before: GameState, after: GameState) -> bool:
    """Whether the action brought something hidden to light: the companion drew from its seeded shuffle, or
    the table is now asked what it drew. A phone may not take such an act back (BGA's policy)."""
    if before.rng != after.rng:
        return True
    asked = {d["id"] for _, d in waiting(before)}
    return any(d["kind"] == "reveal" and d["id"] not in asked for _, d in waiting(after))
