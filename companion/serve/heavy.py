"""Pages anyone may ask for that are large to draw or send (the catalog's: /catalog/board is 329 KB) take
their turn at the server's door, a few at a time, so a crowd asking for them cannot hold the threads that
answer taps and news (issue 21: 640 of them at once held every thread for a minute; taps timed out).

Each such page is drawn once per content (web/page_cache.py), so it costs little to draw; but a request
holds an answering thread until its answer is sent, and a crowd of readers (slow ones too) would hold them
all. `serve`'s door (serve/server.py) lets at most HEAVY_AT_ONCE of them reach a thread at once; the others
wait at the door, where waiting costs no thread, in the order they came. Taps, news and every other page
never wait behind them.
"""

from __future__ import annotations

PREFIXES = (b"/catalog", b"/score")  # the large public pages: every catalog family and record, drawn with its
# face; the score sheet (a 4-player advanced sheet is ~740 KB, drawn anew for every filled sheet)
HEAVY_AT_ONCE = 2


def heavy(head: bytes) -> bool:
    """Whether a request (its head as it arrived) reads one of those pages: a GET or HEAD of a catalog page
    (a change is a POST, and needs the admin)."""
    method, _, rest = head.partition(b" ")
    return method in (b"GET", b"HEAD") and rest.startswith(PREFIXES)
