"""Faces wherever a component is named (issue 13 items 2 and 3): a menu option that names a printed component
is a button with its face, a table draw is a grid of the candidates' faces with a filter by what a tile
shows, and the lines of the log and the steps show the faces they name. Nowhere an internal id."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from companion.engine import legal_actions
from companion.engine.view import pictured
from companion.pictures.faces import record_ids
from companion.words import faces_in
from companion.pictures.option_faces import FILTER_FROM, pick_filter, pick_marks
from scenario import CATALOG, game
from tables import api_menu, host_h, new_game, snapshot, text

#: the families a screen names to the table; their ids must never be read there
NAMED = ("hex", "harbor", "dock", "docking_tile", "boat", "workshop", "improvement", "wagon", "solo_tile", "wheel")
IDS = {rid for family in NAMED for rid in record_ids(CATALOG, family)}
SAID = ("decide", "upkeep", "setup", "log")  # the host screen's regions this file answers for
SPACE_ID = re.compile(r"\bs\d\d\b")


class Visible(HTMLParser):
    """The words a reader sees: text outside tags, without scripts and styles."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data):
        if not self._skip:
            self.words.append(data)


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return " ".join(parser.words)


def ids_in(html: str) -> set[str]:
    words = set(re.findall(r"[\w-]+", visible(html)))
    return (words & IDS) | set(SPACE_ID.findall(visible(html)))


def section(body: str, sid: str) -> str:
    part = body[body.index(f'id="{sid}"'):]
    return part[:part.index("</section>")]


def forms(part: str) -> list[str]:
    return re.findall(r"<form .*?</form>", part, re.S)


def with_options(part: str, menu: list[dict]) -> list[tuple[str, dict]]:
    """Each form of a menu with the option it sends. A phone shows the choosable options first
    (web/menus.py), so a form is matched by the index it sends; every option is sent by one form."""
    drawn = forms(part)
    sent = [int(re.search(r'name="choice" value="(\d+)"', form).group(1)) for form in drawn]
    assert sorted(sent) == list(range(len(menu)))
    return [(form, menu[i]) for form, i in zip(drawn, sent)]


def assert_faces_drawn(part: str, menu: list[dict]) -> None:
    """Each option that names a component shows that face in its own button; the others show none."""
    for form, opt in with_options(part, menu):
        if opt.get("face"):
            ref = f'data-family="{opt["face"]["family"]}" data-id="{opt["face"]["id"]}"'
            assert ref in form and 'class="option pictured' in form, (opt["label"], form[:300])
        else:
            assert "svg" not in form and "pictured" not in form


def four() -> list[dict]:
    return [{"name": n, "colour": c} for n, c in (("Ada", "red"), ("Bruno", "blue"), ("Cleo", "green"),
                                                  ("Dino", "yellow"))]


def engine_menu(app, g, who) -> list[dict]:
    """The menu as the engine gives it to a screen, with the faces it names (the API's copy leaves them out)."""
    return [pictured(opt) for opt in legal_actions(app.extensions["store"].load(g["id"]).state, who)]


def host_page(client, g) -> str:
    r = client.get(f"/host/{g['id']}", headers=host_h(g))
    assert r.status_code == 200
    return text(r)


def test_a_table_draw_is_a_grid_of_the_candidates_faces_with_a_filter(app, client):
    """R-SETUP-2: the host says which hex came up on the marked space by its picture."""
    g = new_game(client, players=four(), draw="table")
    menu = engine_menu(app, g, "host")
    decide = section(host_page(client, g), "decide")
    assert len(menu) >= FILTER_FROM and all(o["face"]["family"] == "hex" for o in menu)
    assert decide.count("<svg") - decide.count('class="chip"') == len(menu)
    assert_faces_drawn(decide, menu)
    assert 'class="menu faces"' in decide and "Which hex is on the marked space?" in decide
    # the filter: colour, rat and action, each drawn, each with "any" chosen first
    assert 'class="pick-filter"' in decide
    for name in ("colour", "rat", "action"):
        assert f'name="{name}" value="" checked' in decide
    for form, opt in zip(forms(decide), menu):
        h = CATALOG.hexes[opt["face"]["id"]]
        assert f'data-colour="{h.colour}"' in form and f'data-rat="{h.rat}"' in form
    choices = re.findall(r'name="colour" value="(\w+)"', decide)
    assert choices == sorted({CATALOG.hexes[o["face"]["id"]].colour for o in menu})
    assert not ids_in(decide)


