"""Choices say what they do (issue 14 item 5), on a 390×844 phone in a real headless Chromium: an
overseer advance shows what its landing space activates (R-OVS-7), and a greyed repopulation lists every
requirement the seat does not meet (R-REPOP-3), once its fold is opened."""

from __future__ import annotations

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, OUT, _need_browser
from test_browser_phones import call, deciding, move_on, served_game

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
LABELS = "() => [...document.querySelectorAll('#menu button.option .label')].map(b => b.textContent)"
REASONS = "() => [...document.querySelectorAll('#menu form .why')].map(b => b.textContent)"  # under a greyed option


def seat_menu(base: str, game: dict, who: int) -> list[dict]:
    path = f"/api/seats/{game['seats'][who]['token']}"
    device = call(base, "POST", path + "/join", {})[1]["device"]
    return call(base, "GET", path + "/menu", headers={"X-Seat-Device": device})[1]["menu"]


def play_until(base: str, game: dict, found) -> int:
    """Play on (first choosable option, through the API) until a seat's menu satisfies `found`; that seat."""
    for _ in range(400):
        who = deciding(base, game)
        if who != "host" and found(seat_menu(base, game, who)):
            return who
        move_on(base, game)
    raise AssertionError("no such menu in 400 moves")


def _repopulation_short_of_two(menu: list[dict]) -> bool:
    return any(isinstance(o["value"], dict) and o["value"].get("act") == "repopulate" and not o["available"]
               and "; " in o["reason"] for o in menu)


def _overseer_that_activates(menu: list[dict]) -> bool:
    return any("— activates: " in o["label"] for o in menu)


def test_a_phone_shows_what_an_advance_activates_and_everything_a_repopulation_lacks(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    with Server(tmp_path) as srv, sync_playwright() as pw:
        game = served_game(srv.base, players=3)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        OUT.mkdir(exist_ok=True)
        try:
            who = play_until(srv.base, game, _repopulation_short_of_two)
            page = browser.new_context(**PHONE).new_page()
            page.goto(game["seats"][who]["join_url"])
            page.wait_for_selector("#menu button.option")
            if page.locator("#menu details.not-now").count():  # a long menu folds its greyed options
                page.locator("#menu details.not-now summary").click()
            reasons = [r for r in page.evaluate(REASONS) if "; " in r]
            assert reasons and all("R-REPOP-" in r for r in reasons)
            page.screenshot(path=str(OUT / "phone-repopulation-unmet.png"), full_page=True)

            who = play_until(srv.base, game, _overseer_that_activates)
            page = browser.new_context(**PHONE).new_page()
            page.goto(game["seats"][who]["join_url"])
            page.wait_for_selector("#menu button.option")
            labels = page.evaluate(LABELS)
            assert any("— activates: the " in label and "” square" in label for label in labels), labels
            page.screenshot(path=str(OUT / "phone-overseer-activates.png"), full_page=True)
        finally:
            browser.close()
