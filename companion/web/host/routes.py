"""The host screen: new game, setup with QR codes, the city and the game's progress, upkeep, undo,
acting for an absent seat, and final scoring."""

from __future__ import annotations

import json
from functools import partial

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import BadRequest

from ...engine import IllegalAction, table_view
from ...engine.state import COLOURS
from ...store import Game, NotFound, Stale
from ...store.games import HostGlance
from ...store.put_back import MOST_ACTS
from ...store.ticks import ticked_steps, valid
from ...words import Text
from .. import catalog_desk, library, told
from .. import news as held
from ..access import check_csrf, csrf_token, host_glance, host_key_checked, require_host, store
from ..address import unreachable
from ..forms import form_options, int_field, tap_fields
from ..library import qr_svg
from ..limits import count_new_game
from ..put_back import host_put_back, log_rows, put_back_marks
from ..regions import part_answer, screen_answer
from ..seat import screen  # the host acting for a seat sees the seat's own screen
from ..tap import play
from ..views import base, join_page_url, seats_view, waiting_seats
from . import screen as host_screen
from .moment import moment
from .records import HostParts, HostScreen

bp = Blueprint("host", __name__)

PARTS = host_screen.PARTS


@bp.get("/")
def index():
    return render_template("host/index.html", colours=COLOURS, csrf=csrf_token(), typed={},
                           notice=catalog_desk.notice())


def _form_again(problem: str):
    """A refused new-game form comes back as it was typed, with what to change above it: one odd name
    must not cost the host the other three."""
    typed = {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in request.form.items()}  # no lone surrogates
    return render_template("host/index.html", colours=COLOURS, csrf=csrf_token(), typed=typed, problem=problem,
                           notice=catalog_desk.notice()), 400


@bp.post("/games")
def create():
    check_csrf()
    try:
        opts, seed = form_options(request.form)
    except BadRequest as exc:
        return _form_again(exc.description)
    count_new_game()
    try:
        game = store().create(opts, seed)
    except IllegalAction as exc:
        return _form_again(str(exc))
    return _remember_host(redirect(url_for("host.page", gid=game.id)), game.id, game.host_token)


def host_context(gid: str, glance: HostGlance | None = None) -> HostScreen:
    """The host screen; `glance`: the game's row as its question read it (host_glance, its key checked)."""
    glance = glance or host_glance(gid)  # read before the seats and ticks: never older than the question says
    game = require_host(gid, glance)
    table = table_view(game.state)
    seats = seats_view(game, table)
    undos = game.undos  # after an undo: what the table puts back, and the log it took away
    put_back = host_put_back(undos, game.version)
    rows = log_rows(game.state.log, undos)
    ticks = ticked_steps(store().ticks(gid))
    moments = partial(store().step_moments, gid, version=game.version)  # the table at each step of a checklist
    ctx: HostParts = {
        **base(game), **told.screens(game, table, ticks, lambda name, first: moments(name=name, first=first)),
        "put_back": put_back, "back_marks": put_back_marks(put_back), "log_rows": rows,
        "log_shows": host_screen.log_shows(undos, rows), "log_most": host_screen.LOG_MOST,
        "last_acts": [game.last_act] if game.last_act else [], "undo_preview": None,
        "ticked": glance["ticked"], "ticks": ticks, "table": table, "joins": glance["joins"],
        "phones": current_app.extensions["phones"].news_key(gid), "seats": seats,
        "waiting": waiting_seats(game, seats), "host": table["host"], "key": game.host_token,
        "news_url": url_for("host.news", gid=gid), "unreachable": unreachable(), "join_page": join_page_url()}
    return {**ctx, "moment": moment(ctx)}  # what the table does now, at the top (web/moment.py)


@bp.get("/host/<gid>")
def page(gid: str):
    if "key" in request.args:
        # The host link's key has done its job once it is in the cookie: the same page without it, so
        # the key leaves the address bar, the browser's history and any photo of the TV.
        game = require_host(gid)
        return _remember_host(redirect(url_for("host.page", gid=gid), 303), gid, game.host_token)
    ctx = host_context(gid)
    page = render_template("host/host.html", regions=host_screen.marked(ctx),
                           notice=catalog_desk.notice(ctx["pieces"].catalog), **ctx)
    return _remember_host(make_response(page), gid, ctx["key"])


def _remember_host(resp, gid: str, key: str):
    """The host's credential for this browser: a cookie scripts cannot read and other sites do not get."""
    resp.set_cookie(f"host_{gid}", key, httponly=True, samesite="Lax", max_age=60 * 60 * 24 * 30)
    return resp


@bp.get("/host/<gid>/part/<name>")
def part(gid: str, name: str):
    """One live region of the host screen, fetched again after a refused action."""
    if name not in PARTS:
        abort(404, Text("No such part of the screen."))
    return part_answer(host_screen.region_of(host_context(gid), name))


@bp.get("/host/<gid>/setup/steps")
def setup_steps(gid: str):
    """The setup checklist's steps, when the host opens it after a page left them to load then."""
    return library.with_added(render_template("host/_setup_steps.html", **host_context(gid)))


@bp.get("/host/<gid>/news")
def news(gid: str):
    """The live regions of the host screen that changed since what the page shows, once there are any
    (web/news.py: held while there are none)."""
    return held.answer(lambda: host_glance(gid), lambda glance: _host_news(gid, glance))


def _host_news(gid: str, glance: HostGlance) -> str:
    ctx = host_context(gid, glance)
    return screen_answer(ctx, host_screen.regions(ctx))


@bp.post("/host/<gid>/decide")
def decide(gid: str):
    """The host answers its own question (a table-draw reveal)."""
    host_key_checked(gid)
    check_csrf()
    version, decision, choice = tap_fields()
    play(gid, "host", version, decision, choice, "host")
    return _back(gid)


