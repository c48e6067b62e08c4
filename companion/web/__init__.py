"""The companion at the table: a Flask app with a host screen, one phone page per seat, and a JSON API.

Views parse, call the store and engine, and render; every rule lives in the engine's menus.
"""

from __future__ import annotations

import gzip
from functools import partial
from pathlib import Path

from flask import Flask, request
from flask_babel import Babel, ngettext
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import logs, pictures
from ..catalog import default_catalog, default_override_path
from ..engine import IllegalAction
from ..faults import StartupError, StoreFault
from ..instance import instance_folder, kept_key
from ..news import InProcessNews, News
from ..pictures import where
from ..resume.backups import Backups
from ..store import DatabaseError, Deleted, Stale, Store, fault_of
from ..store import NotFound as NoSuchGame
from ..store.ticks import words_of
from ..store.unplayed import UnplayedPrune
from ..words import Text, tr
from . import address, headers, language, library, menus, news, tap, translate, wire  # what the screens share
from .access import DELETED, refusal
from .api import routes as api  # a room per screen, each with its routes (api, catalog, host, join, score, seat)
from .catalog import routes as catalog
from .catalog import words as catalog_words
from .host import resume  # resume: a game resumed from its file (issue 36)
from .host import routes as host
from .join import routes as join
from .limits import DAY, MINUTE, PerWindow
from .phones import PhonesSeen
from .rules import routes as rules  # /rules, and every rule a screen cites as a link to it (issue 35)
from .score import routes as score  # /score: a score sheet for a game the companion did not track (issue 26)
from .seat import routes as seat
from .translate import compile_catalogs

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "companion" / "translations"
#: what a refusal Werkzeug raised on its own says, in words a table can read in its language
UNKNOWN = {400: Text("The companion could not read that request."), 404: Text("There is no such page here."),
           405: Text("This page does not take that kind of request."),
           413: Text("That is more than the companion accepts at once."),
           414: Text("That address is too long."), 431: Text("That request's headers are too large.")}


def create_app(config: dict | None = None, news_port: News | None = None) -> Flask:
    """App factory, no work at import time. The game data, the secret key and the table's catalog
    corrections live under the instance folder; the translations' compiled .mo files are built beside
    their .po files in the package (companion/translations, git-ignored), as `pybabel compile` would.
    `news_port`: how the store's news reaches the screens' questions (companion/news.py): in this process
    (the default), or across serve's worker processes (serve/siblings.py, chosen by companion/cli.py)."""
    config = config or {}
    instance = instance_folder(config.get("INSTANCE"))
    app = Flask("companion", instance_path=str(instance), template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"))
    try:
        instance.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StartupError(f"Cannot make the companion's folder {instance}: {exc.strerror}. Choose a folder it may "
                           "write to (MESSINA_INSTANCE=/path).") from None
    app.config.update(
        DATABASE=str(instance / "companion.db"),
        SECRET_KEY=_secret_key(instance),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        POLL_MS=250,  # how soon a screen asks again after an answer, or after losing the server
        POLL_HOLD_S=20.0,  # how long an "anything new?" question waits at the server for news
        POLL_PLACES=64,  # how many such questions may wait at once: each holds a server thread
        POLL_PER_GAME=16,  # how many of them one game may hold: its host screen, its phones, a few tabs
        MAX_CONTENT_LENGTH=64 * 1024,
        PROXIES=0,  # reverse proxies in front (serve --proxies): each player's address is read from X-Forwarded-For
        LARGE_BODIES=resume.LARGE_BODIES,  # the routes that take more (a game's file): serve's door lets them
        NEW_GAMES_PER_MINUTE=30,  # from one address: a table makes a few a night, a runaway script thousands
        NEW_GAMES_PER_DAY=200,  # from one address (~11 MB of games a day at most), so a script cannot fill the disk
        UNPLAYED_AFTER_S=86400.0,  # games never played (no action at all) are removed after this; None: kept
        JOIN_TRIES_PER_MINUTE=10,  # typed join codes from one address: a player mistypes twice, a guesser never stops
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
    )
    app.config.update(config)
    for directory in app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";"):
        compile_catalogs(Path(directory))  # the .po files are committed; their .mo are built here
    Babel(app, locale_selector=language.reader_language)  # this device's choice, else the browser's
    # The table's corrections live in this instance folder (or the file $MESSINA_CATALOG names); new
    # games start with them while they are valid, the shipped catalog while they are not.
    corrections = default_override_path(instance)
    app.extensions["catalog_file"] = corrections
    app.extensions["store"] = Store(app.config["DATABASE"],
                                    app.config.get("CATALOG") or partial(default_catalog, corrections))
    _limits(app)
    app.extensions["phones"] = PhonesSeen()  # when each seat's phone last asked for news (web/phones.py)
    rules.check()  # the rules' texts, whole in every language, as the catalog is checked
    _templates(app)
    # catalog: /catalog, check your copy; language: the switch in every page's header
    for bp in (host.bp, seat.bp, join.bp, api.bp, catalog.bp, language.bp, score.bp, rules.bp, resume.bp):
        app.register_blueprint(bp)
    _news(app, news_port or InProcessNews())
    if app.config["PROXIES"] > 0:  # outermost: every layer sees the player's own address and scheme
        n = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's own way to add middleware (its docs)
            app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_port=n)
    if app.config.get("BACKUPS"):  # serve --backups DIR: each game's file at every round's end and game over
        app.extensions["store"].on_move.append(Backups(app.extensions["store"], app.config["BACKUPS"]))
    _refusals(app)
    return app


