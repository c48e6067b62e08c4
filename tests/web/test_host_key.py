"""The host's key leaves the address: after the host link is used once, the browser holds the key in
its cookie and is sent to the same page without `?key=` (the key was on the TV and in the history)."""

from __future__ import annotations

import html
import re
from tables import new_game


PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


def test_the_host_link_sets_the_cookie_and_sends_the_browser_to_the_address_without_the_key(app, client):
    game = new_game(client, PLAYERS, ready=False)
    screen = app.test_client()  # the TV, opening the host link for the first time
    r = screen.get(f"/host/{game['id']}?key={game['host_token']}")
    assert r.status_code == 303 and r.location == f"/host/{game['id']}"
    cookie = r.headers.get("Set-Cookie")
    assert cookie.startswith(f"host_{game['id']}={game['host_token']};") and "HttpOnly" in cookie
    page = screen.get(r.location)
    assert page.status_code == 200 and game["host_token"] not in page.get_data(as_text=True)


def test_a_forged_host_key_is_refused_and_sets_nothing(client):
    game = new_game(client, PLAYERS, ready=False)
    r = client.get(f"/host/{game['id']}?key=forged")
    assert r.status_code == 403 and "Set-Cookie" not in r.headers and "host's link" in html.unescape(r.get_data(as_text=True))


def test_the_new_game_form_sends_the_host_to_the_address_without_the_key(client):
    r = client.get("/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', r.get_data(as_text=True)).group(1)
    r = client.post("/games", data={"csrf": csrf, "name0": "Ada", "colour0": "red"})
    assert r.status_code in (302, 303) and "key=" not in r.location
    assert re.fullmatch(r"/host/[0-9a-f]+", r.location)
    assert client.get(r.location).status_code == 200  # by the cookie the answer set


def test_scripts_still_get_a_host_url_that_opens_the_screen(app, client):
    """The API hands a script the host link with its key (the script has nothing else to give a
    browser); opening it lands on the address without the key."""
    game = new_game(client, PLAYERS, ready=False)
    assert "key=" in game["host_url"]
    path = game["host_url"].split("://", 1)[1].split("/", 1)[1]
    r = app.test_client().get("/" + path, follow_redirects=True)
    assert r.status_code == 200 and r.request.path == f"/host/{game['id']}" and not r.request.args


def test_scripts_keep_using_the_key_on_the_routes_a_browser_never_shows(client):
    """Only the host screen itself moves the key out of the address; a script's export, parts and
    API calls with `?key=` answer as before."""
    game = new_game(client, PLAYERS, ready=False)
    key = game["host_token"]
    for path in (f"/host/{game['id']}/export.json?key={key}", f"/host/{game['id']}/part/status?key={key}",
                 f"/api/games/{game['id']}/state?key={key}"):
        assert client.get(path).status_code == 200, path
