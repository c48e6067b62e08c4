"""Phones stay awake in a game (issue 25 item 8), in a real headless Chromium: the switch shows and toggles;
where the Screen Wake Lock API is missing (plain http on a LAN), the muted keep-awake video plays, and stops
when the player switches it off."""

from __future__ import annotations

import pytest
from test_browser import OUT
from test_browser_phones import PHONE, served_game

pytestmark = pytest.mark.slow

#: what a phone reached over plain http on the table's Wi-Fi sees: no Screen Wake Lock API at all
NO_WAKE_LOCK = "Object.defineProperty(window, 'isSecureContext', {get: () => false});"


def test_the_switch_shows_and_the_video_keeps_an_insecure_page_awake(srv, browser):
    game = served_game(srv.base)
    ctx = browser.new_context(**PHONE)
    ctx.add_init_script(NO_WAKE_LOCK)
    page = ctx.new_page()
    page.goto(game["seats"][0]["join_url"])
    page.wait_for_selector("#estate")
    wake = page.locator("#wake")
    assert wake.is_visible() and wake.get_attribute("aria-pressed") == "true"
    assert "Screen stays on" in wake.inner_text()
    box = wake.bounding_box()
    assert box["height"] >= 44, "a thumb's target"
    page.locator("#estate").click()  # a tap lets the video play on a strict phone
    page.wait_for_function("() => { const v = document.getElementById('awake-video');"
                           " return v && !v.paused && v.muted && v.loop; }", timeout=10_000)
    page.screenshot(path=str(OUT / "phone-awake.png"))
    wake.click()
    assert wake.get_attribute("aria-pressed") == "false" and "Screen may sleep" in wake.inner_text()
    page.wait_for_function("() => document.getElementById('awake-video').paused", timeout=5_000)
    page.reload()
    page.wait_for_selector("#estate")
    assert page.locator("#wake").get_attribute("aria-pressed") == "false", "the choice is kept on this phone"


def test_a_secure_page_asks_for_the_screen_wake_lock(srv, browser):
    """http://127.0.0.1 is a secure context: the page asks the Screen Wake Lock API, and plays no video."""
    game = served_game(srv.base)
    ctx = browser.new_context(**PHONE)
    ctx.add_init_script("window.__asked = 0; if (navigator.wakeLock) { const real = navigator.wakeLock.request"
                        ".bind(navigator.wakeLock); navigator.wakeLock.request = (t) => { window.__asked++;"
                        " return real(t); }; }")
    page = ctx.new_page()
    page.goto(game["seats"][0]["join_url"])
    page.wait_for_selector("#estate")
    assert page.evaluate("() => window.isSecureContext && !!navigator.wakeLock")
    page.wait_for_function("() => window.__asked > 0", timeout=5_000)
    assert page.locator("#awake-video").count() == 0
