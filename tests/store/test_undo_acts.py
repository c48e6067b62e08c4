"""Undo says what will go, in players' acts (issue 25 item 6): an act is a choice that starts something and
the questions it led to for the same person (engine/acts.py); the host's undo names the acts before it
confirms and counts acts, not steps; a phone may take back its own last act while no other seat or the host
has acted since and nothing hidden came to light (BGA's policy), and gets the same put-back lines."""

from __future__ import annotations

import random
import re

import pytest

from companion.engine import IllegalAction, legal_actions, options_for, pending
from companion.engine.acts import OPENS, opens_act
from companion.store import Store
from tables import host_and_phones

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


def step(store: Store, gid: str, rng: random.Random, via: str = "phone 1") -> None:
    game = store.load(gid)
    q = pending(game.state)[0]
    menu = legal_actions(game.state, q["who"])
    pick = rng.choice([n for n, o in enumerate(menu) if o["available"]])
    store.act(gid, game.version, q["who"], menu[pick]["action"]["decision"], pick, via)


def until(store: Store, gid: str, done, seed: int = 1, most: int = 600) -> None:
    rng = random.Random(seed)
    for _ in range(most):
        step(store, gid, rng)
        if done(store):
            return
    raise AssertionError("never reached")


def longest_act(store, gid):
    return lambda s: (acts := s.last_acts(gid, 1)) and len(acts[0]["versions"]) > 1 and acts[0]["who"] != "host"


def test_a_lieutenants_move_and_the_questions_it_leads_to_are_one_act(store):
    game = store.create(options_for(2), seed=3)
    until(store, game.id, longest_act(store, game.id))
    (act,) = store.last_acts(game.id, 1)
    kinds = [ln["kind"] for ln in act["lines"]]
    assert kinds[0] in OPENS and all(k not in OPENS for k in kinds[1:]), kinds
    name = store.load(game.id).state.seats[int(act["who"])].name
    assert act["lines"][0]["name"].startswith(name) and all(ln["label"] for ln in act["lines"])
    before = store.load(game.id)
    store.undo(game.id, before.version, 1)
    (undo,) = store.undos(game.id)
    assert sorted(undo["undo"]) == sorted(act["versions"]), "one act: every step of it goes, nothing more"
    assert [a["lines"] for a in undo["acts"]] == [act["lines"]]
    assert [q["who"] for q in pending(store.load(game.id).state)] == [int(act["who"])]


def test_undo_counts_acts_not_steps(store):
    game = store.create(options_for(2), seed=3)
    until(store, game.id, longest_act(store, game.id))
    acts = store.last_acts(game.id, 3)
    assert len(acts) == 3 and len({v for a in acts for v in a["versions"]}) > 3
    store.undo(game.id, store.load(game.id).version, 3)
    assert sorted(store.undos(game.id)[0]["undo"]) == sorted(v for a in acts for v in a["versions"])


def test_which_questions_start_an_act():
    assert opens_act({"kind": "turn"}, 0, 0) and opens_act({"kind": "reveal"}, "host", "host")
    assert not opens_act({"kind": "send"}, 0, 0) and not opens_act({"kind": "build"}, 1, "1")
    assert opens_act({"kind": "build"}, 1, 0), "a held Build after another seat's production is its own act"
    assert opens_act({"kind": "send"}, 0, None)


def test_rows_saved_before_acts_are_an_act_each_and_no_phone_may_take_them_back(store):
    game = store.create(options_for(2), seed=3)
    until(store, game.id, longest_act(store, game.id))
    db = store._db()
    db.execute("update actions set act = 1, said = '' where game_id = ?", [game.id])
    acts = store.last_acts(game.id, 2)
    assert [len(a["versions"]) for a in acts] == [1, 1] and all(a["revealed"] for a in acts)
    with pytest.raises(IllegalAction):
        store.undo(game.id, store.load(game.id).version, 1, seat=int(acts[0]["who"]))


# --- the screens -----------------------------------------------------------------------------------------


def section(page: str, rid: str) -> str:
    start = page.index(f'id="{rid}"')
    return page[page.rindex("<section", 0, start):page.index("</section>", start)]


def own_act_done(store, gid):
    """A seat's act that brought nothing to light is the latest act."""
    def done(s):
        acts = s.last_acts(gid, 1)
        return acts and acts[0]["who"] not in ("host",) and not acts[0]["revealed"] and len(acts[0]["versions"]) > 1
    return done


def test_the_hosts_undo_names_the_acts_before_it_confirms(tmp_path):
    app, store, game, host, csrf, phones = host_and_phones(tmp_path, PLAYERS)
    gid = game["id"]
    until(store, gid, own_act_done(store, gid))
    acts = store.last_acts(gid, 2)
    version = store.load(gid).version
    panel = section(host.get(f"/host/{gid}").get_data(as_text=True), "undo")
    assert "Last act:" in panel and "Show what goes" in panel
    r = host.get(f"/host/{gid}/undo?count=2", headers={"HX-Request": "true"})
    preview = r.get_data(as_text=True)
    assert r.status_code == 200 and 'class="undo-confirm"' in preview
    assert "Undo takes back these 2 acts, latest first:" in preview
    for act in acts:
        first = act["lines"][0]
        assert first["label"].split(":")[0] in preview and first["name"] in preview
    assert store.load(gid).version == version, "the preview changes nothing"
    assert 'name="count" value="2"' in preview and 'name="confirm"' in preview
    assert host.get(f"/host/{gid}/undo?count=0", headers={"HX-Request": "true"}).get_data(as_text=True) == ""
    page = host.get(f"/host/{gid}/undo?count=2").get_data(as_text=True)  # without htmx: the whole screen
    assert f'id="undo-confirm-{version}"' in page and "Undo takes back these 2 acts" in page
    r = host.post(f"/host/{gid}/undo", data={"csrf": csrf, "version": version, "count": 2, "confirm": "yes"})
    assert r.status_code == 302
    assert sorted(store.undos(gid)[0]["undo"]) == sorted(v for a in acts for v in a["versions"])
    log = section(host.get(f"/host/{gid}").get_data(as_text=True), "log")
    assert "Undo: 2 acts taken back" in log and acts[0]["lines"][0]["name"] in log


