"""The catalog's files read and merged into plain records: the shipped TOML files, then the table's
corrections, each correction replacing a shipped record of the same id whole.

Every problem names the file, the family and the record id, so a table that mistypes a correction
knows exactly where to look. A correction file is hand-typed and may come from anywhere, so it is read
with limits (size, nesting) before the TOML parser sees it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path as FsPath

from ..instance import instance_folder
from ..words import Text
from .families import DATA_FILES, FAMILIES, CatalogError, Origins, Records, record_id
from .problems import in_file, in_record

DATA_DIR = FsPath(__file__).parent / "data"
#: The shipped catalog is under 80 KB; an override bigger than this is not a list of corrections.
OVERRIDE_LIMIT = 1_000_000
#: Arrays, tables or dotted keys nested deeper than this are refused before parsing: the shipped files
#: nest 4 deep, and the TOML parser recurses per level (and keeps every prefix of a dotted key).
NESTING_LIMIT = 32


def default_override_path(instance: str | os.PathLike | None = None) -> FsPath:
    """The table's corrections: the file $MESSINA_CATALOG names, else `catalog.toml` in the instance
    folder the server uses (companion/instance.py), whatever the working directory."""
    named = os.environ.get("MESSINA_CATALOG")
    if named:
        return FsPath(named)
    return instance_folder(instance) / "catalog.toml"


def read_override(path: str | os.PathLike) -> bytes | None:
    """The override file's bytes, or None when there is none. Read once, so what is checked is what
    is used even if the file changes meanwhile."""
    try:
        with open(path, "rb") as f:
            data = f.read(OVERRIDE_LIMIT + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CatalogError([in_file(path, Text("cannot read: {error}", error=str(exc.strerror or exc)))]) from None
    if len(data) > OVERRIDE_LIMIT:
        raise CatalogError([in_file(path, Text("larger than {kb} KB; the whole catalog is under 100 KB",
                                               kb=OVERRIDE_LIMIT // 1000))])
    return data


def merge_files(override: FsPath, data: bytes | None, data_dir: FsPath = DATA_DIR) -> tuple[Records, Origins]:
    """Plain records from the shipped files, each replaced whole by the override's record of the same id."""
    merged = _Merged()
    for name in DATA_FILES:
        label = f"companion/catalog/data/{name}"
        try:
            shipped = (data_dir / name).read_bytes()
        except OSError as exc:
            merged.problems.append(in_file(label, Text("cannot read: {error}", error=str(exc))))
            continue
        merged.take(parse_toml(shipped, label, merged.problems), label, replacing=False)
    if data is not None:
        merged.take(parse_toml(data, str(override), merged.problems), str(override), replacing=True)
    if merged.problems:
        raise CatalogError(merged.problems)
    return {f: list(recs.values()) for f, recs in merged.records.items()}, merged.origins


class _Merged:
    """The records so far by family and id, where each came from, and every problem met on the way."""

    def __init__(self) -> None:
        self.records: dict[str, dict[str, dict]] = {f: {} for f in FAMILIES}
        self.origins: Origins = {}
        self.problems: list[str] = []

    def take(self, doc: dict | None, label: str, replacing: bool) -> None:
        """A file's records: new ids from a shipped file, known ids from the override (None: unreadable)."""
        for family, records in (doc or {}).items():
            if family not in self.records:
                self.problems.append(in_file(label, unknown_family(family)))
                continue
            if not isinstance(records, list):
                self.problems.append(in_file(label, Text("{family} must be an array of tables ([[{family}]])",
                                                         family=family)))
                continue
            for rec in records:
                self._one(family, rec, label, replacing)

    def _one(self, family: str, rec, label: str, replacing: bool) -> None:
        known = self.records[family]
        rid = record_id(rec, label, family, self.problems)
        if rid is None:
            return
        if replacing and rid not in known:
            self.problems.append(in_record(label, family, rid, Text("no default record with this id to replace")))
        elif not replacing and rid in known:
            self.problems.append(in_record(label, family, rid, Text("duplicate id")))
        else:
            known[rid] = rec  # a replaced record keeps its place in the order
            self.origins[(family, rid)] = label


def unknown_family(family: str) -> Text:
    """A family the catalog does not have, with the ones it has."""
    return Text("unknown family [[{family}]] (known: {known})", family=family, known=", ".join(FAMILIES))


def parse_toml(data: bytes, label: str, problems: list[str]) -> dict | None:
    """One TOML document, or None with the reason added to `problems`. A correction file is hand-typed
    (and may come from anywhere), so whatever the parser raises on it is a problem with that file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(in_file(label, Text("not UTF-8 text: {error}", error=str(exc))))
        return None
    deep = _too_deep(text)
    if deep:
        problems.append(in_file(label, deep))
        return None
    try:
        return tomllib.loads(text)
    except RecursionError:
        problems.append(in_file(label, Text("nested too deeply to read")))
    except Exception as exc:  # TOMLDecodeError, or e.g. ValueError for a number of thousands of digits
        problems.append(in_file(label, Text("not valid TOML: {error}", error=str(exc))))
    return None


def _too_deep(text: str) -> Text | None:
    """Why `text` nests too deeply to hand to the TOML parser, if it does: brackets and braces open at
    once, or dots in one key. Strings and comments are skipped; anything unfinished is left for the
    parser to report."""
    depth = chain = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            i = _string_end(text, i)
            continue
        if c == "#":
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        if c in "[{":
            depth += 1
            if depth > NESTING_LIMIT:
                return Text("arrays or tables nested more than {limit} deep", limit=NESTING_LIMIT)
        elif c in "]}":
            depth = max(0, depth - 1)
        if c == ".":
            chain += 1
            if chain > NESTING_LIMIT:
                return Text("a key with more than {limit} dotted parts", limit=NESTING_LIMIT)
        elif not (c.isalnum() or c in "_- \t"):
            chain = 0
        i += 1
    return None


def _string_end(text: str, i: int) -> int:
    """The index just past the string that starts at `i` (TOML's four kinds of string)."""
    q = text[i]
    quote = q * 3 if text.startswith(q * 3, i) else q
    j, n = i + len(quote), len(text)
    while j < n:
        c = text[j]
        if c == "\\" and q == '"':
            j += 2
            continue
        if c == "\n" and len(quote) == 1:
            return j
        if text.startswith(quote, j):
            j += len(quote)
            if len(quote) == 3:  # up to two quotes may stand just before the closing three
                extra = 0
                while extra < 2 and j < n and text[j] == q:
                    j, extra = j + 1, extra + 1
            return j
        j += 1
    return n
