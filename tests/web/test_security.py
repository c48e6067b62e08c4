"""Security of the web companion: secret tokens (>= 128 bits, from `secrets`), a seat token that never acts
for another seat nor reaches a host action, host actions behind the host credential, HttpOnly + SameSite
cookies, CSRF on every state-changing form, every player's text escaped (XSS), and the secret key made
in instance/ on first run and never committed."""

from __future__ import annotations

import base64
import json
import random
import re
import secrets
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.web import create_app

from server import ROOT, Server
from tables import api_table_ready, fingerprint, new_game, play

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
           {"name": "Chiara", "colour": "blue"}]
HOST_PARTS = ("moment", "status", "setup", "seats", "city", "decide", "upkeep", "log", "scoring", "registers", "undo")
SEAT_PARTS = ("menu", "estate", "seat_status", "minimap")
CSRF = re.compile(rb'name="csrf" value="([^"]+)"')


@pytest.fixture
def app_config() -> dict:
    return {"TESTING": False}  # refusals as in production


def csrf_of(client) -> str:
    return CSRF.search(client.get("/").data).group(1).decode()


def holds(client, game, who) -> None:
    """Seat calls of the API come from the seat's phone: this client scans the seat's code unless it has."""
    token = game["seats"][who]["token"]
    if client.get_cookie(f"seat_{token}") is None:
        assert client.get(f"/j/{token}").status_code == 302


def state_of(client, game) -> dict:
    return client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()


# --- tokens ------------------------------------------------------------------------------------------

def test_every_secret_token_comes_from_secrets_with_at_least_128_bits(app, monkeypatch):
    """Host token, seat tokens, phone (device) cookies and CSRF tokens are all made by `secrets` with
    16 bytes or more of randomness."""
    made: dict[str, int] = {}
    real = secrets.token_urlsafe

    def recording(nbytes=None):
        value = real(nbytes)
        made[value] = nbytes
        return value

    monkeypatch.setattr(secrets, "token_urlsafe", recording)
    client = app.test_client()
    game = new_game(client, PLAYERS, ready=False)
    csrf = csrf_of(client)
    devices = []
    for s in game["seats"]:
        r = client.get(f"/j/{s['token']}")
        devices.append(re.search(rf"seat_{s['token']}=([^;]+)", r.headers["Set-Cookie"]).group(1))
    secrets_out = [game["host_token"], csrf, *devices, *(s["token"] for s in game["seats"])]
    for value in secrets_out:
        assert value in made, f"{value!r} was not made by secrets.token_urlsafe"
        assert made[value] >= 16, f"{value!r} has only {made[value] * 8} bits"
        assert len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))) >= 16


def test_tokens_are_distinct_across_many_games(client):
    tokens = []
    for _ in range(30):
        game = new_game(client, PLAYERS, ready=False)
        tokens += [game["host_token"], *(s["token"] for s in game["seats"])]
    assert len(set(tokens)) == len(tokens)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,}", t) for t in tokens)


# --- seats and the host --------------------------------------------------------------------------------

def test_a_seat_token_never_acts_for_another_seat(app, client):
    """While one seat must decide, every other seat's token (API and phone form) is refused and changes
    nothing; when several seats decide at once, each token's action is logged as its own seat's."""
    game = new_game(client, PLAYERS, ready=False)
    csrf = csrf_of(client)
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
    rng = random.Random(1)
    checked_single = checked_multi = False
    for _ in range(600):
        st = state_of(client, game)
        if st["phase"] == "over" or (checked_single and checked_multi):
            break
        deciding = {q["who"] for q in st["pending"]} - {"host"}
        if not deciding:
            play(client, game, 1, rng)
            continue
        others = [s for s in game["seats"] if s["seat"] not in deciding]
        for s in others:
            before = fingerprint(app)
            # the API: the other seat's token and the deciding seat's choice index
            r = client.post(f"/api/seats/{s['token']}/actions", json={"version": st["version"], "choice": 0})
            assert r.status_code == 409 and r.get_json()["error"]
            # the phone form, from the other seat's own phone
            r = client.post(f"/seat/{s['token']}/act", data={"csrf": csrf, "version": st["version"], "choice": 0,
                                                             "decision": st["pending"][0]["id"]})
            assert r.status_code == 409
            assert fingerprint(app) == before
            checked_single = True
        if len(deciding) > 1:  # several seats at once: each token acts only as itself
            for who in sorted(deciding):
                token = game["seats"][who]["token"]
                menu = client.get(f"/api/seats/{token}/menu").get_json()
                assert menu["seat"] == who
                pick = rng.choice([o for o in menu["menu"] if o["available"]])
                r = client.post(f"/api/seats/{token}/actions", json={"version": menu["version"],
                                                                      "choice": pick["choice"]})
                assert r.status_code == 200, r.get_json()
                last = client.get(f"/host/{game['id']}/export.json?key={game['host_token']}").get_json()["actions"][-1]
                assert last["who"] == str(who) and last["action"]["who"] == who
            checked_multi = True
            continue
        play(client, game, 1, rng)
    assert checked_single and checked_multi


