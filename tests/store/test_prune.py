"""`python -m companion prune --older-than DAYS` (issue 10, item 4): games nobody has played for DAYS
(last move, or creation when none) are deleted with everything they hold; the rest stay."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest

from companion.engine import options_for
from companion.store import Store
from companion.web import create_app
from tables import run_command, store_step


DAY = 86400


def prune(instance: Path, *args: str):
    return run_command("prune", *args, MESSINA_INSTANCE=str(instance))


def age(path, gid: str, created_days: float, moved_days: float | None = None) -> None:
    """Move a game into the past: created `created_days` ago, its moves `moved_days` ago."""
    con = sqlite3.connect(path)
    with con:
        con.execute("update games set created = ? where id = ?", [time.time() - created_days * DAY, gid])
        if moved_days is not None:
            con.execute("update actions set time = ? where game_id = ?", [time.time() - moved_days * DAY, gid])
    con.close()


def ids(path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        found = {t: {r[0] for r in con.execute(f"select distinct {'id' if t == 'games' else 'game_id'} from {t}")}
                 for t in ("games", "seats", "actions", "snapshots")}
    finally:
        con.close()
    assert found["seats"] <= found["games"] and found["actions"] <= found["games"], found  # nothing left behind
    return found["games"]


@pytest.fixture
def instance(tmp_path):
    """Four games: abandoned at setup 10 days ago; started 10 days ago but played 2 days ago; new today;
    played 20 days ago."""
    store = Store(tmp_path / "companion.db")
    games = {}
    for name, players, moves, created, moved in (("abandoned", 1, 0, 10, None), ("recent", 2, 12, 10, 2),
                                                 ("today", 3, 0, 0, None), ("old", 4, 25, 30, 20)):
        gid = store.create(options_for(players), seed=3).id
        for _ in range(moves):
            store_step(store, gid)
        age(store.path, gid, created, moved)
        games[name] = gid
    return tmp_path, games


def test_prune_deletes_the_games_idle_for_longer_than_the_days_given(instance):
    instance, games = instance
    db = instance / "companion.db"
    app = create_app({"INSTANCE": str(instance)})  # a server running meanwhile
    client = app.test_client()
    old_seat = app.extensions["store"].seats(games["old"])[0]["token"]
    client.get(f"/j/{old_seat}")  # this client is the seat's phone
    assert client.get(f"/api/seats/{old_seat}/menu").status_code == 200

    res = prune(instance, "--older-than", "7", "--dry-run")
    assert res.exit_code == 0, res.stderr
    assert ids(db) == set(games.values())  # a dry run deletes nothing
    assert re.search(rf"Would delete game {games['old']} \(Ada, Bruno, Chiara, Dario; last played \d{{4}}-", res.stdout)
    assert f"Would delete game {games['abandoned']} (Ada; last played" in res.stdout
    assert "Would delete 2 games idle for more than 7 days." in res.stdout

    res = prune(instance, "--older-than", "7")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.count("Deleted game ") == 2 and "Deleted 2 games idle for more than 7 days." in res.stdout
    assert ids(db) == {games["recent"], games["today"]}
    r = client.get(f"/api/seats/{old_seat}/menu")  # the running server's phones hear it at once
    assert r.status_code == 404 and r.get_json() == {"error": "This game was deleted by its host."}

    res = prune(instance, "--older-than", "1")
    assert res.exit_code == 0 and ids(db) == {games["today"]}
    assert "Deleted 1 game idle for more than 1 days." in res.stdout


def test_prune_can_give_the_space_back_to_the_disk(instance):
    instance, _ = instance
    db = instance / "companion.db"
    wal = instance / "companion.db-wal"
    before = db.stat().st_size + wal.stat().st_size
    res = prune(instance, "--older-than", "0", "--vacuum")
    assert res.exit_code == 0, res.stderr
    assert ids(db) == set() and "Deleted 4 games" in res.stdout
    assert db.stat().st_size + wal.stat().st_size < before / 2
    assert re.search(r"Games file .*companion\.db: \d+ KB -> \d+ KB\.", res.stdout)


def test_prune_without_a_games_file_or_with_a_bad_number_changes_nothing(tmp_path):
    res = prune(tmp_path, "--older-than", "3")
    assert res.exit_code == 0 and "nothing to prune" in res.stdout
    assert not (tmp_path / "companion.db").exists()
    res = prune(tmp_path, "--older-than", "-1")
    assert res.exit_code == 2 and "0 or more" in res.stderr
