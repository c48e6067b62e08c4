"""Rate-limit counters: ours (companion/web/limits.py, PerWindow, counting in the games file since issue 32:
store/tries.py) against Flask-Limiter's in-memory moving window, the library issue 21 asked us to use unless
a measurement showed it worse here.

    pip install flask-limiter      # not a dependency of the companion: only this comparison needs it
    python bench/rate_limits.py
    python bench/rate_limits.py --quick   # CI's smoke run: ours only, a few hundred tries, no timing judged

For 1, 1,100 and 10,000 addresses (the red team used 1,100 to beat the old counter), both counting
10 tries a minute per address:
- the cost of one counted try (µs), every address trying in turn;
- the memory the counter holds once every address has tried (MB, tracemalloc; ours keeps its counts in the
  games file, which grows by the tries kept instead);
- the CPU the process spends (share of one core) while one try arrives every 2 ms after those addresses
  were seen: what the counter costs the server between requests, on top of the requests themselves.
"""

from __future__ import annotations

import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.web.limits import MINUTE, PerWindow  # noqa: E402
from companion.store import Store  # noqa: E402

FOLDER = tempfile.TemporaryDirectory(prefix="rate-limits-")

ADDRESSES = (1, 1100, 10_000)
TRIES = 30_000
QUIET_SECONDS = 2.0


def ours():
    store = Store(Path(FOLDER.name) / f"games-{time.monotonic_ns()}.db")
    counter = PerWindow(store, "join_tries", 10, MINUTE)
    return lambda who: counter.allow(who)


def flask_limiters():
    from flask import Flask
    from flask_limiter import Limiter
    from limits import parse

    app = Flask("bench")
    limiter = Limiter(lambda: "", app=app, storage_uri="memory://", strategy="moving-window")
    item = parse("10/minute")
    return lambda who: limiter.limiter.hit(item, "join", who)


def address(i: int) -> str:
    return f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}"


def measure(make, addresses: int) -> dict:
    allow = make()
    tracemalloc.start()
    t0 = time.perf_counter()
    for i in range(TRIES):
        allow(address(i % addresses))
    per_try = (time.perf_counter() - t0) / TRIES * 1e6
    memory = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()
    time.sleep(0.2)
    cpu, wall, n = time.process_time(), time.perf_counter(), 0
    while time.perf_counter() - wall < QUIET_SECONDS:
        allow(address(addresses + n % 5))
        n += 1
        time.sleep(0.002)
    share = (time.process_time() - cpu) / (time.perf_counter() - wall)
    return {"µs a try": round(per_try, 1), "MB held": round(memory, 1), "CPU share, a try every 2 ms": round(share, 3)}


def smoke() -> int:
    """A few hundred tries through our counter: it still counts (10 a minute per address) and the benchmark
    still runs; nothing timed is judged."""
    allow = ours()
    allowed = sum(bool(allow(address(i % 30))) for i in range(600))
    print(f"ours (PerWindow): {allowed} of 600 tries from 30 addresses allowed (10 a minute each)")
    return 0 if allowed == 300 else 1


def main() -> int:
    if "--quick" in sys.argv[1:]:
        return smoke()
    try:
        import flask_limiter  # noqa: F401
    except ImportError:
        print("pip install flask-limiter first: this benchmark compares with it", file=sys.stderr)
        return 1
    print(f"{'counter':<28} {'addresses':>9} {'µs a try':>9} {'MB held':>8} {'CPU share':>10}")
    for name, make in (("ours (PerWindow)", ours), ("Flask-Limiter moving window", flask_limiters)):
        for n in ADDRESSES:
            row = measure(make, n)
            print(f"{name:<28} {n:>9} {row['µs a try']:>9} {row['MB held']:>8} "
                  f"{row['CPU share, a try every 2 ms']:>10}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
