"""News for the screens (companion/news.py, web/news.py): an "anything new?" question waits at the server until
the game moves on, so every other screen hears of a move as soon as it is committed, and quiet tables cost
no requests. Covered here: the in-process news on its own, the wait inside the app, the cap on waiting
questions, who may wait (only a screen with its credential), a wait that ends with its client, and a real
server holding more questions than it has answering threads (strangers' questions at a real server:
tests/served/test_sockets.py).

Nothing here measures speed (bench/web.py does); "woken" means answered long before the wait would end."""

from __future__ import annotations

import http.client
import re
import select
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from companion.web import create_app
from companion.news import CLIENT_GONE, REMEMBERED, InProcessNews
from companion.web.news import FirstComeLock
from server import Server

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
LONG = 30.0  # a wait no test sits out: answering before it means the news woke the question


def later(seconds: float, fn, *args) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(seconds), fn(*args)), daemon=True)
    t.start()
    return t


# --- which questions are held ------------------------------------------------------------------------

def test_the_held_questions_are_the_three_screens_news_routes(tmp_path):
    """Each screen's question is an ordinary GET route of the app ending in /news, held in that route
    (web/news.py); the three are the screens the waits below are tested for."""
    app = create_app({"TESTING": True, "INSTANCE": str(tmp_path)})
    routes = sorted(r.rule for r in app.url_map.iter_rules() if r.rule.endswith("/news"))
    assert routes == ["/host/<gid>/news", "/host/<gid>/seat/<int:index>/news", "/seat/<token>/news"]
    assert all("GET" in r.methods for r in app.url_map.iter_rules() if r.rule.endswith("/news"))


# --- the in-process news --------------------------------------------------------------------------------------

def test_a_game_that_already_moved_on_is_answered_at_once():
    assert InProcessNews().wait("g", seen=3, now=4, timeout=LONG) == 4


def test_with_no_news_the_wait_ends_with_the_version_seen():
    assert InProcessNews().wait("g", seen=3, now=3, timeout=0.05) == 3


def test_a_commit_wakes_the_screens_of_its_game():
    board = InProcessNews()
    later(0.1, board.moved, "g", 4)
    t0 = time.monotonic()
    assert board.wait("g", seen=3, now=3, timeout=LONG) == 4
    assert time.monotonic() - t0 < LONG / 2


def test_a_commit_at_another_table_wakes_nobody_here():
    board = InProcessNews()
    later(0.05, board.moved, "other", 9)
    assert board.wait("g", seen=3, now=3, timeout=0.3) == 3


def test_moves_told_out_of_order_keep_the_newest_version():
    board = InProcessNews()
    board.moved("g", 5)
    board.moved("g", 4)  # the commit before it, told late
    assert board.wait("g", seen=4, now=4, timeout=LONG) == 5


def test_the_database_outranks_news_that_missed_a_commit():
    """A version this process never heard of (another process wrote it) is taken from the read."""
    board = InProcessNews()
    board.moved("g", 5)
    assert board.wait("g", seen=5, now=7, timeout=LONG) == 7
    assert board.wait("g", seen=7, now=7, timeout=0.05) == 7  # and 7 is now the one to wait past


def test_a_move_is_news_only_once_its_own_answer_is_ready():
    """Commits made while answering the screen that acted are told when that answer is done, so the
    tapping phone is not kept waiting behind the other screens drawing their news."""
    board = InProcessNews()
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(board.wait, "g", 3, 3, LONG)
        with board.after_answer():
            board.moved("g", 4)
            time.sleep(0.2)
            assert not waiting.done()  # still drawing the actor's answer: nobody woken yet
        assert waiting.result(timeout=LONG / 2) == 4


def test_many_screens_wake_on_one_commit():
    board = InProcessNews()
    with ThreadPoolExecutor(12) as pool:
        waits = [pool.submit(board.wait, "g", 0, 0, LONG) for _ in range(12)]
        time.sleep(0.1)
        board.moved("g", 1)
        assert [w.result(timeout=LONG / 2) for w in waits] == [1] * 12


def test_the_news_forgets_games_nobody_waits_for():
    """Thousands of games pass through a long-running server: the news keeps a wake-up only while
    screens wait on it, and the versions of a bounded number of recent games."""
    board = InProcessNews()
    size = lambda: (len(board._latest), len(board._waiters))  # noqa: E731
    for n in range(5000):
        board.moved(f"g{n}", 1)
        if n % 50 == 0:
            assert board.wait(f"g{n}", seen=1, now=1, timeout=0.001) == 1
    assert size() == (REMEMBERED, 0)
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(board.wait, "g4999", 1, 1, LONG)
        wait_until(lambda: size()[1] == 1)
        board.moved("g4999", 2)
        assert waiting.result(timeout=LONG / 2) == 2
    assert size() == (REMEMBERED, 0)


