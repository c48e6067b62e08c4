"""In a real headless Chromium: the Content-Security-Policy is in force (an injected inline script does
not run) and the companion's own pages never trip it — the new-game form, the host screen, a phone
through a few taps with the news arriving, the host's view of a seat, an error page and its "Go back".
The host link's key is gone from the address bar once the screen is open."""

from __future__ import annotations

import random
import time

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, _need_browser

pytestmark = pytest.mark.slow

WATCH = """window.__violations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sample || ''));
});"""

PROBE = """() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';
  document.head.appendChild(s); return window.__ran === 1; }"""


def watched(context):
    """A page that records every policy violation, from the DOM event and from the console."""
    context.add_init_script(WATCH)
    page = context.new_page()
    page.console_messages_seen = []
    page.on("console", lambda m: page.console_messages_seen.append(m.text))
    return page


def violations(page) -> list[str]:
    found = page.evaluate("window.__violations || []")
    found += [m for m in page.console_messages_seen if "Content Security Policy" in m]
    return found


def test_no_page_trips_the_policy_and_the_policy_is_enforced(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    rng = random.Random(2)
    with Server(tmp_path) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        host = watched(browser.new_context(viewport={"width": 1400, "height": 900}))
        host.goto(srv.base + "/")
        host.fill("input[name=name0]", "Ada")
        host.fill("input[name=name1]", "Bruno")
        host.fill("input[name=seed]", "9")
        with host.expect_navigation():
            host.click("button[type=submit]")
        host.wait_for_selector("#city svg")
        assert "key=" not in host.url and host.url.startswith(srv.base + "/host/")
        gid = host.url.rsplit("/", 1)[1]
        urls = host.locator("#seats code.url").all_inner_texts()
        assert len(urls) == 2 and all(u.startswith(srv.base + "/j/") for u in urls)

        phones = []
        for url in urls:
            phone = watched(browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True))
            phone.goto(url)
            phone.wait_for_selector("#estate svg")
            phones.append(phone)
        host.locator("#decide .start-anyway summary").click()  # steps left unticked: it asks first (issue 33)
        with host.expect_response(lambda r: r.request.method == "POST"):  # C-18: round I waits for the table
            host.locator("#decide .start-anyway button.confirm").click()
        taps, deadline = 0, time.time() + 60
        while taps < 6:
            assert time.time() < deadline, "the phones could not tap six times"
            for phone in phones:
                buttons = phone.locator("#menu button.option:not([disabled])")
                if buttons.count():
                    with phone.expect_response(lambda r: r.request.method == "POST"):
                        buttons.nth(rng.randrange(buttons.count())).click()
                    taps += 1
                    phone.wait_for_timeout(100)
        phones[0].wait_for_timeout(500)  # the last tap's news reached this phone
        version = int(phones[0].get_attribute("#poll", "data-version"))
        assert version >= 1
        host.wait_for_function(f"() => Number(document.querySelector('#poll').dataset.version) >= {version}",
                               timeout=10000)  # a function: Playwright would eval an expression, which CSP forbids

        proxy = watched(host.context)
        proxy.goto(f"{srv.base}/host/{gid}/seat/0")
        proxy.wait_for_selector("#estate svg")

        # a refused name brings the form back as typed, with what to change
        form = watched(browser.new_context())
        form.goto(srv.base + "/")
        form.fill("input[name=name0]", "Ada")
        form.fill("input[name=name1]", "ada")
        with form.expect_navigation():
            form.click("button[type=submit]")
        assert "have the same name" in form.inner_text("main")
        assert form.input_value("input[name=name0]") == "Ada" and form.input_value("input[name=name1]") == "ada"
        # an error page's "Go back" (a script file now, not a javascript: link) returns to the page before
        form.goto(f"{srv.base}/?came=before")
        form.goto(f"{srv.base}/seat/not-a-seat")
        assert "not on this machine" in form.inner_text("main")
        with form.expect_navigation():
            form.click("a[data-back]")
        assert form.url == srv.base + "/?came=before"  # the link's own address (/play) would lead to "/"

        pages = [host, proxy, form] + phones
        seen = {page.url: violations(page) for page in pages}
        assert all(v == [] for v in seen.values()), seen

        # the policy is really in force: an inline script injected into a page does not run
        for page in (host, phones[0]):
            assert page.evaluate(PROBE) is False
            page.wait_for_timeout(100)
            assert any("script-src" in v for v in violations(page)), violations(page)
        browser.close()
