"""`python -m companion ...`: check the catalog, set up a game, serve the companion, prune old games, replay and
resume a game's file (companion/resume/commands.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from .faults import StartupError, StoreFault  # each command imports only what it needs (serve: Flask)

    commands = {"serve": serve_command, "catalog": lambda a: catalog_check(a.override), "setup": setup_command,
                "simulate": simulate_command, "prune": prune_command, "replay": _resume_commands("replay"),
                "resume": _resume_commands("resume")}
    try:
        return commands[args.command](args)
    except (StartupError, StoreFault) as exc:  # one clear line for whoever started it, no traceback
        print(f"companion: {exc}", file=sys.stderr)
        return 1


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m companion", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)

    cat = sub.add_parser("catalog", help="component catalog tools")
    cat_sub = cat.add_subparsers(dest="catalog_command", required=True)
    check = cat_sub.add_parser("check", help="validate the catalog and count its records")
    check.add_argument("--override", help="corrections file (default: $MESSINA_CATALOG, else catalog.toml in the "
                                          "instance folder that serve uses: $MESSINA_INSTANCE or instance/)")

    setup = sub.add_parser("setup", help="set up a game and print the state after round I setup")
    _game_options(setup)
    setup.add_argument("--json", action="store_true", help="print the state as JSON")

    sim = sub.add_parser("simulate", help="play whole games with a random legal policy, checking invariants")
    _game_options(sim, players_required=False)
    sim.add_argument("--games", type=int, default=1, help="games to play (with --sweep: seeds of every kind)")
    sim.add_argument("--json", action="store_true", help="print one JSON object per game")
    sim.add_argument("--no-roundtrip", action="store_true", help="skip the JSON round-trip check (faster)")
    sim.add_argument("--policy", choices=("random", "eager", "idle"), default="random",
                     help="random: any legal option; eager: climbs, builds, repopulates; idle: recalls, declines")
    sim.add_argument("--coverage", action="store_true",
                     help="then report how often each decision kind, reward icon and rule-bearing branch was "
                          "reached, and which never were")
    sim.add_argument("--sweep", action="store_true",
                     help="play CI's coverage sweep instead: every player count, a/b boards, priority tile, app "
                          "and table draws, each policy, usual and seeded starts (--players not needed)")

    serve = sub.add_parser("serve", help="serve the companion on the local network")
    _serve_options(serve)
    _file_commands(sub, serve)  # replay, resume, serve --backups

    prune = sub.add_parser("prune", help="delete games nobody has played for some days")
    prune.add_argument("--older-than", type=float, required=True, metavar="DAYS",
                       help="delete games whose last move (or creation) is older than DAYS days")
    prune.add_argument("--dry-run", action="store_true", help="only list the games that would be deleted")
    prune.add_argument("--vacuum", action="store_true",
                       help="then give the space back to the disk (rewrites the games file)")
    return top


def _serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--public-url", help="the address phones use, e.g. behind a reverse proxy "
                       "(default: this machine's network address and --port)")
    serve.add_argument("--name", action="append", default=[],
                       help="another host name the companion answers to (repeatable; e.g. a reverse proxy's)")
    serve.add_argument("--workers", type=int, default=0,
                       help="processes that answer, each on its own core (default 0: one per core)")
    serve.add_argument("--threads", type=int, default=8, help="threads that answer requests, in each worker")
    serve.add_argument("--screens", type=int, default=600,
                       help="screens that may wait for news at once in each worker (each holds one more thread)")
    serve.add_argument("--wait", type=float, default=20.0,
                       help="seconds a screen's question waits for news before 'nothing new' (0: plain polling)")
    serve.add_argument("--per-client", type=int, default=64,
                       help="connections one device may keep open at once (0: no cap; behind a proxy every "
                            "client has the proxy's address)")
    serve.add_argument("--proxies", type=int, default=0, metavar="N",
                       help="reverse proxies you run in front of the companion (default 0): each player's "
                            "address is then read from the X-Forwarded-For header they add, for the limits")
    serve.add_argument("--new-games-per-minute", type=int, default=30, metavar="N",
                       help="new games one address may start per minute (0: no limit)")
    serve.add_argument("--new-games-per-day", type=int, default=200, metavar="N",
                       help="new games one address may start per day (0: no limit)")
    serve.add_argument("--keep-unplayed", action="store_true",
                       help="keep games nobody ever played (by default they are removed a day after they started)")


def _file_commands(sub, serve) -> None:
    """`replay FILE`, `resume FILE` and `serve --backups DIR`: a game's file (companion/resume/)."""
    serve.add_argument("--backups", metavar="DIR",
                       help="write each game's file into DIR at every round's end and at game over (the last few "
                            "per game are kept)")
    replay = sub.add_parser("replay", help="check a game's file act by act and print the game in words")
    replay.add_argument("file", help="the game's file (the host screen's export, or a copy from --backups)")
    resume = sub.add_parser("resume", help="resume a game from its file in this machine's games file")
    resume.add_argument("file", help="the game's file (the host screen's export, or a copy from --backups)")
    resume.add_argument("--port", type=int, default=8000, help="the port `serve` listens on, for the links")
    resume.add_argument("--public-url", help="the address phones use, as given to `serve`")


