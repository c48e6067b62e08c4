"""Resume anywhere (issue 36): a game's file, exported on one instance, resumed on another, replays every act
from the start through the store's own writes and arrives at exactly the game it records; it then plays on to
the same final scoring (R-SCORE-6) as the original. A file with one act changed or removed, its catalog
changed, or cut short is refused naming the act or field, and nothing is created."""

from __future__ import annotations

import hashlib
import json
import random
import time

import pytest

from companion.catalog import catalog_from_records, shipped_catalog
from companion.engine import final_scoring, legal_actions, options_for, pending
from companion.store.game_file import FORMAT, Refused, read_file
from companion.store import NotFound, Store
from tables import THREE, fingerprint, store_step


def play_until(store: Store, gid: str, rng: random.Random, done, undo_every: int = 0, limit: int = 4000):
    """Moves by whoever must answer (random available options) until `done(state)`; the host undoes one act
    every `undo_every` moves."""
    for n in range(1, limit):
        game = store.load(gid)
        if done(game.state):
            return game
        if undo_every and n % undo_every == 0:
            store.undo(gid, game.version, 1)
        else:
            store_step(store, gid, rng)
    raise AssertionError("the game never got there")


def over(state) -> bool:
    return state.phase == "over"


def file_of(store: Store, gid: str) -> bytes:
    return json.dumps(store.game_file(gid), indent=1).encode("utf-8")


def text(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


@pytest.fixture
def stores(tmp_path):
    """Two instances: where the game was played, and another machine with the shipped catalog."""
    return Store(tmp_path / "here.db", shipped_catalog()), Store(tmp_path / "there.db", shipped_catalog())


def to_round_three(here: Store, players: int = 3) -> str:
    """A game played on `here` to round III's first turn, with undos and a tick on the way."""
    gid = here.create(options_for(players, names=[p["name"] for p in THREE][:players]), seed=8).id
    here.tick(gid, "setup", 2, "0123456789abcdef", True)
    play_until(here, gid, random.Random(3), lambda s: s.round == 3 and s.phase == "play", undo_every=17)
    return gid


@pytest.fixture
def round_three(stores):
    return to_round_three(stores[0], players=2)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Store, str, bytes]:
    """One game to round III for the module's tests that only read it: its store, id and file."""
    here = Store(tmp_path_factory.mktemp("exported") / "here.db", shipped_catalog())
    gid = to_round_three(here)
    return here, gid, file_of(here, gid)


def test_a_game_exported_in_round_III_and_resumed_elsewhere_ends_with_the_same_final_scoring_R_SCORE_6(
        stores, round_three):
    here, there = stores
    game = there.resume(read_file(file_of(here, round_three)))
    assert game.id != round_three and text(game.state) == text(here.load(round_three).state)
    original = play_until(here, round_three, random.Random(21), over)
    resumed = play_until(there, game.id, random.Random(21), over)  # the same choices from the same point
    assert resumed.version == original.version
    assert final_scoring(resumed.state.clone()) == final_scoring(original.state.clone())
    assert resumed.state.scoring == original.state.scoring and text(resumed.state) == text(original.state)


def test_the_resumed_game_keeps_its_log_undos_ticks_and_catalog_under_new_links_and_codes(stores, exported):
    here, round_three, _ = exported
    there = stores[1]
    game = there.resume(read_file(file_of(here, round_three)))
    assert there.history(game.id) == here.history(round_three)  # every act, undone marks, undos' notes, words
    assert there.undos(game.id) == here.undos(round_three) and there.ticks(game.id) == here.ticks(round_three)
    assert there.catalog_of(game.id).fingerprint == here.catalog_of(round_three).fingerprint
    old, new = here.seats(round_three), there.seats(game.id)
    assert {s["token"] for s in old}.isdisjoint(s["token"] for s in new)
    assert {s["code"] for s in old}.isdisjoint(s["code"] for s in new)
    assert game.host_token != here.load(round_three).host_token and all(s["device"] == "" for s in new)
    for seat in old:
        with pytest.raises(NotFound):
            there.seat_by_token(seat["token"])
    # and it plays on: the host may take back an act that came with the file
    taken = there.undo(game.id, game.version, 1)
    assert taken.undos[-1]["undo"] and taken.version == game.version + 1


