"""A seat's screen: the page a phone shows, and the same page on the host screen when the host acts for a
seat whose phone is gone. One context, built from what the engine says the seat may see (`seat_view`),
and one set of live regions; the two routes differ only in their addresses and in who sends a tap."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from flask import abort, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ...engine import seat_view
from ...engine.records import MenuOption, Question
from ...engine.state import Seat
from ...engine.twin.lines import Line
from ...engine.view import SeatView
from ...pictures import estate_key
from ...store import Game
from ...store.put_back import LastAct
from ...words import Text, tr
from ..put_back import seat_put_back
from ..regions import Region, drawn, part_answer, render_once, screen_answer, stamped
from ..told import TurnLine, seat_lines
from ..translate import request_gettext
from ..views import ScreenBase, base

PARTS = ("seat_status", "seat_put_back", "seat_told", "seat_undo", "menu", "minimap", "estate")


@dataclass(frozen=True)
class Addresses:
    """Where this screen sends a tap, fetches one region again, and asks for news."""

    post: str
    part: Callable[[str], str]
    news: str
    undo: str = ""  # where a phone takes back its own last act (none on the host's view of a seat)


class MapTarget(TypedDict):
    """A spot the seat can tap on its mini map: its cost, its number in the menu's order, the option's words
    (the map's key) and the htmx attributes that send the tap."""

    label: str
    number: int
    key: str
    attrs: dict[str, str]


class SeatScreen(ScreenBase):
    """Everything the seat's templates print (`context`)."""

    view: SeatView
    seat_index: int
    seat: Seat
    menu: list[MenuOption]
    question: Question | None
    decision: int | None
    targets: dict[str, MapTarget]
    post_url: str
    part_url: Callable[[str], str]
    news_url: str
    proxy: bool
    put_back: list[Line]
    told_lines: list[TurnLine]
    own_act: LastAct | None
    undo_url: str


def context(game: Game, seat: int, urls: Addresses, proxy: bool) -> SeatScreen:
    """Everything the seat's templates print: the seat's view, and the addresses its forms use."""
    view = seat_view(game.state, seat)
    return {**base(game), "view": view, "seat_index": seat, "seat": game.state.seats[seat], "menu": view["menu"],
            "question": view["question"], "decision": view["decision"],
            "targets": map_targets(view, game.version, urls.post), "post_url": urls.post, "part_url": urls.part,
            "news_url": urls.news, "proxy": proxy,  # after an undo, its own put-back lines:
            "put_back": seat_put_back(game.undos, game.state, seat),  # what its latest moves did to its pieces:
            "told_lines": seat_lines(game.told, seat) if game.state.phase == "play" else [],
            "own_act": None if proxy else own_act(game.last_act, game.state, seat), "undo_url": urls.undo}


def own_act(last: LastAct | None, state, seat: int) -> LastAct | None:
    """The seat's last act, when its phone may take it back: the latest act of the game (`last`, read with the
    game) is this seat's and nothing hidden came to light since it began (BGA's policy; the store checks again
    on the undo)."""
    if not last or state.phase == "over" or last["who"] != str(seat) or last["revealed"]:
        return None
    return last


SPOKEN = Text("{number}: {place}")  # a numbered place on the mini map, as a screen reader says it


def map_targets(view: SeatView, version: int, post_url: str) -> dict[str, MapTarget]:
    """The spots the seat can tap on its mini map (the engine's `targets`), as tappable htmx elements,
    numbered in the menu's order; `key` is the option's words, for the map's key."""
    out: dict[str, MapTarget] = {}
    spots = sorted(view["targets"].items(), key=lambda spot: spot[1]["choice"])
    for number, (place, target) in enumerate(spots, 1):
        sent = json.dumps({"choice": target["choice"], "version": version, "decision": view["decision"]})
        key = tr(view["menu"][target["choice"]], "label", request_gettext)
        out[place] = {"label": tr(target, "cost", request_gettext), "number": number, "key": key, "attrs": {
            "hx-post": post_url, "hx-vals": sent, "hx-target": "#poll", "hx-swap": "outerHTML",
            "hx-include": "#csrf", "role": "button", "tabindex": "0",
            "aria-label": request_gettext(SPOKEN).format(number=number, place=key)}}
    return out


def part(make: Callable[[], SeatScreen], name: str) -> str:
    """One live region, fetched again after a refused tap (the name is checked before anything is read)."""
    if name not in PARTS:
        abort(404, Text("No such part of the screen."))
    return part_answer(drawn(region(make(), name)))


def region(ctx: SeatScreen, name: str) -> str:
    if name == "estate":  # the biggest picture on a phone: drawn again only when what it shows changes
        key = (ctx["part_url"]("estate"), estate_key(ctx["pieces"], ctx["seat_index"]), str(get_locale()))
        return render_once(_ESTATE, key, "seat/_estate.html", lambda: ctx, limit=2048)  # ~15 KB each
    return render_template(f"seat/_{name}.html", **ctx)


_ESTATE: dict[tuple, tuple] = {}  # rendered estates by screen, what the estate shows, and language


def regions(ctx: SeatScreen) -> list[Region]:
    return [drawn(region(ctx, name)) for name in PARTS]


def page(ctx: SeatScreen) -> str:
    """The whole page, its regions marked with what they show (the page's questions say so)."""
    return render_template("seat/seat.html", regions={r.id: Markup(stamped(r)) for r in regions(ctx)}, **ctx)


def answer(ctx: SeatScreen) -> str:
    """The screen as its news brings it (the new question and the regions that changed since what the page
    shows); also the answer to its own tap, so the page calls back its waiting question instead of drawing
    the menu twice (static/app.js)."""
    return screen_answer(ctx, regions(ctx))
