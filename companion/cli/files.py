"""`prune`, `replay FILE` and `resume FILE`: the games file of this machine, and a game's own file
(companion/resume/commands.py). `serve --backups DIR` writes the files these two read (serve.py)."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import click

GAME_FILE = "FILE is the game's file (the host screen's export, or a copy from serve --backups)."


@click.command("prune")
@click.option("--older-than", type=float, required=True, metavar="DAYS",
              help="delete games whose last move (or creation) is older than DAYS days")
@click.option("--dry-run", is_flag=True, help="only list the games that would be deleted")
@click.option("--vacuum", is_flag=True, help="then give the space back to the disk (rewrites the games file)")
def prune(**options) -> int:
    """Delete games nobody has played for some days.

    Safe while the server runs: each game goes in one transaction, and its screens then say it was deleted."""
    import time

    from ..instance import instance_folder
    from ..store import Store

    args = SimpleNamespace(**options)
    if not args.older_than >= 0:
        print("companion: --older-than needs a number of days, 0 or more", file=sys.stderr)
        return 2
    path = instance_folder() / "companion.db"
    if not path.exists():
        print(f"No games file at {path}: nothing to prune.")
        return 0
    store = Store(path)
    idle = store.prune(time.time() - args.older_than * 86400, dry_run=args.dry_run)
    verb = "Would delete" if args.dry_run else "Deleted"
    for game in idle:
        names = ", ".join(p["name"] for p in json.loads(game["options"]).get("players", []))
        last = time.strftime("%Y-%m-%d %H:%M", time.localtime(game["last"]))
        print(f"{verb} game {game['id']} ({names}; last played {last})")
    print(f"{verb} {len(idle)} game{'s' if len(idle) != 1 else ''} idle for more than {args.older_than:g} days.")
    if args.vacuum and not args.dry_run:
        before = _size(path)
        store.vacuum()
        print(f"Games file {path}: {before // 1024} KB -> {_size(path) // 1024} KB.")
    return 0


def _size(db) -> int:
    """The games file with its write-ahead log (where the newest pages wait to be copied in)."""
    wal = db.with_name(db.name + "-wal")
    return db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


@click.command("replay", help=f"Check a game's file act by act and print the game in words.\n\n{GAME_FILE}")
@click.argument("file")
def replay(file: str) -> int:
    from ..resume.commands import replay_command

    return replay_command(SimpleNamespace(file=file))


@click.command("resume", help=f"Resume a game from its file in this machine's games file.\n\n{GAME_FILE}")
@click.argument("file")
@click.option("--port", type=int, default=8000, show_default=True, help="the port `serve` listens on, for the links")
@click.option("--public-url", help="the address phones use, as given to `serve`")
def resume(**options) -> int:
    from ..resume.commands import resume_command

    return resume_command(SimpleNamespace(**options))
