"""`POST /api/games/resume` under hostile files (issue 36 item 4: "no 5xx"): hypothesis mutates a real game's
file (any field replaced by any JSON value, removed, or joined by an unknown one), cuts it short anywhere or
flips its bytes. Every answer is 201 or a refusal (400, 413) naming where; a refusal changes nothing, and a
file that is accepted is a game that replays."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mutate import damaged
from tables import api_step, app_on, fingerprint, host_h, new_game, THREE

pytestmark = pytest.mark.slow

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)
JSON = st.recursive(st.none() | st.booleans() | st.integers(min_value=-10 ** 20, max_value=10 ** 20)
                    | st.floats(allow_nan=False) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=8)
KEYS = ["format", "kind", "game", "options", "seed", "version", "catalog", "records", "fingerprint", "actions", "who",
        "via", "action", "decision", "pick", "undo", "acts", "put_back", "undone", "act", "said", "ticks", "state"]


@pytest.fixture(scope="module")
def resumer(tmp_path_factory):
    """A game's file with moves and an undo, and an app (errors answered as in production) to resume it on."""
    here = app_on(tmp_path_factory.mktemp("here"))
    client = here.test_client()
    game = new_game(client, THREE, seed=9)
    rng = random.Random(1)
    for _ in range(12):
        api_step(client, game, rng)
    here.extensions["store"].undo(game["id"], here.extensions["store"].version(game["id"]), 1)
    body = json.loads(client.get(f"/host/{game['id']}/export.json", headers=host_h(game)).data)
    there = app_on(tmp_path_factory.mktemp("there"), TESTING=False, NEW_GAMES_PER_MINUTE=0, NEW_GAMES_PER_DAY=0)
    return body, there


def _outside_the_catalog(path: tuple) -> bool:
    """Any place of the file but inside its catalog, where only the catalog itself and its list of records."""
    return bool(path) and path[0] != "catalog" or path in (("catalog",), ("catalog", "records"))


def _send(there, data: bytes):
    before = fingerprint(there)
    r = there.test_client().post("/api/games/resume", data=data, content_type="application/json")
    assert r.status_code in (201, 400, 413), (r.status_code, r.get_data(as_text=True)[:300])
    if r.status_code != 201:
        assert fingerprint(there) == before
        assert isinstance(r.get_json()["error"], str)
    return r


@settings(max_examples=400, **SETTINGS)
@given(junk=JSON, seed=st.integers(0, 2 ** 32))
def test_any_mutated_file_is_resumed_or_refused_never_a_crash(resumer, junk, seed):
    body, there = resumer
    try:
        data = json.dumps(damaged(body, random.Random(seed), junk, KEYS, _outside_the_catalog)).encode()
    except (TypeError, ValueError):
        return
    r = _send(there, data)
    if r.status_code == 400:
        assert isinstance(r.get_json()["where"], str)


@settings(max_examples=150, **SETTINGS)
@given(cut=st.floats(0, 1), flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4))
def test_a_file_cut_short_or_with_flipped_bytes_is_refused_or_still_the_game(resumer, cut, flips):
    body, there = resumer
    data = bytearray(json.dumps(body).encode())
    for where, byte in flips:
        data[int(where * (len(data) - 1))] = byte
    _send(there, bytes(data[:max(1, int(cut * len(data)))] if cut < 1 else data))
