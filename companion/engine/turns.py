"""A player's turn: choose where a lieutenant goes (hex, dock or recall), then the steps of that turn,
ending in the free-order action step (R-ROUND-2…3, R-TURN-1…2, R-TURN-ACT-1…2, R-TURN-RECALL-1)."""

from __future__ import annotations

from functools import lru_cache

from ..words import Plural, Text, from_plain, joined, plain, put_text
from . import tasks as do
from .describe import coins, lacking, remembered, square_text, tile_text
from .estate import move_to_workshop, workshop_moves
from .events import note, tile_name, who
from .flow import ASKED, MAIN, choose, option, push, task
from .gain import add_vp, gain, reward_of
from .movement import available, cheapest, costs_to, standing_on
from .reach import reached
from .records import Option
from .registers import advance, advance_cost, landing_text, with_landing
from .repopulate import repop_option
from .rulebook import REPOPULATOR_VP
from .solo import next_mover
from .state import GameState, Place

FREE = Text("free")


@task(do.NEXT_TURN)
def _next_turn(state: GameState, t: dict, lane: str) -> None:
    """R-ROUND-2 / Q-12: the next seat in play order with a lieutenant left; nobody left ends the round.
    Solo: you and the opponent alternate (R-SOLO-4, Q-18)."""
    if state.opponent is not None:
        mover = next_mover(state)
        if mover == "you":
            state.opponent.moved_last = False
            state.turn = 0
            push(state, lane, {"do": do.TURN, "seat": 0})
        elif mover == "opponent":
            push(state, lane, {"do": do.OPPONENT_TURN})
        else:
            push(state, lane, {"do": do.END_ROUND})
        return
    n = len(state.order)
    for k in range(1, n + 1):
        idx = (state.turn + k) % n
        if available(state, state.order[idx]):
            state.turn = idx
            push(state, lane, {"do": do.TURN, "seat": state.order[idx]})
            return
    push(state, lane, {"do": do.END_ROUND})


def turn_options(state: GameState, seat: int) -> list[Option]:
    """The turn menu: every hex and boat in Messina (greyed with the reason when not possible) and the
    recall. Costs are the cheapest of the lieutenants that may act now.

    Each place's option is made once for what it shows (the hex or boat as it lies, whose standing
    lieutenant holds it, the cheapest cost, and the coins in hand when they are too few) and copied
    after: every turn menu lists every place of the city again."""
    s = state.seats[seat]
    c = state.catalog
    reach = cheapest(state, seat)
    blocked = standing_on(state)
    known = remembered(state, "turn menu")
    opts = []

    def place_option(shows: tuple, value: dict, place: str, group: str, taken: str | None) -> Option:
        cost = reach.get(place)
        key = (shows, taken, cost, s.coins if cost is not None and cost > s.coins else None)
        made = known.get(key)
        if made is None:
            made = known[key] = _priced(state, shows, place, group, taken, cost, s.coins)
        return {**made, "value": value}

    in_order = remembered(state, "hexes in menu order")  # neighbourhoods first, then harbors; by id
    tiles = tuple(state.hexes)
    if tiles not in in_order:
        in_order[tiles] = [(t, str(Place.hex(t))) for t in sorted(tiles, key=lambda x: (x not in c.hexes, x))]
    for tile, place in in_order[tiles]:
        h = state.hexes[tile]
        shows = ("hex", tile, tuple([ci.cls for ci in h.citizens]), h.cubes)
        taken = who(state, blocked[tile]) if tile in blocked else None
        opts.append(place_option(shows, {"go": "hex", "tile": tile}, place, "hexes", taken))
    for dock, boats in state.docks.items():
        place = str(Place.dock(dock))
        for boat in boats:
            opts.append(place_option(("boat", dock, boat.tile, boat.cube),
                                     {"go": "dock", "dock": dock, "boat": boat.tile}, place, "docks", None))
    opts.append(option({"go": "recall"}, Text("Recall a lieutenant to your estate and take 1 coin; the rewards you "
                                              "earned in production lapse") if s.deferred else
                       Text("Recall a lieutenant to your estate and take 1 coin"), group="recall"))
    return opts


def _place_label(state: GameState, shows: tuple) -> str:
    if shows[0] == "hex":
        _, tile, citizens, cubes = shows
        return hex_label(tile_name(state, tile), state.catalog.tile(tile).action.text(), citizens, cubes)
    _, dock, boat, cube = shows
    return _boat_label(tile_text(state, boat), tile_name(state, dock), cube)