def test_a_phone_page_needs_its_own_device_cookie(app, client):
    game = new_game(client, PLAYERS, ready=False)
    a, b = game["seats"][0]["token"], game["seats"][1]["token"]
    anon = app.test_client()
    assert anon.get(f"/seat/{a}").status_code == 403
    client.get(f"/j/{a}")
    client.get(f"/j/{b}")
    assert client.get(f"/seat/{a}").status_code == 200
    device_b = client.get_cookie(f"seat_{b}").value
    thief = app.test_client()
    thief.set_cookie(f"seat_{a}", device_b)  # seat B's phone cookie under seat A's name
    assert thief.get(f"/seat/{a}").status_code == 403
    for part in SEAT_PARTS:
        assert thief.get(f"/seat/{a}/part/{part}").status_code == 403
    assert thief.get(f"/seat/{a}/news?v=x").status_code == 403
    csrf = csrf_of(thief)
    st = state_of(client, game)
    before = fingerprint(app)
    r = thief.post(f"/seat/{a}/act", data={"csrf": csrf, "version": st["version"], "choice": 0,
                                           "decision": st["pending"][0]["id"]})
    assert r.status_code == 403 and fingerprint(app) == before
    # scanning the code on another phone moves the seat: the first phone is locked out
    other = app.test_client()
    other.get(f"/j/{a}")
    assert other.get(f"/seat/{a}").status_code == 200
    assert client.get(f"/seat/{a}").status_code == 403


def host_requests(game: dict, version: int, csrf: str) -> list[tuple[str, str, dict | None]]:
    """Every host route of the game, as (method, path, form)."""
    gid = game["id"]
    reqs = [("GET", f"/host/{gid}", None), ("GET", f"/host/{gid}/export.json", None),
            ("GET", f"/host/{gid}/qr/0.svg", None), ("GET", f"/host/{gid}/seat/0", None),
            ("GET", f"/host/{gid}/setup/steps", None),
            ("GET", f"/api/games/{gid}/state", None), ("GET", f"/api/games/{gid}/host/menu", None),
            ("POST", f"/api/games/{gid}/host/actions", {"version": version, "choice": 0}),
            ("POST", f"/host/{gid}/decide", {"csrf": csrf, "version": version, "choice": 0, "decision": 0}),
            ("POST", f"/host/{gid}/undo", {"csrf": csrf, "version": version, "count": 1, "confirm": "yes"}),
            ("GET", f"/host/{gid}/undo?count=1", None),
            ("POST", f"/host/{gid}/tick", {"csrf": csrf, "list": "setup", "step": 1, "words": "0" * 16, "on": "1"}),
            ("POST", f"/host/{gid}/seat/0/act", {"csrf": csrf, "version": version, "choice": 0, "decision": 0})]
    reqs += [("GET", f"/host/{gid}/part/{p}", None) for p in HOST_PARTS]
    reqs += [("GET", f"/host/{gid}/seat/0/part/{p}", None) for p in SEAT_PARTS]
    # the screens' news, asked with a version the game never had, so it is answered at once
    reqs += [("GET", f"/host/{gid}/news?v=x", None), ("GET", f"/host/{gid}/seat/0/news?v=x", None)]
    # last: deleting the game (test_delete.py covers what an accepted delete does)
    reqs += [("POST", f"/host/{gid}/delete", {"csrf": csrf, "confirm": "yes"}), ("DELETE", f"/api/games/{gid}", None)]
    return reqs


