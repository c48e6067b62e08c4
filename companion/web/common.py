"""Small helpers shared by the views: finding a game, checking who may act, answering a refusal, and
sending a screen its regions."""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Callable

from flask import abort, current_app, jsonify, render_template, request, session
from werkzeug.exceptions import Forbidden

from ..store import Deleted, Game, NotFound, Store
from . import pictures
from .draw.markup import digest
from .translate import request_gettext, tr
from ..words import T, keep

DELETED = T("This game was deleted by its host.")


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
    return _found(lambda: store().load(gid), T("There is no such game."))


def host_key(gid: str) -> str | None:
    return request.args.get("key") or request.headers.get("X-Host-Token") or request.cookies.get(f"host_{gid}")


def require_host(gid: str) -> Game:
    """Host actions need the host credential (from the host URL, a header, or its cookie)."""
    game = load(gid)
    _check_host_key(gid, game.host_token)
    return game


def host_key_checked(gid: str) -> dict:
    """The host credential checked against the game's row alone (one read), which it gives back: a tap
    reads the game once, when the store writes it."""
    row = _found(lambda: store().row(gid), T("There is no such game."))
    _check_host_key(gid, row["host_token"])
    return row


def _check_host_key(gid: str, secret: str) -> None:
    given = host_key(gid) or ""
    if not hmac.compare_digest(given.encode(), secret.encode()):
        abort(403, T("This page needs the host's link."))


def seat_of(token: str) -> dict:
    return _found(lambda: store().seat_by_token(token),
                  T("This seat link is not valid (it may be mistyped or from another game)."))


SEAT_HEADER = "X-Seat-Device"  # a script's copy of the phone cookie (POST /api/seats/<token>/join gives it)
MOVED = T("This seat moved to another phone — scan the seat's code to take it back.")
ELSEWHERE = T("This seat is not on this phone. Scan the seat's code on the host screen to play here.")


class SeatMoved(Forbidden):
    """This request is not from the seat's phone: the page says so and stops asking (static/app.js reads
    the X-Seat-Moved header), the API answers 403 in JSON. `moved` when it came with an older phone's key."""

    def __init__(self, moved: bool):
        super().__init__(MOVED if moved else ELSEWHERE)
        self.moved = moved


def _same(given: str, secret: str) -> bool:
    return bool(secret) and hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                                                secret.encode("utf-8", "surrogatepass"))


def _presented(seat: dict, api: bool) -> list[str]:
    """The seat keys this request carries: the phone's cookie, and for the API the X-Seat-Device header."""
    keys = [request.cookies.get(f"seat_{seat['token']}", "")]
    if api:
        keys.append(request.headers.get(SEAT_HEADER, ""))
    return [k for k in keys if k]


def device_ok(seat: dict, api: bool = False) -> bool:
    """The phone holding this seat: the one that scanned its code (or joined by the API) most recently."""
    return any(_same(key, seat["device"]) for key in _presented(seat, api))


def seat_phone(token: str, api: bool = False) -> dict:
    """The seat, when this request comes from its phone; otherwise 403 saying where the seat went."""
    seat = seat_of(token)
    if not device_ok(seat, api):
        raise SeatMoved(moved=bool(_presented(seat, api)))
    return seat


def phone_label(seat: dict) -> str:
    """Who sent an action, as the log keeps it: the seat's n-th phone (not a secret)."""
    return f"phone {seat['phone']}"


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def check_csrf() -> None:
    sent = request.form.get("csrf", "")
    if not sent or not hmac.compare_digest(sent.encode(), session.get("csrf", "").encode()):
        abort(400, T("This form has expired. Reload the page and try again."))


def render_once(cache: dict, key: tuple, template: str, context, limit: int = 512) -> str:
    """A big picture (city map, estate) or list changes only with what it shows: render it once per key
    (which names the game or seat, what it shows and the language) and serve it from memory after. The
    pictures it named from the page's library are kept with it, and named again when it is served."""
    hit = cache.get(key)
    if hit is None:
        before = pictures.named_now()
        html = render_template(template, **context())
        named = {sid: symbol for sid, symbol in pictures.named_now().items() if sid not in before}
        if len(cache) > limit:
            cache.clear()
        hit = cache[key] = (html, named)
    pictures.name_again(hit[1])
    return hit[0]


