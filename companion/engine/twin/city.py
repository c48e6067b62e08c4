"""The city's and the game's pieces (engine/twin/): hexes and their plague cubes, the docks, the wheel, the
round counter, the play order, the stacks tiles are drawn from, and the solo opponent's pieces. Each speaker
says the act that takes the table from one value to the other, so it reads right after a move (a tile turned
up) and after an undo (the tile put back face down) alike."""

from __future__ import annotations

from typing import Any

from ...words import Plural, Text, faces_in, joined
from ..describe import tile_name, tile_text
from ..events import roman, who
from ..state import GameState, Stack
from .lines import Line, Reader, Speaker, both, line

#: a hex by its tile: (the space it lies on, its plague cubes, the seat whose repopulation tile it carries)
Hexes = dict[str, tuple[str, int, int | None]]
#: the game's pieces by key: ("supply",), ("wheel",), ("round",) → int, ("order",) → the seats in play order,
#: ("dock", <dock>, <boat>) → whether the boat carries a plague cube
TablePieces = dict[tuple[str, ...], Any]
#: a stack by ("stack", <name>): (pool, face-up tile, known tiles on top, hidden count, known tiles under);
#: a wagon stack by ("wagons", <n>): (face-up wagon, backs still below)
Stacks = dict[tuple[str, str] | tuple[str, int], tuple]
#: the solo opponent's pieces: ("popularity",) → its space; ("placed" | "aside", <tile>) → True
OpponentPieces = dict[tuple[str, ...], int | bool]


def _hexes(state: GameState) -> Hexes:
    return {tile: (h.space, h.cubes, h.repopulated_by) for tile, h in state.hexes.items()}


def _say_hex(before: GameState, after: GameState, tile: str, b, a) -> list[Line]:
    name = tile_name(after, tile)
    if b is None or a is None or b[0] != a[0]:
        out = []
        if b:
            out.append(line(Text("Take the {tile} off the marked space.", tile=name), [f"space:{b[0]}"]))
        if a:
            out.append(line(Text("Put the {tile} on the marked space.", tile=name), [f"space:{a[0]}"]))
        return out
    out, at = [], [f"hex:{tile}"]
    if b[1] != a[1]:  # plague cubes come from the supply and go back to it (the supply's line says so)
        n = abs(b[1] - a[1])
        out.append(line(Plural("Take {n} plague cube off the marked {tile}.",
                               "Take {n} plague cubes off the marked {tile}.",
                               n=n, tile=name) if b[1] > a[1] else
                        Plural("Put {n} plague cube on the marked {tile}.",
                               "Put {n} plague cubes on the marked {tile}.",
                               n=n, tile=name), at))
    if b[2] != a[2]:  # R-REPOP: a repopulated hex carries its player's repopulation tile
        if b[2] is not None:
            out.append(line(Text("Take {who}'s repopulation tile off the marked {tile}.", who=who(after, b[2]),
                                 tile=name), at, b[2]))
        if a[2] is not None:
            out.append(line(Text("Put {who}'s repopulation tile on the marked {tile}.", who=who(after, a[2]),
                                 tile=name), at, a[2]))
    return out


def _table(state: GameState) -> TablePieces:
    out: TablePieces = {("supply",): state.supply_cubes, ("wheel",): state.wheel, ("round",): state.round,
                 ("order",): tuple(state.order)}
    out.update({("dock", d, b.tile): b.cube for d, boats in state.docks.items() for b in boats})
    return out


