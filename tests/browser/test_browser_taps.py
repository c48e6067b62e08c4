"""One tap, one drawing, in a real headless Chromium (issue 12, item 1). A phone's tap is answered with its
whole news (the new question and every region), and the page calls back the question it had waiting at
the server, whose answer would have brought the same menu a second time. Every other screen still hears
the move through its own waiting question, and the tapping phone goes on asking afterwards."""

from __future__ import annotations

import re

import pytest
from test_browser_phones import TAP, deciding, open_phone, served_game

pytestmark = pytest.mark.slow


def asks(url: str, version: int) -> bool:
    """The page's question from `version` on (it also says what the page shows: web/regions.py `shown`)."""
    return re.search(rf"/news\?v={version}(&|$)", url) is not None


def shown(page, version: int, timeout: int = 10_000) -> None:
    """The page's question asks from `version` on: the page shows that version."""
    page.wait_for_function(f"() => document.querySelector('#poll')?.dataset.version === '{version}'",
                           timeout=timeout)


def test_a_tap_draws_the_tapping_phones_menu_once_and_every_other_screen_hears_it(srv, browser):
    game = served_game(srv.base)
    who = deciding(srv.base, game)
    tapper = open_phone(browser, game["seats"][who]["join_url"])
    other = open_phone(browser, game["seats"][1 - who]["join_url"])
    host = browser.new_context().new_page()
    host.goto(game["host_url"])
    host.wait_for_selector("#city svg")
    tapper.wait_for_timeout(1_000)  # every screen's question is out, waiting at the server

    answers, called_back = [], []
    tapper.on("response", lambda r: answers.append(r))
    tapper.on("requestfailed", lambda r: called_back.append(r.url))
    with tapper.expect_response(lambda r: r.request.method == "POST") as posted:
        tapper.locator(TAP).first.click()
    assert posted.value.status == 200
    for page in (tapper, other, host):
        shown(page, 2)  # 1 was the host's "the table is ready" (C-18)
    tapper.wait_for_timeout(2_000)  # long enough for a second drawing to arrive, if one were coming

    menus = [r.url for r in answers if 'id="menu"' in r.text()]
    assert menus == [posted.value.url], menus  # the tap's answer, and nothing after it
    assert any(asks(url, 1) for url in called_back), called_back  # its waiting question
    assert tapper.locator("#poll .offline").is_hidden()  # calling the question back is no lost connection
    if deciding(srv.base, game) == who:
        assert tapper.locator("#menu input[name=version]").first.get_attribute("value") == "2"
    assert tapper.locator("#seat_status").get_attribute("data-version") == "2"

    asked = [r.url for r in answers] + called_back
    assert any(asks(url, 2) for url in asked) or tapper.evaluate(
        "() => document.querySelector('#poll').classList.contains('htmx-request')")  # it asks again

    actor = tapper if deciding(srv.base, game) == who else other  # the next move, by whoever decides
    with actor.expect_response(lambda r: r.request.method == "POST") as posted:
        actor.locator(TAP).first.click()
    assert posted.value.status == 200
    for page in (tapper, other, host):
        shown(page, 3)