def _resume_commands(name: str):
    def command(args) -> int:
        from .resume import commands

        return getattr(commands, f"{name}_command")(args)
    return command


def _game_options(p: argparse.ArgumentParser, players_required: bool = True) -> None:
    p.add_argument("--players", type=int, required=players_required, choices=(1, 2, 3, 4), help="1 = solo")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--advanced", action="store_true", help="b sides of player and scroll boards (R-ADV-1)")
    p.add_argument("--priority-tile", action="store_true", help="use the register priority tile (R-PRIO-1)")
    p.add_argument("--draw", choices=("app", "table"), default="app",
                   help="app: the companion draws every reveal; table: the host enters each one")


def catalog_check(override: str | None) -> int:
    from .catalog import COUNTS, FAMILIES, CatalogError, default_override_path, load_catalog

    path = default_override_path() if override is None else override  # the file `serve` reads
    try:
        catalog = load_catalog(path)
    except CatalogError as exc:
        print("catalog invalid:", file=sys.stderr)
        for problem in exc.problems:
            print("  " + problem, file=sys.stderr)
        print(f"Until {path} is fixed, new games start with the shipped catalog.", file=sys.stderr)
        return 1
    applied = sum(origin == str(path) for origin in catalog.origins.values())
    print(f"corrections: {path}: " + (f"{applied} record(s) applied" if Path(path).exists() else "no such file"))
    total: Counter = Counter()
    print(f"{'family':<14} {'count':>5} {'rulebook':>9} {'mixed':>6} {'assumed':>8} {'checked':>8}")
    for family in FAMILIES:
        records = catalog.family(family)
        sources = Counter(r.prov.source for r in records.values())
        total.update(sources)
        want = COUNTS.get(family)
        flag = "" if want is None or want == len(records) else f"  (R-COMP needs {want})"
        print(f"{family:<14} {len(records):>5} {sources['rulebook']:>9} {sources['mixed']:>6} "
              f"{sources['assumed']:>8} {sources['checked']:>8}{flag}")
    print(f"{'all':<14} {sum(total.values()):>5} {total['rulebook']:>9} {total['mixed']:>6} {total['assumed']:>8} "
          f"{total['checked']:>8}")
    print("mixed = some fields from a rulebook, the rest assumed; assumed values are ours, not printed;\n"
          "checked = a table compared the record with its own copy (the /catalog page).")
    return 0


def setup_command(args) -> int:
    from .catalog import default_catalog
    from .engine import new_game, options_for

    state = new_game(options_for(args.players, advanced=args.advanced, priority_tile=args.priority_tile,
                                 draw=args.draw), args.seed, default_catalog())
    if args.json:
        json.dump(state.to_dict(), sys.stdout, indent=1)
        print()
    else:
        for step in state.setup_steps:
            print(f"- {step['text']}  [{step.get('rule', '')}]")
    return 0


def simulate_command(args) -> int:
    import random

    from .catalog import default_catalog
    from .engine.reach import report
    from .simulate import POLICIES, InvariantBroken, play_game, summary
    from .sweep import coverage_text, sweep

    if args.players is None and not args.sweep:
        print("companion: simulate needs --players (or --sweep)", file=sys.stderr)
        return 2
    catalog = default_catalog()  # read once for every game
    tally: Counter = Counter()
    try:
        if args.sweep:
            _, games = sweep(args.games, args.seed, catalog, tally=tally)
        for g in range(0 if args.sweep else args.games):
            seed = args.seed + g
            played = play_game(args.players, seed, args.advanced, args.priority_tile, args.draw,
                               roundtrip=not args.no_roundtrip, catalog=catalog, tally=tally,
                               choose=POLICIES[args.policy](random.Random(seed)))
            _print_game(summary(played), args.json)
    except InvariantBroken as exc:
        print(json.dumps({"seed": exc.seed, "decision": exc.decision, "invariant": exc.invariant}))
        print(f"invariant broken: seed {exc.seed}, decision {exc.decision}: {exc.invariant}", file=sys.stderr)
        return 1
    if args.coverage:
        found = report(tally, games if args.sweep else args.games, catalog)
        print(json.dumps({"coverage": found}) if args.json else coverage_text(found))
    return 0