@lru_cache(maxsize=2048)
def hex_label(name: str, action: str, citizens: tuple[str, ...], cubes: int) -> str:
    """A hex in the turn menu: its action, the citizens to rescue and its plague (cached: every turn
    menu lists every hex, and a Text is never changed once made)."""
    label = Text("{tile}: {action}", tile=name, action=action)
    if citizens:
        label = Text("{label}; rescue {citizens}", label=label, citizens=joined(citizens))
    if cubes:
        label = Plural("{label}; {n} plague cube", "{label}; {n} plague cubes", n=cubes, label=label)
    return label


def _priced(state: GameState, shows: tuple, place: str, group: str, taken: str | None, cheapest: int | None,
            have: int) -> Option:
    """A place in the turn menu (its value filled in by the caller): taken by a standing lieutenant, out of
    reach, too dear for the coins in hand, or at the cheapest cost of the lieutenants that can reach it."""
    label = _place_label(state, shows)
    if taken is not None:
        return option(None, label, False, _taken_by(taken), "R-TURN-MOVE-4", place=place, group=group)
    if cheapest is None:
        return option(None, label, False, Text("no path from your lieutenants"), "Q-11", place=place, group=group)
    if cheapest > have:
        return option(None, label, False, _too_dear(cheapest, have), "R-TURN-MOVE-3", coins(cheapest), place,
                      group=group)
    return option(None, label, cost=coins(cheapest) if cheapest else FREE, place=place, group=group)


# Menu texts cached by their values: the turn and action-step menus repeat them every turn, and a
# Text is never changed once made.
@lru_cache(maxsize=256)
def _taken_by(name: str) -> str:
    return Text("already chosen this round by {who}'s standing lieutenant", who=name)


@lru_cache(maxsize=256)
def _boat_label(boat: str, dock: str, cube: bool) -> str:
    return (Text("The {boat} at the {dock} (1 plague cube)", boat=boat, dock=dock) if cube
            else Text("The {boat} at the {dock}", boat=boat, dock=dock))


@lru_cache(maxsize=256)
def _too_dear(price: int, have: int) -> str:
    return lacking("coin", have, price)


@lru_cache(maxsize=1024)
def _pay_texts(price: int, kind: str, at: int, have: int, gives: str) -> tuple[str, str, str]:
    """Paying to advance on a register: the label (with what the space gives), why it is refused when
    short of coins, the cost."""
    return (Text("Pay {price} to advance on the {kind} register (space {at} → {to}) — {gives}", price=coins(price),
                 kind=kind, at=at, to=at + 1, gives=gives),
            Text("{short} (1 coin per lieutenant you ever owned)", short=lacking("coin", have, price)),
            coins(price))


@task(do.TURN)
def _turn(state: GameState, t: dict, lane: str) -> None:
    seat = t["seat"]
    pick = choose(state, lane, seat, "turn", Text("{name}, your turn: where does a lieutenant go?",
                                                  name=state.seats[seat].name),
                  lambda: turn_options(state, seat), t, "R-TURN-1", forced=False)
    if pick is ASKED:
        return
    if pick["go"] == "recall":
        choices = [[i, 0] for i in available(state, seat)]
    else:
        place = str(Place.hex(pick["tile"]) if pick["go"] == "hex" else Place.dock(pick["dock"]))
        choices = [[i, c] for i, c in costs_to(state, seat, place) if c <= state.seats[seat].coins]
    push(state, lane, {"do": do.SEND, "seat": seat, "target": pick, "choices": choices})