def send(client, method, path, form, key_via=None, key=None):
    headers = {}
    if key_via == "query":
        path += ("&" if "?" in path else "?") + f"key={key}"
    elif key_via == "header":
        headers["X-Host-Token"] = key
    if method == "GET":
        return client.get(path, headers=headers)
    if method == "DELETE":
        return client.delete(path, headers=headers)
    if path.startswith("/api/"):
        return client.post(path, json=form, headers=headers)
    return client.post(path, data=form, headers=headers)


def test_every_host_route_is_covered_here(app):
    """A new host route must be added to host_requests, so the two tests below cover it."""
    adapter = app.url_map.bind("localhost")
    covered = {adapter.match(path.split("?")[0], method)[0] for method, path, _ in host_requests({"id": "g"}, 0, "")}
    host_routes = {r.endpoint for r in app.url_map.iter_rules() if r.rule.startswith("/host/")}
    host_routes |= {"api.state", "api.host_menu", "api.host_action", "api.delete"}
    assert host_routes <= covered, host_routes - covered


@pytest.mark.parametrize("credential", ["none", "seat token", "device cookie", "other game's host token", "junk"])
@pytest.mark.parametrize("via", ["query", "header", "cookie"])
def test_host_routes_refuse_anything_but_the_host_credential(app, credential, via):
    client = app.test_client()
    game = new_game(client, PLAYERS, ready=False, draw="table")  # the host has a question open (a reveal)
    other = new_game(client, PLAYERS, ready=False)
    client.get(f"/j/{game['seats'][0]['token']}")  # this browser holds seat 0's phone cookie too
    csrf = csrf_of(client)
    version = state_of(client, game)["version"]
    key = {"none": None, "seat token": game["seats"][0]["token"],
           "device cookie": client.get_cookie(f"seat_{game['seats'][0]['token']}").value,
           "other game's host token": other["host_token"], "junk": "x" * 22}[credential]
    if via == "cookie" and key:
        client.set_cookie(f"host_{game['id']}", key)
    before = fingerprint(app)
    for method, path, form in host_requests(game, version, csrf):
        r = send(client, method, path, form, via if via != "cookie" and key else None, key)
        assert r.status_code == 403, (credential, via, method, path, r.status_code)
    assert fingerprint(app) == before


@pytest.mark.parametrize("via", ["query", "header", "cookie"])
def test_host_routes_open_with_the_host_credential(app, via):
    client = app.test_client()
    game = new_game(client, PLAYERS, ready=False, draw="table")
    play(client, game, 3, random.Random(2))
    csrf = csrf_of(client)
    if via == "cookie":
        client.set_cookie(f"host_{game['id']}", game["host_token"])
    for method, path, form in host_requests(game, state_of(client, game)["version"], csrf):
        if method == "POST":  # each accepted write moves the version on: re-read it
            form = {**form, "version": state_of(client, game)["version"]}
            if "/seat/0/act" in path or "/decide" in path:
                continue  # need a question open for that seat; covered by the concurrency and fuzz tests
        if path.endswith("/delete") or method == "DELETE":
            continue  # would end the game for the requests after it; covered by test_delete.py
        r = send(client, method, path, form, None if via == "cookie" else via, game["host_token"])
        assert r.status_code < 400 or r.status_code == 409, (via, method, path, r.status_code)


