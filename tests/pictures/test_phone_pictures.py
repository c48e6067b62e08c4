"""The phone's pictures read on a phone (issue 14 item 4), checked on the markup over whole games: the
estate is stacked pictures 320 units wide whose words are never under 11 units (so at least 11 px on a
phone 360 px wide, where a picture is drawn about 330 px wide), and the mini map's only words are its
numbers and colour letters, large enough at a 360 px phone's width for every player count.
tests/browser/test_browser_estate.py measures the same in a real browser."""

from __future__ import annotations

import html
import re

import pytest
from test_svg import NS, finished, fresh, groups, parse

from companion.pictures import estate_svg, minimap_svg
from tables import api_menu, text

LEGIBLE = 11
PHONE = 329  # px: a picture's width on a 360 px phone (the page's and the panel's margins, static/app.css)


def sizes(node, scale: float = 1.0):
    """Each <text> with words, as (its size in the picture's units, transforms included; its words)."""
    found = re.search(r"scale\(([\d.]+)\)", node.get("transform") or "")
    scale *= float(found.group(1)) if found else 1.0
    if node.tag == NS + "text" and (node.text or "").strip():
        yield float(node.get("font-size")) * scale, node.text
    for child in node:
        yield from sizes(child, scale)


@pytest.mark.parametrize("players,advanced", [(1, False), (2, True), (3, False), (4, True)])
def test_the_estate_is_pictures_a_phone_wide_with_legible_words(players, advanced):
    state = finished(players, advanced)
    for i in range(players):
        root = parse(estate_svg(state, i))
        pictures = list(root.iter(NS + "svg"))
        assert len(pictures) == 6  # three sectors, the cabins, the workshops, the overseers' paths
        assert {p.get("viewBox").split()[2] for p in pictures} == {"320"}
        words = [w for p in pictures for w in sizes(p)]
        assert len(words) > 40
        assert [w for w in words if w[0] < LEGIBLE] == []


def test_the_estate_says_whose_board_in_words_and_keys_its_letters():
    state = fresh(3, advanced=True)
    root = parse(estate_svg(state, 1))
    head = " ".join(groups(root, "estate-head")[0].itertext())
    seat = state.seats[1]
    assert f"Estate of {seat.name}" in head and "board side" in head and seat.board not in head
    assert "A = aristocrat" in " ".join(groups(root, "legend")[0].itertext())  # colour is never the only cue
    captions = [" ".join(f.itertext()) for f in root.iter("figcaption")]
    assert captions == ["Craftsman (C)", "Aristocrat (A)", "Nun (N)", "Quarantine cabins", "Workshops", "Overseers"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_mini_map_numbers_every_offered_place_in_legible_sizes(players):
    state = fresh(players)
    harbors = state.catalog.layout_for(players).harbors
    docks = [f"dock:{d.id}" for d in state.catalog.docks.values() if d.harbor in harbors]
    places = [docks[0]] + [f"hex:{tile}" for tile in sorted(state.hexes)] + docks[1:]
    targets = {p: {"number": n, "key": "a place", "attrs": {"hx-post": "/x", "role": "button", "aria-label": "a place"}}
               for n, p in enumerate(places[:5], 1)}
    root = parse(minimap_svg(state, targets))
    scale = PHONE / float(root.get("viewBox").split()[2])
    words = list(sizes(root))
    assert [w for w in words if w[0] * scale < LEGIBLE] == []
    assert sorted(int(w) for _s, w in words if w.isdigit()) == [1, 2, 3, 4, 5]
    offered = groups(root, "target")
    assert {g.get("data-place") for g in offered} == set(places[:5])
    assert all(g.get("role") == "button" and g.get("aria-label") == "a place" for g in offered)
    assert len(groups(root, "not-offered")) == len(places) - 5
    letters = {w for _s, w in words if not w.isdigit()}
    assert letters and all(len(w) == 1 for w in letters)  # a hex's colour letter, never an id or a name


def test_the_mini_maps_numbers_follow_the_menu_and_its_key_says_each_option(phone, client):
    """The phone's mini map (issue 14 item 4): each place it offers carries a number, 1, 2, 3… in the
    menu's order, and the key under the map gives that option's words and cost."""
    g, who, tok = phone
    labels = [html.escape(o["label"], quote=False) for o in api_menu(client, g, who)["menu"]]
    body = text(client.get(f"/seat/{tok}"))
    key = re.findall(r'<li><span class="marker" aria-hidden="true">(\d+)</span> <span>(.*?) · <strong>', body)
    assert [int(n) for n, _w in key] == list(range(1, len(key) + 1)) and len(key) >= 10
    assert len(re.findall(r'class="[a-z -]*\btarget"', body)) == len(key)  # one number per place offered
    places = [w for _n, w in key]
    assert places == [w for w in labels if w in places]  # every one an option's words, in the menu's order
    spoken = re.findall(r'<g [^>]*class="[a-z -]*\btarget"[^>]*>', body)
    spoken = sorted(re.search(r'aria-label="([^"]*)"', g).group(1) for g in spoken)
    assert spoken == sorted(f"{n}: {w}" for n, w in key)  # a screen reader hears each place's number and words
