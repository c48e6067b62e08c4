"""A player's overseers: walking their paths, and the citizens their landing space activates
(R-OVS-1…8, R-ACT-8…9, R-ADV-2)."""

from __future__ import annotations

from ..words import Plural, Text, from_plain, joined, plain
from . import tasks as do
from .describe import square_text
from .events import note, who
from .flow import ASKED, choose, option, push, task
from .reach import reached
from .state import CLASSES, GameState


def centre_step(state: GameState, seat: int, cls: str) -> int:
    """R-OVS-3: the last step of an overseer's path as its board prints it, the board centre (6)."""
    return 1 + len(state.catalog.boards[state.seats[seat].board].paths[cls].left)


def _moves(state: GameState, seat: int, which: str | None, skip: bool) -> list[dict]:
    """Every legal advance: overseer, 1 or 2 steps (skip, R-OVS-5), and the branch where one is chosen."""
    s = state.seats[seat]
    out = []
    for cls in CLASSES if which is None else (which,):
        ov = s.overseers[cls]
        for steps in ((1, 2) if skip else (1,)):
            to = ov.step + steps
            if to > centre_step(state, seat, cls):
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
    text = Text("Advance the {cls} overseer to step {to}", cls=mv["overseer"], to=to)
    if mv["steps"] == 2:
        text = Text("{move} (skipping one)", move=text)
    if ov.branch is None and mv["branch"] and to >= 2:
        text = Text("{move}, {branch} branch", move=text, branch=mv["branch"])
    return Text("{move}: {type} space — {reach}", move=text, type=space.type,
                reach=reach_text(state, seat, mv["overseer"], space))


def reach_text(state: GameState, seat: int, cls: str, space) -> str:
    """What landing on `space` lets this seat activate now (R-OVS-7): read from the same pools and reach
    the activation itself uses, so an option's words and the move it makes cannot disagree."""
    pools = activation_pools(state, seat, cls, space)
    squares = _activatable(state, seat, {"pools": pools, "done": []})
    if not squares:
        return Text("activates nothing: no citizen in reach")
    citizens = joined((_citizen_text(state, seat, sq) for sq in squares), "; ")
    most = most_activations(pools, squares)
    if most >= len(squares):
        return Text("activates: {citizens}", citizens=citizens)
    return Plural("activates {n} of: {citizens}", "activates up to {n} of: {citizens}", n=most, citizens=citizens)


def most_activations(pools: list[dict], squares: list[str]) -> int:
    """How many of the reachable citizens one landing activates: each pool up to its number, a citizen
    counted in the first pool that reaches it (as `_activate` spends them)."""
    left = list(squares)
    most = 0
    for pool in pools:
        mine = [sq for sq in left if sq in pool["squares"]]
        most += min(pool["n"], len(mine))
        left = [sq for sq in left if sq not in mine]
    return most


def _citizen_text(state: GameState, seat: int, sq: str) -> str:
    """A citizen an activation reaches, on its square as the estate names it (by the reward printed there)."""
    cls = state.seats[seat].squares[sq].cls
    if state.catalog.boards[state.seats[seat].board].square(sq).once:
        return Text("the {cls} on the {square} (single use)", cls=cls, square=square_text(state, seat, sq))
    return Text("the {cls} on the {square}", cls=cls, square=square_text(state, seat, sq))


@task(do.ADVANCE_OVERSEER)
def _advance(state: GameState, t: dict, lane: str) -> None:
    """R-OVS-2…5, Q-15: advancing is optional; an advance that cannot be made is lost."""
    seat = t["seat"]
    moves = _moves(state, seat, t.get("which"), t.get("skip", False))
    if not moves:
        reached(state, "advance-lost")
        note(state, Text("{who} has no overseer that can advance: the advance is lost.", who=who(state, seat)), "Q-15")
        return
    opts = [option(mv, _move_label(state, seat, mv)) for mv in moves] + [option(None, Text("Do not advance"))]
    mv = choose(state, lane, seat, "advance_overseer", Text("Advance an overseer ({why})", why=from_plain(t["why"])),
                opts,
                t, "R-OVS-2")
    if mv is ASKED or mv is None:
        return
    move_overseer(state, lane, seat, mv["overseer"], mv["steps"], mv["branch"])


