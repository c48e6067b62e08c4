"""Records back into TOML, for the corrections file the /catalog page writes.

Python reads TOML but does not write it. Every record is written as `[[family]]` with one `key = value`
line per field, in the record's own order, and everything nested (register spaces, board squares, a
layout's harbors) as inline values, one sub-record per line: read back, the records are the same values
in the same order, so the catalog's fingerprint is the same too.
"""

from __future__ import annotations

import json
import math
import re
from datetime import date, datetime, time

from .families import FAMILIES, Records

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def toml_text(records: Records, header: str = "") -> str:
    """A whole corrections file: the header (comment lines), then each family's records in catalog order."""
    parts = [header] if header else []
    for family in FAMILIES:
        for record in records.get(family, ()):
            lines = [f"{_key(k)} = {_value(v, 0)}" for k, v in record.items()]
            parts.append(f"[[{family}]]\n" + "\n".join(lines) + "\n")
    return "\n".join(parts)


def toml_value(value) -> str:
    """One value on one line, as a form shows a list: `[0, 1, 2]`."""
    return _value(value, 1)


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _string(key)


def _value(value, depth: int) -> str:
    """One value as TOML; a list of tables spreads over lines (TOML allows it in arrays, not in tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v, depth + 1)}" for k, v in value.items()) + " }" \
            if value else "{}"
    if isinstance(value, list):
        if depth == 0 and value and all(isinstance(v, dict) for v in value):
            return "[\n" + "".join(f"  {_value(v, depth + 1)},\n" for v in value) + "]"
        return "[" + ", ".join(_value(v, depth + 1) for v in value) + "]"
    raise TypeError(f"a catalog value cannot be {type(value).__name__}")


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, except that TOML also refuses a raw DEL."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")


def _float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)
