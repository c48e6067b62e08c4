"""The "anything new?" answer without Flask: most polls find nothing new, so they are answered by a
small WSGI layer in front of the app with one indexed read — every screen asks four times a second."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

POLL = re.compile(r"^/games/([0-9a-f]{1,32})/poll$")
UNCHANGED = ("204 No Content", [("Content-Length", "0"), ("Cache-Control", "no-store")])


class FastPoll:
    """Answers an unchanged poll with 204 at once; anything else (news, errors) goes to the app."""

    def __init__(self, app, store):
        self.app, self.store = app, store

    def __call__(self, environ, start_response):
        m = POLL.match(environ.get("PATH_INFO", ""))
        if m and environ.get("REQUEST_METHOD") == "GET":
            seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
            try:
                unchanged = seen.isdecimal() and self.store.version(m.group(1)) == int(seen)
            except Exception:  # an unknown game: the app answers with its 404 message
                unchanged = False
            if unchanged:
                start_response(*UNCHANGED)
                return [b""]
        return self.app(environ, start_response)