def test_a_host_key_never_reveals_the_catalog_admin_key(app):
    """Anyone may start a game and so hold a host key: no host page, fragment, news answer, seat page on the
    host screen or export of that game carries the key that changes the catalog (issue 21), before or after
    moves, with the key in the link, the header or the cookie."""
    secret = app.extensions["catalog_admin"]
    client = app.test_client()
    game = new_game(client, PLAYERS, ready=False, draw="table")
    seen = 0
    for moves in (0, 4):
        play(client, game, moves, random.Random(3))
        version = state_of(client, game)["version"]
        opened = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True)
        answers = [opened]
        for method, path, _form in host_requests(game, version, csrf_of(client)):
            if method != "GET":
                continue
            for via in ("query", "header", None):  # None: the cookie the host link left
                answers.append(send(client, method, path, None, via, game["host_token"]))
        answers.append(client.get(f"/host/{game['id']}/news?v={version - 1}"))  # news: every region drawn
        for r in answers:
            assert r.status_code in (200, 204, 303), (r.request.path, r.status_code)
            assert secret not in r.get_data(as_text=True) and secret not in str(r.headers), r.request.path
            seen += r.status_code == 200
    assert seen > 60


# --- cookies -------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_cookies_are_httponly_and_samesite_on_the_wire(tmp_path):
    """Every cookie the real server sets: the session (CSRF), the host's, the phone's device and last seat."""
    with Server(tmp_path / "instance") as srv:
        set_cookies = []
        status, headers, page = srv.request("GET", "/")
        set_cookies += headers.get_all("Set-Cookie") or []
        session = re.search(r"session=([^;]+)", set_cookies[0]).group(1)
        csrf = CSRF.search(page).group(1).decode()
        status, headers, _ = srv.request("POST", "/games", form={"csrf": csrf, "name0": "Ada", "colour0": "red"},
                                         headers={"Cookie": f"session={session}"})
        assert status == 302
        set_cookies += headers.get_all("Set-Cookie") or []
        gid = headers["Location"].rsplit("/", 1)[1]
        key = re.search(rf"host_{gid}=([^;]+)", " ".join(set_cookies)).group(1)
        status, headers, _ = srv.request("GET", f"/host/{gid}?key={key}")
        assert status == 303  # the host link sets the cookie again and drops its key
        set_cookies += headers.get_all("Set-Cookie") or []
        status, _, body = srv.request("GET", f"/api/games/{gid}/state", headers={"X-Host-Token": key})
        token = srv.json("POST", "/api/games", {"players": PLAYERS})[1]["seats"][0]["token"]
        status, headers, _ = srv.request("GET", f"/j/{token}")
        set_cookies += headers.get_all("Set-Cookie") or []
        names = {c.split("=", 1)[0] for c in set_cookies}
        assert {"session", f"host_{gid}", f"seat_{token}", "last_seat"} <= names, names
        for cookie in set_cookies:
            attrs = [a.strip().lower() for a in cookie.split(";")[1:]]
            assert "httponly" in attrs, cookie
            assert any(a in ("samesite=lax", "samesite=strict") for a in attrs), cookie
        assert (tmp_path / "instance" / "secret_key").exists()  # made by the real server on its first run


# --- CSRF ----------------------------------------------------------------------------------------------

def first_available(client, game, who) -> dict:
    """A valid form for `who` (a seat index or "host") now: version, choice, decision."""
    if who == "host":
        menu = client.get(f"/api/games/{game['id']}/host/menu", headers={"X-Host-Token": game["host_token"]})
    else:
        holds(client, game, who)
        menu = client.get(f"/api/seats/{game['seats'][who]['token']}/menu")
    menu = menu.get_json()
    opt = next(o for o in menu["menu"] if o["available"])
    return {"version": menu["version"], "choice": opt["choice"], "decision": opt["decision"]}


