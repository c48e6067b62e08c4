"""Resume a game from its file: the front page's upload form and `POST /api/games/resume`.

The file is a stranger's upload until proved: these two routes alone accept up to LARGEST bytes (every other
request stays under MAX_CONTENT_LENGTH, and serve's door lets only them through larger: LARGE_BODIES); the
file is checked (store/game_file.py) and replayed act by act (store/replay.py) before one transaction writes the
new game. A refusal names the first act or field that does not hold, in the reader's language, and changes
nothing. A resume counts as a new game against the device's limits, before any work is done, and one file is
replayed at a time in each process (a whole game takes a second or two of one core): another waits its turn
on the front page (429)."""

from __future__ import annotations

import threading
from typing import TypedDict

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from ...engine.state import COLOURS
from ...store import Game
from ...store.game_file import LARGEST, GameFile, Refused, read_file
from ...words import Text, put_text, tr
from .. import catalog_desk
from ..access import check_csrf, csrf_token, store
from ..address import public_base
from ..limits import count_new_game
from ..translate import request_gettext
from ..views import join_url

bp = Blueprint("resume", __name__)
PAGE, API = "/games/resume", "/api/games/resume"
LARGE_BODIES = {PAGE: LARGEST + 64 * 1024, API: LARGEST}  # a form's own bytes come on top of the file's
BUSY = Text("Another game is being resumed right now. Try again in a moment.")
_ONE_AT_A_TIME = threading.Lock()
TOO_LARGE = Text("The file is larger than {most} MB: it is not a game's file.", most=LARGEST // 2**20)


@bp.post(PAGE)
def upload():
    """The host picks the game's file on the front page: on success, the resumed game's host screen (its new
    host link); otherwise the front page again, saying what does not hold."""
    request.max_content_length = LARGE_BODIES[PAGE]
    try:
        check_csrf()
        sent = request.files.get("file")
        data = sent.read(LARGEST + 1) if sent else b""
    except RequestEntityTooLarge:
        return _front_page(TOO_LARGE, 413)
    if not data:
        return _front_page(Text("Choose the game's file first."), 400)
    count_new_game()
    try:
        game = _resumed(read_file(data))
    except Refused as exc:
        return _front_page(exc.message, 400)
    return redirect(url_for("host.page", gid=game.id, key=game.host_token), 303)


@bp.post(API)
def api():
    """The game's file as the JSON body: 201 with the new game's id, host key and link, and each seat's new
    link and code; 400 {"error", "where"} naming the act or field that does not hold."""
    request.max_content_length = LARGE_BODIES[API]
    if not request.is_json:
        abort(400, Text("Send the game's file as JSON (Content-Type: application/json)."))
    try:
        data = request.get_data(cache=False)
    except RequestEntityTooLarge:
        abort(413, TOO_LARGE)
    count_new_game()
    try:
        file = read_file(data)
        game = _resumed(file)
    except Refused as exc:
        return jsonify({"error": exc.message, "where": exc.where}), 400
    return jsonify(_created(game, file)), 201


def _resumed(file: GameFile) -> Game:
    """The file's game replayed and written, one file at a time in this process (else 429)."""
    if not _ONE_AT_A_TIME.acquire(blocking=False):
        abort(429, BUSY)
    try:
        return store().resume(file)
    finally:
        _ONE_AT_A_TIME.release()


class NewSeat(TypedDict):
    """A resumed game's seat: its new link and join code (the file's links are the old game's)."""

    seat: int
    name: str
    token: str
    code: str
    join_url: str


class Created(TypedDict):
    id: str
    version: int
    host_token: str
    resumed_from: str  # the file's game
    host_url: str
    seats: list[NewSeat]


def _created(game: Game, file: GameFile) -> Created:
    seats = store().seats(game.id)
    return {"id": game.id, "version": game.version, "host_token": game.host_token, "resumed_from": file.game,
            "host_url": public_base() + url_for("host.page", gid=game.id, key=game.host_token),
            "seats": [{"seat": s["seat"], "name": p.name, "token": s["token"], "code": s["code"],
                       "join_url": join_url(s["token"])} for s, p in zip(seats, file.options.players, strict=False)]}


def _front_page(problem: str, status: int):
    """The front page with the resume's refusal above its form, in the reader's language (shown as text)."""
    said = tr(put_text({}, "text", problem), "text", request_gettext)
    return render_template("host/index.html", colours=COLOURS, csrf=csrf_token(), typed={},
                           notice=catalog_desk.notice(), resume_problem=said), status
