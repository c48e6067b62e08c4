"""What the templates show: one context per screen, built from the game and the engine's menus."""

from __future__ import annotations

import time
from functools import lru_cache

import qrcode
import qrcode.image.svg
from flask import url_for
from markupsafe import Markup

from ..engine import legal_actions, pending
from ..engine.movement import available
from ..engine.state import COLOUR_LETTERS
from ..store import Game
from .address import public_base
from .common import csrf_token, store
from .translate import request_gettext, tr

SYMBOLS = {"red": "▲", "yellow": "●", "blue": "■", "green": "◆"}


@lru_cache(maxsize=512)
def qr_svg(url: str) -> Markup:
    """A real QR code a phone camera reads, as inline SVG (no image files, no CDN). Remembered per
    address: drawing one takes ~6 ms, and the phones panel comes with every change on the host screen."""
    img = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    return Markup(img.to_string(encoding="unicode"))


def join_url(token: str) -> str:
    """A seat's join link, at the server's own address (web/address.py), whatever name the host
    screen was opened under."""
    return public_base() + url_for("join.join", token=token)


def seats_view(game: Game) -> list[dict]:
    s = game.state
    rows = store().seats(game.id)
    out = []
    for row in rows:
        seat = s.seats[row["seat"]]
        out.append({"index": row["seat"], "name": seat.name, "colour": seat.colour,
                    "letter": COLOUR_LETTERS[seat.colour], "symbol": SYMBOLS[seat.colour],
                    "joined": bool(row["device"]), "token": row["token"], "url": join_url(row["token"]),
                    "moved": row["phone"] > 1, "since": time.strftime("%H:%M", time.localtime(row["joined"])),
                    "vp": seat.vp, "registers": seat.registers, "lieutenants_left": len(available(s, row["seat"])),
                    "waiting": any(p["who"] == row["seat"] for p in pending(s))})
    return out


def base(game: Game) -> dict:
    s = game.state
    questions = pending(s)
    active = s.order[s.turn] if s.phase == "play" and 0 <= s.turn < len(s.order) else None
    return {"game": game, "state": s, "version": game.version, "questions": questions, "active": active,
            "csrf": csrf_token(), "letters": COLOUR_LETTERS, "symbols": SYMBOLS,
            "waiting_for": [("host" if q["who"] == "host" else s.seats[q["who"]].name) for q in questions]}


def menu_view(game: Game, who) -> dict:
    menu = legal_actions(game.state, who)
    question = next((q for q in pending(game.state) if q["who"] == who), None)
    return {"menu": menu, "question": question, "decision": menu[0]["action"]["decision"] if menu else None}


def targets(game: Game, who, post_url: str, menu: list[dict]) -> dict:
    """Hexes and docks a seat can tap on its mini map: the turn menu's places with their cost."""
    out = {}
    for i, opt in enumerate(menu):
        v = opt["value"]
        if not (isinstance(v, dict) and v.get("go") in ("hex", "dock")) or not opt["available"]:
            continue
        place = f"hex:{v['tile']}" if v["go"] == "hex" else f"dock:{v['dock']}"
        if place in out:
            continue
        vals = f'{{"choice": {i}, "version": {game.version}, "decision": {opt["action"]["decision"]}}}'
        out[place] = {"label": tr(opt, "cost", request_gettext), "attrs": {
            "hx-post": post_url, "hx-vals": vals, "hx-target": "#menu", "hx-swap": "outerHTML",
            "hx-include": "#csrf", "role": "button", "tabindex": "0"}}
    return out
