"""A screen's answer: its live regions (`Region`), each drawn once per content and marked with what it
shows; an answer holds the new question and only the regions that changed since what the asking page shows,
with the pictures they name that the page's library lacks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import render_template, request

from ..pictures.elements import digest
from . import library, wire


def render_once(cache: dict, key: tuple, template: str, context, limit: int = 512) -> str:
    """A big picture (city map, estate) or list changes only with what it shows: render it once per key
    (which names the game or seat, what it shows and the language) and serve it from memory after. The
    pictures it named from the page's library are kept with it, and named again when it is served."""
    hit = cache.get(key)
    if hit is None:
        before = library.named_now()
        html = render_template(template, **context())
        named = {sid: symbol for sid, symbol in library.named_now().items() if sid not in before}
        if len(cache) > limit:
            cache.clear()
        hit = cache[key] = (html, named)
    library.name_again(hit[1])
    return hit[0]


@dataclass
class Region:
    """One live region of a screen as it is now: its element's id, what it shows (`shows`, a short digest
    the page keeps in the region's data-shows), how to draw it whole, and, for a region that only grows
    (the host's log), how to draw what it gained since what a page shows (None: draw it whole).
    `shows_on`: the element that carries data-shows, when not the region itself. `equivalent_shows`: what a
    page shows when its first drawing of the same content left a long list to load when opened
    (host/screen.py: the setup steps after setup)."""

    id: str
    shows: str
    draw: Callable[[], str]
    grown_since: Callable[[str], str | None] | None = None
    shows_on: str | None = None
    equivalent_shows: tuple[str, ...] = ()


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
    if region.shows_on:
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
    """What the asking page shows, region by region: its question's `k` (wire.SHOWN: "id:shows,…",
    static/app.js reads the data-shows of each region). A page that says nothing is sent every region."""
    out = {}
    for pair in request.values.get(wire.SHOWN, "").split(","):
        rid, _, shows = pair.partition(":")
        if rid and shows:
            out[rid] = shows
    return out


def screen_answer(ctx: Mapping[str, Any], regions: list[Region]) -> str:
    """A screen as it is now, in one answer: a new "anything new?" question at the new version, and each
    live region whose content changed since what the page shows (only what a growing region gained, when
    that is all), and the pictures they name that the page's library lacks. A move costs each screen one
    request, and only what the move changed."""
    seen = shown()
    out = [render_template("partials/_poll.html", **ctx)]
    for region in regions:
        had = seen.get(region.shows_on or region.id)
        if had == region.shows or had in region.equivalent_shows:
            continue
        grown = region.grown_since(had) if region.grown_since and had else None
        out.append(grown if grown is not None else oob(stamped(region)))
    library.keep_only(*out)  # only the pictures what is sent names
    out.append(library.added())
    return "".join(out)


def part_answer(region: Region) -> str:
    """One live region fetched again (after a refused tap), with the pictures it names that the page lacks."""
    return library.with_added(stamped(region))
