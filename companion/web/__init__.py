"""The companion at the table: a Flask app with a host screen, one phone page per seat, and a JSON API.

Views parse, call the store and engine, and render; every rule lives in the engine's menus.
"""

from __future__ import annotations

import sqlite3
from functools import partial
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask_babel import Babel
from werkzeug.exceptions import HTTPException

from ..catalog import catalog_in_force, default_catalog, default_override_path
from ..faults import StartupError, StoreFault
from ..instance import instance_folder, kept_key

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "fr", "de")
TRANSLATIONS = ROOT / "companion" / "translations"


def create_app(config: dict | None = None) -> Flask:
    """App factory: no work at import time; everything lives under the instance folder."""
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
        MAX_CONTENT_LENGTH=64 * 1024,
        NEW_GAMES_PER_MINUTE=30,  # from one address: a table makes a few a night, a runaway script thousands
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
    )
    app.config.update(config)
    from .translate import compile_catalogs

    for directory in app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";"):
        compile_catalogs(Path(directory))  # the .po files are committed; their .mo are built here
    Babel(app, locale_selector=lambda: request.accept_languages.best_match(LANGUAGES) or "en")

    from ..store import Deleted, NotFound as NoSuchGame, Store, fault_of
    from .common import DELETED

    # The table's corrections live in this instance folder (or the file $MESSINA_CATALOG names); new
    # games start with them while they are valid, the shipped catalog while they are not.
    corrections = default_override_path(instance)
    app.extensions["catalog_file"] = corrections
    app.extensions["store"] = Store(app.config["DATABASE"],
                                    app.config.get("CATALOG") or partial(default_catalog, corrections))
    from .limits import PerMinute

    app.extensions["new_games"] = PerMinute(app.config["NEW_GAMES_PER_MINUTE"])

    from . import api, catalog_page, host, join, seat

    from . import draw, translate
    from .views import qr_svg

    from flask_babel import ngettext

    from . import address, headers, logs

    gettext = translate.request_gettext
    app.before_request(translate.choose_catalog)
    app.before_request(address.check_host)  # after the catalog: its refusal is a page in the reader's language
    app.after_request(headers.protect)
    app.logger.addFilter(logs.HideSecrets())  # an error's log line names its path: a seat's token, say
    app.teardown_request(translate.forget_catalog)
    app.jinja_env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=True)  # templates' _()
    app.jinja_env.globals.update(
        {name: partial(getattr(draw, name), _=gettext)
         for name in ("city_svg", "estate_svg", "tokens_html", "wheel_svg", "scoring_svg")}, qr_svg=qr_svg,
        tr=partial(translate.tr, _=gettext),  # engine text (log, steps, menus, prompts, scoring) translated
        catalog_now=partial(catalog_in_force, corrections))  # the host screen's notice about corrections
    from .news import Bulletin, NewsPoll

    bulletin = Bulletin()
    app.extensions["store"].listeners.append(bulletin.post)
    app.extensions["store"].movers.append(bulletin.ring)
    app.wsgi_app = NewsPoll(app.wsgi_app, app.extensions["store"], bulletin, app.config["POLL_HOLD_S"],
                            app.config["POLL_PLACES"])
    app.wsgi_app = address.HostGate(app.wsgi_app, app)  # outermost: other host names are refused first
    app.register_blueprint(host.bp)
    app.register_blueprint(seat.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(catalog_page.bp)  # /catalog: check the catalog against your copy

    app.after_request(_compress)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        """Every refusal is a clear message, in JSON for the API and a page otherwise."""
        return _answer(exc.description or exc.name, exc.code)

    @app.errorhandler(StoreFault)
    def _store_fault(exc: StoreFault):
        """The disk failed a write (full, read-only, damaged): the player hears that nothing was saved,
        and the log gets one line with SQLite's own words instead of a traceback."""
        app.logger.error("%s %s: %s (%s)", request.method, request.path, exc.message, exc.cause)
        return _answer(exc.message, exc.status)

    @app.errorhandler(sqlite3.Error)
    def _database_error(exc: sqlite3.Error):
        """The same for a read that meets a failing disk or file; any other database error is a bug (500)."""
        fault = fault_of(exc)
        if fault is None:
            raise exc
        return _store_fault(fault)

    @app.errorhandler(NoSuchGame)
    def _gone(exc: NoSuchGame):
        """A game deleted between two steps of one request (the views check first; this closes the gap)."""
        return _answer(DELETED if isinstance(exc, Deleted) else "There is no such game.", 404)

    return app


def _answer(message: str, code: int):
    """The refusal's message, translated here as plain text: the page escapes it like any other text (a
    template's _() would mark it safe, and a message may one day carry what someone typed)."""
    if request.path.startswith("/api/"):
        return jsonify({"error": message}), code
    from .translate import request_gettext

    text = request_gettext(message)
    if request.headers.get("HX-Request"):
        return render_template("partials/_error.html", message=text), code
    return render_template("error.html", message=text, code=code), code


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
    import gzip

    response.set_data(gzip.compress(data, compresslevel=1))  # fastest: a host screen's news is ~90 KB raw
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response
