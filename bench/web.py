"""Web speed, measured on one real server (`python -m companion serve`, its default threads) in one run.

    python bench/web.py [--quick] [--seconds 10] [--tables 10,50,100]

(a) a trivial route (GET /play: a redirect, no database, no template) and a static file;
(b) the "anything new?" poll check, GET /games/<id>/poll?v=N answered 204;
(c) the host map fragment (/host/<gid>/part/city, host cookie) and the phone estate fragment
    (/seat/<token>/part/estate, device cookie from /j/<token>), mid-game;
(d) an action from POST to commit: the JSON API and the phone's htmx form (which answers with the new menu);
(e) propagation: a phone acts; the other four screens of the table (host + three phones) poll as the
    pages do (the interval is read from templates/partials/_poll.html) until each has seen the new version;
(f) N tables x 5 screens polling live (N = 10, 50, 100), each screen on its own keep-alive connection as a
    browser holds one: p50/p99 of the poll requests, and how many got no answer;
plus the bytes over the wire of a phone's first page: /j/<token>, the page, and every file it links, with
a browser's Accept-Encoding.

Targets (web companion hardening issue): (b) <= 2 x (a); (c) p99 <= 15 ms; (e) p95 <= 300 ms;
N = 100 at p99 <= 100 ms on 2 cores; first phone page <= 60 KB over the wire. The load generator runs on
the same machine (stdlib http.client in threads), so it competes with the server for the cores.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import re
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from server import Browser, Server  # noqa: E402

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"},
           {"name": "Chiara", "colour": "blue"}, {"name": "Dario", "colour": "green"}]
BROWSER_HEADERS = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/html,*/*",
                   "User-Agent": "Mozilla/5.0 (Linux; Android 14) bench"}
HTMX = {"HX-Request": "true", "HX-Current-URL": "http://bench/"}
TIMEOUT = 10.0


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def poll_interval() -> float:
    """The interval the pages poll at: the app's POLL_MS setting, which the poll template uses."""
    from companion.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        return create_app({"INSTANCE": tmp}).config["POLL_MS"] / 1000


class Client:
    """One keep-alive connection with cookies, timing each request."""

    def __init__(self, srv: Server, cookies: dict | None = None):
        self.browser = Browser(srv)
        self.browser.cookies.update(cookies or {})

    def time(self, method: str, path: str, headers: dict | None = None, form: dict | None = None,
             body: bytes | None = None) -> tuple[float, int, bytes]:
        t0 = time.perf_counter()
        status, _, data = self.browser.request(method, path, form=form, headers=headers, body=body)
        return time.perf_counter() - t0, status, data


