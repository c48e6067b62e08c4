"""JSON API for tests, bots and scripts: the same store and engine calls as the HTML views (a tap goes
through web/tap.py like a phone's).

A seat is played from one phone at a time, by the API as on a page: `POST /api/seats/<token>/join` moves
the seat to the caller (as scanning its code does) and gives its key, which every other seat call sends
in the X-Seat-Device header (or the phone's own `seat_<token>` cookie)."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request, url_for

from ...engine import IllegalAction, pending
from ...store import NotFound
from ...words import Text
from ..access import SEAT_HEADER, host_key_checked, load, phone_label, require_host, seat_of, seat_phone, store
from ..address import public_base
from ..forms import json_options, json_tap
from ..limits import count_new_game
from ..tap import menu_json, play
from ..views import join_url

bp = Blueprint("api", __name__, url_prefix="/api")


def _json() -> dict:
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # absurdly nested JSON
        data = None
    if not isinstance(data, dict):
        abort(400, Text("Send a JSON object."))
    return data


@bp.post("/games")
def create():
    opts, seed = json_options(_json())
    count_new_game()
    try:
        game = store().create(opts, seed)
    except IllegalAction as exc:
        abort(400, exc.reason)
    seats = store().seats(game.id)
    return jsonify({"id": game.id, "version": game.version, "host_token": game.host_token,
                    "host_url": public_base() + url_for("host.page", gid=game.id, key=game.host_token),
                    "seats": [{"seat": s["seat"], "token": s["token"], "join_url": join_url(s["token"])}
                              for s in seats]}), 201


@bp.get("/games/<gid>/state")
def state(gid: str):
    game = require_host(gid)
    return jsonify({"id": gid, "version": game.version, "phase": game.state.phase, "pending": pending(game.state),
                    "state": game.state.to_dict()})


@bp.delete("/games/<gid>")
def delete(gid: str):
    """Delete a game for good (host credential): its log, seats and seat links."""
    require_host(gid)
    try:
        store().delete(gid)
    except NotFound:  # deleted by another screen a moment ago: just as good
        pass
    return jsonify({"deleted": gid})


@bp.get("/games/<gid>/version")
def version(gid: str):
    load(gid)
    return jsonify({"version": store().version(gid)})


@bp.post("/seats/<token>/join")
def join(token: str):
    """Take the seat, as a phone scanning its code does: any phone that held it is out. The body is a JSON
    object (`{}`), as for every API write, so a cross-site form cannot send it."""
    seat_of(token)  # 404 with a message for a forged or mistyped token
    _json()
    seat, device = store().join(token)
    return jsonify({"seat": seat["seat"], "device": device, "header": SEAT_HEADER, "phone": phone_label(seat)})


@bp.get("/seats/<token>/menu")
def menu(token: str):
    seat = seat_phone(token, api=True)
    game = load(seat["game_id"])
    return jsonify({"version": game.version, "seat": seat["seat"], "phase": game.state.phase,
                    "menu": menu_json(game, seat["seat"])})


@bp.post("/seats/<token>/actions")
def seat_action(token: str):
    seat = seat_phone(token, api=True)
    return _act(seat["game_id"], seat["seat"], phone_label(seat))


@bp.get("/games/<gid>/host/menu")
def host_menu(gid: str):
    game = require_host(gid)
    return jsonify({"version": game.version, "menu": menu_json(game, "host")})


@bp.post("/games/<gid>/host/actions")
def host_action(gid: str):
    host_key_checked(gid)
    return _act(gid, "host", "host")


def _act(gid: str, who, via: str):
    """{"version": V, "choice": n} → the new version; a refusal (web/tap.py) carries the reason, the
    version and the menu as they are now."""
    version, decision, choice = json_tap(_json())
    new = play(gid, who, version, decision, choice, via)
    return jsonify({"version": new.version, "phase": new.state.phase})
