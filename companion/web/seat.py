"""A player's phone: their estate, and when they must decide, the engine's menu as big buttons."""

from __future__ import annotations

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale

from .common import check_csrf, device_ok, int_field, load, render_once, seat_of, store, submit
from .views import base, menu_view, seats_view, targets

bp = Blueprint("seat", __name__)
PARTS = ("menu", "estate", "seat_status", "minimap")


def seat_context(token: str) -> dict:
    seat = seat_of(token)
    if not device_ok(seat):
        abort(403, "This seat is held by another phone. Scan the seat's code on the host screen to play here.")
    game = load(seat["game_id"])
    ctx = base(game)
    post = url_for("seat.act", token=token)
    menu = menu_view(game, seat["seat"])
    ctx.update(seat_index=seat["seat"], seat=game.state.seats[seat["seat"]], token=token, post_url=post,
               proxy=False, seats=seats_view(game), targets=targets(game, seat["seat"], post, menu["menu"]),
               part_url=lambda name: url_for("seat.part", token=token, name=name), **menu)
    return ctx


@bp.get("/seat/<token>")
def page(token: str):
    return render_template("seat.html", **seat_context(token))


@bp.get("/seat/<token>/part/<name>")
def part(token: str, name: str):
    if name not in PARTS:
        abort(404, "No such part of the screen.")
    if name == "estate":  # the biggest picture on a phone; it changes only with the game's version
        seat = seat_of(token)
        if not device_ok(seat):
            abort(403, "This seat is held by another phone. Scan the seat's code on the host screen to play here.")
        key = (token, store().version(seat["game_id"]), str(get_locale()))
        return render_once(_ESTATE, key, "partials/_estate.html", lambda: seat_context(token))
    return render_template(f"partials/_{name}.html", **seat_context(token))


_ESTATE: dict[tuple, str] = {}  # rendered estates by seat, game version and language


@bp.post("/seat/<token>/act")
def act(token: str):
    """One tap: the n-th option of the menu the phone was showing (checked against its version)."""
    seat = seat_of(token)
    if not device_ok(seat):
        abort(403, "This seat is held by another phone. Scan the seat's code on the host screen to play here.")
    check_csrf()
    submit(seat["game_id"], seat["seat"], int_field("version"), int_field("choice"), int_field("decision"))
    if request.headers.get("HX-Request"):
        resp = make_response(render_template("partials/_menu.html", **seat_context(token)))
        resp.headers["HX-Trigger"] = "changed"  # every other region of this phone refreshes at once
        return resp
    return redirect(url_for("seat.page", token=token))


@bp.app_template_filter("roman")
def roman(n: int) -> str:
    from ..engine.setup import roman as r

    return r(n)


