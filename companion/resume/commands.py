"""`python -m companion replay FILE` and `python -m companion resume FILE`: a game's file checked act by act,
printed for a table to read, and resumed into this machine's games file with new links."""

from __future__ import annotations

import sys
from pathlib import Path

from ..catalog import default_catalog
from ..instance import instance_folder
from ..store import Store
from ..store.game_file import LARGEST, GameFile, Refused, read_file
from ..store.replay import Step, replay
from ..web.address import served_at
from .story import step_lines, summary


def replay_command(args) -> int:
    """Print the file's game act by act while replaying it; 0 when it arrives at the game it records, 1 (and
    the first act or field that does not hold) otherwise."""
    file = _read(args.file)
    if file is None:
        return 1
    counts = {"steps": 0, "undos": 0}

    def heard(step: Step) -> None:
        counts["steps"] += 1
        counts["undos"] += step.row.kind == "undo"
        print("\n".join(step_lines(step)))

    _older(file)
    try:
        replayed = replay(file, file.catalog or default_catalog(), heard)
    except Refused as exc:
        print(_refusal(args.file, exc), file=sys.stderr)
        return 1
    undone = sum(row.undone for row in file.rows)
    print(summary(counts["steps"], counts["undos"], undone, replayed.state))
    return 0


def resume_command(args) -> int:
    """Resume the file's game in the instance's games file (the one `serve` uses) and print its new host
    link and each seat's new code and link, at the address `serve` gives phones (or --public-url)."""
    file = _read(args.file)
    if file is None:
        return 1
    _older(file)
    folder = instance_folder()
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "companion.db")  # a folder or file it cannot use: StartupError, one line (cli/__init__.py)
    try:
        game = store.resume(file)
    except Refused as exc:
        print(_refusal(args.file, exc), file=sys.stderr)
        return 1
    base = served_at("0.0.0.0", args.port, (), args.public_url)["PUBLIC_URL"]
    print(f"Resumed as a new game on this machine, where it stood (version {game.version}).")
    print(f"Host link (keep it to the host): {base}/host/{game.id}?key={game.host_token}")
    for seat, player in zip(store.seats(game.id), file.options.players, strict=False):
        print(f"  {player.name}: code {seat['code']}, link {base}/j/{seat['token']}")
    print("The links and codes of the machine the file came from do not work here: players join again with "
          "these (start `python -m companion serve` if it is not running).")
    return 0


def _read(path: str) -> GameFile | None:
    """The file at `path`, checked; None after saying why not."""
    try:
        with open(path, "rb") as f:
            data = f.read(LARGEST + 1)
    except OSError as exc:
        print(f"companion: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return None
    try:
        return read_file(data)
    except Refused as exc:
        print(_refusal(path, exc), file=sys.stderr)
        return None


def _older(file: GameFile) -> None:
    if file.catalog is None:
        print("This file is from before games could be resumed (format 1): it carries neither its catalog nor "
              "its final state, so its acts are replayed with this machine's catalog and each is checked, not "
              "where they lead.", file=sys.stderr)


def _refusal(path: str, exc: Refused) -> str:
    where = f" [{exc.where}]" if exc.where else ""
    return f"{Path(path).name}: refused{where}: {exc.message}"
