"""Who may do what: finding a game or seat (404 when deleted or unknown), the host's key, a seat's phone,
the form's csrf token, and a refusal's answer (JSON, the flash partial or an error page)."""

from __future__ import annotations

import hmac
import secrets

from flask import abort, current_app, jsonify, render_template, request, session
from werkzeug.exceptions import Forbidden

from ..store import Deleted, Game, NotFound, Store
from ..store.games import GameRow, HostGlance
from ..store.seats import SeatGlance, SeatRow
from ..words import Text, put_text, tr
from .translate import request_gettext

DELETED = Text("This game was deleted by its host.")


def store() -> Store:
    return current_app.extensions["store"]


def _found(read, missing: str):
    """What `read` finds in the store, or 404 saying whether it was deleted or never existed."""
    try:
        return read()
    except Deleted:
        abort(404, DELETED)
    except NotFound:
        abort(404, missing)


def load(gid: str) -> Game:
    return _found(lambda: store().load(gid), Text("There is no such game."))


def host_key(gid: str) -> str | None:
    return request.args.get("key") or request.headers.get("X-Host-Token") or request.cookies.get(f"host_{gid}")


def require_host(gid: str, glance: HostGlance | None = None) -> Game:
    """Host actions need the host credential (from the host URL, a header, or its cookie). `glance`: the
    game's row as host_glance read it, its key checked already."""
    glance = glance or host_glance(gid)
    return _found(lambda: store().load(gid, glance), Text("There is no such game."))


def host_glance(gid: str) -> HostGlance:
    """The game's version, host key, seats taken and ticks, in one read (Store.glance), once the host
    credential is checked: a host screen's question compares it, and its page is drawn from it."""
    row = _found(lambda: store().glance(gid), Text("There is no such game."))
    _check_host_key(gid, row["host_token"])
    return row


def host_key_checked(gid: str) -> GameRow:
    """The host credential checked against the game's row alone (one read), which it gives back: a tap
    reads the game once, when the store writes it."""
    row = _found(lambda: store().row(gid), Text("There is no such game."))
    _check_host_key(gid, row["host_token"])
    return row


def _check_host_key(gid: str, secret: str) -> None:
    given = host_key(gid) or ""
    if not hmac.compare_digest(given.encode(), secret.encode()):
        abort(403, Text("This page needs the host's link."))


#: an unknown seat link: mistyped, or its game is on another machine (a game resumed there has new links)
NOT_HERE = Text("This seat's game is not on this machine: the link may be mistyped, or the game was resumed on "
                "another machine with new codes. Scan the seat's code on the host screen.")


def seat_of(token: str) -> SeatRow:
    return _found(lambda: store().seat_by_token(token), NOT_HERE)


SEAT_HEADER = "X-Seat-Device"  # a script's copy of the phone cookie (POST /api/seats/<token>/join gives it)
MOVED = Text("This seat moved to another phone — scan the seat's code to take it back.")
ELSEWHERE = Text("This seat is not on this phone. Scan the seat's code on the host screen to play here.")


class SeatMoved(Forbidden):
    """This request is not from the seat's phone: the page says so and stops asking (static/app.js reads
    the X-Seat-Moved header), the API answers 403 in JSON. `moved` when it came with an older phone's key."""

    def __init__(self, moved: bool):
        super().__init__(MOVED if moved else ELSEWHERE)
        self.moved = moved


def _same(given: str, secret: str) -> bool:
    return bool(secret) and hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                                                secret.encode("utf-8", "surrogatepass"))


def _presented(seat: SeatRow, api: bool) -> list[str]:
    """The seat keys this request carries: the phone's cookie, and for the API the X-Seat-Device header."""
    keys = [request.cookies.get(f"seat_{seat['token']}", "")]
    if api:
        keys.append(request.headers.get(SEAT_HEADER, ""))
    return [k for k in keys if k]


def device_ok(seat: SeatRow, api: bool = False) -> bool:
    """The phone holding this seat: the one that scanned its code (or joined by the API) most recently."""
    return any(_same(key, seat["device"]) for key in _presented(seat, api))


def seat_phone(token: str, api: bool = False) -> SeatGlance:
    """The seat with its game's version and host key (Store.seat_glance: one read), when this request comes
    from its phone; otherwise 403 saying where the seat went."""
    seat = _found(lambda: store().seat_glance(token), NOT_HERE)
    if not device_ok(seat, api):
        raise SeatMoved(moved=bool(_presented(seat, api)))
    return seat


def phone_label(seat: SeatRow) -> str:
    """Who sent an action, as the log keeps it: the seat's n-th phone (not a secret)."""
    return f"phone {seat['phone']}"


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def check_csrf() -> None:
    sent = request.form.get("csrf", "")
    if not sent or not hmac.compare_digest(sent.encode(), session.get("csrf", "").encode()):
        abort(400, Text("This form has expired. Reload the page and try again."))


def refusal(message: str, code: int):
    """A refusal's message, translated here as plain text: the page escapes it like any other text (a
    template's _() would mark it safe, and a message may one day carry what someone typed). JSON for the
    API, the flash partial for htmx, an error page otherwise."""
    if request.path.startswith("/api/"):
        return jsonify({"error": message}), code
    text = tr(put_text({}, "text", message), "text", request_gettext)  # a Text with values, or a fixed sentence
    if request.headers.get("HX-Request"):
        return render_template("partials/_error.html", message=text), code
    return render_template("error.html", message=text, code=code), code
