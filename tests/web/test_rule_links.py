"""Rules at a tap (issue 35): every rule reference a screen draws is a link to that rule's text, and every
link answers with it, in the reader's language.

Games are played through the JSON API with random legal choices; at the points a table looks (each round's
setup and upkeep, every host question of a table draw, game over) every screen is fetched: the host page,
each phone's page, the host acting for each seat, and their news. On each, every rule ID (R-…, Q-…, C-…) the
visible text shows must sit in a rule link (`<a class="rule" href="/rules#ID">`), and each link is followed:
`/rules` holds the rule at that anchor, and `/rules/<ID>` (what a tap opens over the screen) answers 200
with that rule's title in the reader's language. The score sheet and the catalog's pages are read the same
way. The quick test plays round I of a game; the slow ones play whole games in English, French and German.
"""

from __future__ import annotations

import copy
import random
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape

from companion.catalog import shipped_catalog
from companion.rules_text import shipped
from companion.scoresheet import read_position
from companion.web.rules.routes import RULE_ID
from companion.web.score.form import sheet_query

from sheets import TWO_FIRE_TIE
from tables import ServedTable

KNOWN = set(shipped().ids)


class RuleReader(HTMLParser):
    """What a page shows of the rules: the rule links' targets, and each visible text that names a rule
    outside such a link (text in <script> and <style> is not shown)."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.bare: list[str] = []
        self.hidden = 0
        self.in_link = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style"):
            self.hidden += 1
        elif tag == "a" and "rule" in (attrs.get("class") or "").split():
            self.in_link = True
            self.links.append(attrs.get("href") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1
        elif tag == "a":
            self.in_link = False

    def handle_data(self, data):
        if self.hidden or self.in_link:
            return
        if any(m.group(1) in KNOWN for m in RULE_ID.finditer(data)):
            self.bare.append(" ".join(data.split()))


def read(html: str) -> RuleReader:
    reader = RuleReader()
    reader.feed(html)
    return reader


def test_the_reader_finds_links_and_rules_left_unlinked():
    page = ('<p>you have 0 lumber <a class="rule" href="/rules#R-BUILD-3">R-BUILD-3</a></p><p>Step 2 R-SETUP-2</p>'
            '<script>var r = "R-SETUP-3";</script><p>R-TEST-9 and XR-ACT-1 are no rules</p>')
    found = read(page)
    assert found.links == ["/rules#R-BUILD-3"] and found.bare == ["Step 2 R-SETUP-2"]


def test_every_template_draws_a_rule_through_the_one_filter():
    """No template writes a rule field or a rule's span of its own: each goes through `rule_links`, so a new
    screen citing a rule gets its link too."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    found = [f"{p.relative_to(templates)}: {m.group(0)}" for p in sorted(templates.rglob("*.html"))
             for m in re.finditer(r'class="rule"|\.rule\s*\}\}|"[RQC]-[A-Z0-9-]+"\s*\}\}', p.read_text(encoding="utf-8"))]
    assert not found, found


class Seen:
    """Every rule link met and every rule left unlinked, with the screen and moment where."""

    def __init__(self):
        self.links: dict[str, set[str]] = defaultdict(set)
        self.bare: dict[str, set[str]] = defaultdict(set)

    def look(self, where: str, html: str) -> None:
        found = read(html)
        for href in found.links:
            self.links[href].add(where)
        for text in found.bare:
            self.bare[text].add(where)

    def problems(self) -> list[str]:
        return [f"{text!r} not a link, on {[w[:60] for w in sorted(where)[:3]]}" for text, where in sorted(self.bare.items())]


def walk(client, players: int, seed: int, language: str = "en", rounds: int = 6, **options) -> Seen:
    """Play a game (up to the start of round `rounds` + 1, or its end), reading every screen at each new
    round and phase, at each host question and at the end."""
    table, rng, seen = ServedTable(client, players, seed, language, **options), random.Random(seed), Seen()
    looked = set()
    for _ in range(5000):
        st = table.state()
        point = (st["state"]["round"], st["phase"])
        who = st["pending"][0]["who"] if st["pending"] else None
        if point not in looked or who == "host" or st["phase"] == "over":
            looked.add(point)
            for screen, html in table.screens().items():
                seen.look(f"{screen}, round {point[0]} {point[1]}", html)
        if st["phase"] == "over" or point[0] > rounds or who is None:
            return seen
        table.step(rng, who)
    raise AssertionError("the game did not end")


def the_other_pages(client, seen: Seen, families: tuple[str, ...] | None = None) -> None:
    """The front page, an empty and a filled score sheet, and the catalog's pages (every family's, or these)."""
    for url in ("/", "/score", "/score?players=3&advanced=1", "/score?" + sheet_query(read_position(copy.deepcopy(TWO_FIRE_TIE["position"]),
                                                                             shipped_catalog())),
                "/catalog"):
        r = client.get(url)
        assert r.status_code == 200, url
        seen.look(url, r.get_data(as_text=True))
    catalog = client.get("/catalog").get_data(as_text=True)
    for url in sorted(set(re.findall(r'href="(/catalog/[a-z_]+)"', catalog))):
        if families is not None and url.rsplit("/", 1)[1] not in families:
            continue
        r = client.get(url)
        if r.status_code == 200 and r.mimetype == "text/html":
            seen.look(url, r.get_data(as_text=True))


def follow(client, seen: Seen, language: str) -> set[str]:
    """Each link's target: /rules holds the rule at its anchor, /rules/<ID> tells it (its title) in the
    reader's language, as the dialog's content and as a page. Returns the rules linked."""
    client.get(f"/language/{language}")
    rules = client.get("/rules")
    assert rules.status_code == 200
    page = rules.get_data(as_text=True)
    linked = set()
    for href in seen.links:
        path, _, rule = href.partition("#")
        assert path == "/rules" and rule in KNOWN, (href, sorted(seen.links[href])[:2])
        assert f'id="{rule}"' in page, rule
        title = str(escape(shipped().explain(rule, language).title))
        for headers in ({"HX-Request": "true"}, {}):
            r = client.get(f"/rules/{rule}", headers=headers)
            assert r.status_code == 200 and title in r.get_data(as_text=True), (rule, language, headers)
        linked.add(rule)
    return linked


def test_R_BUILD_3_a_game_s_first_round_and_the_other_pages_link_every_rule_they_cite(client):
    """Round I of a 3-player game (setup checklist, turns with greyed options, the upkeep) on the host and
    every phone, the front page, the score sheet (with a result) and the catalog's pages."""
    seen = walk(client, 3, seed=4, rounds=1)
    the_other_pages(client, seen, families=("hex", "boat", "register"))
    assert not seen.problems(), "\n".join(seen.problems())
    linked = follow(client, seen, "en")
    assert {"R-SETUP-1", "R-R1-2", "R-SCORE-1", "R-ADV-1"} <= linked, sorted(linked)


@pytest.mark.slow
@pytest.mark.parametrize("language, players, seed, options", [
    ("en", 3, 11, {}), ("fr", 2, 7, {"advanced": True, "draw": "table"}), ("de", 1, 3, {}),
    ("en", 4, 2, {"priority_tile": True})])
def test_whole_games_link_every_rule_reference_on_every_screen(client, language, players, seed, options):
    """Whole games to their final scoring; every link answers in the game's language."""
    seen = walk(client, players, seed, language, **options)
    the_other_pages(client, seen)
    assert not seen.problems(), "\n".join(seen.problems())
    follow(client, seen, language)
