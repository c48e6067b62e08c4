"""What many tests do the same way, written once: an app on a temporary folder (`app_on`), a game through
the API (`new_game`, `create` with every seat taken by the script), the host's "table is ready", a move by
whoever must answer (through the API or the store), what a page says, the catalog ids a table never sees,
a command of `python -m companion` (`run_command`). The fixtures that use them (app, client, game, phone)
are in tests/conftest.py."""

from __future__ import annotations

import html
import random
import re
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from companion.catalog import shipped_catalog
from companion.cli import companion
from companion.engine import legal_actions, pending
from companion.store import Store
from companion.web import TRANSLATIONS, create_app

ROOT = Path(__file__).resolve().parents[1]
TWO = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]
ALL_FOUR = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
            {"name": "Chiara", "colour": "blue"}, {"name": "Dario", "colour": "green"}]
CSRF = re.compile(r'name="csrf" value="([^"]+)"')  # the session's token in any form
THREE = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}, {"name": "Chiara", "colour": "blue"}]


class Clock:
    """A clock the test moves by hand (`clock.now += 61`): the limits and the phones' last-seen times read it."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def app_on(folder, **config):
    """The app with its instance in `folder`, for tests (errors raise), a held question waiting 50 ms unless
    `config` says otherwise (tests/served/test_news.py covers the wait itself)."""
    return create_app({"INSTANCE": str(folder), "TESTING": True, "POLL_HOLD_S": 0.05, **config})


def run_command(*args, **env: str | None) -> Result:
    """`python -m companion ARGS`, run in this process by click's test runner (its exit_code, stdout and
    stderr), with `env` in the environment while it runs (None: unset); an unexpected exception is raised."""
    return CliRunner().invoke(companion, [str(a) for a in args], env=env, catch_exceptions=False)


def translated(folder) -> dict:
    """An app's config to read the committed catalogs through a copy in `folder`, compiled at start-up (the
    .mo files are made there, never in the repository)."""
    copy = folder / "translations"
    shutil.copytree(TRANSLATIONS, copy, ignore=shutil.ignore_patterns("*.mo"))
    return {"BABEL_TRANSLATION_DIRECTORIES": str(copy)}


def translated_app(folder):
    return app_on(folder / "instance", **translated(folder))


def fingerprint(where) -> tuple:
    """Every row a request could write (games, seats, actions, snapshots) of an app's games file (or the
    file at a path): equal before and after a refused request."""
    con = sqlite3.connect(where.config["DATABASE"] if hasattr(where, "config") else where)
    try:
        return tuple(con.execute(f"select * from {t} order by 1, 2").fetchall()
                     for t in ("games", "seats", "actions", "snapshots"))
    finally:
        con.close()


def create(client, players=THREE, seed=5, ready=True, **extra):
    """A new game whose every seat this script has taken: each seat keeps its key under "device"."""
    r = client.post("/api/games", json={"players": players, "seed": seed, **extra})
    assert r.status_code == 201, r.get_json()
    game = r.get_json()
    for s in game["seats"]:
        s["device"] = join(client, s["token"])
    if ready:
        api_table_ready(client, game)
    return game


def api_table_ready(client, game: dict) -> None:
    """C-18: the host taps "the table is ready" when only that holds round I (not before a table draw)."""
    host = {"X-Host-Token": game["host_token"]}
    menu = client.get(f"/api/games/{game['id']}/host/menu", headers=host).get_json()
    if [o["value"] for o in menu["menu"]] == ["ready"]:
        r = client.post(f"/api/games/{game['id']}/host/actions", json={"version": menu["version"], "choice": 0},
                        headers=host)
        assert r.status_code == 200, r.get_json()


def join(client, token: str) -> str:
    r = client.post(f"/api/seats/{token}/join", json={})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["device"]


def key(game, who) -> dict:
    """The header a script sends with its seat calls."""
    return {"X-Seat-Device": game["seats"][who]["device"]}


def drive(client, game, rng, limit=5000):
    """Act for whichever seat (or the host) has a menu until the game is over."""
    for _ in range(limit):
        st = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
        if st["phase"] == "over":
            return st
        act_once(client, game, rng, st)
    raise AssertionError("the game did not end")


def act_once(client, game, rng, st):
    """One random available choice for whoever is asked first (a seat's phone, or the host)."""
    host = {"X-Host-Token": game["host_token"]}
    who = st["pending"][0]["who"]
    if who == "host":
        menu = client.get(f"/api/games/{game['id']}/host/menu", headers=host).get_json()
        url = f"/api/games/{game['id']}/host/actions"
    else:
        token = game["seats"][who]["token"]
        menu = client.get(f"/api/seats/{token}/menu", headers=key(game, who)).get_json()
        url = f"/api/seats/{token}/actions"
    options = [o for o in menu["menu"] if o["available"]]
    pick = rng.choice(options)
    r = client.post(url, json={"version": menu["version"], "choice": pick["choice"]},
                    headers={**host, **(key(game, who) if who != "host" else {})})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["version"] == menu["version"] + 1


def text(r) -> str:
    return r.get_data(as_text=True)


def csrf_of(client, path: str = "/") -> str:
    """The session's CSRF token, read from the hidden input of a page (as a browser would)."""
    r = client.get(path)
    m = re.search(r'name="csrf" value="([^"]+)"', text(r))
    assert m, (path, r.status_code, text(r)[:300])
    return m.group(1)


def new_game(client, players=TWO, seed=5, ready=True, **extra) -> dict:
    """A new game by the API; `ready`: the host then says the table is ready (C-18), so round I's
    first turn is open (a table-draw game first asks the host its reveals)."""
    r = client.post("/api/games", json={"players": players, "seed": seed, **extra})
    assert r.status_code == 201, r.get_json()
    g = r.get_json()
    if ready:
        api_table_ready(client, g)
    return g


def host_h(g: dict) -> dict:
    return {"X-Host-Token": g["host_token"]}


def snapshot(client, g: dict) -> dict:
    """What the host's API reports: version, phase, pending and the whole state."""
    r = client.get(f"/api/games/{g['id']}/state", headers=host_h(g))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def holds(client, g: dict, who) -> None:
    """Seat calls of the API come from the seat's phone: this client scans the seat's code unless it has
    (tests that move a seat to another client say which client reads its menu)."""
    tok = g["seats"][who]["token"]
    if client.get_cookie(f"seat_{tok}") is None:
        assert client.get(f"/j/{tok}").status_code == 302


def api_menu(client, g: dict, who) -> dict:
    if who == "host":
        r = client.get(f"/api/games/{g['id']}/host/menu", headers=host_h(g))
    else:
        holds(client, g, who)
        r = client.get(f"/api/seats/{g['seats'][who]['token']}/menu")
    assert r.status_code == 200
    return r.get_json()


def api_act(client, g: dict, who, choice: int) -> dict:
    m = api_menu(client, g, who)
    url = (f"/api/games/{g['id']}/host/actions" if who == "host"
           else f"/api/seats/{g['seats'][who]['token']}/actions")
    r = client.post(url, json={"version": m["version"], "choice": choice}, headers=host_h(g))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def turn(client, g: dict):
    """Who must answer now, and their menu."""
    who = snapshot(client, g)["pending"][0]["who"]
    return who, api_menu(client, g, who)


def api_step(client, g: dict, rng: random.Random | None = None) -> tuple:
    """Play one available option for whoever must answer (the first, or a random one)."""
    who, m = turn(client, g)
    avail = [o for o in m["menu"] if o["available"]]
    pick = rng.choice(avail) if rng else avail[0]
    api_act(client, g, who, pick["choice"])
    return who, pick["choice"]



def play(client, g: dict, moves: int, rng: random.Random) -> None:
    """Random available options for whoever must answer, `moves` times or until the game is over."""
    for _ in range(moves):
        if snapshot(client, g)["phase"] == "over":
            return
        api_step(client, g, rng)

def store_step(store: Store, gid: str, rng: random.Random | None = None):
    """One legal move by whoever must decide (the first available option, or a random one)."""
    game = store.load(gid)
    who = pending(game.state)[0]["who"]
    menu = legal_actions(game.state, who)
    options = [o for o in menu if o["available"]]
    opt = rng.choice(options) if rng else options[0]
    return store.act(gid, game.version, who, opt["action"]["decision"], menu.index(opt))


def store_until(store: Store, gid: str, reached, rng: random.Random, most: int = 5000):
    """Random legal moves through the store until `reached(state)` holds (the game as it is then), or None once
    the game is over without it: a quick way to a position a screen test needs."""
    for _ in range(most):
        game = store.load(gid)
        if reached(game.state):
            return game
        if game.state.phase == "over":
            return None
        store_step(store, gid, rng)
    raise AssertionError("no position found")


def fill_the_disk(db) -> None:
    """This connection may not grow the file by a single page: the next new page is SQLITE_FULL."""
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")


def free_the_disk(db) -> None:
    db.execute("PRAGMA max_page_count = 1073741823")


WORD = re.compile(r"[\w-]+")


def catalog_ids() -> set[str]:
    """The ids a table never sees: every hex, harbor, dock, docking tile, boat, workshop, improvement,
    wagon, solo tile, player board and scroll board, wheel window, start and expansion space, and the
    squares and overseer spaces inside the boards. Plain words and single letters ("a", a board's
    printed side) are left out: they are printed."""
    c = shipped_catalog()
    ids = set(c.hexes) | set(c.harbors) | set(c.docks) | set(c.docking_tiles) | set(c.boats)
    ids |= set(c.workshops) | set(c.improvements) | set(c.wagons) | set(c.solo_tiles)
    ids |= set(c.boards) | set(c.scroll_boards) | {w.id for w in c.wheel}
    for lay in c.layouts.values():
        ids |= set(lay.expansion) | {f"s{i:02d}" for i in range(1, len(lay.start) + 1)}
    for board in c.boards.values():
        ids |= {s.id for s in board.squares}
        for path in board.paths.values():
            ids |= {sp.id for sp in (path.first, *path.left, *path.right)}
    return {i for i in ids if len(i) > 1 and not i.isalpha()}


IDS = catalog_ids()


def page_text(r) -> str:
    return r.get_data(as_text=True)


def form_of(client, family: str, rid: str) -> dict:
    """The record's correction form as a browser would send it unchanged."""
    text = page_text(client.get(f"/catalog/{family}/{rid}"))
    form = text[text.index('id="correct"'):]
    data = dict(re.findall(r'<input type="(?:text|number|hidden)"[^>]* name="([^"]+)" value="([^"]*)"', form))
    data.update({name: re.search(r'value="([^"]*)" selected', options).group(1)
                 for name, options in re.findall(r'<select name="([^"]+)">(.*?)</select>', form, re.S)})
    data.pop("csrf")  # each test sends its own
    return data


POT = TRANSLATIONS / "messages.pot"


JOINED = re.compile(r"^(\{i\d+\}[^{}]*)*$")  # joined(): the separator is kept, nothing to translate


def templates_in(stored):
    yield stored["msg"]
    for v in stored["args"].values():
        if isinstance(v, dict):
            yield from templates_in(v)


def page(client, url, lang):
    r = client.get(url, headers={"Accept-Language": lang}, follow_redirects=True)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    return html.unescape(r.get_data(as_text=True))


def host_and_phones(folder, players=TWO):
    """A game (companion drawing, seed 5) open on a host screen and on one phone per seat, each its own
    client: (app, store, game, host, the host's csrf, [(phone, seat token, its csrf)])."""
    app = app_on(folder, POLL_HOLD_S=0.2)
    game = app.test_client().post("/api/games", json={"players": players, "seed": 5}).get_json()
    host = app.test_client()
    page = host.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True).get_data(as_text=True)
    phones = []
    for s in game["seats"]:
        phone = app.test_client()
        assert phone.get(f"/j/{s['token']}").status_code == 302
        phones.append((phone, s["token"], CSRF.search(phone.get(f"/seat/{s['token']}").get_data(as_text=True)).group(1)))
    return app, app.extensions["store"], game, host, CSRF.search(page).group(1), phones


