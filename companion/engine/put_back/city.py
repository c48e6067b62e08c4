"""The city's side of an undo (engine/put_back/): hexes and their plague cubes, the docks, the wheel,
the round counter, the play order, the stacks tiles were drawn from, and the solo opponent's pieces."""

from __future__ import annotations

from ..describe import tile_name, tile_text
from ..events import roman, who
from ..state import GameState
from .lines import line
from ...words import N, T, faces_in, joined


def _hexes(state: GameState) -> dict:
    return {tile: (h.space, h.cubes, h.repopulated_by) for tile, h in state.hexes.items()}


def _say_hex(before: GameState, after: GameState, tile: str, b, a) -> list[dict]:
    name = tile_name(after, tile)
    if b is None or a is None or b[0] != a[0]:
        out = []
        if b:
            out.append(line(T("Take the {tile} off the marked space.", tile=name), [f"space:{b[0]}"]))
        if a:
            out.append(line(T("Put the {tile} back on the marked space.", tile=name), [f"space:{a[0]}"]))
        return out
    out, at = [], [f"hex:{tile}"]
    if b[1] != a[1]:
        n = abs(b[1] - a[1])
        out.append(line(N("Take {n} plague cube off the marked {tile}.", "Take {n} plague cubes off the marked {tile}.",
                          n=n, tile=name) if b[1] > a[1] else
                        N("Put {n} plague cube back on the marked {tile}.",
                          "Put {n} plague cubes back on the marked {tile}.", n=n, tile=name), at))
    if b[2] != a[2]:  # R-REPOP: a repopulated hex carries its player's repopulation tile
        if b[2] is not None:
            out.append(line(T("Take {who}'s repopulation tile off the marked {tile}.", who=who(after, b[2]),
                              tile=name), at))
        if a[2] is not None:
            out.append(line(T("Put {who}'s repopulation tile back on the marked {tile}.", who=who(after, a[2]),
                              tile=name), at))
    return out


def _table(state: GameState) -> dict:
    out = {("supply",): state.supply_cubes, ("wheel",): state.wheel, ("round",): state.round,
           ("order",): tuple(state.order)}
    out.update({("dock", d, b.tile): b.cube for d, boats in state.docks.items() for b in boats})
    return out


def _say_table(before: GameState, after: GameState, key, b, a) -> list[dict]:
    kind = key[0]
    if kind == "supply":
        n = abs(b - a)
        return [line(N("Put {n} plague cube back in the supply.", "Put {n} plague cubes back in the supply.", n=n)
                     if a > b else N("Take {n} plague cube out of the supply.",
                                     "Take {n} plague cubes out of the supply.", n=n))]
    if kind == "wheel":  # R-NEXT: the wheel turns one window each round
        window = tile_text(after, after.catalog.wheel[a].id)
        return [line(T("Turn the wheel back to the {window}.", window=window))]
    if kind == "round":
        return [line(T("Move the round counter to round {n}.", n=roman(a)))]
    if kind == "order":  # R-NEXT-4: the play order indicator
        return [line(T("Set the play order back to: {order}.", order=joined([who(after, s) for s in a])))]
    dock, tile = key[1], key[2]
    boat, place = tile_text(after, tile), [f"dock:{dock}"]
    if a is None:
        return [line(T("Take the {boat} from the marked dock.", boat=boat), place)]
    if b is None:
        return [line(T("Put the {boat} back at the marked dock, with a plague cube on it.", boat=boat) if a else
                     T("Put the {boat} back at the marked dock.", boat=boat), place)]
    return [line(T("Put a plague cube back on the {boat} at the marked dock.", boat=boat) if a else
                 T("Take the plague cube off the {boat} at the marked dock.", boat=boat), place)]


# --- stacks: what was drawn goes back on top ------------------------------------------------------------

def _named_stacks(state: GameState) -> dict[str, tuple]:
    """Every stack tiles are drawn from, by a key, with its name on the table."""
    out = {"expansion": (state.expansion, T("expansion stack")), "docking": (state.docking, T("docking pile"))}
    for n, stack in enumerate(state.boats, 1):
        out[f"boats-{n}"] = (stack, T("boat stack with back {n}", n=n))
    for n, stack in enumerate(state.improvements, 1):
        out[f"improvements-{n}"] = (stack, T("improvement stack {n}", n=n))
    for cls, stack in state.workshops.items():
        out[f"workshops-{cls}"] = (stack, T("{cls} workshop stack", cls=cls))
    if state.opponent is not None:
        out["solo"] = (state.opponent.deck, T("pile of solo tiles"))
    return {k: v for k, v in out.items() if v[0] is not None}


