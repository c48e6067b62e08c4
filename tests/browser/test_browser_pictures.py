"""In a real headless Chromium (issue 13 item 3): a 3-player table-draw game is set up and played through
its first upkeep, to the start of round II, by tapping pictures. Every question the host answers about a
component is a grid of face buttons (the filter narrows the first deal by colour); the only other host
question, the play order, names players. The phones answer by tapping a button of their menu.
Screenshots land in test-output/."""

from __future__ import annotations

import pytest
from test_browser_phones import call, open_phone
from test_browser import OUT

pytestmark = pytest.mark.slow

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chiara", "colour": "yellow"}]
FACE_TAP = "#decide form:not([hidden]) button.option.pictured:not([disabled])"
SEAT_TAP = "#menu button.option:not([disabled])"


def state_of(srv, game) -> dict:
    return call(srv.base, "GET", f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]})[1]


def shows(page, version: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#poll')?.dataset.version) >= {version}",
                           timeout=15_000)


def filter_by_colour(host) -> int:
    """Tap the second colour chip of the filter: only hexes of that colour stay; how many are shown."""
    before = host.locator(FACE_TAP).count()
    host.locator(".pick-filter fieldset").first.locator("label.chip-choice").nth(1).click()
    chosen = host.locator(".pick-filter input[name=colour]:checked").get_attribute("value")
    shown = host.locator(FACE_TAP)
    assert 0 < shown.count() < before
    for n in range(shown.count()):
        assert shown.nth(n).locator("xpath=..").get_attribute("data-colour") == chosen
    host.screenshot(path=str(OUT / "pictures-filtered.png"), full_page=True)
    return shown.count()


def test_a_table_draw_setup_and_upkeep_by_tapping_pictures(srv, browser):
    OUT.mkdir(exist_ok=True)
    status, game = call(srv.base, "POST", "/api/games", {"players": PLAYERS, "seed": 3, "draw": "table"})
    assert status == 201, game
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(game["host_url"])
    phones: dict[int, object] = {}
    filtered = host_taps = 0
    for version in range(400):
        state = state_of(srv, game)
        assert state["version"] == version
        if state["state"]["round"] >= 2 and state["state"]["phase"] == "play":
            break
        who = state["pending"][0]["who"]
        if who == "host":
            shows(host, version)
            pictured = host.locator("#decide button.option.pictured").count()
            if state["pending"][0]["kind"] == "table_ready":  # steps left unticked: it asks first (issue 33)
                host.locator("#decide .start-anyway summary").click()
                host.locator("#decide .start-anyway button.confirm").click()
                shows(host, version + 1)
                continue
            if not pictured:  # a question about the players themselves (the play order): their counters
                assert "svg" not in host.locator("#decide .menu").inner_html()
                host.locator("#decide button.option:not([disabled])").first.click()
                shows(host, version + 1)
                continue
            assert host.locator("#decide form").count() == pictured  # every candidate a face
            if not filtered and host.locator(".pick-filter").count():
                host.screenshot(path=str(OUT / "pictures-deal.png"), full_page=True)
                filtered = filter_by_colour(host)
            host.locator(FACE_TAP).first.click()
            host_taps += 1
        else:
            if who not in phones:
                phones[who] = open_phone(browser, game["seats"][who]["join_url"])
            page = phones[who]
            shows(page, version)
            page.locator(SEAT_TAP).first.click()
        shows(host, version + 1)
    else:
        raise AssertionError("round II never started")
    assert filtered and host_taps >= 12  # the deal of the first hexes (R-SETUP-2) and the upkeep's reveals
    host.screenshot(path=str(OUT / "pictures-round-2.png"), full_page=True)
    upkeep = host.locator("#upkeep")
    assert upkeep.locator(".line-faces svg.face").count() > 0  # R-UPKEEP: the report shows what came up
    for page in phones.values():
        page.screenshot(path=str(OUT / f"pictures-phone-{list(phones.values()).index(page)}.png"), full_page=True)
