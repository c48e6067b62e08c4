"""A game's file (issue 36): what exporting, checking and resuming a whole game costs.

    python bench/resume.py [--players 4] [--repeats 3] [--quick]

A game is played to its final scoring on one Store by the seeded random policy, the host undoing two acts
every 37 moves; then `Store.game_file` (and its JSON), `store.game_file.read_file` and `Store.resume` on a fresh
Store, best of `--repeats`. The resume is the replay of every row through the store's own writes."""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.catalog import shipped_catalog  # noqa: E402
from companion.engine import legal_actions, options_for, pending  # noqa: E402
from companion.store.game_file import read_file  # noqa: E402
from companion.store import Store  # noqa: E402


def played(store: Store, players: int) -> str:
    gid = store.create(options_for(players), seed=3).id
    rng = random.Random(1)
    moves = 0
    while (game := store.load(gid)).state.phase != "over":
        moves += 1
        if moves % 37 == 0:
            store.undo(gid, game.version, 2)
            continue
        who = pending(game.state)[0]["who"]
        menu = legal_actions(game.state, who)
        choice = rng.choice([i for i, o in enumerate(menu) if o["available"]])
        store.act(gid, game.version, who, menu[choice]["action"]["decision"], choice)
    return gid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a two-player game, once: a smoke run")
    args = ap.parse_args()
    players, repeats = (2, 1) if args.quick else (args.players, args.repeats)
    folder = Path(tempfile.mkdtemp())
    here = Store(folder / "here.db", shipped_catalog())
    gid = played(here, players)
    best: dict[str, float] = {}
    for i in range(repeats):
        t = time.perf_counter()
        data = json.dumps(here.game_file(gid), indent=1).encode()
        best["export"] = min(best.get("export", 1e9), time.perf_counter() - t)
        t = time.perf_counter()
        checked = read_file(data)
        best["check"] = min(best.get("check", 1e9), time.perf_counter() - t)
        there = Store(folder / f"there{i}.db", shipped_catalog())
        t = time.perf_counter()
        game = there.resume(checked)
        best["resume"] = min(best.get("resume", 1e9), time.perf_counter() - t)
        assert game.version == checked.version
    print(f"{players} players, {len(checked.rows)} rows, file {len(data) // 1024} KB; "
          + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in best.items()))


if __name__ == "__main__":
    main()
