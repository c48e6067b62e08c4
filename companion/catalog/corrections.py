"""A table's corrections as the /catalog page makes them: mark a record checked against the table's own
copy, correct its values, reset it to the shipped default, import or export the whole file.

Every change is the whole new corrections file checked by the same loader as `catalog check` before
anything is written, then written whole (temp file and rename): a change that breaks a catalog rule is
refused with the loader's own words and leaves the file byte for byte as it was. New games read the
file again (in_force.py); games in progress keep the catalog they started with.
"""

from __future__ import annotations

import copy
import re
import threading
from functools import lru_cache
from pathlib import Path

from ..instance import write_whole
from ..words import Text
from .families import FAMILIES, CatalogError, Records
from .in_force import settled
from .model import Catalog
from .problems import in_record
from .read import merge_files, parse_toml, read_override
from .write import toml_text

#: keys that say where a record comes from, not what is printed on it
META = ("id", "source", "rulebook_fields")
HEADER = ("# Messina 1347 companion: catalog corrections, checked against a copy of the game.\n"
          "# Written by the /catalog page; docs/CATALOG.md explains the format. Import this file into\n"
          "# another companion to give it the same corrections.\n")
_STEP = re.compile(r"^([^\[\]]+)((?:\[\d+\])*)$")
_LOCK = threading.RLock()  # one change at a time: each reads the file, changes it and writes it whole


class Unknown(LookupError):
    """No such family or record in the catalog."""


@lru_cache(maxsize=1)
def _shipped() -> Records:
    records, _ = merge_files(Path("no override"), None)
    return records


def shipped_record(family: str, rid: str) -> dict:
    """The record as shipped (a copy): what a reset returns to and what a correction is compared with."""
    if family not in FAMILIES:
        raise Unknown(Text("There is no family '{family}' in the catalog.", family=family))
    for record in _shipped()[family]:
        if record["id"] == rid:
            return copy.deepcopy(record)
    raise Unknown(Text("There is no record '{rid}' among the {family} records.", rid=rid, family=family))


def shipped_ids(family: str) -> list[str]:
    """A family's record ids in the catalog's order."""
    if family not in FAMILIES:
        raise Unknown(Text("There is no family '{family}' in the catalog.", family=family))
    return [record["id"] for record in _shipped()[family]]


class Corrections:
    """The corrections file of one companion (`<instance>/catalog.toml`, or $MESSINA_CATALOG)."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def records(self) -> Records:
        """The file's records by family; CatalogError while the file is broken (it is then changed only
        by importing a good one, so nothing of a half-read file is ever written back)."""
        data = read_override(self.path)
        if data is None:
            return {}
        return copy.deepcopy(_records_of(str(self.path), data))  # a change edits its own copy

    def record(self, family: str, rid: str) -> dict:
        """The record as it is in force: the table's correction, or else the shipped one."""
        default = shipped_record(family, rid)
        for record in self.records().get(family, []):
            if record.get("id") == rid:
                return record
        return default

    def export(self) -> bytes:
        """The corrections as one file to carry to another table (an empty list when there are none)."""
        return read_override(self.path) or (HEADER + "\n# No corrections yet.\n").encode()

    def mark_checked(self, family: str, rid: str) -> Catalog:
        """"Matches my copy": the record as it is in force, now marked checked."""
        with _LOCK:  # the record read is the one written back, whatever another browser saves meanwhile
            return self._put(family, checked(shipped_record(family, rid), self.record(family, rid)))

    def mark_all_checked(self, family: str, rids: list[str]) -> Catalog:
        """"All of these match my copy": each record as it is in force, marked checked, in one change."""
        with _LOCK:
            records = self.records()
            kept = {r.get("id"): r for r in records.get(family, [])}
            for rid in rids:
                kept[rid] = checked(shipped_record(family, rid), kept.get(rid) or shipped_record(family, rid))
            order = shipped_ids(family)
            records[family] = sorted(kept.values(), key=lambda r: order.index(r["id"]))
            return self._write(records)

    def correct(self, family: str, rid: str, record: dict) -> Catalog:
        """The record with the values the table read on its copy, marked checked."""
        shipped_record(family, rid)
        if record.get("id") != rid:
            raise CatalogError([in_record(self.path, family, rid, Text("a correction cannot change the record's id"))])
        return self._put(family, checked(shipped_record(family, rid), record))

    def reset(self, family: str, rid: str) -> Catalog:
        """Back to the shipped record: the correction leaves the file."""
        shipped_record(family, rid)
        with _LOCK:
            records = self.records()
            records[family] = [r for r in records.get(family, []) if r.get("id") != rid]
            return self._write(records)

    def replace(self, data: bytes) -> Catalog:
        """An imported corrections file, checked whole like every change, then kept byte for byte (so
        the same file gives every companion the same catalog, to the fingerprint)."""
        with _LOCK:
            catalog = _valid(self.path, data)
            write_whole(self.path, data.decode("utf-8"), 0o644)
            return catalog

    def _put(self, family: str, record: dict) -> Catalog:
        with _LOCK:
            records = self.records()
            kept = records.setdefault(family, [])
            order = shipped_ids(family)
            kept[:] = [r for r in kept if r.get("id") != record["id"]] + [record]
            kept.sort(key=lambda r: order.index(r["id"]))
            return self._write(records)

    def _write(self, records: Records) -> Catalog:
        """Check the whole new file with the loader, then write it (or nothing, with the loader's words)."""
        text = toml_text({f: r for f, r in records.items() if r}, HEADER)
        catalog = _valid(self.path, text.encode("utf-8"))
        write_whole(self.path, text, 0o644)
        return catalog


