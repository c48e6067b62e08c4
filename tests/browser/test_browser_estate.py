"""The estate fits a phone (issue 14 item 4), in a real headless Chromium: a 3-player game played into
round II, its deciding seat opened on phones 360, 390 and 430 px wide. Nothing scrolls sideways, no part of
the estate or the mini map is wider than the screen, every word drawn in their pictures renders at 11 px
or more, and the counters come before the pictures. Screenshots land in test-output/estate-<width>.png."""

from __future__ import annotations

import re

import pytest
from test_browser import OUT
from test_browser_phones import call, deciding, move_on, served_game

pytestmark = pytest.mark.slow

PHONES = [(360, 740), (390, 844), (430, 932)]
LEGIBLE = 11  # px: the smallest text a phone held at arm's length reads

#: for every <text> with words in the estate's pictures or the mini map: its rendered size in px (the font
#: size times the scale from its own units to the screen, transforms included) and what it says
TEXT_SIZES = """() => [...document.querySelectorAll('#estate svg.estate-picture text, #minimap svg text')]
  .filter(t => t.textContent.trim())
  .map(t => { const m = t.getScreenCTM();
              return [parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b), t.textContent.trim()]; })"""
#: elements of the estate and the mini map that reach past either side of the screen
TOO_WIDE = """() => [...document.querySelectorAll('#estate, #estate *, #minimap, #minimap *')]
  .filter(e => { const r = e.getBoundingClientRect();
                 return r.width && (r.left < -0.5 || r.right > window.innerWidth + 0.5); })
  .map(e => e.tagName + '.' + (e.getAttribute('class') || ''))"""
SCROLLS_SIDEWAYS = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
COUNTERS_FIRST = """() => Boolean(document.querySelector('#estate .counters').compareDocumentPosition(
  document.querySelector('#estate .estate-pictures')) & Node.DOCUMENT_POSITION_FOLLOWING)"""


def into_round_two(base: str, game: dict) -> int:
    """Moves by whoever decides (R-ROUND-2), until a seat of round II chooses where a lieutenant goes (its
    phone then shows the mini map): that seat."""
    for _ in range(600):
        state = call(base, "GET", f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]})[1]
        who = deciding(base, game)
        if state["state"]["round"] >= 2 and who != "host":
            path = f"/api/seats/{game['seats'][who]['token']}"
            device = call(base, "POST", path + "/join", {})[1]["device"]
            menu = call(base, "GET", path + "/menu", headers={"X-Seat-Device": device})[1]["menu"]
            if any(isinstance(o["value"], dict) and o["value"].get("go") == "hex" for o in menu):
                return who
        move_on(base, game)
    raise AssertionError("no seat of round II chose where to go")


def test_the_estate_and_the_mini_map_fit_a_phone(srv, browser):
    OUT.mkdir(exist_ok=True)
    game = served_game(srv.base, players=3)
    seat = into_round_two(srv.base, game)
    for width, height in PHONES:
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True)
        page = context.new_page()
        page.goto(game["seats"][seat]["join_url"])  # this phone takes the seat
        page.wait_for_selector("#estate svg.estate-picture")
        page.wait_for_selector("#minimap svg [role=button]")
        assert not page.evaluate(SCROLLS_SIDEWAYS), width
        assert page.evaluate(TOO_WIDE) == [], width
        sizes = page.evaluate(TEXT_SIZES)
        assert len(sizes) > 50 and any(w == "not improved" for _s, w in sizes)  # the pictures' words were measured
        small = [(round(s, 1), w) for s, w in sizes if s < LEGIBLE]
        assert small == [], (width, small)
        assert page.evaluate(COUNTERS_FIRST)
        counters = page.locator("#estate .counters .counter")
        assert counters.count() == 7 and "Coins" in counters.first.inner_text()
        status = page.locator("#seat_status").inner_text()
        assert "Round II" in status and not re.search(r"\bv\d+\b", status)  # no build number on the phone
        page.locator("#estate").screenshot(path=str(OUT / f"estate-{width}.png"))
        page.locator("#minimap").screenshot(path=str(OUT / f"estate-map-{width}.png"))
        page.screenshot(path=str(OUT / f"estate-page-{width}.png"), full_page=True)
        context.close()
