"""The host screen's context (the seat's is seat_screen.py): the game at its version, the seats with their phones,
the join links, built from engine.table_view."""

from __future__ import annotations

import time
from typing import TypedDict

from flask import current_app, url_for

from ..engine import pending
from ..engine.pieces import Pieces
from ..engine.state import COLOURS
from ..engine.view import TableView
from ..engine.view_records import SeatRow as TableSeat
from ..pictures.letters import colour_letter
from ..store import Game
from .access import csrf_token, store
from .address import public_base
from .phones import ago_text
from .translate import request_gettext


class GameNamed(TypedDict):
    id: str


class ScreenBase(TypedDict):
    """What every screen's templates use (`base`)."""

    game: GameNamed
    pieces: Pieces
    version: int
    csrf: str
    letters: dict[str, str]
    symbols: dict[str, str]


SYMBOLS = {"red": "▲", "yellow": "●", "blue": "■", "green": "◆"}


class SeatPhone(TypedDict):
    """What the host screen adds to a seat of the table (table_view's): its number, its colour's symbol, its phone
    (joined, on a new phone since when, heard lately) and its join link and code."""

    index: int
    symbol: str
    joined: bool
    token: str
    url: str
    code: str
    connected: bool
    seen_ago: str
    moved: bool  # on another phone than the first
    since: str  # "HH:MM" the phone joined


class HostSeat(TableSeat, SeatPhone):
    """A seat on the host screen: the table's (table_view's) with its phone."""


def join_url(token: str) -> str:
    """A seat's join link, at the server's own address (web/address.py), whatever name the host
    screen was opened under."""
    return public_base() + url_for("join.join", token=token)


def join_page_url() -> str:
    """Where a phone types a seat's code, at the same address as the join links."""
    return public_base() + url_for("join.code_form")


def seats_view(game: Game, table: TableView) -> list[HostSeat]:
    """The table's seats (`table_view`) with their phones: joined, on a new phone since when, join link."""
    rows = store().seats(game.id)
    out: list[HostSeat] = []
    for row in rows:
        seat, seen = table["seats"][row["seat"]], current_app.extensions["phones"].of(game.id, row["seat"])
        phone: SeatPhone = {"index": row["seat"], "symbol": SYMBOLS[seat["colour"]], "joined": bool(row["device"]),
                            "token": row["token"], "url": join_url(row["token"]), "code": row["code"],
                            "connected": seen["connected"], "seen_ago": ago_text(seen), "moved": row["phone"] > 1,
                            "since": time.strftime("%H:%M", time.localtime(row["joined"]))}
        out.append({**seat, **phone})
    return out


def waiting_seats(game: Game, seats: list[HostSeat]) -> list[HostSeat]:
    """The seats whose answer the game waits for now, with their phones (the host may act for them)."""
    asked = {q["who"] for q in pending(game.state)}
    return [s for s in seats if s["index"] in asked]


def base(game: Game) -> ScreenBase:
    """What every screen's templates use: the game's id, what the table sees of it (`pieces`, never the
    state), its version, the form key, and the colour marks (each colour's letter in the reader's language,
    pictures/letters.py)."""
    return {"game": {"id": game.id}, "pieces": Pieces(game.state), "version": game.version, "csrf": csrf_token(),
            "letters": {c: colour_letter(c, request_gettext) for c in COLOURS}, "symbols": SYMBOLS}

