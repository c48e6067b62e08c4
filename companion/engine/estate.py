"""A player's estate: overseers walking their paths, activating citizens, and citizens moving into
workshops (R-OVS-1…8, R-ACT-8…9, R-CIT-4, R-BUILD-5…6, R-ADV-2)."""

from __future__ import annotations

from . import tasks as do
from .events import note, who
from .flow import ask, option, push, task
from .gain import gain
from .state import CLASSES, Citizen, GameState
from ..words import T, again, plain


def citizen_label(state: GameState, seat: int, loc, c: Citizen) -> str:
    kind, at = loc[0], loc[1]
    if kind == "square":
        sq = state.catalog.boards[state.seats[seat].board].square(at)
        text = T("{cls} on square {square} ({reward})", cls=c.cls, square=at, reward=sq.reward.text())
    elif kind == "cabin":
        text = T("{cls} in quarantine cabin {n}", cls=c.cls, n=at + 1)
    else:
        text = T("{cls} in workshop {workshop}", cls=c.cls, workshop=state.seats[seat].workshops[at].tile)
    return T("upgraded {citizen}", citizen=text) if c.upgraded else text


# --- overseers -----------------------------------------------------------------------------------

def _moves(state: GameState, seat: int, which: str | None, skip: bool) -> list[dict]:
    """Every legal advance: overseer, 1 or 2 steps (skip, R-OVS-5), and the branch where one is chosen."""
    s = state.seats[seat]
    out = []
    for cls in CLASSES if which is None else (which,):
        ov = s.overseers[cls]
        for steps in ((1, 2) if skip else (1,)):
            to = ov.step + steps
            if to > 6:
                continue
            branches = ["left", "right"] if ov.branch is None and to >= 2 else [ov.branch]
            for br in branches:
                out.append({"overseer": cls, "steps": steps, "branch": br})
    return out


def _move_label(state: GameState, seat: int, mv: dict) -> str:
    s = state.seats[seat]
    ov = s.overseers[mv["overseer"]]
    to = ov.step + mv["steps"]
    space = state.catalog.boards[s.board].paths[mv["overseer"]].space(to, mv["branch"])
    text = T("{cls} overseer to step {to}", cls=mv["overseer"], to=to)
    if mv["steps"] == 2:
        text = T("{move} (skipping one)", move=text)
    if ov.branch is None and mv["branch"] and to >= 2:
        text = T("{move}, {branch} branch", move=text, branch=mv["branch"])
    return T("{move}: {type} space {space}", move=text, type=space.type, space=space.id)


@task(do.ADVANCE_OVERSEER)
def _advance(state: GameState, t: dict, lane: str) -> None:
    """R-OVS-2…5, Q-15: advancing is optional; an advance that cannot be made is lost."""
    seat = t["seat"]
    moves = _moves(state, seat, t.get("which"), t.get("skip", False))
    if not moves:
        note(state, T("{who} has no overseer that can advance: the advance is lost.", who=who(state, seat)), "Q-15")
        return
    if "pick" not in t:
        opts = [option(mv, _move_label(state, seat, mv)) for mv in moves]
        opts.append(option(None, T("Do not advance")))
        ask(state, lane, seat, "advance_overseer", T("Advance an overseer ({why})", why=again(t["why"])), opts, t,
            "R-OVS-2")
        return
    if t["pick"] is None:
        return
    mv = t["pick"]
    move_overseer(state, lane, seat, mv["overseer"], mv["steps"], mv["branch"])


def move_overseer(state: GameState, lane: str, seat: int, cls: str, steps: int, branch: str | None) -> None:
    s = state.seats[seat]
    ov = s.overseers[cls]
    ov.step += steps
    if ov.branch is None and ov.step >= 2:
        ov.branch = branch
    space = state.catalog.boards[s.board].paths[cls].space(ov.step, ov.branch)
    note(state, T("{who} advances the {cls} overseer to step {step} ({space}).", who=who(state, seat), cls=cls,
                  step=ov.step, space=space.id), "R-OVS-2")
    pools = activation_pools(state, seat, cls, space)
    if pools:
        push(state, lane, {"do": do.ACTIVATE, "seat": seat, "why": plain(T("{cls} overseer at {space}", cls=cls,
                                                                             space=space.id)),
                           "pools": pools, "done": [], "rule": "R-OVS-7"})


def activation_pools(state: GameState, seat: int, cls: str, space) -> list[dict]:
    """R-OVS-7: which squares the landing space reaches, and how many citizens from each group."""
    s = state.seats[seat]
    board = state.catalog.boards[s.board]
    up = s.overseers[cls].upgraded
    if space.type == "T1":
        return [{"squares": list(space.squares), "n": 2 if up else 1}]
    if space.type == "T2":
        return [{"squares": [q.id for q in board.region(space.regions[0])], "n": 2 if up else 1}]
    if space.type == "T3":
        pools = []
        for rid in space.regions:
            members = board.region(rid)
            mine = up and members[0].sector == cls
            pools.append({"squares": [q.id for q in members], "n": 2 if mine else 1})
        return pools
    return [{"squares": [q.id for q in board.squares], "n": 3}]


