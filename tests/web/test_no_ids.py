"""No internal id on any player-facing screen (issue 13): the table has no "n04", "s04" or "ws1-a3"
printed on its tiles, so no page a player reads may name a component or a place by one.

Whole seeded games are played through the JSON API with random legal choices; at points along the way
(setup, each host question of a table draw, the start of every round and its upkeep, the end) every
player-facing screen is fetched — the host page and its news, every phone's page and news, the host's
act-for-seat page and its news — and its visible text (tags and attributes stripped: what is read on
the screen, tooltips included) is searched for a catalog id as a word. A failure lists every distinct
offending text once, with the screens and points where it was seen.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from html.parser import HTMLParser

import pytest

from companion.catalog import shipped_catalog

from tables import IDS, WORD, ServedTable



class VisibleText(HTMLParser):
    """The text a page shows (and its tooltips): every text node outside <script> and <style>."""

    def __init__(self):
        super().__init__()
        self.hidden = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(" ".join(data.split()))


def offending(html: str) -> list[str]:
    """Each visible text node of `html` that holds a catalog id as a word."""
    parser = VisibleText()
    parser.feed(html)
    return [t for t in parser.texts if IDS & set(WORD.findall(t))]


def test_the_checker_finds_an_id_in_text_and_not_in_attributes():
    assert {"n04", "s04", "ws1-a3", "imp-03", "w2", "x1", "dock-ne", "boat-3", "solo-01"} <= IDS
    page = ('<div data-place="hex:n04" title="n04"><p>Matagrifone (n04)</p><script>var x = "s04";</script>'
            '<svg><title>on space s04</title><text>Giudecca</text></svg><p>n040 and xn04</p></div>')
    assert offending(page) == ["Matagrifone (n04)", "on space s04"]


VERSION = re.compile(r"\bv\d+\b")


def numbered(html: str, gid: str) -> list[str]:
    """Each visible text node of a host screen that shows a version number ("v38"), the game's id or the
    catalog's fingerprint: none is printed on the table (issue 25 item 2)."""
    parser = VisibleText()
    parser.feed(html)
    marks = (gid, shipped_catalog().fingerprint[:12])
    return [t for t in parser.texts if VERSION.search(t) or any(m in t for m in marks)]


def test_the_checker_finds_a_version_and_the_game_id():
    page = '<h1>Round I <small>v38</small></h1><p data-version="38">Game 954cd3e93190c1da</p><p>5 VP</p>'
    assert numbered(page, "954cd3e93190c1da") == ["v38", "Game 954cd3e93190c1da"]


def sweep(app, players: int, seed: int, rounds: int = 6, host_questions: int = 4, **options) -> dict:
    """Play a game (up to the start of round `rounds` + 1, or its end), checking every screen at the
    points a table looks at them; returns offending text → where it was seen."""
    table = ServedTable(app.test_client(), players, seed, **options)
    rng = random.Random(seed)
    found: dict[str, set[str]] = defaultdict(set)
    seen, asked = set(), 0
    for _ in range(5000):
        st = table.state()
        point = (st["state"]["round"], st["phase"])
        who = st["pending"][0]["who"] if st["pending"] else None
        host_asks = who == "host" and asked < host_questions
        if point not in seen or host_asks or st["phase"] == "over":
            seen.add(point)
            asked += host_asks
            where = f"round {point[0]}, {point[1]}" + (", a host question" if host_asks else "")
            for screen, html in table.screens().items():
                for text in offending(html) + (numbered(html, table.gid) if screen.startswith("host") else []):
                    found[text].add(f"{screen} ({where})")
        if st["phase"] == "over" or point[0] > rounds or who is None:
            return found
        table.step(rng, who)
    raise AssertionError("the game did not end")


def report(found: dict) -> str:
    """Every distinct offending text once, with the ids it holds and a few of the places it was seen."""
    lines = [f"{len(found)} distinct texts name an internal id:"]
    for text in sorted(found):
        ids = sorted(IDS & set(WORD.findall(text)))
        where = sorted(found[text])
        lines.append(f"- {text[:160]!r} ids {ids} on {'; '.join(where[:3])}" + (" …" if len(where) > 3 else ""))
    return "\n".join(lines)


def test_no_internal_id_on_any_screen_of_a_table_draw_setup_and_first_upkeep(app):
    """The quick variant: a 3-player table-draw game, its setup questions and round I into round II."""
    found = sweep(app, 3, 7, rounds=1, host_questions=3, draw="table")
    assert not found, report(found)


@pytest.mark.slow
@pytest.mark.parametrize("players, options", [(2, {}), (3, {"draw": "table"}), (4, {"advanced": True}),
                                              (1, {})], ids=["2p", "3p table draws", "4p advanced", "solo"])
def test_no_internal_id_on_any_screen_of_a_whole_game(app, players, options):
    found = sweep(app, players, 11, **options)
    assert not found, report(found)
