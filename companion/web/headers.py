"""What every answer tells the browser about itself, so that a page cannot be turned against its table.

- Content-Security-Policy: scripts, styles, pictures and requests come from this server only; no inline
  script or style runs (a name that slipped through escaping could not run anything), no other site may
  frame a page (clickjacking a phone's buttons), and forms post only here.
- nosniff: a player's text is never taken for a script or a page.
- no-referrer: a seat's or host's link never leaves in a Referer header.
- no-store: host screens, phone pages and exports hold a game's secrets and its live state; a browser
  must neither keep them on disk nor show a stale copy after "back". Only /static/ may be cached.
"""

from __future__ import annotations

from flask import request

CSP = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",  # no 'unsafe-inline': every style lives in static/app.css, none in an attribute
    "img-src 'self' data:",  # data: for the empty favicon in base.html
    "media-src 'self'",  # the phones' keep-awake video (static/awake/, static/wake.js)
    "connect-src 'self'",  # htmx asks this server only
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
))

SAME_FOR_ALL = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def protect(response):
    """After every request (pages, parts, news, API, export, errors)."""
    for name, value in SAME_FOR_ALL.items():
        response.headers[name] = value
    if not request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-store"
    return response
