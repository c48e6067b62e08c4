"""A seat's pieces: its counters, registers, overseers, lieutenants, citizens and estate, each kind a reader
(everything of that kind the table can see, keyed) and a speaker (the physical act that takes the table from
one value to the other, worded so it reads right whether a move or an undo made the difference)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...words import Plural, Text
from ..describe import square_text, tile_name, tile_text
from ..events import roman, who
from ..state import TOKENS, GameState
from .lines import Line, Reader, Speaker, both, line

#: The counters a seat keeps beside its board, as the table counts them.
COUNTS = {
    "coins": lambda n: Plural("{n} coin", "{n} coins", n=n),
    "lumber": lambda n: Plural("{n} lumber", "{n} lumber", n=n),  # one word in English, not in French
    "fire": lambda n: Plural("{n} fire token", "{n} fire tokens", n=n),
    "major_fire": lambda n: Plural("{n} major fire token", "{n} major fire tokens", n=n),
    "rats": lambda n: Plural("{n} rat token", "{n} rat tokens", n=n),
}


# --- a seat's counters, markers and overseers ------------------------------------------------------

#: a seat's counter by (seat, kind): coins, lumber, fire, major_fire, rats, vp
Counters = dict[tuple[int, str], int]
#: a seat's register space or scroll level by (seat, "register" | "scroll", its name)
Registers = dict[tuple[int, str, str], int]
#: a seat's overseer by (seat, class): (its step, its branch, upgraded)
Overseers = dict[tuple[int, str], tuple[int, str | None, bool]]
#: a seat's lieutenants, alike: (where, standing) of each, sorted
Lieutenants = dict[int, tuple[tuple[str, bool], ...]]
#: a citizen token by its id: (where it lies, its class, upgraded); where: ("square", seat, square),
#: ("cabin", seat, n, quarantine space), ("workshop", seat, n) or ("hex", tile)
Citizens = dict[int, tuple[tuple, str, bool]]
#: a seat's estate tiles by (seat, "cabin" | "workshop" | "boat" | "wagon" | "covered", where): the improvement,
#: (workshop, turned down), True, the wagon turned down, True
Estates = dict[tuple[int, str, Any], Any]


def _counters(state: GameState) -> Counters:
    return {(i, k): getattr(s, k) for i, s in enumerate(state.seats) for k in (*TOKENS, "rats", "vp")}


def _say_counter(before: GameState, after: GameState, key, b: int, a: int) -> list[Line]:
    seat, kind = key
    name = who(after, seat=seat)
    if kind == "vp":  # R-SCORE-7: the scoring track runs round the scoreboard
        return [line(Text("Move {who}'s scoring counter from {b} to {a} VP.", who=name, b=b, a=a), seat=seat)]
    what = COUNTS[kind](abs(b - a))
    text = (Text("{who} returns {what} to the supply.", who=name, what=what) if b > a
            else Text("{who} takes {what} from the supply.", who=name, what=what))
    return [line(text, seat=seat, shared=False)]


def _registers(state: GameState) -> Registers:
    out: Registers = {(i, "register", k): n for i, s in enumerate(state.seats) for k, n in s.registers.items()}
    out.update({(i, "scroll", k): n for i, s in enumerate(state.seats) for k, n in s.scroll.items()})
    return out


def _say_register(before: GameState, after: GameState, key, b: int, a: int) -> list[Line]:
    seat, kind, name = key
    if a is None or b is None:  # a scroll board handed out or taken back (R-ADV-1): its marker comes or goes
        return [line(Text("Put {who}'s scroll marker on level {a} of the {track} track.", who=who(after, seat=seat),
                          track=name, a=a) if b is None else
                     Text("Take {who}'s scroll marker off the {track} track.", who=who(after, seat=seat), track=name),
                     seat=seat, shared=False)]
    if kind == "register":  # the registers lie on the scoreboard, in everyone's sight
        return [line(Text("Move {who}'s counter on the {kind} register from space {b} to space {a}.",
                          who=who(after, seat=seat), kind=name, b=b, a=a), seat=seat)]
    return [line(Text("Move {who}'s scroll marker on the {track} track from level {b} to level {a}.",
                      who=who(after, seat=seat), track=name, b=b, a=a), seat=seat, shared=False)]


def _overseers(state: GameState) -> Overseers:
    return {(i, cls): (ov.step, ov.branch, ov.upgraded) for i, s in enumerate(state.seats)
            for cls, ov in s.overseers.items()}


def _say_overseer(before: GameState, after: GameState, key, b: tuple, a: tuple) -> list[Line]:
    """R-OVS-3: an overseer walks its path step by step, choosing a branch at its second advance."""
    seat, cls = key
    name, out = who(after, seat=seat), []
    if b[:2] != a[:2]:
        if a[0] == 0:
            text = Text("Move {who}'s {cls} overseer to its start space.", who=name, cls=cls)
        elif a[1] and a[1] != b[1]:
            text = Text("Move {who}'s {cls} overseer to step {step} of its {branch} branch.", who=name, cls=cls,
                        step=a[0], branch=a[1])
        elif a[0] < b[0]:
            text = Plural("Move {who}'s {cls} overseer back {n} space (to step {step}).",
                          "Move {who}'s {cls} overseer back {n} spaces (to step {step}).", n=b[0] - a[0], who=name,
                          cls=cls, step=a[0])
        else:
            text = Plural("Move {who}'s {cls} overseer on {n} space (to step {step}).",
                          "Move {who}'s {cls} overseer on {n} spaces (to step {step}).", n=a[0] - b[0], who=name,
                          cls=cls, step=a[0])
        out.append(line(text, seat=seat, shared=False))
    if b[2] != a[2]:
        out.append(line(Text("Turn {who}'s {cls} overseer to its upgraded side.", who=name, cls=cls) if a[2] else
                        Text("Turn {who}'s {cls} overseer to its plain side.", who=name, cls=cls), seat=seat,
                        shared=False))
    return out


# --- lieutenants -----------------------------------------------------------------------------------

def _lieutenants(state: GameState) -> Lieutenants:
    return {i: tuple(sorted((lt.where, lt.used) for lt in s.lieutenants)) for i, s in enumerate(state.seats)}


def _lt_place(state: GameState, where: str, used: bool) -> tuple:
    """A lieutenant's spot in words (standing: used this round, R-TURN-1; lying: not yet), and its mark."""
    kind, _, at = where.partition(":")
    if kind in ("hex", "dock"):
        name = tile_name(state, at)
        text = (Text("standing on the marked {tile}", tile=name) if used else
                Text("lying on the marked {tile}", tile=name))
        return text, [where]
    if kind == "estate":
        return (Text("standing beside the board") if used else Text("on the estate")), []
    return (Text("in the box") if kind == "box" else Text("in the supply")), []


