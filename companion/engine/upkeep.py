"""The end of a round: production and quarantine (R-EOR-1…5, R-CIT-3), then the next round's setup
(next_round.py) or the final scoring.

Production and leaving quarantine run in one lane per seat, so every phone answers its own questions
at once; what they earned that touches shared tiles waits until both are over, in play order.
"""

from __future__ import annotations

from ..catalog.rewards import Item
from ..words import Text, from_plain, joined
from . import tasks as do
from .describe import square_text, tile_text
from .estate import late_reward_check, move_to_workshop, places_for, workshop_moves
from .events import instruct, roman, who
from .flow import ASKED, MAIN, choose, option, push, run, task
from .gain import add_vp, gain
from .reach import reached
from .rulebook import ROUNDS
from .state import Citizen, GameState


def start_upkeep(state: GameState) -> None:
    """The round's turns are over: produce, advance quarantine, set up the next round (or score)."""
    push(state, MAIN, {"do": do.END_ROUND})
    run(state)


@task(do.END_ROUND)
def _end_round(state: GameState, t: dict, lane: str) -> None:
    state.phase = "upkeep"
    state.report = []
    instruct(state, Text("Round {round} is over: production.", round=roman(state.round)), "R-EOR-1")
    state.all_at_once()  # R-EOR-1: everyone produces at once; counters stack in play order (C-9)
    for seat in state.order:
        push(state, str(seat), {"do": do.PRODUCE, "seat": seat})
    push(state, lane, *_after_production(state), {"do": do.AFTER_ROUND})


def _after_production(state: GameState) -> list[dict]:
    """R-EOR-4: quarantine advances once all production has been resolved, so a Build or any-hex action
    earned in production comes first, in play order; what a citizen leaving quarantine earns (Q-9) after
    it (C-4). No quarantine step after round VI (Q-8). A game saved before this order keeps its own."""
    quarantine = state.round < ROUNDS
    if state.upkeep_rules < 1:
        return [*([{"do": do.QUARANTINE}] if quarantine else []), {"do": do.RESOLVE_HELD}]
    production = {"do": do.RESOLVE_HELD, "earned": "production"}
    if not quarantine:
        return [production]
    return [production, {"do": do.QUARANTINE}, {"do": do.RESOLVE_HELD, "earned": "quarantine"}]


@task(do.PRODUCE)
def _produce(state: GameState, t: dict, lane: str) -> None:
    """R-EOR-2…3; before collecting, a seat may still move citizens into workshops (R-CIT-4)."""
    seat = t["seat"]
    s = state.seats[seat]
    opts = [option(mv, Text("First move the {cls} on the {square} into the {workshop}", cls=s.squares[mv["square"]].cls,
                            square=square_text(state, seat, mv["square"]),
                            workshop=tile_text(state, s.workshops[mv["workshop"]].tile)))
            for mv in workshop_moves(state, seat)]
    opts.append(option("collect", Text("Collect production")))  # no move to make: taken for you
    pick = choose(state, lane, seat, "production", Text("Production: move citizens into workshops first, or collect?"),
                  opts, t, "R-CIT-4")
    if pick is ASKED:
        return
    if pick == "collect":
        collect(state, lane, seat)
        return
    push(state, lane, {"do": do.PRODUCE, "seat": seat})
    # pushed after, so a late workshop's one-time reward is taken before the next question
    move_to_workshop(state, lane, seat, pick["square"], pick["workshop"])


def collect(state: GameState, lane: str, seat: int) -> None:
    c = state.catalog
    s = state.seats[seat]
    lines = []
    gains = []
    for i, cab in enumerate(s.cabins):
        if cab.citizen and cab.improvement:
            imp = c.improvements[cab.improvement]
            if imp.cls is None or imp.cls == cab.citizen.cls:
                gains.append((imp.output.phrase, Text("cabin {n}", n=i + 1)))
                lines.append(Text("cabin {n}: {output}", n=i + 1, output=imp.output.text()))
    bonus = 0
    for ws in s.workshops:
        if ws.citizen is None:
            continue
        tile = c.workshops[ws.tile]
        if tile.era == 1 and (ws.citizen.upgraded or not tile.needs_upgraded):
            out = tile.upgraded_output if ws.citizen.upgraded and tile.upgraded_output else tile.output
            if out is tile.upgraded_output:
                reached(state, "upgraded-output")
            gains.append((out.phrase, Text("the {workshop}", workshop=tile_text(state, ws.tile))))
            lines.append(Text("the {workshop}: {output}", workshop=tile_text(state, ws.tile), output=out.text()))
        if ws.citizen.upgraded:
            bonus += 1
    if bonus:
        reached(state, "upgraded-workshop-vp")
        add_vp(state, seat, bonus)
        lines.append(Text("{n} VP for upgraded citizens in workshops", n=bonus))
    text = joined(lines, "; ") if lines else Text("nothing")
    instruct(state, Text("{who} produces: {what}.", who=who(state, seat), what=text), "R-EOR-2", seat=seat)
    for phrase, why in reversed(gains):
        gain(state, lane, seat, phrase, why)


@task(do.RESOLVE_HELD)
def _resolve_held(state: GameState, t: dict, lane: str) -> None:
    """Builds and any-hex actions earned while every seat acts at once (production, leaving quarantine)
    touch shared tiles: once that step is over they are resolved one seat at a time, in play order
    (R-EOR-1 "where order matters, use the current play order"; C-4). Each gets a checklist line."""
    state.together = 0  # from here on, one seat at a time again
    held = sorted(state.held, key=lambda h: state.order.index(h["seat"]))
    state.held = []
    if "earned" not in t:  # a game saved before these lines: played as it was recorded
        push(state, lane, *({"do": do.GAIN_ITEM, **h} for h in held))
        return
    push(state, lane, *({"do": do.HELD_ITEM, "earned": t["earned"], "item": h} for h in held))