def test_a_wait_ends_soon_after_its_client_has_gone():
    board, gone = InProcessNews(), threading.Event()
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(board.wait, "g", 3, 3, LONG, gone.is_set)
        time.sleep(0.2)
        assert not waiting.done()
        gone.set()
        t0 = time.monotonic()
        assert waiting.result(timeout=LONG / 2) == 3  # nothing new: nobody is there to read it
        assert time.monotonic() - t0 < 3
    assert not board._waiters


def test_news_answers_are_drawn_in_the_order_they_came():
    """The screens of a table that moved are drawn one after the other, first come first drawn, so no
    screen is passed over by ones that asked later."""
    turns, order = FirstComeLock(), []

    def draw(n):
        with turns:
            order.append(n)

    with turns:  # someone is drawing; five screens queue up, one after the other
        threads = []
        for n in range(5):
            threads.append(threading.Thread(target=draw, args=(n,)))
            threads[-1].start()
            wait_until(lambda: len(turns._queue) == n + 1)
    for t in threads:
        t.join(LONG)
    assert order == [0, 1, 2, 3, 4]
    with turns:  # and it is free again
        pass


# --- inside the app (Flask's test client) --------------------------------------------------------------

def make(tmp_path, **config):
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True, "POLL_HOLD_S": LONG, **config})
    client = app.test_client()
    r = client.post("/api/games", json={"players": PLAYERS, "seed": 3})
    assert r.status_code == 201
    return app, client, r.get_json()


def act(client, game: dict) -> int:
    """One legal choice by whoever decides now (host or seat), through the JSON API; the new version."""
    host = {"X-Host-Token": game["host_token"]}
    st = client.get(f"/api/games/{game['id']}/state", headers=host).get_json()
    who = st["pending"][0]["who"]
    if who == "host":
        menu_url, act_url = f"/api/games/{game['id']}/host/menu", f"/api/games/{game['id']}/host/actions"
    else:
        token = game["seats"][who]["token"]
        menu_url, act_url = f"/api/seats/{token}/menu", f"/api/seats/{token}/actions"
        if "device" not in game["seats"][who]:  # the script takes the seat once (API seat calls need it)
            game["seats"][who]["device"] = client.post(f"/api/seats/{token}/join", json={}).get_json()["device"]
        host = {**host, "X-Seat-Device": game["seats"][who]["device"]}
    menu = client.get(menu_url, headers=host).get_json()
    pick = next(o for o in menu["menu"] if o["available"])
    r = client.post(act_url, headers=host, json={"version": menu["version"], "choice": pick["choice"],
                                                 "decision": pick["decision"]})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["version"]


def wait_until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


def host_news(game: dict, v) -> str:
    return f"/host/{game['id']}/news?v={v}&key={game['host_token']}"


@pytest.mark.parametrize("screen", ["host", "phone", "the host's view of a phone"])
def test_a_waiting_question_is_answered_by_a_move_at_its_table(tmp_path, screen):
    app, client, game = make(tmp_path)
    asker = app.test_client()
    st = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    idle = next(s for s in game["seats"] if s["seat"] != st["pending"][0]["who"])  # its phone asks, another acts
    token = idle["token"]
    url = {"host": host_news(game, 0), "phone": f"/seat/{token}/news?v=0",
           "the host's view of a phone": f"/host/{game['id']}/seat/{idle['seat']}/news?v=0&key={game['host_token']}"
           }[screen]
    if screen == "phone":
        assert asker.get(f"/j/{token}").status_code == 302  # the phone scanned its code
    with ThreadPoolExecutor(1) as pool:
        t0 = time.monotonic()
        answer = pool.submit(asker.get, url)
        wait_until(lambda: app.extensions["held"].waiting == 1)
        assert not answer.done()  # it waits: nothing has happened yet
        new = act(client, game)
        r = answer.result(timeout=LONG)
    assert time.monotonic() - t0 < LONG / 2
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and body.startswith(f'<div id="poll" data-version="{new}"')
    # every region: the host's with the put-back, undo and moment regions; a phone's with what it was told
    assert body.count('hx-swap-oob="true"') == (12 if screen == "host" else 7)
    assert app.extensions["held"].waiting == 0


