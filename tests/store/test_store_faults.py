"""Faults of the machine get a clear message and lose nothing (issue 10, item 7).

- A full disk during play: SQLite rolls back by itself; the store says "the disk is full, nothing was
  saved" (the phone gets it, and the log one line) instead of "cannot rollback - no transaction is active".
  The disk is filled with `PRAGMA max_page_count` on the test thread's connection.
- The secret key is written whole or not at all, and an empty one counts as missing.
- A games file that is garbage, truncated, a folder or damaged, and a folder the companion may not write,
  each stop `python -m companion serve` with one line naming the file and what to do, no traceback; a
  refused file is never written into.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import options_for
from companion.faults import DiskFull
from companion.store import Store
from companion.web import create_app

from server import free_port
from tables import fill_the_disk, fingerprint, free_the_disk, store_step

resource = pytest.importorskip("resource")  # not on Windows

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]


# --- a full disk during play --------------------------------------------------------------------------------

def test_a_full_disk_during_a_move_or_a_new_game_saves_nothing_and_says_so(tmp_path):
    store = Store(tmp_path / "games.db")
    gid = store.create(options_for(2), seed=3).id
    for _ in range(9):  # the 10th move also writes a snapshot: new pages
        store_step(store, gid)
    before = fingerprint(store.path)
    fill_the_disk(store._db())
    with pytest.raises(DiskFull, match="The disk is full: nothing was saved.") as caught:
        store_step(store, gid)
    assert "database or disk is full" in caught.value.cause
    with pytest.raises(DiskFull):
        store.create(options_for(3), seed=4)
    assert fingerprint(store.path) == before and store.version(gid) == 9
    free_the_disk(store._db())
    assert store_step(store, gid).version == 10  # the same connection goes on once there is room


@pytest.fixture
def app_config() -> dict:
    return {"TESTING": False}  # a fault is a page, as in production


def started(app) -> tuple:
    """A 2-player game 9 moves in (the next move writes a snapshot), and the seat that must decide now."""
    client = app.test_client()
    game = client.post("/api/games", json={"players": PLAYERS, "seed": 5}).get_json()
    store = app.extensions["store"]
    for _ in range(9):
        store_step(store, game["id"])
    state = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    seat = game["seats"][state["pending"][0]["who"]]["token"]
    return client, game, seat


def test_a_full_disk_answers_the_phone_and_the_log_in_plain_words(app, caplog):
    client, game, seat = started(app)
    store = app.extensions["store"]
    client.get(f"/j/{seat}")  # this client is the seat's phone
    menu = client.get(f"/api/seats/{seat}/menu").get_json()
    choice = next(o for o in menu["menu"] if o["available"])
    csrf = client.get(f"/seat/{seat}").data.split(b'name="csrf" value="')[1].split(b'"')[0].decode()
    before = fingerprint(store.path)
    fill_the_disk(store._db())  # the test client answers in this thread, on this connection
    caplog.set_level(logging.INFO)

    r = client.post(f"/api/seats/{seat}/actions", json={"version": menu["version"], "choice": choice["choice"]})
    assert r.status_code == 507 and r.get_json() == {"error": "The disk is full: nothing was saved."}

    # the phone's own form, as htmx sends it and as a plain form
    form = {"version": menu["version"], "choice": choice["choice"], "decision": choice["decision"], "csrf": csrf}
    r = client.post(f"/seat/{seat}/act", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 507 and b"The disk is full: nothing was saved." in r.data
    r = client.post(f"/seat/{seat}/act", data=form)
    assert r.status_code == 507 and b"The disk is full: nothing was saved." in r.data and b"<html" in r.data

    assert fingerprint(store.path) == before
    faults = [rec for rec in caplog.records if rec.levelno >= logging.WARNING]
    assert len(faults) == 3, [rec.getMessage() for rec in faults]  # one line per refused request
    for rec in faults:
        line = rec.getMessage()
        assert "nothing was saved" in line and "database or disk is full" in line and "\n" not in line
        assert rec.exc_info is None and "cannot rollback" not in line
    free_the_disk(store._db())
    r = client.post(f"/api/seats/{seat}/actions", json={"version": menu["version"], "choice": choice["choice"]})
    assert r.status_code == 200 and r.get_json()["version"] == 10


def test_a_damaged_file_met_during_play_is_said_plainly_and_a_bug_still_shows(app, monkeypatch, caplog):
    client = app.test_client()
    game = client.post("/api/games", json={"players": PLAYERS, "seed": 5}).get_json()
    host = {"X-Host-Token": game["host_token"]}

    def damaged(self, gid, glance=None):
        exc = sqlite3.DatabaseError("database disk image is malformed")
        exc.sqlite_errorcode = sqlite3.SQLITE_CORRUPT
        raise exc

    monkeypatch.setattr(Store, "load", damaged)
    r = client.get(f"/api/games/{game['id']}/state", headers=host)
    assert r.status_code == 503
    assert r.get_json() == {"error": "The companion cannot use its games file on the disk: nothing was saved."}
    assert any("database disk image is malformed" in rec.getMessage() and rec.exc_info is None
               for rec in caplog.records)

    def bug(self, gid):
        raise sqlite3.ProgrammingError("a mistake in our own SQL")

    monkeypatch.setattr(Store, "load", bug)
    assert client.get(f"/api/games/{game['id']}/state", headers=host).status_code == 500


# --- the secret key -----------------------------------------------------------------------------------------

def test_an_empty_secret_key_counts_as_missing(tmp_path):
    """What a full disk left before the key was written atomically: every page broke until deleted."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "secret_key").write_text("\n")
    app = create_app({"INSTANCE": str(instance)})
    key = (instance / "secret_key").read_text()
    assert len(bytes.fromhex(key)) == 32 and app.secret_key == key
    assert (instance / "secret_key").stat().st_mode & 0o077 == 0
    client = app.test_client()
    r = client.post("/games", data={"csrf": client.get("/").data.split(b'name="csrf" value="')[1].split(b'"')[0],
                                    "name0": "Ada", "colour0": "red"})
    assert r.status_code == 302


