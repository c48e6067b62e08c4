"""The host and a phone in French and in German, in a real headless Chromium (issue 15): each device picks
its language with the switch in the header, the choice stays with the device across pages, and the two
screens of one game may differ. Screenshots land in test-output/ (host-fr.png, phone-fr.png, host-de.png,
phone-de.png)."""

from __future__ import annotations

import pytest
from test_browser import OUT
from test_browser_phones import TAP, deciding, served_game

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
#: words each screen must show in its language (from the catalogs), and the English they replace
SAYS = {"fr": ("Journal de partie", "Votre domaine"), "de": ("Spielprotokoll", "Dein Anwesen")}


def test_host_and_phone_switch_language_and_keep_it(srv, browser):
    game = served_game(srv.base)
    who = deciding(srv.base, game)
    for lang, name in (("fr", "Français"), ("de", "Deutsch")):
        host = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
        host.goto(game["host_url"])
        host.wait_for_selector("#city svg")
        assert host.locator("html").get_attribute("lang") == "en"  # the browser's language first
        host.locator("nav.languages a", has_text=name).click()
        host.wait_for_selector(f"html[lang={lang}]")
        assert SAYS[lang][0] in host.locator("#log").inner_text()
        assert host.locator("nav.languages a[aria-current]").inner_text() == name
        host.reload()  # the choice stays with this device
        assert host.locator("html").get_attribute("lang") == lang
        for width in (1024, 1280):  # a small laptop and a TV: the score table's German words fit both
            host.set_viewport_size({"width": width, "height": 900})
            assert host.evaluate(NO_SIDEWAYS_SCROLL), f"{lang}: host wider than {width}: {host.evaluate(WIDEST)}"
        OUT.mkdir(exist_ok=True)
        host.screenshot(path=str(OUT / f"host-{lang}.png"), full_page=True)

        phone = browser.new_context(**PHONE, locale="en-GB").new_page()
        phone.goto(game["seats"][who]["join_url"])
        phone.wait_for_selector("#estate")
        phone.locator("nav.languages a", has_text=name).click()
        phone.wait_for_selector(f"html[lang={lang}]")
        phone.wait_for_selector("#estate")
        assert SAYS[lang][1] in phone.locator("body").inner_text()
        assert phone.locator(TAP).count() > 0  # the menu is still there, in the new language
        wide = phone.evaluate(WIDEST)
        assert phone.evaluate(NO_SIDEWAYS_SCROLL), f"{lang}: wider than the phone: {wide}"  # long German words
        assert phone.evaluate(SPILLING) == [], f"{lang}: words run out of their box"  # "Großer Feuermarker"
        assert phone.evaluate(WORD_TOO_WIDE) == [], f"{lang}: a counter's word is cut in two"  # "Lieutenan-ts"
        phone.screenshot(path=str(OUT / f"phone-{lang}.png"), full_page=True)


NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + (e.innerText || '').slice(0, 40))"""
#: boxes on the phone whose words run past their own edge (the page may still fit while a counter spills)
SPILLING = """() => [...document.querySelectorAll('#estate .counter, #estate dt, #estate dd, #decide button')]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className + ': ' + e.innerText.slice(0, 40))"""
#: counters whose longest word is wider than the counter, so the word would be cut mid-word
WORD_TOO_WIDE = """() => { const pen = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('#estate .counter .what')].filter(e => {
    const style = getComputedStyle(e); pen.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
    return e.innerText.split(/\\s+/).some(w => pen.measureText(w).width > e.clientWidth + 1);
  }).map(e => e.innerText); }"""
