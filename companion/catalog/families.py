"""What a catalog is made of: its families of records, how many each must have, which shipped file holds
each, and the one error a table sees for any problem in them.

The families' order is the order a game stores its catalog in, so it is part of every fingerprint.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..words import Text
from .problems import in_family

#: R-COMP-2: how many records each family must have.
COUNTS = {
    "hex": 20,
    "harbor": 4,
    "dock": 4,
    "docking_tile": 4,
    "boat": 9,
    "workshop": 33,
    "improvement": 15,
    "wagon": 10,
    "solo_tile": 14,
    "board": 5,
    "scroll_board": 5,
    "round_info": 2,
    "priority_tile": 2,
    "register": 6,
    "rat_table": 1,
    "layout": 3,
}
FAMILIES = tuple(COUNTS) + ("wheel",)
#: The shipped data files, in the order they are read, and the families each holds.
FILES = {
    "city.toml": ("hex", "harbor"),
    "layout.toml": ("dock", "docking_tile", "layout"),
    "scoreboard.toml": ("wheel", "round_info", "priority_tile", "register", "rat_table"),
    "tiles.toml": ("boat", "workshop", "improvement", "wagon", "solo_tile"),
    "boards.toml": ("board", "scroll_board"),
}
DATA_FILES = tuple(FILES)

Records = dict[str, list[dict]]  # family -> its records, in catalog order
Origins = dict[tuple[str, str], str]  # (family, id) -> the file the record came from


class CatalogError(Exception):
    """The catalog (defaults or override) is invalid; `problems` lists every finding, each a Text
    (companion/catalog/problems.py), so a page can show it in the reader's language."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("\n".join(problems))


def file_of(family: str) -> str:
    """The shipped file a family lives in, as a problem names it: where a table looks to fix it."""
    for name, families in FILES.items():
        if family in families:
            return f"companion/catalog/data/{name}"
    return family


def record_id(rec, label: str, family: str, problems: list[str]) -> str | None:
    """A record's id, or None with the problem noted: records are merged and stored by id."""
    rid = rec.get("id") if isinstance(rec, dict) else None
    if not isinstance(rid, str) or not rid:
        problems.append(in_family(label, family, Text("a record has no string id")))
        return None
    return rid
