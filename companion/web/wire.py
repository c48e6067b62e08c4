"""The one-letter query keys a screen sends with its requests, named once. static/app.js and
partials/_poll.html write them (the letters keep every question short: a page asks again after every move);
the routes read them through these names, and the tests and bench/web.py send them through these names."""

from __future__ import annotations

VERSION = "v"  # the game's version the page shows
JOINS = "j"  # host screen: how many times its game's seats were taken by a phone (store/seats.py `joins`)
PHONES = "p"  # host screen: what it shows of the phones' connections (web/phones.py `news_key`)
TICKED = "t"  # host screen: how many times its checklists were ticked (store/ticks.py)
SHOWN = "k"  # each live region's "id:data-shows", comma-separated (web/regions.py `shown`)
PICTURES = "f"  # the ids of the pictures its library holds, dot-separated (web/library.py)
RETRY = "r"  # its last question failed: answer at once, so the page knows it has the server back

#: every key with what it says, for a reader of the wire
KEYS = {VERSION: "version shown", JOINS: "seats taken (host)", PHONES: "phones shown (host)",
        TICKED: "ticks shown (host)", SHOWN: "regions shown", PICTURES: "pictures held",
        RETRY: "after a failure: answer at once"}

#: what a host screen's question says it shows besides the version, in the order they are compared
HOST_SHOWS = (JOINS, PHONES, TICKED)


def asked(args) -> tuple[str, str | None, str | None, str | None]:
    """What a screen's question says it shows: the version and, for the host screen, the seats taken, the
    phones and the ticks (None for each it does not send), as text: any other text is news."""
    return (args.get(VERSION, ""), *(args.get(key) for key in HOST_SHOWS))
