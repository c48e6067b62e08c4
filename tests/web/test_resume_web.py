"""Resume a game from its file on the web (issue 36): the front page's form and `POST /api/games/resume`, the
upkeep's "keep a copy of the game so far", and refusals that name the act or field in the reader's language
and change nothing."""

from __future__ import annotations

import html
import io
import json
import random

import pytest

from companion.resume.backups import moment_of
from companion.web.host import resume as resume_web
from tables import (api_step, app_on, csrf_of, fingerprint, host_h, new_game, snapshot, store_step, text,
                    translated)


@pytest.fixture
def exported(client, game) -> bytes:
    """The game's file after a few moves, as the host screen's export gives it."""
    rng = random.Random(2)
    for _ in range(8):
        api_step(client, game, rng)
    r = client.get(f"/host/{game['id']}/export.json", headers=host_h(game))
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    return r.data


@pytest.fixture
def there(tmp_path):
    """Another machine running the companion."""
    return app_on(tmp_path / "there")


def upload(client, data: bytes, name: str = "messina.json"):
    return client.post("/games/resume", data={"csrf": csrf_of(client), "file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def page_text(r) -> str:
    return html.unescape(text(r))


def test_the_front_page_offers_to_resume_a_game_from_its_file(client):
    page = text(client.get("/"))
    form = page[page.index('id="resume"'):]
    assert "Resume a game from its file" in page and 'enctype="multipart/form-data"' in form
    assert 'action="/games/resume"' in form and 'name="csrf"' in form and 'type="file" name="file"' in form


def test_the_host_resumes_a_game_from_its_file_and_lands_on_its_new_host_screen(client, game, exported, there):
    other = there.test_client()
    r = upload(other, exported)
    assert r.status_code == 303
    gid = r.headers["Location"].split("/host/")[1].split("?")[0]
    assert gid != game["id"] and "key=" in r.headers["Location"]
    host = other.get(r.headers["Location"], follow_redirects=True)
    assert host.status_code == 200 and other.get_cookie(f"host_{gid}") is not None
    mine = there.extensions["store"].load(gid)
    assert mine.version == snapshot(client, game)["version"]
    assert json.loads(json.dumps(mine.state.to_dict())) == snapshot(client, game)["state"]


def test_a_refused_file_names_the_act_in_the_readers_language_and_creates_nothing(exported, tmp_path):
    there = app_on(tmp_path / "there", **translated(tmp_path))
    body = json.loads(exported)
    row = next(a for a in body["actions"][3:] if a["kind"] == "act" and a["who"] != "host")
    row["action"]["decision"] += 1000
    other = there.test_client()
    other.get("/language/fr")
    before = fingerprint(there)
    r = upload(other, json.dumps(body).encode())
    assert r.status_code == 400 and fingerprint(there) == before
    said = page_text(r)
    assert f"Le coup {row['version']} (" in said and "ne se rejoue pas" in said
    assert 'id="resume"' in text(r)  # the front page again, its form below the message


@pytest.mark.parametrize("data, words, status", [
    (b"", "Choose the game's file first.", 400),
    (b'{"format": 2, "actions": [', "cut short", 400),
    (b"\x89PNG\r\n\x1a\n", "not a game's file", 400),
])
def test_an_empty_truncated_or_foreign_upload_is_refused_plainly(client, data, words, status):
    before = fingerprint(client.application)
    r = upload(client, data)
    assert r.status_code == status and words in page_text(r) and fingerprint(client.application) == before


def test_an_upload_over_five_megabytes_is_refused_before_it_is_read(client):
    before = fingerprint(client.application)
    r = upload(client, b" " * (6 * 1024 * 1024))
    assert r.status_code == 413 and "larger than 5 MB" in page_text(r)
    assert fingerprint(client.application) == before
    other = client.post("/games", data={"csrf": csrf_of(client), "name0": "A" * 70_000})  # other forms keep 64 KB
    assert other.status_code == 413


def test_the_api_resumes_a_game_with_new_links_and_the_old_ones_are_not_on_this_machine(game, exported, there):
    other = there.test_client()
    r = other.post("/api/games/resume", data=exported, content_type="application/json")
    assert r.status_code == 201, r.get_json()
    new = r.get_json()
    assert new["resumed_from"] == game["id"] and new["id"] != game["id"]
    assert {s["token"] for s in new["seats"]}.isdisjoint(s["token"] for s in game["seats"])
    assert all(len(s["code"]) == 5 and s["join_url"].endswith(s["token"]) for s in new["seats"])
    old = other.get(f"/j/{game['seats'][0]['token']}")
    assert old.status_code == 404 and "not on this machine" in page_text(old)
    api_step(other, new)  # the next move, on the new machine, by whoever must answer
    assert snapshot(other, new)["version"] == new["version"] + 1


def test_the_api_refuses_a_forged_file_naming_where_and_creates_nothing(exported, there):
    other = there.test_client()
    body = json.loads(exported)
    body["state"]["round"] = 5
    before = fingerprint(there)
    r = other.post("/api/games/resume", json=body)
    assert r.status_code == 400 and r.get_json()["where"] == "state.round"
    r = other.post("/api/games/resume", data=exported, content_type="text/plain")
    assert r.status_code == 400 and "JSON" in r.get_json()["error"]
    r = other.post("/api/games/resume", data=b"[" * (5 * 1024 * 1024 + 1), content_type="application/json")
    assert r.status_code == 413 and fingerprint(there) == before


def test_a_resume_counts_as_a_new_game_against_the_devices_limit(exported, tmp_path):
    there = app_on(tmp_path / "there", NEW_GAMES_PER_MINUTE=1).test_client()
    assert there.post("/api/games/resume", data=exported, content_type="application/json").status_code == 201
    r = there.post("/api/games/resume", data=exported, content_type="application/json")
    assert r.status_code == 429


def test_the_upkeep_offers_a_copy_of_the_game_so_far_which_resumes_it(app, client, game, there):
    """R-NEXT-14: while the upkeep waits for "the table is ready", its checklist offers the game's file."""
    store = app.extensions["store"]
    rng = random.Random(4)
    while moment_of(store.load(game["id"]).state) != "round-1":
        store_step(store, game["id"], rng)
    page = text(client.get(f"/host/{game['id']}", headers=host_h(game)))
    upkeep = page[page.index('id="upkeep"'):page.index("</section>", page.index('id="upkeep"'))]
    assert f'href="/host/{game["id"]}/export.json" download' in upkeep and "Keep a copy of the game so far" in upkeep
    copy = client.get(f"/host/{game['id']}/export.json", headers=host_h(game)).data
    r = there.test_client().post("/api/games/resume", data=copy, content_type="application/json")
    assert r.status_code == 201 and r.get_json()["version"] == store.version(game["id"])


def test_the_page_takes_a_file_resumed_twice_as_two_games(client, exported, there):
    """A table may resume the same copy again (the first laptop died twice): each is a game of its own."""
    other = there.test_client()
    first, second = upload(other, exported), upload(other, exported)
    assert first.status_code == second.status_code == 303 and first.headers["Location"] != second.headers["Location"]
    assert len(there.extensions["store"].games()) == 2


def test_new_game_form_still_works_beside_the_resume_form(client):
    r = client.post("/games", data={"csrf": csrf_of(client), "name0": "Ada", "colour0": "red"})
    assert r.status_code == 302
    assert new_game(client)["id"]


def test_one_file_is_replayed_at_a_time_and_another_hears_to_try_again(exported, there):
    with resume_web._ONE_AT_A_TIME:  # a long file is being replayed
        r = there.test_client().post("/api/games/resume", data=exported, content_type="application/json")
    assert r.status_code == 429 and "Try again in a moment" in r.get_json()["error"]
    assert there.extensions["store"].games() == []