# --- start-up -----------------------------------------------------------------------------------------------

def drop_root_powers() -> None:
    """In a child about to exec: take CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH out of its bounding set
    (PR_CAPBSET_DROP), so root, too, may not write where a folder's mode forbids it."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):
        if libc.prctl(24, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl")


def modes_bind_us(folder: Path) -> bool:
    """Whether a child of this test may not write into `folder` (mode 0555): true for a normal user, and
    for root once it drops its powers, if this machine lets it."""
    probe = f"open({str(folder / 'probe')!r}, 'w')"
    try:
        res = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=30,
                             preexec_fn=drop_root_powers if os.geteuid() == 0 else None)
    except subprocess.SubprocessError:
        return False
    return res.returncode != 0 and not (folder / "probe").exists()


def serve(instance: Path, limit_file_size: bool = False, drop_powers: bool = False):
    """`python -m companion serve` over `instance`; with `limit_file_size` no file may grow past 0 bytes
    (a full disk, by RLIMIT_FSIZE); with `drop_powers` root may not write where a folder's mode forbids."""

    def before_exec():
        if limit_file_size:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a killed process
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        if drop_powers:
            drop_root_powers()

    env = {**os.environ, "MESSINA_INSTANCE": str(instance), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                           "--port", str(free_port())], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60, preexec_fn=before_exec)


def refused(res, *words: str) -> str:
    """Exit 1 with one line on stderr, no traceback, naming what it names."""
    assert res.returncode == 1, (res.returncode, res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert lines[0].startswith("companion: ")
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def a_database(path: Path) -> Path:
    """A real games file with a few games, checkpointed (everything in the main file)."""
    store = Store(path)
    for seed in range(4):
        store.create(options_for(3), seed=seed)
    con = store._db().conn
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")
    con.close()
    return path


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "garbage":
        path.write_bytes(hashlib.sha512(b"x").digest() * 128)
    elif how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "damaged":  # the seats' link index zeroed: it opens, and quick_check finds it
        con = sqlite3.connect(path)
        page = con.execute("select rootpage from sqlite_master where name = 'idx_seats_token'").fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
        con.close()
        path.write_bytes(data[: (page - 1) * size] + bytes(size) + data[page * size:])


@pytest.mark.parametrize("how, words", [("garbage", "is not a companion database"), ("truncated", "is damaged"),
                                        ("damaged", "is damaged")])
def test_a_bad_games_file_stops_the_server_with_one_line_and_is_not_touched(tmp_path, how, words):
    instance = tmp_path / "instance"
    instance.mkdir()
    db = a_database(instance / "companion.db")
    damage(db, how)
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    refused(serve(instance), str(db), words, "Move it aside")
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before
    assert not (instance / "companion.db-wal").exists() or (instance / "companion.db-wal").stat().st_size == 0


def test_a_folder_where_the_games_file_belongs_stops_the_server(tmp_path):
    instance = tmp_path / "instance"
    (instance / "companion.db").mkdir(parents=True)
    refused(serve(instance), str(instance / "companion.db"), "is a folder")


def test_an_instance_path_under_a_file_stops_the_server(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    refused(serve(tmp_path / "a-file" / "instance"), str(tmp_path / "a-file" / "instance"), "MESSINA_INSTANCE")


def test_a_read_only_instance_folder_stops_the_server(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    instance.chmod(0o555)
    try:
        if not modes_bind_us(instance):
            pytest.skip("root here cannot drop CAP_DAC_OVERRIDE, so a folder's mode does not stop its writes")
        root = os.geteuid() == 0
        refused(serve(instance, drop_powers=root), str(instance / "secret_key"), "Permission denied")
        instance.chmod(0o755)
        (instance / "secret_key").write_text("ab" * 32)
        instance.chmod(0o555)
        refused(serve(instance, drop_powers=root), str(instance / "companion.db"))
    finally:
        instance.chmod(0o755)


def test_a_full_disk_at_the_first_start_leaves_no_empty_secret_key(tmp_path):
    create_app({"INSTANCE": str(tmp_path / "warm")})  # the translations' .mo files exist before the disk is full
    instance = tmp_path / "instance"
    refused(serve(instance, limit_file_size=True), str(instance / "secret_key"))
    assert sorted(p.name for p in instance.iterdir()) == []  # no empty key, no temp file
    (instance / "secret_key").write_text("ab" * 32)
    refused(serve(instance, limit_file_size=True), str(instance / "companion.db"))
    app = create_app({"INSTANCE": str(instance)})  # room again: it starts, with the key it had
    assert app.secret_key == "ab" * 32 and app.test_client().get("/").status_code == 200
