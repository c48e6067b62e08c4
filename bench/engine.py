"""Engine speed: full-game time per player count and legal_actions latency.

    python bench/engine.py [--games 30] [--quick]

Targets (issue: rules engine II): median full 4-player game <= 50 ms on one core; legal_actions
p99 <= 1 ms. Games are played by the seeded random policy without invariant checks. A menu is
computed when its question is asked (inside the apply that leads to it), so apply's latency is shown
too: that is where the menu's real cost lies."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.catalog import default_catalog  # noqa: E402
from companion.engine import apply, legal_actions, new_game, options_for, pending  # noqa: E402


def game(players: int, seed: int, latencies: list[float], applies: list[float], catalog) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    state = new_game(options_for(players), seed, catalog)
    while state.phase != "over":
        who = pending(state)[0]["who"]
        t0 = time.perf_counter()
        menu = legal_actions(state, who)
        latencies.append(time.perf_counter() - t0)
        action = rng.choice([o for o in menu if o["available"]])["action"]
        t0 = time.perf_counter()
        apply(state, action)
        applies.append(time.perf_counter() - t0)
    return time.perf_counter() - start


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="two games per player count: a smoke run (CI: .ci/run)")
    args = ap.parse_args()
    if args.quick:
        args.games = 2
    print(f"python {sys.version.split()[0]}, {args.games} games per player count")
    print(f"{'players':>7} {'median game ms':>15} {'p95 game ms':>12} {'legal_actions p50 µs':>21} {'p99 µs':>8} "
          f"{'apply p50 µs':>13} {'p99 µs':>8}")
    catalog = default_catalog()
    for players in (1, 2, 3, 4):
        lat: list[float] = []
        app: list[float] = []
        times = [game(players, seed, lat, app, catalog) for seed in range(1, args.games + 1)]
        print(f"{players:>7} {statistics.median(times) * 1000:>15.1f} {pct(times, 0.95) * 1000:>12.1f} "
              f"{pct(lat, 0.5) * 1e6:>21.1f} {pct(lat, 0.99) * 1e6:>8.1f} {pct(app, 0.5) * 1e6:>13.1f} "
              f"{pct(app, 0.99) * 1e6:>8.1f}")


if __name__ == "__main__":
    main()
