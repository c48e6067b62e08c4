"""A language switch on every screen, remembered per device (issue 15 item 3): the browser's language is
only the default, and two devices at one game may read it in two languages."""

from __future__ import annotations

import html
import re

import pytest
from tables import create


SWITCH = re.compile(r'<nav class="languages".*?</nav>', re.S)


def lang_of(page: str) -> str:
    return re.search(r'<html lang="(\w+)"', page).group(1)


def test_the_browser_language_is_the_default(client):
    assert lang_of(client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)) == "fr"
    assert lang_of(client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "de"
    assert lang_of(client.get("/", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)) == "en"


def test_every_page_offers_each_language_named_in_itself_with_the_current_one_marked(client):
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    switch = SWITCH.search(page).group(0)
    assert [m for m in re.findall(r">(\w+)</a>", switch)] == ["English", "Français", "Deutsch"]
    assert re.search(r'lang="fr"[^>]*aria-current="true">Français', switch)
    assert switch.count("aria-current") == 1


def test_a_chosen_language_beats_the_browsers_and_returns_to_the_same_page(client):
    r = client.get("/language/fr?next=/join")
    assert r.status_code == 303 and r.headers["Location"] == "/join"
    assert "lang=fr" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert lang_of(page) == "fr"


def test_host_and_phone_of_one_game_can_read_it_in_two_languages(client, app_client_pair):
    host, phone = app_client_pair
    game = create(host)
    host.get("/language/fr")
    phone.get("/language/de")
    tok = game["seats"][0]["token"]
    assert phone.get(f"/j/{tok}").status_code == 302
    host_page = host.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)
    phone_page = phone.get(f"/seat/{tok}").get_data(as_text=True)
    assert lang_of(host_page) == "fr" and lang_of(phone_page) == "de"


@pytest.fixture
def app_client_pair(client):
    """Two devices at one server: the host's laptop and a phone, each with its own cookies."""
    return client, client.application.test_client()


@pytest.mark.parametrize("code", ["xx", "EN", "fr-FR", "../etc", "e" * 300])
def test_an_unknown_language_is_refused_and_changes_nothing(client, code):
    r = client.get(f"/language/{code}?next=/")
    assert r.status_code == 404
    assert "English, Français and Deutsch" in r.get_data(as_text=True) or "/" in code  # no such page at all
    assert "Set-Cookie" not in r.headers or "lang=" not in r.headers["Set-Cookie"]


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "evil", "/\\evil.example", ""])
def test_the_way_back_is_only_ever_a_page_of_this_server(client, target):
    r = client.get("/language/de", query_string={"next": target})
    assert r.status_code == 303 and r.headers["Location"] == "/"


@pytest.mark.parametrize("lang, path, words", [
    ("de", "/no-such-page", "Diese Seite gibt es hier nicht."),  # Werkzeug's own 404, in our words
    ("fr", "/seat/not-a-seat", "La partie de cette place n'est pas sur cette machine"),
    ("fr", "/host/not-a-game", "Cette partie n'existe pas."),
])
def test_a_refusal_speaks_the_readers_language(client, lang, path, words):
    client.get(f"/language/{lang}")
    r = client.get(path)
    assert r.status_code in (403, 404) and words in html.unescape(r.get_data(as_text=True))


def test_a_refused_tap_says_why_in_the_readers_language(client):
    """An option that is not on the menu (a forged or stale form) is refused in the phone's language."""
    game = create(client)
    host = {"X-Host-Token": game["host_token"]}
    asked = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()["pending"][0]
    who = asked["who"]
    tok = game["seats"][who]["token"]
    client.set_cookie(f"seat_{tok}", game["seats"][who]["device"])
    client.get("/language/de")
    page = client.get(f"/seat/{tok}").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    menu = client.get(f"/api/seats/{tok}/menu", headers={"X-Seat-Device": game["seats"][who]["device"]}).get_json()
    r = client.post(f"/seat/{tok}/act", data={"csrf": csrf, "version": menu["version"], "decision": asked["id"],
                                            "choice": len(menu["menu"]) + 5})
    text = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 400 and "Diese Option steht nicht im Menü." in text and "not on the menu" not in text
