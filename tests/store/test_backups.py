"""A copy at every round's end (issue 36 item 3): `serve --backups DIR` writes each game's file when its upkeep
waits for "the table is ready" (R-NEXT-14) and at game over (R-SCORE-6), keeps the last few per game under
names made from the game's id and round, and a failing folder never costs the table a move."""

from __future__ import annotations

import json
import logging
import random

import pytest

from companion.catalog import shipped_catalog
from companion.engine import options_for
from companion.faults import StartupError
from companion.resume.backups import KEEP, Backups, moment_of
from companion.store.game_file import read_file
from companion.store import Store
from tables import app_on, new_game, store_step


def play_to_the_end(store: Store, gid: str, seed: int = 3) -> list[str]:
    """Every moment a copy is due at, in order, as the game reaches it."""
    rng, seen = random.Random(seed), []
    while store.load(gid).state.phase != "over":
        moment = moment_of(store_step(store, gid, rng).state)
        if moment:
            seen.append(moment)
    return seen


def test_a_copy_at_every_rounds_end_and_at_game_over_the_last_few_kept(tmp_path):
    store = Store(tmp_path / "g.db", shipped_catalog())
    store.on_move.append(Backups(store, tmp_path / "copies"))
    gid = store.create(options_for(1), seed=5).id  # solo: the shortest whole game
    other = tmp_path / "copies" / "messina-0123456789abcdef-round-1.json"  # another game's copy: never touched
    other.write_text("{}")
    seen = play_to_the_end(store, gid)
    assert seen == ["round-1", "round-2", "round-3", "round-4", "round-5", "over"]
    kept = sorted(p.name for p in (tmp_path / "copies").iterdir())
    assert kept == sorted([other.name] + [f"messina-{gid}-{m}.json" for m in seen[-KEEP:]])
    last = read_file((tmp_path / "copies" / f"messina-{gid}-over.json").read_bytes())
    assert last.version == store.version(gid) and last.state["phase"] == "over"
    round_five = json.loads((tmp_path / "copies" / f"messina-{gid}-round-5.json").read_text())
    assert round_five["state"]["phase"] == "upkeep" and round_five["state"]["round"] == 6  # R-NEXT-1 moved it


def test_a_copy_resumes_where_the_table_stood(tmp_path):
    here = Store(tmp_path / "here.db", shipped_catalog())
    here.on_move.append(Backups(here, tmp_path / "copies"))
    gid = here.create(options_for(3), seed=2).id
    rng = random.Random(8)
    while moment_of(here.load(gid).state) != "round-1":
        store_step(here, gid, rng)
    there = Store(tmp_path / "there.db", shipped_catalog())
    game = there.resume(read_file((tmp_path / "copies" / f"messina-{gid}-round-1.json").read_bytes()))
    assert json.dumps(game.state.to_dict()) == json.dumps(here.load(gid).state.to_dict())


def test_a_folder_the_companion_cannot_write_stops_serve_at_start_with_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(StartupError) as caught:
        Backups(Store(tmp_path / "g.db"), blocker / "copies")
    assert "--backups" in str(caught.value)


def test_a_folder_gone_during_play_is_logged_and_the_game_goes_on(tmp_path, caplog):
    store = Store(tmp_path / "g.db", shipped_catalog())
    store.on_move.append(Backups(store, tmp_path / "copies"))
    (tmp_path / "copies").rmdir()
    gid = store.create(options_for(1), seed=4).id
    rng = random.Random(1)
    with caplog.at_level(logging.WARNING):
        while moment_of(store.load(gid).state) != "round-1":
            store_step(store, gid, rng)
    assert "could not write a copy of game" in caplog.text and store.load(gid).state.phase == "upkeep"


def test_the_app_writes_copies_when_serve_is_given_backups(tmp_path):
    app = app_on(tmp_path / "instance", BACKUPS=str(tmp_path / "copies"))
    game = new_game(app.test_client())
    store = app.extensions["store"]
    rng = random.Random(6)
    while moment_of(store.load(game["id"]).state) != "round-1":
        store_step(store, game["id"], rng)
    assert [p.name for p in (tmp_path / "copies").iterdir()] == [f"messina-{game['id']}-round-1.json"]
