"""Joining that works the first time (issue 14 item 1): a host screen opened at a loopback address still
gives the phones links and QR codes at the machine's LAN address, and says so plainly when it has none."""

from __future__ import annotations

import pytest
import sqlite_utils

from companion.store.schema import migrations
from companion.web import create_app
from companion.web.address import served_at
from companion.web.library import qr_id, qr_svg

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


def shows_qr(page: str, link: str) -> bool:
    """The page shows the QR code of `link`: a seat card uses it, and the page's library holds its drawing
    (web/pictures.py), which is the code qr_svg draws of that very address."""
    sid = qr_id(link)
    drawn = str(qr_svg(link))
    body = drawn[drawn.index("</title>") + len("</title>"):-len("</svg>")]
    return f'<use href="#{sid}"' in page and f'<title id="{sid}-t">{link}</title>{body}</symbol>' in page


def _app(tmp_path, **config):
    return create_app({"INSTANCE": str(tmp_path), "TESTING": True, **config})


def _host_page(app, base_url: str) -> tuple[dict, str]:
    client = app.test_client()
    game = client.post("/api/games", json={"players": PLAYERS, "seed": 3}, base_url=base_url).get_json()
    page = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True, base_url=base_url)
    return game, page.get_data(as_text=True)


@pytest.mark.parametrize("opened_at", ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"])
def test_a_host_opened_at_a_loopback_address_gives_links_at_the_lan_address(tmp_path, monkeypatch, opened_at):
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "127.0.0.1")
    config = served_at("0.0.0.0", 8000)  # `serve` started before the laptop joined the Wi-Fi
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "192.168.1.20")
    game, page = _host_page(_app(tmp_path, **config), opened_at)
    for seat in game["seats"]:
        link = f"http://192.168.1.20:8000/j/{seat['token']}"
        assert seat["join_url"] == link
        assert f'<code class="url">{link}</code>' in page and shows_qr(page, link)
    assert 'id="unreachable"' not in page


def test_serve_on_every_interface_opened_at_localhost_links_at_the_lan_address(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "192.168.1.20")
    game, page = _host_page(_app(tmp_path, **served_at("0.0.0.0", 8000)), "http://localhost:8000")
    assert game["seats"][0]["join_url"].startswith("http://192.168.1.20:8000/j/")
    assert 'id="unreachable"' not in page


def test_without_a_lan_address_the_host_screen_warns_that_phones_cannot_join(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "127.0.0.1")
    game, page = _host_page(_app(tmp_path, **served_at("0.0.0.0", 8000)), "http://localhost:8000")
    assert game["seats"][0]["join_url"].startswith("http://127.0.0.1:8000/j/")
    assert 'id="unreachable"' in page and "no network address that phones can reach" in page


def test_without_serve_a_loopback_host_page_keeps_its_address_and_warns(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "192.168.1.20")
    game, page = _host_page(_app(tmp_path), "http://localhost:8000")  # another WSGI server: where it listens is unknown
    assert game["seats"][0]["join_url"].startswith("http://localhost:8000/j/")
    assert 'id="unreachable"' in page and "phones cannot reach" in page
    _game, page = _host_page(_app(tmp_path / "lan"), "http://192.168.1.20:8000")
    assert 'id="unreachable"' not in page


def test_serve_on_loopback_only_warns_to_listen_on_the_network(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "192.168.1.20")
    game, page = _host_page(_app(tmp_path, **served_at("127.0.0.1", 8000)), "http://localhost:8000")
    assert game["seats"][0]["join_url"].startswith("http://127.0.0.1:8000/j/")  # the LAN one would not answer
    assert 'id="unreachable"' in page and "--host 0.0.0.0" in page


def test_a_public_url_the_host_gave_wins_even_at_a_loopback_address(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "192.168.1.20")
    for given in ("http://127.0.0.1:9000", "https://messina.example.org"):
        game, _page = _host_page(_app(tmp_path / given[-4:], **served_at("127.0.0.1", 8000, public_url=given)),
                                "http://localhost:8000")
        assert game["seats"][0]["join_url"].startswith(given + "/j/")


# --- join codes ----------------------------------------------------------------------------------

def _game_and_phone(app):
    """A game with two seats, and a phone that opened /join (so it has the form's key)."""
    host = app.test_client()
    game = host.post("/api/games", json={"players": PLAYERS, "seed": 3}).get_json()
    phone = app.test_client()
    page = phone.get("/join").get_data(as_text=True)
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    return game, phone, csrf


