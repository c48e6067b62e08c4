"""The server's own address (companion/web/address.py): join links and QR codes come from where `serve`
listens, never from a request's Host header, and a request for a host name the server does not answer
to (DNS rebinding) is refused before it touches anything."""

from __future__ import annotations

import re
import socket

import pytest
from server import Server

from companion.web import create_app
from companion.web.address import answers_to, host_name, served_at
from companion.web.library import qr_svg
from test_joining import shows_qr

PUBLIC = "http://192.168.1.20:8000"
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


@pytest.fixture
def app_config() -> dict:
    return served_at("0.0.0.0", 8000, public_url=PUBLIC)


def games(app) -> int:
    return len(app.extensions["store"].games())


def test_serve_gives_the_app_its_address_and_the_names_it_answers_to(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "Kitchen-Laptop")
    monkeypatch.setattr("companion.web.address.lan_address", lambda: "192.168.1.20")
    here = served_at("0.0.0.0", 8000)
    assert here["PUBLIC_URL"] == "http://192.168.1.20:8000"
    assert {"localhost", "kitchen-laptop", "kitchen-laptop.local", "192.168.1.20"} <= set(here["HOST_NAMES"])
    assert served_at("127.0.0.1", 5000)["PUBLIC_URL"] == "http://127.0.0.1:5000"
    assert served_at("::1", 8000)["PUBLIC_URL"] == "http://[::1]:8000"
    assert served_at("10.0.0.5", 80)["PUBLIC_URL"] == "http://10.0.0.5"
    proxied = served_at("127.0.0.1", 8000, ["Games.Example.org."], "https://messina.example.org/")
    assert proxied["PUBLIC_URL"] == "https://messina.example.org"
    assert {"messina.example.org", "games.example.org"} <= set(proxied["HOST_NAMES"])
    assert served_at("127.0.0.1", 8000, public_url="table.example:8080")["PUBLIC_URL"] == "http://table.example:8080"


def test_host_names_are_read_without_their_port():
    assert host_name("localhost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1" and host_name("[fe80::1]") == "fe80::1"
    assert host_name("Table.Example.") == "table.example"
    names = ["localhost", "table.example"]
    for ok in ("localhost", "LOCALHOST:1", "table.example:443", "127.0.0.1:8000", "192.168.1.20", "[::1]:8000",
               "", None):
        assert answers_to(ok, names), ok
    for bad in ("evil.example", "evil.example:8000", "localhost.evil.example", "table.example.evil", "127.1",
                "0x7f000001", "[not-an-address]"):
        assert not answers_to(bad, names), bad


def test_join_links_and_qr_codes_use_the_servers_address_whatever_the_host_page_was_opened_at(app):
    client = app.test_client()  # the host screen opened at http://localhost/
    game = client.post("/api/games", json={"players": PLAYERS, "seed": 3}).get_json()
    assert game["host_url"].startswith(PUBLIC + f"/host/{game['id']}?key=")
    links = [s["join_url"] for s in game["seats"]]
    assert links == [f"{PUBLIC}/j/{s['token']}" for s in game["seats"]]
    page = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)
    for link in links:
        assert f'<code class="url">{link}</code>' in page
        assert shows_qr(page, link)  # the code a phone scans says the same
    svg = client.get(f"/host/{game['id']}/qr/1.svg").get_data(as_text=True)
    assert svg == str(qr_svg(links[1]))
    # the same from an IP address the machine also has: still the public address
    other = app.test_client().get(f"/host/{game['id']}/part/seats", headers={"X-Host-Token": game["host_token"]},
                                  base_url="http://10.9.8.7:8000")
    assert other.status_code == 200 and links[0] in other.get_data(as_text=True)


@pytest.mark.parametrize("path,method", [("/", "GET"), ("/api/games", "POST"), ("/games", "POST"),
                                         ("/play", "GET"), ("/static/app.css", "GET")])
def test_a_request_for_another_host_name_is_refused_and_changes_nothing(app, path, method):
    client = app.test_client()
    before = games(app)
    r = client.open(path, method=method, base_url="http://evil.example:8000",
                    json={"players": PLAYERS} if path.startswith("/api") else None)
    assert r.status_code == 421
    assert "does not answer to that name" in r.get_data(as_text=True)
    assert PUBLIC + "/" in r.get_data(as_text=True)  # where to go instead
    assert games(app) == before and "Set-Cookie" not in r.headers


def test_a_rebinding_page_cannot_read_or_drive_a_game(app):
    client = app.test_client()
    game = client.post("/api/games", json={"players": PLAYERS, "seed": 3}).get_json()
    tok = game["seats"][0]["token"]
    evil = app.test_client()
    for path in (f"/api/games/{game['id']}/version", f"/j/{tok}", f"/seat/{tok}", f"/api/seats/{tok}/menu",
                 f"/host/{game['id']}/news?v=0"):
        r = evil.get(path, base_url="http://evil.example")
        assert r.status_code == 421, path
        assert r.is_json == path.startswith("/api/"), path
    assert app.extensions["store"].seats(game["id"])[0]["device"] == ""  # the seat was not taken


def test_without_serve_the_app_answers_to_localhost_and_ip_addresses_only(tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True})
    client = app.test_client()
    assert client.get("/").status_code == 200
    assert client.get("/", base_url="http://127.0.0.1:5000").status_code == 200
    assert client.get("/", base_url="http://evil.example").status_code == 421
    game = client.post("/api/games", json={"players": PLAYERS}).get_json()
    assert game["seats"][0]["join_url"].startswith("http://localhost/j/")


# --- a real server ----------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_real_server_links_to_where_it_listens_and_refuses_other_names(tmp_path):
    with Server(tmp_path, args=["--name", "table.example"]) as srv:
        assert f"open {srv.base}/ on the host screen" in srv.tail()
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS},
                                headers={"Host": f"localhost:{srv.port}"})
        assert status == 201
        assert [s["join_url"] for s in game["seats"]] == [f"{srv.base}/j/{s['token']}" for s in game["seats"]]
        status, _, body = srv.request("GET", "/", headers={"Host": "evil.example"})
        assert status == 421 and b"does not answer to that name" in body
        status, _, body = srv.request("POST", "/api/games", {"players": PLAYERS}, headers={"Host": "evil.example"})
        assert status == 421
        status, _, _ = srv.request("GET", f"/j/{game['seats'][0]['token']}", headers={"Host": "evil.example"})
        assert status == 421
        status, _, page = srv.request("GET", f"/host/{game['id']}", headers={"Host": "table.example",
                                                                           "X-Host-Token": game["host_token"]})
        assert status == 200
        # a page opened under the proxy's name still sends phones to the server's own address
        assert re.findall(rb'<code class="url">([^<]+)</code>', page) == [
            f"{srv.base}/j/{s['token']}".encode() for s in game["seats"]]
        status, listed = srv.json("GET", f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]})
        assert status == 200 and listed["version"] == 0
