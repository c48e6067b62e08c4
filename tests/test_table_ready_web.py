"""Upkeep holds the table, on the screens (issue 14 item 2, C-18): the host's checklist comes first with "the
table is ready" under it, and every phone says which round the table is setting up until the host taps."""

from __future__ import annotations

import random

from test_api import act_once, client, create  # noqa: F401 (fixture)


def to_the_hold(client, game):
    """Random choices through round I until only the host's "the table is ready" is asked."""
    rng = random.Random(3)
    host = {"X-Host-Token": game["host_token"]}
    for _ in range(400):
        st = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
        if [q["kind"] for q in st["pending"]] == ["table_ready"]:
            return st
        act_once(client, game, rng, st)
    raise AssertionError("round I did not end")


def host_page(client, game) -> str:
    return client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)


def phone_page(client, game, seat: int) -> str:
    token = game["seats"][seat]["token"]
    client.set_cookie(f"seat_{token}", game["seats"][seat]["device"])  # the phone that joined
    return client.get(f"/seat/{token}").get_data(as_text=True)


def test_C_18_the_host_sees_the_checklist_first_and_the_phones_wait_for_it(client):
    game = create(client)
    st = to_the_hold(client, game)
    assert st["phase"] == "upkeep" and st["state"]["round"] == 2
    page = host_page(client, game)
    upkeep = page[page.index('id="upkeep"') - 80:page.index('id="upkeep"')]
    assert "holding" in upkeep, "the checklist moves to the top of the screen"
    assert "set up round II on the table, in this order" in page
    assert "The table is ready: start round II" in page
    for seat in range(3):
        phone = phone_page(client, game, seat)
        assert "Setting up round II — watch the host screen." in phone
        assert 'class="option"' not in phone, "no seat may act while the table sets up"


def test_C_18_the_tap_starts_round_II_and_the_first_seat_gets_its_menu(client):
    game = create(client)
    to_the_hold(client, game)
    host = {"X-Host-Token": game["host_token"]}
    menu = client.get(f"/api/games/{game['id']}/host/menu", headers=host).get_json()
    assert [o["value"] for o in menu["menu"]] == ["ready"]
    r = client.post(f"/api/games/{game['id']}/host/actions", json={"version": menu["version"], "choice": 0},
                    headers=host)
    assert r.status_code == 200
    st = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    assert st["phase"] == "play"
    first = st["pending"][0]["who"]
    assert "Setting up round" not in phone_page(client, game, first)
    page = host_page(client, game)
    upkeep = page[page.index('id="upkeep"') - 80:page.index('id="upkeep"')]
    assert "holding" not in upkeep and "Upkeep: what the table did" in page