def _limits(app: Flask) -> None:
    """The caps per device (web/limits.py), counted where every worker process sees them (store/tries.py),
    and the pruning of games nobody played."""
    store, config = app.extensions["store"], app.config
    app.extensions["new_games"] = PerWindow(store, "new_games", config["NEW_GAMES_PER_MINUTE"], MINUTE)
    app.extensions["new_games_today"] = PerWindow(store, "new_games_today", config["NEW_GAMES_PER_DAY"], DAY)
    app.extensions["join_tries"] = PerWindow(store, "join_tries", config["JOIN_TRIES_PER_MINUTE"], MINUTE)
    app.extensions["unplayed"] = UnplayedPrune(store, config["UNPLAYED_AFTER_S"])


def _templates(app: Flask) -> None:
    """Every page in the reader's language, with the pictures and helpers templates call."""
    gettext = translate.request_gettext
    app.before_request(translate.choose_catalog)
    app.before_request(address.check_host)  # after the catalog: its refusal is a page in the reader's language
    app.after_request(headers.protect)
    app.after_request(_compress)
    app.logger.addFilter(logs.HideSecrets())  # an error's log line names its path: a seat's token, say
    app.teardown_request(translate.forget_catalog)
    app.teardown_request(news.done_drawing)  # a news answer drawn: the next screen's turn (web/news.py)
    # templates' _(): a method the i18n extension adds to the environment, which jinja's types do not know
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=gettext, ngettext=ngettext, newstyle=True)
    app.jinja_env.filters["rule_links"] = rules.rule_links  # every rule a screen cites, a link to its text
    app.jinja_env.globals["family_rules"] = rules.FAMILY_RULES  # the rules a catalog family's values serve
    app.jinja_env.globals.update(
        {name: partial(getattr(pictures, name), _=gettext)
         for name in ("minimap_svg", "estate_svg", "tokens_html", "scoring_svg", "pick_filter")},
        pick_marks=pictures.pick_marks, wheel_svg=partial(library.wheel_use, _=gettext),
        city_svg=partial(pictures.city_svg, _=gettext, placed=library.placed_use),
        # faces and QR codes: references to the page's library of pictures (web/library.py)
        option_face=partial(pictures.option_face, _=gettext, picture=library.face_use),
        line_faces=partial(pictures.line_faces, _=gettext, picture=library.line_face_use),
        qr_code=library.qr_use, picture_library=library.library,
        arranged=partial(menus.arranged, _=gettext),  # a long menu: choosable first, greyed folded
        tr=partial(tr, _=gettext),  # engine text (log, steps, menus, prompts, scoring) translated
        problem_words=partial(catalog_words.problem_words, gettext=gettext),  # why a catalog file is refused
        languages=language.links, reader_language=language.reader_language,  # the switch in every page's header
        step_words=words_of,  # what a checklist tick belongs to (store/ticks.py)
        wire=wire,  # the one-letter query keys of a screen's question (web/wire.py)
        # the moment's crop of the host's map round a place, and the place in words (pictures/where.py)
        map_crop=partial(where.crop_svg, _=gettext), place_words=partial(where.place_words, _=gettext))


