"""Which phones are at the table (issue 14 item 8): the host's phones panel shows each seat's phone
joined or not, connected or not, and when it last asked the server anything; while a seat must decide,
the host screen says whose phone it waits for and offers to act for that seat. Kept in memory by the
news layer: no database write per question."""

from __future__ import annotations

import re

import pytest

from companion.engine import pending
from companion.web.phones import PhonesSeen, ago_text
from tables import Clock, api_table_ready

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app_config() -> dict:
    return {"POLL_HOLD_S": 0}


@pytest.fixture(autouse=True)
def _clocked(app, clock):
    """The phones panel reads this test's clock."""
    app.extensions["phones"].clock = clock


def _table(app):
    """A game whose two seats have joined, each from its own phone (a test client with its cookie)."""
    host = app.test_client()
    game = host.post("/api/games", json={"players": PLAYERS, "seed": 4}).get_json()
    api_table_ready(host, game)  # C-18: round I's first turn opens
    phones = []
    for seat in game["seats"]:
        phone = app.test_client()
        assert phone.get(f"/j/{seat['token']}").status_code == 302
        phones.append(phone)
    return game, host, phones


def _host_page(host, game) -> str:
    return host.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)


def _ask_news(phone, token: str) -> None:
    assert phone.get(f"/seat/{token}/news?v=0").status_code in (200, 204)


def test_sightings_count_a_waiting_question_as_connected_however_long_it_waits(clock):
    phones = PhonesSeen(clock)
    assert phones.of("g", 0) == {"connected": False, "ago": None, "at": None}
    phones.saw(("g", 0))
    clock.now += 5
    assert phones.of("g", 0) == {"connected": True, "ago": 5, "at": 1000.0}
    clock.now += 60
    assert phones.of("g", 0)["connected"] is False
    with phones.asking(("g", 0)):
        clock.now += 300
        assert phones.of("g", 0)["connected"] is True
    assert phones.of("g", 0)["ago"] == 0  # its wait ended just now


def test_ago_is_said_as_a_player_says_it_and_only_as_finely_as_the_hosts_news_changes(app, clock):
    with app.test_request_context():
        said = [ago_text({"ago": s, "at": 0.0}) for s in (1, 40, 61, 150)]
        assert said == ["less than a minute ago", "less than a minute ago", "1 min ago", "2 min ago"]
        assert ago_text({"ago": None, "at": None}) == ""
        assert ago_text({"ago": 3600, "at": 0.0}).startswith("at ")  # a clock time: never stale
    phones = PhonesSeen(clock)
    keys = [phones.news_key("g")]
    phones.saw(("g", 1))
    keys.append(phones.news_key("g"))
    clock.now += 30
    keys.append(phones.news_key("g"))  # still connected: no news
    clock.now += 50
    keys.append(phones.news_key("g"))  # gone quiet: news
    clock.now += 30
    keys.append(phones.news_key("g"))  # the same minute
    phones.saw(("g", 0))
    clock.now += 3 * 3600
    keys.append(phones.news_key("g"))
    assert keys == ["none", "1c", "1-0", "1-1", "1-1", "0-10.1-10"]


def test_the_phones_panel_shows_joined_connected_and_last_seen(app, clock):
    game, host, phones = _table(app)
    page = _host_page(host, game)
    assert page.count("○ not connected") == 2  # joined, but no question asked yet
    _ask_news(phones[1], game["seats"][1]["token"])
    page = _host_page(host, game)
    # connected says it all: "last seen" comes back only once the phone is gone
    assert "● connected</span>" in page and "last seen" not in page and page.count("○ not connected") == 1
    clock.now += 150
    page = _host_page(host, game)
    assert "○ not connected · last seen 2 min ago" in page


def test_a_stranger_asking_with_a_seats_link_is_not_counted(app):
    game, host, _phones = _table(app)
    stranger = app.test_client()  # has the link, not the phone's cookie
    stranger.get(f"/seat/{game['seats'][0]['token']}/news?v=0")
    assert app.extensions["phones"].of(game["id"], 0)["ago"] is None


def test_asking_for_news_writes_nothing_to_the_database(app):
    game, _host, phones = _table(app)
    store = app.extensions["store"]
    before = store._db().execute("select total_changes()").fetchone()[0]
    for _ in range(5):
        _ask_news(phones[0], game["seats"][0]["token"])
    assert store._db().execute("select total_changes()").fetchone()[0] == before
    assert app.extensions["phones"].of(game["id"], 0)["connected"]


def test_while_a_seat_must_decide_the_host_says_whose_phone_it_waits_for(app, clock):
    game, host, phones = _table(app)
    store = app.extensions["store"]
    asked = [q["who"] for q in pending(store.load(game["id"]).state) if isinstance(q["who"], int)]
    assert asked, "the game starts by asking a seat"
    seat = asked[0]
    name = PLAYERS[seat]["name"]
    _ask_news(phones[seat], game["seats"][seat]["token"])
    clock.now += 120
    page = _host_page(host, game)
    line = f"Waiting for {name}\n  (phone last seen 2 min ago)\n  — <a href=\"/host/{game['id']}/seat/{seat}\">"
    assert line in page and "act for this seat?" in page
    _ask_news(phones[seat], game["seats"][seat]["token"])
    assert f"Waiting for {name}\n  (phone connected)" in _host_page(host, game)


def test_a_phone_connecting_or_going_quiet_is_news_for_the_host_screen(app, clock):
    game, host, phones = _table(app)
    page = _host_page(host, game)
    question = re.search(r'hx-get="([^"]*/news\?v=1&amp;j=2&amp;p=none&amp;t=0)"', page)
    assert question, "the host's question carries what it shows of the phones"
    url = question.group(1).replace("&amp;", "&")
    assert host.get(url).status_code == 204  # nothing new
    _ask_news(phones[0], game["seats"][0]["token"])
    news = host.get(url)
    assert news.status_code == 200 and "p=0c" in news.get_data(as_text=True)
    assert host.get(url.replace("p=none", "p=0c")).status_code == 204
    clock.now += 90
    assert host.get(url.replace("p=none", "p=0c")).status_code == 200  # gone quiet: news again
