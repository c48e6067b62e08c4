"""The score sheet under hostile input (issue 26: "nothing crashes"): hypothesis mutates real sheets sent to
`POST /api/score` (any field replaced by any JSON value, removed, or joined by an unknown one) and sends
the `/score` page and its export random fields and values, real names among them. No answer is a 5xx; an
accepted sheet's lines add up to its totals; a refused one names a field."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mutate import damaged
from sheets import SHEETS

pytestmark = pytest.mark.slow

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)
JSON = st.recursive(st.none() | st.booleans() | st.integers(min_value=-10 ** 20, max_value=10 ** 20)
                    | st.floats(allow_nan=False) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=8)
KEYS = ["players", "advanced", "opponent_popularity", "seats", "name", "colour", "track", "laps", "rats",
        "popularity", "city", "church", "fire", "major_fire", "coins", "lumber", "scroll_board", "scroll",
        "improvements", "workshops", "wagons", "boats", "repopulated", "overseers", "1", "3", "5", "silk",
        "stones", "spices", "buildings", "goods", "nun", "b1", "a", "n07"]



@settings(max_examples=1500, **SETTINGS)
@given(junk=JSON, seed=st.integers(0, 2 ** 32))
def test_any_mutated_sheet_is_scored_or_refused_never_a_crash(sheet_client, junk, seed):
    rng = random.Random(seed)
    sheet = SHEETS[rng.choice(sorted(SHEETS))]["position"]
    body = damaged(sheet, rng, junk, KEYS)
    try:
        data = json.dumps(body)
    except (TypeError, ValueError):
        return
    r = sheet_client.post("/api/score", data=data, content_type="application/json")
    assert r.status_code in (200, 400), (r.status_code, data[:300])
    out = r.get_json()
    if r.status_code == 200:
        for x in out["scoring"]["seats"]:
            assert x["total"] == sum(ln["points"] for ln in x["lines"])
    else:
        assert isinstance(out["error"], str) and isinstance(out["field"], str)


FIELDS = ["players", "advanced", "score", "opponent_popularity", "hex.n07", "hex.n12", "hex.zz"] + [
    f"p{i}.{k}" for i in range(5) for k in ("name", "colour", "track", "laps", "rats", "popularity", "city", "church",
                                            "fire", "major_fire", "coins.1", "coins.5", "lumber", "scroll_board",
                                            "scroll.a.buildings", "scroll.b2.overseers", "improvements", "workshops",
                                            "wagons", "boats.silk", "boats.stones", "overseers.nun")]
VALUES = st.one_of(st.sampled_from(["", "0", "1", "2", "3", "4", "5", "14", "99", "100", "-1", "b1", "b4", "a",
                                    "red", "blue", "1e3", "٣", "²", "0x10", "999999999999"]), st.text(max_size=10))


@settings(max_examples=1500, **SETTINGS)
@given(pairs=st.lists(st.tuples(st.sampled_from(FIELDS) | st.text(max_size=8), VALUES), max_size=14),
       export=st.booleans())
def test_any_query_shows_the_sheet_or_refuses_never_a_crash(sheet_client, pairs, export):
    if not export:
        pairs = pairs + [("score", "1")]
    r = sheet_client.get("/score/export.json" if export else "/score", query_string=pairs)
    assert r.status_code in (200, 400), (r.status_code, pairs)