class ServedTable:
    """One game served by the Flask test client: the host and every phone, each screen fetched as it is (the
    walks of tests/web/test_no_ids.py and test_rule_links.py)."""

    NAMES = ("Ada", "Bruno", "Chiara", "Dario")
    COLOURS = ("red", "yellow", "blue", "green")

    def __init__(self, client, players: int, seed: int, language: str = "en", **options):
        client.get(f"/language/{language}")
        r = client.post("/api/games", json={"players": [{"name": self.NAMES[i], "colour": self.COLOURS[i]}
                                                        for i in range(players)], "seed": seed, **options})
        assert r.status_code == 201, r.get_json()
        self.client, self.g = client, r.get_json()
        self.gid, self.key = self.g["id"], self.g["host_token"]
        assert client.get(f"/host/{self.gid}?key={self.key}").status_code == 303
        for s in self.g["seats"]:
            assert client.get(f"/j/{s['token']}").status_code == 302

    def state(self) -> dict:
        r = self.client.get(f"/api/games/{self.gid}/state", headers={"X-Host-Token": self.key})
        assert r.status_code == 200
        return r.get_json()

    def screens(self) -> dict[str, str]:
        """Every player-facing screen, by a name that says which."""
        urls = {"host page": f"/host/{self.gid}", "host news": f"/host/{self.gid}/news"}
        for i, s in enumerate(self.g["seats"]):
            urls[f"phone {i} page"] = f"/seat/{s['token']}"
            urls[f"phone {i} news"] = f"/seat/{s['token']}/news"
            urls[f"host acting for seat {i}"] = f"/host/{self.gid}/seat/{i}"
            urls[f"host acting for seat {i}, news"] = f"/host/{self.gid}/seat/{i}/news"
        out = {}
        for name, url in urls.items():
            r = self.client.get(url)
            assert r.status_code == 200, (name, url, r.status_code)
            out[name] = r.get_data(as_text=True)
        return out

    def step(self, rng: random.Random, who) -> None:
        """Play a random available option for whoever must answer."""
        tok = None if who == "host" else self.g["seats"][who]["token"]
        menu_url = f"/api/games/{self.gid}/host/menu" if tok is None else f"/api/seats/{tok}/menu"
        act_url = f"/api/games/{self.gid}/host/actions" if tok is None else f"/api/seats/{tok}/actions"
        m = self.client.get(menu_url, headers={"X-Host-Token": self.key}).get_json()
        pick = rng.choice([o for o in m["menu"] if o["available"]])
        r = self.client.post(act_url, json={"version": m["version"], "choice": pick["choice"]},
                             headers={"X-Host-Token": self.key})
        assert r.status_code == 200, r.get_json()
