"""Every printed component's face as inline SVG, drawn from its catalog record only (issue 13).

    face(catalog, "hex", "n04")  ->  Markup

A correction to a record is a correction to its picture: nothing here knows a tile by heart. One module
per group of families (city pieces, tiles, boards and tables), one icon set for them all (../icons.py).
"""

from __future__ import annotations

from markupsafe import Markup

from ..elements import Gettext, english
from .boards import board_face, register_face, scroll_board_face, square_face
from .city import dock_face, docking_tile_face, harbor_face, hex_face, layout_face, wheel_face
from .tables import priority_tile_face, rat_table_face, round_info_face
from .tiles import boat_face, improvement_face, solo_tile_face, wagon_face, workshop_face

DRAW = {
    "hex": hex_face, "harbor": harbor_face, "dock": dock_face, "docking_tile": docking_tile_face,
    "boat": boat_face, "workshop": workshop_face, "improvement": improvement_face, "wagon": wagon_face,
    "solo_tile": solo_tile_face, "wheel": wheel_face, "register": register_face, "board": board_face,
    "scroll_board": scroll_board_face, "round_info": round_info_face, "priority_tile": priority_tile_face,
    "rat_table": rat_table_face, "layout": layout_face, "square": square_face,
}


def face(catalog, family: str, rid: str, _: Gettext = english) -> Markup:
    """The printed face of one record; KeyError for a family or id the catalog does not have."""
    if family not in DRAW:
        raise KeyError(family)
    return DRAW[family](catalog, rid, _)


def record_ids(catalog, family: str) -> list[str]:
    """A family's record ids in catalog order: what a page lists, one face each."""
    records = {"hex": catalog.hexes, "harbor": catalog.harbors, "dock": catalog.docks,
               "docking_tile": catalog.docking_tiles, "boat": catalog.boats, "workshop": catalog.workshops,
               "improvement": catalog.improvements, "wagon": catalog.wagons, "solo_tile": catalog.solo_tiles,
               "register": catalog.registers, "board": catalog.boards, "scroll_board": catalog.scroll_boards,
               "round_info": catalog.round_info, "priority_tile": catalog.priority_tiles,
               "layout": catalog.layouts}
    if family == "wheel":
        return [w.id for w in catalog.wheel]
    if family == "rat_table":
        return [catalog.rat_table.id]
    if family == "square":  # a square of a player board, named "<board>.<square>"
        return [f"{b.id}.{sq.id}" for b in catalog.boards.values() for sq in b.squares]
    return list(records[family])


__all__ = ["DRAW", "face", "record_ids"]