@task(do.ACTIVATE)
def _activate(state: GameState, t: dict, lane: str) -> None:
    """R-OVS-6: take the action of the square under a citizen; each citizen at most once per advance;
    a used single-use square never again (R-ADV-2, Q-16). Activations are optional (Q-15)."""
    seat = t["seat"]
    s = state.seats[seat]
    board = state.catalog.boards[s.board]
    choices = []
    for pool in t["pools"]:
        if pool["n"] <= 0:
            continue
        for sq in pool["squares"]:
            if sq in s.squares and sq not in t["done"] and sq not in s.spent_squares and sq not in choices:
                choices.append(sq)
    if not choices:
        return
    if "pick" not in t:
        opts = [option(sq, (T("Activate the {cls} on {square}: {reward} (single use)", cls=s.squares[sq].cls,
                                square=sq, reward=board.square(sq).reward.text()) if board.square(sq).once else
                              T("Activate the {cls} on {square}: {reward}", cls=s.squares[sq].cls, square=sq,
                                reward=board.square(sq).reward.text()))) for sq in choices]
        opts.append(option(None, T("Stop activating")))
        ask(state, lane, seat, "activate", T("Activate a citizen ({why})", why=again(t["why"])), opts, t,
            t.get("rule", "R-OVS-6"))
        return
    sq = t["pick"]
    if sq is None:
        return
    pools = [dict(p) for p in t["pools"]]
    for p in pools:
        if sq in p["squares"] and p["n"] > 0:
            p["n"] -= 1
            break
    square = board.square(sq)
    if square.once:
        s.spent_squares.append(sq)
    rest = {k: v for k, v in t.items() if k != "pick"}
    push(state, lane, {"do": do.GAIN, "seat": seat, "reward": square.reward.phrase,
                       "why": plain(T("{cls} on {square}", cls=s.squares[sq].cls, square=sq))},
         {**rest, "pools": pools, "done": t["done"] + [sq]})
    note(state, T("{who} activates the {cls} on {square}.", who=who(state, seat), cls=s.squares[sq].cls, square=sq),
         "R-ADV-2" if square.once else "R-OVS-6")


@task(do.UPGRADE_OVERSEER)
def _upgrade_overseer(state: GameState, t: dict, lane: str) -> None:
    """R-ACT-8: flip an overseer to its upgraded side (for good); 'upgrade + advance' then advances it."""
    seat = t["seat"]
    s = state.seats[seat]
    advance = t.get("advance", False)
    cands = [c for c in CLASSES if not s.overseers[c].upgraded or (advance and s.overseers[c].step < 6)]
    if not cands:
        note(state, T("{who} has no overseer to upgrade.", who=who(state, seat)), "R-ACT-8")
        return
    if "pick" not in t:
        def label(c):
            if s.overseers[c].upgraded:
                return (T("{cls} overseer (already upgraded, then advance)", cls=c) if advance
                        else T("{cls} overseer (already upgraded)", cls=c))
            return (T("{cls} overseer (upgrade, then advance)", cls=c) if advance
                    else T("{cls} overseer (upgrade)", cls=c))
        ask(state, lane, seat, "upgrade_overseer", T("Which overseer? ({why})", why=again(t["why"])),
            [option(c, label(c)) for c in cands], t, "R-ACT-8")
        return
    cls = t["pick"]
    if not s.overseers[cls].upgraded:
        s.overseers[cls].upgraded = True
        note(state, T("{who} upgrades the {cls} overseer.", who=who(state, seat), cls=cls), "R-ACT-8")
    if advance:
        push(state, lane, {"do": do.ADVANCE_OVERSEER, "seat": seat, "which": cls, "why": t["why"]})


# --- citizens and workshops ----------------------------------------------------------------------

def workshop_moves(state: GameState, seat: int) -> list[dict]:
    """R-CIT-4: a sector citizen may enter an empty workshop of its class at any time."""
    s = state.seats[seat]
    c = state.catalog
    out = []
    for i, ws in enumerate(s.workshops):
        if ws.citizen is not None:
            continue
        cls = c.workshops[ws.tile].cls
        for sq, cit in s.squares.items():
            if cit.cls == cls:
                out.append({"square": sq, "workshop": i})
    return out


def move_to_workshop(state: GameState, lane: str, seat: int, square: str, index: int) -> None:
    s = state.seats[seat]
    cit = s.squares.pop(square)
    s.workshops[index].citizen = cit
    note(state, T("{who} moves the {cls} from {square} into workshop {workshop}.", who=who(state, seat), cls=cit.cls,
                  square=square, workshop=s.workshops[index].tile), "R-CIT-4")
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
    note(state, T("{who}'s late workshop {workshop} pays its one-time reward; turn it face down.",
                  who=who(state, seat), workshop=ws.tile), "R-BUILD-5")
    gain(state, lane, seat, tile.reward.phrase, T("late workshop {workshop}", workshop=ws.tile))

