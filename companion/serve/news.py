"""News for the screens. A screen asks "anything new since version N?" and the question waits at the server
until the game moves on (or a while passes): news reaches every screen as soon as it is committed, and a
hundred quiet tables cost sleeping threads instead of thousands of requests a second.

The wait happens in a small WSGI layer in front of Flask, so an unchanged game costs one or two indexed
reads and no rendering; when there is news, the app answers with the screen's new question and every live
region of the screen. The screens' questions are the app's routes ending in /news (`news_routes`).
"""

from __future__ import annotations

import hmac
import random
import re
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from urllib.parse import parse_qs

from werkzeug.http import parse_cookie

from .phones import Sightings

# what a news route's parts may be: its game (`gid`, for the host's key) or its seat (`token`, for the
# phone's cookie), and numbers (a seat on the host screen)
PARTS = {"gid": "[0-9a-f]{1,32}", "token": "[A-Za-z0-9_-]{1,64}"}
ROUTE_PART = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
UNCHANGED = ("204 No Content", [("Content-Length", "0"), ("Cache-Control", "no-store")])
SEAT = "messina.seat"  # in the WSGI environ: (game id, seat index) of a phone's question, once its cookie is checked
CLIENT_GONE = "messina.client_gone"  # in the WSGI environ (serve/server.py): a callable, true once the client hung up
LOOK_EVERY = 1.0  # seconds between two looks at whether a waiting question's screen is still there
REMEMBERED = 1024  # games whose latest version the bulletin remembers while none of their screens wait
PER_GAME = 16  # questions one game may hold: a host screen, four phones, the host's views of seats, a few tabs


class Bulletin:
    """The newest version of each game this server committed, and a way to sleep until it moves on.

    The store posts after every commit. Each game has its own wake-up, so a move at one table wakes only
    the screens of that table. A wake-up lasts while screens wait on it; the versions of games nobody waits
    for are remembered only for the most recent REMEMBERED games (enough to cover the moment between a
    question reading the database and starting to wait), so thousands of games cost no memory here."""

    def __init__(self):
        self._lock = threading.Lock()
        self._latest: OrderedDict[str, int] = OrderedDict()
        self._bells: dict[str, _Bell] = {}
        self._held = threading.local()
        self.closed = False  # the server is stopping: nothing waits any more

    def close(self) -> None:
        """The server is stopping: every waiting question ends now (its screen asks again once the server is
        back), and none waits from now on, so stopping takes no longer than an answer."""
        with self._lock:
            self.closed = True
            for bell in self._bells.values():
                bell.ring.notify_all()

    def post(self, gid: str, version: int) -> None:
        held = getattr(self._held, "posts", None)
        if held is not None:  # inside `after_answer`: the acting screen gets its answer first
            held.append((gid, version))
            return
        with self._lock:
            self._remember(gid, version)
            bell = self._bells.get(gid)
            if bell is not None:
                bell.latest = max(bell.latest, version)
                bell.ring.notify_all()

    def _remember(self, gid: str, version: int) -> int:
        latest = max(self._latest.get(gid, version), version)  # two commits may post out of order
        self._latest[gid] = latest
        self._latest.move_to_end(gid)
        while len(self._latest) > REMEMBERED:
            self._latest.popitem(last=False)
        return latest

    def ring(self, gid: str) -> None:
        """Wake the game's waiting questions though the game has not moved (a seat moved to another
        phone): each screen asks again, so the phone that lost its seat hears so at once, and the host's
        phones panel shows the move."""
        with self._lock:
            bell = self._bells.get(gid)
            if bell is not None:
                bell.rings += 1
                bell.ring.notify_all()

    @contextmanager
    def after_answer(self):
        """Posts made inside the block go out when it ends: the phone that tapped gets its new menu
        before the other screens of its table start drawing theirs (they would share one core)."""
        self._held.posts = []
        try:
            yield
        finally:
            posts, self._held.posts = self._held.posts, None
            for gid, version in posts:
                self.post(gid, version)

    def wait(self, gid: str, seen: int, now: int, timeout: float, gone=None) -> int:
        """The game's version once it differs from `seen`, or `seen` when `timeout` passes first, when
        the game's bell rings (`ring`), or when `gone()` (asked about once a second) says nobody is waiting
        for the answer any more.

        `now` is the version just read from the database: it covers commits this bulletin never heard of."""
        deadline = time.monotonic() + timeout
        with self._lock:
            bell = self._bells.get(gid)
            if bell is None:
                bell = self._bells[gid] = _Bell(threading.Condition(self._lock))
            bell.waiting += 1
            bell.latest = max(bell.latest, self._remember(gid, now))
            rings = bell.rings
        try:
            while True:
                with self._lock:
                    remaining = deadline - time.monotonic()
                    if bell.latest != seen or bell.rings != rings or remaining <= 0 or self.closed:
                        return bell.latest
                    bell.ring.wait(remaining if gone is None else min(remaining, LOOK_EVERY))
                    if bell.latest != seen or bell.rings != rings:
                        return bell.latest
                if gone is not None and gone():
                    return seen
        finally:
            with self._lock:
                bell.waiting -= 1
                if not bell.waiting:
                    del self._bells[gid]


