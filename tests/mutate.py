"""Damage a JSON document the way a broken file or a forged request might: the fuzz tests of the score sheet
and of resuming a game from its file send what comes out and expect a clear refusal or a good answer; the
catalog's hostile-value test walks every place of a record (`places_in`)."""

from __future__ import annotations

import copy
import random
from typing import Callable, Iterator


def places_in(value, path: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON value: dict keys and list items, with the containers themselves."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places_in(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places_in(v, path + (i,))


def damaged(doc: dict, rng: random.Random, junk, keys: list[str],
            may_touch: Callable[[tuple], bool] = bool) -> dict:
    """A copy of `doc` with one to three places replaced by `junk`, removed, or given a known key or item
    more: only the places `may_touch` allows (by default every place but the whole)."""
    out = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice([p for p in places_in(out) if may_touch(p)])
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        how = rng.random()
        if how < 0.6:
            parent[path[-1]] = copy.deepcopy(junk)
        elif how < 0.8 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[rng.choice(keys)] = copy.deepcopy(junk)
        else:
            parent.append(copy.deepcopy(junk))
    return out
