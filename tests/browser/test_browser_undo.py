"""Undo tells the table what to put back (issue 14 item 3), in a real headless Chromium: a phone (390×844)
takes its turn, the host undoes it, and both screens say what goes back on the table, while the host's
log keeps the undone entry struck through. Screenshots land in test-output/undo-host.png and
test-output/undo-phone.png."""

from __future__ import annotations

import pytest
from test_browser import OUT
from test_browser_phones import TAP, deciding, served_game

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}


def shows(page, selector: str, words: str) -> None:
    page.wait_for_function(f"() => (document.querySelector({selector!r})?.innerText || '').includes({words!r})",
                           timeout=15_000)


def host_and_phone(srv, browser):
    """A two-seat game open on the host screen and on the phone of the seat that must decide:
    (game, that seat, its player's name, host page, phone page)."""
    game = served_game(srv.base)
    who = deciding(srv.base, game)
    name = ["Ada", "Bruno"][who]
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(game["host_url"])
    host.wait_for_selector("#city svg")
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(game["seats"][who]["join_url"])
    phone.wait_for_selector("#estate")
    return game, who, name, host, phone


def test_an_undo_shows_what_to_put_back_on_host_and_phone(srv, browser):
    """R-TURN-1: the phone stands a lieutenant on a hex; undone, host and phone say to take it back."""
    game, who, name, host, phone = host_and_phone(srv, browser)
    assert phone.locator("#seat_put_back").is_hidden() and host.locator("#put_back").is_hidden()

    with phone.expect_response(lambda r: r.request.method == "POST") as posted:
        phone.locator(TAP).first.click()
    assert posted.value.status == 200
    host.wait_for_function("() => document.querySelector('#poll')?.dataset.version === '2'", timeout=15_000)
    assert host.locator("#log li:not(.undone)", has_text="stands a lieutenant").count() == 1

    # issue 25 item 6: the host first sees which act goes, in the players' words, then confirms
    assert name in host.locator("#undo").inner_text()  # "Last act: Ada (R): …"
    host.locator("#undo button[type=submit]", has_text="Show what goes").click()
    host.wait_for_selector("#undo ol.undo-acts li")
    preview = host.locator("#undo").inner_text()
    assert "Undo takes back this act:" in preview and f"{name} (" in preview
    host.screenshot(path=str(OUT / "undo-host-preview.png"), full_page=True)
    host.locator("#undo input[name=confirm]").check()
    host.locator("#undo button[type=submit]", has_text="Undo").click()
    shows(host, "#put_back", f"{name} (")
    shows(host, "#put_back", "take the lieutenant standing on the marked")
    shows(phone, "#seat_put_back", "take the lieutenant standing on the marked")
    assert host.locator("#put_back").is_visible() and phone.locator("#seat_put_back").is_visible()
    assert "Put back" in phone.locator("#seat_put_back h2").inner_text()
    box = host.locator("#put_back").bounding_box()
    assert box["y"] < host.locator("#city").bounding_box()["y"]  # above the map: the first thing read
    assert host.locator("#city .marked").count() >= 1  # the hex it names is marked on the map
    undone = host.locator("#log li.undone", has_text="stands a lieutenant")
    assert undone.count() == 1 and host.locator("#log li:not(.undone)", has_text="stands a lieutenant").count() == 0
    assert "undone" in undone.locator(".undone-mark").inner_text().lower()  # a word, not colour alone
    assert "stands a lieutenant" in undone.locator("del").inner_text()
    assert "Undo: 1 act taken back" in host.locator("#log li.undo-row").first.inner_text()
    no_scroll = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    assert phone.evaluate(no_scroll)
    OUT.mkdir(exist_ok=True)
    host.screenshot(path=str(OUT / "undo-host.png"), full_page=True)
    phone.screenshot(path=str(OUT / "undo-phone.png"), full_page=True)


def test_a_phone_takes_back_its_own_last_act(srv, browser):
    """Issue 25 item 6: right after its own act, and while nobody else has acted, the phone names the act and
    takes it back on confirmation; it is told what to put back, and the host sees the same lines."""
    game, who, name, host, phone = host_and_phone(srv, browser)
    assert phone.locator("#seat_undo").is_hidden()
    for _ in range(4):  # a move may first ask which lieutenant goes: tap until a figure stands
        with phone.expect_response(lambda r: r.request.method == "POST"):
            phone.locator(TAP).first.click()
        phone.wait_for_timeout(300)
        if host.locator("#log li", has_text="stands a lieutenant").count():
            break
    phone.wait_for_selector("#seat_undo:not(.hidden)", timeout=15_000)
    assert phone.locator("#seat_undo summary").bounding_box()["height"] >= 44  # issue 33: a thumb's button
    phone.locator("#seat_undo summary").click()
    assert f"{name} (" in phone.locator("#seat_undo").inner_text()
    confirm = phone.locator("#seat_undo button[type=submit]")
    assert confirm.bounding_box()["height"] >= 44 and phone.locator("#seat_undo input[type=checkbox]").count() == 0
    phone.screenshot(path=str(OUT / "undo-phone-offer.png"), full_page=True)
    with phone.expect_response(lambda r: r.request.method == "POST") as posted:
        confirm.click()
    assert posted.value.status == 200
    shows(phone, "#seat_put_back", "take the lieutenant standing on the marked")
    shows(host, "#put_back", "take the lieutenant standing on the marked")
    assert phone.locator("#seat_undo").is_hidden()  # taken back: nothing more of its own to take back
    assert phone.locator(TAP).count() > 0  # its turn again
    phone.screenshot(path=str(OUT / "undo-phone-own.png"), full_page=True)
