"""Repopulating the chosen hex instead of its action (R-REPOP-1…6, R-TURN-ACT-1)."""

from __future__ import annotations

from ..catalog.rewards import Need
from ..words import Text, joined
from . import tasks as do
from .build import can_pay, missing, pay
from .describe import cost_text, remembered
from .estate import citizen_label
from .events import note, tile_name, who
from .flow import ASKED, choose, option, push, task
from .reach import reached
from .records import Option
from .rulebook import REPOPULATION_TILES
from .state import Citizen, GameState


def tiles_left(state: GameState, seat: int) -> int:
    """R-COMP-3: a player's repopulation tiles not yet on a hex."""
    return REPOPULATION_TILES - sum(1 for h in state.hexes.values() if h.repopulated_by == seat)


def givable(state: GameState, seat: int) -> list[tuple[list, Citizen]]:
    """Citizens that may repopulate: in sectors or workshops, never in quarantine (R-CIT-5)."""
    s = state.seats[seat]
    return [(list(loc), c) for loc, c in s.citizens() if loc[0] != "cabin"]


def citizens_short(state: GameState, seat: int, needs) -> list[Need]:
    """The citizens a requirement still lacks, by class: upgraded citizens meet regular requirements
    too; an upgraded requirement needs a gold one."""
    have = [c for _, c in givable(state, seat)]
    short = []
    for cls in dict.fromkeys(n.cls for n in needs):
        gold = sum(n.count for n in needs if n.cls == cls and n.upgraded)
        total = sum(n.count for n in needs if n.cls == cls)
        mine = [c for c in have if c.cls == cls]
        gold_short = max(0, gold - sum(c.upgraded for c in mine))
        if gold_short:
            short.append(Need(cls, gold_short, True))
        if total - len(mine) - gold_short > 0:
            short.append(Need(cls, total - len(mine) - gold_short, False))
    return short


def spare_lieutenants(state: GameState, seat: int) -> list[int]:
    """R-REPOP-3 step 4: still available this round (unused on the estate or lying in Messina), and
    never the acting one."""
    acting = state.active["lieutenant"] if state.active else None
    return [i for i, lt in enumerate(state.seats[seat].lieutenants)
            if i != acting and not lt.used and (lt.where == "estate" or lt.place.in_messina)]


def repop_option(state: GameState, seat: int, tile: str) -> Option:
    c = state.catalog
    value = {"act": "repopulate"}
    if tile in c.harbors:
        return option(value, Text("Repopulate this hex"), False, Text("a harbor cannot be repopulated"), "R-REPOP-2")
    hx = c.hexes[tile]
    if state.hexes[tile].repopulated_by is not None:
        return option(value, Text("Repopulate this hex"), False, Text("already repopulated"), "R-REPOP-2")
    if not hx.repop:
        return option(value, Text("Repopulate this hex"), False, Text("this hex shows no repopulation requirements"),
                      "R-REPOP-2")
    known = remembered(state, "repopulate")
    if tile not in known:
        known[tile] = _repop_words(state, tile)
    label, cost = known[tile]
    unmet = _unmet(state, seat, hx)
    if unmet:
        return option(value, label, False, joined((why for why, _ in unmet), "; "), unmet[0][1], cost)
    return option(value, label, cost=cost)


def _repop_words(state: GameState, tile: str) -> tuple[str, str]:
    """A hex's repopulation as its option says it (label, cost): the same all game."""
    hx = state.catalog.hexes[tile]
    needs = joined((n.text() for n in hx.repop_citizens), " + ")
    give = Text("{citizens} + a lieutenant", citizens=needs) if hx.repop_lieutenant else needs
    label = Text("Repopulate the {tile}: pay {cost}, give {give} ({vp} VP at the end)", tile=tile_name(state, tile),
                 cost=cost_text(hx.repop_cost), give=give, vp=hx.repop_vp)
    return label, cost_text(hx.repop_cost)


def _unmet(state: GameState, seat: int, hx) -> list[tuple[Text, str]]:
    """Every requirement of a repopulation this seat does not meet now, each with its rule: a greyed
    option lists them all, so the table sees at once everything that is missing."""
    s = state.seats[seat]
    unmet = []
    if tiles_left(state, seat) <= 0:
        unmet.append((Text("you have no repopulation tile left"), "R-REPOP-2"))
    if not any(not w.used for w in s.wagons):
        unmet.append((Text("you need a wagon not used this round"), "R-REPOP-2"))
    if not can_pay(s, hx.repop_cost):
        unmet.append((missing(s, hx.repop_cost), "R-REPOP-3"))
    short = citizens_short(state, seat, hx.repop_citizens)
    if short:
        unmet.append((Text("you are short of {short} in your sectors or workshops",
                           short=joined((n.text() for n in short), " + ")), "R-REPOP-3"))
    if hx.repop_lieutenant and not spare_lieutenants(state, seat):
        unmet.append((Text("needs a lieutenant you have not used this round, besides this one"), "R-REPOP-3"))
    return unmet


