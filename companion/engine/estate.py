"""A player's citizens: where one may settle, moving into workshops, upgrading, and the late workshops'
one-time rewards (R-CIT-3…5, R-UPG-1, R-BUILD-5…6)."""

from __future__ import annotations

from ..words import Text, from_plain
from . import tasks as do
from .describe import square_text, tile_text
from .events import instruct, note, who
from .flow import ASKED, choose, option, task
from .gain import gain
from .reach import reached
from .state import Citizen, GameState


def citizen_label(state: GameState, seat: int, loc, c: Citizen) -> str:
    kind, at = loc[0], loc[1]
    if kind == "square":
        text = Text("{cls} on the {square}", cls=c.cls, square=square_text(state, seat, at))
    elif kind == "cabin":
        text = Text("{cls} in quarantine cabin {n}", cls=c.cls, n=at + 1)
    else:
        text = Text("{cls} in the {workshop}", cls=c.cls, workshop=tile_text(state,
                                                                             state.seats[seat].workshops[at].tile))
    return Text("upgraded {citizen}", citizen=text) if c.upgraded else text


def empty_squares(state: GameState, seat: int, cls: str) -> list[str]:
    """The empty squares of a class's sector, in board order."""
    s = state.seats[seat]
    return [q.id for q in state.catalog.boards[s.board].sector(cls) if q.id not in s.squares]


def empty_workshops(state: GameState, seat: int, cls: str | None = None) -> list[int]:
    """A seat's workshops holding no citizen (of one class, or all), by their index."""
    s = state.seats[seat]
    return [i for i, ws in enumerate(s.workshops)
            if ws.citizen is None and (cls is None or state.catalog.workshops[ws.tile].cls == cls)]


def places_for(state: GameState, seat: int, cls: str) -> list[list]:
    """Where a citizen of `cls` may settle (R-CIT-3): ["square", id] for each empty square of its
    sector, then ["workshop", index] for each empty workshop of its class."""
    return ([["square", q] for q in empty_squares(state, seat, cls)]
            + [["workshop", i] for i in empty_workshops(state, seat, cls)])


def workshop_moves(state: GameState, seat: int, cls: str | None = None) -> list[dict]:
    """R-CIT-4: a sector citizen may enter an empty workshop of its class at any time."""
    s = state.seats[seat]
    out = []
    for i in empty_workshops(state, seat, cls):
        shop_cls = state.catalog.workshops[s.workshops[i].tile].cls
        out += [{"square": sq, "workshop": i} for sq, cit in s.squares.items() if cit.cls == shop_cls]
    return out


def move_to_workshop(state: GameState, lane: str, seat: int, square: str, index: int) -> None:
    s = state.seats[seat]
    cit = s.squares.pop(square)
    s.workshops[index].citizen = cit
    reached(state, "workshop-move")
    note(state, Text("{who} moves the {cls} from the {square} into the {workshop}.", who=who(state, seat), cls=cit.cls,
                     square=square_text(state, seat, square), workshop=tile_text(state, s.workshops[index].tile)),
         "R-CIT-4")
    late_reward_check(state, lane, seat, index)


def late_reward_check(state: GameState, lane: str, seat: int, index: int) -> None:
    """R-BUILD-5…6, Q-9: a late workshop pays its one-time reward once it holds an eligible citizen
    (an upgraded one where required), then is turned face down."""
    s = state.seats[seat]
    ws = s.workshops[index]
    tile = state.catalog.workshops[ws.tile]
    if tile.era != 2 or ws.spent or ws.citizen is None:
        return
    if tile.needs_upgraded and not ws.citizen.upgraded:
        return
    ws.spent = True
    reached(state, "late-reward")
    text = Text("{who}'s late {workshop} pays its one-time reward; turn it face down.", who=who(state, seat),
                workshop=tile_text(state, ws.tile))
    if state.phase == "upkeep":  # the table turns it over between rounds: a line of the upkeep checklist
        instruct(state, text, "R-BUILD-5", (f"seat:{seat}:workshop",), seat=seat)
    else:
        note(state, text, "R-BUILD-5")
    gain(state, lane, seat, tile.reward.phrase, Text("the late {workshop}", workshop=tile_text(state, ws.tile)))


@task(do.UPGRADE_CITIZEN)
def _upgrade_citizen(state: GameState, t: dict, lane: str) -> None:
    """R-UPG-1: flip one citizen anywhere on the estate to gold."""
    seat = t["seat"]
    places = [(loc, c) for loc, c in state.seats[seat].citizens() if not c.upgraded]
    if not places:
        note(state, Text("{who} has no citizen to upgrade.", who=who(state, seat)), "R-UPG-1")
        return
    opts = [option(list(loc), citizen_label(state, seat, loc, c)) for loc, c in places]
    loc = choose(state, lane, seat, "upgrade_citizen", Text("Upgrade which citizen? ({why})", why=from_plain(t["why"])),
                 opts, t, "R-UPG-1", forced=False)
    if loc is ASKED:
        return
    for where, c in places:
        if list(where) == list(loc):
            c.upgraded = True
            note(state, Text("{who} upgrades a {cls}.", who=who(state, seat), cls=c.cls), "R-UPG-1")
            if where[0] == "workshop":
                late_reward_check(state, lane, seat, where[1])
            return
