"""The host screen's moment (issue 25 item 2, web/host/moment.py): at the top of the host screen, what the table does
now — a setup step with every face it names and a Done button, a table-draw question with its place cropped
from the map and said in words, whose turn and what they decide, the upkeep step, the finale — and the
finale on every phone (item 4). Fast: the Flask test client; tests/browser/test_browser_moments.py looks at the same
screens in a real browser."""

from __future__ import annotations

import random
import re

from companion.store.ticks import words_of
from companion.web.told import checklist, next_item
from companion.pictures.elements import MAP_TEXT_MIN
from companion.words import faces_in

from tables import create
from test_ticks import tick
from test_table_ready_web import host_page, phone_page

HOST = {"X-Host-Token": None}


def moment_of(page: str) -> str:
    """The moment region of a host page (or of a news answer)."""
    start = page.index('id="moment"')
    return page[page.rindex("<section", 0, start):page.index("</section>", start) + len("</section>")]


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def state(client, game) -> dict:
    r = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]})
    return r.get_json()


def play(client, game, until, rng=None, most=3000) -> dict:
    """Random legal moves (the host's too) until `until(snapshot)` holds; the snapshot."""
    rng = rng or random.Random(3)
    for _ in range(most):
        st = state(client, game)
        if until(st):
            return st
        who = st["pending"][0]["who"]
        headers = {"X-Host-Token": game["host_token"]}
        if who == "host":
            base = f"/api/games/{game['id']}/host"
        else:
            base, headers["X-Seat-Device"] = f"/api/seats/{game['seats'][who]['token']}", game["seats"][who]["device"]
        menu = client.get(base + "/menu", headers=headers).get_json()
        pick = rng.choice([o for o in menu["menu"] if o["available"]])
        r = client.post(base + "/actions", json={"version": menu["version"], "choice": pick["choice"]}, headers=headers)
        assert r.status_code == 200, r.get_json()
    raise AssertionError("never reached")


def test_next_step_is_the_first_one_not_ticked():
    steps = [{"text": "a", "rule": "R-1", "step": 1}, {"text": "b", "rule": "R-2", "step": 2},
             {"text": "c", "rule": "R-3", "step": 3}]
    items = checklist([], steps, "setup")
    ticks = {("setup", 1, words_of(steps[0])), ("setup", 3, words_of(steps[2]))}
    assert next_item(items, "setup", ticks)["line"] is steps[1]
    assert next_item(items, "setup", ticks | {("setup", 2, words_of(steps[1]))}) is None
    assert next_item(items, "upkeep-2", ticks)["line"] is steps[0]  # another list's ticks do not count
    stale = {("setup", 1, "0" * 16)}  # ticked when the step said something else (an undo changed it)
    assert next_item(items, "setup", stale)["line"] is steps[0]


def test_a_checklist_slots_the_twins_acts_in_where_they_came_and_leaves_notes_unnumbered():
    """Issue 33 item 3: an act no step says is a step of its own, where the move made it; a step that moves
    nothing on the table ("Ada produces: nothing") is a note, with no number and no box."""
    steps = [{"text": "heading", "step": 1}, {"text": "cubes", "step": 2}]
    told = [{"version": 5, "who": "0", "items": [
        {"step": {"number": 1}, "list": "upkeep-2", "note": True},
        {"act": {"text": "Move Ada's counter", "seat": 0}, "list": "upkeep-2", "after": 1},
        {"step": {"number": 2}, "list": "upkeep-2", "note": False},
        {"act": {"text": "elsewhere", "seat": None}, "list": "upkeep-3", "after": 0}]}]
    items = checklist(told, steps, "upkeep-2")
    assert [(i["line"]["text"], i["number"]) for i in items] == [("heading", None), ("Move Ada's counter", 1),
                                                                 ("cubes", 2)]
    assert next_item(items, "upkeep-2", set())["line"]["text"] == "Move Ada's counter"


def test_a_table_draw_question_shows_its_place_cropped_from_the_map_and_in_words(client):
    game = create(client, ready=False, draw="table")
    page = host_page(client, game)
    moment = moment_of(page)
    assert page.index('id="moment"') < page.index('id="decide"') < page.index('id="city"')  # first
    assert "Which hex is on the marked space?" in words(moment)
    assert '<use href="#city-map"' in moment and 'class="crop"' in moment  # the map again, not a copy
    assert '<g id="city-map">' in page  # the host's map carries what the crop shows
    said = words(moment)
    assert re.search(r"Where: row \d from the top, place \d from the left \((north|south|east|west|centre)", said)
    assert len(moment) < 3000  # it changes every move: a small region


def test_each_setup_step_is_the_moment_in_turn_with_every_face_it_names(client):
    game = create(client, ready=False)
    steps = state(client, game)["state"]["setup_steps"]
    assert len(steps) > 20
    for number, step in enumerate(steps, 1):
        moment = moment_of(host_page(client, game))
        assert f"Step {number} of {len(steps)}" in words(moment)
        named = faces_in(step.get("args"))
        shown = re.findall(r'data-family="([^"]+)" data-id="([^"]+)"', moment.split('class="moment-faces"')[1])
        assert sorted(f"{f}:{i}" for f, i in shown) == sorted(named), (number, step["text"])  # every face, no limit of four
        if (step.get("data") or {}).get("places"):
            assert '<use href="#city-map"' in moment  # its places, marked on the map, shown in the moment
        assert "Done" in moment
        assert tick(client, game, "setup", number).status_code in (200, 204)
    moment = moment_of(host_page(client, game))
    assert "Every step is done" in words(moment)