def _pairs(gone: list, back: list) -> list[tuple]:
    """Lieutenants that left a spot, each matched with a spot to go back to: the same hex first (only
    stood up or laid down), then in order."""
    back, pairs = list(back), []
    for item in gone:
        match = next((b for b in back if b[0] == item[0]), back[0] if back else None)
        if match is not None:
            back.remove(match)
        pairs.append((item, match))
    return pairs + [(None, b) for b in back]


def _say_lieutenants(before: GameState, after: GameState, seat, b: tuple, a: tuple) -> list[Line]:
    """A seat's lieutenants are alike: each one that is elsewhere now goes to a spot it was not on; several
    making the same move are one line."""
    name, out = who(after, seat=seat), []
    moves = Counter(_pairs(list((Counter(b) - Counter(a)).elements()), list((Counter(a) - Counter(b)).elements())))
    for (now, then), n in moves.items():
        if now is None or then is None:  # never with five lieutenants a seat; said anyway
            text, places = _lt_place(before, *(now or then))
            out.append(line(Text("{who}: check the lieutenant {now}.", who=name, now=text), places, seat=seat,
                            shared=bool(places)))
            continue
        at, places = _lt_place(before, *now)
        if now[0] == then[0] == "estate":  # R-TURN-RECALL-1 / R-NEXT-2: a recalled figure stands beside the board
            text = (Plural("{who}: stand the lieutenant on the estate beside the board.",
                           "{who}: stand {n} lieutenants on the estate beside the board.", n=n,
                           who=name) if then[1] else
                    Plural("{who}: put the lieutenant standing beside the board back on the estate.",
                           "{who}: put the {n} lieutenants standing beside the board back on the estate.", n=n,
                           who=name))
        elif now[0] == then[0]:
            text = (Plural("{who}: stand the lieutenant {at} up.", "{who}: stand the {n} lieutenants {at} up.", n=n,
                           who=name, at=at) if then[1] else
                    Plural("{who}: lay the lieutenant {at} down.", "{who}: lay the {n} lieutenants {at} down.", n=n,
                           who=name, at=at))
        else:
            there, places_a = _lt_place(after, *then)
            text = Plural("{who}: take the lieutenant {now} and put it {then}.",
                          "{who}: take the {n} lieutenants {now} and put them {then}.", n=n, who=name, now=at,
                          then=there)
            places = places + [p for p in places_a if p not in places]
        out.append(line(text, places, seat=seat, shared=bool(places) or "supply" in (now[0], then[0])))
    return out


