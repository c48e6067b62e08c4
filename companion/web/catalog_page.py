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
from collections import Counter
from dataclasses import replace
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import format_decimal

from ..catalog import CatalogError, catalog_in_force
from ..catalog.corrections import (Corrections, Unknown, differences, shipped_ids, shipped_record, source_of, values,
                                  with_values)
from ..catalog.read import OVERRIDE_LIMIT
from ..catalog.rewards import ICONS
from ..faults import StartupError
from ..instance import kept_key
from ..words import T
from ..serve.address import public_base
from .catalog_form import FormProblem, form_fields, lacking, read_form
from .catalog_words import in_words, label, say, shown
from .common import check_csrf, csrf_token
from ..pictures.faces import face
from .language import reader_language
from .page_cache import drawn_once
from .reward_words import to_grammar
from .translate import request_gettext

bp = Blueprint("catalog", __name__, url_prefix="/catalog")

#: the families in the order a table checks a box: the city's tiles first, the boards' small print last
FAMILY_NAMES = {
    "hex": (T("Neighborhood hexes"), T("Hex")), "harbor": (T("Harbor hexes"), T("Harbor")),
    "boat": (T("Boats"), T("Boat")), "docking_tile": (T("Docking tiles"), T("Docking tile")),
    "wheel": (T("Population wheel windows"), T("Window")), "workshop": (T("Workshops"), T("Workshop")),
    "improvement": (T("Cabin improvements"), T("Improvement")), "wagon": (T("Wagons"), T("Wagon")),
    "solo_tile": (T("Solo tiles"), T("Solo tile")), "board": (T("Player boards"), T("Player board")),
    "scroll_board": (T("Scroll boards"), T("Scroll board")), "register": (T("Registers"), T("Register")),
    "round_info": (T("Scoreboard rounds"), T("Scoreboard side")),
    "priority_tile": (T("Register priority tiles"), T("Priority tile")),
    "rat_table": (T("Rat penalties"), T("Rat table")), "dock": (T("Docks"), T("Dock")),
    "layout": (T("City layouts"), T("Layout")),
}
ADMIN_COOKIE = "catalog_admin"
NEEDS_ADMIN = T("Changing the catalog needs this companion's admin link: serve prints it when it starts; open it "
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
    now = _now()
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
    now = _now()
    return render_template("catalog/index.html", **_base(now), families=_progress(now.catalog), pass_on=True)


@bp.get("/changes")
def changes():
    now = _now()
    rows = [_record(family, rec["id"], rec, now) for family in FAMILY_NAMES for rec in _records(now).get(family, [])]
    return render_template("catalog/changes.html", **_base(now), rows=rows)


@bp.get("/export")
def export():
    return Response(_corrections().export(), mimetype="application/toml",
                    headers={"Content-Disposition": 'attachment; filename="messina-catalog-corrections.toml"'})


@bp.post("/import")
def import_file():
    _may_change()
    upload = request.files.get(UPLOAD)
    if upload is None or not upload.filename:
        abort(400, T("Choose a corrections file to import."))
    try:
        _corrections().replace(upload.read(OVERRIDE_LIMIT + 1))
    except CatalogError as exc:
        now = _now()
        return render_template("catalog/index.html", **_base(now), families=_progress(now.catalog),
                               refused=[in_words(p, _record_name, _family_name) for p in exc.problems]), 400
    return redirect(url_for("catalog.index"), 303)


@bp.get("/<family>")
def family_page(family: str):
    _known(family)
    now = _now()
    plain = _plain(now)
    cards = [_record(family, rid, plain(family, rid), now) for rid in shipped_ids(family)]
    return render_template("catalog/family.html", **_base(now), family=family, cards=cards,
                           title=FAMILY_NAMES[family][0])


@bp.get("/<family>/all")
def family_grid(family: str, problems=(), status: int = 200):
    """A whole family at a glance: its faces in a grid, to tick against the box and mark together."""
    _known(family)
    now = _now()
    plain = _plain(now)
    cards = [_record(family, rid, plain(family, rid), now) for rid in shipped_ids(family)]
    return render_template("catalog/grid.html", **_base(now), family=family, cards=cards,
                           title=FAMILY_NAMES[family][0], problems=[in_words(p, _record_name, _family_name)
                                                                    for p in problems]), status


@bp.post("/<family>/all")
def check_all(family: str):
    """"All of these match my copy": every ticked record marked checked in one change; the odd ones out
    (left unticked) stay to be opened one by one."""
    _may_change()
    _known(family)
    ticked = [rid for rid in shipped_ids(family) if rid in request.form.getlist("match")]
    try:
        if ticked:
            _corrections().mark_all_checked(family, ticked)
    except CatalogError as exc:
        return family_grid(family, exc.problems, 400)
    return redirect(url_for("catalog.family_grid", family=family, _anchor="odd"), 303)


@bp.get("/<family>/<rid>")
def record_page(family: str, rid: str):
    _known(family, rid)
    now = _now()
    return _record_page(family, rid, _plain(now)(family, rid), now)


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
    now = _now()
    before = _plain(now)(family, rid)
    language = reader_language()
    try:  # a reward may be typed as the page writes it ("3 coins", "3 pièces"): kept in the grammar ("3 coin")
        typed = with_values(before, read_form(family, before, request.form, added=_lacking(family, before),
                                              phrases=lambda leaf, raw: to_grammar(raw, leaf, language,
                                                                                   request_gettext)))
    except FormProblem as exc:
        said = T("{record}: {problem}", record=_record_name(family, rid), problem=exc.args[0])
        return _record_page(family, rid, before, now, [said], 400)
    return _change(family, rid, lambda c: c.correct(family, rid, typed))


@bp.post("/<family>/<rid>/reset")
def reset(family: str, rid: str):
    _may_change()
    _known(family, rid)
    return _change(family, rid, lambda c: c.reset(family, rid))


# --- helpers -------------------------------------------------------------------------------------------

def _corrections() -> Corrections:
    return Corrections(current_app.extensions["catalog_file"])


def _now():
    return catalog_in_force(current_app.extensions["catalog_file"])


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
        abort(403, T("This is not this companion's admin link. Nothing was changed."))
    resp = make_response(redirect(url_for("catalog.index"), 303))
    resp.set_cookie(ADMIN_COOKIE, key, httponly=True, samesite="Lax", max_age=60 * 60 * 24 * 365)
    return resp


def _known(family: str, rid: str | None = None) -> None:
    try:
        shipped_ids(family) if rid is None else shipped_record(family, rid)
    except Unknown as exc:
        abort(404, exc.args[0])


def _records(now) -> dict:
    """The corrections in force as plain records (none while the file is broken: the shipped ones rule)."""
    try:
        return _corrections().records() if now.corrected else {}
    except CatalogError:  # broken since `now` was read: the next page names its problems
        return {}


def _plain(now):
    """A lookup of each record in force as plain values, the table's correction before the shipped one."""
    corrected = {(family, rec["id"]): rec for family, recs in _records(now).items() for rec in recs}
    return lambda family, rid: corrected.get((family, rid)) or shipped_record(family, rid)


def _change(family: str, rid: str, change):
    """Apply one change; refused by the loader, the record's page says why and nothing was written: its
    card shows the record as it is kept, its form what was typed, to put right."""
    try:
        change(_corrections())
    except CatalogError as exc:
        now = _now()
        return _record_page(family, rid, _plain(now)(family, rid), now, exc.problems, 400)
    then = request.form.get("then")
    ids = shipped_ids(family)
    if then == "next" and ids.index(rid) + 1 < len(ids):
        return redirect(url_for("catalog.record_page", family=family, rid=ids[ids.index(rid) + 1]), 303)
    if then == "record":
        return redirect(url_for("catalog.record_page", family=family, rid=rid), 303)
    return redirect(url_for("catalog.family_page", family=family, _anchor=f"r-{rid}"), 303)


def _record_page(family: str, rid: str, plain: dict, now, problems=(), status: int = 200):
    """A record's page: its card as kept; after a refusal, the refusal (naming the record and the field,
    never a file) and the form as it was typed."""
    ids = shipped_ids(family)
    at = ids.index(rid)
    typed = request.form if problems else {}
    return render_template("catalog/record.html", **_base(now), family=family, title=FAMILY_NAMES[family][0],
                           card=_record(family, rid, plain, now), fields=_form(family, form_fields(family, plain),
                                                                                 typed, now),
                           added=_form(family, _lacking(family, plain), typed, now),
                           problems=[in_words(p, _record_name, _family_name) for p in problems],
                           record_name=_say(_record_name(family, rid)), previous=ids[at - 1] if at else None,
                           grammar_icons=[(icon, _say(meaning)) for icon, meaning in ICONS.items()],
                           next=ids[at + 1] if at + 1 < len(ids) else None), status


def _form(family: str, fields, typed, now) -> list:
    """Each field with its name in words and its choices in words, showing what was typed, if anything."""
    return [(replace(field, value=typed.get(field.name, field.value)), _say(label(field.name)),
             [(choice, _say(_choice(family, field, choice, now.catalog)) if choice else "—")
              for choice in field.choices]) for field in fields]


def _lacking(family: str, plain: dict) -> list:
    return lacking(family, plain, [shipped_record(family, other) for other in shipped_ids(family)])


def _record_name(family: str, rid: str):
    """A record as the box names it: "Hex 4" (its kind and place in the family); an unknown one by its id."""
    ids = shipped_ids(family) if family in FAMILY_NAMES else []
    return T("{kind} {number}", kind=FAMILY_NAMES[family][1], number=ids.index(rid) + 1) if rid in ids else rid


def _family_name(family: str):
    return FAMILY_NAMES[family][0] if family in FAMILY_NAMES else family


def _record(family: str, rid: str, plain: dict, now) -> dict:
    """One record as a card shows it: where it comes from, each value with its own source, what differs."""
    built = now.catalog.family(family)[rid]
    ids = shipped_ids(family)
    return {
        "family": family, "id": rid, "kind": FAMILY_NAMES[family][1], "number": ids.index(rid) + 1,
        "face": face(now.catalog, family, rid, _=request_gettext),
        "source": built.prov.source, "corrected": now.catalog.origins.get((family, rid)) == str(now.override),
        "rows": [(_say(label(name)), _value(family, name, value, now.catalog), source_of(plain, name))
                 for name, value in values(plain).items()],
        "differences": [(_say(label(name)), _value(family, name, before, now.catalog),
                         _value(family, name, after, now.catalog))
                        for name, before, after in differences(shipped_record(family, rid), plain)],
    }


def _say(text) -> str:
    return say(text, request_gettext)


def _value(family: str, name: str, value, catalog) -> str:
    """A value as the reader reads it, numbers written the reader's way (0,5 in French and German)."""
    return _say(shown(family, name, value, catalog, format_decimal))


def _choice(family: str, field, choice: str, catalog):
    """A choice of the form in words: "yes"/"no" are the form's own values for a yes-no field."""
    return shown(family, field.name, choice == "yes" if field.kind == "yes-no" else choice, catalog)


def _progress(catalog) -> list[dict]:
    rows = []
    for family, (plural, _one) in FAMILY_NAMES.items():
        sources = Counter(r.prov.source for r in catalog.family(family).values())
        rows.append({"family": family, "name": plural, "checked": sources["checked"],
                     "count": sum(sources.values())})
    return rows


def _base(now) -> dict:
    sources = now.catalog.sources()
    return {"now": now, "admin": _is_admin(), "csrf": csrf_token(), "checked": sources["checked"],
            "total": sum(sources.values()), "fingerprint": now.catalog.fingerprint[:12]}
