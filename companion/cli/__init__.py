"""`python -m companion ...`: the command line, on click (Flask's own). A module per group of commands:

game.py   catalog check, setup, simulate: the catalog and the rules on their own
serve.py  serve: the companion on the local network
files.py  prune, replay, resume: this machine's games file and a game's own file

Each command imports what it needs only when it runs, so `catalog check` starts without the web."""

from __future__ import annotations

import click

from ..faults import StartupError, StoreFault
from .files import prune, replay, resume
from .game import catalog, setup, simulate
from .serve import serve


class Commands(click.Group):
    """A command's return value is the exit code; a machine fault at start (a folder it may not write, a
    damaged games file) is one line for whoever started it, `companion: ...`, and exit code 1, no traceback.
    `--help` lists the commands in the order a table meets them, not the alphabet's."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def invoke(self, ctx: click.Context):
        try:
            code = super().invoke(ctx)
        except (StartupError, StoreFault) as exc:
            click.echo(f"companion: {exc}", err=True)
            code = 1
        ctx.exit(code or 0)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def companion() -> None:
    """Check the catalog, set up a game, serve the companion, prune old games, replay and resume a game's
    file. `python -m companion COMMAND --help` tells a command's options."""


for command in (catalog, setup, simulate, serve, prune, replay, resume):
    companion.add_command(command)


def main() -> None:
    """`python -m companion` (companion/__main__.py): runs the command asked for and exits with its code."""
    companion.main(prog_name="python -m companion")