def _say_table(before: GameState, after: GameState, key, b, a) -> list[Line]:
    kind = key[0]
    if kind == "supply":
        return _say_supply(before, after, b, a)
    if kind == "wheel":  # R-NEXT: the wheel turns one window each round
        window = tile_text(after, after.catalog.wheel[a].id)
        return [line(Text("Turn the population wheel to the {window}.", window=window))]
    if kind == "round":
        return [line(Text("Move the round counter to round {n}.", n=roman(a)))]
    if kind == "order":  # R-NEXT-4: the play order indicator
        return [line(Text("Set the play order indicator to: {order}.", order=joined([who(after, s) for s in a])))]
    dock, tile = key[1], key[2]
    boat, place = tile_text(after, tile), [f"dock:{dock}"]
    if a is None:
        return [line(Text("Take the {boat} from the marked dock.", boat=boat), place)]
    if b is None:
        return [line(Text("Put the {boat} at the marked dock, with a plague cube on it.", boat=boat) if a else
                     Text("Put the {boat} at the marked dock.", boat=boat), place)]
    return [line(Text("Put a plague cube on the {boat} at the marked dock.", boat=boat) if a else
                 Text("Take the plague cube off the {boat} at the marked dock.", boat=boat), place)]


def _cubes_out(state: GameState) -> int:
    """Plague cubes lying in Messina: on hexes and on boats at the docks."""
    return sum(h.cubes for h in state.hexes.values()) + sum(b.cube for boats in state.docks.values() for b in boats)


def _say_supply(before: GameState, after: GameState, b: int, a: int) -> list[Line]:
    """The cube supply: cubes taken off a hex or a boat go back to it, cubes put on one come from it. Said as
    where they go, so the lines about the hexes and boats tell where they come from."""
    n = abs(b - a)
    if a > b:
        return [line(Plural("Put {n} plague cube taken off Messina in the supply.",
                            "Put the {n} plague cubes taken off Messina in the supply.", n=n)
                     if _cubes_out(before) - _cubes_out(after) == n else
                     Plural("Put {n} plague cube in the supply.", "Put {n} plague cubes in the supply.", n=n))]
    return [line(Plural("Take {n} plague cube for Messina from the supply.",
                        "Take the {n} plague cubes for Messina from the supply.", n=n)
                 if _cubes_out(after) - _cubes_out(before) == n else
                 Plural("Take {n} plague cube out of the supply.", "Take {n} plague cubes out of the supply.", n=n))]


# --- stacks: tiles drawn, turned up, put under, or put back ---------------------------------------------

def _named_stacks(state: GameState) -> dict[str, tuple[Stack, Text]]:
    """Every stack tiles are drawn from, by a key, with its name on the table."""
    out: dict[str, tuple[Stack | None, Text]] = {"expansion": (state.expansion, Text("expansion stack")),
                                                 "docking": (state.docking, Text("docking pile"))}
    for n, stack in enumerate(state.boats, 1):
        out[f"boats-{n}"] = (stack, Text("boat stack with back {n}", n=n))
    for n, stack in enumerate(state.improvements, 1):
        out[f"improvements-{n}"] = (stack, Text("improvement stack {n}", n=n))
    for cls, stack in state.workshops.items():
        out[f"workshops-{cls}"] = (stack, Text("{cls} workshop stack", cls=cls))
    if state.opponent is not None:
        out["solo"] = (state.opponent.deck, Text("pile of solo tiles"))
    return {k: (stack, name) for k, (stack, name) in out.items() if stack is not None}


def _stacks(state: GameState) -> Stacks:
    out: Stacks = {}
    for key, (stack, _) in _named_stacks(state).items():
        out[("stack", key)] = (stack.pool, stack.up, tuple(stack.top), stack.hidden, tuple(stack.bottom))
    for n, ws in enumerate(state.wagon_stacks, 1):
        out[("wagons", n)] = (ws.up, tuple(ws.backs))
    return out


def _drawn(before: GameState, after: GameState, pool: str) -> list[str]:
    """The tiles of a pool that go back to its face-down stacks, in the order they were drawn (as the log
    named them), so putting them one on another leaves the first drawn on top."""
    returned = [t for t in after.pools.get(pool, []) if t not in before.pools.get(pool, [])]
    named = [ref.split(":", 1)[1] for entry in before.log for ref in faces_in(entry.get("args"))]
    first = {tile: named.index(tile) if tile in named else len(named) for tile in returned}
    return sorted(returned, key=lambda t: -first[t])


