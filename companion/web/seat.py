"""A player's phone: their estate, and when they must decide, the engine's menu as big buttons."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import get_locale

from ..engine.events import roman as roman_numeral
from .common import SeatMoved, check_csrf, load, news_answer, phone_label, render_once, seat_phone
from .forms import tap_fields
from .tap import play
from .draw import estate_key
from .views import base, menu_view, targets

bp = Blueprint("seat", __name__)
PARTS = ("seat_status", "menu", "minimap", "estate")


@bp.app_errorhandler(SeatMoved)
def moved(exc: SeatMoved):
    """Not this seat's phone (any more): a plain message in place of the whole page, and a header that
    tells the page to stop asking (static/app.js), so an old phone goes quiet instead of retrying."""
    headers = {"X-Seat-Moved": "1", "Cache-Control": "no-store"}
    if request.path.startswith("/api/"):
        return jsonify({"error": exc.description, "moved": exc.moved}), 403, headers
    template = "partials/_seat_moved.html" if request.headers.get("HX-Request") else "seat_moved.html"
    return render_template(template, moved=exc.moved), 403, headers


def seat_context(token: str) -> dict:
    seat = seat_phone(token)
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
    seat = seat_phone(token)
    check_csrf()
    version, decision, choice = tap_fields()
    play(seat["game_id"], seat["seat"], version, decision, choice, phone_label(seat))
    if request.headers.get("HX-Request"):
        # the new menu at once; the phone's waiting question brings every other region as news
        return render_template("partials/_menu.html", **seat_context(token))
    return redirect(url_for("seat.page", token=token))


@bp.app_template_filter("roman")
def roman(n: int) -> str:
    return roman_numeral(n)