@task(do.REPOPULATE)
def _repopulate(state: GameState, t: dict, lane: str) -> None:
    """R-REPOP-3 steps 1–2, then one question per citizen and the lieutenant, then the tile."""
    seat, tile = t["seat"], t["tile"]
    s = state.seats[seat]
    hx = state.catalog.hexes[tile]
    pay(s, hx.repop_cost)
    wagon = next(w for w in s.wagons if not w.used)
    reached(state, "repopulate")
    wagon.used = True
    steps = []
    for need in sorted(hx.repop_citizens, key=lambda n: not n.upgraded):
        steps += [{"do": do.GIVE_CITIZEN, "seat": seat, "cls": need.cls, "upgraded": need.upgraded}] * need.count
    if hx.repop_lieutenant:
        steps.append({"do": do.GIVE_LIEUTENANT, "seat": seat})
    steps.append({"do": do.PLACE_REPOP, "seat": seat, "tile": tile})
    note(state, Text("{who} repopulates {tile}: pays {cost} and turns a wagon face down.", who=who(state, seat),
                     tile=tile_name(state, tile), cost=cost_text(hx.repop_cost)), "R-REPOP-3")
    push(state, lane, *steps)


@task(do.GIVE_CITIZEN)
def _give_citizen(state: GameState, t: dict, lane: str) -> None:
    """R-REPOP-3 step 3: one citizen of the required class goes back to the supply."""
    seat = t["seat"]
    s = state.seats[seat]
    opts = [option(loc, citizen_label(state, seat, loc, c)) for loc, c in givable(state, seat)
            if c.cls == t["cls"] and (c.upgraded or not t["upgraded"])]
    prompt = (Text("Which upgraded {cls} goes back to repopulate?", cls=t["cls"]) if t["upgraded"]
              else Text("Which {cls} goes back to repopulate?", cls=t["cls"]))
    loc = choose(state, lane, seat, "give_citizen", prompt, opts, t, "R-REPOP-3")
    if loc is ASKED:
        return
    if loc[0] == "square":
        cit = s.squares.pop(loc[1])
    else:
        cit, s.workshops[loc[1]].citizen = s.workshops[loc[1]].citizen, None
    note(state, Text("{who} returns an upgraded {cls} to the supply.", who=who(state, seat),
                     cls=cit.cls) if cit.upgraded
         else Text("{who} returns a {cls} to the supply.", who=who(state, seat), cls=cit.cls), "R-REPOP-3")


@task(do.GIVE_LIEUTENANT)
def _give_lieutenant(state: GameState, t: dict, lane: str) -> None:
    """R-REPOP-3 step 4 / R-REPOP-6: the figure goes to the box but still counts for register costs."""
    seat = t["seat"]
    s = state.seats[seat]
    opts = [option(i, Text("The lieutenant on your estate") if s.lieutenants[i].where == "estate"
                   else Text("The lieutenant lying at {place}", place=s.lieutenants[i].place.at))
            for i in spare_lieutenants(state, seat)]
    i = choose(state, lane, seat, "give_lieutenant", Text("Which lieutenant do you give up (to the box)?"), opts, t,
               "R-REPOP-3", alike=lambda i: s.lieutenants[i].where)  # lieutenants alike: no question
    if i is ASKED:
        return
    s.lieutenants[i].where, s.lieutenants[i].used = "box", True
    reached(state, "lieutenant-to-box")
    note(state, Text("{who} gives up a lieutenant to the box.", who=who(state, seat)), "R-REPOP-6")


@task(do.PLACE_REPOP)
def _place_repop(state: GameState, t: dict, lane: str) -> None:
    seat, tile = t["seat"], t["tile"]
    h = state.hexes[tile]
    h.repopulated_by = seat
    note(state, Text("{who} puts a repopulation tile on the {tile}.", who=who(state, seat), tile=tile_name(state,
                                                                                                           tile)),
         "R-REPOP-3", seat=seat, hex=tile)
    if h.cubes:
        reached(state, "repop-plagued")
        state.seats[seat].rats += 1
        note(state, Text("{who} takes 1 rat: the repopulated hex has plague.", who=who(state, seat)), "R-REPOP-3")
