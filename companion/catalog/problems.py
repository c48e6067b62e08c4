"""Where a catalog problem lies, said so it can be read in any language (companion/words.py).

A problem names its file, then its family and record, then what is wrong: "<file>: <family> <id>: <problem>".
Each of those is one template, with the problem itself as a nested Text, so the web pages translate the
words while paths, families and ids stay as the catalog writes them. The English is the same as it
always was, for the command line and the logs.
"""

from __future__ import annotations

from typing import Any

from ..words import Text


def in_file(file: Any, problem: str) -> Text:
    """A problem with a file as a whole (it cannot be read, or holds an unknown family)."""
    return Text("{file}: {problem}", file=str(file), problem=problem)


def in_family(file: Any, family: str, problem: str) -> Text:
    """A problem with a family as a whole (how many records it has, which one is missing)."""
    return Text("{file}: {family}: {problem}", file=str(file), family=family, problem=problem)


def in_record(file: Any, family: str, record: str, problem: str) -> Text:
    """A problem with one record (or with a few, their ids joined), in the file it came from."""
    return Text("{file}: {family} {record}: {problem}", file=str(file), family=family, record=record, problem=problem)


def exception_text(exc: BaseException) -> str:
    """What an exception says: the Text it was raised with, kept whole (str(exc) would give plain English)."""
    said = exc.args[0] if len(exc.args) == 1 else None
    return said if isinstance(said, str) else str(exc)