@task(do.SEND)
def _send(state: GameState, t: dict, lane: str) -> None:
    """Which lieutenant goes, when several could (their costs differ by where they lie)."""
    seat, target = t["seat"], t["target"]
    s = state.seats[seat]
    price = dict(t["choices"])
    opts = [option(i, Text("The lieutenant {where} for {price}", where=_where(state, s.lieutenants[i].place),
                           price=coins(c)) if c else
                   Text("The lieutenant {where} (free)", where=_where(state, s.lieutenants[i].place)),
                   cost=coins(c) if c else None)
            for i, c in t["choices"]]
    lt_i = choose(state, lane, seat, "send", Text("Which lieutenant goes?"), opts, t, "R-TURN-MOVE-3",
                  alike=lambda i: (s.lieutenants[i].where, price[i]))  # lieutenants alike: no question
    if lt_i is ASKED:
        return
    cost = price[lt_i]
    lt = s.lieutenants[lt_i]
    s.coins -= cost
    lt.used = True
    state.rights = []
    if cost:
        reached(state, "paid-move")
    if target["go"] == "recall":
        _recall(state, lane, seat, lt)
        return
    if target["go"] == "hex":
        tile = target["tile"]
        lt.where = str(Place.hex(tile))
        state.active = {"seat": seat, "kind": "hex", "tile": tile, "lieutenant": lt_i, "acted": False}
        text = (Text("{who} stands a lieutenant on the {tile} for {price}.", who=who(state, seat),
                     tile=tile_name(state, tile), price=coins(cost)) if cost else
                Text("{who} stands a lieutenant on the {tile}.", who=who(state, seat), tile=tile_name(state, tile)))
        note(state, text, "R-TURN-MOVE-5", seat=seat, hex=tile)
        owner = state.hexes[tile].repopulated_by
        if owner is not None:
            reached(state, "repopulator-vp")
            add_vp(state, owner, REPOPULATOR_VP)
            note(state, Text("{who} scores 2 VP: their repopulated hex was chosen.", who=who(state, owner)),
                 "R-TURN-MOVE-6")
        push(state, lane, {"do": do.RESCUE, "seat": seat, "tile": tile, "plagued": state.hexes[tile].cubes > 0},
             {"do": do.FIGHT, "seat": seat, "tile": tile}, {"do": do.ACTION_STEP, "seat": seat},
             {"do": do.END_TURN, "seat": seat})
    else:
        dock = target["dock"]
        lt.where = str(Place.dock(dock))
        state.active = {"seat": seat, "kind": "dock", "dock": dock, "boat": target["boat"], "lieutenant": lt_i,
                        "acted": True}
        text = (Text("{who} sends a lieutenant to the {dock} for {price}.", who=who(state, seat),
                     dock=tile_name(state, dock), price=coins(cost)) if cost else
                Text("{who} sends a lieutenant to the {dock}.", who=who(state, seat), dock=tile_name(state, dock)))
        note(state, text, "R-TURN-DOCK-1", seat=seat, dock=dock)
        push(state, lane, {"do": do.BOAT_CUBE, "seat": seat, "dock": dock, "boat": target["boat"]},
             {"do": do.ACTION_STEP, "seat": seat}, {"do": do.END_TURN, "seat": seat})


def _recall(state: GameState, lane: str, seat: int, lt) -> None:
    """R-TURN-RECALL-1: the lieutenant goes back to the estate for 1 coin, and the turn ends."""
    reached(state, "recall")
    s = state.seats[seat]
    lt.where = "estate"
    s.coins += 1
    note(state, Text("{who} recalls a lieutenant to the estate and takes 1 coin.", who=who(state, seat)),
         "R-TURN-RECALL-1")
    if s.deferred:  # C-17: a recall has no action step, so what waited for it lapses (R-REG-8)
        reached(state, "recall-lapses")
        note(state, Text("{who}'s rewards earned in production lapse unused: {rewards}.", who=who(state, seat),
                         rewards=joined(reward_text(r) for r in s.deferred)), "C-17")
        s.deferred = []
    push(state, lane, {"do": do.NEXT_TURN})


def _where(state: GameState, place: Place) -> str:
    if place.kind == "hex":
        return Text("on the {tile}", tile=tile_name(state, place.at))
    if place.kind == "dock":
        return Text("at the {dock}", dock=tile_name(state, place.at))
    return Text("on your estate")


