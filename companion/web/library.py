"""The page's library of pictures: a printed face or a QR code is drawn once per record (or address),
size and language, kept as an SVG <symbol> in the page's library (`<svg id="pictures">`), and shown
wherever it is named by a small `<svg><use href="#…"/></svg>`.

A page's library only grows. Each answer (a page, a screen's news, a tap's answer, a region fetched
again) adds the symbols its regions name that the page does not have yet: its request lists the ones it
has (`f`, sent by static/app.js), so a face named on every move (the hex a lieutenant went to, in the
log) travels to each screen once. The symbols a request named are kept on `flask.g` until its answer is
put together (`library` at the end of a page, `added` at the end of any other answer).
"""

from __future__ import annotations

import hashlib
import re
import threading
from functools import lru_cache

import qrcode
from flask import g, request
from flask_babel import get_locale
from markupsafe import Markup, escape

from ..pictures.city import HEX_SMALL_BOX, hex_small, print_at, wheel_svg
from ..pictures.elements import Gettext, english, fmt, readable
from ..pictures.faces import face
from . import wire

LIBRARY = "pictures"  # the id of the page's library
SYMBOLS_KEPT = 4096  # drawn symbols kept in memory (a face is 1–15 KB; a game names a few dozen)
_ROOT = re.compile(r'^<svg ([^>]*)><title>(.*?)</title>(.*)</svg>$', re.S)
_VIEW_BOX = re.compile(r'\bviewBox="([^"]*)"')
_TITLE = re.compile(r'<title id="[^"]*">(.*?)</title>')
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_DRAWN: dict[tuple, tuple[str, str]] = {}  # (catalog, family, id, language) -> (viewBox, <symbol>)
_LOCK = threading.Lock()


def face_use(catalog, family: str, rid: str, _: Gettext = english) -> Markup:
    """A printed face where a menu or a line names it: a reference to its symbol in the page's library,
    named by the symbol's title (the face's description, in the reader's language)."""
    sid = "f-" + _UNSAFE.sub("_", f"{family}-{rid}")
    view_box, symbol = _face(catalog, family, rid, _)
    _name(sid, symbol)
    return Markup(f'<svg class="face face-{escape(family)}" viewBox="{_frame(view_box)}" role="img" '
                  f'aria-labelledby="{sid}-t" data-family="{escape(family)}" data-id="{escape(rid)}">'
                  f'{_use(sid, view_box)}</svg>')


def line_face_use(catalog, family: str, rid: str, _: Gettext = english) -> Markup:
    """A face beside a line of text (the log, a setup or upkeep step), at that size: a hex as the map shows
    it (pictures/city.hex_small, its print shared with the map), any other component its whole face."""
    if family not in ("hex", "harbor"):
        return face_use(catalog, family, rid, _)
    sid, whole = "l-" + _UNSAFE.sub("_", rid), _face(catalog, family, rid, _)
    named = _TITLE.search(whole[1])
    assert named is not None, "every face is drawn with its <title>"
    title = named.group(1)  # the face's description names the small one too
    printed = placed_use(catalog, "t-" + rid, (), 0, 0, lambda x, y: print_at(catalog.tile(rid), x, y, _), _)
    view_box = " ".join(fmt(v) for v in HEX_SMALL_BOX)
    symbol = _drawn((catalog.fingerprint or id(catalog), "line", rid, _language()), lambda: (view_box, (
        f'<symbol id="{sid}" viewBox="{view_box}"><title id="{sid}-t">{title}</title>'
        f'{compact(hex_small(catalog.tile(rid), printed))}</symbol>')))[1]
    _name(sid, symbol)
    return Markup(f'<svg class="face face-{family}" viewBox="{_frame(view_box)}" role="img" '
                  f'aria-labelledby="{sid}-t" data-family="{family}" data-id="{escape(rid)}">'
                  f'{_use(sid, view_box)}</svg>')


