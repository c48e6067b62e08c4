"""A game's seats and their phones: each seat's secret link (its token) and code, the phone that holds it
(the last to join), and how often the seats were taken (news for the host's phones panel)."""

from __future__ import annotations

import secrets
import time
from typing import TypedDict, cast

from .parts import Part


class SeatRow(TypedDict):
    """A seat's row: its secret link (`token`), the key of the phone that holds it (`device`, "" before any
    joined), when that phone joined, how many phones it has been on, and its join code."""

    game_id: str
    seat: int
    token: str
    device: str
    joined: float
    phone: int
    code: str


class Glance(TypedDict):
    """What a screen's question compares before it reads a game (Store.load takes it): its version and key."""

    version: int
    host_token: str


class SeatGlance(SeatRow, Glance):
    """A seat's row with its game's version and host key, read at once (Store.seat_glance)."""


def token() -> str:
    """Secret tokens: 128 bits from `secrets`, URL-safe."""
    return secrets.token_urlsafe(16)


class Seats(Part):
    """The seats' part of the Store (games.py), on its connections."""

    def seats(self, gid: str) -> list[SeatRow]:
        return cast(list[SeatRow], self._rows("select * from seats where game_id = ? order by seat", [gid]))

    def seat_by_token(self, tok: str) -> SeatRow:
        return cast(SeatRow, self._one("select * from seats where token = ?", [tok], tok))

    def seat_glance(self, tok: str) -> SeatGlance:
        """A seat with its game's `version` and `host_token`, in one read: what a phone's question compares,
        and with `load(game_id, glance)` a game kept in memory at that version costs no more."""
        return cast(SeatGlance, self._one("select seats.*, games.version, games.host_token from seats join games "
                                          "on games.id = seats.game_id where token = ?", [tok], tok))

    def seat_by_code(self, code: str) -> SeatRow:
        return cast(SeatRow, self._one("select * from seats where code = ? and code != ''", [code], code))

    def join(self, tok: str) -> tuple[SeatRow, str]:
        """A phone scanned a seat's code: it becomes that seat's device (moving it from any other) and
        the seat's next phone number."""
        seat = self.seat_by_token(tok)
        device = token()
        with self._immediate() as db:
            where = [seat["game_id"], seat["seat"]]
            db.execute("update seats set device = ?, joined = ?, phone = phone + 1 where game_id = ? and seat = ?",
                       [device, time.time(), *where])
            seat = cast(SeatRow, self._rows("select * from seats where game_id = ? and seat = ?", where)[0])
        for hear in self.on_look_again:
            hear(seat["game_id"])
        return seat, device

    def joins(self, gid: str) -> int:
        """How many times the game's seats have been taken by a phone: the host's phones panel is news
        when this changes, though the game itself has not moved."""
        return self._db().execute("select coalesce(sum(phone), 0) from seats where game_id = ?", [gid]).fetchone()[0]
