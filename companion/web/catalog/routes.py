"""`/catalog`: check the catalog against your copy. A table walks the components family by family with
the box open, marks each record that matches its copy, corrects the ones that do not, and carries its
corrections to other tables as one file (docs/CATALOG.md, "Checking your copy").

Anyone may read it; a change needs this companion's admin link (printed by `serve`; a browser that opened
it may show it to a phone as a QR code), so a guest on the same network, or a stranger who made a game of
their own, cannot rewrite the tiles. Every change goes through
companion/catalog/corrections.py: checked by the loader before anything is written.
"""

from __future__ import annotations

import hmac
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for

from ...catalog import CatalogError
from ...catalog.corrections import Unknown, shipped_ids, shipped_record, with_values
from ...catalog.read import OVERRIDE_LIMIT
from ...faults import StartupError
from ...instance import kept_key
from ...words import Text
from .. import catalog_desk as desk
from ..access import check_csrf
from ..address import public_base
from ..language import reader_language
from ..page_cache import drawn_once
from ..translate import request_gettext
from . import screen
from .form import FormProblem, read_form
from .reward_words import to_grammar
from .words import in_words

bp = Blueprint("catalog", __name__, url_prefix="/catalog")

ADMIN_COOKIE = "catalog_admin"
NEEDS_ADMIN = Text("Changing the catalog needs this companion's admin link: serve prints it when it starts; open it "
                   "once on this browser. Anyone may read this page; nothing was changed.")
UPLOAD = "corrections"  # the import form's file field
CACHED = ("catalog.index", "catalog.changes", "catalog.family_page", "catalog.family_grid",  # drawn once per content
          "catalog.record_page")


@bp.record_once
def _make_admin_key(state) -> None:
    """The admin key lives in the instance folder beside the secret key, made once and kept."""
    path = Path(state.app.instance_path) / "admin_key"
    try:
        state.app.extensions["catalog_admin"] = kept_key(path)
    except OSError as exc:
        raise StartupError(f"Cannot make or read the catalog's admin key {path}: {exc.strerror or exc}.") from None


def _page_key() -> tuple | None:
    """What a public page depends on: its path, the catalog in force (and a broken file's problems), the
    reader's language. None for the admin's pages (forms with the session's token) and for signing in."""
    if request.method not in ("GET", "HEAD") or request.endpoint not in CACHED or "key" in request.args \
            or _is_admin():
        return None
    now = desk.now()
    return request.path, now.catalog.fingerprint, now.problems, str(now.override), reader_language()


drawn_once(bp, _page_key)


@bp.app_template_global()
def catalog_admin_url() -> str:
    """The admin link, at the server's own address: drawn only for a browser that opened it already (its
    /catalog page shows it as a QR code for a phone), never on a host screen or any page a game's key opens."""
    if not _is_admin():
        abort(403, NEEDS_ADMIN)
    return public_base() + url_for("catalog.index", key=current_app.extensions["catalog_admin"])


@bp.get("")
def index():
    if "key" in request.args:
        return _sign_in(request.args["key"])
    now = desk.now()
    return render_template("catalog/index.html", **screen.base(now, _is_admin()), families=screen.progress(now.catalog),
                           pass_on=True)


@bp.get("/changes")
def changes():
    now = desk.now()
    rows = [screen.card(family, rec["id"], rec, now)
            for family in screen.FAMILY_NAMES for rec in desk.records().get(family, [])]
    return render_template("catalog/changes.html", **screen.base(now, _is_admin()), rows=rows)


@bp.get("/export")
def export():
    return Response(desk.corrections().export(), mimetype="application/toml",
                    headers={"Content-Disposition": 'attachment; filename="messina-catalog-corrections.toml"'})


@bp.post("/import")
def import_file():
    _may_change()
    upload = request.files.get(UPLOAD)
    if upload is None or not upload.filename:
        abort(400, Text("Choose a corrections file to import."))
    try:
        desk.corrections().replace(upload.read(OVERRIDE_LIMIT + 1))
    except CatalogError as exc:
        now = desk.now()
        return render_template("catalog/index.html", **screen.base(now, _is_admin()),
                               families=screen.progress(now.catalog),
                               refused=[in_words(p, screen.record_name, screen.family_name) for p in exc.problems]), 400
    return redirect(url_for("catalog.index"), 303)


@bp.get("/<family>")
def family_page(family: str):
    _known(family)
    now = desk.now()
    plain = desk.plain()
    cards = [screen.card(family, rid, plain(family, rid), now) for rid in shipped_ids(family)]
    return render_template("catalog/family.html", **screen.base(now, _is_admin()), family=family, cards=cards,
                           title=screen.FAMILY_NAMES[family][0])