def placed_use(catalog, sid: str, key: tuple, x, y, draw_at, _: Gettext = english) -> Markup:
    """A picture of the host's map that never changes (pictures/city.place_here: a hex's print, a citizen, a
    lieutenant): a reference to its symbol, drawn once around (0, 0), placed at (x, y). The pieces move
    with the game; how each one looks never does."""
    sid = _UNSAFE.sub("_", sid)
    symbol = _drawn((catalog.fingerprint or id(catalog), "placed", sid, key, _language()), lambda: (
        "", f'<symbol id="{sid}" overflow="visible"{TEXT_DEFAULTS}>{readable(compact(draw_at(0, 0)))}</symbol>'))[1]
    _name(sid, symbol)
    return Markup(f'<use href="#{sid}" x="{fmt(x)}" y="{fmt(y)}"/>')


def _frame(view_box: str) -> str:
    """The viewBox of a picture showing a symbol whole: its size, from (0, 0)."""
    _x, _y, w, h = view_box.split()
    return f"0 0 {w} {h}"


def _use(sid: str, view_box: str) -> str:
    """A reference to a symbol with its own viewBox, as big as the picture's frame (`_frame`): a <use>
    otherwise puts the symbol's viewport at (0, 0) of a frame that may start elsewhere (a hex's face is
    drawn around its centre), and cuts it."""
    _x, _y, w, h = view_box.split()
    return f'<use href="#{sid}" width="{w}" height="{h}"/>'


def _face(catalog, family: str, rid: str, _: Gettext) -> tuple[str, str]:
    """(viewBox, <symbol>) of a record's whole face, drawn once per catalog, record and language."""
    sid = "f-" + _UNSAFE.sub("_", f"{family}-{rid}")
    return _drawn((catalog.fingerprint or id(catalog), family, rid, _language()),
                  lambda: _as_symbol(sid, str(face(catalog, family, rid, _))))


def wheel_use(state, _: Gettext = english) -> Markup:
    """The population wheel's window as the host's map shows it (pictures/city.wheel_svg): it changes once a
    round, so the map's moves leave it in the page's library."""
    sid = f"w-{state.wheel}-{state.round}"
    view_box, symbol = _drawn((state.catalog.fingerprint or id(state.catalog), "wheel window", state.wheel,
                               state.round, _language()), lambda: _as_symbol(sid, str(wheel_svg(state, _))))
    _name(sid, symbol)
    return Markup(f'<svg class="wheel" viewBox="{_frame(view_box)}" role="img" aria-labelledby="{sid}-t">'
                  f'{_use(sid, view_box)}</svg>')


def qr_use(url: str, title: str | None = None) -> Markup:
    """A QR code a phone camera reads: a reference to its symbol, drawn once per address. Its title is the
    address unless `title` names it otherwise (the admin link's key must never stand on a page as text)."""
    sid = qr_id(url)
    view_box, symbol = _drawn(("qr", url, title), lambda: _as_symbol(sid, str(qr_svg(url, title))))
    _name(sid, symbol)
    return Markup(f'<svg class="qr-code" viewBox="{_frame(view_box)}" role="img" aria-labelledby="{sid}-t">'
                  f'{_use(sid, view_box)}</svg>')


def qr_id(url: str) -> str:
    """The id of an address's QR code in a page's library."""
    return "q-" + hashlib.blake2b(url.encode(), digest_size=6).hexdigest()


@lru_cache(maxsize=512)
def qr_svg(url: str, title: str | None = None) -> Markup:
    """A QR code as a whole SVG picture (the /qr/<seat>.svg route, and each symbol's drawing): each row's
    runs of dark modules as strokes one module thick, one unit per module, on white with the quiet zone
    around (error correction L: a screen gathers no dirt, and fewer modules read from further away)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    rows = code.get_matrix()
    size = len(rows)
    named = url if title is None else title
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
                  f'<title>{escape(named)}</title><rect width="{size}" height="{size}" fill="#fff"/>'
                  f'<path d="{"".join(_runs(y, row) for y, row in enumerate(rows))}" stroke="#000"/></svg>')


def _runs(y: int, row: list[bool]) -> str:
    """A row's dark runs as path moves: "M<x> <y+½>h<n>" for the first, "m<gap> 0h<n>" for the next."""
    out, x, end = [], 0, None
    while x < len(row):
        if not row[x]:
            x += 1
            continue
        start = x
        while x < len(row) and row[x]:
            x += 1
        out.append(f"M{start} {y}.5h{x - start}" if end is None else f"m{start - end} 0h{x - start}")
        end = x
    return "".join(out)


