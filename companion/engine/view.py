"""What each screen shows, as plain data: a seat's phone (`seat_view`) and the host's table screen
(`table_view`), so templates print facts instead of working them out (boardgame.io's playerView).

Everything here is JSON data (dicts, lists, strings, numbers, booleans, None) read from the state, never
stored in it. Texts are English with their templates kept beside them (`label` and `label_msg`,
`label_args`…, companion/words.py), as in the menus and the log.

`seat_view(state, seat)`:
  seat, name, colour, letter   whose phone this is (letter: the colour's initial, for colour-blind players)
  phase, round, over           "setup" / "play" / "upkeep" / "over"; the round 1…6; whether the game ended
  upkeep                       between rounds: {round, final, ready}: the round being set up (final: round
                               VI is over, the scoring comes), ready: only the host's "the table is ready"
                               still holds the first turn; else None
  setup                        while the table sets up the game (round I, before "the table is ready", C-18):
                               {ready}: only the host's tap still holds the first turn; else None
  table_round                  the round the table is in: during an upkeep still the round that ended
                               (round I's upkeep is round I), else `round`
  turn                         the seat whose turn it is in the play phase, else None
  your_turn                    turn == seat
  question                     the question this seat must answer now (as `pending` gives it), or None
  decision                     that question's id (a tap names it, so an old menu is refused), or None
  menu                         its options in order: label, available, cost, reason and rule when greyed,
                               place when the option names a spot on the map, face when it stands
                               for a printed component (`pictured`), value, and choice (the option's
                               index, what a tap sends back)
  targets                      {place: {"choice", "cost", "cost_msg", "cost_args"}}: the spots on the map
                               this seat can tap now, each with its cheapest available option
  waiting_for                  names of everyone who must answer now ("host" for the host)
  estate                       coins, lumber, fire, major_fire, rats, vp; boats [{tile, cargo}]; wagons
                               [{tile, used}]; lieutenants [{where, kind, at, name, used}] (kind: supply,
                               estate, box, hex, dock; name: the hex's name; used: stood up this round);
                               repopulation_tiles_left; registers {popularity, city, church}; scroll
                               [{track, level, top}]; deferred [reward phrases waiting for an action step]
  score                        {total, rank} once the game is scored, else None
  opponent                     the solo opponent (see `table_view`), or None
  takes                        during setup, what this seat takes from the box (R-SETUP-14…19, R-ADV-1):
                               {colour, letter, side (a/b), board, scroll_board (faces "family:id"), pieces
                               [Text with a count], start [Text]: its compensation once the order is drawn};
                               else None

`table_view(state)`:
  phase, round, over, turn, waiting_for   as above
  questions                    every open question (`pending`)
  round_row                    this round's fire_cost, boats and double_wheel (the round info table)
  supply_cubes                 plague cubes in the supply
  order                        [{seat, name, colour, letter, turn}] in play order (turn: it is theirs)
  seats                        [{seat, name, colour, letter, vp, registers, rats, lieutenants_left,
                               repopulation_tiles_left, waiting}] by seat (waiting: must answer now)
  opponent                     {colour, letter, popularity, lieutenants_placed, lieutenants, moves} or None:
                               moves are this round's log entries of its turns (R-SOLO-5…7, Q-18)
  setup_open                   the setup checklist is still being worked through: until "the table is
                               ready" (C-18); games saved before that hold: round I, before the third decision
  phones_open                  players may still be joining (round I of a game not over)
  winners                      the winners' names once the game is scored, else []
"""

from __future__ import annotations

from ..words import Plural, Text, faces_in, put_text
from .flow import question, waiting
from .movement import available
from .records import MenuOption, Option, StoredText
from .repopulate import tiles_left
from .rulebook import ESTATE_LIEUTENANTS, LIEUTENANTS, REPOPULATION_TILES, ROUNDS, START_COINS, START_VP
from .state import CLASSES, COLOUR_LETTERS, GameState, Place
from .view_records import (
    Estate,
    HostAsked,
    Lieutenant,
    Moment,
    Opponent,
    SeatView,
    SetupMoment,
    TableView,
    Takes,
    Target,
    Upkeep,
    Who,
)

#: rules of the log entries that tell the solo opponent's turns (its reveals, moves and takings)
OPPONENT_RULES = frozenset(("R-SOLO-5", "R-SOLO-6", "R-SOLO-7", "Q-18"))
#: the setup checklist stays open until the table has answered this many questions (setup's reveals)
SETUP_OPEN_DECISIONS = 3