def test_news_the_question_waited_for_is_marked_so_its_page_asks_again_at_once(tmp_path):
    """X-Held: the page's next question goes out at once (static/app.js), so a move made just after another
    shows without the page's pause; news a page was given at once (it was behind) is not marked, and that
    page waits its usual pause, so a page and server that disagree can never ask in a tight loop."""
    app, client, game = make(tmp_path)
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(app.test_client().get, host_news(game, 0))
        wait_until(lambda: app.extensions["held"].waiting == 1)
        act(client, game)
        waited = answer.result(timeout=LONG)
    assert waited.status_code == 200 and waited.headers.get("X-Held") == "1"
    behind = client.get(host_news(game, 0))  # asked at version 0 once the game is at 1: news at once
    assert behind.status_code == 200 and "X-Held" not in behind.headers


def test_a_phone_taking_a_seat_is_news_for_the_host_and_ends_the_old_phones_wait(tmp_path):
    """A join does not move the game, but the host's phones panel must show it at once, and the phone that
    lost the seat must hear so at once (not when its wait runs out)."""
    hold = 5.0  # short, so the last question (nothing newer) is over soon; the news must come well before
    app, client, game = make(tmp_path, POLL_HOLD_S=hold)
    token = game["seats"][0]["token"]
    old, new, host = app.test_client(), app.test_client(), app.test_client()
    assert old.get(f"/j/{token}").status_code == 302
    page = host.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)
    joins = re.search(r'hx-get="[^"]*/news\?v=0&amp;j=(\d+)&amp;p=[^"]+"', page)
    assert joins and joins.group(1) == "1"  # one seat taken so far
    with ThreadPoolExecutor(2) as pool:
        t0 = time.monotonic()
        hosts = pool.submit(host.get, f"/host/{game['id']}/news?v=0&j=1")
        olds = pool.submit(old.get, f"/seat/{token}/news?v=0")
        wait_until(lambda: app.extensions["held"].waiting == 2)
        assert not hosts.done() and not olds.done()  # both wait: nothing has happened yet
        assert new.get(f"/j/{token}").status_code == 302  # another phone scans the seat's code
        answer, moved = hosts.result(timeout=LONG), olds.result(timeout=LONG)
    assert time.monotonic() - t0 < hold / 2
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "j=2&amp;p=" in body and "on a new phone since" in body
    assert moved.status_code == 403 and moved.headers["X-Seat-Moved"] == "1"
    assert host.get(f"/host/{game['id']}/news?v=0&j=2").status_code == 204  # nothing newer: no answer drawn


def test_an_undo_is_news_too(tmp_path):
    app, client, game = make(tmp_path)
    act(client, game)
    page = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(app.test_client().get, host_news(game, 1))
        wait_until(lambda: app.extensions["held"].waiting == 1)
        r = client.post(f"/host/{game['id']}/undo", data={"csrf": csrf, "version": "1", "count": "1",
                                                           "confirm": "yes"})
        assert r.status_code in (200, 302, 303), r.get_data(as_text=True)
        assert 'data-version="2"' in answer.result(timeout=LONG).get_data(as_text=True)


def test_a_poll_past_the_cap_is_answered_at_once_and_the_page_asks_again(tmp_path):
    """Each waiting question holds a server thread, so only POLL_PLACES of them wait; the next one gets
    an immediate "nothing new" (204), and its page asks again on its next tick, as a plain poll does."""
    app, client, game = make(tmp_path, POLL_PLACES=1)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(app.test_client().get, host_news(game, 0))
        wait_until(lambda: app.extensions["held"].waiting == 1)
        t0 = time.monotonic()
        second = client.get(host_news(game, 0))
        assert second.status_code == 204 and time.monotonic() - t0 < LONG / 2
        assert not first.done()
        act(client, game)
        assert first.result(timeout=LONG).status_code == 200
    page = client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)
    assert 'data-every="250"' in page and 'hx-trigger="ask"' in page and 'hx-sync="this:drop"' in page


