"""One path for a tap, whoever sends it: a phone's menu, the host acting for a seat or answering its own
question, or the API. The route reads the request (web/forms.py), `play` hands it to `Store.act`, where
the engine's menu judges it once (engine.choose_action), and the route draws the answer. A refusal comes
back as an exception; `refused`, registered once on the app, words it for a page or for the API."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from flask import g, jsonify, request

from ..engine import GameMovedOn, IllegalAction, NotOnMenu, legal_actions
from ..store import Game, NotFound, Stale
from ..words import Text
from .access import DELETED, refusal, store

MOVED_ON = (Text("The game moved on: here is the new menu."), "the game moved on")
NOTHING = (Text("Nothing to decide for you right now."), "nothing to decide for you right now")
NOT_ON_MENU = (Text("That option is not on the menu."), "that option is not on the menu")


def play(gid: str, who: int | str, version: int, decision, choice: int, via: str) -> Game:
    """Option number `choice` of the menu `who` was shown for question `decision` at `version`, played."""
    g.tap = (gid, who, version)  # what `refused` needs to word a refusal and show the menu as it is now
    return store().act(gid, version, who, decision, choice, via)


class ApiOption(TypedDict):
    """An option as the JSON API gives it (`menu_json`)."""

    choice: int
    label: str
    available: bool
    cost: str | None
    reason: str | None
    rule: str | None
    value: Any  # what the engine's option stands for: handed back by the log, never read here
    decision: int | None  # the question it answers (a menu's actions always name it)
    lapses: NotRequired[str]


def menu_json(game: Game, who: int | str) -> list[ApiOption]:
    """A menu as the API gives it: each option with its place on the menu (`choice`, what a tap sends), and
    what it lets lapse (`lapses`: "End your turn" with an earned action unused, R-TURN-ACT-2)."""
    out: list[ApiOption] = []
    for i, o in enumerate(legal_actions(game.state, who)):
        opt: ApiOption = {"choice": i, "label": o["label"], "available": o["available"], "cost": o.get("cost"),
                          "reason": o.get("reason"), "rule": o.get("rule"), "value": o["value"],
                          "decision": o["action"]["decision"]}
        if "lapses" in o:
            opt["lapses"] = o["lapses"]
        out.append(opt)
    return out


def refused(exc: Stale | IllegalAction):
    """A tap the store refused: 409 (the game moved on, or the option is greyed: its reason and rule) or
    400 (no such option). The API also gets the version and the menu as they are now, to try again."""
    tap = g.get("tap")
    if tap is None:  # a refusal from outside a tap: its own words
        return refusal(str(exc), 409)
    gid, who, version = tap
    try:
        game = store().load(gid)
    except NotFound:
        return refusal(DELETED, 404)
    (page, api), code = _words(exc, game, who, version)
    if request.path.startswith("/api/"):
        return jsonify({"error": api, "version": game.version, "menu": menu_json(game, who)}), code
    return refusal(page, code)


def _words(exc: Exception, game: Game, who: int | str, version: int) -> tuple[tuple[str, str], int]:
    """(what the page says, what the API says) and the status, as players have read them all along."""
    if isinstance(exc, (Stale, GameMovedOn)):
        idle = game.version == version and not legal_actions(game.state, who)
        return (NOTHING if idle else MOVED_ON), 409
    if isinstance(exc, NotOnMenu):
        return NOT_ON_MENU, 400
    reason = getattr(exc, "reason", str(exc))
    rule = getattr(exc, "rule", None)
    page = (Text("Not possible: {reason} ({rule}).", reason=reason, rule=rule) if rule
            else Text("Not possible: {reason}.", reason=reason))  # the reason's own template is kept inside
    return (page, f"not possible: {exc}"), 409
