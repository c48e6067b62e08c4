"""Where the companion keeps its runtime data (database, keys, catalog corrections), and how it writes there.

One rule for `serve`, the app factory and every command, so they all read the same corrections file
whichever folder they were started from.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def instance_folder(given: str | os.PathLike | None = None) -> Path:
    """`given`, else $MESSINA_INSTANCE, else `instance/` beside the code (never the working directory)."""
    return Path(given or os.environ.get("MESSINA_INSTANCE") or ROOT / "instance").resolve()


def kept_key(path: Path) -> str:
    """A random key kept in a file: read, or made on first use. An empty file (left by a full disk
    before writes were atomic) counts as missing, since an empty key would let anything through."""
    key = path.read_text().strip() if path.exists() else ""
    if not key:
        key = secrets.token_hex(32)
        write_whole(path, key)
    return key


def write_whole(path: Path, text: str, mode: int = 0o600) -> None:
    """Temp file + fsync + rename: after a crash or a full disk the file is whole or absent (owner-only
    unless `mode` says otherwise)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with os.fdopen(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except OSError:
        temp.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself survives a power cut
    finally:
        os.close(folder)