def library() -> Markup:
    """The page's library, at the end of a page: every symbol its regions named (there even when empty, so
    the pictures a later answer adds have a place to go)."""
    return Markup(f'<svg id="{LIBRARY}" class="picture-library" aria-hidden="true">{"".join(_named().values())}</svg>')


def added() -> str:
    """The symbols this answer's regions named that the page lacks (its request lists the ones it has),
    to be added to its library as the answer is swapped in (markup, to join to the answer's own)."""
    has = set(request.values.get(wire.PICTURES, "").split("."))
    missing = [symbol for sid, symbol in _named().items() if sid not in has]
    if not missing:
        return ""
    return f'<svg id="{LIBRARY}" hx-swap-oob="beforeend">{"".join(missing)}</svg>'


def with_added(answer: str) -> str:
    """An answer (a region, a list a panel loads when opened) with the symbols it names that the page lacks."""
    return str(answer) + added()


def keep_only(*shown: str) -> None:
    """Forget the symbols this request named that none of `shown` (what the answer carries) refers to, nor
    any symbol it keeps (a line's hex refers to its print): a region drawn only to learn what it shows (the
    setup checklist a page leaves to load, a region the page already shows) adds nothing to the answer."""
    named = _named()
    keep: set[str] = set()
    frontier = "".join(shown)
    while frontier:
        new = [sid for sid in named if sid not in keep and f'href="#{sid}"' in frontier]
        keep.update(new)
        frontier = "".join(named[sid] for sid in new)
    for sid in [sid for sid in named if sid not in keep]:
        del named[sid]


def named_now() -> dict[str, str]:
    """The symbols named so far in this request (a region drawn from memory names them again)."""
    return dict(_named())


def name_again(symbols: dict[str, str]) -> None:
    _named().update(symbols)


def _named() -> dict[str, str]:
    named = g.get("pictures")
    if named is None:
        named = g.pictures = {}
    return named


def _name(sid: str, symbol: str) -> None:
    _named().setdefault(sid, symbol)


def _language() -> str:
    lang = g.get("picture_language")
    if lang is None:
        lang = g.picture_language = str(get_locale())
    return lang


def _drawn(key: tuple, draw) -> tuple[str, str]:
    hit = _DRAWN.get(key)
    if hit is None:
        hit = draw()
        with _LOCK:
            if len(_DRAWN) >= SYMBOLS_KEPT:
                _DRAWN.clear()
            _DRAWN[key] = hit
    return hit


def _as_symbol(sid: str, drawing: str) -> tuple[str, str]:
    """A whole picture (`<svg …><title>…</title>…</svg>`, as pictures/elements.svg makes it) as a symbol of the
    library: (its viewBox, the symbol), its title kept (with an id, so each use is named by it)."""
    m = _ROOT.match(drawing)
    if m is None:
        raise ValueError("a picture for the library is one <svg> with its <title> first")
    attrs, title, body = m.groups()
    box = _VIEW_BOX.search(attrs)
    if box is None:
        raise ValueError("a picture for the library has a viewBox")
    view_box = box.group(1)
    kept = "".join(f' {name}="{value}"' for name, value in _ATTR.findall(attrs) if name in _KEPT)
    return view_box, (f'<symbol id="{sid}"{kept}{TEXT_DEFAULTS}><title id="{sid}-t">{title}</title>'
                      f'{compact(body)}</symbol>')


def compact(body: str) -> str:
    """A drawing's body as a symbol keeps it: no class or data attributes (a page's styles and scripts do
    not reach inside a <use>; they serve tests and the drawing read on its own), and the labels' usual
    anchoring left to the symbol (TEXT_DEFAULTS, which every text inherits)."""
    return _NOT_KEPT.sub("", body)


TEXT_DEFAULTS = ' text-anchor="middle" dominant-baseline="central"'
_NOT_KEPT = re.compile(r' (?:class|data-[\w-]+)="[^"]*"| text-anchor="middle"| dominant-baseline="central"')


_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_KEPT = ("viewBox", "font-family", "shape-rendering")  # what a picture's root says of its drawing
