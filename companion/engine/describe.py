"""Components named the way the table sees them, in our own words: by what is printed on them, never by a
catalog id ("the red hex with the rat on the right", "the silk boat with back 3").

Each name is a Text that also carries, as its hidden value `face`, the component it names
("hex:n04"): the template never shows it, but the web finds it there (words.faces_in) and draws the
printed face beside the words. `face_of` gives the same reference for a menu option.
"""

from __future__ import annotations

from functools import lru_cache

from ..catalog.rewards import Bundle, Item
from ..words import Plural, Text, joined
from .state import GameState

#: Where a harbor, dock or docking tile lies, from the corner its id ends with.
CORNERS = {"nw": Text("north-west"), "ne": Text("north-east"), "se": Text("south-east"), "sw": Text("south-west")}


def cost_text(cost: Bundle) -> str:
    return cost.text() if cost.items else Text("nothing")


def lacking(icon: str, have: int, need: int) -> str:
    """A greyed option's reason in numbers: "you have 0 lumber, need 1"."""
    return Text("you have {have}, need {need}", have=Item(icon, have).text(), need=need)


_KNOWN: dict = {}  # id(catalog) -> (catalog, {kind: {key: words}})
_LAST: tuple = (None, {})  # the catalog asked about last, and its words: nearly always the next one asked
KEEP_AT_MOST = 20000  # words of one kind kept for one catalog; a kind that grows past it starts afresh
CATALOGS_KEPT = 16  # games keep a handful of catalogs (the shipped one, a table's corrections over time)


def remembered(state: GameState, kind: str) -> dict:
    """The words of one `kind` made so far with this game's catalog, to look up before making them:
    words made from the catalog's records (a hex's name, what a register space gives) never change in
    a game, and every turn menu says them again. A Text is never changed once made, so one serves every
    menu and log line."""
    global _LAST
    cat = state.catalog
    last = _LAST
    if last[0] is not cat:
        found = _KNOWN.get(id(cat))
        if found is None or found[0] is not cat:
            if len(_KNOWN) >= CATALOGS_KEPT:
                _KNOWN.clear()
            found = _KNOWN[id(cat)] = (cat, {})
        last = _LAST = found
    known = last[1].get(kind)
    if known is None or len(known) > KEEP_AT_MOST:
        known = last[1][kind] = {}
    return known


def face_of(state: GameState, tile) -> str | None:
    """"family:id" of the printed component `tile` names, or None when it is no component."""
    if not isinstance(tile, str):
        return None
    known = remembered(state, "face")
    if tile not in known:
        known[tile] = _face_of(state.catalog, tile)
    return known[tile]


def _face_of(c, tile: str) -> str | None:
    for family, records in (("hex", c.hexes), ("harbor", c.harbors), ("boat", c.boats),
                            ("workshop", c.workshops), ("improvement", c.improvements), ("wagon", c.wagons),
                            ("docking_tile", c.docking_tiles), ("dock", c.docks), ("solo_tile", c.solo_tiles)):
        if tile in records:
            return f"{family}:{tile}"
    if any(w.id == tile for w in c.wheel):
        return f"wheel:{tile}"
    return None


def tile_text(state: GameState, tile: str) -> str:
    """Any component by what is printed on it (a value that is no component is returned as it is)."""
    c = state.catalog
    face = face_of(state, tile)
    if face is None:
        return tile
    family = face.split(":")[0]
    if family in ("hex", "harbor", "dock", "docking_tile"):
        return tile_name(state, tile)
    if family == "boat":
        b = c.boats[tile]
        return _boat_text(face, b.cargo, b.back, b.reward.text())
    if family == "improvement":
        i = c.improvements[tile]
        if i.cls:
            return _improvement_for(i.cls, cost_text(i.cost), i.output.text(), face)
        return Text("cabin improvement costing {cost} (yields {output})", cost=cost_text(i.cost),
                    output=i.output.text(), face=face)
    if family == "workshop":
        return _workshop_text(state, tile, face)
    if family == "wagon":
        w = c.wagons[tile]
        return Text("wagon with back {back} (costs {cost}; {vp} VP)", back=w.back, cost=cost_text(w.cost), vp=w.vp,
                    face=face)
    if family == "solo_tile":
        s = c.solo_tiles[tile]
        return Text("solo tile of the {hex} (red action: {action})", hex=tile_name(state, s.hex), action=s.action,
                    face=face)
    return _window_text(state, tile, face)


