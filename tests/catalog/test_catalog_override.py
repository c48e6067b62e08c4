"""A table's catalog corrections at a real table (docs/CATALOG.md, "Correcting a value"): read from the
instance folder whatever the working directory; a broken file keeps the shipped catalog in force and
says so on the host screen, never a 500; hostile files are problems, not crashes; and a game keeps the
catalog it started with, so no edit ever changes or breaks a game in progress."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
import tracemalloc
from pathlib import Path

import pytest
import sqlite_utils
from sqlite_utils.migrations import Migrations

from companion.catalog import (CatalogError, catalog_from_json, catalog_in_force, load_catalog, shipped_catalog)
from companion.catalog.build import RecordError, build_record
from companion.catalog.families import FAMILIES
from companion.catalog.read import DATA_DIR
from companion.engine import legal_actions, new_game, options_for, pending
from mutate import places_in
from tables import new_game as new_api_game, run_command
from companion.store import Store, m001_initial
from companion.serve import server
from companion.web import create_app

from server import free_port

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chiara", "colour": "yellow"}]


# --- writing corrections -----------------------------------------------------------------------------

def shipped_records(family: str) -> list[dict]:
    for name in ("city.toml", "layout.toml", "scoreboard.toml", "tiles.toml", "boards.toml"):
        doc = tomllib.loads((DATA_DIR / name).read_text(encoding="utf-8"))
        if family in doc:
            return doc[family]
    raise KeyError(family)


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(v)


def toml_records(family: str, records: list[dict]) -> str:
    """Flat records (hexes, harbors, boats) as the table would type them."""
    return "".join(f"[[{family}]]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in rec.items()) + "\n"
                   for rec in records)


def corrections(reward: str) -> str:
    """Every hex, harbor and boat gives `reward`: a game feels it within a few moves."""
    text = ""
    for family in ("hex", "harbor", "boat"):
        recs = []
        for rec in shipped_records(family):
            rec = dict(rec, source="rulebook")
            rec.pop("rulebook_fields", None)
            rec["reward" if family == "boat" else "action"] = reward
            recs.append(rec)
        text += toml_records(family, recs)
    return text


FIRST = corrections("3 coin")  # in force when the game starts
SECOND = corrections("2 vp")  # written during the game
BOAT_5 = '[[boat]]\nid = "boat-5"\nback = 2\ncargo = "spices"\nreward = "2 {what}"\nsource = "rulebook"\n'
THIRD_B = ('[[hex]]\nid = "n16"\nname = "Tremonti"\nclass = "B"\ncolour = "red"\nrat = "left"\n'
           'action = "2 fire or 2 lumber"\nrepop = false\nsource = "rulebook"\n')

#: broken corrections, and what the host screen must name: the record id and the problem
BROKEN = {
    "bad-toml": ('[[boat]\nid = "boat-1"\n', ["not valid TOML"]),
    "bad-value": (BOAT_5.format(what="ducats"), ["boat boat-5", "ducats"]),
    "unknown-id": (BOAT_5.replace("boat-5", "boat-99").format(what="coin"), ["boat boat-99", "no default record"]),
    "wrong-count": (THIRD_B, ["hex n16", "3 B hexes"]),
    "nested-100000": ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", ["nested more than"]),
    "not-a-table": ('[[round_info]]\nid = "2p"\nrounds = [1, 2, 3, 4, 5, 6]\nsource = "assumed"\n',
                    ["round_info 2p"]),
}


def write_override(instance: Path, text: str) -> Path:
    path = instance / "catalog.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def instance(tmp_path, monkeypatch, own_corrections):
    """An instance folder whose catalog.toml counts (`own_corrections`), and the working directory is the
    folder's parent, as when `serve` runs from the repository."""
    folder = tmp_path / "instance"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)
    return folder


def app_for(instance: Path):
    return create_app({"INSTANCE": str(instance), "TESTING": True, "POLL_HOLD_S": 0.1})


def page(client, path: str) -> str:
    r = client.get(path, follow_redirects=True)  # the host link sets its cookie, then drops the key
    assert r.status_code == 200, (path, r.status_code)
    return r.get_data(as_text=True)


def notice(html: str) -> str:
    m = re.search(r'<(section|p) class="panel[^"]*" id="catalog-notice".*?</\1>', html, re.S)
    return m.group(0) if m else ""


def boat_reward(catalog, boat: str = "boat-1") -> str:
    return catalog.boats[boat].reward.phrase


# --- where the corrections are read from -------------------------------------------------------------

