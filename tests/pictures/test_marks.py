"""Steps and questions point at places of the city by marking them on the host's map, not by an id."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from scenario import answer_all, apply, available, cubes, game, report_with, scenario, to_upkeep, upkeep

from companion.engine import pending
from companion.web import create_app
from companion.pictures import city_key, city_svg
from companion.pictures.map_marks import step_marks

NS = "{http://www.w3.org/2000/svg}"
SPACE_ID = re.compile(r"\b(s\d\d|x\d)\b")


def marked(state) -> dict[str, str]:
    """Place → badge text of every marked group on the host's map."""
    root = ET.fromstring(str(city_svg(state, marked=True)))
    out = {}
    for g in root.iter(NS + "g"):
        if "marked" in (g.get("class") or "").split():
            badge = next(b for b in g.iter(NS + "g") if b.get("class") == "badge")
            out[g.get("data-place")] = badge.find(NS + "text").text
    return out


def setup_step(state, rule: str, words: str = "") -> dict:
    """The one setup step citing `rule` (whose words hold `words`)."""
    (step,) = [s for s in state.setup_steps if s.get("rule") == rule and words in s["text"]]
    return step


def test_R_SETUP_2_table_draw_asks_for_the_marked_space_and_the_map_marks_it():
    state = game(3, 1, draw="table")
    (q,) = [q for q in pending(state) if q["who"] == "host"]
    assert q["places"] == ["space:s01"] and not SPACE_ID.search(q["prompt"])
    assert "marked space" in q["prompt"]
    assert marked(state)["space:s01"] == "?"
    harbors = setup_step(state, "R-SETUP-2", "harbor")
    assert all(marked(state)[p] == harbors["mark"] for p in harbors["data"]["places"])


def test_R_SETUP_2_the_deal_marks_each_start_hex_with_its_own_step_and_names_no_space():
    """The companion dealt the city (issue 33 item 4): a step per hex, which marks that hex alone on the map."""
    state = game(3, 1, ready=False)
    deal = [s for s in state.setup_steps if s.get("rule") == "R-SETUP-2" and s.get("data", {}).get("space")]
    start = sorted(t for t, h in state.hexes.items() if h.space.startswith("s"))
    assert sorted(s["data"]["tile"] for s in deal) == start
    on_map = marked(state)
    for step in deal:
        assert not SPACE_ID.search(step["text"]) and "marked start space" in step["text"]
        assert step["data"]["places"] == [f"hex:{step['data']['tile']}"] and step["mark"] == str(step["step"])
        assert step["mark"] in on_map[step["data"]["places"][0]].split("·")


def test_R_NEXT_5_6_upkeep_steps_mark_the_dock_and_the_new_hex():
    state = upkeep(scenario(3, 2, rnd=2, clear=False))
    boat = report_with(state, "R-NEXT-5")[-1]
    new_hex = report_with(state, "R-NEXT-6")[-1]
    for step in (boat, new_hex):
        assert not SPACE_ID.search(step["text"]) and "marked" in step["text"]
        assert "dock-" not in step["text"] and "docking-" not in step["text"]
    assert boat["data"]["places"] == [f"dock:{boat['data']['dock']}"]
    assert new_hex["data"]["places"] == [f"hex:{new_hex['data']['tile']}"]
    on_map = marked(state)
    assert boat["mark"] in on_map[boat["data"]["places"][0]].split("·")
    assert new_hex["mark"] in on_map[new_hex["data"]["places"][0]].split("·")


def test_R_R1_2_cube_step_marks_each_hex_it_names_and_the_key_follows_the_marks():
    state = scenario(3, 1, rnd=2, clear=False)
    before = city_key(state)
    assert step_marks(state) == {}
    to_upkeep(state)
    answer_all(state)
    cube_steps = [s for s in state.report if s.get("rule") == "R-R1-2" and s.get("data", {}).get("hexes")]
    assert cube_steps
    marks = step_marks(state)
    for step in cube_steps:
        assert all(step["mark"] in marks[f"hex:{t}"].split("·") for t in step["data"]["hexes"])
    assert city_key(state) != before


def test_a_phone_map_marks_nothing_and_an_unmarked_map_is_plain():
    state = scenario(3, 1, rnd=2, clear=False)
    cubes(state, sorted(state.hexes)[-1], 1)
    assert marked(state) == {}
    state = game(3, 1, draw="table")
    assert 'class="space-empty marked"' not in str(city_svg(state))


def tick(client, g: dict, checklist: str, step: int):
    """The host ticks a step of a checklist, as its Done button does."""
    page = client.get(f"/host/{g['id']}").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    words = re.search(rf'"list": "{checklist}", "step": {step}, "words": "([0-9a-f]+)"', page).group(1)
    return client.post(f"/host/{g['id']}/tick", data={"csrf": csrf, "list": checklist, "step": step, "words": words,
                                                      "on": "1"}, headers={"HX-Request": "true"})


def test_R_SETUP_2_the_host_page_marks_the_asked_space_and_each_step_shows_its_mark(tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True, "POLL_HOLD_S": 0.05})
    client = app.test_client()
    g = client.post("/api/games", json={"players": [{"name": "Ada", "colour": "red"},
                                                    {"name": "Bruno", "colour": "blue"},
                                                    {"name": "Chiara", "colour": "green"}],
                                        "seed": 3, "draw": "table"}).get_json()
    assert client.get(f"/host/{g['id']}?key={g['host_token']}").status_code == 303
    page = client.get(f"/host/{g['id']}").get_data(as_text=True)
    assert re.search(r'<g class="space-empty marked"[^>]*data-place="space:s01"', page)
    assert "Which hex is on the marked space?" in page
    harbors = re.search(r'Place the harbor hexes.*?<span class="map-mark"[^>]*>map (\d+)</span>', page, re.S)
    assert harbors
    badges = re.findall(r'<g class="badge">.*?>([^<>]+)</text></g>', page)
    assert badges.count(harbors.group(1)) == 0 and badges.count("?") == 1, "the map is the table before that step"
    for step in range(1, int(harbors.group(1)) + 1):  # issue 33 item 5: once the table has done it, it is marked
        assert tick(client, g, "setup", step).status_code in (200, 204)
    page = client.get(f"/host/{g['id']}").get_data(as_text=True)
    badges = re.findall(r'<g class="badge">.*?>([^<>]+)</text></g>', page)
    assert badges.count(harbors.group(1)) == 4 and badges.count("?") == 1


def test_R_NEXT_marks_stay_until_the_rounds_first_move_then_the_map_is_plain():
    state = upkeep(scenario(3, 2, rnd=2, clear=False))
    assert step_marks(state)
    seat = pending(state)[0]["who"]
    apply(state, available(state, seat)[0]["action"])
    assert step_marks(state) == {} and marked(state) == {}