def repeat(client: Client, path: str, n: int, headers: dict | None = None, expect: int = 200) -> list[float]:
    for _ in range(max(20, n // 10)):  # warm up
        client.time("GET", path, headers)
    out = []
    for _ in range(n):
        dt, status, _ = client.time("GET", path, headers)
        assert status == expect, (path, status)
        out.append(dt)
    return out


class Table:
    def __init__(self, srv: Server, seed: int):
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": seed})
        assert status == 201, game
        self.srv, self.game = srv, game
        self.id, self.key = game["id"], game["host_token"]
        self.tokens = [s["token"] for s in game["seats"]]

    def state(self) -> dict:
        return self.srv.json("GET", f"/api/games/{self.id}/state", headers={"X-Host-Token": self.key})[1]

    def next_move(self, rng: random.Random) -> tuple[str, dict, object]:
        """(API url, body, who) for a random legal choice of whoever must decide now."""
        st = self.state()
        if st["phase"] == "over":
            raise EOFError
        who = st["pending"][0]["who"]
        if who == "host":
            menu = self.srv.json("GET", f"/api/games/{self.id}/host/menu", headers={"X-Host-Token": self.key})[1]
            url = f"/api/games/{self.id}/host/actions"
        else:
            menu = self.srv.json("GET", f"/api/seats/{self.tokens[who]}/menu")[1]
            url = f"/api/seats/{self.tokens[who]}/actions"
        pick = rng.choice([o for o in menu["menu"] if o["available"]])
        return url, {"version": menu["version"], "choice": pick["choice"], "decision": pick["decision"]}, who

    def play(self, steps: int, rng: random.Random) -> None:
        for _ in range(steps):
            try:
                url, body, _ = self.next_move(rng)
            except EOFError:
                return
            status, out = self.srv.json("POST", url, body, headers={"X-Host-Token": self.key})
            assert status == 200, out


def phone(srv: Server, token: str) -> Client:
    """A phone that scanned its seat's code: it holds the device cookie and the session (CSRF)."""
    c = Client(srv)
    status, _, _ = c.browser.get(f"/j/{token}")
    assert status == 302
    status, _, page = c.browser.get(f"/seat/{token}")
    assert status == 200
    return c


def host_screen(srv: Server, table: Table) -> Client:
    c = Client(srv)
    status, _, _ = c.browser.get(f"/host/{table.id}?key={table.key}")
    assert status == 200
    return c


# --- (a) (b) (c) (d) ---------------------------------------------------------------------------------

def bench_basic(srv: Server, n: int, results: dict) -> Table:
    rng = random.Random(1)
    table = Table(srv, seed=7)
    table.play(60, rng)  # mid-game: a map with cubes, citizens and lieutenants; estates with workshops
    version = table.state()["version"]
    host = host_screen(srv, table)
    phones = [phone(srv, t) for t in table.tokens]
    # (a) and (b) interleaved, request by request, so that both meet the same moments of the machine
    trivial, static, poller = Client(srv), Client(srv), phones[0]
    poll = f"/games/{table.id}/poll?v={version}"
    for _ in range(n // 10):
        trivial.time("GET", "/play"), static.time("GET", "/static/app.js"), poller.time("GET", poll, HTMX)
    results["a_play"], results["a_static"], results["b_poll"] = [], [], []
    for _ in range(n):
        for key, client, path, headers, expect in (("a_play", trivial, "/play", None, 302),
                                                   ("a_static", static, "/static/app.js", None, 200),
                                                   ("b_poll", poller, poll, HTMX, 204)):
            dt, status, _ = client.time("GET", path, headers)
            assert status == expect, (path, status)
            results[key].append(dt)
    conn = srv.connect()
    conn.request("GET", f"/games/{table.id}/poll?v={version}", headers=HTMX)
    resp = conn.getresponse()
    resp.read()
    results["b_close"] = resp.headers.get("Connection", "")
    conn.close()
    results["c_city"] = repeat(host, f"/host/{table.id}/part/city", max(200, n // 4), HTMX)
    results["c_estate"] = repeat(phones[1], f"/seat/{table.tokens[1]}/part/estate", max(200, n // 4), HTMX)
    return table


def bench_actions(srv: Server, n: int, results: dict) -> None:
    """(d): each POST, from sending to the answer after the commit."""
    rng = random.Random(2)
    api, html = [], []
    table, seed = None, 100
    phones: dict[int, Client] = {}
    csrf: dict[int, str] = {}
    while len(api) + len(html) < 2 * n:
        if table is None:
            table, seed = Table(srv, seed), seed + 1
            phones, csrf = {}, {}
        try:
            url, body, who = table.next_move(rng)
        except EOFError:
            table = None
            continue
        if who != "host" and len(html) < n:  # the phone's htmx tap, answered with its new menu
            if who not in phones:
                phones[who] = phone(srv, table.tokens[who])
                _, _, page = phones[who].browser.get(f"/seat/{table.tokens[who]}")
                csrf[who] = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
            form = {"csrf": csrf[who], "version": body["version"], "choice": body["choice"],
                    "decision": body["decision"]}
            dt, status, _ = phones[who].time("POST", f"/seat/{table.tokens[who]}/act", HTMX, form=form)
            assert status == 200, status
            html.append(dt)
        else:
            c = Client(srv)
            dt, status, out = c.time("POST", url, {"Content-Type": "application/json", "X-Host-Token": table.key},
                                     body=json.dumps(body).encode())
            assert status == 200, out
            api.append(dt)
    results["d_api"], results["d_html"] = api, html


# --- pollers: (e) and (f) ----------------------------------------------------------------------------

class Screen(threading.Thread):
    """A screen's poller: every `interval` from a random phase, GET poll?v=<seen>; on a 200 it takes the
    new version (as the page swaps in the new poller) and notes when it first saw each version."""

    def __init__(self, srv: Server, gid: str, version: int, interval: float, stop: threading.Event,
                 start_at: float, latencies: list, failures: list, seen: dict | None = None):
        super().__init__(daemon=True)
        self.srv, self.gid, self.version, self.interval, self.stop = srv, gid, version, interval, stop
        self.next = start_at + random.random() * interval
        self.latencies, self.failures, self.seen = latencies, failures, seen
        self.measure_from = start_at + interval  # the first round opens the connections: not measured

    def run(self):
        conn = None
        while not self.stop.is_set():
            delay = self.next - time.perf_counter()
            if delay > 0 and self.stop.wait(delay):
                break
            self.next += self.interval
            t0 = time.perf_counter()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=TIMEOUT)
                conn.request("GET", f"/games/{self.gid}/poll?v={self.version}", headers=HTMX)
                resp = conn.getresponse()
                body = resp.read()
            except (OSError, http.client.HTTPException) as exc:
                if t0 >= self.measure_from:
                    self.failures.append(type(exc).__name__)
                if conn is not None:
                    conn.close()
                conn = None
                continue
            done = time.perf_counter()
            if t0 >= self.measure_from:
                self.latencies.append(done - t0)
            if resp.status == 200:
                m = re.search(rb'data-version="(\d+)"', body)
                if m:
                    self.version = int(m.group(1))
                    if self.seen is not None:
                        self.seen.setdefault(self.version, done)
                    self.next = done + self.interval  # the swapped-in poller starts its own timer
        if conn is not None:
            conn.close()


def bench_propagation(srv: Server, actions: int, results: dict) -> None:
    """(e): a phone acts; until the host and the three other phones have each seen the new version."""
    interval = poll_interval()
    rng = random.Random(3)
    table = Table(srv, seed=11)
    table.play(10, rng)
    version = table.state()["version"]
    stop = threading.Event()
    start = time.perf_counter() + 0.2
    seens: list[dict] = [{} for _ in range(5)]
    lat, fail = [], []
    screens = [Screen(srv, table.id, version, interval, stop, start, lat, fail, seens[i]) for i in range(5)]
    for s in screens:
        s.start()
    time.sleep(interval + 0.5)
    spreads = []
    actor = Client(srv)
    for _ in range(actions):
        try:
            url, body, who = table.next_move(rng)
        except EOFError:
            break
        watchers = [i for i in range(5) if i != (who if isinstance(who, int) else 4)]  # screen 4 = host
        t0 = time.perf_counter()
        _, status, out = actor.time("POST", url, {"Content-Type": "application/json", "X-Host-Token": table.key},
                                    body=json.dumps(body).encode())
        assert status == 200, out
        new = json.loads(out)["version"]
        deadline = time.perf_counter() + 3 * interval + 2
        while time.perf_counter() < deadline and not all(new in seens[i] for i in watchers):
            time.sleep(0.005)
        assert all(new in seens[i] for i in watchers), "a screen never saw the new version"
        spreads.append(max(seens[i][new] for i in watchers) - t0)
        time.sleep(rng.uniform(0.1, 0.4))
    stop.set()
    for s in screens:
        s.join()
    results["e_prop"], results["e_interval"] = spreads, interval


def bench_tables(srv: Server, counts: list[int], seconds: float, results: dict) -> None:
    """(f): N tables x 5 screens, each screen on its own connection, polling at the pages' interval."""
    interval = poll_interval()
    tables = []
    for n in counts:
        while len(tables) < n:
            tables.append(Table(srv, seed=1000 + len(tables)))
        stop = threading.Event()
        lat, fail = [], []
        start = time.perf_counter() + 0.5
        screens = [Screen(srv, t.id, 0, interval, stop, start, lat, fail) for t in tables[:n] for _ in range(5)]
        for s in screens:
            s.start()
        time.sleep(0.5 + interval + seconds)
        stop.set()
        for s in screens:
            s.join(TIMEOUT + 2)
        results[f"f_{n}"] = {"lat": lat, "fail": len(fail), "screens": len(screens)}
        time.sleep(1.0)


# --- first phone page over the wire -------------------------------------------------------------------

def wire_size(resp: http.client.HTTPResponse, body: bytes) -> int:
    head = len(f"HTTP/1.1 {resp.status} {resp.reason}\r\n") + sum(len(k) + len(v) + 4 for k, v in resp.getheaders())
    return head + 2 + len(body)


def first_page_bytes(srv: Server, token: str) -> list[tuple[str, int, str]]:
    """Every response a fresh phone gets when it scans its code: (path, bytes, content-encoding)."""
    conn = srv.connect()
    out = []
    cookies = {}

    def get(path):
        headers = dict(BROWSER_HEADERS)
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        for c in resp.headers.get_all("Set-Cookie") or []:
            k, _, rest = c.partition("=")
            cookies[k] = rest.split(";", 1)[0]
        out.append((path, wire_size(resp, body), resp.headers.get("Content-Encoding") or "none"))
        return resp, body

    resp, _ = get(f"/j/{token}")
    resp, page = get(resp.headers["Location"].replace(srv.base, ""))
    if resp.headers.get("Content-Encoding") == "gzip":
        import gzip

        page = gzip.decompress(page)
    for link in re.findall(rb'(?:src|href)="(/static/[^"]+)"', page):
        get(link.decode())
    conn.close()
    return out


# --- report ----------------------------------------------------------------------------------------

def machine() -> str:
    model = "unknown CPU"
    try:
        model = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores of {model}, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    ap.add_argument("--seconds", type=float, default=10.0, help="polling time per table count in (f)")
    ap.add_argument("--tables", default="10,50,100")
    args = ap.parse_args()
    n = 300 if args.quick else 2000
    counts = [int(x) for x in args.tables.split(",")]
    seconds = 3.0 if args.quick else args.seconds
    load_before = os.getloadavg()
    started = time.perf_counter()
    results: dict = {}
    with Server(tempfile.mkdtemp(prefix="messina-bench-")) as srv:
        table = bench_basic(srv, n, results)
        fresh = Table(srv, seed=99)
        results["wire"] = first_page_bytes(srv, fresh.tokens[0])
        bench_actions(srv, 60 if args.quick else 300, results)
        bench_propagation(srv, 8 if args.quick else 30, results)
        bench_tables(srv, counts, seconds, results)
        del table
    load_after = os.getloadavg()

    print(f"# bench/web.py — {date.today().isoformat()}, {machine()}")
    print(f"# command: python bench/web.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"# load average before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
          f"run took {time.perf_counter() - started:.0f}s; server: python -m companion serve (waitress, 8 threads)")
    print()
    print("| measure | n | p50 ms | p95 ms | p99 ms | target | met |")
    print("|---|---:|---:|---:|---:|---|---|")

    def row(label, values, target="", met=""):
        print(f"| {label} | {len(values)} | {ms(pct(values, .5))} | {ms(pct(values, .95))} | {ms(pct(values, .99))} "
              f"| {target} | {met} |")

    a, b = results["a_play"], results["b_poll"]
    ratio50, ratio99 = pct(b, .5) / pct(a, .5), pct(b, .99) / pct(a, .99)
    row("(a) trivial route GET /play (302)", a)
    row("(a') static file GET /static/app.js", results["a_static"])
    row("(b) poll check GET /games/<id>/poll?v=N (204)", b, "≤ 2 × (a)",
        f"{'yes' if ratio50 <= 2 else 'no'}: p50 {ratio50:.2f}×, p99 {ratio99:.2f}×")
    for key, label in (("c_city", "(c) host map /host/<gid>/part/city"),
                       ("c_estate", "(c) phone estate /seat/<token>/part/estate")):
        v = results[key]
        row(label, v, "p99 ≤ 15 ms", "yes" if pct(v, .99) <= 0.015 else "no")
    row("(d) action, JSON API POST → commit", results["d_api"])
    row("(d) action, phone htmx POST → commit + new menu", results["d_html"])
    e = results["e_prop"]
    row(f"(e) propagation to 4 other screens (poll every {results['e_interval']:g}s)", e, "p95 ≤ 300 ms",
        "yes" if pct(e, .95) <= 0.3 else "no")
    for count in counts:
        f = results[f"f_{count}"]
        lat = f["lat"]
        ok = pct(lat, .99) <= 0.1 and f["fail"] == 0
        row(f"(f) {count} tables × 5 screens polling every {results['e_interval']:g}s ({f['screens']} pollers), "
            f"{f['fail']} failed", lat, "p99 ≤ 100 ms (N = 100)" if count == 100 else "",
            ("yes" if ok else "no") if count == 100 else "")
    total = sum(size for _, size, _ in results["wire"])
    print()
    if results["b_close"].lower() == "close":
        print("Note: the 204 poll answer carries 'Connection: close' (waitress closes every response without a "
              "Content-Length, and a 204 may not have one), so every unchanged poll costs a new TCP connection; "
              "(b) and (f) include it.")
    verdict = "met" if total <= 60 * 1024 else "missed"
    print(f"First phone page over the wire: {total / 1024:.1f} KB (target ≤ 60 KB: {verdict})")
    for path, size, enc in results["wire"]:
        shown = re.sub(r"/(j|seat)/[^/]+", r"/\1/<token>", path)
        print(f"    {shown:<40} {size / 1024:7.1f} KB  (content-encoding: {enc})")


if __name__ == "__main__":
    main()