@bp.get("/host/<gid>/undo")
def undo_preview(gid: str):
    """The undo's confirm step: the acts it will take back, in players' words (store/put_back.py), before the
    host confirms. The undo panel alone for htmx, else the host screen with it."""
    require_host(gid)
    count = int_field("count", request.args)
    if not 0 <= count <= MOST_ACTS:
        abort(400, Text("Undo between 1 and 20 acts at a time."))
    ctx = host_context(gid)
    ctx["undo_preview"] = store().last_acts(gid, count) if count else []  # 0: the host cancels
    if request.headers.get("HX-Request"):
        return render_template("host/_undo_confirm.html", **ctx) if ctx["undo_preview"] else ""
    return render_template("host/host.html", regions=host_screen.marked(ctx),
                           notice=catalog_desk.notice(ctx["pieces"].catalog), **ctx)


@bp.post("/host/<gid>/undo")
def undo(gid: str):
    _confirmed(gid, Text("Tick the box to confirm the undo."))
    count = int_field("count")
    if not 1 <= count <= MOST_ACTS:
        abort(400, Text("Undo between 1 and 20 acts at a time."))
    try:
        store().undo(gid, int_field("version"), count)
    except Stale:
        abort(409, Text("The game moved on: look again before undoing."))
    except IllegalAction:  # the store's only refusal of the host's undo
        abort(409, Text("There is nothing to undo."))
    return _back(gid)


@bp.post("/host/<gid>/tick")
def tick(gid: str):
    """The host ticks (or unticks) a setup or upkeep step: kept with the game, no move of it (store/ticks.py)."""
    require_host(gid)
    check_csrf()
    checklist, words = request.form.get("list", ""), request.form.get("words", "")
    step = int_field("step")
    if not valid(checklist, step, words):
        abort(400, Text("That is no step of a checklist."))
    store().tick(gid, checklist, step, words, request.form.get("on") == "1")
    return _back(gid)


@bp.post("/host/<gid>/delete")
def delete(gid: str):
    """The host removes a finished or abandoned game for good: its log, its seats and their links."""
    _confirmed(gid, Text("Tick the box to confirm that the game should be deleted."))
    try:
        store().delete(gid)
    except NotFound:  # deleted by another screen a moment ago: just as good
        pass
    resp = make_response(render_template("host/deleted.html"))
    resp.delete_cookie(f"host_{gid}")
    return resp


def proxy_context(gid: str, index: int, game: Game | None = None,
                  glance: HostGlance | None = None) -> screen.SeatScreen:
    """The seat's phone page, inside the host's session: the same screen, posting as the host (for a tap,
    drawn from the game it wrote; for news, from its question's `glance`)."""
    game = game or require_host(gid, glance)
    if not 0 <= index < len(game.state.seats):
        abort(404, Text("No such seat."))
    urls = screen.Addresses(post=url_for("host.act_for_post", gid=gid, index=index),
                            news=url_for("host.seat_news", gid=gid, index=index),
                            part=lambda name: url_for("host.seat_part", gid=gid, index=index, name=name))
    return screen.context(game, index, urls, proxy=True)


@bp.get("/host/<gid>/seat/<int:index>")
def act_for(gid: str, index: int):
    """Act for a seat whose phone is gone: the seat's phone page, inside the host's session."""
    return screen.page(proxy_context(gid, index))


@bp.get("/host/<gid>/seat/<int:index>/part/<name>")
def seat_part(gid: str, index: int, name: str):
    return screen.part(lambda: proxy_context(gid, index), name)


@bp.get("/host/<gid>/seat/<int:index>/news")
def seat_news(gid: str, index: int):
    """The seat's phone page, shown on the host screen: its live regions after a move (web/news.py)."""
    return held.answer(lambda: host_glance(gid),
                       lambda glance: screen.answer(proxy_context(gid, index, glance=glance)))


@bp.post("/host/<gid>/seat/<int:index>/act")
def act_for_post(gid: str, index: int):
    row = host_key_checked(gid)
    check_csrf()
    if not 0 <= index < len(json.loads(row["options"])["players"]):
        abort(404, Text("No such seat."))
    version, decision, choice = tap_fields()
    game = play(gid, index, version, decision, choice, "host")
    if request.headers.get("HX-Request"):
        return screen.answer(proxy_context(gid, index, game))  # its news at once, drawn from the game written
    return redirect(url_for("host.act_for", gid=gid, index=index))


@bp.get("/host/<gid>/export.json")
def export(gid: str):
    """The game's file (store/export.py): another companion resumes it from the front page, and anyone
    replays it (`python -m companion replay FILE`)."""
    require_host(gid)
    body = store().game_file(gid)
    return Response(json.dumps(body, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=messina-{gid}-v{body['version']}.json"})


@bp.get("/host/<gid>/qr/<int:index>.svg")
def qr(gid: str, index: int):
    ctx = host_context(gid)
    seats = ctx["seats"]
    if not 0 <= index < len(seats):
        abort(404, Text("No such seat."))
    return Response(str(qr_svg(seats[index]["url"])), mimetype="image/svg+xml")


def _back(gid: str):
    """After the host's own move: the screen's waiting question brings the news, with every region."""
    if request.headers.get("HX-Request"):
        return Response(status=204)
    return redirect(url_for("host.page", gid=gid))


def _confirmed(gid: str, unticked: str) -> None:
    """A host's form that changes the game for good: the host's key, the form's token, and its box ticked
    (else 400 with `unticked`)."""
    require_host(gid)
    check_csrf()
    if request.form.get("confirm") != "yes":
        abort(400, unticked)
