"""Public pages drawn once per content: a catalog page as anyone reads it depends only on the catalog in force
(its fingerprint, and the problems of a broken corrections file) and on the reader's language, so it is
drawn once for each and then sent as it was (and gzipped once). /catalog/board took 0.12 s to draw and
is 329 KB; a crowd asking for it drew it again for every request (issue 21).

The admin's pages carry forms with the session's CSRF token, and are drawn each time.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from flask import Blueprint, Response, current_app, g

LIMIT = 32 * 1024 * 1024  # bytes kept at most (every catalog page in three languages is about 8 MB)


@dataclass(frozen=True)
class Page:
    html: bytes
    gzipped: bytes

    def response(self) -> Response:
        """The page as drawn; `gzipped` is what the app's compression sends to a browser that takes gzip."""
        out = Drawn(self.html, mimetype="text/html")
        out.gzipped = self.gzipped
        return out


class Drawn(Response):
    """A page drawn once, with its gzipped bytes made once too (the app's compression sends them)."""

    gzipped: bytes | None = None


class PageCache:
    """Pages by key, the least recently read dropped first once they hold more than `limit` bytes."""

    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self._pages: OrderedDict[tuple, Page] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self.drawn = 0  # pages drawn and kept (read by tests)

    def get(self, key: tuple) -> Page | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: tuple, html: bytes) -> Page:
        page = Page(html, gzip.compress(html, compresslevel=6))  # once per content: worth compressing well
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._size -= len(old.html) + len(old.gzipped)
            self._pages[key] = page
            self._size += len(html) + len(page.gzipped)
            self.drawn += 1
            while self._size > self.limit and len(self._pages) > 1:
                _, dropped = self._pages.popitem(last=False)
                self._size -= len(dropped.html) + len(dropped.gzipped)
        return page


def drawn_once(bp: Blueprint, key_of: Callable[[], tuple | None]) -> None:
    """The pages of `bp` for which `key_of()` gives a key (everything they depend on) are drawn once for it
    and then sent as drawn; the app keeps them in `extensions["public_pages"]`."""

    @bp.before_request
    def _drawn_before():
        key = key_of()
        if key is None:
            return None
        g.page_key = key
        page = _cache().get(key)
        return page.response() if page is not None else None

    @bp.after_request
    def _keep_drawn(response):
        key = g.pop("page_key", None)
        if key is not None and response.status_code == 200 and not hasattr(response, "gzipped"):
            _cache().put(key, response.get_data())
        return response


def _cache() -> PageCache:
    pages = current_app.extensions.get("public_pages")
    if pages is None:
        pages = current_app.extensions.setdefault("public_pages", PageCache())
    return pages