def _window_text(state: GameState, tile: str, face: str) -> str:
    """A wheel window by its rat and what each colour brings: several windows show the same rat, so the
    colours tell them apart (every candidate of a table draw needs its own caption)."""
    w = next(w for w in state.catalog.wheel if w.id == tile)
    spread = joined(Text("{colour}: {cls}", colour=colour, cls=cls) if cls else Text("{colour}: nothing", colour=colour)
                    for colour, cls in w.colours.items())
    if w.rat in ("left", "right"):
        return Text("window with the rat on the {rat} ({spread})", rat=w.rat, spread=spread, face=face)
    return Text("window with a standing rat ({spread})", spread=spread, face=face)


def _improvement_for(cls: str, cost: str, output: str, face: str) -> str:
    """An improvement only one class may use: one phrase per class, so each language words the plural."""
    if cls == "aristocrat":
        return Text("cabin improvement costing {cost} (yields {output}, aristocrats only)", cost=cost, output=output,
                    face=face)
    if cls == "nun":
        return Text("cabin improvement costing {cost} (yields {output}, nuns only)", cost=cost, output=output,
                    face=face)
    return Text("cabin improvement costing {cost} (yields {output}, craftsmen only)", cost=cost, output=output,
                face=face)


def _workshop_text(state: GameState, tile: str, face: str) -> str:
    w = state.catalog.workshops[tile]
    if w.era != 1:
        gives = Text("once {reward}", reward=w.reward.text())
    elif w.upgraded_output:
        gives = Text("each round {output}, upgraded {upgraded}", output=w.output.text(),
                     upgraded=w.upgraded_output.text())
    else:
        gives = Text("each round {output}", output=w.output.text())
    if w.needs_upgraded:
        return Text("workshop for an upgraded {cls}, costing {cost} ({gives})", cls=w.cls, cost=cost_text(w.cost),
                    gives=gives, face=face)
    return Text("{cls} workshop costing {cost} ({gives})", cls=w.cls, cost=cost_text(w.cost), gives=gives, face=face)


def tile_name(state: GameState, tile: str) -> str:
    """A hex by its colour and rat, a harbor, dock or docking tile by its corner: short enough for a
    log line; the face drawn beside it tells two alike hexes apart."""
    known = remembered(state, "name")
    name = known.get(tile)
    if name is None:
        name = known[tile] = _tile_name(state.catalog, tile)
    return name


def _tile_name(c, tile: str) -> str:
    face = _face_of(c, tile)
    if tile in c.hexes:
        h = c.hexes[tile]
        if h.rat in ("left", "right"):
            return Text("{colour} hex with the rat on the {rat}", colour=h.colour, rat=h.rat, face=face)
        if h.rat == "standing":
            return Text("{colour} hex with a standing rat", colour=h.colour, face=face)
        return Text("{colour} hex without a rat", colour=h.colour, face=face)
    corner = CORNERS.get(tile.rsplit("-", 1)[-1])
    if corner is None:
        return tile
    if tile in c.harbors:
        return Text("{corner} harbor", corner=corner, face=face)
    if tile in c.docks:
        return Text("{corner} dock", corner=corner, face=face)
    if tile in c.docking_tiles:
        return Text("{corner} docking tile", corner=corner, face=face)
    return tile


def scroll_board_text(state: GameState, scroll: str) -> str:
    """A scroll board by what is printed on it: its tracks (b scroll boards differ only in those)."""
    tracks = joined([t.counts.removeprefix("register-") for t in state.catalog.scroll_boards[scroll].tracks])
    return Text("scroll board with the tracks {tracks}", tracks=tracks, face=f"scroll_board:{scroll}")


def square_text(state: GameState, seat: int, square: str) -> str:
    """A square of a player's board by the reward printed on it."""
    board = state.seats[seat].board
    known = remembered(state, "square")
    if (board, square) not in known:
        reward = state.catalog.boards[board].square(square).reward.text()
        known[board, square] = Text("“{reward}” square", reward=reward)
    return known[board, square]


def hex_text(state: GameState, tile: str) -> str:
    """A hex with its printed action: what a host matches a dealt or drawn hex against."""
    known = remembered(state, "hex")
    if tile not in known:
        known[tile] = Text("{tile}: {action}", tile=tile_name(state, tile),
                           action=state.catalog.tile(tile).action.text())
    return known[tile]


@lru_cache(maxsize=256)
def _boat_text(face: str, cargo: str, back: int, reward: str) -> str:
    """Cached: every turn menu lists the boats at the docks."""
    return Text("{cargo} boat with back {back} (gives {reward})", cargo=cargo, back=back, reward=reward, face=face)


@lru_cache(maxsize=64)
def coins(n: int) -> str:
    """"1 coin", "3 coins" (cached: every turn menu prices each place)."""
    return Plural("{n} coin", "{n} coins", n=n)