def test_the_filter_shows_only_for_many_hexes_and_only_where_they_differ():
    state = game(3, draw="table")
    menu = legal_actions(state, "host")
    assert pick_filter(state, menu[:FILTER_FROM - 1]) == []  # a few faces are read at a glance
    assert [g["name"] for g in pick_filter(state, menu)] == ["colour", "rat", "action"]
    blue = [o for o in menu if CATALOG.hexes[o["face"]["id"]].colour == "blue"]
    same = (blue * FILTER_FROM)[:FILTER_FROM]  # all blue: no colour group
    assert "colour" not in [g["name"] for g in pick_filter(state, same)]
    assert pick_filter(state, [{"label": "pass"}] * FILTER_FROM) == []  # no hexes, no filter
    assert pick_marks(state, {"label": "pass"}) == {}


def _reveal_until_phones(client, g) -> int:
    """Answer the host's reveals (the first candidate each time) until a seat has a question."""
    for _ in range(60):
        pending = snapshot(client, g)["pending"]
        if not pending or pending[0]["who"] != "host":
            return len(pending)
        m = api_menu(client, g, "host")
        r = client.post(f"/api/games/{g['id']}/host/actions", headers=host_h(g),
                        json={"choice": 0, "version": m["version"]})
        assert r.status_code == 200, r.get_json()
    raise AssertionError("the reveals never ended")


def test_every_option_with_a_face_is_drawn_on_the_phones_and_the_host_screen(app, client):
    g = new_game(client, draw="table")
    seen_faces = 0
    for _ in range(40):
        if not _reveal_until_phones(client, g):
            break
        who = snapshot(client, g)["pending"][0]["who"]
        m = api_menu(client, g, who)
        menu = engine_menu(app, g, who)
        page = text(client.get(f"/seat/{g['seats'][who]['token']}"))
        assert_faces_drawn(section(page, "menu"), menu)
        proxy = text(client.get(f"/host/{g['id']}/seat/{who}", headers=host_h(g)))
        assert_faces_drawn(section(proxy, "menu"), menu)
        seen_faces += sum(1 for o in menu if o.get("face"))
        host = host_page(client, g)  # the map's words are web/draw/city.py's (branch i13-map)
        assert not ids_in(section(page, "menu")) and not any(ids_in(section(host, p)) for p in SAID)
        pick = next(o for o in m["menu"] if o["available"])
        r = client.post(f"/api/seats/{g['seats'][who]['token']}/actions",
                        json={"choice": pick["choice"], "version": m["version"]})
        assert r.status_code == 200, r.get_json()
    assert seen_faces


def test_the_log_and_the_setup_steps_show_the_faces_they_name(app, client):
    """Each line that names components shows their faces (the first four) beside its words."""
    g = new_game(client, players=four()[:2], draw="table")
    _reveal_until_phones(client, g)
    state = app.extensions["store"].load(g["id"]).state
    body = host_page(client, g)
    steps = text(client.get(f"/host/{g['id']}/setup/steps", headers=host_h(g)))  # loaded when it is opened
    for region, lines in ((section(body, "log"), state.log[-60:][::-1]), (steps, state.setup_steps)):
        items = re.findall(r"<li.*?</li>", region, re.S)
        assert len(items) == len(lines)
        named = [(item, faces_in(line.get("args"))) for item, line in zip(items, lines)]
        assert any(refs for _, refs in named), region[:200]
        for item, refs in named:
            assert ('class="line-faces"' in item) == bool(refs)
            for ref in refs[:4]:
                family, rid = ref.split(":")
                assert f'data-family="{family}" data-id="{rid}"' in item
        assert not ids_in(region)
    assert any("boat" in ref for line in state.setup_steps for ref in faces_in(line.get("args")))  # R-SETUP-8


