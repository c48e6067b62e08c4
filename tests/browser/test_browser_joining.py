"""Joining that works the first time, and the host's view of the phones (issue 14 items 1 and 8), in a
real headless Chromium: the host opens the companion at http://localhost, as a host on the laptop
does; its QR codes still carry the machine's LAN address (or the screen warns that phones cannot
reach it); one phone follows its seat's QR link, two type their seat's code on /join; the host's
phones panel then shows each phone connected. Screenshots land in test-output/."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, OUT, _need_browser

from companion.web.address import lan_address

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = ["Ada", "Bruno", "Chiara"]


def test_host_at_localhost_three_phones_join_by_qr_link_and_by_code(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    lan = lan_address()
    with Server(tmp_path, args=["--host", "0.0.0.0", "--wait", "2"]) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        host = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        host.goto(f"http://localhost:{srv.port}/")
        for i, name in enumerate(NAMES):
            host.fill(f"input[name=name{i}]", name)
        host.fill("input[name=seed]", "12")
        host.click("button[type=submit]")
        host.wait_for_selector("#seats code.url")
        urls = host.locator("#seats code.url").all_inner_texts()
        codes = host.locator("#seats span.join-code").all_inner_texts()
        assert len(urls) == 3 and len(codes) == 3 and all(re.fullmatch(r"[A-HJ-NP-Z]{5}", c) for c in codes)
        if ipaddress.ip_address(lan).is_loopback:  # no network here: the host screen must say so
            assert host.locator("#unreachable").is_visible()
            base = f"http://127.0.0.1:{srv.port}"
        else:
            assert all(urlsplit(u).hostname == lan for u in urls), urls  # not localhost: a phone can open it
            assert host.locator("#unreachable").count() == 0
            base = f"http://{lan}:{srv.port}"
        host.screenshot(path=str(OUT / "join-host-codes.png"), full_page=True)
        phones = [browser.new_context(**PHONE).new_page() for _ in NAMES]
        phones[0].goto(urls[0])  # the QR code's link, as a camera opens it
        for phone, code in zip(phones[1:], codes[1:]):
            phone.goto(base + "/join")
            phone.fill("input[name=code]", code.lower())  # as a player types it
            if phone is phones[1]:
                phone.screenshot(path=str(OUT / "join-by-code.png"), full_page=True)
            phone.click("button[type=submit]")
        for phone, name in zip(phones, NAMES):
            phone.wait_for_selector("#poll", state="attached")
            assert name in phone.locator("body").inner_text()
        phones[1].screenshot(path=str(OUT / "join-phone-seat.png"), full_page=True)
        host.wait_for_function("() => document.querySelectorAll('#seats .phone-seen.connected').length === 3",
                               timeout=30_000)
        host.screenshot(path=str(OUT / "join-host-phones-connected.png"), full_page=True)
        wrong = browser.new_context(**PHONE).new_page()
        wrong.goto(base + "/join")
        wrong.fill("input[name=code]", "QQQQQ" if "QQQQQ" not in codes else "ZZZZZ")
        wrong.click("button[type=submit]")
        assert "No seat has that code" in wrong.locator("[role=alert]").inner_text()
        wrong.screenshot(path=str(OUT / "join-wrong-code.png"), full_page=True)
        browser.close()
