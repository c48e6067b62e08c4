"""A player's phone: their estate, and when they must decide, the engine's menu as big buttons."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from ...engine import IllegalAction
from ...engine.events import roman as roman_numeral
from ...store import Game, Stale
from ...store.seats import SeatGlance
from ...words import Text
from .. import news as held
from ..access import SeatMoved, check_csrf, phone_label, seat_phone, store
from ..forms import int_field, tap_fields
from ..tap import play
from . import screen

bp = Blueprint("seat", __name__)
PARTS = screen.PARTS


@bp.app_errorhandler(SeatMoved)
def moved(exc: SeatMoved):
    """Not this seat's phone (any more): a plain message in place of the whole page, and a header that
    tells the page to stop asking (static/app.js), so an old phone goes quiet instead of retrying."""
    headers = {"X-Seat-Moved": "1", "Cache-Control": "no-store"}
    if request.path.startswith("/api/"):
        return jsonify({"error": exc.description, "moved": exc.moved}), 403, headers
    template = "seat/_seat_moved.html" if request.headers.get("HX-Request") else "seat/seat_moved.html"
    return render_template(template, moved=exc.moved), 403, headers


def seat_context(token: str, seat: SeatGlance | None = None, game: Game | None = None) -> screen.SeatScreen:
    """The seat's screen on its phone: for a tap, the seat it checked and the game it wrote; else the game at
    the version its seat was read with (Store.seat_glance)."""
    seat = seat or seat_phone(token)
    game = game or store().load(seat["game_id"], seat)
    urls = screen.Addresses(post=url_for("seat.act", token=token), news=url_for("seat.news", token=token),
                            part=lambda name: url_for("seat.part", token=token, name=name),
                            undo=url_for("seat.undo", token=token))
    return screen.context(game, seat["seat"], urls, proxy=False)


@bp.get("/seat/<token>")
def page(token: str):
    return screen.page(seat_context(token))


@bp.get("/seat/<token>/part/<name>")
def part(token: str, name: str):
    """One live region of the phone, fetched again after a refused action."""
    return screen.part(lambda: seat_context(token), name)


@bp.get("/seat/<token>/news")
def news(token: str):
    """The live regions of the phone that changed, once the game has moved on (web/news.py: held until then)."""
    return held.answer(lambda: seat_phone(token), lambda seat: screen.answer(seat_context(token, seat)), phone=True)


@bp.post("/seat/<token>/act")
def act(token: str):
    """One tap: the n-th option of the menu the phone was showing (checked against its version)."""
    seat = seat_phone(token)
    check_csrf()
    version, decision, choice = tap_fields()
    game = play(seat["game_id"], seat["seat"], version, decision, choice, phone_label(seat))
    if request.headers.get("HX-Request"):
        return screen.answer(seat_context(token, seat, game))  # its news at once, drawn from the game written
    return redirect(url_for("seat.page", token=token))


@bp.post("/seat/<token>/undo")
def undo(token: str):
    """The phone takes back its own last act (issue 25 item 6): only while no other seat or the host has acted
    since and nothing hidden came to light (store/put_back.py); it gets the same put-back lines as the host."""
    seat = seat_phone(token)
    check_csrf()
    if request.form.get("confirm") != "yes":
        abort(400, Text("Tick the box to confirm the undo."))
    try:
        store().undo(seat["game_id"], int_field("version"), 1, seat=seat["seat"], via=phone_label(seat))
    except Stale:
        abort(409, Text("The game moved on: look again before undoing."))
    except IllegalAction as exc:
        abort(409, Text("Not possible: {reason}.", reason=exc.reason))
    if request.headers.get("HX-Request"):
        return screen.answer(seat_context(token))  # its news at once, as a tap's answer
    return redirect(url_for("seat.page", token=token))


@bp.app_template_filter("roman")
def roman(n: int) -> str:
    return roman_numeral(n)


