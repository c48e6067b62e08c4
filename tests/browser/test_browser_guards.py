"""Guard rails and what a choice says, at a real table (issue 33 items 6 and 9), in headless Chromium: a host at
1280×800 and two phones at 390×844, in English, French and German.

- "The table is ready" with steps of the setup checklist unticked needs a confirm, which says how many are
  left (C-18).
- "End your turn" with an earned action left needs a confirm naming what lapses (R-TURN-ACT-2); then the
  phone's own undo is a button of at least 44 px with a confirm of at least 44 px.
- A rescued citizen's square choice shows each square's face (R-TURN-RESCUE-2); a scroll advance says what the
  next level is worth, in numbers (R-ACT-5).
- At game over a phone lets its screen sleep and says so; the host's finale table reads at 24 px and more on a
  1920 px television; the score sheet's bars read at 12 px and more on a 390 px phone.

Positions are reached by random legal moves written to the server's games file from the test (quick), and a
screen is reloaded to show them; the moves the test is about are tapped in the browser. Screenshots of each
in test-output/guard-<what>-<lang>.png."""

from __future__ import annotations

import copy
import random
import re

import pytest
from test_browser import OUT
from test_browser_moments import LOCALES
from test_browser_phones import call

from companion.engine import apply, legal_actions, pending
from companion.store import Store
from tables import store_until

pytestmark = pytest.mark.slow

HOST = {"width": 1280, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
TV = {"width": 1920, "height": 1080}
#: the Screen Wake Lock API is missing over plain http on a LAN: the phone keeps awake with its video
NO_WAKE_LOCK = "Object.defineProperty(window, 'isSecureContext', {get: () => false});"
VP = {"en": "VP", "fr": "PV", "de": "SP"}
#: every text of the pictures `sel` names, with its size on screen in px: the picture's scale is the smaller of
#: its width's and its height's (a picture kept whole in a box too low for it is drawn smaller than its width says)
SVG_TEXT = """(sel) => {
  const out = [];
  for (const svg of document.querySelectorAll(sel)) {
    const box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    if (!box.width) continue;
    const k = Math.min(box.width / vb.width, box.height / vb.height);
    for (const t of svg.querySelectorAll('text'))
      out.push([t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize) * k]);
  }
  return out;
}"""
MAY_SLEEP = {"en": "Screen may sleep", "fr": "L'écran peut s'éteindre", "de": "Bildschirm darf ausgehen"}


class Table:
    """A two-seat game on a real server: its host screen and both phones in `lang`, and the server's games file
    open in the test, to move the game on quickly."""

    def __init__(self, srv, browser, lang: str):
        self.base, self.lang = srv.base, lang
        status, self.game = call(srv.base, "POST", "/api/games", {
            "players": [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}], "seed": 3})
        assert status == 201, self.game
        self.gid = self.game["id"]
        self.store = Store(srv.instance / "companion.db")
        self.rng = random.Random(3)
        locale = LOCALES[lang]
        self.host = browser.new_context(viewport=HOST, locale=locale).new_page()
        self.host.goto(self.game["host_url"])
        self.host.wait_for_selector("#moment")
        self.phones, self.devices = [], []
        for seat in self.game["seats"]:
            context = browser.new_context(**PHONE, locale=locale)
            context.add_init_script(NO_WAKE_LOCK)
            page = context.new_page()
            page.goto(seat["join_url"])
            page.wait_for_selector("#seat_status")
            self.phones.append(page)
            self.devices.append(next(c["value"] for c in context.cookies() if c["name"] == f"seat_{seat['token']}"))

    def seen(self, positions: dict) -> None:
        """Moves by the store to each of `positions` ({name: (reached(state), check(table, game, seat, phone))}),
        in whichever order the game brings them; at each, the deciding seat's phone is reloaded to show it and
        the check runs."""
        left = dict(positions)
        while left:
            game = store_until(self.store, self.gid, lambda st: any(r(st) for r, _c in left.values()), self.rng)
            assert game is not None, f"the game ended before {sorted(left)}"
            name = next(n for n, (r, _c) in left.items() if r(game.state))
            seat = pending(game.state)[0]["who"]
            phone = self.phones[seat]
            phone.reload()
            phone.wait_for_selector("#menu")
            left.pop(name)[1](self, game, seat, phone)

    def shot(self, page, what: str, full: bool = False) -> None:
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / f"guard-{what}-{self.lang}.png"), full_page=full)


