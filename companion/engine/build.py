"""Build (R-BUILD-1…7): a cabin improvement, a workshop or a wagon, after optional cycling."""

from __future__ import annotations

from ..catalog.rewards import Bundle
from ..words import Text, from_plain, joined
from . import tasks as do
from .describe import cost_text, lacking, tile_text
from .events import instruct, note, who
from .flow import ASKED, choose, option, push, task
from .gain import TOKEN_FIELD, add_vp
from .reach import reached
from .records import Option
from .state import CLASSES, GameState, Seat, WagonOwned, Workshop

CYCLE_PAYMENTS = ("vp", "coins", "lumber", "fire", "major_fire")  # 1 VP or 1 resource token
ONE = {"vp": Text("1 VP"), "coins": Text("1 coin"), "lumber": Text("1 lumber"), "fire": Text("1 fire"),
       "major_fire": Text("1 major fire")}


def can_pay(seat: Seat, cost: Bundle) -> bool:
    return all(getattr(seat, TOKEN_FIELD[i.icon]) >= i.count for i in cost.items)


def missing(seat: Seat, cost: Bundle) -> Text:
    """Why a seat cannot pay, in numbers: "you have 0 lumber, need 1" for each token it is short of."""
    return joined((lacking(i.icon, getattr(seat, TOKEN_FIELD[i.icon]), i.count) for i in cost.items
                   if getattr(seat, TOKEN_FIELD[i.icon]) < i.count), "; ")


def pay(seat: Seat, cost: Bundle) -> None:
    for i in cost.items:
        setattr(seat, TOKEN_FIELD[i.icon], getattr(seat, TOKEN_FIELD[i.icon]) - i.count)


def build_options(state: GameState, seat_i: int) -> list[Option]:
    """Every tile on offer, greyed with the reason when it cannot be built now; a stack used up is named,
    greyed, so the menu says why nothing comes from it (R-BUILD-4: its last tile was taken)."""
    c = state.catalog
    seat = state.seats[seat_i]
    free_cabin = any(cab.improvement is None for cab in seat.cabins)
    opts = []
    for i, st in enumerate(state.improvements):
        value = {"build": "improvement", "stack": i}
        if st.up:
            tile = c.improvements[st.up]
            ok, why, rule = True, None, None
            if not free_cabin:
                ok, why, rule = False, Text("every cabin already has an improvement"), "R-BUILD-3"
            elif not can_pay(seat, tile.cost):
                ok, why, rule = False, missing(seat, tile.cost), "R-BUILD-3"
            opts.append(option(value, Text("Build the {tile}", tile=tile_text(state, st.up)), ok, why, rule,
                               cost_text(tile.cost)))
        elif st.empty:
            opts.append(_used_up(value, Text("improvement stack {n}", n=i + 1), "R-BUILD-3"))
    for cls in CLASSES:
        pile = state.workshops.get(cls)
        if pile is None:
            continue
        value = {"build": "workshop", "cls": cls}
        if pile.up:
            tile = c.workshops[pile.up]
            ok = can_pay(seat, tile.cost)
            opts.append(option(value, Text("Build the {tile}", tile=tile_text(state, pile.up)),
                               ok, None if ok else missing(seat, tile.cost),
                               None if ok else "R-BUILD-4", cost_text(tile.cost)))
        elif pile.empty:
            opts.append(_used_up(value, Text("{cls} workshop stack", cls=cls), "R-BUILD-4"))
    for i, ws in enumerate(state.wagon_stacks):
        value = {"build": "wagon", "stack": i}
        if ws.up:
            tile = c.wagons[ws.up]
            ok = can_pay(seat, tile.cost)
            opts.append(option(value, Text("Build the {tile}", tile=tile_text(state, ws.up)), ok,
                               None if ok else missing(seat, tile.cost),
                               None if ok else "R-BUILD-7", cost_text(tile.cost)))
        elif ws.empty:
            opts.append(_used_up(value, Text("wagon stack {n}", n=i + 1), "R-BUILD-7"))
    return opts


def _used_up(value: dict, stack: str, rule: str) -> Option:
    """A stack whose last tile was taken: nothing to build from it, said on the menu."""
    return option(value, Text("Build from the {stack}", stack=stack), False, Text("the {stack} is empty", stack=stack),
                  rule)


