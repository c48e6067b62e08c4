"""The companion at the table: a Flask app with a host screen, one phone page per seat, and a JSON API.

Views parse, call the store and engine, and render; every rule lives in the engine's menus.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask_babel import Babel
from werkzeug.exceptions import HTTPException

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "fr", "de")
TRANSLATIONS = ROOT / "companion" / "translations"


def create_app(config: dict | None = None) -> Flask:
    """App factory: no work at import time; everything lives under the instance folder."""
    config = config or {}
    instance = Path(config.get("INSTANCE", os.environ.get("MESSINA_INSTANCE", ROOT / "instance"))).resolve()
    app = Flask("companion", instance_path=str(instance), template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"))
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(
        DATABASE=str(instance / "companion.db"),
        SECRET_KEY=_secret_key(instance),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        POLL_MS=250,  # how soon a screen asks again after an answer, or after losing the server
        POLL_HOLD_S=20.0,  # how long an "anything new?" question waits at the server for news
        POLL_PLACES=64,  # how many such questions may wait at once: each holds a server thread
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
    )
    app.config.update(config)
    from .translate import compile_catalogs

    for directory in app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";"):
        compile_catalogs(Path(directory))  # the .po files are committed; their .mo are built here
    Babel(app, locale_selector=lambda: request.accept_languages.best_match(LANGUAGES) or "en")

    from ..store import Store

    app.extensions["store"] = Store(app.config["DATABASE"], app.config.get("CATALOG"))

    from . import api, host, join, seat

    from . import svg, translate
    from .views import qr_svg

    from functools import partial

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
        {name: partial(getattr(svg, name), _=gettext)
         for name in ("city_svg", "estate_svg", "tokens_html", "wheel_svg", "scoring_svg")}, qr_svg=qr_svg,
        tr=partial(translate.tr, _=gettext))  # engine text (log, steps, menus, prompts, scoring) translated
    from .news import Bulletin, NewsPoll

    bulletin = Bulletin()
    app.extensions["store"].listeners.append(bulletin.post)
    app.wsgi_app = NewsPoll(app.wsgi_app, app.extensions["store"], bulletin, app.config["POLL_HOLD_S"],
                            app.config["POLL_PLACES"])
    app.wsgi_app = address.HostGate(app.wsgi_app, app)  # outermost: other host names are refused first
    app.register_blueprint(host.bp)
    app.register_blueprint(seat.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(api.bp)

    app.after_request(_compress)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        """Every refusal is a clear message, in JSON for the API and a page otherwise."""
        message = exc.description or exc.name
        if request.path.startswith("/api/"):
            return jsonify({"error": message}), exc.code
        if request.headers.get("HX-Request"):
            return render_template("partials/_error.html", message=message), exc.code
        return render_template("error.html", message=message, code=exc.code), exc.code

    return app


def _secret_key(instance: Path) -> str:
    """Created on first run, kept in instance/ (never committed)."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


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
