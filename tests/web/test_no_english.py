"""No English left behind (issue 15 item 4; tests/architecture/test_catalogs.py checks each translation): the catalog
template is the one the code gives today, and every screen of whole seeded games (the host, each
phone, the upkeep hold, table-draw decisions, the catalog check page, final scoring, refusals, the
problems of a refused or broken catalog correction) reads in French and in German with no English
sentence in it beyond names, file paths and rule IDs."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.catalog.corrections import shipped_ids, shipped_record
from companion.catalog.write import toml_text
from companion.web import TRANSLATIONS
from companion.web.catalog.screen import FAMILY_NAMES
from tables import act_once, form_of, translated, translated_app

ROOT = Path(__file__).resolve().parents[2]
POT = TRANSLATIONS / "messages.pot"
LANGS = ("fr", "de")
#: words that give an English sentence away: none is a French or a German word ("coin(s)" is, a corner)
ENGLISH = re.compile(r"\b(the|and|your|you|with|which|where|from|this|that|have|has|of|to|is|are|for|not|"
                     r"nothing|takes|turn|round|each|every|back|here|there|"
                     r"VP|lumber|fire|stones|spices|silk|upgraded|overseers?|workshops?|improvements?|"
                     r"nuns?|craftsm[ae]n|aristocrats?|wagons?|boats?|plague|harbou?r|players?)\b", re.I)
RULE_ID = re.compile(r"\b[A-Z]{1,4}(?:-[A-Z0-9]+)+\b")
#: a catalog file a problem names, as code names it in every language; stripped like a rule ID because a
#: test's folder ("/tmp/pytest-of-root/…") holds words of the English list
TOML_PATH = re.compile(r"(?:[\w.-]*/)+[\w.-]+\.toml\b")
NAMES = ("Ada", "Bruno", "Chiara", "Messina 1347", "English", "Français", "Deutsch")


def catalog(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def test_the_template_holds_exactly_what_the_code_says_today(tmp_path):
    """A new string that was never extracted would show in English whatever the catalogs hold."""
    fresh = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "_",
                    "-k", "T", "-k", "N:1,2", "-o", str(fresh), "."], cwd=ROOT, check=True, capture_output=True)
    ids = {}
    for path in (POT, fresh):
        with open(path, "rb") as f:
            ids[path] = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    assert ids[fresh] - ids[POT] == set(), "strings the code has but messages.pot lacks: extract and update"
    assert ids[POT] - ids[fresh] == set(), "messages.pot holds strings the code no longer has: extract and update"
    for lang in LANGS:
        held = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog(lang) if m.id}
        assert held >= ids[fresh], f"the {lang} catalog lacks strings of the template: pybabel update"


# --- whole games, read in each language --------------------------------------------------------------

class Visible(HTMLParser):
    """What a reader sees: text outside tags (SVG labels included), without scripts and styles, plus
    the titles and labels a screen reader or a hover shows."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style") or _grammar(tag, attrs)
        self.parts += [v for k, v in attrs if k in ("title", "aria-label", "placeholder", "alt") and v]

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style", "code") and self._skip > 0

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data)


def _grammar(tag: str, attrs) -> bool:
    """The catalog's reward grammar ("1 coin and 1 lumber") is the same in every language, as rule IDs are."""
    return tag == "code" and ("class", "grammar") in attrs


def english_in(html: str, lang: str = "") -> list[str]:
    """English lines; on a French screen also a colon stuck to its word ("par cube: 1" is "par cube : 1")."""
    parser = Visible()
    parser.feed(html)
    found = []
    for part in parser.parts:
        text = TOML_PATH.sub(" ", RULE_ID.sub(" ", part))
        for name in NAMES:
            text = text.replace(name, " ")
        if ENGLISH.search(text) or (lang == "fr" and FRENCH_COLON.search(text)):
            found.append(part.strip()[:160])
    return found


FRENCH_COLON = re.compile(r"\w:(\s|$)")


@pytest.fixture
def app_config(tmp_path) -> dict:
    return translated(tmp_path)


