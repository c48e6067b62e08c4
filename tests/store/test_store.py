"""The store's own promises: a load is one moment of the database (issue 10, item 8), the games kept in
memory are bounded (item 4), and game ids have 64 random bits with a retry on a collision (item 10)."""

from __future__ import annotations

import json
import random
import re
import secrets
import threading
import time

from companion.catalog import shipped_catalog
from companion.engine import apply, legal_actions, new_game, options_for, pending
from companion.engine.state import Options
from companion.store import Store
from tables import store_step


def text(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


# --- consistent reads -----------------------------------------------------------------------------------

def test_an_undo_committed_during_a_load_never_mislabels_the_state(tmp_path, monkeypatch):
    """The undo lands between the load's read of the version and its rebuild (forced by a hook): the
    load still returns the state of the version it reports, and caches nothing wrong."""
    path = tmp_path / "games.db"
    writer = Store(path)
    gid = writer.create(options_for(2), seed=7).id
    for _ in range(6):
        store_step(writer, gid)
    before = writer.load(gid)
    reader = Store(path)  # another cold cache: its load must rebuild
    rebuild = Store._rebuild
    loading = threading.get_ident()
    undone = []

    def undo_in_between(self, db, g, version):
        if threading.get_ident() == loading and not undone:
            t = threading.Thread(target=lambda: undone.append(writer.undo(gid, before.version, 2)))
            t.start()
            t.join(10)
            assert undone, "the undo did not commit"
        return rebuild(self, db, g, version)

    monkeypatch.setattr(Store, "_rebuild", undo_in_between)
    loaded = reader.load(gid)
    assert (loaded.version, text(loaded.state)) in {(before.version, text(before.state)),
                                                    (undone[0].version, text(undone[0].state))}
    again = reader.load(gid)
    assert (again.version, text(again.state)) == (undone[0].version, text(undone[0].state))


def test_loads_racing_moves_and_undos_always_match_their_version(tmp_path):
    """One thread moving and undoing (40 commits, or 20 s on a very busy box) while two others load (cold
    caches): every loaded (version, state) is the state the writer committed at that version. Counted in
    commits, not seconds: two readers rebuilding in pure Python hold the GIL, so a writer's commits per
    second vary tenfold with the box."""
    path = tmp_path / "games.db"
    writer = Store(path)
    gid = writer.create(options_for(3), seed=11).id
    truth = {0: text(writer.load(gid).state)}
    seen: list[tuple[int, str]] = []
    deadline = time.monotonic() + 20.0
    done = threading.Event()
    errors = []

    def write():
        rng = random.Random(5)
        try:
            for _ in range(40):
                if time.monotonic() > deadline:
                    break
                if rng.random() < 0.3 and len(truth) > 3:
                    game = writer.undo(gid, writer.version(gid), rng.randint(1, 2))
                else:
                    game = store_step(writer, gid, rng)
                truth[game.version] = text(game.state)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            done.set()

    def read():
        reader = Store(path)
        checked = None
        try:
            while not done.is_set():
                game = reader.load(gid)
                if game.state is not checked:  # the same state again says nothing new: written out once only,
                    checked = game.state       # so the readers leave the writer its share of the GIL
                    seen.append((game.version, text(game.state)))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert len(truth) > 10 and len(seen) > 10
    wrong = [v for v, state in seen if truth.get(v) != state]
    assert not wrong, f"{len(wrong)} of {len(seen)} loads mislabelled, versions {wrong[:5]}"


# --- bounded memory ---------------------------------------------------------------------------------------

def test_the_store_keeps_only_the_most_recently_used_games_in_memory(tmp_path):
    store = Store(tmp_path / "games.db")
    first = store.create(options_for(1), seed=1)
    ids = [first.id] + [store.create(options_for(1), seed=i).id for i in range(2, 150)]
    for gid in ids:
        store.load(gid)
    assert len(store._cache) <= 64  # about 0.3 MB each: a bounded server whatever the number of games
    store.load(ids[-1])
    assert store._cache.get(ids[-1]) is not None and store._cache.get(first.id) is None
    assert text(store.load(first.id).state) == text(first.state)  # an evicted game comes back whole
    store_step(store, first.id)
    assert len(store._cache) <= 64


# --- game ids ---------------------------------------------------------------------------------------------

def test_game_ids_have_64_random_bits(tmp_path):
    store = Store(tmp_path / "games.db")
    ids = {store.create(options_for(1), seed=1).id for _ in range(20)}
    assert len(ids) == 20
    assert all(re.fullmatch(r"[0-9a-f]{16}", gid) for gid in ids)


def test_a_new_game_drawing_a_taken_id_draws_again(tmp_path, monkeypatch):
    store = Store(tmp_path / "games.db")
    taken = store.create(options_for(2), seed=1)
    draws = iter([taken.id, taken.id])
    real = secrets.token_hex
    monkeypatch.setattr(secrets, "token_hex", lambda n=None: next(draws, None) or real(n))
    game = store.create(options_for(3), seed=2)
    assert game.id != taken.id
    assert len(store.seats(game.id)) == 3 and len(store.seats(taken.id)) == 2
    assert store.load(taken.id).state.options.count == 2  # the first game is untouched
    assert next(draws, "spent") == "spent"  # both taken ids were drawn and refused


def test_every_threads_connection_keeps_a_small_page_cache(tmp_path):
    """`serve` runs hundreds of threads, each with its own connection: SQLite's default 2 MB page cache
    each could grow to a gigabyte with a big games file."""
    store = Store(tmp_path / "games.db")
    sizes = [store._db().execute("PRAGMA cache_size").fetchone()[0]]
    other = threading.Thread(target=lambda: sizes.append(store._db().execute("PRAGMA cache_size").fetchone()[0]))
    other.start()
    other.join()
    assert all(-256 <= size < 0 for size in sizes), sizes  # at most 256 KiB each


def test_a_game_after_a_restart_is_the_game_replayed_from_its_log(tmp_path):
    """A restarted server rebuilds each game from its stored catalog, snapshot and log; that must be the
    very game a fresh engine replays from the options, the seed and the log (the durability promise), for
    table draws and the advanced game too, where setup texts walk the catalog's tables in order."""
    rng = random.Random(4)
    for advanced, draw in ((True, "table"), (False, "table"), (True, "app")):
        store = Store(tmp_path / "games.db")
        gid = store.create(options_for(2, advanced=advanced, draw=draw), seed=11).id
        for step in range(40):
            if step in (1, 20):
                store = Store(tmp_path / "games.db")  # a restart: early in setup, and later in round I
            game = store.load(gid)
            who = pending(game.state)[0]["who"]
            menu = legal_actions(game.state, who)
            opt = rng.choice([o for o in menu if o["available"]])
            store.act(gid, game.version, who, opt["action"]["decision"], menu.index(opt))
        row = store.row(gid)
        fresh = new_game(Options.from_dict(json.loads(row["options"])), row["seed"], shipped_catalog())
        for entry in store.history(gid):
            apply(fresh, entry["action"])
        restarted = Store(tmp_path / "games.db").load(gid).state
        assert json.dumps(restarted.to_dict()) == json.dumps(fresh.to_dict()), (advanced, draw)