# --- citizens, cabins, workshops, boats, wagons, covered squares -------------------------------------

def _citizens(before: GameState, after: GameState) -> tuple[Citizens, Citizens]:
    """Citizens by their token; a token that only one side has is matched with an alike one (same class,
    side and spot) on the other side first: new citizens from the supply are indistinguishable."""
    b_all, a_all = _citizens_of(before), _citizens_of(after)
    only_a: dict[tuple, list[int]] = {}
    for cid in a_all.keys() - b_all.keys():
        only_a.setdefault(a_all[cid], []).append(cid)
    for cid in sorted(b_all.keys() - a_all.keys()):
        twins = only_a.get(b_all[cid])
        if twins:
            a_all[cid] = a_all.pop(twins.pop())
    return b_all, a_all


def _citizens_of(state: GameState) -> Citizens:
    out: Citizens = {}
    for i, s in enumerate(state.seats):
        for sq, c in s.squares.items():
            out[c.id] = (("square", i, sq), c.cls, c.upgraded)
        for n, cab in enumerate(s.cabins):
            if cab.citizen:
                out[cab.citizen.id] = (("cabin", i, n, cab.space), cab.citizen.cls, cab.citizen.upgraded)
        for n, ws in enumerate(s.workshops):
            if ws.citizen:
                out[ws.citizen.id] = (("workshop", i, n), ws.citizen.cls, ws.citizen.upgraded)
    for tile, h in state.hexes.items():
        for c in h.citizens:
            out[c.id] = (("hex", tile), c.cls, c.upgraded)
    return out


def _citizen_at(state: GameState, at: tuple | None) -> tuple:
    """Where a citizen token lies, in words (R-CIT-3: quarantine spaces I and II), its seat and its mark."""
    if at is None:
        return Text("in the supply"), None, []
    if at[0] == "hex":
        return Text("on the marked {tile}", tile=tile_name(state, at[1])), None, [f"hex:{at[1]}"]
    seat, name = at[1], who(state, at[1])
    if at[0] == "square":
        return Text("on {who}'s {square}", who=name, square=square_text(state, seat, at[2])), seat, []
    if at[0] == "workshop":
        tile = state.seats[seat].workshops[at[2]].tile
        return Text("in {who}'s {workshop}", who=name, workshop=tile_text(state, tile)), seat, []
    if at[3]:
        return Text("in {who}'s cabin {n}, space {space}", who=name, n=at[2] + 1, space=roman(at[3])), seat, []
    return Text("in {who}'s cabin {n}", who=name, n=at[2] + 1), seat, []