class Table:
    """A game read by a host screen and one phone per seat, every screen in `lang`."""

    def __init__(self, app, lang: str, seats: int = 3, **options):
        self.app, self.lang = app, lang
        self.api = app.test_client()
        players = [{"name": n, "colour": c} for n, c in (("Ada", "red"), ("Bruno", "yellow"), ("Chiara", "blue"))][:seats]
        self.game = self.api.post("/api/games", json={"players": players, "seed": 7, **options}).get_json()
        for s in self.game["seats"]:
            s["device"] = self.api.post(f"/api/seats/{s['token']}/join", json={}).get_json()["device"]
        self.screens = {"host": self._device()}
        r = self.screens["host"].get(f"/host/{self.game['id']}?key={self.game['host_token']}")
        assert r.status_code == 303
        for i, s in enumerate(self.game["seats"]):
            phone = self.screens[i] = self._device()
            phone.set_cookie(f"seat_{s['token']}", s["device"])
        self.english: dict[str, str] = {}

    def _device(self):
        device = self.app.test_client()
        device.get(f"/language/{self.lang}")
        return device

    def look(self, when: str) -> None:
        """Every screen as it is now; each English line found is kept with where it was seen."""
        pages = {"host": self.screens["host"].get(f"/host/{self.game['id']}")}
        for i, s in enumerate(self.game["seats"]):
            pages[f"phone {i}"] = self.screens[i].get(f"/seat/{s['token']}")
        for who, r in pages.items():
            assert r.status_code == 200, (who, r.status_code)
            for line in english_in(r.get_data(as_text=True), self.lang):
                self.english.setdefault(line, f"{who}, {when}")

    def state(self) -> dict:
        return self.api.get(f"/api/games/{self.game['id']}/state",
                            headers={"X-Host-Token": self.game["host_token"]}).get_json()

    def play(self, rng: random.Random, until=lambda st: st["phase"] == "over", limit: int = 3000) -> dict:
        seen = set()
        for _ in range(limit):
            st = self.state()
            moment = (st["state"]["round"], st["phase"], tuple(q["kind"] for q in st["pending"]))
            if moment not in seen:  # every kind of question, every phase, once per round
                seen.add(moment)
                self.look(f"round {st['state']['round']}, {st['phase']}, asked {moment[2]}")
            if until(st):
                return st
            act_once(self.api, self.game, rng, st)
        raise AssertionError("the game did not get there")


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_game_reads_without_english(app, lang):
    table = Table(app, lang)
    table.play(random.Random(3))
    table.look("final scoring")
    assert not table.english, _report(table.english, lang)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_table_draws_solo_and_refusals_read_without_english(app, lang):
    solo = Table(app, lang, seats=1, advanced=True)
    solo.play(random.Random(2), until=lambda st: st["state"]["round"] >= 3)
    table = Table(app, lang, draw="table")
    table.play(random.Random(5), until=lambda st: st["state"]["round"] >= 3)
    table.english.update(solo.english)
    host = table.screens["host"]
    for path in ("/catalog", "/join", "/", "/seat/not-a-seat", f"/host/{table.game['id']}/export.json", "/no-such-page"):
        r = host.get(path)
        for line in english_in(r.get_data(as_text=True), lang) if "html" in r.content_type else []:
            table.english.setdefault(line, path)
    r = host.post(f"/host/{table.game['id']}/decide", data={"csrf": "forged", "version": "0", "choice": "0"})
    assert r.status_code in (400, 403, 409)
    for line in english_in(r.get_data(as_text=True), lang):
        table.english.setdefault(line, "a forged tap")
    assert not table.english, _report(table.english, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_page_and_correction_form_reads_without_english(app, lang):
    """Each family and each record as the admin sees it (values in words, the correction form's fields and
    choices), and a refused correction: no English, and numbers written the reader's way (0,5)."""
    reader = app.test_client()
    reader.get(f"/language/{lang}")
    assert reader.get(f"/catalog?key={app.extensions['catalog_admin']}").status_code == 303
    english: dict[str, str] = {}
    paths = ["/catalog", "/catalog/changes"] + [f"/catalog/{family}" for family in FAMILY_NAMES] + \
        [f"/catalog/{family}/{rid}" for family in FAMILY_NAMES for rid in shipped_ids(family)]
    pages = {path: reader.get(path) for path in paths}
    csrf = re.search(r'name="csrf" value="([^"]+)"', pages["/catalog/hex/n04"].get_data(as_text=True)).group(1)
    refused = reader.post("/catalog/hex/n04", data={"csrf": csrf, "repop_vp": "seven"})
    assert refused.status_code == 400
    for path, r in {**pages, "a refused correction": refused}.items():
        assert r.status_code in (200, 400), path
        html = r.get_data(as_text=True)
        for line in english_in(html, lang) + [f"decimal point: {n}" for n in DECIMAL_POINT.findall(visible(html))]:
            english.setdefault(line, path)
    assert "n04" not in visible(refused.get_data(as_text=True))
    assert not english, _report(english, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_problems_of_a_refused_or_broken_correction_read_without_english(monkeypatch, tmp_path, lang):
    """What the loader says when it refuses a change (a third B hex, R-SETUP-2/3), an imported file (one
    the merge refuses, one whose records do not build) or the corrections already in the instance's file
    (a host screen's notice, the new-game page): every problem in the reader's words; file paths, families,
    ids, field names and rule IDs stay as the catalog writes them."""
    monkeypatch.delenv("MESSINA_CATALOG")  # this instance's own corrections file (conftest points at none)
    app = translated_app(tmp_path)
    reader = app.test_client()
    reader.get(f"/language/{lang}")
    assert reader.get(f"/catalog?key={app.extensions['catalog_admin']}").status_code == 303
    csrf = re.search(r'name="csrf" value="([^"]+)"', reader.get("/catalog").get_data(as_text=True)).group(1)
    pages = {"a third B hex": reader.post("/catalog/hex/n16", data=form_of(reader, "hex", "n16") | {
        "class": "B", "csrf": csrf})}
    for name, data in BROKEN_IMPORTS.items():
        pages[name] = reader.post("/catalog/import", data={"csrf": csrf, "corrections": (io.BytesIO(data), "c.toml")},
                                  content_type="multipart/form-data")
    assert all(r.status_code == 400 and 'class="problems"' in r.get_data(as_text=True) for r in pages.values())
    assert not app.extensions["catalog_file"].exists()  # nothing refused was written
    app.extensions["catalog_file"].write_text(toml_text({"hex": [_changed("n04", repop_vp="seven")]}))
    table = Table(app, lang)
    table.look("with broken corrections")
    host = table.screens["host"]
    pages |= {"/": host.get("/"), "/catalog": host.get("/catalog"), "host": host.get(f"/host/{table.game['id']}")}
    english = dict(table.english)
    for where, r in pages.items():
        html = r.get_data(as_text=True)
        named = NAMED_ON_ITS_PAGE.get(where, {}).get(lang, NAMED[where])
        assert named in visible(html), where  # the problem, naming its record, is on the page
        for line in english_in(html, lang):
            english.setdefault(line, where)
    assert not english, _report(english, lang)


def _changed(rid: str, **values) -> dict:
    return shipped_record("hex", rid) | values


#: corrections files the loader refuses: at the merge (no such family's table, a record with no id, an id
#: the shipped catalog lacks), and while building records (a class that is no class, a reward that is no
#: reward: the grammar's own problem nested in the field's)
BROKEN_IMPORTS = {
    "an import the merge refuses": b'dock = 3\n[[hex]]\nid = "n99"\n[[hex]]\nname = "no id"\n',
    "an import whose records do not build": toml_text({"hex": [_changed("n16", **{"class": "D"}),
                                                                _changed("n04", action="2 gold")]}).encode(),
}
#: the record each page's problems name (the instance's broken file corrects n04)
NAMED = {"a third B hex": "n16", "an import the merge refuses": "n99", "an import whose records do not build": "n16",
         "/": "n04", "/catalog": "n04", "host": "n04"}
#: a refusal on /catalog names a record as the box does (issue 21: never by its file, nor by its id)
NAMED_ON_ITS_PAGE = {"a third B hex": {"fr": "Hexagone 16", "de": "Hexfeld 16"},
                     "an import whose records do not build": {"fr": "Hexagone 16", "de": "Hexfeld 16"}}


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return RULE_ID.sub(" ", " ".join(parser.parts))


DECIMAL_POINT = re.compile(r"\d\.\d")  # French and German write 0,5


def _report(english: dict, lang: str) -> str:
    lines = "\n".join(f"  [{where}] {line}" for line, where in list(english.items())[:40])
    return f"{len(english)} English lines on {lang} screens:\n{lines}"
