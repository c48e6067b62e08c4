"""JSON round-trip for the state dataclasses, driven by their type hints.

State must survive a server restart and replay exactly (DESIGN: "fully JSON round-trippable"), so
every field is plain data: ints, strings, lists, dicts with string keys, or nested dataclasses.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any


class Serial:
    """Mixin: `to_dict()` gives plain JSON data; `from_dict()` rebuilds the same object."""

    def to_dict(self) -> dict:
        return _dump(self)

    @classmethod
    def from_dict(cls, data: dict):
        return _load(cls, data)


def _dump(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [_dump(v) for v in value]
    if kind is dict:
        return {k: _dump(v) for k, v in value.items()}
    if kind in _PLAIN:
        return value
    if dataclasses.is_dataclass(value):
        # a class is hashable; mypy checks the instances' __hash__ against lru_cache's Hashable instead
        return {name: _dump(getattr(value, name)) for name in _names(kind)}  # type: ignore[arg-type]
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


def copy_sharing(obj: Serial, shared: tuple[str, ...]):
    """A copy of `obj` through its saved form, except the list fields named in `shared`: the copy gets new
    lists of the same items. For lists only ever appended to, whose items never change once there (a
    game's log): copying their items would cost more than everything else together late in a game."""
    cls = type(obj)
    names = _names(cls)  # type: ignore[arg-type]  # a class is hashable (see _dump)
    copy = _load(cls, {name: _dump(getattr(obj, name)) for name in names if name not in shared})
    for name in shared:
        setattr(copy, name, list(getattr(obj, name)))
    return copy


_PLAIN = frozenset((int, str, float, bool, type(None)))  # the common leaves, settled without a lookup


@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in _fields(cls))


@cache
def _fields(cls: type) -> tuple:
    return tuple(f for f in dataclasses.fields(cls) if not f.name.startswith("_"))


@cache
def _hints(cls: type) -> dict:
    return typing.get_type_hints(cls)


def _load(tp: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _load(inner[0], data) if len(inner) == 1 else data
    if origin is list:
        (inner,) = typing.get_args(tp)
        return [_load(inner, v) for v in data]
    if origin is dict:
        _, inner = typing.get_args(tp)
        return {k: _load(inner, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {f.name: _load(hints[f.name], data[f.name]) for f in _fields(tp) if f.name in data}
        return tp(**kwargs)
    return data
