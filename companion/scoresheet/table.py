"""The end of a game as the engine knows it, built from a score sheet's position, and scored by the
engine's own final scoring (engine/scoring.py): the sheet computes nothing itself, so a tracked game
and a sheet of the same table score alike, line for line.

Only what final scoring reads is set: each seat's VP, rats, register spaces, tokens, scroll board and
levels, buildings, boats, wagons and overseers, the hexes carrying repopulation tiles, and in solo the
opponent's popularity. The position has been checked (position.read_position).
"""

from __future__ import annotations

from ..engine import final_scoring
from ..engine.rulebook import ROUNDS, SCORE_LAP
from ..engine.state import (
    COLOURS,
    Cabin,
    GameState,
    Hex,
    Opponent,
    Options,
    Overseer,
    PlayerOption,
    Seat,
    WagonOwned,
    Workshop,
)
from .fields import Position, PositionSeat
from .supply import Supply


def end_of_game(position: Position, catalog) -> GameState:
    """The table after round VI's production (R-END-1), as the sheet describes it."""
    n = position["players"]
    options = Options([PlayerOption(s["name"], s["colour"]) for s in position["seats"]],
                      advanced=position["advanced"])
    state = GameState(options=options, seed=0, rng=0, players=n, round=ROUNDS, phase="play", _catalog=catalog)
    tiles = Supply(catalog, n)
    for i, s in enumerate(position["seats"]):
        state.seats.append(_seat(s, position["advanced"], catalog, tiles))
        for tile in s["repopulated"]:
            state.hexes[tile] = Hex(tile=tile, space="", repopulated_by=i)
    if n == 1:  # C-11: the opponent plays the first colour the player did not take
        free = next(c for c in COLOURS if c != position["seats"][0]["colour"])
        state.opponent = Opponent(colour=free, popularity=position["opponent_popularity"])
    return state


def _seat(s: PositionSeat, advanced: bool, catalog, tiles: Supply) -> Seat:
    board = catalog.boards.get(f"b-{s['colour']}" if advanced else "a") or catalog.boards["a"]
    cabins = [Cabin(improvement=tiles.take("improvement")) for _ in range(s["improvements"])]
    cabins += [Cabin() for _ in range(board.cabins - len(cabins))]
    return Seat(name=s["name"], colour=s["colour"], board=board.id, scroll_board=s["scroll_board"],
                coins=s["coins"]["1"] + 3 * s["coins"]["3"] + 5 * s["coins"]["5"], lumber=s["lumber"],
                fire=s["fire"], major_fire=s["major_fire"], rats=s["rats"], vp=s["laps"] * SCORE_LAP + s["track"],
                cabins=cabins, workshops=[Workshop(tiles.take("workshop")) for _ in range(s["workshops"])],
                overseers={cls: Overseer(step=step) for cls, step in s["overseers"].items()},
                scroll=dict(s["scroll"]), registers={"popularity": s["popularity"], "city": s["city"],
                                                         "church": s["church"]},
                boats=[tiles.take("boat:" + cargo) for cargo, count in s["boats"].items() for _ in range(count)],
                wagons=[WagonOwned(tiles.take("wagon")) for _ in range(s["wagons"])])


def score_sheet(position: Position, catalog) -> GameState:
    """The end of the game, scored: `state.scoring` is the breakdown a tracked game shows at its end."""
    state = end_of_game(position, catalog)
    final_scoring(state)
    return state
