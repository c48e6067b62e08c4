"""The host screen in a real browser: from a phone's tap until the host screen shows the move.

    python bench/browser.py [--quick] [--moves 40]

One table on one real server (`python -m companion serve`): a host screen at 1280×800 and four phones at
390×844 in Debian's Chromium (Playwright, as the browser tests drive it). Whoever must decide taps the
first choosable option on their phone; the clock runs from the tap (the click as the phone's page gets it)
until the host page's question (`#poll`) carries the new version, that is until the host screen has swapped
in the move's news. Both moments are read inside the pages (`performance.timeOrigin + performance.now()`,
one clock on one machine), so Playwright's own round trips are not counted. The host's own decisions ("the
table is ready", table draws) go through the API and are not timed.

Measured twice: in round I (a fresh game, the phones joined from the start) and late in the game (a game
played through the API to round VI, then opened on the phones and the host screen), since the host screen
grows with the log. Target (issue 23): p95 <= 150 ms at round VI on this box. `--quick` makes a few
taps of each to prove the benchmark still runs (CI), and judges no timing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402  (a test dependency, as for the browser tests)
from server import Server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
           {"name": "Chiara", "colour": "blue"}, {"name": "Dario", "colour": "green"}]
CHOOSABLE = "#menu form button.option:not([disabled])"


def call(base: str, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


class Game:
    """One game through the API: who decides, and a move by whoever it is (the host's, or a seat's while
    no phone holds it: the script takes the seat, as a phone scanning its code would)."""

    def __init__(self, base: str, seed: int):
        self.base = base
        status, self.data = call(base, "POST", "/api/games", {"players": PLAYERS, "seed": seed})
        assert status == 201, self.data
        self.host = {"X-Host-Token": self.data["host_token"]}
        self.devices: dict[int, str] = {}

    def state(self) -> dict:
        return call(self.base, "GET", f"/api/games/{self.data['id']}/state", headers=self.host)[1]

    def deciding(self):
        pending = self.state()["pending"]
        return pending[0]["who"] if pending else None

    def move(self, who) -> int:
        headers = dict(self.host)
        if who == "host":
            path = f"/api/games/{self.data['id']}/host"
        else:
            path = f"/api/seats/{self.data['seats'][who]['token']}"
            if who not in self.devices:
                self.devices[who] = call(self.base, "POST", path + "/join", {})[1]["device"]
            headers["X-Seat-Device"] = self.devices[who]
        _, menu = call(self.base, "GET", path + "/menu", headers=headers)
        pick = next(o for o in menu["menu"] if o["available"])
        status, out = call(self.base, "POST", path + "/actions", {"version": menu["version"],
                                                                  "choice": pick["choice"]}, headers)
        assert status == 200, out
        return out["version"]

    def play_to_round(self, round_: int) -> None:
        """Through the API, until round `round_` has begun and a seat must decide."""
        while True:
            state = self.state()
            if state["state"]["round"] >= round_ and state["phase"] == "play" and state["pending"] \
                    and state["pending"][0]["who"] != "host":
                return
            self.move(state["pending"][0]["who"])


def open_table(browser, game: Game):
    """The host screen and the four phones, each phone joined by its seat's link (as scanning its code)."""
    host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    host.goto(game.base + f"/host/{game.data['id']}?key={game.data['host_token']}")
    host.wait_for_selector("#poll", state="attached")
    phones = []
    for seat in game.data["seats"]:
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        page.goto(game.base + f"/j/{seat['token']}")
        page.wait_for_selector("#menu", state="attached")
        phones.append(page)
    game.devices.clear()  # the phones hold the seats now
    host.evaluate("() => { window.before = Infinity; }")
    host.evaluate(SHOWN_CLOCK)
    for page in phones:
        page.evaluate(CLICK_CLOCK)
    return host, phones


#: the moment of each page's click, read in the page (capture phase: before htmx sends the tap)
CLICK_CLOCK = """() => document.addEventListener('click', () => {
    window.tapped = window.tapped || performance.timeOrigin + performance.now(); }, {capture: true})"""
#: the moment the host's question first carries a version past `window.before` (a swap of #poll)
SHOWN_CLOCK = """() => new MutationObserver(() => {
    const poll = document.querySelector('#poll');
    if (!window.shown && poll && +poll.dataset.version > window.before)
      window.shown = performance.timeOrigin + performance.now();
  }).observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['data-version']})"""


def timed_taps(game: Game, host, phones, taps: int) -> list[float]:
    """`taps` taps on the deciding phone, each timed until the host screen shows its move."""
    out: list[float] = []
    while len(out) < taps:
        who = game.deciding()
        if who is None:
            break
        if who == "host":
            version = game.move("host")
            host.wait_for_function(f"() => +document.querySelector('#poll').dataset.version >= {version}")
            continue
        phone, before = phones[who], game.state()["version"]
        phone.wait_for_function(f"() => +document.querySelector('#poll').dataset.version >= {before}")
        host.wait_for_function(f"() => +document.querySelector('#poll').dataset.version >= {before}")
        phone.evaluate("() => { window.tapped = null; }")
        host.evaluate("(v) => { window.before = v; window.shown = null; }", before)
        phone.locator(CHOOSABLE).first.click()
        host.wait_for_function("() => window.shown", timeout=30_000)
        out.append((host.evaluate("() => window.shown") - phone.evaluate("() => window.tapped")) / 1000)
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def report(label: str, times: list[float], target: str = "") -> None:
    if not times:
        print(f"| {label} | 0 | – | – | – | {target} |")
        return
    ms = [t * 1000 for t in times]
    print(f"| {label} | {len(ms)} | {statistics.median(ms):.0f} | {pct(ms, 0.9):.0f} | {pct(ms, 0.95):.0f} | "
          f"{target} |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a few taps, to prove it runs (no timing judged)")
    ap.add_argument("--moves", type=int, default=40, help="timed taps at each point of the game")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    taps = 3 if args.quick else args.moves
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "instance") as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        first = Game(srv.base, args.seed)
        first.move("host")  # the table is ready: round I's first turn (C-18)
        host, phones = open_table(browser, first)
        early = timed_taps(first, host, phones, taps)
        late_game = Game(srv.base, args.seed + 1)
        late_game.play_to_round(6)
        host, phones = open_table(browser, late_game)
        late = timed_taps(late_game, host, phones, taps)
        browser.close()
    print("tap on a phone → the host screen shows the move (Chromium, one table of a host and four phones)\n")
    print("| point of the game | taps | p50 ms | p90 ms | p95 ms | target |")
    print("|---|---:|---:|---:|---:|---|")
    report("round I", early)
    report("round VI", late, "p95 ≤ 150 ms" + (f": {'met' if pct(late, .95) <= .150 else 'not met'}" if late else ""))
    if len(early) < taps or len(late) < taps:
        print("\nfailed: the game ended before every tap was made", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
