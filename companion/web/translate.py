"""Engine text in the reader's language, and the compiled catalogs that make it possible.

The engine stores English next to its template (companion/words.py): a log entry has "text",
"msg" and "args"; a menu option "label", "label_msg" and "label_args"; and so on. `tr` shows such text
translated: gettext on the template, then the values filled in, each translated the same way (a
nested template, or a single lowercase word such as a citizen class or a colour). Text stored without
a template goes through gettext whole. Pure: the gettext function is passed in (the app passes
Flask-Babel's), so pictures and tests can use it too.
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Callable

Gettext = Callable[[str], str]
WORD = re.compile(r"[a-z]+")


def _same(s: str) -> str:
    return s


def tr(obj: Any, key: str = "text", _: Gettext = _same) -> str:
    """obj[key] in the reader's language; the English as stored when the translation does not fit."""
    if not obj:
        return ""
    english = obj.get(key)
    names = ("msg", "args") if key == "text" else (key + "_msg", key + "_args")
    msg = obj.get(names[0])
    if msg is not None:
        try:
            return _render(msg, obj.get(names[1]) or {}, _)
        except (KeyError, IndexError, ValueError, AttributeError):  # a translation naming an unknown value
            logging.getLogger(__name__).warning("translation of %r does not fit its values", msg)
    return _(english) if english else ""


def _render(msg: str, args: dict, _: Gettext) -> str:
    text = _(msg)
    if not args:
        return text
    return text.format(**{k: _value(v, _) for k, v in args.items()})


def _value(value: Any, _: Gettext) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return _render(value["msg"], value.get("args") or {}, _)
    if isinstance(value, str) and WORD.fullmatch(value):
        return _(value)
    return value


_CATALOG: contextvars.ContextVar = contextvars.ContextVar("catalog", default=None)


def choose_catalog() -> None:
    """Before each request: look up the reader's catalog once (Flask-Babel would on every call)."""
    from flask_babel import get_translations

    _CATALOG.set(get_translations())


def forget_catalog(_exc=None) -> None:
    """After each request: the thread's next request chooses its own."""
    _CATALOG.set(None)


def request_gettext(text: str, **variables) -> str:
    """gettext from the catalog chosen for this request: a host screen's news makes thousands of
    calls, and looking the catalog up each time was a fifth of the answer's time."""
    catalog = _CATALOG.get()
    if catalog is None:  # outside a request (a script, a test): Flask-Babel's own lookup
        from flask_babel import get_translations

        catalog = get_translations()
    text = catalog.ugettext(text)
    return text % variables if variables else text


def compile_catalogs(directory: Path) -> None:
    """Build each language's messages.mo from its messages.po when missing or older (only the .po is
    committed). Written atomically; a read-only install keeps whatever .mo it has."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(Path(directory).glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            with po.open("rb") as f:
                catalog = read_po(f, locale=po.parent.parent.name)
            fd, tmp = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    write_mo(f, catalog)
                os.replace(tmp, mo)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError as exc:
            logging.getLogger(__name__).warning("cannot compile %s: %s", po, exc)
