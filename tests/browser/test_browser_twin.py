"""The table's twin in a real headless Chromium (issue 33, Done when): a host at 1280×800 and phones at 390×844.
Right after a tap, what it did to the shared pieces is at the top of the host screen — a Build's tile turned up,
a citizen rescued into a cabin, a lieutenant taken from the supply — and the seat's own acts on its phone; the
solo opponent's turn is a list on the host that holds the player's next turn until the host says the table has
done it (C-23); at setup step 1 the map shows no cube and no citizen (item 5). Screenshots of each, in English,
French and German, in test-output/twin-<what>-<lang>.png.

Moves other than the tap looked at are made through the JSON API as the phones the browsers hold, so the test
stays within minutes."""

from __future__ import annotations

import random

import pytest
from test_browser import OUT
from test_browser_phones import call

from companion.simulate import POLICIES

pytestmark = pytest.mark.slow

HOST = {"width": 1280, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE"}
TAP = "#menu button.option:not([disabled])"


class Table:
    """A game on a host screen (and the host screen again in French and German) and its phones."""

    def __init__(self, base: str, browser, players: list[tuple[str, str]], seed: int):
        self.base, self.browser = base, browser
        status, self.game = call(base, "POST", "/api/games", {
            "players": [{"name": n, "colour": c} for n, c in players], "seed": seed})
        assert status == 201, self.game
        self.gid, self.key = self.game["id"], self.game["host_token"]
        self.hosts = {lang: self._host(locale) for lang, locale in LOCALES.items()}
        self.host = self.hosts["en"]
        self.phones, self.devices = [], []
        for seat in self.game["seats"]:
            context = browser.new_context(**PHONE, locale=LOCALES["en"])
            page = context.new_page()
            page.goto(seat["join_url"])
            page.wait_for_selector("#seat_status")
            self.phones.append(page)
            self.devices.append(next(c["value"] for c in context.cookies() if c["name"] == f"seat_{seat['token']}"))
        self.policy = POLICIES["eager"](random.Random(seed))

    def _host(self, locale: str):
        page = self.browser.new_context(viewport=HOST, locale=locale).new_page()
        page.goto(self.game["host_url"])
        page.wait_for_selector("#moment")
        return page

    def state(self) -> dict:
        return call(self.base, "GET", f"/api/games/{self.gid}/state", headers={"X-Host-Token": self.key})[1]

    def _path(self, who) -> tuple[str, dict]:
        headers = {"X-Host-Token": self.key}
        if who == "host":
            return f"/api/games/{self.gid}/host", headers
        headers["X-Seat-Device"] = self.devices[who]
        return f"/api/seats/{self.game['seats'][who]['token']}", headers

    def menu(self, who) -> dict:
        path, headers = self._path(who)
        status, menu = call(self.base, "GET", path + "/menu", headers=headers)
        assert status == 200, menu
        return menu

    def tap(self, who, choice: int, version: int) -> dict:
        path, headers = self._path(who)
        status, out = call(self.base, "POST", path + "/actions", {"version": version, "choice": choice}, headers)
        assert status == 200, out
        return out

    def move(self, st: dict) -> tuple[int, list]:
        """One move by whoever decides now, as the simulations' eager player would (it climbs, builds and takes
        lieutenants: what this test looks at); (the new version, the log entries it added)."""
        who = st["pending"][0]["who"]
        menu = self.menu(who)
        pick = self.policy(None, who, menu["menu"])
        version = self.tap(who, pick["choice"], menu["version"])["version"]
        return version, self.state()["state"]["log"][len(st["state"]["log"]):]

    def shows(self, page, version: int) -> None:
        page.wait_for_function(f"() => +document.querySelector('#poll')?.dataset.version >= {version}", timeout=20_000)

    def shots(self, what: str, version: int) -> None:
        OUT.mkdir(exist_ok=True)
        for lang, page in self.hosts.items():
            self.shows(page, version)
            page.evaluate("window.scrollTo(0, 0)")  # the first viewport: what the table sees at a glance
            page.screenshot(path=str(OUT / f"twin-{what}-{lang}.png"))


def at_the_top(page, text: str) -> None:
    """`text` is in the host's moment, and the moment's held acts are in the first viewport."""
    moment = page.locator("#moment")
    assert text in moment.inner_text(), moment.inner_text()[:600]
    box = page.locator("#moment .held").bounding_box()
    assert box and box["y"] < HOST["height"] / 2, box
    crop, whole = page.locator("#moment .moment-crop").first.bounding_box(), moment.bounding_box()
    assert crop is None or crop["width"] >= 0.4 * whole["width"], (crop, whole)  # item 5: read across the table


def test_a_turns_acts_on_the_shared_pieces_show_at_the_top_of_the_host(srv, browser):
    t = Table(srv.base, browser, [("Ada", "red"), ("Bruno", "yellow"), ("Chiara", "blue")], seed=7)
    st = t.state()
    t.tap("host", 0, st["version"])  # C-18: the table is ready
    seen = set()
    for _ in range(3000):
        st = t.state()
        if st["phase"] == "over" or seen == {"build", "rescue", "lieutenant"}:
            break
        who = st["pending"][0]["who"]
        if who != "host" and "build" not in seen and st["phase"] == "play":
            menu = t.menu(who)
            builds = [o for o in menu["menu"] if o["available"] and isinstance(o["value"], dict)
                      and o["value"].get("build") == "workshop"]
            if builds:  # a Build, tapped on the phone itself: the tile turned up is at the top of the host
                phone = t.phones[who]
                t.shows(phone, menu["version"])
                phone.locator(TAP, has_text=builds[0]["label"].split(" costing")[0]).first.click()
                t.shows(t.host, menu["version"] + 1)
                if t.state()["pending"][0]["who"] == "host":  # the table draws: wait for nothing, it is app draws
                    continue
                at_the_top(t.host, "face up on top of the")  # the companion drew it: find it and lay it up (C-22)
                assert "On the table" in phone.locator("#seat_told").inner_text(), "its own estate, on its phone"
                t.shots("build", menu["version"] + 1)
                seen.add("build")
                continue
        version, added = t.move(st)
        rules = {e.get("rule") for e in added}
        if "R-TURN-RESCUE-3" in rules and "rescue" not in seen and any("quarantine" in e["text"] for e in added):
            t.shows(t.host, version)
            at_the_top(t.host, "space I")
            t.shots("rescue", version)
            seen.add("rescue")
        if "lieutenant" not in seen and any("takes a lieutenant from the supply" in e["text"] for e in added):
            t.shows(t.host, version)
            at_the_top(t.host, "in the supply")
            t.shots("lieutenant", version)
            seen.add("lieutenant")
    assert seen == {"build", "rescue", "lieutenant"}, seen


def test_C_22_the_solo_opponents_turn_holds_the_players_next_turn_until_the_host_says_it_is_done(srv, browser):
    t = Table(srv.base, browser, [("Ada", "red")], seed=5)
    st = t.state()
    t.tap("host", 0, st["version"])
    for _ in range(200):
        st = t.state()
        if st["pending"][0]["kind"] == "opponent_done":
            break
        t.move(st)
    else:
        raise AssertionError("the opponent never moved")
    phone, host = t.phones[0], t.host
    t.shows(host, st["version"])
    t.shows(phone, st["version"])
    assert phone.locator(TAP).count() == 0, "your next turn waits for the table"
    moment = host.locator("#moment").inner_text()
    assert "The opponent's turn" in moment and ("Opponent reveals" in moment or "loses this turn" in moment)
    assert host.locator("#moment .held-acts li").count() >= 1
    t.shots("opponent", st["version"])
    host.locator("#decide button", has_text="The opponent's turn is done on the table").click()
    t.shows(phone, st["version"] + 1)
    phone.wait_for_selector(TAP, timeout=20_000)  # now the turn is offered


def test_the_setup_map_at_step_1_shows_no_cube_and_no_citizen(srv, browser):
    t = Table(srv.base, browser, [("Ada", "red"), ("Bruno", "yellow"), ("Chiara", "blue")], seed=7)
    host = t.host
    assert host.locator("#moment .step-count").inner_text().startswith("Step 1 of")
    assert host.locator("#city g.cubes").count() == 0
    assert host.locator("#city g.citizens[data-count]:not([data-count='0'])").count() == 0
    assert host.locator("#city g.boat").count() == 0
    t.shots("setup-step-1", 0)
    # the first step that places something shows its place cut out of the map, at least 40 % of the moment wide
    while not host.locator("#moment .moment-crop").count():
        before = host.locator("#moment .step-count").inner_text()
        host.locator("#moment button.done").click()
        host.wait_for_function("(b) => document.querySelector('#moment .step-count')?.innerText !== b", arg=before,
                               timeout=20_000)
    crop, whole = host.locator("#moment .moment-crop").bounding_box(), host.locator("#moment").bounding_box()
    assert crop["width"] >= 0.4 * whole["width"], (crop, whole)
    t.shots("setup-crop", 0)
    # once the table has done every step, the map is the table as set up: cubes and citizens on it
    while host.locator("#moment button.done").count():
        before = host.locator("#moment .step-count").inner_text()
        host.locator("#moment button.done").click()
        host.wait_for_function("(b) => document.querySelector('#moment .step-count')?.innerText !== b", arg=before,
                               timeout=20_000)
    assert host.locator("#city g.cubes").count() > 0
    assert host.locator("#city g.citizens[data-count]:not([data-count='0'])").count() > 0