@bp.get("/<family>/all")
def family_grid(family: str, problems=(), status: int = 200):
    """A whole family at a glance: its faces in a grid, to tick against the box and mark together."""
    _known(family)
    now = desk.now()
    plain = desk.plain()
    cards = [screen.card(family, rid, plain(family, rid), now) for rid in shipped_ids(family)]
    return render_template("catalog/grid.html", **screen.base(now, _is_admin()), family=family, cards=cards,
                           title=screen.FAMILY_NAMES[family][0],
                           problems=[in_words(p, screen.record_name, screen.family_name) for p in problems]), status


@bp.post("/<family>/all")
def check_all(family: str):
    """"All of these match my copy": every ticked record marked checked in one change; the odd ones out
    (left unticked) stay to be opened one by one."""
    _may_change()
    _known(family)
    ticked = [rid for rid in shipped_ids(family) if rid in request.form.getlist("match")]
    try:
        if ticked:
            desk.corrections().mark_all_checked(family, ticked)
    except CatalogError as exc:
        return family_grid(family, exc.problems, 400)
    return redirect(url_for("catalog.family_grid", family=family, _anchor="odd"), 303)


@bp.get("/<family>/<rid>")
def record_page(family: str, rid: str):
    _known(family, rid)
    now = desk.now()
    return screen.record_page(family, rid, desk.plain()(family, rid), now, _is_admin())


@bp.post("/<family>/<rid>/check")
def check(family: str, rid: str):
    """"Matches my copy"."""
    _may_change()
    _known(family, rid)
    return _change(family, rid, lambda c: c.mark_checked(family, rid))


@bp.post("/<family>/<rid>")
def correct(family: str, rid: str):
    """"Correct": the values the table read on its copy, checked by the loader before they are kept."""
    _may_change()
    _known(family, rid)
    now = desk.now()
    before = desk.plain()(family, rid)
    language = reader_language()
    try:  # a reward may be typed as the page writes it ("3 coins", "3 pièces"): kept in the grammar ("3 coin")
        typed = with_values(before, read_form(family, before, request.form, added=screen.lacking_fields(family, before),
                                              phrases=lambda leaf, raw: to_grammar(raw, leaf, language,
                                                                                   request_gettext)))
    except FormProblem as exc:
        said = Text("{record}: {problem}", record=screen.record_name(family, rid), problem=exc.args[0])
        return screen.record_page(family, rid, before, now, _is_admin(), [said], 400)
    return _change(family, rid, lambda c: c.correct(family, rid, typed))


@bp.post("/<family>/<rid>/reset")
def reset(family: str, rid: str):
    _may_change()
    _known(family, rid)
    return _change(family, rid, lambda c: c.reset(family, rid))


# --- helpers -------------------------------------------------------------------------------------------

def _is_admin() -> bool:
    given = request.cookies.get(ADMIN_COOKIE, "")
    return bool(given) and hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                                               current_app.extensions["catalog_admin"].encode())


def _may_change() -> None:
    """Every change: this session's form (CSRF), from a browser that opened the admin link."""
    check_csrf()
    if not _is_admin():
        abort(403, NEEDS_ADMIN)


def _sign_in(key: str):
    """The admin link's key moves into a cookie scripts cannot read, and leaves the address bar."""
    if not hmac.compare_digest(key.encode("utf-8", "surrogatepass"), current_app.extensions["catalog_admin"].encode()):
        abort(403, Text("This is not this companion's admin link. Nothing was changed."))
    resp = make_response(redirect(url_for("catalog.index"), 303))
    resp.set_cookie(ADMIN_COOKIE, key, httponly=True, samesite="Lax", max_age=60 * 60 * 24 * 365)
    return resp


def _known(family: str, rid: str | None = None) -> None:
    try:
        shipped_ids(family) if rid is None else shipped_record(family, rid)
    except Unknown as exc:
        abort(404, exc.args[0])


def _change(family: str, rid: str, change):
    """Apply one change; refused by the loader, the record's page says why and nothing was written: its
    card shows the record as it is kept, its form what was typed, to put right."""
    try:
        change(desk.corrections())
    except CatalogError as exc:
        now = desk.now()
        return screen.record_page(family, rid, desk.plain()(family, rid), now, _is_admin(), exc.problems, 400)
    then = request.form.get("then")
    ids = shipped_ids(family)
    if then == "next" and ids.index(rid) + 1 < len(ids):
        return redirect(url_for("catalog.record_page", family=family, rid=ids[ids.index(rid) + 1]), 303)
    if then == "record":
        return redirect(url_for("catalog.record_page", family=family, rid=rid), 303)
    return redirect(url_for("catalog.family_page", family=family, _anchor=f"r-{rid}"), 303)