def form_routes(client, table, game) -> dict:
    """A valid request, as of now, for every state-changing HTML route: {endpoint: (path, form)}.
    `table` is a table-draw game whose host must reveal; `game` is being played."""
    who = state_of(client, game)["pending"][0]["who"]
    return {
        "host.create": ("/games", {"name0": "Ada", "colour0": "red"}),
        "host.decide": (f"/host/{table['id']}/decide", first_available(client, table, "host")),
        "host.act_for_post": (f"/host/{game['id']}/seat/{who}/act", first_available(client, game, who)),
        "seat.act": (f"/seat/{game['seats'][who]['token']}/act", first_available(client, game, who)),
        "host.undo": (f"/host/{game['id']}/undo", {"version": state_of(client, game)["version"], "count": 1,
                                                   "confirm": "yes"}),
        "host.delete": (f"/host/{table['id']}/delete", {"confirm": "yes"}),
        "seat.undo": (f"/seat/{game['seats'][who]['token']}/undo", {"version": state_of(client, game)["version"],
                                                                    "confirm": "yes"}),
        "host.tick": (f"/host/{game['id']}/tick", {"list": "setup", "step": 1, "words": "0" * 16, "on": "1"}),
        "join.by_code": ("/join", {"code": client.application.extensions["store"].seats(game["id"])[0]["code"]}),
        # the catalog's forms also need the admin link: tests/catalog/test_catalog_page.py checks both, and the file
        "catalog.check": ("/catalog/hex/n01/check", {}),
        "catalog.correct": ("/catalog/hex/n01", {"action": "2 coin"}),
        "catalog.reset": ("/catalog/hex/n01/reset", {}),
        "catalog.check_all": ("/catalog/hex/all", {"match": "n02"}),
        "catalog.import_file": ("/catalog/import", {}),
        "resume.upload": ("/games/resume", {}),  # its file: tests/web/test_resume_web.py
    }


def test_csrf_is_checked_on_every_state_changing_form(app):
    """Every POST route outside the JSON API refuses a missing, forged, empty or other session's CSRF token,
    or one without its session, with a 400 that changes nothing — and accepts the same request with the
    right token."""
    client = app.test_client()
    table = new_game(client, PLAYERS, ready=False, draw="table")  # version 0: the host must reveal a tile
    game = new_game(client, ready=False, players=PLAYERS[:2])
    play(client, game, 3, random.Random(4))
    anonymous = app.test_client()  # the same cookies but no session
    for g in (table, game):
        for c in (client, anonymous):
            c.set_cookie(f"host_{g['id']}", g["host_token"])
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
        anonymous.set_cookie(f"seat_{s['token']}", client.get_cookie(f"seat_{s['token']}").value)
    routes = form_routes(client, table, game)
    posts = {r.endpoint for r in app.url_map.iter_rules() if "POST" in r.methods and not r.rule.startswith("/api/")}
    assert posts == set(routes), "a new form route needs a CSRF case here"
    own = csrf_of(client)
    other_session = csrf_of(app.test_client())
    for endpoint, (path, form) in routes.items():
        for label, who, token in (("missing", client, None), ("forged", client, secrets.token_urlsafe(16)),
                                  ("other session's", client, other_session), ("no session", anonymous, own),
                                  ("empty", client, "")):
            data = dict(form) if token is None else {**form, "csrf": token}
            before = fingerprint(app)
            r = who.post(path, data=data)
            assert r.status_code == 400, (endpoint, label, r.status_code)
            assert fingerprint(app) == before, (endpoint, label)
    for endpoint in ("host.create", "host.decide", "host.act_for_post", "seat.act", "host.undo", "join.by_code",
                     "host.delete"):
        path, form = form_routes(client, table, game)[endpoint]
        r = client.post(path, data={**form, "csrf": own})
        assert r.status_code in (200, 204, 302, 303), (endpoint, r.status_code, r.data[:300])


