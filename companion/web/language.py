"""Which language a screen speaks: the one its reader chose on this device, else the browser's.

Each device keeps its own choice in a cookie, so a French host screen and a German phone can share a game.
The choice is a preference, not game state: a plain link sets it (no form, nothing to forge that matters),
and the way back is only ever a path on this server.
"""

from __future__ import annotations

import re
from typing import TypedDict
from urllib.parse import quote

from flask import Blueprint, redirect, request

from ..words import Text
from .access import refusal

bp = Blueprint("language", __name__)

LANGUAGES = ("en", "fr", "de")
#: each language named in itself, as a reader looks for it
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}
COOKIE = "lang"
YEAR = 60 * 60 * 24 * 365


def reader_language() -> str:
    """This device's choice, else the best of the browser's languages, else English."""
    return language_of(request)


def language_of(asked) -> str:
    """The same for any request (a Werkzeug one, read by a layer in front of Flask)."""
    chosen = asked.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return asked.accept_languages.best_match(LANGUAGES) or "en"


#: a plain path on this server, as a page's own link writes it: printable ASCII that needs no quoting in a
#: header, starting with one slash (two, or a slash and a backslash, would name another host); no spaces,
#: tabs or newlines (a browser drops them, so "/<tab>/evil" would become "//evil"), no fragment
PLAIN_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@/%?]{0,2000}")


def back_to(target: str | None) -> str:
    """Only a plain path on this server ("/host/…"); anything else ("//evil", "https://…", a tab, a newline, a
    backslash, a character a header cannot carry) goes to the front page."""
    if not target or not PLAIN_PATH.fullmatch(target):
        return "/"
    return target


@bp.get("/language/<code>")
def choose(code: str):
    if code not in LANGUAGES:
        return refusal(Text("No such language here: the companion speaks English, Français and Deutsch."), 404)
    resp = redirect(back_to(request.args.get("next")), 303)
    resp.set_cookie(COOKIE, code, httponly=True, samesite="Lax", max_age=YEAR)
    return resp


class LanguageLink(TypedDict):
    code: str
    name: str  # in its own language
    current: bool  # the one in use
    next: str  # the page to come back to


def links() -> list[LanguageLink]:
    """The switch each page shows: every language, the one in use marked."""
    now = reader_language()
    here = quote(request.path, safe="/")  # the page itself: what its address asked beyond that is not kept
    return [{"code": code, "name": NAMES[code], "current": code == now, "next": here} for code in LANGUAGES]


__all__ = ["LANGUAGES", "bp", "language_of", "links", "reader_language"]