def _print_game(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
        return
    totals = ", ".join(f"{x['name']} {x['total']}" for x in result["scoring"])
    print(f"seed {result['seed']}: {result['decisions']} decisions; {totals}; winner "
          f"{' and '.join(result['winner_names'])}")


def prune_command(args) -> int:
    """Delete idle games from the instance's games file (safe while the server runs: each game goes in
    one transaction, and its screens then say it was deleted)."""
    import time

    from .instance import instance_folder
    from .store import Store

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


def serve_command(args) -> int:
    import gc

    from .catalog import catalog_in_force
    from .web import create_app
    from .logs import keep_secrets_out_of_logs
    from .web.address import served_at
    from .serve.server import CannotListen, cannot_listen, listening_socket, raise_open_file_limit

    keep_secrets_out_of_logs()
    screens = max(0, args.screens) if args.wait > 0 else 0
    here = served_at(args.host, args.port, args.name, args.public_url)  # links and the names it answers to
    config = {"POLL_PLACES": screens, "POLL_HOLD_S": max(0.0, args.wait), "PROXIES": max(0, args.proxies),
              "NEW_GAMES_PER_MINUTE": max(0, args.new_games_per_minute),
              "NEW_GAMES_PER_DAY": max(0, args.new_games_per_day),
              "UNPLAYED_AFTER_S": None if args.keep_unplayed else 86400.0, "BACKUPS": args.backups, **here}
    app = create_app(config)  # the games file, keys and translations made once, before any worker starts
    corrections = catalog_in_force(app.extensions["catalog_file"])
    if corrections.problems:
        print(f"warning: {corrections.override} has {len(corrections.problems)} problem(s), so new games start with "
              f"the shipped catalog until it is fixed (the host screen lists them; so does "
              f"`python -m companion catalog check`): {corrections.problems[0]}", file=sys.stderr, flush=True)
    # Drawing a screen makes many short-lived objects; Python's default collector then runs every few
    # hundred and stalls every thread, which was most of the slowest answers with 100 tables at play.
    gc.set_threshold(50_000, 20, 20)
    raise_open_file_limit()
    try:
        listening = listening_socket(args.host, args.port)
    except CannotListen as exc:
        print(cannot_listen(args.host, args.port, exc.errors), file=sys.stderr)
        return 1
    workers = _worker_count(args.workers)
    print(f"Messina 1347 companion: open {here['PUBLIC_URL']}/ on the host screen "
          f"(data in {app.instance_path}; {workers} worker process{'es' if workers > 1 else ''}; "
          f"Ctrl-C stops it)", flush=True)
    say = getattr(sys.stdout, "write_unhidden", sys.stdout.write)  # the one line that shows a secret
    say(f"Check the catalog against your copy (this link may change it: keep it to the table): "
        f"{here['PUBLIC_URL']}/catalog?key={app.extensions['catalog_admin']}\n")
    sys.stdout.flush()
    if workers == 1:
        import signal

        from .serve.workers import stop_on_sigterm

        previous = stop_on_sigterm()
        try:
            return _serve(app, listening, args, screens)
        finally:
            signal.signal(signal.SIGTERM, previous)
    return _serve_on_every_core(app, config, listening, args, screens, workers)


def _worker_count(asked: int) -> int:
    """--workers, or one per core; one where this system cannot start more (no fork: Windows), said in a line
    when more were asked for."""
    from .serve.workers import can_fork, cores

    if can_fork():
        return asked if asked > 0 else cores()
    if asked > 1:
        print(f"This system cannot start worker processes (no fork), so one process answers instead of the "
              f"{asked} asked for with --workers.", file=sys.stderr, flush=True)
    return 1


def _serve_on_every_core(app, config: dict, listening, args, screens: int, workers: int) -> int:
    import gc

    from .web import create_app
    from .serve.siblings import Siblings, WorkersNews
    from .serve.workers import run_workers

    app.extensions["store"].close()  # a worker never uses a connection opened before it was forked
    gc.freeze()  # what every worker shares stays shared: the collector never touches (copies) it

    def work(index: int, lines, heartbeat) -> None:
        news = WorkersNews(Siblings(lines, index))  # the news port, across the workers (companion/news.py)
        sibling_app = create_app(config, news)
        news.share_phones(sibling_app.extensions["phones"])
        news.siblings.listen()
        _serve(sibling_app, listening, args, screens, heartbeat)

    return run_workers(workers, work, lambda line: print(line, file=sys.stderr, flush=True))


def _serve(app, listening, args, screens: int, heartbeat=None) -> int:
    """One process answering on `listening` until stopped. A waiting "anything new?" question holds a
    thread, so the pool is the answering threads plus one per screen that may wait. Connections wait for
    their whole request, and for their client to read the answer, in the server's connection manager
    (serve/connections.py), so hundreds of open phones cost no thread between moves.

    Stopping (Ctrl-C, SIGTERM) lets every waiting question go at once, so the process ends within about a
    second; a last answer still being drawn after STOP_WAIT ends with it."""
    import os
    import threading

    from .serve.arrival import larger_for
    from .serve.server import Server
    from .serve.workers import STOP_WAIT

    server = Server(listening, app, threads=max(1, args.threads) + screens, per_client=max(0, args.per_client),
                    body_limit=larger_for(app.config["LARGE_BODIES"], app.config["MAX_CONTENT_LENGTH"]),
                    heartbeat=heartbeat)
    try:
        server.prepare()
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["news"].close()
        last_call = threading.Timer(STOP_WAIT, os._exit, [0])
        last_call.daemon = True
        last_call.start()
        server.stop()
        last_call.cancel()
    return 0