def _news(app: Flask, port: News) -> None:
    """The store tells the news port after each commit (and each join or tick); the screens' questions wait
    on it in their own routes (web/news.py), in at most POLL_PLACES places, POLL_PER_GAME of one game. Every
    other request is answered before the news it made goes out: the tapping screen draws its move first."""
    app.extensions["news"] = port
    app.extensions["held"] = news.HeldQuestions(app.config["POLL_PLACES"], app.config["POLL_PER_GAME"])
    app.extensions["store"].on_move.append(port.moved)
    app.extensions["store"].on_look_again.append(port.look_again)
    answer = app.wsgi_app

    def answer_first(environ, start_response):
        with port.after_answer():
            return answer(environ, start_response)

    app.wsgi_app = answer_first  # type: ignore[method-assign]  # Flask's own way to add middleware


def _refusals(app: Flask) -> None:
    """Every refusal is a clear message, in JSON for the API and a page otherwise; a refused tap says why
    in the words players know (web/tap.py)."""
    app.register_error_handler(Stale, tap.refused)
    app.register_error_handler(IllegalAction, tap.refused)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        said, code = exc.description, exc.code or 500  # every HTTPException raised has its code
        if not said or said == type(exc).description:  # Werkzeug's own English: an unknown address or method
            said = UNKNOWN.get(code, Text("That is not possible here."))
        return refusal(said, code)

    @app.errorhandler(StoreFault)
    def _store_fault(exc: StoreFault):
        """The disk failed a write (full, read-only, damaged): the player hears that nothing was saved,
        and the log gets one line with SQLite's own words instead of a traceback."""
        app.logger.error("%s %s: %s (%s)", request.method, request.path, exc.message, exc.cause)
        return refusal(exc.message, exc.status)

    @app.errorhandler(DatabaseError)
    def _database_error(exc: DatabaseError):
        """The same for a read that meets a failing disk or file; any other database error is a bug (500)."""
        fault = fault_of(exc)
        if fault is None:
            raise exc
        return _store_fault(fault)

    @app.errorhandler(NoSuchGame)
    def _gone(exc: NoSuchGame):
        """A game deleted between two steps of one request (the views check first; this closes the gap)."""
        return refusal(DELETED if isinstance(exc, Deleted) else "There is no such game.", 404)


def _secret_key(instance: Path) -> str:
    """Created on first run, kept in instance/ (never committed). Written whole or not at all: an empty
    key (left by a full disk before this was atomic) would break every page, so it counts as missing."""
    path = instance / "secret_key"
    try:
        return kept_key(path)
    except OSError as exc:
        raise StartupError(f"Cannot make or read the secret key {path}: {exc.strerror or exc}. Free some disk space or "
                           "let the companion write its folder, then start it again.") from None


COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml",
                "application/json"}


def _compress(response):
    """gzip text for phones on a busy Wi-Fi (the first phone page goes from ~85 KB to ~25 KB)."""
    if (response.status_code != 200 or response.mimetype not in COMPRESSIBLE
            or "gzip" not in request.headers.get("Accept-Encoding", "") or "Content-Encoding" in response.headers):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < 1024:
        return response
    gzipped = getattr(response, "gzipped", None)  # a page drawn once (web/page_cache.py) is gzipped once too
    response.set_data(gzipped or gzip.compress(data, compresslevel=1))  # fastest: a host screen's news is ~90 KB
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response
