"""The JSON API flow of the web companion issue: create a game, take each seat as a script does (join, then
send the seat's key), read menus, act by version, and a random policy driving every seat through the API to
final scoring."""

import random

import pytest

from companion.web import create_app
from tables import act_once, create, drive, key


PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}, {"name": "Chiara", "colour": "blue"}]


def test_create_returns_host_url_token_and_join_urls(client):
    game = create(client)
    assert len(game["host_token"]) >= 22 and game["host_url"].endswith(game["host_token"])
    assert [s["seat"] for s in game["seats"]] == [0, 1, 2]
    assert all("/j/" in s["join_url"] for s in game["seats"])


def test_state_needs_the_host_token(client):
    game = create(client)
    assert client.get(f"/api/games/{game['id']}/state").status_code == 403
    r = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": "forged"})
    assert r.status_code == 403 and "error" in r.get_json()


def first_asked(client):
    """A new game with every seat taken by this script: (game, host headers, its state, the seat asked
    first, that seat's token)."""
    game = create(client)
    host = {"X-Host-Token": game["host_token"]}
    st = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    who = st["pending"][0]["who"]
    token = game["seats"][who]["token"]
    return game, host, st, who, token


def test_stale_version_is_refused_with_fresh_menu_and_changes_nothing(client):
    game, host, before, who, token = first_asked(client)
    r = client.post(f"/api/seats/{token}/actions", json={"version": before["version"] + 7, "choice": 0},
                    headers=key(game, who))
    assert r.status_code == 409 and "moved on" in r.get_json()["error"] and r.get_json()["menu"]
    after = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    assert after == before


def test_a_repeated_submit_is_harmless(client):
    game, host, st, who, token = first_asked(client)
    menu = client.get(f"/api/seats/{token}/menu", headers=key(game, who)).get_json()
    choice = next(o["choice"] for o in menu["menu"] if o["available"])
    first = client.post(f"/api/seats/{token}/actions", json={"version": menu["version"], "choice": choice},
                        headers=key(game, who))
    again = client.post(f"/api/seats/{token}/actions", json={"version": menu["version"], "choice": choice},
                        headers=key(game, who))
    assert first.status_code == 200 and again.status_code == 409
    assert client.get(f"/api/games/{game['id']}/version").get_json()["version"] == menu["version"] + 1


@pytest.mark.parametrize("body", [None, [], {"version": "1", "choice": 0}, {"version": 0}, {"version": 0, "choice": 999},
                                  {"version": True, "choice": 0}])
def test_malformed_actions_get_a_4xx_message(client, body):
    game = create(client)
    token = game["seats"][0]["token"]
    r = client.post(f"/api/seats/{token}/actions", json=body, headers=key(game, 0))
    assert 400 <= r.status_code < 500 and r.status_code != 403 and r.get_json()["error"]


def test_forged_seat_token_is_404(client):
    r = client.get("/api/seats/not-a-token/menu")
    assert r.status_code == 404 and r.get_json()["error"]


def test_an_unavailable_option_is_refused_with_its_rule(client):
    game = create(client)
    host = {"X-Host-Token": game["host_token"]}
    rng = random.Random(3)
    for _ in range(400):  # play until some seat's menu has a greyed option
        st = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
        who = st["pending"][0]["who"]
        token = game["seats"][who]["token"]
        menu = client.get(f"/api/seats/{token}/menu", headers=key(game, who)).get_json()
        greyed = [o for o in menu["menu"] if not o["available"]]
        if greyed:
            r = client.post(f"/api/seats/{token}/actions", json={"version": menu["version"], "choice": greyed[0]["choice"]},
                            headers=key(game, who))
            assert r.status_code == 409 and greyed[0]["rule"] in r.get_json()["error"]
            return
        pick = rng.choice([o for o in menu["menu"] if o["available"]])
        client.post(f"/api/seats/{token}/actions", json={"version": menu["version"], "choice": pick["choice"]},
                    headers=key(game, who))
    raise AssertionError("no greyed option met")


@pytest.mark.slow
def test_random_policy_through_the_api_reaches_final_scoring(client):
    game = create(client)
    st = drive(client, game, random.Random(9))
    assert st["state"]["scoring"]["winners"]
    page = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True)
    assert page.status_code == 200 and b"Final scoring" in page.data


def test_table_draw_game_is_driven_through_host_reveals(client):
    game = create(client, draw="table")
    st = drive(client, game, random.Random(2))
    assert st["phase"] == "over"


def test_restarted_server_resumes_the_game_exactly(tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True})
    c = app.test_client()
    game = create(c)
    host = {"X-Host-Token": game["host_token"]}
    rng = random.Random(4)
    for _ in range(40):
        act_once(c, game, rng, c.get(f"/api/games/{game['id']}/state", headers=host).get_json())
    before = c.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    again = create_app({"INSTANCE": str(tmp_path), "TESTING": True}).test_client()
    assert again.get(f"/api/games/{game['id']}/state", headers=host).get_json() == before


def test_solo_game_through_the_api_reaches_final_scoring(client):
    """R-SOLO-1…9: one seat against the virtual opponent, played to the end through the API."""
    game = create(client, players=[{"name": "Solo", "colour": "green"}], seed=8)
    st = drive(client, game, random.Random(1))
    lines = {ln["key"] for ln in st["state"]["scoring"]["seats"][0]["lines"]}
    assert {"popularity-bonus", "repop-bonus"} <= lines
    page = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True)
    assert b"Virtual opponent" in page.data and b"Final scoring" in page.data