def asked(kind: str, also=lambda state, seat: True):
    """A position where a seat is asked a question of `kind`."""
    def reached(state) -> bool:
        question = pending(state)
        return bool(question) and question[0]["kind"] == kind and question[0]["who"] != "host" and also(
            state, question[0]["who"])
    return reached


def tall(locator) -> float:
    return locator.bounding_box()["height"]


def ready_needs_a_confirm(t: Table) -> None:
    """C-18 / issue 33: with setup steps unticked there is no "The table is ready" button, only a quieter
    confirm that says how many steps are left."""
    host = t.host
    steps = len(t.store.load(t.gid).state.setup_steps)
    assert host.locator("#decide button.option").count() == 0
    host.locator("#moment button.done").click()  # one step done: one fewer left
    left = host.locator("#decide .start-anyway")
    host.wait_for_function(f"() => (document.querySelector('#decide .start-anyway')?.textContent || '')"
                           f".includes('{steps - 1} ')", timeout=20_000)
    left.locator("summary").click()
    confirm = left.locator("button.confirm")
    assert confirm.is_visible() and tall(left.locator("summary")) >= 44 and tall(confirm) >= 44
    assert str(steps - 1) in left.locator(".confirm-box").inner_text()
    t.shot(host, "ready-confirm")
    with host.expect_response(lambda r: r.request.method == "POST"):
        confirm.click()
    assert t.store.load(t.gid).state.phase == "play"


def end_turn_needs_a_confirm(t: Table, game, seat: int, phone) -> None:
    """R-TURN-ACT-2: "End your turn" with an earned action left opens a confirm naming what lapses; after it,
    the phone's own undo is a ≥ 44 px button with a ≥ 44 px confirm."""
    end = next(o for o in legal_actions(game.state, seat) if o["value"] == {"act": "end"})
    assert end["lapses"]
    ask = phone.locator("#menu details.confirm-option")
    assert ask.count() == 1 and tall(ask.locator("summary")) >= 44
    ask.locator("summary").click()
    confirm = ask.locator("button.confirm")
    assert confirm.is_visible() and tall(confirm) >= 44
    said = ask.locator(".lapses").inner_text()
    assert "R-TURN-ACT-2" in said and (t.lang != "en" or end["lapses"] in said)
    assert str(len(game.state.rights)) in said  # how many, then each in words
    t.shot(phone, "end-turn")
    with phone.expect_response(lambda r: r.request.method == "POST"):
        confirm.click()
    assert t.store.load(t.gid).state.rights == []  # ended: they lapsed
    undo = phone.locator("#seat_undo")
    phone.wait_for_selector("#seat_undo:not(.hidden)", timeout=15_000)
    assert tall(undo.locator("summary")) >= 44
    undo.locator("summary").click()
    assert tall(undo.locator("button.confirm")) >= 44 and undo.locator("input[type=checkbox]").count() == 0
    t.shot(phone, "undo")


def to_a_square(state, seat) -> bool:
    return any((o.get("face") or {}).get("family") == "square" for o in legal_actions(state, seat))


def rescue_shows_squares(t: Table, game, seat: int, phone) -> None:
    """R-TURN-RESCUE-2: each square a rescued citizen may go to is shown as its face."""
    options = len(legal_actions(game.state, seat))
    assert phone.locator("#menu button.option.pictured svg.face-square").count() == options
    box = phone.locator("#menu button.option.pictured svg.face-square").first.bounding_box()
    assert box["width"] >= 80, "a square's face big enough to match with the board"
    t.shot(phone, "rescue")


def scroll_says_its_worth(t: Table, game, seat: int, phone) -> None:
    """R-ACT-5: each scroll track's choice says the next level's value and the points before → after."""
    labels = phone.locator("#menu button.option:not([disabled]) .label").all_inner_texts()
    assert labels and all(re.search(rf"\d+ → \d+ {VP[t.lang]}", label) for label in labels), labels
    t.shot(phone, "scroll")