def action_options(state: GameState, seat: int) -> list[Option]:
    """R-TURN-ACT-1…2, R-TURN-DOCK-7, R-REG-3: everything the action step allows, in any order."""
    s = state.seats[seat]
    act = state.active
    assert act is not None, "an action step outside a turn"
    opts = []
    if act["kind"] == "hex" and not act["acted"]:
        tile = state.catalog.tile(act["tile"])
        opts.append(option({"act": "hex"}, with_landing(state, seat, tile.action.phrase,
                                                        Text("Take the hex action: {action}",
                                                             action=tile.action.text()))))
        opts.append(repop_option(state, seat, act["tile"]))
    for i, r in enumerate(state.rights):
        opts.append(option({"act": "right", "index": i, "reward": r["reward"]},
                           with_landing(state, seat, r["reward"], Text("Use {reward} ({why})",
                                                                       reward=reward_of(r["reward"]).text(),
                                                                       why=from_plain(r["why"])))))
    price = advance_cost(state, seat)
    for kind in ("city", "church"):
        last = state.catalog.register(kind, state.players).last
        label, short, cost = _pay_texts(price, kind, s.registers[kind], s.coins,
                                        landing_text(state, kind, s.registers[kind]))
        if s.registers[kind] >= last:
            opts.append(option({"act": "pay", "register": kind}, label, False, Text("already on the last space"),
                               "Q-17"))
        elif s.coins < price:
            opts.append(option({"act": "pay", "register": kind}, label, False, short, "R-REG-3", cost))
        else:
            opts.append(option({"act": "pay", "register": kind}, label, cost=cost))
    for mv in workshop_moves(state, seat):
        opts.append(option({"act": "workshop", **mv},
                           Text("Move the {cls} on the {square} into the {workshop}", cls=s.squares[mv["square"]].cls,
                                square=square_text(state, seat, mv["square"]),
                                workshop=tile_text(state, s.workshops[mv["workshop"]].tile))))
    opts.append(_end_option(state))
    return opts


def _end_option(state: GameState) -> Option:
    """"End your turn", carrying in words the earned actions that would lapse unused (`lapses`, R-TURN-ACT-2),
    so a screen asks the player first; the engine alone knows which rights are open."""
    end = option({"act": "end"}, Text("End your turn"))
    if state.rights:
        rights = joined((Text("{reward} ({why})", reward=reward_of(r["reward"]).text(), why=from_plain(r["why"]))
                         for r in state.rights), "; ")
        put_text(end, "lapses", Plural("{n} earned action lapses unused: {rights}",
                                       "{n} earned actions lapse unused: {rights}", n=len(state.rights), rights=rights))
    return end


@task(do.ACTION_STEP)
def _action_step(state: GameState, t: dict, lane: str) -> None:
    seat = t["seat"]
    s = state.seats[seat]
    if s.deferred:  # R-REG-8: production-time register rewards arrive in this action step
        state.rights += [{"reward": r, "why": plain(Text("earned during production"))} for r in s.deferred]
        s.deferred = []
    pick = choose(state, lane, seat, "action_step", Text("Action step: choose in any order, then end your turn"),
                  lambda: action_options(state, seat), t, "R-TURN-ACT-2", forced=False)
    if pick is ASKED:
        return
    act = pick["act"]
    if act == "end":
        return
    push(state, lane, {"do": do.ACTION_STEP, "seat": seat})
    turn = state.active
    assert turn is not None, "an action step outside a turn"
    if act == "hex":
        turn["acted"] = True
        tile = turn["tile"]
        gain(state, lane, seat, state.catalog.tile(tile).action.phrase,
             Text("hex action of the {tile}", tile=tile_name(state, tile)))
    elif act == "repopulate":
        turn["acted"] = True
        push(state, lane, {"do": do.REPOPULATE, "seat": seat, "tile": turn["tile"]})
    elif act == "right":
        r = state.rights.pop(pick["index"])
        gain(state, lane, seat, r["reward"], r["why"])
    elif act == "pay":
        reached(state, "paid-advance")
        price = advance_cost(state, seat)
        s.coins -= price
        note(state, Text("{who} pays {price} to advance on the {kind} register.", who=who(state, seat),
                         price=coins(price), kind=pick["register"]), "R-REG-3")
        advance(state, lane, seat, pick["register"])
    elif act == "workshop":
        move_to_workshop(state, lane, seat, pick["square"], pick["workshop"])


@task(do.END_TURN)
def _end_turn(state: GameState, t: dict, lane: str) -> None:
    """R-TURN-ACT-2: earned register actions not used lapse at the end of the turn."""
    if state.rights:
        reached(state, "actions-lapse")
        note(state, Plural("{who} leaves {n} earned action unused; it lapses.",
                           "{who} leaves {n} earned actions unused; they lapse.", n=len(state.rights),
                           who=who(state, t["seat"])), "R-TURN-ACT-2")
    state.rights = []
    state.active = None
    push(state, lane, {"do": do.NEXT_TURN})


def reward_text(phrase: str) -> str:
    return reward_of(phrase).text()


def start_turns(state: GameState, lane: str = MAIN) -> None:
    state.turn = -1
    push(state, lane, {"do": do.NEXT_TURN})