def _say_citizen(before: GameState, after: GameState, key, b, a) -> list[Line]:
    cls = (b or a)[1]
    now, seat_b, places_b = _citizen_at(before, b and b[0])
    then, seat_a, places_a = _citizen_at(after, a and a[0])
    seat, places = seat_b if seat_b is not None else seat_a, places_b + places_a
    out, shared = [], bool(places) or seat is None
    if b is None:
        out.append(line(Text("Put one {cls} from the supply {then}.", cls=cls, then=then), places, seat, shared))
    elif a is None:
        out.append(line(Text("Return the {cls} {now} to the supply.", cls=cls, now=now), places, seat, shared))
    elif b[0] != a[0]:
        out.append(line(Text("Move the {cls} {now}: put it {then}.", cls=cls, now=now, then=then), places, seat,
                        shared))
    if a is not None and b is not None and a[2] != b[2]:
        out.append(line(Text("Turn the {cls} {then} to its upgraded side.", cls=cls, then=then) if a[2] else
                        Text("Turn the {cls} {then} to its plain side.", cls=cls, then=then), places_a, seat,
                        bool(places_a)))
    return out


def _estates(state: GameState) -> Estates:
    out: Estates = {}
    for i, s in enumerate(state.seats):
        out.update({(i, "cabin", n): cab.improvement for n, cab in enumerate(s.cabins) if cab.improvement})
        out.update({(i, "workshop", n): (ws.tile, ws.spent) for n, ws in enumerate(s.workshops)})
        out.update({(i, "boat", tile): True for tile in s.boats})
        out.update({(i, "wagon", w.tile): w.used for w in s.wagons})
        out.update({(i, "covered", sq): True for sq in s.spent_squares})
    return out


def _say_estate(before: GameState, after: GameState, key, b, a) -> list[Line]:
    seat, kind, at = key
    name, out = who(after, seat=seat), []
    if kind == "cabin":
        if b:
            out.append(Text("Take the {tile} off {who}'s cabin {n}.", tile=tile_text(before, b), who=name, n=at + 1))
        if a:
            out.append(Text("Put the {tile} on {who}'s cabin {n}.", tile=tile_text(after, a), who=name, n=at + 1))
    elif kind == "workshop":
        out.extend(_say_workshop(before, after, name, b, a))
    elif kind in ("boat", "wagon") and (a is None or b is None):
        tile = tile_text(after, at)
        out.append(Text("Take the {tile} off {who}'s estate.", who=name, tile=tile) if a is None else
                   Text("Put the {tile} on {who}'s estate.", who=name, tile=tile))
    elif kind == "wagon":  # R-REPOP-3: a wagon turns face down once it has carried citizens this round
        tile = tile_text(after, at)
        out.append(Text("Turn {who}'s {tile} face down.", who=name, tile=tile) if a else
                   Text("Turn {who}'s {tile} face up.", who=name, tile=tile))
    else:  # R-ADV-2: a used single-use square is covered
        square = square_text(after, seat, at)
        out.append(Text("Take the cover off {who}'s {square}.", who=name, square=square) if a is None else
                   Text("Cover {who}'s {square}.", who=name, square=square))
    return [line(text, seat=seat, shared=False) for text in out]


def _say_workshop(before: GameState, after: GameState, name: str, b, a) -> list:
    """R-BUILD-5: a late workshop turns face down once it has given its reward."""
    if b and a and b[0] == a[0]:
        tile = tile_text(after, a[0])
        return [Text("Turn {who}'s {tile} face down.", who=name, tile=tile) if a[1] else
                Text("Turn {who}'s {tile} face up.", who=name, tile=tile)]
    out = []
    if b:
        out.append(Text("Take the {tile} off {who}'s estate.", tile=tile_text(before, b[0]), who=name))
    if a:
        out.append(Text("Put the {tile} on {who}'s estate.", tile=tile_text(after, a[0]), who=name))
    return out


SEATS: tuple[tuple[Reader, Speaker], ...] = (
    (both("counters", _counters), _say_counter), (both("registers", _registers), _say_register),
    (both("overseers", _overseers), _say_overseer), (both("lieutenants", _lieutenants), _say_lieutenants),
    (both("estates", _estates), _say_estate),
    (Reader("citizens", _citizens_of, _citizens), _say_citizen))
