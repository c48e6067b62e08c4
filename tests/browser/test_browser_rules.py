"""Rules at a tap (issue 35) in a real headless Chromium on a 390×844 phone, in English, French and German: a
greyed option's rule opens its explanation in a dialog over the menu, in the phone's language and from this
server only; one tap on its large Close button closes it, and the question is still there as it was. On
`/rules` the search box keeps only the rules holding every typed word. Screenshots in test-output/."""

from __future__ import annotations

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, OUT, _need_browser
from test_browser_csp import violations, watched
from test_browser_menus import PHONE, movement_menu_with_greyed
from test_browser_phones import served_game

from companion.rules_text import shipped

pytestmark = pytest.mark.slow

#: a word of each language's texts, and a rule it finds and one it does not
SEARCH = {"en": ("wagon", "R-BUILD-7", "R-SETUP-1"), "fr": ("chariot", "R-BUILD-7", "R-SETUP-1"),
          "de": ("Wagen", "R-BUILD-7", "R-SETUP-1")}
QUESTION = """() => ({heading: document.querySelector('#menu h2').textContent,
  options: [...document.querySelectorAll('#menu button.option')].map(b => b.textContent.trim() + b.disabled),
  y: window.scrollY})"""


def test_a_greyed_option_s_rule_opens_over_the_menu_and_closes_with_one_tap(tmp_path):
    """R-TURN-MOVE-4 (a hex with a standing figure) or another greyed option's rule, on the phone of the
    seat that must move, in each language."""
    _need_browser()
    from playwright.sync_api import sync_playwright

    with Server(tmp_path) as srv, sync_playwright() as pw:
        game = served_game(srv.base, players=3)
        who = movement_menu_with_greyed(srv.base, game)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for lang in ("en", "fr", "de"):
                context = browser.new_context(**PHONE)
                page = watched(context)
                asked = []
                page.on("request", lambda r: asked.append(r.url))
                page.goto(f"{srv.base}/language/{lang}?next=/")
                page.goto(game["seats"][who]["join_url"])
                page.wait_for_selector("#menu button.option[disabled]", state="attached")
                fold = page.locator("#menu details.not-now summary")
                if fold.count():
                    fold.click()
                link = page.locator("#menu .why a.rule").first
                link.scroll_into_view_if_needed()
                before = page.evaluate(QUESTION)
                rule = link.inner_text().strip()
                link.click()
                dialog = page.locator("dialog#rule-dialog[open]")
                dialog.wait_for()
                told = shipped().explain(rule, lang)
                assert told.title in dialog.locator(".rule-title").inner_text()
                assert dialog.get_attribute("lang") is None and dialog.locator("[lang]").first.get_attribute("lang") == lang
                over = page.evaluate("""() => { const d = document.getElementById('rule-dialog').getBoundingClientRect();
                    const top = document.elementFromPoint(d.left + d.width / 2, d.top + d.height / 2);
                    return {inside: !!top.closest('#rule-dialog'), menuThere: !!document.querySelector('#menu h2')}; }""")
                assert over == {"inside": True, "menuThere": True}
                close = dialog.locator("[data-close]")
                box = close.bounding_box()
                assert box["height"] >= 44 and box["width"] >= 44, box
                OUT.mkdir(exist_ok=True)
                page.screenshot(path=str(OUT / f"phone-rule-{lang}.png"))
                close.click()  # one tap
                page.wait_for_function("() => !document.getElementById('rule-dialog').open")
                assert page.evaluate(QUESTION) == before  # the decision is still there, as it was
                assert all(u.startswith(srv.base) for u in asked), [u for u in asked if not u.startswith(srv.base)]
                assert violations(page) == []
                context.close()
        finally:
            browser.close()


def test_the_rules_page_filters_as_one_types(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    every = len(shipped().ids)
    with Server(tmp_path) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for lang, (word, found, not_found) in SEARCH.items():
                context = browser.new_context(**PHONE)
                page = watched(context)
                page.goto(f"{srv.base}/language/{lang}?next=/rules")
                search = page.locator("#rule-search")
                search.wait_for()
                assert page.locator(".rule-entry:visible").count() == every
                search.press_sequentially(word, delay=20)
                page.wait_for_function(f"() => document.getElementById('{not_found}').hidden")
                shown = page.locator(".rule-entry:visible")
                assert 0 < shown.count() < every
                assert page.locator(f"#{found}").is_visible()
                assert all(word.lower() in t.lower() for t in shown.all_inner_texts())
                OUT.mkdir(exist_ok=True)
                page.screenshot(path=str(OUT / f"rules-page-{lang}.png"))
                search.fill("zzqx")
                page.wait_for_function("() => !document.getElementById('rule-none').hidden")
                assert page.locator(".rule-entry:visible").count() == 0
                search.fill("")
                page.wait_for_function(f"() => !document.getElementById('{not_found}').hidden")
                assert violations(page) == []
                context.close()
        finally:
            browser.close()