def seat_view(state: GameState, seat: int) -> SeatView:
    s = state.seats[seat]
    found = next((d for _, d in waiting(state) if d["who"] == seat), None)
    menu = _menu(found)
    turn = whose_turn(state)
    scored = next((x for x in state.scoring["seats"] if x["seat"] == seat), None) if state.scoring else None
    return {"seat": seat, "name": s.name, "colour": s.colour, "letter": COLOUR_LETTERS[s.colour],
            **_moment(state), "turn": turn, "your_turn": turn == seat,
            "question": question(found) if found else None, "decision": found["id"] if found else None,
            "menu": menu, "targets": _targets(menu), "waiting_for": _waiting_names(state),
            "estate": _estate(state, seat),
            "score": {"total": scored["total"], "rank": scored["rank"]} if scored else None,
            "opponent": _opponent(state), "takes": _takes(state, seat) if state.phase == "setup" else None}


def table_view(state: GameState) -> TableView:
    row = state.round_row()
    turn = whose_turn(state)
    asked = {d["who"] for _, d in waiting(state)}
    return {**_moment(state), "turn": turn, "waiting_for": _waiting_names(state),
            "questions": [question(d) for _, d in waiting(state)],
            "round_row": {"fire_cost": row.fire_cost, "boats": row.boats, "double_wheel": row.double_wheel},
            "supply_cubes": state.supply_cubes,
            "order": [{**_who(state, i), "turn": i == turn} for i in state.order],
            "seats": [{**_who(state, i), "vp": s.vp, "registers": dict(s.registers), "rats": s.rats,
                       "lieutenants_left": len(available(state, i)), "repopulation_tiles_left": tiles_left(state, i),
                       "waiting": i in asked} for i, s in enumerate(state.seats)],
            "opponent": _opponent(state),
            "setup_open": _setup_open(state),
            "phones_open": state.round == 1 and state.phase != "over",
            "winners": [state.seats[i].name for i in state.scoring["winners"]] if state.scoring else [],
            "host": _host(state)}


def _host(state: GameState) -> HostAsked:
    """The host's own question (a tile the table drew, "the table is ready"), shaped as a seat's is in
    `seat_view`: the question, its decision and the menu with each option's face."""
    found = next((d for _, d in waiting(state) if d["who"] == "host"), None)
    menu = _menu(found)
    return {"question": question(found) if found else None, "decision": found["id"] if found else None, "menu": menu}


def _menu(found: dict | None) -> list[MenuOption]:
    """The options of an open decision as a screen shows them: each with its face and its index."""
    return [{**pictured(opt), "choice": i} for i, opt in enumerate(found["options"])] if found else []


def pictured(opt: Option) -> Option:
    """A menu option as a screen shows it: with the `face` of the component it stands for, given by the
    task or else the first one its label names. Looked up here, when a screen asks, because the engine
    makes far more menus than anyone looks at (every replay, every simulated game)."""
    if "face" in opt:
        return opt
    named = faces_in(opt.get("label_args"))
    if not named:
        return opt
    family, rid = named[0].split(":", 1)
    return {**opt, "face": {"family": family, "id": rid}}


def whose_turn(state: GameState) -> int | None:
    """The seat taking (or about to take) a turn in the play phase."""
    if state.phase == "play" and 0 <= state.turn < len(state.order):
        return state.order[state.turn]
    return None


def _moment(state: GameState) -> Moment:
    upkeep = between_rounds(state)
    return {"phase": state.phase, "round": state.round, "over": state.phase == "over", "upkeep": upkeep,
            "setup": _setup(state), "table_round": upkeep["round"] - 1 if upkeep else state.round}


def _setup(state: GameState) -> SetupMoment | None:
    """While the table sets up the game: whether only the host's "the table is ready" still holds round I
    (C-18). Table draws come first: then the host is asked what came up."""
    if state.phase != "setup":
        return None
    return {"ready": any(d["kind"] == "table_ready" for _, d in waiting(state))}


def _setup_open(state: GameState) -> bool:
    if state.hold_setup:
        return state.phase == "setup"
    return state.round == 1 and state.decisions < SETUP_OPEN_DECISIONS


