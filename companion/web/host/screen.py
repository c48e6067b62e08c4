"""The host screen's live regions, drawn from the host's context (host.host_context): the map from memory
while what it shows is unchanged, and the log as the rows a move added on top of the ones the page shows.
A move's news carries only the regions that changed (regions.screen_answer), so the setup checklist, the
phones panel and the log's older rows stay where they are on the screen."""

from __future__ import annotations

from flask import render_template
from flask_babel import get_locale
from markupsafe import Markup

from ...pictures import city_key
from ...store.put_back import Undo
from ..library import keep_only
from ..put_back import LogRow
from ..regions import Region, drawn, render_once, stamped
from .records import HostScreen

PARTS = ("put_back", "moment", "status", "decide", "city", "scoring", "upkeep", "seats", "registers", "setup", "log",
         "undo")
LOG_MOST = 80  # rows of the log a page shows, the newest first


def regions(ctx: HostScreen) -> list[Region]:
    """Every live region of the host screen as it is now."""
    return [region_of(ctx, name) for name in PARTS]


def region_of(ctx: HostScreen, name: str) -> Region:
    if name == "log":
        return log_region(ctx)
    whole = drawn(region(ctx, name))
    if name == "setup" and not ctx["table"]["setup_open"]:  # a page may have left its steps to load
        whole.equivalent_shows = (steps_later(ctx).shows,)
    return whole


def steps_later(ctx: HostScreen) -> Region:
    """The closed setup checklist as a page's first drawing has it: its steps load when it is opened."""
    return drawn(region({**ctx, "steps_later": True}, "setup"))


def marked(ctx: HostScreen) -> dict[str, Markup]:
    """The regions of a whole page, each marked with what it shows; the setup checklist, once closed,
    with its steps left to load when it is opened."""
    out = {r.id: Markup(stamped(r)) for r in regions(ctx)}
    if not ctx["table"]["setup_open"]:
        out["setup"] = Markup(stamped(steps_later(ctx)))
    keep_only(*out.values())  # the library holds what the page shows, not what was drawn to learn its digest
    return out


def region(ctx: HostScreen, name: str) -> str:
    """A region drawn whole; the map and the two checklists from memory while what they show is the same
    (each by game, what it shows and language)."""
    state, lang = ctx["pieces"], str(get_locale())
    if name == "city":  # the biggest picture: drawn again only when what it shows changes
        shown = ctx.get("map_pieces") or state  # during a checklist: the table as its current step leaves it
        key: tuple = (ctx["game"]["id"], city_key(shown), repr(sorted(ctx["back_marks"].items())), lang)
        return render_once(_DRAWN, key, "host/_city.html", lambda: {**ctx, "pieces": shown})
    if name == "setup":  # its steps are only ever added to, and it stays open for the first few moves
        key = (ctx["game"]["id"], "setup", ctx["table"]["setup_open"], ctx["table"]["over"],
               ctx.get("steps_later", False), _steps(state.setup_steps), _ticked(ctx, "setup"), lang)
        return render_once(_DRAWN, key, "host/_setup.html", lambda: ctx)
    if name == "upkeep":  # the report of the latest upkeep, which grows while the upkeep lasts
        key = (ctx["game"]["id"], "upkeep", repr(ctx["table"]["upkeep"]), ctx["table"]["over"], state.round,
               _steps(state.report), _ticked(ctx, "upkeep-"), lang)
        return render_once(_DRAWN, key, "host/_upkeep.html", lambda: ctx)
    return render_template(f"host/_{name}.html", **ctx)


def _ticked(ctx: HostScreen, prefix: str) -> frozenset:
    """The host's ticks on a checklist (store/ticks.py): a tick changes what the checklist shows."""
    return frozenset(t for t in ctx.get("ticks", ()) if t[0].startswith(prefix))


def _steps(steps: list[dict]) -> tuple:
    """A list of steps only ever added to, as a key: how many, and the last one's words."""
    return len(steps), steps[-1].get("text") if steps else None


_DRAWN: dict[tuple, tuple] = {}  # the map and checklists drawn, by game, what they show and language


def log_shows(undos: list[Undo], rows: list[LogRow]) -> str:
    """What a page's log shows, said in its language, its count of undos and of rows: the rows after
    them are what a move added, unless an undo came (it strikes out rows where they stand)."""
    return f"{get_locale()}.{len(undos)}.{len(rows)}"


def log_region(ctx: HostScreen) -> Region:
    """The log: drawn whole for a page (its newest LOG_MOST rows), or as the rows added since the page's."""
    rows, shows = ctx["log_rows"], ctx["log_shows"]

    def grown_since(had: str) -> str | None:
        kept, _, count = had.rpartition(".")
        now_kept, _, now = shows.rpartition(".")
        if kept != now_kept or not count.isdigit() or not 0 < len(rows) - int(count) <= LOG_MOST:
            return None
        return render_template("host/_log_added.html", added=rows[int(count):], **ctx)

    return Region("log", shows, lambda: region(ctx, "log"), grown_since, shows_on="log-shows")