def _valid(path: Path, data: bytes) -> Catalog:
    """The catalog a corrections file makes, checked by the loader once per content (in_force.settled
    remembers it, so the page that follows a change finds it loaded), or CatalogError with its problems."""
    made = settled(str(path), data)
    if made.problems:
        raise CatalogError(list(made.problems))
    return made.catalog


@lru_cache(maxsize=8)
def _records_of(path: str, data: bytes) -> Records:
    """A valid corrections file's records by family, read once per content: the file as a whole must be
    valid first (CatalogError, not remembered, while it is not)."""
    _valid(Path(path), data)
    problems: list[str] = []
    doc = parse_toml(data, path, problems) or {}
    return {family: list(doc.get(family, [])) for family in FAMILIES if doc.get(family)}


def checked(shipped: dict, record: dict) -> dict:
    """`record` marked checked, still naming as printed in a rulebook only the fields a rulebook gives
    (in the shipped record) that keep the rulebook's value; sub-records with their own source likewise."""
    out = dict(record)
    for key, value in record.items():
        before = shipped.get(key)
        if isinstance(value, list) and isinstance(before, list) and all(isinstance(v, dict) for v in value):
            out[key] = [checked(before[i] if i < len(before) and isinstance(before[i], dict) else {}, v)
                        for i, v in enumerate(value)]
    if "source" in record:
        source = shipped.get("source")
        printed = ([k for k in shipped if k not in META] if source == "rulebook"
                   else list(shipped.get("rulebook_fields", [])) if source in ("mixed", "checked") else [])
        kept = [f for f in printed if at(record, f) is not None and at(shipped, f) == at(record, f)]
        out["source"] = "checked"
        out.pop("rulebook_fields", None)
        if kept:
            out["rulebook_fields"] = kept
    return out


def values(record: dict) -> dict:
    """Every printed value of a record by its field name (`action`, `space[2].reward`, `path[0].first.squares`),
    leaving out where it comes from: what a form shows and what a comparison compares."""
    flat: dict = {}
    _flatten(record, "", flat)
    return flat


def differences(shipped: dict, record: dict) -> list[tuple[str, object, object]]:
    """(field, shipped value, value now) for every field the table changed."""
    before, now = values(shipped), values(record)
    return [(name, before.get(name), now.get(name)) for name in dict.fromkeys([*before, *now])
            if before.get(name) != now.get(name)]


def with_values(record: dict, changed: dict) -> dict:
    """A copy of `record` with some of its fields (named as `values` names them) set anew."""
    out = copy.deepcopy(record)
    for name, value in changed.items():
        *path, last = _steps(name)
        holder = out
        for step in path:
            holder = holder[step]
        holder[last] = value
    return out


def source_of(record: dict, name: str) -> str:
    """Where one field's value comes from: "rulebook", "assumed", "checked" (or "mixed" for a list some
    of whose entries a rulebook prints), by the innermost record
    on its way that says (a board's square may say otherwise than its board)."""
    steps = _steps(name)
    holder, inner, rest = record, record, steps
    for i, step in enumerate(steps[:-1]):
        try:
            holder = holder[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(holder, dict) and "source" in holder:
            inner, rest = holder, steps[i + 1:]
    source, printed = inner.get("source"), inner.get("rulebook_fields", [])
    if source in ("mixed", "checked") and _name(rest) in printed:
        return "rulebook"
    if source in ("mixed", "checked") and any(f.startswith(_name(rest) + "[") for f in printed):
        return "mixed"  # some entries of this list are printed, the others not
    return "assumed" if source == "mixed" else str(source)


def at(record, name: str):
    """The value of one field by its name, or None when the record has no such field."""
    value = record
    try:
        for step in _steps(name):
            value = value[step]
    except (KeyError, IndexError, TypeError):
        return None
    return value


def _steps(name: str) -> list:
    steps: list = []
    for part in name.split("."):
        match = _STEP.match(part)
        if not match:
            return [name]
        steps.append(match.group(1))
        steps += [int(i) for i in re.findall(r"\d+", match.group(2))]
    return steps


def _name(steps: list) -> str:
    return "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in steps).lstrip(".")


def _flatten(value, name: str, flat: dict) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            if key not in META:
                _flatten(sub, f"{name}.{key}" if name else key, flat)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for i, sub in enumerate(value):
            _flatten(sub, f"{name}[{i}]", flat)
    else:
        flat[name] = value
