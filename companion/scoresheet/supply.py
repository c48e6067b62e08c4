"""Which printed tiles a game of a given size has (R-SETUP-8, R-SETUP-10, R-BUILD-4): what the sheet checks its
totals against, and what the end-of-game position hands out to the players, in catalog order.

The sheet counts tiles ("3 workshops", "2 boats carrying silk"); final scoring reads only what each tile
counts as (a building, a boat and its cargo), so any tiles of the right kind give the same score.
"""

from __future__ import annotations


def boats_in_game(catalog, players: int) -> list:
    """R-SETUP-8: 2p and solo return the boats carrying precious stones to the box."""
    return [b for b in catalog.boats.values() if players > 2 or b.cargo != "stones"]


def cargos(catalog) -> list[str]:
    """Every cargo printed on a boat, in catalog order."""
    return list(dict.fromkeys(b.cargo for b in catalog.boats.values()))


def wagons_in_game(catalog, players: int) -> list[str]:
    """R-SETUP-10: each stack holds one wagon per back number; 2p and solo play one stack, 3–4p two."""
    ids = sorted(catalog.wagons)
    if players > 2:
        return ids
    firsts: dict[int, str] = {}
    for wid in ids:
        firsts.setdefault(catalog.wagons[wid].back, wid)
    return [firsts[b] for b in sorted(firsts)]


class Supply:
    """Tiles handed out one by one, each at most once: the end-of-game position's workshops, cabin
    improvements, wagons and boats."""

    def __init__(self, catalog, players: int):
        self.left = {"workshop": sorted(catalog.workshops), "improvement": sorted(catalog.improvements),
                     "wagon": wagons_in_game(catalog, players)}
        for boat in boats_in_game(catalog, players):
            self.left.setdefault("boat:" + boat.cargo, []).append(boat.id)

    def take(self, kind: str) -> str:
        """The next tile of a kind ("workshop", "boat:silk"…); the sheet has checked there is one."""
        return self.left[kind].pop(0)
