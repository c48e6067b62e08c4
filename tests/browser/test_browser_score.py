"""The score sheet on a phone (issue 26), in a real headless Chromium at 390×844: a 3-player sheet filled
by its steppers (− and +, or typing), taps on register spaces, scroll levels and hexes, then scored; the
winner and every total read off the page are those worked out by hand (tests/sheets.py, R-END-2); in
English, French and German, with screenshots of the sheet and its result in test-output/
(score-sheet-<lang>.png, score-result-<lang>.png). On the way: no sideways scrolling at 390 or 360 px,
every target at least 44 px, no Content-Security-Policy violation, the link reopens the result, and the
result prints on one page."""

from __future__ import annotations

import re

import pytest
from server import Server
from sheets import SHEETS
from test_browser import ARGS, CHROMIUM, OUT, _need_browser
from test_browser_csp import violations, watched

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SHEET = SHEETS["3p rat penalty stops at the start space (R-END-2)"]
WINNER = {"en": "Winner: Chiara", "fr": "Vainqueur : Chiara", "de": "Gewinner: Chiara"}
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
#: visible things to tap smaller than 44 px either way (a radio's own box is hidden: its label is the target)
SMALL = """() => [...document.querySelectorAll('label.option-pic, .stepper button, .stepper input, button, .big-link')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect(); return [e.className || e.tagName, r.width, r.height]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""
STEPPED = ("rats", "fire", "major_fire", "lumber", "improvements", "workshops", "laps")  # small numbers: tapped


def tap_stepper(page, name: str, value: int) -> None:
    """A small number by its + button, a large one typed (the field takes both)."""
    field = page.locator(f'input[name="{name}"]')
    if value > 5:
        field.fill(str(value))
        return
    plus = page.locator(f'button.step[data-step="1"][aria-controls="f-{name}"]')
    for _ in range(value):
        plus.tap()
    assert field.input_value() == str(value)


def tap_choice(page, name: str, value) -> None:
    page.locator(f'label.option-pic:has(input[name="{name}"][value="{value}"])').tap()
    assert page.locator(f'input[name="{name}"][value="{value}"]').is_checked()


def fill(page, position: dict) -> None:
    for i, s in enumerate(position["seats"]):
        p = f"p{i}."
        page.locator(f'input[name="{p}name"]').fill(s["name"])
        tap_choice(page, p + "colour", s["colour"])
        for key in ("track", *STEPPED):
            if s.get(key):
                tap_stepper(page, p + key, s[key])
        for kind in ("popularity", "city", "church"):
            tap_choice(page, p + kind, s.get(kind, 0))
        for value, count in s.get("coins", {}).items():
            tap_stepper(page, f"{p}coins.{value}", count)
        for cargo, count in s.get("boats", {}).items():
            tap_stepper(page, f"{p}boats.{cargo}", count)
        for track, level in s.get("scroll", {}).items():
            tap_choice(page, f"{p}scroll.a.{track}", level)
        for tile in s.get("repopulated", []):
            tap_choice(page, f"hex.{tile}", i + 1)


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_phone_fills_a_three_player_sheet_and_reads_the_winner(tmp_path, lang):
    _need_browser()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with Server(tmp_path) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = watched(browser.new_context(**PHONE))
        page.goto(srv.base + "/")
        page.locator("#score-sheet-link a").tap()  # linked from the front page
        page.wait_for_selector("form.sheet")
        page.goto(f"{srv.base}/language/{lang}?next=/score")
        tap_choice(page, "players", 3)  # a new layout: three columns
        page.wait_for_function("() => document.querySelectorAll('section.player').length === 3")
        assert page.locator("html").get_attribute("lang") == lang
        fill(page, SHEET["position"])
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            assert page.evaluate(NO_SIDEWAYS), f"{lang}: the sheet scrolls sideways at {width} px"
            assert page.evaluate(SMALL) == [], f"{lang}: targets under 44 px at {width} px"
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(OUT / f"score-sheet-{lang}.png"), full_page=True)

        with page.expect_navigation():
            page.locator("button.score-it").tap()
        page.wait_for_selector("#result")
        assert WINNER[lang] in page.locator("#result p.winner").inner_text()
        totals = [int(t) for t in page.locator("#result .bars-narrow g.score-seat").evaluate_all(
            "gs => gs.map(g => g.getAttribute('data-total'))")]
        assert totals == SHEET["totals"]
        assert page.evaluate(NO_SIDEWAYS), f"{lang}: the result scrolls sideways"
        page.locator("#result").screenshot(path=str(OUT / f"score-result-{lang}.png"))

        link = page.locator("#sheet-link").input_value()
        again = watched(browser.new_context(**PHONE))
        again.goto(link)  # the link reopens the sheet with its result
        assert again.locator("#result .bars-narrow g.score-seat").count() == 3
        assert again.locator('input[name="p2.name"]').input_value() == "Chiara"
        assert violations(page) == [] and violations(again) == []

        page.emulate_media(media="print")
        pdf = page.pdf(format="A4")
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, f"{lang}: the result does not print on one page"
        browser.close()


def test_a_four_player_advanced_result_prints_on_one_page(tmp_path):
    """The longest breakdown (4 players, 2 bonus lines) still prints on one A4 page."""
    _need_browser()
    from playwright.sync_api import sync_playwright

    from companion.catalog import shipped_catalog
    from companion.scoresheet import read_position
    from companion.web.score.form import sheet_query

    position = read_position(SHEETS["4p advanced majority tie split evenly (R-ADV-3, Q-13)"]["position"],
                             shipped_catalog())
    with Server(tmp_path) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_context(**PHONE).new_page()
        page.goto(srv.base + "/score?" + sheet_query(position))
        assert page.locator("#result .bars-narrow g.score-seat").count() == 4
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4")
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / "score-result-print-4p.png"), full_page=True)
        browser.close()
