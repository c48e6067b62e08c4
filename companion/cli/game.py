"""`catalog check`, `setup` and `simulate`: the catalog and the rules on their own, without the web or a games
file (docs/CATALOG.md; companion/simulate.py)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ..simulate import GameSummary


@click.group()
def catalog() -> None:
    """Component catalog tools."""


@catalog.command("check")
@click.option("--override", metavar="FILE",
              help="corrections file (default: $MESSINA_CATALOG, else catalog.toml in the instance folder that "
                   "serve uses: $MESSINA_INSTANCE or instance/)")
def catalog_check(override: str | None) -> int:
    """Validate the catalog and count its records."""
    from ..catalog import COUNTS, FAMILIES, CatalogError, default_override_path, load_catalog

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


def game_options(players_required: bool = True):
    """The options that say which game: players, seed, the b sides, the priority tile and who draws."""
    options = [
        click.option("--players", type=click.IntRange(1, 4), required=players_required, help="1 = solo"),
        click.option("--seed", type=int, default=1, show_default=True),
        click.option("--advanced", is_flag=True, help="b sides of player and scroll boards (R-ADV-1)"),
        click.option("--priority-tile", is_flag=True, help="use the register priority tile (R-PRIO-1)"),
        click.option("--draw", type=click.Choice(("app", "table")), default="app", show_default=True,
                     help="app: the companion draws every reveal; table: the host enters each one"),
    ]

    def add(command):
        for option in reversed(options):
            command = option(command)
        return command
    return add


@click.command("setup")
@game_options()
@click.option("--json", is_flag=True, help="print the state as JSON")
def setup(**options) -> int:
    """Set up a game and print the state after round I setup."""
    from ..catalog import default_catalog
    from ..engine import new_game, options_for

    args = SimpleNamespace(**options)
    state = new_game(options_for(args.players, advanced=args.advanced, priority_tile=args.priority_tile,
                                 draw=args.draw), args.seed, default_catalog())
    if args.json:
        json.dump(state.to_dict(), sys.stdout, indent=1)
        print()
    else:
        for step in state.setup_steps:
            print(f"- {step['text']}  [{step.get('rule', '')}]")
    return 0


@click.command("simulate")
@game_options(players_required=False)
@click.option("--games", type=int, default=1, show_default=True,
              help="games to play (with --sweep: seeds of every kind)")
@click.option("--json", is_flag=True, help="print one JSON object per game")
@click.option("--no-roundtrip", is_flag=True, help="skip the JSON round-trip check (faster)")
@click.option("--policy", type=click.Choice(("random", "eager", "idle")), default="random", show_default=True,
              help="random: any legal option; eager: climbs, builds, repopulates; idle: recalls, declines")
@click.option("--coverage", is_flag=True,
              help="then report how often each decision kind, reward icon and rule-bearing branch was reached, "
                   "and which never were")
@click.option("--sweep", is_flag=True,
              help="play CI's coverage sweep instead: every player count, a/b boards, priority tile, app and table "
                   "draws, each policy, usual and seeded starts (--players not needed)")
def simulate(**options) -> int:
    """Play whole games with a random legal policy, checking invariants."""
    import random

    from ..catalog import default_catalog
    from ..engine.reach import report
    from ..simulate import POLICIES, InvariantBroken, play_game, summary
    from ..sweep import coverage_text, sweep

    args = SimpleNamespace(**options)
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


def _print_game(result: GameSummary, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
        return
    totals = ", ".join(f"{x['name']} {x['total']}" for x in result["scoring"])
    print(f"seed {result['seed']}: {result['decisions']} decisions; {totals}; winner "
          f"{' and '.join(result['winner_names'])}")
