"""What every answer tells the browser (companion/web/headers.py): a Content-Security-Policy with no
inline script or style, no framing, no sniffing, no referrer, and no-store on everything but /static/;
and pages that obey that policy (no inline script, handler, style or javascript: link anywhere)."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser


from companion.web.host import routes as host_views
from companion.web.seat import routes as seat_views
from companion.web.headers import CSP
from tables import new_game, play

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


def every_seat_here(client, players=PLAYERS, seed=5) -> dict:
    """A new game whose every seat's phone is this client (not yet at the table's "ready")."""
    game = new_game(client, players, seed, ready=False)
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")  # this client is every seat's phone
    return game


def every_screen(game: dict) -> list[str]:
    """Every page, live region and news answer of the host, its view of each seat, and each phone,
    plus the export and a QR code."""
    gid, key = game["id"], game["host_token"]
    out = [f"/host/{gid}?key={key}", f"/host/{gid}/export.json?key={key}", f"/host/{gid}/qr/0.svg?key={key}",
           f"/host/{gid}/news?v=-1&key={key}"]
    out += [f"/host/{gid}/part/{p}?key={key}" for p in host_views.PARTS]
    for s in game["seats"]:
        i, tok = s["seat"], s["token"]
        out += [f"/host/{gid}/seat/{i}?key={key}", f"/host/{gid}/seat/{i}/news?v=-1&key={key}", f"/seat/{tok}",
                f"/seat/{tok}/news?v=-1"]
        out += [f"/host/{gid}/seat/{i}/part/{p}?key={key}" for p in seat_views.PARTS]
        out += [f"/seat/{tok}/part/{p}" for p in seat_views.PARTS]
    return out


def assert_protected(r, path: str) -> None:
    h = r.headers
    assert h.get("Content-Security-Policy") == CSP, path
    assert h.get("X-Frame-Options") == "DENY", path
    assert h.get("X-Content-Type-Options") == "nosniff", path
    assert h.get("Referrer-Policy") == "no-referrer", path
    assert h.get("Cache-Control") == "no-store", path


def test_the_policy_allows_this_server_only_and_nothing_inline():
    rules = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert rules["default-src"] == "'none'"
    assert rules["script-src"] == "'self'" and rules["style-src"] == "'self'"  # no 'unsafe-inline', no eval
    assert rules["frame-ancestors"] == "'none'" and rules["form-action"] == "'self'"
    assert rules["base-uri"] == "'none'"


def test_every_screen_export_api_and_refusal_carries_the_headers(client):
    game = every_seat_here(client)
    play(client, game, 12, random.Random(1))
    paths = every_screen(game) + ["/", "/play", f"/api/games/{game['id']}/version",
                                  f"/api/games/{game['id']}/state?key={game['host_token']}",
                                  f"/api/seats/{game['seats'][0]['token']}/menu"]
    for path in paths:
        r = client.get(path)
        assert r.status_code in (200, 204, 302, 303), (path, r.status_code)
        assert_protected(r, path)
    # refusals: a forged seat link, a host page without the key, a form without CSRF, an API error
    refusals = [client.get("/seat/forged-token"), client.get(f"/host/{game['id']}?key=forged"),
                client.post("/games", data={"name0": "Ada"}), client.post("/api/games", data="x"),
                client.get(f"/seat/{game['seats'][0]['token']}/part/nothing", headers={"HX-Request": "true"})]
    for r in refusals:
        assert 400 <= r.status_code < 500
        assert_protected(r, r.request.path)
    # a joining phone's redirect carries its device cookie: not stored either
    assert_protected(client.get(f"/j/{game['seats'][1]['token']}"), "/j/")


def test_static_files_may_be_cached_but_keep_the_other_headers(client):
    r = client.get("/static/app.css")
    assert r.status_code == 200 and r.headers.get("Cache-Control") != "no-store"
    assert r.headers.get("X-Content-Type-Options") == "nosniff"
    assert r.headers.get("Content-Security-Policy") == CSP


class Inline(HTMLParser):
    """Everything on a page that a policy without 'unsafe-inline' or eval would block."""

    def __init__(self):
        super().__init__()
        self.bad: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") or name.startswith("hx-on") or name == "style":
                self.bad.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action", "hx-get", "hx-post") and value.strip().lower().startswith(
                    "javascript:"):
                self.bad.append(f"<{tag} {name}={value}>")
            if name in ("hx-vals", "hx-vars", "hx-headers") and value.strip().startswith(("js:", "javascript:")):
                self.bad.append(f"<{tag} {name}={value}>")
        if tag == "style":
            self.bad.append("<style>")
        if tag == "script" and not dict(attrs).get("src"):
            self.bad.append("inline <script>")


def inline_on(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.bad


def test_no_page_has_inline_script_style_or_javascript_links(client):
    """The host screen, the host's view of each seat, each phone, every part and news answer through
    a game (the city map, the estates, the QR codes are SVG drawn inline), the new-game form and the
    pages that refuse something: nothing the policy would block."""
    game = every_seat_here(client, players=PLAYERS + [{"name": "Chiara", "colour": "yellow"}])
    rng = random.Random(3)
    problems = {}
    for stage in range(2):
        for path in [p for p in every_screen(game) if "export" not in p] + ["/"]:
            r = client.get(path, follow_redirects=True)
            assert r.status_code in (200, 204), (path, r.status_code)
            found = inline_on(r.get_data(as_text=True))
            if found:
                problems[path] = sorted(set(found))[:3]
        play(client, game, 80, rng)
    for r in (client.get("/seat/forged-token"), client.get(f"/host/{game['id']}?key=forged"),
              client.post("/games", data={"name0": "Ada"})):
        found = inline_on(r.get_data(as_text=True))
        if found:
            problems[r.request.path] = found
    assert problems == {}


def test_htmx_is_told_not_to_inject_styles_or_evaluate():
    from pathlib import Path

    base = (Path(__file__).resolve().parents[2] / "templates" / "base.html").read_text()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", base)
    assert config, "base.html sets htmx's config"
    import json

    assert json.loads(config.group(1)) == {"includeIndicatorStyles": False, "allowEval": False,
                                           "allowScriptTags": False}
