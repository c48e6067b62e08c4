"""A player's phone: their estate, and when they must decide, the engine's menu as big buttons."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import get_locale

from .common import check_csrf, device_ok, int_field, load, news_answer, render_once, seat_of, submit
from .svg import estate_key
from .views import base, menu_view, targets

bp = Blueprint("seat", __name__)
PARTS = ("seat_status", "menu", "minimap", "estate")
HELD = "This seat is held by another phone. Scan the seat's code on the host screen to play here."


def seat_context(token: str) -> dict:
    seat = seat_of(token)
    if not device_ok(seat):
        abort(403, HELD)
    game = load(seat["game_id"])
    ctx = base(game)
    post = url_for("seat.act", token=token)
    menu = menu_view(game, seat["seat"])
    ctx.update(seat_index=seat["seat"], seat=game.state.seats[seat["seat"]], token=token, post_url=post,
               proxy=False, targets=targets(game, seat["seat"], post, menu["menu"]),
               part_url=lambda name: url_for("seat.part", token=token, name=name),
               news_url=url_for("seat.news", token=token), **menu)
    return ctx


@bp.get("/seat/<token>")
def page(token: str):
    return render_template("seat.html", **seat_context(token))


@bp.get("/seat/<token>/part/<name>")
def part(token: str, name: str):
    """One live region of the phone, fetched again after a refused action."""
    if name not in PARTS:
        abort(404, "No such part of the screen.")
    return _region(token, name)


@bp.get("/seat/<token>/news")
def news(token: str):
    """Every live region of the phone, once the game has moved on (companion/web/news.py)."""
    ctx = seat_context(token)
    return news_answer(ctx, [_region(token, name, ctx) for name in PARTS])


def _region(token: str, name: str, ctx: dict | None = None) -> str:
    ctx = ctx or seat_context(token)
    if name == "estate":  # the biggest picture on a phone: drawn again only when what it shows changes
        key = (token, estate_key(ctx["state"], ctx["seat_index"]), str(get_locale()))
        return render_once(_ESTATE, key, "partials/_estate.html", lambda: ctx, limit=2048)  # ~15 KB each
    return render_template(f"partials/_{name}.html", **ctx)


_ESTATE: dict[tuple, str] = {}  # rendered estates by seat, what the estate shows, and language


@bp.post("/seat/<token>/act")
def act(token: str):
    """One tap: the n-th option of the menu the phone was showing (checked against its version)."""
    seat = seat_of(token)
    if not device_ok(seat):
        abort(403, HELD)
    check_csrf()
    submit(seat["game_id"], seat["seat"], int_field("version"), int_field("choice"), int_field("decision"))
    if request.headers.get("HX-Request"):
        # the new menu at once; the phone's waiting question brings every other region as news
        return render_template("partials/_menu.html", **seat_context(token))
    return redirect(url_for("seat.page", token=token))


@bp.app_template_filter("roman")
def roman(n: int) -> str:
    from ..engine.setup import roman as r

    return r(n)