def move_overseer(state: GameState, lane: str, seat: int, cls: str, steps: int, branch: str | None) -> None:
    s = state.seats[seat]
    ov = s.overseers[cls]
    ov.step += steps
    if steps == 2:
        reached(state, "overseer-skip")
    if ov.branch is None and ov.step >= 2:
        ov.branch = branch
        reached(state, "overseer-branch")
    space = state.catalog.boards[s.board].paths[cls].space(ov.step, ov.branch)
    reached(state, f"activate-{space.type}")
    moved = (Text("{who} advances the {cls} overseer to step {step} on its {branch} branch.", who=who(state, seat),
                  cls=cls, step=ov.step, branch=ov.branch) if ov.branch else
             Text("{who} advances the {cls} overseer to step {step}.", who=who(state, seat), cls=cls, step=ov.step))
    note(state, moved, "R-OVS-2")
    pools = activation_pools(state, seat, cls, space)
    if pools:
        push(state, lane, {"do": do.ACTIVATE, "seat": seat, "why": plain(Text("{cls} overseer at step {step}", cls=cls,
                                                                             step=ov.step)),
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


def _activatable(state: GameState, seat: int, t: dict) -> list[str]:
    """Squares with a citizen the pools still reach: not yet activated by this advance, not spent."""
    s = state.seats[seat]
    choices = []
    for pool in t["pools"]:
        if pool["n"] <= 0:
            continue
        for sq in pool["squares"]:
            if sq in s.squares and sq not in t["done"] and sq not in s.spent_squares and sq not in choices:
                choices.append(sq)
    return choices


@task(do.ACTIVATE)
def _activate(state: GameState, t: dict, lane: str) -> None:
    """R-OVS-6: take the action of the square under a citizen; each citizen at most once per advance;
    a used single-use square never again (R-ADV-2, Q-16). Activations are optional (Q-15)."""
    seat = t["seat"]
    s = state.seats[seat]
    board = state.catalog.boards[s.board]
    choices = _activatable(state, seat, t)
    if not choices:
        return
    opts = [option(sq, (Text("Activate the {cls} on the {square}: {reward} (single use)", cls=s.squares[sq].cls,
                            square=square_text(state, seat, sq), reward=board.square(sq).reward.text())
                        if board.square(sq).once else
                        Text("Activate the {cls} on the {square}: {reward}", cls=s.squares[sq].cls,
                             square=square_text(state, seat, sq), reward=board.square(sq).reward.text())))
            for sq in choices]
    opts.append(option(None, Text("Stop activating")))
    sq = choose(state, lane, seat, "activate", Text("Activate a citizen ({why})", why=from_plain(t["why"])), opts, t,
                t.get("rule", "R-OVS-6"))
    if sq is ASKED or sq is None:
        return
    pools = [dict(p) for p in t["pools"]]
    for p in pools:
        if sq in p["squares"] and p["n"] > 0:
            p["n"] -= 1
            break
    square = board.square(sq)
    if square.once:
        reached(state, "single-use-square")
        s.spent_squares.append(sq)
    rest = {k: v for k, v in t.items() if k != "pick"}
    push(state, lane, {"do": do.GAIN, "seat": seat, "reward": square.reward.phrase,
                       "why": plain(Text("{cls} on the {square}", cls=s.squares[sq].cls,
                                         square=square_text(state, seat, sq)))},
         {**rest, "pools": pools, "done": t["done"] + [sq]})
    note(state, Text("{who} activates the {cls} on the {square}.", who=who(state, seat), cls=s.squares[sq].cls,
                     square=square_text(state, seat, sq)),
         "R-ADV-2" if square.once else "R-OVS-6")


def _upgrade_label(cls: str, upgraded: bool, advance: bool) -> str:
    if upgraded:
        return (Text("{cls} overseer (already upgraded, then advance)", cls=cls) if advance
                else Text("{cls} overseer (already upgraded)", cls=cls))
    return (Text("{cls} overseer (upgrade, then advance)", cls=cls) if advance
            else Text("{cls} overseer (upgrade)", cls=cls))


@task(do.UPGRADE_OVERSEER)
def _upgrade_overseer(state: GameState, t: dict, lane: str) -> None:
    """R-ACT-8: flip an overseer to its upgraded side (for good); 'upgrade + advance' then advances it."""
    seat = t["seat"]
    s = state.seats[seat]
    advance = t.get("advance", False)
    cands = [c for c in CLASSES if not s.overseers[c].upgraded
             or (advance and s.overseers[c].step < centre_step(state, seat, c))]
    if not cands:
        note(state, Text("{who} has no overseer to upgrade.", who=who(state, seat)), "R-ACT-8")
        return
    cls = choose(state, lane, seat, "upgrade_overseer", Text("Which overseer? ({why})", why=from_plain(t["why"])),
                 [option(c, _upgrade_label(c, s.overseers[c].upgraded, advance)) for c in cands], t, "R-ACT-8",
                 forced=False)
    if cls is ASKED:
        return
    if not s.overseers[cls].upgraded:
        s.overseers[cls].upgraded = True
        note(state, Text("{who} upgrades the {cls} overseer.", who=who(state, seat), cls=cls), "R-ACT-8")
    if advance:
        push(state, lane, {"do": do.ADVANCE_OVERSEER, "seat": seat, "which": cls, "why": t["why"]})
