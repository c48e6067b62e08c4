"""`serve`: the companion on the local network, in one process or a worker per core (companion/serve/).
Every option keeps its name in `args` (serve_command and its helpers read them there)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import click


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="the address to listen on (0.0.0.0: every network of this machine)")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--public-url", help="the address phones use, e.g. behind a reverse proxy (default: this machine's "
                                   "network address and --port)")
@click.option("--name", multiple=True,
              help="another host name the companion answers to (repeatable; e.g. a reverse proxy's)")
@click.option("--workers", type=int, default=0,
              help="processes that answer, each on its own core (default 0: one per core)")
@click.option("--threads", type=int, default=8, show_default=True, help="threads that answer requests, in each worker")
@click.option("--screens", type=int, default=600, show_default=True,
              help="screens that may wait for news at once in each worker (each holds one more thread)")
@click.option("--wait", type=float, default=20.0, show_default=True,
              help="seconds a screen's question waits for news before 'nothing new' (0: plain polling)")
@click.option("--per-client", type=int, default=64, show_default=True,
              help="connections one device may keep open at once (0: no cap; behind a proxy every client has the "
                   "proxy's address)")
@click.option("--proxies", type=int, default=0, metavar="N",
              help="reverse proxies you run in front of the companion (default 0): each player's address is then "
                   "read from the X-Forwarded-For header they add, for the limits")
@click.option("--new-games-per-minute", type=int, default=30, show_default=True, metavar="N",
              help="new games one address may start per minute (0: no limit)")
@click.option("--new-games-per-day", type=int, default=200, show_default=True, metavar="N",
              help="new games one address may start per day (0: no limit)")
@click.option("--keep-unplayed", is_flag=True,
              help="keep games nobody ever played (by default they are removed a day after they started)")
@click.option("--backups", metavar="DIR",
              help="write each game's file into DIR at every round's end and at game over (the last few per game "
                   "are kept; `replay` and `resume` read them)")
def serve(**options) -> int:
    """Serve the companion on the local network."""
    return serve_command(SimpleNamespace(**options))


def serve_command(args) -> int:
    import gc

    from ..catalog import catalog_in_force
    from ..logs import keep_secrets_out_of_logs
    from ..serve.server import CannotListen, cannot_listen, listening_socket, raise_open_file_limit
    from ..web import create_app
    from ..web.address import served_at

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

        from ..serve.workers import stop_on_sigterm

        previous = stop_on_sigterm()
        try:
            return _serve(app, listening, args, screens)
        finally:
            signal.signal(signal.SIGTERM, previous)
    return _serve_on_every_core(app, config, listening, args, screens, workers)


def _worker_count(asked: int) -> int:
    """--workers, or one per core; one where this system cannot start more (no fork: Windows), said in a line
    when more were asked for."""
    from ..serve.workers import can_fork, cores

    if can_fork():
        return asked if asked > 0 else cores()
    if asked > 1:
        print(f"This system cannot start worker processes (no fork), so one process answers instead of the "
              f"{asked} asked for with --workers.", file=sys.stderr, flush=True)
    return 1


def _serve_on_every_core(app, config: dict, listening, args, screens: int, workers: int) -> int:
    import gc

    from ..serve.siblings import Siblings, WorkersNews
    from ..serve.workers import run_workers
    from ..web import create_app

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

    from ..serve.arrival import larger_for
    from ..serve.server import Server
    from ..serve.workers import STOP_WAIT

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