def _takes(state: GameState, seat: int) -> Takes:
    """What a seat takes from the box as the table sets up (R-SETUP-14…19; advanced: R-ADV-1, its colour
    and boards drawn at random), so a phone can show its player what to pick up while the host reads out
    the steps."""
    s = state.seats[seat]
    side = "b" if state.options.advanced else "a"
    drawn = not state.options.advanced or s.board != "a"  # the advanced game's colours come out of a draw
    pieces = [Plural("{n} lieutenant", "{n} lieutenants", n=LIEUTENANTS),
              Text("{n} on your estate, {rest} in the general supply", n=ESTATE_LIEUTENANTS,
                   rest=LIEUTENANTS - ESTATE_LIEUTENANTS),
              Plural("{n} counter", "{n} counters", n=5), Plural("{n} overseer", "{n} overseers", n=len(CLASSES)),
              Plural("{n} scroll cube", "{n} scroll cubes", n=3),
              Plural("{n} repopulation tile", "{n} repopulation tiles", n=REPOPULATION_TILES)]
    start = []
    if state.players > 1 and seat in state.order:
        pos = state.order.index(seat)
        start.append(Text("Play order: P{pos}", pos=pos + 1))
        if START_VP[pos]:
            start.append(Plural("{n} VP on the score track", "{n} VP on the score track", n=START_VP[pos]))
        if START_COINS[pos]:
            start.append(Plural("{n} coin", "{n} coins", n=START_COINS[pos]))
    return {"colour": s.colour if drawn else None, "letter": COLOUR_LETTERS[s.colour] if drawn else None,
            "side": side, "board": f"board:{s.board}" if drawn else None,
            "scroll_board": f"scroll_board:{s.scroll_board}" if drawn else None,
            "pieces": [put_text(StoredText(text=p), "text", p) for p in pieces],
            "start": [put_text(StoredText(text=x), "text", x) for x in start]}


def between_rounds(state: GameState) -> Upkeep | None:
    """Between two rounds: the round the table is setting up (`final` after round VI: production, then
    the scoring) and whether only the host's "the table is ready" still holds it (C-18)."""
    if state.phase != "upkeep":
        return None
    counted = any(e.get("rule") == "R-NEXT-1" for e in state.report)  # the round counter has moved
    nxt = state.round if counted else state.round + 1
    ready = any(d["kind"] == "table_ready" for _, d in waiting(state))
    return {"round": nxt, "final": nxt > ROUNDS, "ready": ready}


def _who(state: GameState, seat: int) -> Who:
    s = state.seats[seat]
    return {"seat": seat, "name": s.name, "colour": s.colour, "letter": COLOUR_LETTERS[s.colour]}


def _waiting_names(state: GameState) -> list[str]:
    return ["host" if d["who"] == "host" else state.seats[d["who"]].name for _, d in waiting(state)]


def _targets(menu: list[MenuOption]) -> dict[str, Target]:
    """The spots on the map a tap can choose: the first available option naming each place."""
    out: dict[str, Target] = {}
    for opt in menu:
        if opt["available"] and opt.get("place") and opt["place"] not in out:
            target: Target = {"choice": opt["choice"]}
            if "cost" in opt:
                target["cost"] = opt["cost"]
            if "cost_msg" in opt:  # a Text cost: its template and values come together (words.put_text)
                target["cost_msg"], target["cost_args"] = opt["cost_msg"], opt["cost_args"]
            out[opt["place"]] = target
    return out


def _estate(state: GameState, seat: int) -> Estate:
    s = state.seats[seat]
    c = state.catalog
    scroll = c.scroll_boards[s.scroll_board]
    return {"coins": s.coins, "lumber": s.lumber, "fire": s.fire, "major_fire": s.major_fire, "rats": s.rats,
            "vp": s.vp, "boats": [{"tile": b, "cargo": c.boats[b].cargo} for b in s.boats],
            "wagons": [{"tile": w.tile, "used": w.used} for w in s.wagons],
            "lieutenants": [_lieutenant(state, lt.place, lt.used) for lt in s.lieutenants],
            "repopulation_tiles_left": tiles_left(state, seat), "registers": dict(s.registers),
            "scroll": [{"track": tr.id, "level": s.scroll[tr.id], "top": tr.top} for tr in scroll.tracks],
            "deferred": list(s.deferred)}


def _lieutenant(state: GameState, place: Place, used: bool) -> Lieutenant:
    name = state.catalog.tile(place.at).name if place.kind == "hex" else None
    return {"where": str(place), "kind": place.kind, "at": place.at or None, "name": name, "used": used}


def _opponent(state: GameState) -> Opponent | None:
    opp = state.opponent
    if opp is None:
        return None
    moves = [e for e in state.log if e["round"] == state.round and e.get("rule") in OPPONENT_RULES]
    return {"colour": opp.colour, "letter": COLOUR_LETTERS[opp.colour], "popularity": opp.popularity,
            "lieutenants_placed": len(opp.placed), "lieutenants": opp.lieutenants(state.round), "moves": moves}
