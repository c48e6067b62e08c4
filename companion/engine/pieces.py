"""What the table can see of a game, for everything that draws it: templates and pictures get `Pieces`, never
the GameState (issue 24 item 2; open_spiel's observers, boardgame.io's playerView).

The state knows what nobody at the table knows: the seed and the generator's position (every draw to come),
the order of the unseen tiles in each pool. Pieces gives what lies open on the table and in the records
(seats, hexes, docks, the face-up offers, the log, the checklists, the scoring, the open questions) and
refuses the rest; it is read-only, so a picture cannot move a piece. Engine readers a picture calls (the city's
geometry, a seat's repopulation tiles left, the open questions) read it as they read a state.
"""

from __future__ import annotations

from typing import Any

from .state import GameState

#: what the table cannot see (or a screen has no business with): every draw to come, the work in hand
HIDDEN = frozenset({"seed", "rng", "pools", "clone", "to_dict", "_tally", "_twin"})


class Pieces:
    """A read-only view of a game as the table sees it."""

    __slots__ = ("_state",)

    def __init__(self, state: GameState):
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str) -> Any:
        if name in HIDDEN:
            raise AttributeError(f"{name} is not on the table")
        return getattr(object.__getattribute__(self, "_state"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the pieces on a screen are read-only")

    def __repr__(self) -> str:
        return f"Pieces(round {self.round}, {self.phase})"
