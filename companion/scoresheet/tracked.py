"""A tracked game's end as a score sheet's position: what the table would write on the sheet for the same
table. With it a test checks that the sheet and the tracked finale score alike, and a finished game can
be reopened as a sheet."""

from __future__ import annotations

from collections import Counter

from ..engine.rulebook import SCORE_LAP
from ..engine.scoring import repopulated
from ..engine.state import GameState
from .fields import Coins, Position, PositionSeat


def position_of(state: GameState) -> Position:
    """Every field the sheet asks for, read off the state; boats by cargo in the order they were taken."""
    c = state.catalog
    seats: list[PositionSeat] = []
    for i, s in enumerate(state.seats):
        seats.append({
            "name": s.name, "colour": s.colour, "track": s.vp % SCORE_LAP, "laps": s.vp // SCORE_LAP,
            "rats": s.rats, "popularity": s.registers["popularity"], "city": s.registers["city"],
            "church": s.registers["church"],
            "fire": s.fire, "major_fire": s.major_fire, "coins": coins_of(s.coins), "lumber": s.lumber,
            "scroll_board": s.scroll_board, "scroll": dict(s.scroll),
            "improvements": sum(1 for cab in s.cabins if cab.improvement), "workshops": len(s.workshops),
            "wagons": len(s.wagons), "boats": dict(Counter(c.boats[b].cargo for b in s.boats)),
            "repopulated": repopulated(state, i), "overseers": {k: ov.step for k, ov in s.overseers.items()}})
    position: Position = {"players": state.players, "advanced": state.options.advanced, "seats": seats}
    if state.opponent is not None:
        position["opponent_popularity"] = state.opponent.popularity
    return position


def coins_of(value: int) -> Coins:
    """A coin value as the fewest coins of 5, 3 and 1 (the table makes change freely, R-COMP-3)."""
    fives, rest = divmod(value, 5)
    threes, ones = divmod(rest, 3)
    return {"1": ones, "3": threes, "5": fives}