def the_last_move(t: Table):
    """Moves by the store up to the one that ends the game, which is made through the server (so every screen
    hears of it); the phone of seat 0 shows its awake video playing just before."""
    while True:
        game = t.store.load(t.gid)
        who = pending(game.state)[0]["who"]
        menu = legal_actions(game.state, who)
        pick = t.rng.choice([o for o in menu if o["available"]])
        after, _ = apply(game.state, copy.deepcopy(pick["action"]), copy_first=True)
        if after.phase == "over":
            break
        t.store.act(t.gid, game.version, who, pick["action"]["decision"], menu.index(pick))
    phone = t.phones[0]
    phone.reload()
    phone.wait_for_selector("#estate")
    phone.locator("#estate").click()  # a tap lets the video play on a strict phone
    phone.wait_for_function("() => { const v = document.getElementById('awake-video'); return v && !v.paused; }",
                            timeout=10_000)
    if who == "host":
        path, headers = f"/api/games/{t.gid}/host", {"X-Host-Token": t.game["host_token"]}
    else:
        path, headers = f"/api/seats/{t.game['seats'][who]['token']}", {"X-Seat-Device": t.devices[who]}
    status, out = call(t.base, "POST", path + "/actions", {"version": game.version, "choice": menu.index(pick)},
                       headers)
    assert status == 200 and out["phase"] == "over", out
    return phone


def game_over_lets_the_screen_sleep(t: Table) -> None:
    """README: a phone lets go of its screen once the game is over, and its switch says so."""
    phone = the_last_move(t)
    phone.wait_for_selector("#seat_status[data-over]", timeout=30_000)
    wake = phone.locator("#wake")
    phone.wait_for_function("() => document.getElementById('wake').getAttribute('aria-pressed') === 'false'",
                            timeout=10_000)
    assert MAY_SLEEP[t.lang] in wake.inner_text() and wake.is_disabled()
    assert phone.evaluate("() => document.getElementById('awake-video').paused")
    t.shot(phone, "over-phone")


def finale_reads_on_a_television(t: Table) -> None:
    """The host's finale table at ≥ 24 px on a 1920 px television (≥ 20 px at 1280), its bars too."""
    host = t.host
    host.goto(host.url)
    host.wait_for_selector("#scoring table.scoring")
    host.set_viewport_size(TV)
    sizes = host.evaluate("() => [...document.querySelectorAll('#scoring table.scoring td, #scoring table.scoring th,"
                          " #scoring table.scoring .rule')].map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 24, min(sizes)
    bars = [px for text, px in host.evaluate(SVG_TEXT, "#scoring .bars svg") if text]
    assert bars and min(bars) >= 24, min(bars)
    host.evaluate("document.querySelector('#scoring').scrollIntoView()")
    t.shot(host, "finale-1920")
    host.set_viewport_size(HOST)
    sizes = host.evaluate("() => [...document.querySelectorAll('#scoring table.scoring td')]"
                          ".map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(sizes) >= 20


def score_sheet_bars_read_on_a_phone(t: Table, browser) -> None:
    """The score sheet's bars on a 390 px phone: every word and number at 12 px or more."""
    from sheets import SHEETS
    from companion.catalog import shipped_catalog
    from companion.scoresheet import read_position
    from companion.web.score.form import sheet_query

    position = read_position(copy.deepcopy(SHEETS["3p rat penalty stops at the start space (R-END-2)"]["position"]),
                             shipped_catalog())
    page = browser.new_context(**PHONE, locale=LOCALES[t.lang]).new_page()
    page.goto(t.base + "/score?" + sheet_query(position))
    page.wait_for_selector("#result .bars-narrow svg")
    assert page.locator("#result .bars-wide").is_hidden()
    sizes = [(text, px) for text, px in page.evaluate(SVG_TEXT, "#result .bars-narrow svg") if text]
    assert sizes and min(px for _t, px in sizes) >= 12, min(sizes, key=lambda x: x[1])
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.locator("#result .bars-narrow").screenshot(path=str(OUT / f"guard-score-bars-{t.lang}.png"))


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_guard_rails_and_what_choices_say_at_a_real_table(srv, browser, lang):
    t = Table(srv, browser, lang)
    ready_needs_a_confirm(t)
    t.seen({"end-turn": (asked("action_step", lambda state, seat: bool(state.rights)), end_turn_needs_a_confirm),
            "rescue": (asked("rescue", to_a_square), rescue_shows_squares),
            "scroll": (asked("scroll"), scroll_says_its_worth)})
    game_over_lets_the_screen_sleep(t)
    finale_reads_on_a_television(t)
    score_sheet_bars_read_on_a_phone(t, browser)
