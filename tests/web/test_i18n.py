"""Translations: the engine writes English through `T` (companion/words.py) and keeps each
template with its values, so the web layer can show the same text in French or German. The English
itself never changes (tests/engine/test_golden.py pins it word for word)."""

from __future__ import annotations

import copy
import json
import pickle
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.catalog import parse_citizens, shipped_catalog
from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.engine.describe import tile_text
from companion.words import Plural, Text, from_plain, joined, put_text, stored_keys
from companion.simulate import play_game
from companion.web import TRANSLATIONS, create_app
from companion.web.translate import compile_catalogs, request_gettext
from companion.words import tr
from scenario import table_ready
from tables import JOINED, POT, api_table_ready, page, templates_in

ROOT = Path(__file__).resolve().parents[2]
FR_PO = ROOT / "companion" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"


def stored_texts(state):
    """Every (english, stored text {"msg", "args", "plural"?}) the state keeps: log, setup steps, upkeep
    report, open questions and their menus, scoring lines."""
    out = []

    def add(d, key):
        names = stored_keys(key)
        if names[0] in d:
            out.append((d[key], {k: d[n] for k, n in zip(("msg", "args", "plural"), names) if n in d}))

    for e in state.log + state.setup_steps + state.report:
        add(e, "text")
    for q in pending(state):
        add(q, "prompt")
        for o in legal_actions(state, q["who"]):
            for key in ("label", "reason", "cost"):
                add(o, key)
    if state.scoring:
        add(state.scoring, "tiebreak")
        for x in state.scoring["seats"]:
            for ln in x["lines"]:
                add(ln, "label")
                add(ln, "detail")
    return out


# --- the engine side ---------------------------------------------------------------------------------

def test_text_is_the_english_string_and_keeps_template_and_values():
    inner = Text("{n} coins", n=2)
    t = Text("{who} takes {what}.", who="Ada (R)", what=inner)
    assert t == "Ada (R) takes 2 coins." and isinstance(t, str)
    assert t.msg == "{who} takes {what}."
    assert t.args == {"who": "Ada (R)", "what": {"msg": "{n} coins", "args": {"n": 2}}}
    assert json.loads(json.dumps(t.args)) == t.args  # plain JSON data
    assert from_plain({"msg": t.msg, "args": t.args}) == t
    for twin in (copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert twin == t and twin.msg == t.msg and twin.args == t.args


def test_keep_stores_plain_english_beside_the_template():
    entry = put_text({}, "text", Text("Round {round} begins.", round="II"))
    assert entry == {"text": "Round II begins.", "msg": "Round {round} begins.", "args": {"round": "II"}}
    assert type(entry["text"]) is str
    opt = put_text({}, "label", Text("End your turn"))
    assert opt == {"label": "End your turn", "label_msg": "End your turn", "label_args": {}}
    assert put_text({}, "label", "2 coins") == {"label": "2 coins"}  # text without a template stays as it was
    assert joined(["nun", Text("the opponent")], "; ") == "nun; the opponent"


def test_log_option_and_prompt_carry_their_templates():
    state = table_ready(new_game(options_for(3), 7, shipped_catalog()))
    q = pending(state)[0]
    name = state.seats[q["who"]].name
    assert q["prompt"] == f"{name}, your turn: where does a lieutenant go?"
    assert q["prompt_msg"] == "{name}, your turn: where does a lieutenant go?" and q["prompt_args"] == {"name": name}
    menu = legal_actions(state, q["who"])
    recall = menu[-1]
    assert recall["label"] == recall["label_msg"] == "Recall a lieutenant to your estate and take 1 coin"
    assert any(o.get("cost_msg") == "free" for o in menu)
    steps = {s["msg"]: s for s in state.setup_steps}
    wheel = steps["Put the population wheel within reach, turned to the {window}."]
    assert wheel["text"] == from_plain({"msg": wheel["msg"], "args": wheel["args"]})
    assert wheel["args"]["window"]["args"]["face"].startswith("wheel:")  # the web draws the window named
    _, events = apply(state, recall["action"])
    assert events[0]["msg"] == "{who} recalls a lieutenant to the estate and takes 1 coin."
    assert events[0]["text"] == from_plain({"msg": events[0]["msg"], "args": events[0]["args"]})
    assert events[0]["args"]["who"]["msg"].startswith("{name} (")  # the colour's letter, per language


@pytest.mark.slow
def test_every_stored_template_rebuilds_its_english_and_survives_json():
    """Across whole games (solo, advanced, table draws) the template filled with its values is the
    English, and a saved game keeps both."""
    seen = 0
    for players, kw in ((1, {}), (2, {"advanced": True}), (4, {"draw": "table", "priority_tile": True})):
        checked = []

        def check(state, q, menu, picked, events, checked=checked):
            checked.extend(stored_texts(state))

        played = play_game(players, seed=3, on_decision=check, **kw)
        checked.extend(stored_texts(played.state))
        assert played.state.scoring["seats"][0]["lines"][0]["label_msg"] == "VP scored during the game"
        saved = json.loads(json.dumps(played.state.to_dict()))
        assert [e.get("msg") for e in saved["log"]] == [e.get("msg") for e in played.state.log]
        for english, stored in checked:
            assert from_plain(stored) == english, stored["msg"]
        seen += len(checked)
    assert seen > 1000


def test_catalog_template_holds_every_engine_template():
    """messages.pot is extracted with `T` as a keyword (babel.cfg); rerun the command in
    docs/ARCHITECTURE.md after changing engine text."""
    with POT.open("rb") as f:
        ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(f) if m.id}  # plurals: (one, many)
    played = play_game(3, seed=11)
    msgs = {m for _, stored in stored_texts(played.state) for m in templates_in(stored)}
    for e in played.state.log:
        if "msg" in e:
            msgs.update(templates_in(e))
    missing = sorted(m for m in msgs if m not in ids and not JOINED.match(m))
    assert not missing, missing
    assert {"End your turn", "{name}, your turn: where does a lieutenant go?", "aristocrat"} <= ids