class _Bell:
    """The wake-up of one game while screens wait on it."""

    def __init__(self, ring: threading.Condition):
        self.ring, self.latest, self.waiting, self.rings = ring, -1, 0, 0


class InTurn:
    """A lock taken in the order it was asked for (threading.Lock wakes an arbitrary waiter, which let
    some screens wait behind later ones)."""

    def __init__(self):
        self._guard = threading.Lock()
        self._queue: deque[threading.Event] = deque()
        self._busy = False

    def __enter__(self):
        with self._guard:
            if not self._busy:
                self._busy = True
                return self
            turn = threading.Event()
            self._queue.append(turn)
        turn.wait()
        return self

    def __exit__(self, *exc):
        with self._guard:
            if self._queue:
                self._queue.popleft().set()  # handed on: still busy
            else:
                self._busy = False


def news_routes(url_map) -> list[re.Pattern]:
    """The screens' questions, read from the app's own GET routes ending in /news (the host screen, a
    phone, a phone's page on the host screen), so a new screen's question is held without a second list.
    Each names its game or its seat, which is how the screen's credential is checked before holding."""
    found = [_pattern(rule.rule) for rule in url_map.iter_rules()
             if rule.rule.endswith("/news") and "GET" in (rule.methods or ())]
    if not found:
        raise ValueError("the app has no news route")
    return found


def _pattern(route: str) -> re.Pattern:
    def part(m: re.Match) -> str:
        if m["converter"] == "int":
            return r"\d{1,9}"
        if m["name"] not in PARTS:
            raise ValueError(f"a news route names its game or its seat, not <{m['name']}>: {route}")
        return f"(?P<{m['name']}>{PARTS[m['name']]})"

    out, at = [], 0
    for m in ROUTE_PART.finditer(route):
        out += [re.escape(route[at:m.start()]), part(m)]
        at = m.end()
    return re.compile("^" + "".join(out) + re.escape(route[at:]) + "$")


