"""`python -m companion replay FILE` and `resume FILE` (issue 36): the replay prints every act of a good file
and exits 0, and names the act or field of a bad one and exits 1; the resume writes the game into the
instance's games file and prints its new host link and seat codes. Run in-process through click's test
runner (tests/tables.py, run_command)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.catalog import shipped_catalog
from companion.engine import options_for
from companion.store import Store
from tables import run_command, store_step


@pytest.fixture(scope="module")
def game_file(tmp_path_factory) -> tuple[Path, dict]:
    """A two-player game to round II (the companion drawing), with an undo, as its file on disk."""
    folder = tmp_path_factory.mktemp("file")
    store = Store(folder / "g.db", shipped_catalog())
    gid = store.create(options_for(2), seed=12).id
    rng = random.Random(7)
    while store.load(gid).state.round < 2:
        store_step(store, gid, rng)
    store.undo(gid, store.version(gid), 1)
    store_step(store, gid, rng)
    body = store.game_file(gid)
    path = folder / "messina.json"
    path.write_text(json.dumps(body, indent=1), encoding="utf-8")
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_replay_prints_every_act_and_exits_0_on_a_good_file(game_file):
    path, body = game_file
    said = run_command("replay", path)
    assert said.exit_code == 0
    out = said.stdout.splitlines()
    numbered = [line.split(".", 1)[0] for line in out if line[:1].isdigit()]
    assert numbered == [str(a["version"]) for a in body["actions"]]  # every act and undo, in order
    undo = next(a for a in body["actions"] if a["kind"] == "undo")
    assert any(line.startswith(f"{undo['version']}. Undo by the host") for line in out)
    assert any("[taken back]" in line for line in out) and any(line.startswith("     - ") for line in out)
    assert out[-1].startswith("The file replays:") and "round 2" in out[-1]


def test_replay_names_the_act_that_does_not_replay_and_exits_1(game_file, tmp_path):
    body = copy.deepcopy(game_file[1])
    row = next(a for a in body["actions"][4:] if a["kind"] == "act" and not a["undone"] and a["who"] != "host")
    row["action"]["decision"] += 500
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(body), encoding="utf-8")
    said = run_command("replay", bad)
    assert said.exit_code == 1
    assert f"refused [act {row['version']}]: Act {row['version']} (" in said.stderr and "does not replay" in said.stderr
    numbered = [line for line in said.stdout.splitlines() if line[:1].isdigit()]
    assert numbered[-1].startswith(f"{row['version'] - 1}. ")  # every act before it was printed


@pytest.mark.parametrize("damage, where", [(lambda t: t[: len(t) // 2], "[line "),
                                           (lambda t: t.replace('"seed": 12', '"seed": "12"'), "[seed]")])
def test_replay_names_the_field_of_a_damaged_file(game_file, tmp_path, damage, where):
    path, _ = game_file
    bad = tmp_path / "damaged.json"
    bad.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8")
    said = run_command("replay", bad)
    assert said.exit_code == 1
    assert where in said.stderr


def test_replay_of_a_missing_file_says_so(tmp_path):
    said = run_command("replay", tmp_path / "nowhere.json")
    assert said.exit_code == 1
    assert "cannot read" in said.stderr


def test_resume_writes_the_game_into_the_instance_and_prints_its_new_links(game_file, tmp_path):
    path, body = game_file
    said = run_command("resume", path, "--public-url", "http://table.lan:8000",
                       MESSINA_INSTANCE=str(tmp_path / "instance"))
    assert said.exit_code == 0
    out = said.stdout
    store = Store(tmp_path / "instance" / "companion.db")
    (game,) = store.games()
    host = store.load(game["id"]).host_token
    assert f"http://table.lan:8000/host/{game['id']}?key={host}" in out
    for seat in store.seats(game["id"]):
        assert f"code {seat['code']}, link http://table.lan:8000/j/{seat['token']}" in out
    assert store.version(game["id"]) == body["version"]


def test_resume_refuses_a_bad_file_and_writes_nothing(game_file, tmp_path):
    body = copy.deepcopy(game_file[1])
    body["state"]["round"] = 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(body), encoding="utf-8")
    said = run_command("resume", bad, MESSINA_INSTANCE=str(tmp_path / "instance"))
    assert said.exit_code == 1
    assert "[state.round]" in said.stderr
    assert Store(tmp_path / "instance" / "companion.db").games() == []


def test_replay_with_no_corrections_on_this_machine(game_file, tmp_path):
    """$MESSINA_CATALOG names no file: the file still replays to its end, every act printed."""
    path, body = game_file
    res = run_command("replay", path, MESSINA_CATALOG=str(tmp_path / "absent.toml"))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[-1].startswith("The file replays:")
    assert len([line for line in res.stdout.splitlines() if line[:1].isdigit()]) == len(body["actions"])