# --- the web side ------------------------------------------------------------------------------------

FAKE_FR = {"{who} takes {what}.": "{who} prend {what}.", "{n} coins": "{n} pièces", "nun": "religieuse",
           "Put 1 {cls} on each {colour} hex: {hexes}.": "Placez 1 {cls} sur chaque hexagone {colour} : {hexes}.",
           "broken {x}": "cassé {y}", "Build nothing": "Ne rien construire"}


def fake(s):
    return FAKE_FR.get(s, s)


def test_tr_translates_template_then_values_recursively():
    entry = put_text({}, "text", Text("{who} takes {what}.", who="Ada (R)", what=Text("{n} coins", n=2)))
    assert tr(entry, "text", fake) == "Ada (R) prend 2 pièces."
    step = put_text({}, "text", Text("Put 1 {cls} on each {colour} hex: {hexes}.", cls="nun", colour="orange",
                                     hexes="Giudecca (n01)"))
    assert tr(step, "text", fake) == "Placez 1 religieuse sur chaque hexagone orange : Giudecca (n01)."
    assert tr({"label": "Build nothing"}, "label", fake) == "Ne rien construire"  # no template: whole text
    assert tr(put_text({}, "text", Text("broken {x}", x=1)), "text", fake) == "broken 1"  # bad translation: English
    assert tr(None) == "" and tr({"reason": None}, "reason", fake) == ""


