"""Upkeep holds the table, on the screens (issue 14 item 2, C-18): the host's checklist comes first with "the
table is ready" under it, and every phone says which round the table is setting up until the host taps."""

from __future__ import annotations

import random
from tables import act_once, api_table_ready, create



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
    assert "Start without finishing the checklist" in page  # "the table is ready", behind its confirm (issue 33)
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


def test_C_18_after_new_game_no_phone_offers_a_turn_until_the_table_is_ready(client):
    """Issue 25 item 1: round I holds too; each phone says the table is setting up and what its seat takes."""
    r = client.post("/api/games", json={"players": [{"name": "Ada", "colour": "red"}, {"name": "Bruno",
                                                    "colour": "yellow"}, {"name": "Chiara", "colour": "blue"}],
                                        "seed": 5})
    game = r.get_json()
    for s in game["seats"]:
        s["device"] = client.post(f"/api/seats/{s['token']}/join", json={}).get_json()["device"]
    page = host_page(client, game)
    assert "Carry out the setup steps on the table, then start round I." in page
    assert "Start without finishing the checklist" in page  # "the table is ready", behind its confirm (issue 33)
    colours = ["red", "yellow", "blue"]
    for seat in range(3):
        phone = phone_page(client, game, seat)
        assert "Setting up — watch the host screen." in phone
        assert 'class="option"' not in phone, "no seat is offered a turn before the table is ready"
        assert "Take for your seat" in phone and f"seat-chip c-{colours[seat]}" in phone
        assert "5 lieutenants" in phone and "player board and scroll board, side a" in phone
    api_table_ready(client, game)
    st = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    first = st["pending"][0]["who"]
    phone = phone_page(client, game, first)
    assert "Setting up" not in phone and 'class="option"' in phone


def test_C_18_every_setup_step_shows_every_face_it_names(client):
    """Issue 25 item 1: a step naming six hexes (a 2-player game returns six A hexes to the box, R-SETUP-1)
    shows six faces (no limit of four)."""
    game = create(client, players=[{"name": n, "colour": c} for n, c in (("Ada", "red"), ("Bruno", "yellow"))])
    page = client.get(f"/host/{game['id']}/part/setup", headers={"X-Host-Token": game["host_token"]}).get_data(
        as_text=True)
    from companion.words import faces_in
    store = client.application.extensions["store"]
    steps = store.load(game["id"]).state.setup_steps
    widest = max(steps, key=lambda st: len(faces_in(st.get("args"))))
    named = faces_in(widest.get("args"))
    assert len(named) > 4, "a 2-player setup returns more than four hexes to the box"
    items = page.split("<li")[1:]
    row = items[steps.index(widest)]
    assert row.count('class="face ') == len(named)
    for ref in named:
        family, rid = ref.split(":", 1)
        assert f'data-id="{rid}"' in row