def test_a_game_played_with_a_table_s_corrected_catalog_resumes_with_that_catalog(tmp_path):
    records = json.loads(shipped_catalog().records_json)
    boat = next(b for b in records["boat"] if b["id"] == "boat-5")
    boat["reward"], boat["source"] = "2 coin", "checked"
    corrected = catalog_from_records(records)
    here = Store(tmp_path / "here.db", corrected)
    gid = here.create(options_for(2), seed=4).id
    play_until(here, gid, random.Random(2), lambda s: s.round == 2)
    there = Store(tmp_path / "there.db", shipped_catalog())
    game = there.resume(read_file(file_of(here, gid)))
    assert there.catalog_of(game.id).fingerprint == corrected.fingerprint != shipped_catalog().fingerprint


def test_a_table_draw_game_resumes_with_the_draws_the_host_entered(stores):
    """C-1: in table-draw mode the host's answers to the reveals are acts of the file, replayed as entered."""
    here, there = stores
    gid = here.create(options_for(2, draw="table"), seed=6).id
    play_until(here, gid, random.Random(5), lambda s: s.round == 2, undo_every=11)
    game = there.resume(read_file(file_of(here, gid)))
    assert text(game.state) == text(here.load(gid).state)
    assert any(a["who"] == "host" and not a["undone"] for a in there.history(game.id))


# --- refused files: the act or field named, nothing created -----------------------------------------------


def refused(there: Store, path, body) -> Refused:
    before = fingerprint(path)
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    with pytest.raises(Refused) as caught:
        there.resume(read_file(data))
    assert fingerprint(path) == before and there.games() == []
    return caught.value


def live_act(body: dict, after: int = 5) -> dict:
    """A live act of a seat, past the first few, whose menu had another available option."""
    return next(a for a in body["actions"][after:] if a["kind"] == "act" and not a["undone"] and a["who"] != "host")


@pytest.fixture
def body(exported) -> dict:
    return json.loads(exported[2])


@pytest.fixture
def there_path(tmp_path):
    return tmp_path / "there.db"


def test_a_file_with_one_act_changed_is_refused_at_that_act(stores, exported, body, there_path):
    here, round_three, _ = exported
    there = stores[1]
    row = live_act(body)
    state = here.load(round_three).state  # any menu of that seat gives another pick worth trying
    row["action"]["pick"] = {"act": "end"} if row["action"]["pick"] != {"act": "end"} else None
    problem = refused(there, there_path, body)
    assert problem.where == f"act {row['version']}" and f"Act {row['version']} (" in problem.message
    assert state.seats[row["action"]["who"]].name in problem.message


def test_a_file_with_one_choice_swapped_for_another_legal_one_is_refused_at_that_act(stores, body, there_path):
    """The other option is on the menu and possible: the act replays, but not to what the file says it did."""
    there = stores[1]
    replayed = Store(there_path.with_name("scratch.db"), shipped_catalog())
    gid = replayed.create(options_for(3, names=[p["name"] for p in THREE]), seed=8).id
    for row in body["actions"]:
        game = replayed.load(gid)
        if row["kind"] == "undo":
            replayed.undo(gid, game.version, len(row["action"]["acts"]))
            continue
        menu = legal_actions(game.state, row["action"]["who"])
        others = [o for o in menu if o["available"] and o["value"] != row["action"]["pick"]]
        if others and row["version"] > 5 and not row["undone"]:
            row["action"]["pick"] = others[0]["value"]
            break
        replayed.act(gid, game.version, row["action"]["who"], row["action"]["decision"],
                     next(i for i, o in enumerate(menu) if o["value"] == row["action"]["pick"]))
    problem = refused(there, there_path, body)
    assert problem.where == f"act {row['version']}" and "the file's words for it" in problem.message


def test_a_file_with_one_act_removed_is_refused_naming_where(stores, body, there_path):
    _, there = stores
    last_undo = max(a["version"] for a in body["actions"] if a["kind"] == "undo")
    gone = live_act(body, after=last_undo)["version"]  # so that no undo's note names a version it moves
    cut = [a for a in body["actions"] if a["version"] != gone]
    problem = refused(there, there_path, {**body, "actions": cut})
    assert problem.where in ("version", f"actions[{gone - 1}].version")
    renumbered = [{**a, "version": i + 1} for i, a in enumerate(cut)]  # an editor who mended the numbers too
    problem = refused(there, there_path, {**body, "actions": renumbered, "version": len(renumbered)})
    assert problem.where.startswith("act ") and int(problem.where[4:]) >= gone