def test_no_internal_id_is_seen_on_a_menu(client):
    """The check itself: an id in the words is found (so the tests above can fail)."""
    assert ids_in("<p>Put n04 on s04</p>") == {"n04", "s04"}
    assert not ids_in('<svg data-id="n04"><title>orange hex</title></svg>')


@pytest.mark.parametrize("players", [2, 3])
def test_greyed_options_stay_greyed_with_their_reason_and_rule(client, players):
    g = new_game(client, players=four()[:players])
    for _ in range(40):
        who = snapshot(client, g)["pending"][0]["who"]
        m = api_menu(client, g, who)
        greyed = [o for o in m["menu"] if not o["available"]]
        if greyed:
            part = section(text(client.get(f"/seat/{g['seats'][who]['token']}")), "menu")
            for form, opt in with_options(part, m["menu"]):
                if not opt["available"]:
                    assert "greyed" in form and "disabled" in form and opt["rule"] in form
            return
        pick = next(o for o in m["menu"] if o["available"])
        r = client.post(f"/api/seats/{g['seats'][who]['token']}/actions",
                        json={"choice": pick["choice"], "version": m["version"]})
        assert r.status_code == 200
    raise AssertionError("no greyed option came up in 40 taps")


def test_the_solo_opponents_moves_show_the_solo_tile_and_the_hex(app, client):
    """R-SOLO-5, R-SOLO-6: the line of each tile the opponent reveals shows that tile's face, no id."""
    g = new_game(client, players=four()[:1])
    for _ in range(80):
        state = app.extensions["store"].load(g["id"]).state
        if any("Opponent reveals" in e["text"] for e in state.log[-60:]):
            break
        who = snapshot(client, g)["pending"][0]["who"]
        m = api_menu(client, g, who)
        pick = next(o for o in m["menu"] if o["available"])
        path = (f"/api/games/{g['id']}/host/actions" if who == "host"
                else f"/api/seats/{g['seats'][who]['token']}/actions")
        r = client.post(path, json={"choice": pick["choice"], "version": m["version"]}, headers=host_h(g))
        assert r.status_code == 200, r.get_json()
    else:
        raise AssertionError("the opponent never moved")
    log = section(host_page(client, g), "log")
    reveals = [item for item in re.findall(r"<li.*?</li>", log, re.S) if "Opponent reveals" in item]
    assert reveals and all('data-family="solo_tile"' in item for item in reveals)
    assert not ids_in(log)


def test_the_b_scroll_board_draw_is_a_grid_of_scroll_board_faces(app, client):
    """R-ADV-1, C-1: the host enters the scroll board a player drew by its picture, not by its id."""
    g = new_game(client, players=four()[:1], draw="table", advanced="on")
    for _ in range(10):
        if "scroll board" in snapshot(client, g)["pending"][0]["prompt"]:
            break
        m = api_menu(client, g, "host")
        r = client.post(f"/api/games/{g['id']}/host/actions", json={"choice": 0, "version": m["version"]},
                        headers=host_h(g))
        assert r.status_code == 200, r.get_json()
    else:
        raise AssertionError("the scroll board was never asked for")
    menu = engine_menu(app, g, "host")
    decide = section(host_page(client, g), "decide")
    assert {o["face"]["family"] for o in menu} == {"scroll_board"} and len(menu) == 4
    assert_faces_drawn(decide, menu)
    assert not re.search(r"\bb[1-4]\b", visible(decide))
