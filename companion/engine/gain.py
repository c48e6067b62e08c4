"""One interpreter for everything that gives a player something (R-ACT-1…9).

Hex actions, estate squares, register spaces, workshops, cabins and boats all hand their reward
phrase to `gain`; choices become decisions for the seat, so every component follows the same rules.
"""

from __future__ import annotations

from functools import lru_cache

from ..catalog.rewards import TOKENS, Item, Reward, parse_reward
from ..words import Text, from_plain, plain
from . import tasks as do
from .events import ACT, instruct, note, tile_name, who
from .flow import ASKED, MAIN, choose, option, push, task
from .reach import reached
from .rulebook import SCORE_LAP
from .scoring import scroll_worth
from .state import GameState

TOKEN_FIELD = {"coin": "coins", "lumber": "lumber", "fire": "fire", "major-fire": "major_fire"}


@lru_cache(maxsize=1024)
def reward_of(phrase: str) -> Reward:
    return parse_reward(phrase)


def gain(state: GameState, lane: str, seat: int, phrase: str, why: str) -> None:
    """Queue a reward for a seat; `why` names its source for the log ("hex Duomo", "square cr2")."""
    push(state, lane, {"do": do.GAIN, "seat": seat, "reward": phrase, "why": plain(why)})


def add_vp(state: GameState, seat: int, n: int) -> None:
    """VP move the score counter, which lands on top of any counter already there (R-NEXT-4 ties, C-9).
    A counter passing 50 (or 100…) goes round the track again: the table marks the lap (R-SCORE-7)."""
    if n:
        s = state.seats[seat]
        before = s.vp
        s.vp += n
        s.stamps["score"] = state.arrival(seat)
        if s.vp // SCORE_LAP > max(before, 0) // SCORE_LAP:
            reached(state, "score-lap")
            instruct(state, Text("{who} passes {n} VP: mark it with a figure or colour token on the 50 space.",
                                 who=who(state, seat), n=s.vp // SCORE_LAP * SCORE_LAP), "R-SCORE-7", (ACT,), seat=seat)


def _branch_label(bundle) -> Text:
    """One side of an "or" reward as a button says it: things you take get the verb ("Take 1 coin"); an
    action already says what you do ("build", "upgrade a citizen")."""
    if all(i.icon in TOKENS or i.icon == "vp" for i in bundle.items):
        return Text("Take {reward}", reward=bundle.text())
    return bundle.text()


@task(do.GAIN)
def _gain(state: GameState, t: dict, lane: str) -> None:
    reward = reward_of(t["reward"])
    if reward.is_nothing:
        return
    pick = 0
    if reward.is_choice:
        opts = [option(i, _branch_label(b)) for i, b in enumerate(reward.options)]
        pick = choose(state, lane, t["seat"], "reward_choice", Text("Choose one ({why})", why=from_plain(t["why"])),
                      opts, t,
                      "R-ACT-2")
        if pick is ASKED:
            return
    bundle = reward.options[pick]
    push(state, lane, *({"do": do.GAIN_ITEM, "seat": t["seat"], "icon": i.icon, "count": i.count, "why": t["why"]}
                        for i in bundle.items))


@task(do.GAIN_ITEM)
def _gain_item(state: GameState, t: dict, lane: str) -> None:
    seat_i, icon, n = t["seat"], t["icon"], t["count"]
    s = state.seats[seat_i]
    if lane != MAIN and icon in ("build", "any-hex"):
        # R-EOR-1: shared tiles and hexes are dealt with in play order once everyone has produced
        state.held.append({"seat": seat_i, "icon": icon, "count": n, "why": t["why"]})
        return
    reached(state, icon, "icon")
    if icon in TOKEN_FIELD:
        setattr(s, TOKEN_FIELD[icon], getattr(s, TOKEN_FIELD[icon]) + n)
        note(state, Text("{who} takes {what} ({why}).", who=who(state, seat_i), what=Item(icon, n).text(),
                         why=from_plain(t["why"])), "R-ACT-1")
        return
    if icon == "vp":
        add_vp(state, seat_i, n)
        note(state, Text("{who} scores {n} VP ({why}).", who=who(state, seat_i), n=n, why=from_plain(t["why"])),
             "R-ACT-3")
        return
    repeat = [{"do": do.GAIN_ITEM, "seat": seat_i, "icon": icon, "count": n - 1, "why": t["why"]}] if n > 1 else []
    single = {"seat": seat_i, "why": t["why"]}
    if icon == "activate":
        push(state, lane, {"do": do.ACTIVATE, **single, "pools": [{"squares": all_squares(state, seat_i), "n": n}],
                           "done": [], "rule": "R-ACT-9"})
        return
    steps = {
        "scroll": {"do": do.SCROLL, **single},
        "city": {"do": do.REGISTER, **single, "kind": "city"},
        "church": {"do": do.REGISTER, **single, "kind": "church"},
        "register": {"do": do.REGISTER, **single, "kind": None},
        "upgrade-citizen": {"do": do.UPGRADE_CITIZEN, **single},
        "advance-aristocrat": {"do": do.ADVANCE_OVERSEER, **single, "which": "aristocrat"},
        "advance-nun": {"do": do.ADVANCE_OVERSEER, **single, "which": "nun"},
        "advance-craftsman": {"do": do.ADVANCE_OVERSEER, **single, "which": "craftsman"},
        "advance-any": {"do": do.ADVANCE_OVERSEER, **single, "which": None},
        "advance-skip": {"do": do.ADVANCE_OVERSEER, **single, "which": None, "skip": True},
        "upgrade-overseer": {"do": do.UPGRADE_OVERSEER, **single, "advance": False},
        "upgrade-advance": {"do": do.UPGRADE_OVERSEER, **single, "advance": True},
        "lieutenant": {"do": do.TAKE_LIEUTENANT, **single},
        "any-hex": {"do": do.ANY_HEX, **single},
        "build": {"do": do.BUILD, **single, "cycled": False},
    }
    push(state, lane, steps[icon], *repeat)


def all_squares(state: GameState, seat: int) -> list[str]:
    board = state.catalog.boards[state.seats[seat].board]
    return [sq.id for sq in board.squares]


@task(do.SCROLL)
def _scroll(state: GameState, t: dict, lane: str) -> None:
    """R-ACT-5: one track of your choice up 1; none past its last level (Q-17)."""
    s = state.seats[t["seat"]]
    board = state.catalog.scroll_boards[s.scroll_board]
    opts = [option(tr.id, _scroll_label(state, t["seat"], tr), s.scroll[tr.id] < tr.top,
                   Text("already at its top level"),
                   "Q-17") for tr in board.tracks]
    open_ = [o for o in opts if o["available"]]
    if not open_:
        note(state, Text("{who} cannot advance any scroll track: all are at the top.", who=who(state, t["seat"])),
             "Q-17")
        return
    track = choose(state, lane, t["seat"], "scroll", Text("Advance which scroll track? ({why})",
                                                          why=from_plain(t["why"])),
                   opts, t, "R-ACT-5")
    if track is ASKED:
        return
    s.scroll[track] += 1
    note(state, Text("{who} advances the {track} scroll track to level {level}.", who=who(state, t["seat"]),
                     track=track, level=s.scroll[track]), "R-ACT-5")


def _scroll_label(state: GameState, seat: int, tr) -> str:
    """A scroll track's choice: the level it climbs to and what that level is worth (scoring.scroll_worth)."""
    at = state.seats[seat].scroll[tr.id]
    worth = scroll_worth(state, seat, tr)
    if not worth:
        return Text("{track} track: level {at} → {to}", track=tr.id, at=at, to=at + 1)
    return Text("{track} track: level {at} → {to} ({worth})", track=tr.id, at=at, to=at + 1, worth=worth)


@task(do.TAKE_LIEUTENANT)
def _take_lieutenant(state: GameState, t: dict, lane: str) -> None:
    """R-ACT-6 / R-REG-4: a supply figure joins the estate (5 at most, by the figures there are)."""
    s = state.seats[t["seat"]]
    for lt in s.lieutenants:
        if lt.where == "supply":
            lt.where, lt.used = "estate", False
            note(state, Text("{who} takes a lieutenant from the supply ({n} owned).", who=who(state, t["seat"]),
                             n=s.owned_lieutenants), "R-REG-4")
            return
    note(state, Text("{who} has no lieutenant left in the supply.", who=who(state, t["seat"])), "R-REG-4")


@task(do.ANY_HEX)
def _any_hex(state: GameState, t: dict, lane: str) -> None:
    """R-ACT-7: the printed action of any hex in Messina (harbors too, not docks); not a 'choice' of
    that hex, so no 2 VP to its repopulator."""
    c = state.catalog
    opts = [option(tid, Text("{tile}: {action}", tile=tile_name(state, tid), action=c.tile(tid).action.text()))
            for tid in sorted(state.hexes)]
    tile = choose(state, lane, t["seat"], "any_hex", Text("Use the action of which hex?"), opts, t, "R-ACT-7")
    if tile is ASKED:
        return
    gain(state, lane, t["seat"], c.tile(tile).action.phrase,
         Text("any-hex action of the {tile}", tile=tile_name(state, tile)))