def test_a_file_whose_catalog_was_changed_is_refused_naming_the_catalog(stores, body, there_path):
    _, there = stores
    records = json.loads(body["catalog"]["records"])
    next(b for b in records["boat"] if b["id"] == "boat-5")["reward"] = "2 coin"
    body["catalog"]["records"] = json.dumps(records, separators=(",", ":"), ensure_ascii=False)
    problem = refused(there, there_path, body)
    assert problem.where == "catalog.records" and "fingerprint" in problem.message
    body["catalog"]["fingerprint"] = hashlib.sha256(body["catalog"]["records"].encode()).hexdigest()
    game = there.resume(read_file(json.dumps(body).encode()))  # a whole other catalog, said so: its own game
    assert there.catalog_of(game.id).fingerprint == body["catalog"]["fingerprint"]


@pytest.mark.parametrize("cut", [0.5, 0.999, 0.05])
def test_a_truncated_file_is_refused_naming_the_line(stores, exported, there_path, cut):
    there, data = stores[1], exported[2]
    problem = refused(there, there_path, data[:int(len(data) * cut)])
    assert problem.where.startswith("line ") and "cut short" in problem.message


def test_a_file_whose_final_state_was_edited_is_refused_naming_the_field(stores, body, there_path):
    _, there = stores
    body["state"]["seats"][1]["coins"] += 5
    problem = refused(there, there_path, body)
    assert problem.where == "state.seats[1].coins" and "state.seats[1].coins" in problem.message


def test_a_file_whose_undone_marks_or_undo_notes_were_edited_is_refused(stores, body, there_path):
    _, there = stores
    live = live_act(body)
    live["undone"] = 1
    problem = refused(there, there_path, body)
    assert problem.where == f"actions[{live['version'] - 1}].undone"
    live["undone"] = 0
    undo = next(a for a in body["actions"] if a["kind"] == "undo" and a["action"]["put_back"])
    undo["action"]["put_back"][0]["text"] = "Put every cube back in the box."
    problem = refused(there, there_path, body)
    assert problem.where == f"act {undo['version']}" and problem.message.startswith(f"Undo {undo['version']}")


def test_an_act_recorded_for_another_seat_is_refused_at_that_act(stores, body, there_path):
    _, there = stores
    row = live_act(body)
    row["action"]["who"] = (row["action"]["who"] + 1) % 3
    row["who"] = str(row["action"]["who"])
    problem = refused(there, there_path, body)
    assert problem.where == f"act {row['version']}" and "does not replay" in problem.message


def test_a_newer_format_is_refused_and_an_older_one_replays_with_the_catalog_in_force(stores, exported, body,
                                                                                       there_path):
    here, round_three, _ = exported
    there = stores[1]
    problem = refused(there, there_path, {**body, "format": FORMAT + 1})
    assert problem.where == "format" and "newer companion" in problem.message
    old = {k: body[k] for k in ("game", "options", "seed", "version", "ticks")}  # the export before format 2
    old["actions"] = [{k: a[k] for k in ("version", "who", "via", "kind", "action", "undone", "time")}
                      for a in body["actions"]]
    game = there.resume(read_file(json.dumps(old).encode()))
    assert text(game.state) == text(here.load(round_three).state)
    assert there.history(game.id) == here.history(round_three)  # the acts' words made again, as they were


def test_the_file_holds_no_secret(exported):
    here, round_three, _ = exported
    data = file_of(here, round_three).decode()
    secrets = [here.load(round_three).host_token] + [v for s in here.seats(round_three) for v in (s["token"], s["code"])]
    assert not [s for s in secrets if s in data]
    assert json.loads(data)["format"] == FORMAT and pending(here.load(round_three).state)


def test_a_game_resumed_today_is_not_idle_whatever_its_acts_times(stores, exported):
    """`prune --older-than` counts a resumed game from the day it came here, not from its acts' old times."""
    _, there = stores
    body = json.loads(exported[2])
    for row in body["actions"]:
        row["time"] -= 30 * 86400  # played a month ago, on the first laptop
    game = there.resume(read_file(json.dumps(body).encode()))
    assert there.idle_since(time.time() - 86400) == []
    assert [g["id"] for g in there.idle_since(time.time() + 1)] == [game.id]