@task(do.HELD_ITEM)
def _held_item(state: GameState, t: dict, lane: str) -> None:
    """One held Build or any-hex action: the table is told whose it is and why now, then the seat's phone
    answers it."""
    h = t["item"]
    what, why = Item(h["icon"], h["count"]).text(), from_plain(h["why"])
    reached(state, f"held-{t['earned']}")
    if t["earned"] == "production" and state.round >= ROUNDS:  # no quarantine after round VI
        instruct(state, Text("{who}: {what} now, earned in production ({why}); in play order, before the final "
                             "scoring.", who=who(state, h["seat"]), what=what, why=why), "R-END-1", seat=h["seat"])
    elif t["earned"] == "production":
        instruct(state, Text("{who}: {what} now, earned in production ({why}); in play order, before quarantine.",
                             who=who(state, h["seat"]), what=what, why=why), "R-EOR-4", seat=h["seat"])
    else:
        instruct(state, Text("{who}: {what} now, earned leaving quarantine ({why}); before the next round's setup.",
                             who=who(state, h["seat"]), what=what, why=why), "C-4", seat=h["seat"])
    push(state, lane, {"do": do.GAIN_ITEM, **h})


@task(do.QUARANTINE)
def _quarantine(state: GameState, t: dict, lane: str) -> None:
    """R-EOR-4 / R-CIT-3: space II leaves quarantine, space I moves to II. One line per citizen, naming
    whose it is and which cabin, so each player moves their own pieces."""
    state.all_at_once()
    if state.upkeep_rules >= 1:
        instruct(state, Text("All production is resolved: now advance the citizens in quarantine."), "R-EOR-4")
    anyone = False
    for seat in state.order:
        s = state.seats[seat]
        leaving = []
        for n, cab in enumerate(s.cabins, 1):
            if cab.citizen and cab.space == 2:
                leaving.append({"do": do.LEAVE_QUARANTINE, "seat": seat, "citizen": cab.citizen.to_dict(), "cabin": n})
                cab.citizen, cab.space = None, 0
            elif cab.citizen:
                cab.space = 2
                instruct(state, Text("{who}: move the {citizen} in cabin {n} from quarantine space I to space II.",
                                     who=who(state, seat), citizen=_citizen(cab.citizen), n=n), "R-CIT-3",
                         (f"seat:{seat}:cabins",), seat=seat)
        anyone = anyone or bool(leaving) or any(cab.citizen for cab in s.cabins)
        if leaving:
            push(state, str(seat), *leaving)
    if not anyone:
        instruct(state, Text("Quarantine: no citizen is in a cabin; nothing moves."), "R-CIT-3")


def _citizen(cit: Citizen) -> str:
    return Text("upgraded {cls}", cls=cit.cls) if cit.upgraded else cit.cls


@task(do.LEAVE_QUARANTINE)
def _leave(state: GameState, t: dict, lane: str) -> None:
    """R-CIT-3: to an empty square of its sector or an empty workshop of its class; no room: discard (Q-7).
    A sector citizen may first move into an empty workshop of its class (R-CIT-4, C-21): asked again."""
    seat = t["seat"]
    s = state.seats[seat]
    if isinstance(t.get("pick"), dict):  # made room first (R-CIT-4), then asked again
        reached(state, "leave-make-room")
        push(state, lane, {k: v for k, v in t.items() if k != "pick"})
        move_to_workshop(state, lane, seat, t["pick"]["square"], t["pick"]["workshop"])
        return
    cit = Citizen.from_dict(t["citizen"])
    lines = {"who": who(state, seat), "citizen": _citizen(cit), "n": t.get("cabin", "?")}
    places = places_for(state, seat, cit.cls)
    if not places:
        reached(state, "leave-discard")
        instruct(state, Text("{who}: the {citizen} in cabin {n}, space II, leaves quarantine but finds no room: "
                             "discard it.", **lines), "Q-7", (f"seat:{seat}:cabins",), seat=seat)
        return
    opts = [option(p, Text("The {square}", square=square_text(state, seat, p[1]))
                   if p[0] == "square" else Text("The {workshop}", workshop=tile_text(state, s.workshops[p[1]].tile)))
            for p in places]
    if state.upkeep_rules >= 1:
        opts += [option(mv, Text("First move the {cls} on the {square} into the {workshop}", cls=cit.cls,
                                 square=square_text(state, seat, mv["square"]),
                                 workshop=tile_text(state, s.workshops[mv["workshop"]].tile)))
                 for mv in workshop_moves(state, seat, cit.cls)]
    prompt = (Text("Your upgraded {cls} leaves quarantine: where does it go?", cls=cit.cls) if cit.upgraded
              else Text("Your {cls} leaves quarantine: where does it go?", cls=cit.cls))
    pick = choose(state, lane, seat, "leave_quarantine", prompt, opts, t, "R-CIT-3")
    if pick is ASKED:
        return
    kind, at = pick
    reached(state, f"leave-to-{kind}")
    if kind == "square":
        s.squares[at] = cit
        instruct(state, Text("{who}: the {citizen} in cabin {n}, space II, leaves quarantine for the {square}.",
                             square=square_text(state, seat, at), **lines), "R-CIT-3", (f"seat:{seat}:cabins",),
                 seat=seat)
    else:
        s.workshops[at].citizen = cit
        instruct(state, Text("{who}: the {citizen} in cabin {n}, space II, leaves quarantine for the {workshop}.",
                             workshop=tile_text(state, s.workshops[at].tile), **lines), "R-CIT-3",
                 (f"seat:{seat}:cabins",), seat=seat)
        late_reward_check(state, lane, seat, at)
