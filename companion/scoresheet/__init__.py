"""Final scoring for a game the companion did not track (issue 26): a score sheet's position is read and
checked (position.py, across.py, fields.py), turned into the end of a game (table.py) and scored by the
engine's own final scoring. No Flask and no store: the web's /score page and POST /api/score both call
`score_sheet(read_position(data, catalog), catalog)`."""

from __future__ import annotations

from .fields import Refused
from .position import read_position
from .table import end_of_game, score_sheet
from .tracked import position_of

__all__ = ["Refused", "end_of_game", "position_of", "read_position", "score_sheet"]
