"""Pages anyone may ask for that are large to draw (the catalog's: /catalog/board is 329 KB; a filled
4-player score sheet ~740 KB, drawn anew for each) take turns at the server's connection manager, a few at a time, so a
crowd asking for them cannot hold the threads that answer taps and news (issue 21: 640 of them at once
held every thread for a minute; taps timed out).

A turn lasts while a thread draws the page, not while the client reads it (serve/answers.py). One client
(companion/clients.py) holds one turn at most, and those waiting are let through client by client, in
turn (serve/turns.py), so one device asking for page after page waits behind its own requests, never in
front of another device's (issue 32: six slow-reading connections held both turns for a minute)."""

from __future__ import annotations

PREFIXES = (b"/catalog", b"/score")
LARGE_AT_ONCE = 2


def large_page(head: bytes) -> bool:
    """Whether a request (its head as it arrived) reads one of those pages: a GET or HEAD of a catalog page
    or the score sheet (a change of the catalog is a POST, and needs the admin)."""
    method, _, rest = head.partition(b" ")
    return method in (b"GET", b"HEAD") and rest.startswith(PREFIXES)