class NewsPoll:
    """GET <screen>/news?v=N: held while the game is still at N, about `hold` seconds (give or take a
    quarter, so screens that asked together do not all ask again together), then 204. A question marked
    `r` (its page's last one failed: static/app.js) is answered at once, so the page knows it has the server
    back, and its next question waits as usual.

    Only a screen's own question waits: the host's (its key, as the link, the X-Host-Token header or its
    cookie) or the phone holding the seat (its cookie). Anyone else's question goes straight to the app,
    which refuses it at once, so strangers cannot take the places real screens wait in. A question whose
    screen hangs up stops waiting within about LOOK_EVERY seconds.

    At most `places` polls wait at once (each holds a server thread), and at most `per_game` of one game;
    past that a poll is answered at once, and the page simply asks again a moment later, as a plain poll
    would. No places: no waits."""

    def __init__(self, app, store, bulletin: Bulletin, hold: float, places: int, questions: list[re.Pattern],
                 phones: Sightings | None = None, per_game: int = PER_GAME):
        self.app, self.store, self.bulletin, self.hold = app, store, bulletin, hold
        self.phones = phones or Sightings()  # when each seat's phone last asked (the host's phones panel)
        self.questions = questions  # news_routes(app.url_map)
        self.places = threading.BoundedSemaphore(places) if places > 0 else None
        self.drawing = InTurn()  # one news answer drawn at a time, first come first drawn: see __call__
        self.waiting = 0  # how many questions wait right now (read by tests and benchmarks)
        self.per_game = per_game  # how many of them one game may hold (0: no cap of its own)
        self._per_game: dict[str, int] = {}
        self._count = threading.Lock()

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        m = next((m for m in (q.match(path) for q in self.questions) if m), None)
        if m and environ.get("REQUEST_METHOD") == "GET":
            query = parse_qs(environ.get("QUERY_STRING", ""))
            seen = seen_of(query)
            gid, version, now = self._look(m, query, environ)
            held = False
            if now is not None and seen == now:  # compared as text: any other text is news
                assert gid is not None and version is not None  # _look finds all three or none
                game = gid
                if "r" not in query and self._take_place(game):  # r: the page just lost the server
                    held = True
                    try:
                        with self.phones.asking(environ.get(SEAT), self.hold * 1.25):
                            gid, version, now = self._hold(m, query, environ, gid, version, seen)
                    finally:
                        self._give_back(game)
                    if _hung_up(environ):  # e.g. the phone that tapped: its tap's answer was its news
                        now = seen
                if now is not None and seen == now:
                    start_response(*UNCHANGED)
                    return [b""]
            if now is not None:
                # News: the screens of a table all ask at once. Drawn one after the other, the first
                # screens show the move sooner and the last no later than if all shared the core.
                with self.drawing:
                    return self.app(environ, _waited(start_response) if held else start_response)
        with self.bulletin.after_answer():
            return self.app(environ, start_response)

    def _take_place(self, gid: str) -> bool:
        """A place to wait in, if the server has one free and this game holds fewer than `per_game`: a game
        has one host screen and a phone per seat (plus a few tabs), so one game's key cannot take the
        places every other table waits in."""
        if self.hold <= 0 or self.places is None or self.bulletin.closed:
            return False
        with self._count:
            if self.per_game and self._per_game.get(gid, 0) >= self.per_game:
                return False
            if not self.places.acquire(blocking=False):
                return False
            self.waiting += 1
            self._per_game[gid] = self._per_game.get(gid, 0) + 1
        return True

    def _give_back(self, gid: str) -> None:
        with self._count:
            self.waiting -= 1
            left = self._per_game[gid] - 1
            if left:
                self._per_game[gid] = left
            else:
                del self._per_game[gid]
            assert self.places is not None  # a place was taken from them (_take_place)
            self.places.release()

    def _hold(self, m: re.Match, query: dict, environ, gid: str, version: int, seen: tuple):
        """Wait while the screen would see nothing new. Each wake-up looks again: a move, a seat taken by
        another phone (news for the host's phones panel; for the phone that lost it, its refusal)."""
        deadline = time.monotonic() + self.hold * random.uniform(0.75, 1.25)
        gone = environ.get(CLIENT_GONE)
        while True:
            self.bulletin.wait(gid, version, version, deadline - time.monotonic(), gone=gone)
            found, at, now = self._look(m, query, environ)
            if found is None or at is None:  # the game or seat went away: nothing to see (now is None)
                return found, at, now
            gid, version = found, at
            if now != seen or time.monotonic() >= deadline or self.bulletin.closed or (gone is not None and gone()):
                return gid, version, now

    def _look(self, m: re.Match, query: dict, environ) -> tuple[str | None, int | None, tuple | None]:
        """(game id, version, what the screen would see now) for a question asked with its screen's
        credential; (None, None, None) for anyone else's, or an unknown game or seat (the app answers)."""
        try:
            gid, version = self._screen(m, query, environ)
            if gid is None:
                return None, None, None
            joins = str(self.store.joins(gid)) if "j" in query else None
            phones = self.phones.news_key(gid) if "p" in query else None
            ticked = str(self.store.ticked(gid)) if "t" in query else None
            return gid, version, (str(version), joins, phones, ticked)
        except Exception:
            return None, None, None

    def _screen(self, m: re.Match, query: dict, environ) -> tuple[str | None, int | None]:
        """(game id, version) for a question asked with its screen's credential, else (None, None).

        The same credentials as the app's (web/access.py: host_key, device_ok), read from the environ:
        one indexed read for the host, two for a phone."""
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        gid, token = m.groupdict().get("gid"), m.groupdict().get("token")
        if gid:
            game = self.store.row(gid)
            key = (query.get("key", [""])[0] or environ.get("HTTP_X_HOST_TOKEN", "")
                   or cookies.get(f"host_{gid}", ""))
            return (game["id"], game["version"]) if _same(key, game["host_token"]) else (None, None)
        seat = self.store.seat_by_token(token)
        if not seat["device"] or not _same(cookies.get(f"seat_{token}", ""), seat["device"]):
            return None, None
        environ[SEAT] = (seat["game_id"], seat["seat"])
        self.phones.saw(environ[SEAT])
        return seat["game_id"], self.store.version(seat["game_id"])


def _waited(start_response):
    """Mark news a question waited for (X-Held): its page asks again at once, since the next question is
    held too (static/app.js); news given at once, to a page that was behind, is not followed so fast."""
    def start(status, headers, exc_info=None):
        return start_response(status, [*headers, ("X-Held", "1")], exc_info)
    return start


def _hung_up(environ) -> bool:
    gone = environ.get(CLIENT_GONE)
    return gone is not None and gone()


def seen_of(query: dict) -> tuple[str, str | None, str | None, str | None]:
    """What a screen's question says it shows: the game's version (`v`) and, for the host screen, how
    many times seats were taken by a phone (`j`), what it shows of the phones' connection (`p`,
    serve/phones.py), and how many times its checklists were ticked (`t`, store/ticks.py), so a join, a
    phone connecting or going quiet, or a tick on another host screen is news for it."""
    joins, phones, ticked = query.get("j"), query.get("p"), query.get("t")
    return (query.get("v", [""])[0], (joins[0] if joins else None), (phones[0] if phones else None),
            (ticked[0] if ticked else None))


def _same(given: str, secret: str) -> bool:
    return hmac.compare_digest(given.encode(), secret.encode())
