"""Undo tells the table what to put back (issue 14 item 3), through the store and the screens: the undo's
row keeps the put-back lines and the log entries it took away (kept across a restart); the host shows the
lines at the top until the next action, the phone of a seat whose pieces move shows its own, and the
host's log keeps the undone entries where they happened, struck through and marked "undone"."""

from __future__ import annotations

import random

from companion.catalog import default_catalog
from companion.engine import legal_actions, options_for, pending
from companion.store import Store
from companion.web.put_back import log_rows
from tables import host_and_phones

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


def play_until(store: Store, gid: str, done, seed: int = 1) -> None:
    """Random legal decisions until `done(question, state after)` holds."""
    rng = random.Random(seed)
    while True:
        game = store.load(gid)
        q = pending(game.state)[0]
        menu = legal_actions(game.state, q["who"])
        pick = rng.choice([n for n, o in enumerate(menu) if o["available"]])
        store.act(gid, game.version, q["who"], menu[pick]["action"]["decision"], pick, "phone 1")
        if done(q, store.load(gid).state):
            return


def stood(seat: int):
    """The moment `seat` has stood a lieutenant on a hex in its turn (R-TURN-1)."""
    return lambda q, state: (q["who"] == seat and state.phase == "play" and
                             any(lt.used and lt.where.startswith("hex:") for lt in state.seats[seat].lieutenants))


def test_the_undo_row_keeps_its_put_back_and_undone_log_across_a_restart(tmp_path):
    store = Store(tmp_path / "g.db", default_catalog())
    game = store.create(options_for(2), seed=3)
    play_until(store, game.id, stood(0))
    before = store.load(game.id)
    store.undo(game.id, before.version, 2)
    after = store.load(game.id)
    (undo,) = store.undos(game.id)
    assert undo["version"] == after.version and len(undo["undo"]) == 2
    assert any("take the lieutenant standing on the marked" in ln["text"] for ln in undo["put_back"])
    kept = undo["log_at"]
    assert undo["undone_log"] == before.state.log[kept:] and after.state.log == before.state.log[:kept]
    assert (undo["round"], undo["phase"]) == (after.state.round, after.state.phase)
    again = Store(tmp_path / "g.db", default_catalog())  # a restart: a new store on the same file
    assert again.undos(game.id) == [{**undo, "acted_after": []}] == store.undos(game.id)
    exported = [a for a in again.history(game.id) if a["kind"] == "undo"]
    assert exported[0]["action"]["put_back"] == undo["put_back"]  # the export carries it too
    assert sum(a["undone"] for a in again.history(game.id)) == 2


def test_log_rows_put_undone_entries_where_they_happened():
    """Two undos, the second reaching back past the first: every entry appears once, in the order things
    happened, each undone one before the undo that took it away."""
    log = [{"n": n} for n in range(1, 11)]
    first = {"log_at": 8, "undone_log": [{"n": 9, "v": 1}, {"n": 10, "v": 1}], "undo": [5]}
    second = {"log_at": 4, "undone_log": [{"n": n, "v": 2} for n in range(5, 13)], "undo": [6, 7]}
    rows = log_rows(log[:4] + [{"n": 5, "v": 3}], [first, second])
    said = [("undo", r["undo"]["undo"]) if "undo" in r else (r["entry"]["n"], r["entry"].get("v"), "undone" in r)
            for r in rows]
    assert said == [(1, None, False), (2, None, False), (3, None, False), (4, None, False),
                    (5, 2, True), (6, 2, True), (7, 2, True), (8, 2, True), (9, 1, True), (10, 1, True), ("undo", [5]),
                    (9, 2, True), (10, 2, True), (11, 2, True), (12, 2, True), ("undo", [6, 7]), (5, 3, False)]


# --- the screens -----------------------------------------------------------------------------------------

def setup_game(tmp_path):
    """The table of tables.host_and_phones, each phone with its page's path."""
    app, store, game, host, csrf, phones = host_and_phones(tmp_path, PLAYERS)
    return app, store, game, host, csrf, [(phone, f"/seat/{token}") for phone, token, _ in phones]


def undo(host, store, game, csrf, count: int):
    version = store.load(game["id"]).version
    r = host.post(f"/host/{game['id']}/undo", data={"csrf": csrf, "version": str(version), "count": str(count),
                                                    "confirm": "yes"})
    assert r.status_code in (302, 303), r.get_data(as_text=True)


def section(page: str, region: str) -> str:
    start = page.rindex("<section", 0, page.index(f'id="{region}"'))
    return page[start:page.index("</section>", start)]


def test_host_and_the_seats_phone_show_what_to_put_back_until_the_next_action(tmp_path):
    app, store, game, host, csrf, phones = setup_game(tmp_path)
    gid = game["id"]
    play_until(store, gid, stood(0))
    undo(host, store, game, csrf, 2)
    page = host.get(f"/host/{gid}").get_data(as_text=True)
    panel = section(page, "put_back")
    assert "Undone: put the pieces back" in panel and "Ada (R): take the lieutenant standing on the marked" in panel
    assert "map ↶1" in panel
    assert page.index('id="put_back"') < page.index('id="status"')  # at the top of the main column
    assert "↶1" in section(page, "city")  # the hex it names is marked on the map
    ada = section(phones[0][0].get(phones[0][1]).get_data(as_text=True), "seat_put_back")
    assert "Put back" in ada and "Ada (R): take the lieutenant standing on the marked" in ada
    bruno = section(phones[1][0].get(phones[1][1]).get_data(as_text=True), "seat_put_back")
    assert 'class="panel put-back hidden"' in bruno and "Ada (R)" not in bruno  # nothing of Bruno's moved
    news = host.get(f"/host/{gid}/news?v={store.load(gid).version - 1}").get_data(as_text=True)
    assert "Undone: put the pieces back" in news  # the other screens hear of it with the undo's news
    play_until(store, gid, lambda q, state: q["who"] == 0)  # Ada takes her turn again
    assert "Undone: put the pieces back" not in host.get(f"/host/{gid}").get_data(as_text=True)
    ada = section(phones[0][0].get(phones[0][1]).get_data(as_text=True), "seat_put_back")
    assert "Put back" not in ada


def test_the_host_log_marks_undone_entries_and_follows_them_with_the_undo(tmp_path):
    app, store, game, host, csrf, phones = setup_game(tmp_path)
    gid = game["id"]
    play_until(store, gid, stood(0))
    undone = store.load(gid).state.log[-1]["text"]
    undo(host, store, game, csrf, 2)
    log = section(host.get(f"/host/{gid}").get_data(as_text=True), "log")
    entry = log[log.rindex("<li", 0, log.index(undone)):log.index("</li>", log.index(undone))]
    assert 'class="undone"' in entry and '<span class="undone-mark">undone</span>' in entry and "<del>" in entry
    assert log.index("Undo: 2 acts taken back") < log.index(undone)  # newest first: the undo above them
    assert "Put back: Ada (R): take the lieutenant" in log