def _taken(before: GameState, after: GameState, pool: str) -> list[str]:
    """The tiles of a pool drawn from its face-down stacks between the two moments."""
    return sorted(t for t in before.pools.get(pool, []) if t not in after.pools.get(pool, []))


def _say_stack(before: GameState, after: GameState, key, b, a) -> list[Line]:
    if key[0] == "wagons":
        return _say_wagons(before, after, key[1], b, a)
    stack, name = _named_stacks(after).get(key[1]) or _named_stacks(before)[key[1]]
    if a is None or b is None or a[0] != b[0]:  # round V: the early stack leaves, the late one comes (R-NEXT-8)
        return _say_new_stack(before, after, name, b, a)
    out = []
    if a[3] > b[3]:
        tiles = _drawn(before, after, a[0])
        sharing = [s for s in _named_stacks(after).values() if s[0].pool == a[0]]
        if tiles:
            names = joined([tile_text(after, t) for t in tiles], " · ")
            out.append(line(Text("Put face down on top of the {stack}, one on another in this order: {tiles}.",
                                 stack=name, tiles=names) if len(sharing) == 1 else
                            Text("Put face down on top of the {stack} (or the stack of its kind it came from), "
                                 "in this order: {tiles}.", stack=name, tiles=names)))
    known_b = _known(b)
    back = [t for t in (*reversed(a[2]), *a[4]) if t not in known_b]
    if back and a[4] != b[4] and a[4][:len(b[4])] == b[4]:  # R-BUILD-2: cycled tiles go under the stack
        out.append(line(Text("Put face down under the {stack}: {tiles}.", stack=name,
                             tiles=joined([tile_text(after, t) for t in back], " · "))))
    elif back:
        out.append(line(Text("Put on top of the {stack}, in this order: {tiles}.", stack=name,
                             tiles=joined([tile_text(after, t) for t in back], " · "))))
    if a[1] != b[1]:
        out += _say_face_up(before, after, name, b, a, known_b)
    drawn = _drawn_away(after, a[0], _taken(before, after, a[0]))[:max(0, b[3] - a[3])]
    if drawn:  # drawn and put elsewhere: a boat to a dock, a hex to the city, a solo tile aside
        out.append(line(Plural("Draw the top tile of the {stack}: {tiles}.",
                               "Draw the top {n} tiles of the {stack}: {tiles}.",
                               n=len(drawn), stack=name, tiles=joined([tile_text(after, t) for t in drawn], " · "))))
    size = len(a[2]) + a[3] + len(a[4])
    return out or [line(Plural("Set the {stack} as it is now: {n} tile.", "Set the {stack} as it is now: {n} tiles.",
                               n=size, stack=name))]


def _say_face_up(before: GameState, after: GameState, name: str, b, a, known_b: set) -> list[Line]:
    """The face-up tile of a stack changed: the one that lay there left it (built, taken out of the game, put
    under), and another was turned up from below or laid there again; or nothing is left (R-BUILD-4)."""
    out = []
    if b[1] and b[1] not in _known(a):  # taken: where it goes is said where it lands (an estate, a cabin, the box)
        out.append(line(Text("Take the {tile} off the {stack}.", tile=tile_text(before, b[1]), stack=name)))
    if a[1] is None:
        if len(a[2]) + a[3] + len(a[4]) == 0:
            out.append(line(Text("The {where} is empty: nothing to turn up.", where=name)))
        return out
    if a[1] not in known_b and a[3] < b[3] or a[1] in b[2] or a[1] in b[4]:
        out.append(line(Text("Turn up the top tile of the {stack}: the {tile}.", stack=name, tile=tile_text(after,
                                                                                                            a[1]))))
    else:
        out.append(line(Text("Lay the {tile} face up on the {stack}.", tile=tile_text(after, a[1]), stack=name)))
    return out


