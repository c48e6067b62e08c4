"""Where the companion keeps its runtime data (database, secret key, catalog corrections).

One rule for `serve`, the app factory and every command, so they all read the same corrections file
whichever folder they were started from.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def instance_folder(given: str | os.PathLike | None = None) -> Path:
    """`given`, else $MESSINA_INSTANCE, else `instance/` beside the code (never the working directory)."""
    return Path(given or os.environ.get("MESSINA_INSTANCE") or ROOT / "instance").resolve()
