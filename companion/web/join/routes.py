"""Joining a seat: by its QR code (the phone that scans it becomes the seat's phone), or by typing the
seat's five-letter code on /join, which does exactly the same."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from ...clients import client_key
from ...store import NotFound
from ...store.codes import LENGTH, typed_code
from ...words import Text
from ..access import check_csrf, csrf_token, seat_of, store

bp = Blueprint("join", __name__)
YEAR = 60 * 60 * 24 * 365
WRONG = Text("No seat has that code. Check the letters under your seat's QR code on the host screen.")
TOO_MANY = Text("Too many codes tried from this phone in the last minute. Wait a minute and try again.")


@bp.get("/j/<token>")
def join(token: str):
    seat_of(token)  # 404 with a message for a forged or mistyped code
    seat, device = store().join(token)
    resp = redirect(url_for("seat.page", token=token))
    resp.set_cookie(f"seat_{token}", device, httponly=True, samesite="Lax", max_age=YEAR)
    resp.set_cookie("last_seat", token, httponly=True, samesite="Lax", max_age=YEAR)
    return resp


@bp.get("/join")
def code_form():
    return _form()


@bp.post("/join")
def by_code():
    """A typed code leads to the seat's join link: the same step as scanning its QR code. Every try
    counts against the address's limit, so guessing one of ~8 million codes stays hopeless."""
    check_csrf()
    typed = typed_code(request.form.get("code", ""))
    if not current_app.extensions["join_tries"].allow(client_key(request.remote_addr or "")):
        return _form(TOO_MANY, typed, 429)
    try:
        seat = store().seat_by_code(typed)
    except NotFound:
        return _form(WRONG, typed, 404)
    return redirect(url_for("join.join", token=seat["token"]), 303)


def _form(problem: str | None = None, typed: str = "", status: int = 200):
    return render_template("join/join.html", csrf=csrf_token(), problem=problem, typed=typed, length=LENGTH), status


@bp.get("/play")
def play():
    """A reload, a new tab or a bookmark returns to the seat this phone last joined."""
    token = request.cookies.get("last_seat")
    if not token:
        return redirect(url_for("host.index"))
    return redirect(url_for("seat.page", token=token))
