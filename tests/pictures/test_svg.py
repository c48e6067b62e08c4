"""The web layer's pictures: well-formed, complete, escaped, tappable where asked, for every setup."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest
from markupsafe import Markup

from companion.catalog import shipped_catalog
from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.engine.state import WagonOwned, Workshop
from companion.simulate import play_game
from companion.pictures import city_key, city_svg, el, estate_key, estate_svg, scoring_svg, tokens_html, wheel_svg
from scenario import table_ready

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>"


def parse(markup) -> ET.Element:
    """An SVG must parse as XML on its own."""
    assert isinstance(markup, Markup)
    return ET.fromstring(str(markup))


def parse_html(markup) -> ET.Element:
    """An HTML fragment is wrapped in a <div> to parse."""
    assert isinstance(markup, Markup)
    return ET.fromstring(f"<div>{markup}</div>")


def groups(root, cls: str) -> list[ET.Element]:
    return [g for g in root.iter() if cls in (g.get("class") or "").split()]


def by_id(root, ident: str) -> ET.Element:
    found = [g for g in root.iter() if g.get("id") == ident]
    assert len(found) == 1, ident
    return found[0]


def texts(node) -> list[str]:
    return [t.text or "" for t in node.iter(NS + "text")]


@lru_cache(maxsize=None)
def finished(players: int, advanced: bool = False, seed: int = 3):
    return play_game(players, seed, advanced=advanced, check=False).state


def fresh(players: int = 3, advanced: bool = False, seed: int = 1):
    return table_ready(new_game(options_for(players, advanced=advanced), seed, shipped_catalog()))


# ---------------------------------------------------------------- city


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("advanced", [False, True])
def test_city_has_every_hex_space_and_dock(players, advanced):
    for state in (fresh(players, advanced), finished(players, advanced)):
        root = parse(city_svg(state))
        assert root.tag == NS + "svg" and root.get("viewBox")
        hexes = groups(root, "hex")
        assert sorted(g.get("id") for g in hexes) == sorted(f"hex-{t}" for t in state.hexes)
        assert all(g.get("data-place") == "hex:" + g.get("id")[4:] for g in hexes)
        lay = state.catalog.layout_for(state.players)
        empty = sorted(sid for sid in lay.expansion if sid not in {h.space for h in state.hexes.values()})
        outlines = groups(root, "space-empty")
        assert sorted(g.get("data-space") for g in outlines) == empty
        assert all(g.find(NS + "polygon").get("stroke-dasharray") for g in outlines)
        assert sorted(g.get("id") for g in groups(root, "dock")) == sorted(f"dock-{d}" for d in state.catalog.docks)


def test_hex_shows_its_face_not_its_id():
    """A placed hex shows what is printed on it (colour letter, rat, action icons), never its id."""
    state = fresh()
    root = parse(city_svg(state))
    g = by_id(root, "hex-n01")  # Giudecca: orange, left rat, one nun
    assert "hex-orange" in g.get("class")
    assert g.find(NS + "polygon").get("fill")
    words = texts(g)
    assert "O" in words and "L" in words and "N" in words and "n01" not in words
    assert groups(g, "colour-mark") and groups(g, "reward") and groups(g, "icon")
    assert "n01" not in "".join(t.text or "" for t in g.iter(NS + "title"))
    assert "hex-harbor" in by_id(root, "hex-harbor-nw").get("class")
    assert not groups(by_id(root, "hex-n10"), "rat")  # Camaro shows no rat


def test_upgraded_citizen_is_gold_with_a_mark():
    state = fresh()
    state.hexes["n02"].citizens[0].upgraded = True
    g = by_id(parse(city_svg(state)), "hex-n02")
    (chip,) = groups(g, "citizen")
    assert "upgraded" in chip.get("class")
    assert chip.find(NS + "circle").get("fill") == "#d4a017"
    assert groups(chip, "upgrade-mark")


def test_boats_at_docks_with_cube_marker():
    state = fresh()  # seed 1: boat-1 waits at dock-ne with a plague cube
    root = parse(city_svg(state))
    dock = by_id(root, "dock-dock-ne")
    (boat,) = groups(dock, "boat")
    back = str(state.catalog.boats["boat-1"].back)
    assert boat.get("data-boat") == "boat-1" and back in texts(boat) and "boat-1" not in texts(boat)
    assert groups(boat, "cargo")
    assert groups(boat, "boat-cube")
    state.docks["dock-ne"][0].cube = False
    assert not groups(by_id(parse(city_svg(state)), "dock-dock-ne"), "boat-cube")
    assert len(groups(by_id(root, "dock-dock-nw"), "boat-space")) == 3


def test_a_lieutenant_is_placed_by_what_the_table_sees_not_by_an_id():
    state = fresh()
    state.seats[0].lieutenants[0].where = "hex:n01"
    state.seats[0].lieutenants[1].where = "dock:dock-ne"
    state.seats[0].lieutenants[2].where = "hex:harbor-sw"
    words = str(tokens_html(state, 0))
    # n01 is orange with its rat on the left (test above): named as printed, never by an invented name
    assert "orange hex with the rat on the left, lying" in words and "north-east dock, lying" in words
    assert "south-west harbor, lying" in words and "Giudecca" not in words
    assert not any(i in words for i in ("n01", "dock-ne", "harbor-sw"))
    state.seats[0].boats = ["boat-1"]
    state.seats[0].wagons = [WagonOwned("wagon-1a", used=True)]
    words = str(tokens_html(state, 0))
    boat, wagon = state.catalog.boats["boat-1"], state.catalog.wagons["wagon-1a"]
    assert f"back {boat.back}, {boat.cargo}" in words and f"back {wagon.back} (used)" in words
    assert "boat-1" not in words and "wagon-1a" not in words
    state.seats[0].board = "b-red"
    head = " ".join(parse(estate_svg(state, 0)).itertext())
    assert "board side B" in head and "b-red" not in head


def test_standing_and_lying_lieutenants():
    state = fresh()
    q = pending(state)[0]
    pick = next(o for o in legal_actions(state, q["who"]) if o["value"] == {"go": "hex", "tile": "n01"})
    apply(state, pick["action"])
    state.seats[0].lieutenants[0].where = "hex:n01"  # a figure left lying from an earlier round
    state.seats[1].lieutenants[0].where = "dock:dock-ne"
    root = parse(city_svg(state))
    g = by_id(root, "hex-n01")
    standing, lying = groups(g, "standing"), groups(g, "lying")
    assert len(standing) == 1 and len(lying) == 1
    w, h = float(standing[0].find(NS + "rect").get("width")), float(standing[0].find(NS + "rect").get("height"))
    assert h > w  # upright
    w, h = float(lying[0].find(NS + "rect").get("width")), float(lying[0].find(NS + "rect").get("height"))
    assert w > h  # flat
    assert "B" in texts(standing[0]) and "R" in texts(lying[0])  # seat letters: Chiara blue, Ada red
    assert "Y" in texts(groups(by_id(root, "dock-dock-ne"), "lieutenant")[0])


def test_repopulated_hex_shows_the_repopulators_tile():
    state = fresh()
    assert not groups(parse(city_svg(state)), "repop-tile")
    state.hexes["n02"].repopulated_by = 1
    root = parse(city_svg(state))
    assert len(groups(root, "repop-tile")) == 1
    (tile,) = groups(by_id(root, "hex-n02"), "repop-tile")
    assert tile.get("data-colour") == "yellow" and "Y" in texts(tile)


@pytest.mark.parametrize("count,squares,label", [(2, 2, None), (3, 3, None), (7, 1, "×7")])
def test_cube_count(count, squares, label):
    state = fresh()
    state.hexes["n02"].cubes = count
    (cubes,) = groups(by_id(parse(city_svg(state)), "hex-n02"), "cubes")
    assert cubes.get("data-count") == str(count)
    assert len(cubes.findall(NS + "rect")) == squares
    if label:
        assert label in texts(cubes)


def test_targets_get_label_attributes_and_highlight():
    state = fresh()
    vals = '{"choice": 3, "note": "<b>&"}'
    targets = {"hex:n02": {"label": "1 coin", "attrs": {"hx-post": "/g/1/act", "hx-vals": vals, "role": "button",
                                                        "tabindex": "0"}},
               "dock:dock-ne": {"label": "free", "attrs": {"hx-post": "/g/1/dock"}}}
    markup = city_svg(state, targets)
    root = parse(markup)
    g = by_id(root, "hex-n02")
    assert g.get("hx-vals") == vals and g.get("hx-post") == "/g/1/act" and g.get("role") == "button"
    assert "target" in g.get("class") and g.find(NS + "polygon").get("stroke-width") == "4"
    assert "1 coin" in texts(g)
    d = by_id(root, "dock-dock-ne")
    assert d.get("hx-post") == "/g/1/dock" and "free" in texts(d)
    plain = by_id(root, "hex-n01")
    assert "target" not in plain.get("class") and plain.get("hx-post") is None
    assert "<b>" not in str(markup)


def test_bad_attribute_names_are_refused():
    with pytest.raises(ValueError):
        city_svg(fresh(), {"hex:n02": {"label": "", "attrs": {'onclick="x" a': "1"}}})
    assert str(el("text", {"x": 1, "data-v": '"<'}, "<i>")) == '<text x="1" data-v="&#34;&lt;">&lt;i&gt;</text>'


# ---------------------------------------------------------------- estate


@pytest.mark.parametrize("players,advanced", [(1, False), (2, True), (3, False), (4, True)])
def test_estate_for_every_board(players, advanced):
    state = finished(players, advanced)
    for i, seat in enumerate(state.seats):
        root = parse(estate_svg(state, i))
        board = state.catalog.boards[seat.board]
        squares = groups(root, "square")
        assert sorted(g.get("data-square") for g in squares) == sorted(s.id for s in board.squares)
        assert len(groups(root, "sector")) == 3
        once = {s.id for s in board.squares if s.once}
        assert {g.get("data-square") for g in groups(root, "single-use")} == once
        assert len(groups(root, "cabin")) == len(seat.cabins)
        assert len(groups(root, "overseer")) == 3
        assert all(groups(root, f"overseer-{c}")[0].get("data-step") == str(seat.overseers[c].step)
                   for c in seat.overseers)
        placed = sum(1 for g in squares for c in groups(g, "citizen"))
        assert placed == len(seat.squares)
        assert groups(root, "legend")


def test_estate_marks_spent_squares_workshops_and_cabins():
    state = fresh(3, advanced=True)
    seat = state.seats[0]
    board = state.catalog.boards[seat.board]
    once = next(s.id for s in board.squares if s.once)
    seat.spent_squares.append(once)
    seat.squares["cr1"] = state.new_citizen("craftsman")
    seat.squares["cr1"].upgraded = True
    seat.cabins[0].citizen, seat.cabins[0].space = state.new_citizen("nun"), 2
    seat.cabins[1].improvement = "imp-01"

    late = next(w.id for w in state.catalog.workshops.values() if w.era == 2)
    seat.workshops.append(Workshop(late, state.new_citizen("aristocrat"), spent=True))
    seat.overseers["nun"].step, seat.overseers["nun"].branch, seat.overseers["nun"].upgraded = 3, "left", True
    root = parse(estate_svg(state, 0))
    spent = by_id(root, f"square-{once}")
    assert "spent" in spent.get("class") and len(groups(spent, "cross")) == 2
    assert "upgraded" in groups(by_id(root, "square-cr1"), "citizen")[0].get("class")
    cab = groups(root, "cabin")
    assert cab[0].get("data-space") == "2" and len(groups(cab[0], "citizen")) == 1 and "II" in texts(cab[0])
    assert any("not improved" in t for t in texts(cab[2]))
    (imp,) = groups(cab[1], "improvement")  # what it yields, as its face draws it; never its id as text
    assert imp.get("data-tile") == "imp-01" and groups(imp, "reward") and not any("imp-01" in t for t in texts(cab[1]))
    (ws,) = [g for g in groups(root, "workshop") if g.get("data-tile") == late]
    assert "spent" in ws.get("class") and "II" in " ".join(texts(ws)) and groups(ws, "citizen")
    assert len(groups(root, "empty")) == board.workshop_slots - 1
    nun = groups(root, "overseer-nun")[0]
    assert nun.get("data-branch") == "left" and "upgraded" in nun.get("class")
    assert any(t in ("T1", "T2", "T3", "T4") for t in texts(nun))


# ---------------------------------------------------------------- tokens, wheel, scoring


@pytest.mark.slow
@pytest.mark.parametrize("players,advanced,seed", [(1, True, 2), (2, False, 5), (3, True, 6), (4, False, 7)])
def test_a_city_is_the_same_whenever_its_key_is(players, advanced, seed):
    """The host screen keeps a drawn city while its key stays the same (companion/web/host/screen.py): over a
    whole game, one key never meets two different maps, and the key does move with the game."""
    drawn: dict[str, str] = {}

    def look(state, *_):
        key, picture = city_key(state), str(city_svg(state)) + str(wheel_svg(state))
        assert drawn.setdefault(key, picture) == picture, "same key, another city"

    played = play_game(players, seed, advanced=advanced, check=False, roundtrip=False, on_decision=look)
    look(played.state)
    assert len(drawn) > 20


@pytest.mark.slow
@pytest.mark.parametrize("players,advanced,seed", [(1, False, 2), (2, False, 5), (3, True, 6), (4, False, 7)])
def test_an_estate_is_the_same_whenever_its_key_is(players, advanced, seed):
    """The phones keep a drawn estate while its key stays the same (companion/web/seat/screen.py), so the key must
    cover everything the region draws: over a whole game, one key never meets two different drawings,
    and the key does move with the game."""
    drawn: dict[tuple, str] = {}
    keys = set()

    def look(state, *_):
        for i in range(len(state.seats)):
            key = (i, estate_key(state, i))
            picture = str(estate_svg(state, i)) + str(tokens_html(state, i))
            assert drawn.setdefault(key, picture) == picture, f"seat {i}: same key, another estate"
            keys.add(key)

    played = play_game(players, seed, advanced=advanced, check=False, roundtrip=False, on_decision=look)
    look(played.state)
    assert len(keys) > 10 * players  # the key follows what happens to the seat


def test_tokens_list_everything_a_seat_holds():
    state = finished(4, True, seed=24)
    for i, seat in enumerate(state.seats):
        root = parse_html(tokens_html(state, i))
        words = " ".join(root.itertext())
        for label in ("Coins", "Lumber", "Fire", "Major fire", "Rats", "VP", "Boats", "Wagons", "Lieutenants",
                      "Repopulation tiles left", "Registers", "Scroll tracks", "Deferred rewards"):
            assert label in words
        for boat in seat.boats:
            assert f"back {state.catalog.boats[boat].back}, {state.catalog.boats[boat].cargo}" in words
            assert boat not in words
        for track, level in seat.scroll.items():
            assert f"{track}: {level} /" in words
    seat0 = state.seats[0]
    if any(lt.where.startswith("hex:") for lt in seat0.lieutenants):
        assert "standing" in " ".join(parse_html(tokens_html(state, 0)).itertext())


def test_the_counters_come_first_each_with_its_icon_number_and_word():
    """Issue 14 item 4: a phone shows the numbers a player looks up most before anything else."""
    state = finished(4, True, seed=24)
    for i, seat in enumerate(state.seats):
        root = parse_html(tokens_html(state, i))
        assert [child.tag for child in root] == ["ul", "dl"] and root[0].get("class") == "counters"
        counters = {li.get("data-counter"): li for li in root[0]}
        figures = [lt for lt in seat.lieutenants if lt.where not in ("supply", "box")]
        expected = {"coins": (seat.coins, "Coins", "coin"), "lumber": (seat.lumber, "Lumber", "lumber"),
                    "fire": (seat.fire, "Fire", "fire"), "major-fire": (seat.major_fire, "Major fire", "major-fire"),
                    "rats": (seat.rats, "Rats", "rat"), "vp": (seat.vp, "VP", "vp"),
                    "lieutenants": (len(figures), "Lieutenants", "lieutenant")}
        assert list(counters) == list(expected)
        for key, (n, word, icon) in expected.items():
            li = counters[key]
            assert li.find("span[@class='n']").text == str(n) and li.find("span[@class='what']").text == word
            assert li.find(NS + "svg").find(NS + "g").get("class") == f"icon icon-{icon}"
        unused = sum(1 for lt in figures if not lt.used)
        assert counters["lieutenants"].find("span[@class='sub']").text == f"not yet used: {unused}"


def test_wheel_shows_window_rat_and_mapping():
    state = fresh()
    w = state.catalog.wheel[state.wheel]
    root = parse(wheel_svg(state))
    words = " ".join(" ".join(texts(root)).split())
    assert w.id not in words and root.get("data-window") == w.id and "Round 1" in words
    assert groups(root, "wheel-rat")[0].get("data-rat") == w.rat
    rows = groups(root, "wheel-row")
    assert [r.get("data-colour") for r in rows] == list(w.colours)
    for r in rows:
        cls = w.colours[r.get("data-colour")]
        assert r.get("data-class") == (cls or "")
        if cls:
            assert {"A": "aristocrat", "N": "nun", "C": "craftsman"}[texts(groups(r, "citizen")[0])[0]] == cls


@pytest.mark.parametrize("players,advanced", [(1, False), (2, False), (3, True), (4, True)])
def test_scoring_bars_and_winners(players, advanced):
    state = finished(players, advanced)
    root = parse(scoring_svg(state.scoring, state))
    blocks = groups(root, "score-seat")
    assert len(blocks) == players
    for b, s in zip(blocks, state.scoring["seats"]):
        assert b.get("data-total") == str(s["total"])
        assert len(groups(b, "bar")) == len(s["lines"])
        assert ("winner" in b.get("class")) == (s["seat"] in state.scoring["winners"])
        axis = float(groups(root, "axis")[0].get("x1"))
        for bar, ln in zip(groups(b, "bar"), s["lines"]):
            x = float(bar.get("x"))
            assert (x < axis) == (ln["points"] < 0)


# ---------------------------------------------------------------- safety and translation


def test_hostile_player_name_is_escaped_everywhere():
    state = finished(3)
    state.seats[0].name = HOSTILE
    state.scoring["seats"][0]["name"] = HOSTILE
    state.seats[0].lieutenants[0].where = "hex:n02"
    state.hexes["n02"].repopulated_by = 0
    outs = [city_svg(state), estate_svg(state, 0), tokens_html(state, 0), wheel_svg(state),
            scoring_svg(state.scoring, state)]
    for out in outs:
        assert HOSTILE not in str(out) and "<script" not in str(out)
    assert "&lt;script&gt;" in str(outs[1]) and "&lt;script&gt;" in str(outs[4])
    assert any(HOSTILE in "".join(n.itertext()) for n in parse(outs[0]).iter(NS + "title"))
    assert HOSTILE in "".join(parse_html(outs[2]).itertext())


def test_no_external_assets_or_scripts():
    state = finished(4, True)
    for out in (city_svg(state), estate_svg(state, 0), tokens_html(state, 0), wheel_svg(state),
                scoring_svg(state.scoring, state)):
        text = str(out).replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "http" not in text and "href" not in text and "<script" not in text


def test_fixed_words_go_through_gettext():
    state = fresh()
    state.docks["dock-nw"] = []
    mark = lambda s: f"«{s}»"  # noqa: E731
    city = str(city_svg(state, _=mark))
    assert "«Dock»" in city and "«empty space»" in city
    assert f"«Round {state.round}»" in str(wheel_svg(state, _=mark))  # one template, "Round {n}" (issue 15)
    assert "«not improved»" in str(estate_svg(state, 0, _=mark))
    assert "«Coins»" in str(tokens_html(state, 0, _=mark))
    done = finished(2)
    assert re.search(r"«[^«»]+ · total -?\d+»", str(scoring_svg(done.scoring, done, _=mark)))  # one template
