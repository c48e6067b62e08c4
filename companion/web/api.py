"""JSON API for tests, bots and scripts: the same store and engine calls as the HTML views.

A seat is played from one phone at a time, by the API as on a page: `POST /api/seats/<token>/join` moves
the seat to the caller (as scanning its code does) and gives its key, which every other seat call sends
in the X-Seat-Device header (or the phone's own `seat_<token>` cookie)."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request, url_for

from ..engine import IllegalAction, legal_actions, pending
from ..store import NotFound, Stale
from .address import public_base
from .common import SEAT_HEADER, load, phone_label, require_host, seat_of, seat_phone, store
from .host import count_new_game, parse_options
from .views import join_url

bp = Blueprint("api", __name__, url_prefix="/api")


def _json() -> dict:
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # absurdly nested JSON
        data = None
    if not isinstance(data, dict):
        abort(400, "Send a JSON object.")
    return data


@bp.post("/games")
def create():
    data = _json()
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players) or not 1 <= len(players) <= 4:
        abort(400, "players must be a list of 1 to 4 objects with a name and a colour.")
    form = {"seed": str(data["seed"]) if data.get("seed") is not None else "", "draw": str(data.get("draw", "app")),
            "advanced": bool(data.get("advanced")), "priority_tile": bool(data.get("priority_tile"))}
    for i, p in enumerate(players):
        if not isinstance(p.get("name"), str) or not isinstance(p.get("colour"), str):
            abort(400, "every player needs a name and a colour, both texts.")
        form[f"name{i}"], form[f"colour{i}"] = p["name"], p["colour"]
    opts, seed = parse_options(form)
    if len(opts.players) != len(players):
        abort(400, "every player needs a name.")
    count_new_game()
    try:
        game = store().create(opts, seed)
    except IllegalAction as exc:
        abort(400, str(exc))
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
                    "menu": _menu(game, seat["seat"])})


@bp.post("/seats/<token>/actions")
def seat_action(token: str):
    seat = seat_phone(token, api=True)
    return _act(seat["game_id"], seat["seat"], phone_label(seat))


@bp.get("/games/<gid>/host/menu")
def host_menu(gid: str):
    game = require_host(gid)
    return jsonify({"version": game.version, "menu": _menu(game, "host")})


@bp.post("/games/<gid>/host/actions")
def host_action(gid: str):
    require_host(gid)
    return _act(gid, "host", "host")


def _menu(game, who) -> list[dict]:
    return [{"choice": i, "label": o["label"], "available": o["available"], "cost": o.get("cost"),
             "reason": o.get("reason"), "rule": o.get("rule"), "value": o["value"],
             "decision": o["action"]["decision"]} for i, o in enumerate(legal_actions(game.state, who))]


def _act(gid: str, who, via: str):
    """{"version": V, "choice": n} → the new version, or 409 with the reason and the fresh menu."""
    data = _json()
    version, choice = data.get("version"), data.get("choice")
    if not isinstance(version, int) or isinstance(version, bool) or not isinstance(choice, int) \
            or isinstance(choice, bool):
        abort(400, "Send {\"version\": <int>, \"choice\": <menu index>}.")
    game = load(gid)
    menu = legal_actions(game.state, who)

    def refuse(reason: str, code: int = 409):
        return jsonify({"error": reason, "version": game.version, "menu": _menu(game, who)}), code

    if version != game.version:
        return refuse("the game moved on")
    if not menu:
        return refuse("nothing to decide for you right now")
    if not 0 <= choice < len(menu):
        return refuse("that option is not on the menu", 400)
    opt = menu[choice]
    if "decision" in data and data["decision"] != opt["action"]["decision"]:
        return refuse("the game moved on")
    if not opt["available"]:
        return refuse(f"not possible: {opt['reason']} ({opt['rule']})")
    try:
        new = store().act(gid, version, who, opt["action"]["decision"], choice, via)
    except Stale:
        game = load(gid)
        return refuse("the game moved on")
    except IllegalAction as exc:
        return refuse(str(exc))
    return jsonify({"version": new.version, "phase": new.state.phase})