def test_the_override_is_read_from_the_instance_folder_not_the_working_directory(instance, tmp_path,
                                                                                    monkeypatch):
    elsewhere = tmp_path / "started-here"
    (elsewhere / "instance").mkdir(parents=True)
    (elsewhere / "instance" / "catalog.toml").write_text(corrections("4 coin"), encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    write_override(instance, FIRST)
    app = app_for(instance)
    g = new_api_game(app.test_client(), PLAYERS, 11, ready=False)
    assert boat_reward(app.extensions["store"].load(g["id"]).state.catalog) == "3 coin"


def test_catalog_check_reads_the_file_serve_uses(instance, tmp_path, monkeypatch):
    """`python -m companion catalog check`, started in another folder, checks <$MESSINA_INSTANCE>/catalog.toml."""
    path = write_override(instance, BOAT_5.format(what="ducats"))
    monkeypatch.chdir(tmp_path)
    res = run_command("catalog", "check", MESSINA_CATALOG=None, MESSINA_INSTANCE=str(instance))
    assert res.exit_code == 1
    assert str(path) in res.stderr and "boat-5" in res.stderr and "ducats" in res.stderr, res.stderr
    assert "shipped catalog" in res.stderr


# --- a broken override: the shipped catalog stays in force, and the host screen says why ------------

@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_override_keeps_the_shipped_catalog_and_the_host_screen_says_why(instance, case):
    text, needles = BROKEN[case]
    path = write_override(instance, text)
    app = app_for(instance)  # starts
    client = app.test_client()
    shown = notice(page(client, "/"))
    assert str(path) in shown and "shipped catalog" in shown, shown
    for needle in needles:
        assert needle in shown, (needle, shown)
    g = new_api_game(client, PLAYERS, 11, ready=False)  # a new game works, on the shipped catalog
    state = app.extensions["store"].load(g["id"]).state
    assert state.catalog.fingerprint == shipped_catalog().fingerprint
    host = page(client, f"/host/{g['id']}?key={g['host_token']}")
    assert str(path) in notice(host)


def test_a_broken_override_from_the_new_game_form_is_no_500(instance):
    write_override(instance, BROKEN["not-a-table"][0])
    client = app_for(instance).test_client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page(client, "/")).group(1)
    r = client.post("/games", data={"csrf": csrf, "name0": "Ada", "colour0": "red", "seed": "4"})
    assert r.status_code == 302, r.get_data(as_text=True)[:300]


