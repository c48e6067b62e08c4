"""Long menus stay short (issue 14, item 6), in a real headless Chromium on a 390×844 phone: the movement
menu shows every choosable option before any greyed one, and the greyed ones open from their fold."""

from __future__ import annotations

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, OUT, _need_browser
from test_browser_phones import call, deciding, move_on, served_game

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
OPTIONS = "() => [...document.querySelectorAll('#menu button.option')].map(b => b.disabled)"


def movement_menu_with_greyed(base: str, game: dict) -> int:
    """Play on (first choosable option, through the API) until a seat's movement menu has greyed
    options (R-TURN-MOVE-4: a hex taken by a standing lieutenant); that seat."""
    for _ in range(80):
        who = deciding(base, game)
        if who != "host":
            path = f"/api/seats/{game['seats'][who]['token']}"
            device = call(base, "POST", path + "/join", {})[1]["device"]
            menu = call(base, "GET", path + "/menu", headers={"X-Seat-Device": device})[1]["menu"]
            moves = [o for o in menu if isinstance(o["value"], dict) and o["value"].get("go")]
            if moves and any(not o["available"] for o in moves):
                return who
        move_on(base, game)
    raise AssertionError("no movement menu with greyed options in 80 moves")


def test_the_movement_menu_shows_choosable_options_first_and_folds_the_rest(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    with Server(tmp_path) as srv, sync_playwright() as pw:
        game = served_game(srv.base, players=3)
        who = movement_menu_with_greyed(srv.base, game)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_context(**PHONE).new_page()
            page.goto(game["seats"][who]["join_url"])
            page.wait_for_selector("#menu details.not-now")
            disabled = page.evaluate(OPTIONS)
            greyed = sum(disabled)
            assert greyed and disabled == sorted(disabled)  # every choosable option before any greyed one
            summary = page.locator("#menu details.not-now summary")
            assert summary.inner_text().strip() == f"not possible now ({greyed})"
            assert not page.locator("#menu button.option[disabled]").first.is_visible()
            OUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUT / "phone-movement-menu.png"), full_page=True)
            summary.click()
            page.wait_for_function("() => document.querySelector('#menu details.not-now').open")
            assert page.locator("#menu button.option[disabled]").first.is_visible()
            page.screenshot(path=str(OUT / "phone-movement-menu-unfolded.png"), full_page=True)
        finally:
            browser.close()