def test_a_phrase_with_a_count_keeps_both_forms_and_english_picks_by_the_count():
    one, two = Plural("{n} coin", "{n} coins", n=1), Plural("{n} coin", "{n} coins", n=2)
    assert (one, two) == ("1 coin", "2 coins") and one.msg == two.msg == "{n} coin" and two.plural == "{n} coins"
    entry = put_text({}, "cost", two)
    assert entry == {"cost": "2 coins", "cost_msg": "{n} coin", "cost_args": {"n": 2}, "cost_plural": "{n} coins"}
    nested = Text("{who} takes {what}.", who="Ada (R)", what=two)
    assert nested.args["what"] == {"msg": "{n} coin", "args": {"n": 2}, "plural": "{n} coins"}
    assert from_plain({"msg": nested.msg, "args": nested.args}) == "Ada (R) takes 2 coins."
    assert pickle.loads(pickle.dumps(two)).plural == "{n} coins"
    assert tr(entry, "cost", fake) == "2 pièces" and tr(put_text({}, "cost", one), "cost", fake) == "1 coin"  # no ngettext


def test_the_french_catalog_has_both_forms_of_a_phrase_with_a_count(french_app):
    with french_app.test_request_context("/", headers={"Accept-Language": "fr"}):
        assert tr(put_text({}, "cost", Plural("{n} coin", "{n} coins", n=1)), "cost", request_gettext) == "1 pièce"
        assert tr(put_text({}, "cost", Plural("{n} coin", "{n} coins", n=3)), "cost", request_gettext) == "3 pièces"
        cubes = Text("{what}", what=Plural("{label}; {n} plague cube", "{label}; {n} plague cubes", n=2, label="x"))
        assert tr(put_text({}, "text", cubes), "text", request_gettext) == "x ; 2 cubes peste"  # the rulebook's "cube peste"


def test_R_REPOP_5_citizens_a_repopulation_needs_read_with_their_own_plurals(french_app):
    """Each class has its own phrase, so "upgraded" and the class agree with the count in every language."""
    needs = parse_citizens("2 craftsman and 1 upgraded nun and 2 upgraded aristocrat")
    assert [str(n.text()) for n in needs] == ["2 craftsmen", "1 upgraded nun", "2 upgraded aristocrats"]
    said = {}
    for lang in ("fr", "de"):
        with french_app.test_request_context("/", headers={"Accept-Language": lang}):
            said[lang] = [tr(put_text({}, "text", n.text()), "text", request_gettext) for n in needs]
    assert said["fr"] == ["2 artisans", "1 nonne améliorée", "2 aristocrates améliorés"]
    assert said["de"] == ["2 Handwerker", "1 aufgewertete Nonne", "2 aufgewertete Aristokraten"]


def test_R_BUILD_3_an_improvement_for_one_class_names_that_class_in_the_plural():
    state = new_game(options_for(3), 7, shipped_catalog())
    only = {i.cls: tile_text(state, rid) for rid, i in state.catalog.improvements.items() if i.cls}
    assert set(only) == {"aristocrat", "nun", "craftsman"}
    assert [only[c].endswith(f"{w} only)") for c, w in
            (("aristocrat", "aristocrats"), ("nun", "nuns"), ("craftsman", "craftsmen"))] == [True] * 3


