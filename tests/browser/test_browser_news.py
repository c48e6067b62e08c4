"""A move costs what changed, in a real headless Chromium (issue 23, item 2): the host screen keeps every
region a move left alone (the same elements, with what the host did to them), its log gains the new rows
on top, every picture a new row names is drawn from the page's library, and the closed setup checklist
loads its steps when the host opens it."""

from __future__ import annotations

import pytest
from test_browser_phones import call, deciding, served_game
from test_browser_taps import shown

pytestmark = pytest.mark.slow


class Table:
    """People moving pieces: each move by whoever decides, a seat taken once by this script (a seat moved to
    another phone is news for the host's phones panel, which is not what this test watches)."""

    def __init__(self, base: str, game: dict):
        self.base, self.game, self.devices = base, game, {}

    def move(self) -> int:
        who = deciding(self.base, self.game)
        headers = {"X-Host-Token": self.game["host_token"]}
        if who == "host":
            path = f"/api/games/{self.game['id']}/host"
        else:
            path = f"/api/seats/{self.game['seats'][who]['token']}"
            if who not in self.devices:
                self.devices[who] = call(self.base, "POST", path + "/join", {})[1]["device"]
            headers["X-Seat-Device"] = self.devices[who]
        _, menu = call(self.base, "GET", path + "/menu", headers=headers)
        pick = next(o for o in menu["menu"] if o["available"])
        status, out = call(self.base, "POST", path + "/actions", {"version": menu["version"],
                                                                  "choice": pick["choice"]}, headers)
        assert status == 200, out
        return out["version"]


def test_a_move_swaps_in_only_what_changed_and_the_log_grows_on_top(srv, browser):
    game = served_game(srv.base, players=4)
    table = Table(srv.base, game)
    while len(table.devices) < 4:  # past the setup's first questions (the checklist closed), every seat taken
        version = table.move()
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(game["host_url"])
    shown(host, version)
    assert host.locator("#setup .checklist li").count() == 0  # the closed checklist's steps wait
    host.evaluate("""() => { for (const id of ["setup", "seats", "log-list"]) document.getElementById(id).kept = true;
                             document.querySelector("#seats details").open = true; }""")
    before = host.locator("#log-list li").all_inner_texts()
    while host.locator("#log-list li").count() == len(before):  # until a move writes to the log
        version = table.move()
        shown(host, version)
        host.wait_for_timeout(500)  # the answer is swapped in and settled
    # the regions the move left alone are the very elements they were, the host's opened panel still open
    assert host.evaluate("() => ['setup', 'seats', 'log-list'].map(id => document.getElementById(id).kept)") == \
        [True, True, True]
    assert host.locator("#seats details").get_attribute("open") is not None
    rows = host.locator("#log-list li").all_inner_texts()
    added = len(rows) - len(before)
    assert added > 0 and rows[added:] == before[:len(rows) - added]  # the new rows on top of the old ones
    assert len(rows) <= int(host.locator("#log-list").get_attribute("data-most"))
    # every picture the page shows is in its library, drawn (a use of a missing symbol draws nothing)
    missing = host.evaluate("""() => [...document.querySelectorAll('use')].map(u => u.getAttribute('href'))
                                     .filter(h => !document.querySelector('#pictures > symbol' + h))""")
    assert missing == []
    assert host.evaluate("() => [...document.querySelectorAll('#log-list svg.face')].every(s => "
                         "s.getBoundingClientRect().width > 0)")
    # the closed checklist loads its steps when opened, their faces too
    host.locator("#setup summary").click()
    host.wait_for_selector("#setup .checklist li")
    assert host.locator("#setup .checklist li").count() > 10
    # a finished checklist is a record (C-18): no box left to tick, and a move leaves the opened list as it is
    assert host.locator("#setup .checklist input[type=checkbox]").count() == 0
    steps = host.locator("#setup .checklist li").count()
    version = table.move()
    shown(host, version)
    host.wait_for_timeout(500)
    assert host.locator("#setup .checklist li").count() == steps
    assert host.evaluate("""() => [...document.querySelectorAll('use')].map(u => u.getAttribute('href'))
                                  .every(h => document.querySelector('#pictures > symbol' + h))""")