def test_the_moment_names_whose_turn_it_is_and_what_they_decide(client):
    game = create(client, ready=False)
    play(client, game, lambda st: st["phase"] == "play")
    st = state(client, game)
    who = st["pending"][0]["who"]
    moment = words(moment_of(host_page(client, game)))
    assert ["Ada", "Bruno", "Chiara"][who] in moment and "where does a lieutenant go?" in moment
    assert "Turns in play order" in moment and "Round I" in moment


def test_the_upkeep_step_is_the_moment_and_its_done_button_ticks_it(client):
    game = create(client, ready=False)
    st = play(client, game, lambda st: st["phase"] == "upkeep" and st["pending"][0]["kind"] == "table_ready")
    moment = moment_of(host_page(client, game))
    count = int(re.search(r"Step 1 of (\d+)", words(moment)).group(1))
    assert count >= len([e for e in st["state"]["report"] if "produces: nothing" not in e["text"]]) - 2
    assert "Round I" in words(moment)
    assert '"list": "upkeep-2", "step": 1' in moment
    assert tick(client, game, "upkeep-2", 1).status_code in (200, 204)
    assert f"Step 2 of {count}" in words(moment_of(host_page(client, game)))  # kept: a reload shows it


def test_the_finale_names_the_winner_on_the_host_and_every_phone_lists_its_own_lines(client):
    game = create(client, ready=False)
    st = play(client, game, lambda st: st["phase"] == "over", most=6000)
    scoring = st["state"]["scoring"]
    names = [s["name"] for s in st["state"]["seats"]]
    winners = [names[i] for i in scoring["winners"]]
    page = host_page(client, game)
    moment = words(moment_of(page))
    assert "Game over" in moment and all(w in moment for w in winners)
    assert page.index('id="moment"') < page.index('id="scoring"') < page.index('class="host-grid"')  # first, full width
    for s in game["seats"]:
        phone = phone_page(client, game, s["seat"])
        result = words(phone[phone.index('class="seat-result"'):phone.index("</section>", phone.index('class="seat-result"'))])
        mine = next(x for x in scoring["seats"] if x["seat"] == s["seat"])
        assert all(w in result for w in winners) and f"rank {mine['rank']}" in result
        for line in mine["lines"]:
            assert line["label"] in result and line["rule"] in result
        assert f"Total {mine['total']}" in result
        assert re.search(r'<section[^>]*id="menu"[^>]*\shidden[\s>]', phone)  # nothing left to decide, not said


def test_the_phones_panel_folds_its_codes_once_every_seat_has_joined(client):
    r = client.post("/api/games", json={"players": [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}],
                                        "seed": 5})
    game = r.get_json()
    page = host_page(client, game)
    seats = page[page.index('id="seats"'):page.index("</section>", page.index('id="seats"'))]
    assert '<use href="#q-' in seats and "every seat has joined" not in seats
    for s in game["seats"]:
        client.post(f"/api/seats/{s['token']}/join", json={})
    page = host_page(client, game)
    seats = page[page.index('id="seats"'):page.index("</section>", page.index('id="seats"'))]
    # folded (unless the server cannot be reached from the phones, which the panel says first)
    assert re.search(r"<details\s*>", seats) or "unreachable" in seats
    assert "every seat has joined" in seats and '<use href="#q-' not in seats and "<symbol id=\"q-" not in page
    assert f'/host/{game["id"]}/qr/1.svg' in seats and 'loading="lazy"' in seats


def test_no_text_of_the_host_map_is_smaller_than_its_floor(client):
    """Issue 25 item 3: the host's map is drawn one column wide at 1280 px (about 1.24 px a unit), so no text in
    it, nor in the map prints it uses from the page's library, is under MAP_TEXT_MIN units (14 px there);
    tests/browser/test_browser_moments.py measures it on screen."""
    game = create(client, ready=False)
    play(client, game, lambda st: st["phase"] == "play")
    page = host_page(client, game)
    city = page[page.index('id="city"'):page.index("</section>", page.index('id="city"'))]
    city = city[:city.index('class="wheel-wrap"')]  # the wheel is drawn 440 px wide: 11 units are 15 px there
    used = set(re.findall(r'<use href="#([^"]+)"', city))
    symbols = [m.group(0) for m in re.finditer(r'<symbol id="([^"]+)".*?</symbol>', page, re.S) if m.group(1) in used]
    sizes = [float(x) for x in re.findall(r'font-size="([0-9.]+)"', city + "".join(symbols))]
    assert sizes and min(sizes) >= MAP_TEXT_MIN
    assert "Version" not in words(page) and not re.search(r"\bv\d+\b", words(page))