def test_the_app_reads_the_translations_directory_by_absolute_path(tmp_path):
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True})
    path = Path(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    assert path.is_absolute() and path == ROOT / "companion" / "translations"


def test_compiling_is_skipped_when_the_catalog_is_up_to_date(tmp_path):
    shutil.copytree(TRANSLATIONS, tmp_path / "t", ignore=shutil.ignore_patterns("*.mo"))
    compile_catalogs(tmp_path / "t")
    mo = tmp_path / "t" / "fr" / "LC_MESSAGES" / "messages.mo"
    before = mo.stat().st_mtime_ns
    compile_catalogs(tmp_path / "t")
    assert mo.stat().st_mtime_ns == before
    assert not list((tmp_path / "t").rglob("*.tmp"))


def test_french_seat_and_host_pages_end_to_end(french_app):
    client = french_app.test_client()
    players = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
               {"name": "Chiara", "colour": "blue"}]
    game = client.post("/api/games", json={"players": players, "seed": 7}).get_json()
    api_table_ready(client, game)  # C-18: round I's first turn opens
    host = {"X-Host-Token": game["host_token"]}
    first = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()["pending"][0]["who"]
    waiting = (first + 1) % 3
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")  # this test client becomes every seat's phone

    seat_url = f"/seat/{game['seats'][first]['token']}"
    fr = page(client, seat_url, "fr")
    name = players[first]["name"]
    assert f"{name}, à vous : où va un lieutenant ?" in fr
    assert "Rappeler un lieutenant sur votre domaine et prendre 1 pièce" in fr
    assert "gratuit" in fr
    assert "your turn: where does a lieutenant go?" not in fr
    en = page(client, seat_url, "en")
    assert f"{name}, your turn: where does a lieutenant go?" in en and "à vous" not in en
    de = page(client, seat_url, "de")
    assert f"{name}, dein Zug: wohin geht ein Leutnant?" in de and "your turn" not in de
    assert "Rien à décider pour l'instant." in page(client, f"/seat/{game['seats'][waiting]['token']}", "fr")

    host_url = f"/host/{game['id']}?key={game['host_token']}"
    fr = page(client, host_url, "fr")
    assert "Placez la roue de population à portée de main, tournée sur la fenêtre" in fr
    assert re.search(r"Placez 1 (nonne|aristocrate|artisan) sur chaque hexagone", fr)
    steps = page(client, f"/host/{game['id']}/setup/steps", "fr")  # closed once round I began: loads when opened
    assert "La manche I commence. Ordre de jeu :" in steps  # a round is a "manche", a turn a "tour"
    assert "Journal de partie" in fr

    menu = client.get(f"/api/seats/{game['seats'][first]['token']}/menu").get_json()
    recall = next(o for o in menu["menu"] if o["label"].startswith("Recall"))
    r = client.post(f"/api/seats/{game['seats'][first]['token']}/actions",
                    json={"version": menu["version"], "choice": recall["choice"]})
    assert r.status_code == 200
    fr = page(client, host_url, "fr")
    assert "rappelle un lieutenant sur son domaine et prend 1 pièce." in fr
    en = page(client, host_url, "en")
    assert "recalls a lieutenant to the estate and takes 1 coin." in en


def test_german_seat_and_host_pages_end_to_end(french_app):
    """The same app, read in German (the fixture holds every committed catalog)."""
    client = french_app.test_client()
    players = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
    game = client.post("/api/games", json={"players": players, "seed": 7}).get_json()
    api_table_ready(client, game)  # C-18: round I's first turn opens
    host = {"X-Host-Token": game["host_token"]}
    first = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()["pending"][0]["who"]
    for s in game["seats"]:
        client.get(f"/j/{s['token']}")
    de = page(client, f"/seat/{game['seats'][first]['token']}", "de")
    assert f"{players[first]['name']}, dein Zug: wohin geht ein Leutnant?" in de
    assert "Einen Leutnant auf dein Anwesen zurückrufen und 1 Münze nehmen" in de
    assert "your turn" not in de
    host_page = page(client, f"/host/{game['id']}?key={game['host_token']}", "de")
    assert "Legt das Bevölkerungsrad bereit, gedreht auf Fenster" in host_page
    assert re.search(r"Setzt 1 Bürger \((Nonne|Aristokrat|Handwerker)\) auf jedes Hexfeld", host_page)
    assert "Runde I beginnt. Zugfolge:" in page(client, f"/host/{game['id']}/setup/steps", "de")
    assert "Spielprotokoll" in host_page


def test_the_french_catalog_is_real_and_compiles():
    with FR_PO.open("rb") as f:
        catalog = read_po(f, locale="fr")
    done = {m.id: m.string for m in catalog if m.id and m.string}
    assert done["End your turn"] == "Terminer votre tour"
    assert done["Nothing to decide right now."] == "Rien à décider pour l'instant."
    assert len(done) >= 10
    for msgid, text in done.items():  # a translation names the same values as its template
        if isinstance(msgid, tuple):  # a plural: its forms are checked by pybabel compile
            continue
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", msgid)), msgid
    assert isinstance(Text("x"), Text)