def test_one_games_questions_past_its_share_are_answered_at_once_and_other_games_still_wait(tmp_path):
    """Issue 21: a key anyone can mint (start a game) must not take the places other tables wait in. One
    game holds at most POLL_PER_GAME questions; past that its question is answered at once (204), while
    another game's question still waits for its news."""
    app, client, game = make(tmp_path, POLL_PLACES=8, POLL_PER_GAME=2)
    other = client.post("/api/games", json={"players": PLAYERS, "seed": 4}).get_json()
    with ThreadPoolExecutor(3) as pool:
        held = [pool.submit(app.test_client().get, host_news(game, 0)) for _ in range(2)]
        wait_until(lambda: app.extensions["held"].waiting == 2)
        t0 = time.monotonic()
        assert client.get(host_news(game, 0)).status_code == 204 and time.monotonic() - t0 < LONG / 2
        waiting = pool.submit(app.test_client().get, host_news(other, 0))
        wait_until(lambda: app.extensions["held"].waiting == 3)
        assert not waiting.done() and not any(h.done() for h in held)
        act(client, other)
        assert waiting.result(timeout=LONG).status_code == 200
        act(client, game)
        assert all(h.result(timeout=LONG).status_code == 200 for h in held)
    assert app.extensions["held"].waiting == 0 and app.extensions["held"].by_game == {}


def test_a_question_for_an_unknown_game_or_seat_or_a_garbage_version_never_waits(tmp_path):
    app, client, game = make(tmp_path)
    t0 = time.monotonic()
    assert client.get("/host/deadbeef/news?v=0").status_code == 404
    assert client.get("/seat/nobody/news?v=0").status_code == 404
    assert client.get(host_news(game, "zero")).status_code == 200
    assert client.get(host_news(game, 7)).status_code == 200  # a version from the future
    assert time.monotonic() - t0 < LONG / 2 and app.extensions["held"].waiting == 0


@pytest.mark.parametrize("screen", ["host without key", "host with a wrong key", "host's view without key",
                                    "phone without cookie", "phone with another phone's cookie",
                                    "seat nobody joined"])
def test_a_question_without_its_screens_credential_never_waits(tmp_path, screen):
    """Strangers' questions are answered at once by the app (403), so they never take a place that a
    real screen needs to wait in."""
    app, client, game = make(tmp_path)
    token = game["seats"][1]["token"]
    asker = app.test_client()
    if screen == "phone with another phone's cookie":
        assert app.test_client().get(f"/j/{token}").status_code == 302  # the seat's own phone
        asker.set_cookie(f"seat_{token}", "not-the-phones-device")
    elif screen == "phone without cookie":
        assert app.test_client().get(f"/j/{token}").status_code == 302
    url = {"host without key": f"/host/{game['id']}/news?v=0",
           "host with a wrong key": f"/host/{game['id']}/news?v=0&key={'0' * len(game['host_token'])}",
           "host's view without key": f"/host/{game['id']}/seat/1/news?v=0"}.get(screen, f"/seat/{token}/news?v=0")
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(asker.get, url)
        r = answer.result(timeout=5)  # at once: it never waited
    assert r.status_code == 403 and app.extensions["held"].waiting == 0


@pytest.mark.parametrize("via", ["link", "header", "cookie"])
def test_each_of_the_hosts_credentials_lets_its_question_wait(tmp_path, via):
    app, client, game = make(tmp_path)
    asker, url, headers = app.test_client(), f"/host/{game['id']}/news?v=0", {}
    if via == "link":
        url += f"&key={game['host_token']}"
    elif via == "header":
        headers["X-Host-Token"] = game["host_token"]
    else:
        asker.set_cookie(f"host_{game['id']}", game["host_token"])
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(asker.get, url, headers=headers)
        wait_until(lambda: app.extensions["held"].waiting == 1)
        new = act(client, game)
        r = answer.result(timeout=LONG)
    assert r.status_code == 200 and f'data-version="{new}"' in r.get_data(as_text=True)


def test_a_waiting_question_lets_go_of_its_place_when_its_screen_hangs_up(tmp_path):
    """Closed screens do not keep their places until the wait runs out: the server looks about once a
    second whether the question's client is still there (server.py gives the app a way to tell)."""
    app, client, game = make(tmp_path, POLL_PLACES=1)
    hung_up = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        gone = pool.submit(app.test_client().get, host_news(game, 0),
                           environ_overrides={CLIENT_GONE: hung_up.is_set})
        wait_until(lambda: app.extensions["held"].waiting == 1)
        hung_up.set()
        wait_until(lambda: app.extensions["held"].waiting == 0, seconds=5)
        assert gone.result(timeout=5).status_code == 204
        waiting = pool.submit(app.test_client().get, host_news(game, 0))  # its place is free again
        wait_until(lambda: app.extensions["held"].waiting == 1)
        act(client, game)
        assert waiting.result(timeout=LONG).status_code == 200


