"""Joining a seat by its QR code: the phone that scans it becomes the seat's phone."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for

from .common import seat_of, store

bp = Blueprint("join", __name__)
YEAR = 60 * 60 * 24 * 365


@bp.get("/j/<token>")
def join(token: str):
    seat_of(token)  # 404 with a message for a forged or mistyped code
    seat, device = store().join(token)
    resp = redirect(url_for("seat.page", token=token))
    resp.set_cookie(f"seat_{token}", device, httponly=True, samesite="Lax", max_age=YEAR)
    resp.set_cookie("last_seat", token, httponly=True, samesite="Lax", max_age=YEAR)
    return resp


@bp.get("/play")
def play():
    """A reload, a new tab or a bookmark returns to the seat this phone last joined."""
    token = request.cookies.get("last_seat")
    if not token:
        return redirect(url_for("host.index"))
    return redirect(url_for("seat.page", token=token))
