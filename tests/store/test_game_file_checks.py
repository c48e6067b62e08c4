"""A game's file is a stranger's upload until proved (issue 36 item 4): every field is checked for its kind and
range before anything is built from it, and a forged, damaged or hostile file is refused naming the field,
with words a person can act on (companion/store/game_file.py)."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from companion.catalog import shipped_catalog
from companion.engine import options_for
from companion.store.game_file import LARGEST, MOST_ROWS, Refused, read_file
from companion.store import Store
from tables import store_step


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict:
    store = Store(tmp_path_factory.mktemp("file") / "g.db", shipped_catalog())
    gid = store.create(options_for(2), seed=3).id
    for _ in range(6):
        store_step(store, gid)
    store.undo(gid, store.version(gid), 1)
    store.tick(gid, "setup", 1, "0123456789abcdef", True)
    return json.loads(json.dumps(store.game_file(gid)))


def test_the_good_file_passes(good):
    checked = read_file(json.dumps(good).encode())
    assert checked.version == len(checked.rows) == good["version"] and checked.catalog is not None


def set_at(body: dict, path: tuple, value) -> dict:
    body = copy.deepcopy(body)
    target = body
    for key in path[:-1]:
        target = target[key]
    if value is DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return body


DROP = object()
FIELDS = [
    (("seed",), True, "seed"), (("seed",), -1, "seed"), (("seed",), "5", "seed"),
    (("version",), 99, "version"), (("kind",), "other", "kind"), (("game",), "../../etc/passwd", "game"),
    (("options", "players"), [{"name": f"P{i}", "colour": "red"} for i in range(5)], "options.players"),
    (("options", "players", 0, "name"), "\u202eAda", "options.players"),
    (("options", "players", 1, "name"), "ada", "options.players"),
    (("options", "players", 0, "name"), "", "options.players"),
    (("options", "draw"), "dice", "options"), (("options", "advanced"), "yes", "options"),
    (("actions",), {"0": 1}, "actions"), (("actions", 0), [1], "actions[0]"),
    (("actions", 0, "kind"), "redo", "actions[0]"), (("actions", 0, "via"), "phone 2; rm -rf /", "actions[0]"),
    (("actions", 0, "version"), 2, "actions[0].version"), (("actions", 0, "action", "extra"), 1, "actions[0].action"),
    (("actions", 0, "action", "who"), 7, "actions[0].action.who"),
    (("actions", 0, "action", "who"), True, "actions[0].action.who"),
    (("actions", 0, "action", "decision"), "x", "actions[0].action.decision"),
    (("actions", 0, "time"), -5, "actions[0].time"), (("actions", 0, "time"), 1e300, "actions[0].time"),
    (("actions", 0, "undone"), 2, "actions[0].undone"), (("actions", 0, "said"), [1], "actions[0].said"),
    (("actions", 0, "act"), DROP, "actions[0].act"), (("actions", 0, "who"), "1", "actions[0].action.who"),
    (("ticks", 0, "list"), "upkeep-9", "ticks[0]"), (("ticks", 0, "words"), "../../../etc", "ticks[0]"),
    (("ticks", 0, "step"), 0, "ticks[0].step"),
    (("catalog",), DROP, "catalog"), (("catalog", "records"), [], "catalog.records"),
    (("catalog", "records"), {"hex": "x"}, "catalog.records"), (("catalog", "fingerprint"), "abc", "catalog.fingerprint"),
    (("state",), DROP, "state"), (("state",), [], "state"),
]


@pytest.mark.parametrize("path, value, where", FIELDS, ids=[f"{'.'.join(map(str, p))}={str(v)[:12]}" for p, v, _ in FIELDS])
def test_a_forged_field_is_refused_naming_it(good, path, value, where):
    with pytest.raises(Refused) as caught:
        read_file(json.dumps(set_at(good, path, value)).encode())
    assert caught.value.where == where, caught.value


def test_an_undo_that_names_a_version_after_itself_is_refused(good):
    undo = next(i for i, a in enumerate(good["actions"]) if a["kind"] == "undo")
    with pytest.raises(Refused) as caught:
        read_file(json.dumps(set_at(good, ("actions", undo, "action", "undo"), [undo + 5])).encode())
    assert caught.value.where == f"actions[{undo}].action.undo"


def with_records(good: dict, records: str) -> bytes:
    catalog = {"records": records, "fingerprint": hashlib.sha256(records.encode()).hexdigest()}
    return json.dumps({**good, "catalog": catalog}).encode()


def test_a_catalog_that_is_no_catalog_is_refused_whatever_its_fingerprint(good):
    """Records with a fingerprint made to match them are still checked as a table's corrections are."""
    for records in ("{}", '{"hex": 5}', "[", json.dumps(json.loads(good["catalog"]["records"]), sort_keys=True)):
        with pytest.raises(Refused) as caught:
            read_file(with_records(good, records))
        assert caught.value.where == "catalog.records", records[:20]


def test_the_same_tick_twice_is_refused(good):
    ticks = good["ticks"] * 2
    with pytest.raises(Refused) as caught:
        read_file(json.dumps({**good, "ticks": ticks}).encode())
    assert caught.value.where == "ticks[1]"


@pytest.mark.parametrize("data", [b"", b"[]", b"42", b'"a game"', b"\xff\xfe{", b"[" * 100_000, b"{" * 50,
                                  b'{"actions": [], "options": {}, "seed": NaN}',
                                  b'{"actions": [], "options": {}, "seed": ' + b"9" * 5000 + b"}"],
                         ids=["empty", "list", "number", "text", "not utf-8", "deep", "open", "NaN", "huge number"])
def test_what_is_no_game_file_at_all_is_refused_in_plain_words(data):
    with pytest.raises(Refused) as caught:
        read_file(data)
    assert "not a game's file" in caught.value.message or "cut short" in caught.value.message


def test_a_file_over_the_size_cap_is_refused_unread():
    with pytest.raises(Refused) as caught:
        read_file(b" " * (LARGEST + 1))
    assert "larger than 5 MB" in caught.value.message


def test_a_file_listing_more_rows_than_any_game_has_is_refused(good):
    rows = [good["actions"][0]] * (MOST_ROWS + 1)
    with pytest.raises(Refused) as caught:
        read_file(json.dumps({**good, "actions": rows, "version": len(rows)}).encode())
    assert caught.value.where in ("actions", "version")