def test_no_places_means_no_question_waits(tmp_path):
    """`serve --screens 0`: every question is answered at once, as plain polling."""
    app, client, game = make(tmp_path, POLL_PLACES=0)
    with ThreadPoolExecutor(1) as pool:
        r = pool.submit(client.get, host_news(game, 0)).result(timeout=5)
    assert r.status_code == 204 and app.extensions["held"].waiting == 0


def test_the_first_question_after_a_failure_is_answered_at_once_and_the_next_waits_again(tmp_path):
    """A page that lost the server marks its next question (r=1, static/app.js): answered at once though
    nothing moved, so the page knows it has the server back (its "connection lost" line goes); its next
    question waits for news as usual (issue 32 item 8)."""
    app, client, game = make(tmp_path)
    with ThreadPoolExecutor(1) as pool:
        r = pool.submit(client.get, host_news(game, 0) + "&r=1").result(timeout=5)
        assert r.status_code == 204 and app.extensions["held"].waiting == 0
        waiting = pool.submit(client.get, host_news(game, 0))
        wait_until(lambda: app.extensions["held"].waiting == 1)
        act(client, game)
        assert waiting.result(timeout=LONG).status_code == 200


def test_a_server_that_stops_lets_every_waiting_question_go_at_once(tmp_path):
    """Stopping (Ctrl-C, SIGTERM) closes the news: the questions waiting are answered "nothing new" at
    once, and none waits any more, so the server ends within a second (tests/served/test_stopping.py)."""
    app, client, game = make(tmp_path)
    with ThreadPoolExecutor(2) as pool:
        waiting = [pool.submit(app.test_client().get, host_news(game, 0)) for _ in range(2)]
        wait_until(lambda: app.extensions["held"].waiting == 2)
        t0 = time.monotonic()
        app.extensions["news"].close()
        assert [w.result(timeout=LONG).status_code for w in waiting] == [204, 204]
        assert time.monotonic() - t0 < LONG / 10
        assert pool.submit(client.get, host_news(game, 0)).result(timeout=5).status_code == 204


# --- a real server ---------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_real_server_holds_more_questions_than_it_has_answering_threads(tmp_path):
    """`serve` runs 8 answering threads plus one per screen that may wait: 40 screens wait at once (16,
    a game's share of the places, at the table that moves; the others at three more tables), the server
    still answers everything else, and one move wakes every screen of its table."""
    with Server(tmp_path) as srv:
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        assert status == 201
        conns = [http.client.HTTPConnection("127.0.0.1", srv.port, timeout=LONG) for _ in range(40)]
        others = [srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})[1] for _ in range(3)]
        for c in conns[:16]:
            c.request("GET", host_news(game, 0))
        for i, c in enumerate(conns[16:]):
            c.request("GET", host_news(others[i % 3], 0))
        time.sleep(0.5)  # every question has arrived and waits
        t0 = time.monotonic()
        for _ in range(20):  # the answering threads are free
            status, _, _ = srv.request("GET", "/play")
            assert status == 302
        assert srv.request("GET", host_news(game, "zero"))[0] == 200
        assert time.monotonic() - t0 < LONG / 2

        # one move by whoever decides now
        st = srv.json("GET", f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]})[1]
        who = st["pending"][0]["who"]
        base = (f"/api/games/{game['id']}/host" if who == "host"
                else f"/api/seats/{game['seats'][who]['token']}")
        keys = {"X-Host-Token": game["host_token"]}
        if who != "host":  # the script takes the seat (API seat calls need the seat's key)
            keys["X-Seat-Device"] = srv.json("POST", base + "/join", {})[1]["device"]
        menu = srv.json("GET", base + ("/menu"), headers=keys)[1]
        pick = next(o for o in menu["menu"] if o["available"])
        status, out = srv.json("POST", base + "/actions", {"version": menu["version"], "choice": pick["choice"],
                                                           "decision": pick["decision"]}, headers=keys)
        assert status == 200, out
        for c in conns[:16]:
            resp = c.getresponse()
            body = resp.read().decode()
            assert resp.status == 200 and body.startswith(f'<div id="poll" data-version="{out["version"]}"')
            c.close()
        assert time.monotonic() - t0 < LONG / 2
        for c in conns[16:]:  # still waiting: nothing happened at their tables
            assert c.sock is not None and not select.select([c.sock], [], [], 0)[0]
            c.close()