def test_the_json_api_cannot_be_driven_by_a_cross_site_form(app, client):
    """A cross-site form can only send form or text/plain bodies (no JSON without a CORS preflight, which
    the app never grants): the API refuses them even with the host's and the seat's cookies present."""
    game = new_game(client, PLAYERS, ready=False)
    api_table_ready(client, game)  # C-18: round I's first turn opens
    client.set_cookie(f"host_{game['id']}", game["host_token"])
    st = state_of(client, game)
    token = game["seats"][st["pending"][0]["who"]]["token"]
    holds(client, game, st["pending"][0]["who"])
    before = fingerprint(app)
    body = json.dumps({"version": st["version"], "choice": 0})
    for path in (f"/api/seats/{token}/actions", f"/api/seats/{token}/join", f"/api/games/{game['id']}/host/actions",
                 "/api/games"):
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            r = client.post(path, data=body, content_type=ctype)
            assert r.status_code == 400, (path, ctype, r.status_code)
            assert "access-control-allow-origin" not in {k.lower() for k in r.headers.keys()}
    r = client.options(f"/api/seats/{token}/actions", headers={"Origin": "http://evil.example",
                                                               "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in r.headers
    assert fingerprint(app) == before


class Forms(HTMLParser):
    """The page's POST forms (with their fields) and its hx-post elements."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.hx: list[dict] = []
        self.ids: dict[str, dict] = {}
        self._open: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids[a["id"]] = a
        if tag == "form":
            form = {"attrs": a, "fields": {}}
            self._open.append(form)
            if (a.get("method") or "get").lower() == "post" or "hx-post" in a:
                self.forms.append(form)
        elif tag == "input" and self._open:
            self._open[-1]["fields"][a.get("name")] = a.get("value")
        if "hx-post" in a and tag != "form":
            self.hx.append(a)

    def handle_endtag(self, tag):
        if tag == "form" and self._open:
            self._open.pop()


def test_every_rendered_form_carries_the_sessions_csrf_token(app):
    """Every POST form and every hx-post element on every page carries the session's CSRF token."""
    client = app.test_client()
    own = csrf_of(client)
    game = new_game(client, PLAYERS, ready=False, draw="table")
    play(client, game, 40, random.Random(3))
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
    key = game["host_token"]
    st = state_of(client, game)
    who = next((q["who"] for q in st["pending"] if q["who"] != "host"), 0)
    pages = ["/", f"/host/{game['id']}?key={key}", f"/host/{game['id']}/seat/{who}?key={key}"]
    pages += [f"/seat/{s['token']}" for s in game["seats"]]
    seen_forms = 0
    for path in pages:
        r = client.get(path, follow_redirects=True)
        assert r.status_code == 200, path
        parsed = Forms()
        parsed.feed(r.get_data(as_text=True))
        for form in parsed.forms:
            assert form["fields"].get("csrf") == own, (path, form["attrs"])
            seen_forms += 1
        for el in parsed.hx:
            assert el.get("hx-include") == "#csrf" and parsed.ids.get("csrf", {}).get("value") == own, (path, el)
    assert seen_forms >= 3


def test_a_session_signed_with_another_key_is_refused(app, tmp_path):
    """The CSRF token lives in the signed session: a session forged with another key is not believed."""
    client = app.test_client()
    forger = create_app({"INSTANCE": str(tmp_path / "elsewhere")}).test_client()
    csrf = csrf_of(forger)
    client.set_cookie("session", forger.get_cookie("session").value)
    before = fingerprint(app)
    r = client.post("/games", data={"csrf": csrf, "name0": "Ada", "colour0": "red"})
    assert r.status_code == 400 and fingerprint(app) == before


# --- escaping ------------------------------------------------------------------------------------------

PAYLOADS = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>",
            "</title><script>alert(2)</script>"]


class Tags(HTMLParser):
    """Every element and attribute of a page, to find anything a payload could have injected."""

    def __init__(self):
        super().__init__()
        self.bad: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and not (a.get("src") or "").startswith("/static/"):
            self.bad.append(f"<script {a}>")
        if tag == "img" and not re.fullmatch(r"/host/[0-9a-f]+/qr/\d+\.svg", a.get("src") or ""):  # a folded QR code
            self.bad.append(f"<img {a}>")
        for name, _ in attrs:
            if name.lower().startswith("on"):
                self.bad.append(f"<{tag} {name}=...>")


def injected(html: str) -> list[str]:
    parser = Tags()
    parser.feed(html)
    raw = [p for p in PAYLOADS if p in html]
    return parser.bad + [f"raw payload {p!r}" for p in raw]


def xss_pages(client, game) -> list[str]:
    gid, key = game["id"], game["host_token"]
    pages = [f"/host/{gid}?key={key}", f"/host/{gid}/qr/0.svg?key={key}"]
    pages += [f"/host/{gid}/part/{p}?key={key}" for p in HOST_PARTS] + [f"/host/{gid}/news?key={key}"]
    for s in game["seats"]:
        pages += [f"/host/{gid}/seat/{s['seat']}?key={key}", f"/seat/{s['token']}"]
        pages += [f"/seat/{s['token']}/part/{p}" for p in SEAT_PARTS]
        pages += [f"/seat/{s['token']}/news", f"/host/{gid}/seat/{s['seat']}/news?key={key}"]
    return pages


def xss_game(client):
    players = [{"name": n, "colour": c} for n, c in zip(PAYLOADS, ("red", "yellow", "blue", "green"))]
    game = new_game(client, ready=False, players=players)
    assert [s["name"] for s in state_of(client, game)["state"]["seats"]] == PAYLOADS
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
    return game


def check_escaped(client, game) -> dict:
    problems = {}
    for path in xss_pages(client, game):
        r = client.get(path, follow_redirects=True)
        assert r.status_code == 200, (path, r.status_code)
        found = injected(r.get_data(as_text=True))
        if found:
            problems[path] = found[:3]
    return problems


@pytest.mark.slow
def test_player_names_are_escaped_everywhere_through_a_whole_game(client):
    """Four players named with script payloads, played to final scoring by the random policy. At four
    moments and at the end, the host page and each of its parts (map, SVG titles, log, registers, scoring
    bars), every phone page and part (estate, menu and its prompt, status, mini map) and the host's "act
    for this seat" pages escape them: no script, no img, no on* attribute, no raw payload."""
    game = xss_game(client)
    rng = random.Random(7)
    problems = {}
    for stage in range(4):
        problems.update(check_escaped(client, game))
        play(client, game, 80, rng)
    play(client, game, 5000, rng)
    assert state_of(client, game)["phase"] == "over"
    problems.update(check_escaped(client, game))
    assert problems == {}
    assert b"alert" in client.get(f"/host/{game['id']}/export.json?key={game['host_token']}").data  # data kept


def test_an_error_page_escapes_what_it_echoes(client):
    r = client.get("/seat/<script>alert(1)</script>")
    assert r.status_code == 404 and b"<script>alert" not in r.data
    r = client.get("/host/%3Cscript%3E/part/status", headers={"HX-Request": "true"})
    assert r.status_code == 404 and b"<script>" not in r.data


def test_a_refusals_message_is_shown_as_text_never_as_markup(app):
    """Whatever a refusal's message holds (an engine reason may one day name a player), the page and the
    flash show it escaped."""
    from werkzeug.exceptions import Conflict

    @app.get("/refuse-for-the-test")
    def refuse():
        raise Conflict("Not possible: <script>alert(1)</script> has no lumber.")

    client = app.test_client()
    for headers in ({}, {"HX-Request": "true"}):
        r = client.get("/refuse-for-the-test", headers=headers)
        assert r.status_code == 409 and b"<script>alert" not in r.data and b"&lt;script&gt;alert(1)" in r.data


# --- the secret key --------------------------------------------------------------------------------------

def test_the_secret_key_is_made_in_instance_on_first_run_and_kept(tmp_path):
    instance = tmp_path / "instance"
    assert not (instance / "secret_key").exists()
    app = create_app({"INSTANCE": str(instance)})
    path = instance / "secret_key"
    key = path.read_text().strip()
    assert app.secret_key == key
    assert len(bytes.fromhex(key)) >= 16  # at least 128 bits
    assert path.stat().st_mode & 0o077 == 0  # readable by its owner only
    assert create_app({"INSTANCE": str(instance)}).secret_key == key  # kept across restarts
    assert create_app({"INSTANCE": str(tmp_path / "other")}).secret_key != key
    assert key not in (ROOT / "companion" / "web" / "__init__.py").read_text()


def test_instance_files_are_never_committed():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "--no-index", "instance/secret_key", "instance/companion.db",
                              "instance/companion.db-wal", "instance/catalog.toml"],
                             cwd=ROOT, capture_output=True, text=True)
    assert ignored.stdout.split() == ["instance/secret_key", "instance/companion.db", "instance/companion.db-wal",
                                      "instance/catalog.toml"]
    tracked = subprocess.run(["git", "ls-files", "instance"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert set(tracked) <= {"instance/.gitkeep", "instance/README.md"}, tracked
    assert "instance/*" in Path(ROOT / ".gitignore").read_text().split()