def test_the_notice_shows_what_the_file_says_as_text_never_as_markup(instance):
    write_override(instance, BOAT_5.format(what="<script>alert(1)</script>"))
    shown = notice(page(app_for(instance).test_client(), "/"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown and "<script>" not in shown


def test_the_notice_follows_the_file_without_a_restart(instance):
    client = app_for(instance).test_client()
    assert notice(page(client, "/")) == ""  # no corrections: nothing to say
    path = write_override(instance, FIRST)
    assert "use your catalog corrections" in notice(page(client, "/"))
    write_override(instance, BOAT_5.format(what="ducats"))
    assert "ducats" in notice(page(client, "/"))
    write_override(instance, FIRST)
    shown = notice(page(client, "/"))
    assert "ducats" not in shown and str(path) in shown


def test_serve_names_a_broken_override_on_stderr(instance, monkeypatch):
    """`serve` starts, and says in one line that the corrections are not in use, and why."""
    path = write_override(instance, BOAT_5.format(what="ducats"))
    monkeypatch.setenv("MESSINA_INSTANCE", str(instance))
    started = []
    monkeypatch.setattr(server.Server, "serve", lambda self: started.append(self))  # listen, then stop
    res = run_command("serve", "--port", "0", "--workers", "1", "--threads", "1", "--screens", "0")
    assert res.exit_code == 0
    assert started
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and "shipped catalog" in err[0] and "boat-5" in err[0], err


# --- hostile files are problems with that file, never exceptions -------------------------------------

def test_100000_nested_arrays_are_a_problem_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert str(path) in str(info.value) and "nested" in str(info.value)


@pytest.mark.parametrize("text", [
    "a" + ".a" * 10_000 + " = 1",  # the TOML parser keeps every prefix of a dotted key: ~400 MB here
    "[" + "a." * 10_000 + "a]",
    "x = " + "{a = " * 10_000 + "1" + "}" * 10_000,
])
def test_deep_keys_and_tables_are_refused_before_they_cost_memory(tmp_path, text):
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(CatalogError, match="more than 32"):
            load_catalog(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 30_000_000


def test_an_override_too_large_to_be_corrections_is_refused(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_text("# " + "x" * 1_100_000 + "\n", encoding="utf-8")
    now = catalog_in_force(path)
    assert not now.corrected and "larger than" in now.problems[0] and str(path) in now.problems[0]


def test_a_huge_number_is_a_problem_with_the_file(tmp_path):
    path = tmp_path / "number.toml"
    path.write_text(BOAT_5.replace("back = 2", "back = " + "9" * 5000).format(what="coin"), encoding="utf-8")
    with pytest.raises(CatalogError, match="number.toml"):
        load_catalog(path)


def test_an_override_that_is_a_folder_or_not_utf8_is_a_problem(tmp_path):
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    assert "cannot read" in catalog_in_force(folder).problems[0]
    latin = tmp_path / "latin.toml"
    latin.write_bytes(BOAT_5.format(what="coin").replace("spices", "épices").encode("latin-1"))
    assert "UTF-8" in catalog_in_force(latin).problems[0]


HOSTILE = [None, {}, [], [[[[]]]], [1], [{}], {"a": [1]}, "", "x", "1 coin", -1, 0, 10**30, True, 1.5,
           float("nan"), float("inf")]


def replaced(rec, at, new):
    if not at:
        return new
    copy = dict(rec) if isinstance(rec, dict) else list(rec)
    copy[at[0]] = replaced(rec[at[0]], at[1:], new)
    return copy


@pytest.mark.parametrize("family", FAMILIES)
def test_every_hostile_value_anywhere_in_a_record_is_a_problem_not_a_crash(family):
    """Whatever a table types in any field of any record (or sub-record), the loader answers with a
    problem in words (RecordError) or a valid record, never another exception (a 500 at the table)."""
    rec = json.loads(json.dumps(shipped_records(family)[0], default=str))
    build_record(family, rec)
    tried = 0
    for at in places_in(rec):
        if at == ("id",):
            continue
        for value in HOSTILE:
            try:
                build_record(family, replaced(rec, at, value))
            except RecordError:
                pass
            tried += 1
    assert tried > 10


# --- a game keeps the catalog it started with ---------------------------------------------------------

def play(store: Store, gid: str, rng: random.Random, moves: int, twin: tuple[Store, str] | None = None) -> list:
    """Play `moves` decisions by a seeded policy; with a twin, make the same ones there and check that both
    show the same state, questions and menus before every move."""
    seen = []
    for _ in range(moves):
        game = store.load(gid)
        state = game.state
        if state.phase == "over":
            break
        question = pending(state)[0]
        menus = {who: legal_actions(state, who) for who in ["host", *range(len(state.seats))]}
        if twin:
            other = twin[0].load(twin[1]).state
            assert other.to_dict() == state.to_dict()
            assert pending(other) == pending(state)
            assert {who: legal_actions(other, who) for who in menus} == menus
        who = question["who"]
        options = [o for o in menus[who] if o["available"]]
        pick = rng.randrange(len(options))
        choice = menus[who].index(options[pick])
        store.act(gid, game.version, who, question["id"], choice)
        if twin:
            twin[0].act(twin[1], twin[0].load(twin[1]).version, who, question["id"], choice)
        seen.append(state.to_dict())
    return seen


def test_editing_the_override_never_changes_or_breaks_a_game_in_progress(instance, tmp_path):
    """The game starts with FIRST; the file then changes to SECOND, then breaks. The game's state, its
    questions and every menu stay exactly those of a twin game that never saw an edit, across server
    restarts (a fresh Store) too; new games follow the file; a broken file leaves them on the shipped one."""
    opts = options_for(3)
    reference = tmp_path / "reference.toml"
    reference.write_text(FIRST, encoding="utf-8")
    twin = Store(tmp_path / "twin.db", catalog=load_catalog(reference))
    tid = twin.create(opts, seed=23).id

    path = write_override(instance, FIRST)
    app = app_for(instance)
    store = app.extensions["store"]
    gid = store.create(opts, seed=23).id
    rng = random.Random(5)
    play(store, gid, rng, 15, (twin, tid))

    write_override(instance, SECOND)
    play(store, gid, rng, 15, (twin, tid))
    restarted = Store(app.config["DATABASE"], catalog=lambda: catalog_in_force(path).catalog)
    play(restarted, gid, rng, 15, (twin, tid))
    fresh = store.create(opts, seed=23)
    assert boat_reward(fresh.state.catalog) == "2 vp" and boat_reward(store.load(gid).state.catalog) == "3 coin"

    write_override(instance, BOAT_5.format(what="ducats"))
    play(store, gid, rng, 15, (twin, tid))
    restarted = Store(app.config["DATABASE"], catalog=lambda: catalog_in_force(path).catalog)
    play(restarted, gid, rng, 15, (twin, tid))
    host = page(app.test_client(), f"/host/{gid}?key={store.load(gid).host_token}")
    assert "ducats" in notice(host)
    broken_time = store.create(opts, seed=23)
    assert broken_time.state.catalog.fingerprint == shipped_catalog().fingerprint

    # the edits mattered: a game started with SECOND parts from the twin within the same moves
    diverged = Store(tmp_path / "second.db", catalog=load_catalog(write_override(tmp_path, SECOND)))
    did = diverged.create(opts, seed=23).id
    twin2 = Store(tmp_path / "twin2.db", catalog=load_catalog(reference))
    with pytest.raises(AssertionError):
        play(diverged, did, random.Random(5), 75, (twin2, twin2.create(opts, seed=23).id))


def test_the_host_screen_says_when_the_game_keeps_older_values(instance):
    write_override(instance, FIRST)
    app = app_for(instance)
    client = app.test_client()
    g = new_api_game(client, PLAYERS, 11, ready=False)
    host = f"/host/{g['id']}?key={g['host_token']}"
    assert notice(page(client, host)) == ""
    write_override(instance, SECOND)
    assert "keeps the values it started with" in notice(page(client, host))


def test_a_stored_catalog_builds_again_to_the_same_fingerprint(tmp_path):
    path = tmp_path / "dated.toml"
    # a TOML date in a field the loader ignores: stored as text, and the game still starts
    path.write_text(BOAT_5.format(what="coin") + "checked = 2024-05-01\n", encoding="utf-8")
    catalog = load_catalog(path)
    again = catalog_from_json(catalog.records_json)
    assert again.fingerprint == catalog.fingerprint and again.boats == catalog.boats and again.wheel == catalog.wheel
    assert repr(again) == repr(catalog)  # every table in the same order too (a layout's harbors, say)
    assert catalog.fingerprint != shipped_catalog().fingerprint
    store = Store(tmp_path / "g.db", catalog=catalog)
    gid = store.create(options_for(2), seed=3).id
    assert Store(tmp_path / "g.db").load(gid).state.catalog.fingerprint == catalog.fingerprint


def test_games_from_before_keep_the_catalog_in_force_when_this_version_first_opens_them(instance, tmp_path):
    """A database from before games kept their catalog (only m001 applied): its game is given the
    catalog in force at the first start, and keeps it through later edits."""
    db_path = tmp_path / "old.db"
    old = Migrations("companion")
    old()(m001_initial)
    db = sqlite_utils.Database(db_path)
    old.apply(db)
    state = new_game(options_for(2), 9, shipped_catalog())
    db.execute("insert into games (id, created, options, seed, host_token, version) values ('old1', 0, ?, 9, 'h', 0)",
               [json.dumps(options_for(2).to_dict())])
    db.execute("insert into snapshots (game_id, version, state) values ('old1', 0, ?)", [json.dumps(state.to_dict())])
    db.conn.commit()
    db.conn.close()

    path = write_override(instance, FIRST)
    store = Store(db_path, catalog=lambda: catalog_in_force(path).catalog)
    assert boat_reward(store.load("old1").state.catalog) == "3 coin"
    write_override(instance, SECOND)
    again = Store(db_path, catalog=lambda: catalog_in_force(path).catalog)
    assert boat_reward(again.load("old1").state.catalog) == "3 coin"
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("select count(*) from catalogs").fetchone()[0] == 1


# --- a real server started in another folder ------------------------------------------------------------

@pytest.mark.slow
def test_a_served_companion_started_elsewhere_reads_its_instance_and_survives_a_broken_override(instance,
                                                                                                  tmp_path):
    """`python -m companion serve` from a folder that is neither the code's nor the instance's: the
    broken corrections in $MESSINA_INSTANCE are named on stderr and on the host screen, new games start
    (on the shipped catalog), and once the file is fixed the next game uses it, without a restart."""
    path = write_override(instance, BROKEN["not-a-table"][0])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "MESSINA_CATALOG"}
    env.update(MESSINA_INSTANCE=str(instance), PYTHONUNBUFFERED="1")
    port = free_port()
    err = (tmp_path / "stderr.txt").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--threads", "2", "--screens", "0"], cwd=elsewhere, env=env, stdout=subprocess.DEVNULL,
                            stderr=err)
    err.close()

    def request(method: str, url: str, body: dict | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request(method, url, body=json.dumps(body) if body else None,
                         headers={"Content-Type": "application/json"} if body else {})
            resp = conn.getresponse()
            return resp.status, resp.read().decode()
        finally:
            conn.close()

    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
            try:
                status, index = request("GET", "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)
        assert status == 200 and str(path) in notice(index) and "round_info 2p" in notice(index)
        warning = [ln for ln in (tmp_path / "stderr.txt").read_text().splitlines() if str(path) in ln]
        assert len(warning) == 1 and "shipped catalog" in warning[0] and "round_info 2p" in warning[0]

        status, body = request("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        assert status == 201, body
        write_override(instance, FIRST)
        status, index = request("GET", "/")
        assert "use your catalog corrections" in notice(index)
        status, body = request("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        assert status == 201, body
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    store = Store(instance / "companion.db")
    newer, older = (store.load(g["id"]).state.catalog for g in store.games())
    assert older.fingerprint == shipped_catalog().fingerprint and boat_reward(newer) == "3 coin"