def _stacks(state: GameState) -> dict:
    out = {}
    for key, (stack, _) in _named_stacks(state).items():
        out[("stack", key)] = (stack.pool, stack.up, tuple(stack.top), stack.hidden, tuple(stack.bottom))
    for n, ws in enumerate(state.wagon_stacks, 1):
        out[("wagons", n)] = (ws.up, tuple(ws.backs))
    return out


def _drawn(before: GameState, after: GameState, pool: str) -> list[str]:
    """The tiles of a pool the undo returns to its face-down stacks, in the order they were drawn (as the
    log named them), so putting them back one on another leaves the first drawn on top."""
    returned = [t for t in after.pools.get(pool, []) if t not in before.pools.get(pool, [])]
    named = [ref.split(":", 1)[1] for entry in before.log for ref in faces_in(entry.get("args"))]
    first = {tile: named.index(tile) if tile in named else len(named) for tile in returned}
    return sorted(returned, key=lambda t: -first[t])


def _say_stack(before: GameState, after: GameState, key, b, a) -> list[dict]:
    if key[0] == "wagons":
        return _say_wagons(before, after, key[1], b, a)
    stack, name = _named_stacks(after).get(key[1]) or _named_stacks(before)[key[1]]
    out = []
    if a is not None and b is not None and a[3] > b[3]:
        tiles = _drawn(before, after, a[0])
        sharing = [s for s in _named_stacks(after).values() if s[0].pool == a[0]]
        if tiles:
            names = joined([tile_text(after, t) for t in tiles], " · ")
            out.append(line(T("Put back face down on top of the {stack}, one on another in this order: {tiles}.",
                              stack=name, tiles=names) if len(sharing) == 1 else
                            T("Put back face down on top of the {stack} (or the stack of its kind it came from), "
                              "in this order: {tiles}.", stack=name, tiles=names)))
    known_b = _known(b)
    if a is not None:
        back = [t for t in (*reversed(a[2]), *a[4]) if t not in known_b]
        if back:
            out.append(line(T("Put back on top of the {stack}, in this order: {tiles}.", stack=name,
                              tiles=joined([tile_text(after, t) for t in back], " · "))))
        if a[1] and (b is None or a[1] != b[1]):
            out.append(line(T("Lay the {tile} face up on the {stack} again.", tile=tile_text(after, a[1]), stack=name)))
    size = len(a[2]) + a[3] + len(a[4]) if a else 0
    return out or [line(N("Set the {stack} back as it was: {n} tile.", "Set the {stack} back as it was: {n} tiles.",
                          n=size, stack=name))]


def _known(value) -> set:
    """The tiles of a stack the table can tell apart: face up, or known on top or under it."""
    return set() if value is None else {value[1], *value[2], *value[4]} - {None}


def _say_wagons(before: GameState, after: GameState, n: int, b, a) -> list[dict]:
    """R-SETUP-10: the wagons of one back number form a stack, one face up."""
    out = []
    tiles = _drawn(before, after, f"wagons-{n}")
    if tiles:
        out.append(line(T("Put back face down on wagon stack {n}: {tiles}.", n=n,
                          tiles=joined([tile_text(after, t) for t in tiles], " · "))))
    if a and a[0] and (b is None or a[0] != b[0]):
        out.append(line(T("Lay the {tile} face up on wagon stack {n} again.", tile=tile_text(after, a[0]), n=n)))
    return out or [line(T("Set wagon stack {n} back: backs {backs} face down.", n=n, backs=joined(a[1] if a else [])))]


# --- the solo opponent ---------------------------------------------------------------------------------

def _opponent(state: GameState) -> dict:
    opp = state.opponent
    if opp is None:
        return {}
    out = {("popularity",): opp.popularity}
    out.update({("placed", tile): True for tile in opp.placed})
    out.update({("aside", tile): True for tile in opp.aside})
    return out


def _say_opponent(before: GameState, after: GameState, key, b, a) -> list[dict]:
    """R-SOLO-5: the opponent stands a lieutenant on the hex of the solo tile it reveals."""
    if key[0] == "popularity":
        return [line(T("Move the opponent's counter on the popularity register from space {b} to space {a}.",
                       b=b, a=a))]
    tile = key[1]
    if key[0] == "placed":
        name, at = tile_name(after, tile), [f"hex:{tile}"]
        return [line(T("Take the opponent's lieutenant off the marked {tile}.", tile=name) if a is None else
                     T("Stand an opponent's lieutenant on the marked {tile} again.", tile=name), at)]
    name = tile_text(after, tile)
    return [line(T("Pick up the {tile} set aside.", tile=name) if a is None else
                 T("Set the {tile} aside again.", tile=name))]


CITY = ((_hexes, _say_hex), (_table, _say_table), (_stacks, _say_stack), (_opponent, _say_opponent))