@task(do.BUILD)
def _build(state: GameState, t: dict, lane: str) -> None:
    seat_i = t["seat"]
    seat = state.seats[seat_i]
    pick = choose(state, lane, seat_i, "build", Text("Build ({why})", why=from_plain(t["why"])),
                  lambda: _build_menu(state, seat_i, t["cycled"]), t, "R-BUILD-1", forced=False)
    if pick is ASKED:
        return
    if "cycle" in pick:
        reached(state, "cycle")
        push(state, lane, {"do": do.BUILD, "seat": seat_i, "why": t["why"], "cycled": True})
        _cycle(state, lane, seat_i, pick["cycle"], pick["pay"])  # its new tiles turn up before the build
        return
    what = pick["build"]
    reached(state, f"build-{what or 'nothing'}")
    if what and t["cycled"]:
        reached(state, "built-after-cycling")
    c = state.catalog
    if what == "improvement":
        st = state.improvements[pick["stack"]]
        tile, st.up = st.up, None
        pay(seat, c.improvements[tile].cost)
        push(state, lane, {"do": do.PLACE_IMPROVEMENT, "seat": seat_i, "tile": tile},
             {"do": do.REVEAL_FACE_UP, "what": "improvement", "index": pick["stack"], "rule": "R-BUILD-3"})
    elif what == "workshop":
        st = state.workshops[pick["cls"]]
        tile, st.up = st.up, None
        assert tile is not None, "a workshop built from a stack with none face up"
        pay(seat, c.workshops[tile].cost)
        seat.workshops.append(Workshop(tile))
        note(state, Text("{who} builds the {tile}.", who=who(state, seat_i), tile=tile_text(state, tile)),
             "R-BUILD-4")
        push(state, lane, {"do": do.REVEAL_FACE_UP, "what": "workshop", "index": pick["cls"], "rule": "R-BUILD-4"})
    elif what == "wagon":
        ws = state.wagon_stacks[pick["stack"]]
        tile, ws.up = ws.up, None
        wagon = c.wagons[tile]
        pay(seat, wagon.cost)
        seat.wagons.append(WagonOwned(tile))
        add_vp(state, seat_i, wagon.vp)
        note(state, Text("{who} builds the {tile} and scores {vp} VP.", who=who(state, seat_i),
                         tile=tile_text(state, tile), vp=wagon.vp), "R-BUILD-7")
        push(state, lane, {"do": do.REVEAL_WAGON, "index": pick["stack"]})


def _build_menu(state: GameState, seat_i: int, cycled: bool) -> list[Option]:
    """The tiles on offer, then (before any cycling) each way to pay for cycling a kind of stack, then
    building nothing: refused after cycling while a tile is affordable (R-BUILD-2)."""
    seat = state.seats[seat_i]
    opts = build_options(state, seat_i)
    legal = any(o["available"] for o in opts)
    if not cycled:
        for kind in ("improvements", "workshops"):
            for pay_with in CYCLE_PAYMENTS:
                have = seat.vp if pay_with == "vp" else getattr(seat, pay_with)
                if have >= 1:
                    opts.append(option({"cycle": kind, "pay": pay_with},
                                       Text("Cycle all 3 {kind} stacks, paying {price}", kind=kind,
                                            price=ONE[pay_with]),
                                       cost=ONE[pay_with]))
    if not cycled or not legal:
        opts.append(option({"build": None}, Text("Build nothing")))
    else:
        opts.append(option({"build": None}, Text("Build nothing"), False,
                           Text("after cycling you must build one of the tiles you can afford"), "R-BUILD-2"))
    return opts


def _cycle(state: GameState, lane: str, seat_i: int, kind: str, pay_with: str) -> None:
    """R-BUILD-2, Q-10: each face-up tile of the chosen kind goes under its stack; the next turns up."""
    seat = state.seats[seat_i]
    if pay_with == "vp":
        add_vp(state, seat_i, -1)
    else:
        setattr(seat, pay_with, getattr(seat, pay_with) - 1)
    stacks = state.improvements if kind == "improvements" else [state.workshops[c] for c in CLASSES]
    under = []
    for st in stacks:
        if st.up:
            under.append(st.up)
            st.bottom.append(st.up)
            st.up = None
    note(state, Text("{who} pays {price} to cycle the {kind}.", who=who(state, seat_i), price=ONE[pay_with], kind=kind),
         "R-BUILD-2")
    what = "improvement" if kind == "improvements" else "workshop"
    keys: tuple[int | str, ...] = tuple(range(3)) if kind == "improvements" else CLASSES
    shown = (tuple(f"stack:improvements-{k + 1}" for k in range(3)) if kind == "improvements" else
             tuple(f"stack:workshops-{k}" for k in CLASSES))
    if under:
        tiles = joined([tile_text(state, t) for t in under], " · ")
        instruct(state, Text("Put each face-up cabin improvement face down under its stack: {tiles}.", tiles=tiles)
                 if kind == "improvements" else
                 Text("Put each face-up workshop face down under its stack: {tiles}.", tiles=tiles), "R-BUILD-2", shown)
    push(state, lane, *({"do": do.REVEAL_FACE_UP, "what": what, "index": k, "rule": "R-BUILD-2"} for k in keys))


@task(do.PLACE_IMPROVEMENT)
def _place_improvement(state: GameState, t: dict, lane: str) -> None:
    """R-BUILD-3: the improvement goes on one of your unimproved cabins."""
    seat = state.seats[t["seat"]]
    opts = [option(i, Text("Cabin {n} (holds a {cls})", n=i + 1, cls=cab.citizen.cls) if cab.citizen
                   else Text("Cabin {n} (empty)", n=i + 1))
            for i, cab in enumerate(seat.cabins) if cab.improvement is None]
    i = choose(state, lane, t["seat"], "place_improvement", Text("Put the improvement on which cabin?"), opts, t,
               "R-BUILD-3")
    if i is ASKED:
        return
    seat.cabins[i].improvement = t["tile"]
    note(state, Text("{who} builds the {tile} on cabin {n}.", who=who(state, t["seat"]),
                     tile=tile_text(state, t["tile"]), n=i + 1), "R-BUILD-3")