@dataclass
class Region:
    """One live region of a screen as it is now: its element's id, what it shows (`shows`, a short digest
    the page keeps in the region's data-shows), how to draw it whole, and, for a region that only grows
    (the host's log), how to draw what it gained since what a page shows (None: draw it whole). `mark`:
    the element that carries data-shows, when not the region itself. `same`: what a page shows when its
    first drawing of the same content left a long list to load when opened (host_screen: the setup
    steps after setup)."""

    id: str
    shows: str
    draw: Callable[[], str]
    since: Callable[[str], str | None] | None = None
    mark: str | None = None
    same: tuple[str, ...] = ()


def drawn(html: str) -> Region:
    """A region drawn already (a small one): what it shows is its markup."""
    rid = REGION_ID.search(html)
    if rid is None:
        raise ValueError("a live region is one <section> with an id")
    return Region(rid.group(1), digest(html)[:SHOWN_DIGITS], lambda: html)


REGION_ID = re.compile(r'^\s*<section [^>]*?\bid="([^"]+)"')
SHOWN_DIGITS = 12  # of a region's digest: what a page says it shows, in every question it asks


def stamped(region: Region) -> str:
    """The region drawn whole, marked with what it shows (data-shows on its <section>)."""
    html = region.draw()
    if region.mark:
        return html
    head, sep, rest = html.partition("<section ")
    return head + sep + f'data-shows="{region.shows}" ' + rest


def oob(region: str) -> str:
    """A live region marked to replace its namesake on the page when it arrives with the news."""
    head, sep, rest = region.partition("<section ")
    if not sep or head.strip():
        raise ValueError("a live region is one <section> element")
    return '<section hx-swap-oob="true" ' + rest


def shown() -> dict[str, str]:
    """What the asking page shows, region by region: its question's `k` ("id:shows,…", static/app.js reads
    the data-shows of each region). A page that says nothing is sent every region."""
    out = {}
    for pair in request.values.get("k", "").split(","):
        rid, _, shows = pair.partition(":")
        if rid and shows:
            out[rid] = shows
    return out


def screen_answer(ctx: dict, regions: list[Region]) -> str:
    """A screen as it is now, in one answer: a new "anything new?" question at the new version, and each
    live region whose content changed since what the page shows (only what a growing region gained, when
    that is all), and the pictures they name that the page's library lacks. A move costs each screen one
    request, and only what the move changed."""
    seen = shown()
    out = [render_template("partials/_poll.html", **ctx)]
    for region in regions:
        had = seen.get(region.mark or region.id)
        if had == region.shows or had in region.same:
            continue
        grown = region.since(had) if region.since and had else None
        out.append(grown if grown is not None else oob(stamped(region)))
    pictures.keep_only(*out)  # only the pictures what is sent names
    out.append(pictures.added())
    return "".join(out)


def news_answer(ctx: dict, regions: list[Region]):
    """The answer to a screen's question: nothing (204) when it already shows this version, else the
    screen as it is now."""
    joins, phones, ticked = request.args.get("j"), request.args.get("p"), request.args.get("t")
    if (request.args.get("v") == str(ctx["version"]) and (joins is None or joins == str(ctx.get("joins")))
            and (phones is None or phones == ctx.get("phones"))
            and (ticked is None or ticked == str(ctx.get("ticked")))):
        # the wait ran out, or had no place to wait in
        return current_app.response_class(status=204, headers={"Content-Length": "0"})
    return screen_answer(ctx, regions)


def part_answer(region: Region) -> str:
    """One live region fetched again (after a refused tap), with the pictures it names that the page lacks."""
    return pictures.with_added(stamped(region))


def refusal(message: str, code: int):
    """A refusal's message, translated here as plain text: the page escapes it like any other text (a
    template's _() would mark it safe, and a message may one day carry what someone typed). JSON for the
    API, the flash partial for htmx, an error page otherwise."""
    if request.path.startswith("/api/"):
        return jsonify({"error": message}), code
    text = tr(keep({}, "text", message), "text", request_gettext)  # a Text with values, or a fixed sentence
    if request.headers.get("HX-Request"):
        return render_template("partials/_error.html", message=text), code
    return render_template("error.html", message=text, code=code), code