def test_every_seat_has_a_short_unambiguous_code_shown_under_its_qr_code(tmp_path):
    app = _app(tmp_path)
    game, _phone, _csrf = _game_and_phone(app)
    seats = app.extensions["store"].seats(game["id"])
    codes = [s["code"] for s in seats]
    assert len(set(codes)) == len(codes) == 2
    for code in codes:
        assert len(code) == 5 and code.isalpha() and code.isupper() and not set(code) & set("IO01")
    page = app.test_client().get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True)
    text = page.get_data(as_text=True)
    assert all(f'<span class="join-code" aria-label="join code">{c}</span>' in text for c in codes)
    assert "/join and types the letters" in text


def test_typing_a_code_on_join_does_what_scanning_the_qr_code_does(tmp_path):
    app = _app(tmp_path)
    game, phone, csrf = _game_and_phone(app)
    code = app.extensions["store"].seats(game["id"])[1]["code"]
    typed = code[:2].lower() + " - " + code[2:]  # as a player types it
    answer = phone.post("/join", data={"csrf": csrf, "code": typed})
    token = game["seats"][1]["token"]
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/j/{token}")
    seat_page = phone.get(answer.headers["Location"], follow_redirects=True)
    assert seat_page.status_code == 200 and "Bruno" in seat_page.get_data(as_text=True)
    seat = app.extensions["store"].seats(game["id"])[1]
    assert seat["device"] and seat["phone"] == 1  # the seat is this phone's now


@pytest.mark.parametrize("typed", ["", "AAAA", "ZZZZZZZZ", "I0O1L", "<script>", "é" * 50])
def test_a_wrong_code_says_so_and_changes_nothing(tmp_path, typed):
    app = _app(tmp_path)
    game, phone, csrf = _game_and_phone(app)
    answer = phone.post("/join", data={"csrf": csrf, "code": typed})
    assert answer.status_code == 404
    assert "No seat has that code" in answer.get_data(as_text=True)
    assert all(s["device"] == "" for s in app.extensions["store"].seats(game["id"]))


def test_a_join_without_the_forms_key_is_refused(tmp_path):
    app = _app(tmp_path)
    game, phone, _csrf = _game_and_phone(app)
    code = app.extensions["store"].seats(game["id"])[0]["code"]
    assert phone.post("/join", data={"code": code}).status_code == 400
    assert app.extensions["store"].seats(game["id"])[0]["device"] == ""


def test_typed_codes_are_limited_per_address_with_a_clear_message(tmp_path):
    app = _app(tmp_path, JOIN_TRIES_PER_MINUTE=3)
    game, phone, csrf = _game_and_phone(app)
    for _ in range(3):
        assert phone.post("/join", data={"csrf": csrf, "code": "AAAAA"}).status_code == 404
    code = app.extensions["store"].seats(game["id"])[0]["code"]
    refused = phone.post("/join", data={"csrf": csrf, "code": code})  # even the right one, for a minute
    assert refused.status_code == 429 and "Too many codes tried" in refused.get_data(as_text=True)
    assert app.extensions["store"].seats(game["id"])[0]["device"] == ""
    other = app.test_client()
    other_csrf = other.get("/join").get_data(as_text=True).split('name="csrf" value="')[1].split('"')[0]
    answer = other.post("/join", data={"csrf": other_csrf, "code": code}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert answer.status_code == 303  # another phone is not held back


def test_a_deleted_games_codes_no_longer_join(tmp_path):
    app = _app(tmp_path)
    game, phone, csrf = _game_and_phone(app)
    code = app.extensions["store"].seats(game["id"])[0]["code"]
    app.extensions["store"].delete(game["id"])
    assert phone.post("/join", data={"csrf": csrf, "code": code}).status_code == 404


def test_games_saved_before_join_codes_get_theirs_when_the_file_is_opened(tmp_path):
    db = sqlite_utils.Database(tmp_path / "old.db")
    migrations.apply(db, stop_before="m005_join_codes")
    db.execute("insert into games (id, created, options, seed, host_token, version) values ('g', 0, '{}', 1, 'h', 0)")
    for seat in range(3):
        db.execute("insert into seats (game_id, seat, token, device, joined) values ('g', ?, ?, '', 0)",
                   [seat, f"t{seat}"])
    db.conn.commit()
    migrations.apply(db)
    codes = [r["code"] for r in db.query("select code from seats order by seat")]
    assert len(set(codes)) == 3 and all(len(c) == 5 for c in codes)