def _say_new_stack(before: GameState, after: GameState, name: str, b, a) -> list[Line]:
    """R-NEXT-8: a stack that is another stack now (the late workshops replace the early ones)."""
    out = []
    if b is not None and b[1]:
        out.append(line(Text("Take the {tile} off the {stack}.", tile=tile_text(before, b[1]), stack=name)))
    if a is not None and a[1]:
        out.append(line(Text("Turn up the top tile of the {stack}: the {tile}.", stack=name, tile=tile_text(after,
                                                                                                            a[1]))))
    return out or [line(Plural("Set the {stack} as it is now: {n} tile.", "Set the {stack} as it is now: {n} tiles.",
                               n=(len(a[2]) + a[3] + len(a[4])) if a else 0, stack=name))]


def _drawn_away(after: GameState, pool: str, taken: list[str]) -> list[str]:
    """Tiles drawn from a pool that lie in none of its stacks now: their own line says where they went."""
    kept = set().union(*(_known(_stacks(after)[("stack", k)]) for k, (st, _) in _named_stacks(after).items()
                         if st.pool == pool))
    return [t for t in taken if t not in kept]


def _known(value) -> set:
    """The tiles of a stack the table can tell apart: face up, or known on top or under it."""
    return set() if value is None else {value[1], *value[2], *value[4]} - {None}


def _say_wagons(before: GameState, after: GameState, n: int, b, a) -> list[Line]:
    """R-SETUP-10: the wagons of one back number form a stack, one face up."""
    out = []
    tiles = _drawn(before, after, f"wagons-{n}")
    if tiles:
        out.append(line(Text("Put face down on wagon stack {n}: {tiles}.", n=n,
                             tiles=joined([tile_text(after, t) for t in tiles], " · "))))
    if b and b[0] and (a is None or a[0] != b[0]):
        out.append(line(Text("Take the {tile} off wagon stack {n}.", tile=tile_text(before, b[0]), n=n)))
    if a and a[0] and (b is None or a[0] != b[0]):
        turned = b is not None and len(a[1]) < len(b[1])
        out.append(line(Text("Turn up the next wagon of wagon stack {n}: the {tile}.", tile=tile_text(after, a[0]), n=n)
                        if turned else
                        Text("Lay the {tile} face up on wagon stack {n}.", tile=tile_text(after, a[0]), n=n)))
    elif a and not a[0] and not a[1] and b and b[0]:
        out.append(line(Text("The {where} is empty: nothing to turn up.", where=Text("wagon stack {n}", n=n))))
    return out or [line(Text("Set wagon stack {n} as it is now: backs {backs} face down.", n=n,
                             backs=joined(a[1] if a else [])))]


# --- the solo opponent ---------------------------------------------------------------------------------

def _opponent(state: GameState) -> OpponentPieces:
    opp = state.opponent
    if opp is None:
        return {}
    out: OpponentPieces = {("popularity",): opp.popularity}
    out.update({("placed", tile): True for tile in opp.placed})
    out.update({("aside", tile): True for tile in opp.aside})
    return out


def _say_opponent(before: GameState, after: GameState, key, b, a) -> list[Line]:
    """R-SOLO-5: the opponent stands a lieutenant on the hex of the solo tile it reveals."""
    if key[0] == "popularity":
        return [line(Text("Move the opponent's counter on the popularity register from space {b} to space {a}.",
                          b=b, a=a))]
    tile = key[1]
    if key[0] == "placed":
        name, at = tile_name(after, tile), [f"hex:{tile}"]
        return [line(Text("Take the opponent's lieutenant off the marked {tile}.", tile=name) if a is None else
                     Text("Stand an opponent's lieutenant on the marked {tile}.", tile=name), at)]
    name = tile_text(after, tile)
    return [line(Text("Pick up the {tile} set aside.", tile=name) if a is None else
                 Text("Set the {tile} aside.", tile=name))]


CITY: tuple[tuple[Reader, Speaker], ...] = (
    (both("hexes", _hexes), _say_hex), (both("table", _table), _say_table), (both("stacks", _stacks), _say_stack),
    (both("opponent", _opponent), _say_opponent))