@pytest.mark.parametrize("count", ["-1", "21", "x", ""])
def test_a_bad_undo_preview_is_refused(tmp_path, count):
    app, store, game, host, csrf, phones = host_and_phones(tmp_path, PLAYERS)
    assert host.get(f"/host/{game['id']}/undo?count={count}").status_code == 400
    assert app.test_client().get(f"/host/{game['id']}/undo?count=1").status_code == 403


def after_own_act(tmp_path):
    """A table of screens (tables.host_and_phones) right after a seat's own act that brought nothing to light:
    (store, game id, phones, that act, its seat)."""
    app, store, game, host, csrf, phones = host_and_phones(tmp_path, PLAYERS)
    gid = game["id"]
    until(store, gid, own_act_done(store, gid))
    (act,) = store.last_acts(gid, 1)
    seat = int(act["who"])
    return store, gid, phones, act, seat


def test_a_phone_takes_back_its_own_last_act_and_gets_the_put_back_lines(tmp_path):
    store, gid, phones, act, seat = after_own_act(tmp_path)
    phone, token, pcsrf = phones[seat]
    offer = section(phone.get(f"/seat/{token}").get_data(as_text=True), "seat_undo")
    assert "Take back your last act" in offer and act["lines"][0]["label"].split(":")[0] in offer
    other, other_token, _ = phones[1 - seat]
    assert "Take back" not in section(other.get(f"/seat/{other_token}").get_data(as_text=True), "seat_undo")
    version = store.load(gid).version
    r = phone.post(f"/seat/{token}/undo", data={"csrf": pcsrf, "version": version, "confirm": "yes"},
                   headers={"HX-Request": "true"})
    assert r.status_code == 200 and r.get_data(as_text=True).startswith('<div id="poll"')
    (undo,) = store.undos(gid)
    assert undo["by"] == str(seat) and sorted(undo["undo"]) == sorted(act["versions"])
    history = [a for a in store.history(gid) if a["kind"] == "undo"]
    assert history[0]["via"].startswith("phone") and history[0]["who"] == str(seat)
    back = section(phone.get(f"/seat/{token}").get_data(as_text=True), "seat_put_back")
    assert "Put back" in back and all(re.sub(r"<[^>]+>", "", ln["text"])[:20] in back.replace("&#39;", "'")
                                      for ln in undo["put_back"])


def test_a_phone_may_not_take_back_an_act_once_another_seat_acted(tmp_path):
    store, gid, phones, act, seat = after_own_act(tmp_path)
    until(store, gid, lambda s: s.last_acts(gid, 1)[0]["who"] != str(seat), seed=2)
    phone, token, pcsrf = phones[seat]
    assert "Take back" not in section(phone.get(f"/seat/{token}").get_data(as_text=True), "seat_undo")
    version = store.load(gid).version
    r = phone.post(f"/seat/{token}/undo", data={"csrf": pcsrf, "version": version, "confirm": "yes"})
    assert r.status_code == 409 and "acted since your last act" in r.get_data(as_text=True)
    assert store.load(gid).version == version and store.undos(gid) == []


def test_a_phone_may_not_take_back_an_act_that_brought_something_to_light(tmp_path):
    app, store, game, host, csrf, phones = host_and_phones(tmp_path, PLAYERS)
    gid = game["id"]
    until(store, gid, lambda s: (a := s.last_acts(gid, 1)) and a[0]["who"] != "host" and a[0]["revealed"])
    (act,) = store.last_acts(gid, 1)
    phone, token, pcsrf = phones[int(act["who"])]
    assert "Take back" not in section(phone.get(f"/seat/{token}").get_data(as_text=True), "seat_undo")
    version = store.load(gid).version
    r = phone.post(f"/seat/{token}/undo", data={"csrf": pcsrf, "version": version, "confirm": "yes"})
    assert r.status_code == 409 and "came to light" in r.get_data(as_text=True)
    assert store.load(gid).version == version


def test_a_phones_undo_needs_its_confirmation_and_its_phone(tmp_path):
    app, store, game, host, csrf, phones = host_and_phones(tmp_path, PLAYERS)
    gid = game["id"]
    until(store, gid, own_act_done(store, gid))
    seat = int(store.last_acts(gid, 1)[0]["who"])
    phone, token, pcsrf = phones[seat]
    version = store.load(gid).version
    assert phone.post(f"/seat/{token}/undo", data={"csrf": pcsrf, "version": version}).status_code == 400
    assert phone.post(f"/seat/{token}/undo", data={"csrf": pcsrf, "version": version - 1,
                                                   "confirm": "yes"}).status_code == 409
    stranger = app.test_client()
    r = stranger.post(f"/seat/{token}/undo", data={"csrf": pcsrf, "version": version, "confirm": "yes"})
    assert r.status_code in (400, 403)
    assert store.load(gid).version == version
