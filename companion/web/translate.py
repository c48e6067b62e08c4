"""The reader's catalog for this request, and the compiled catalogs that make it possible.

`words.tr` shows engine text through a gettext function; this module gives it the request's own
(`request_gettext`, carrying `ngettext` and `pgettext`), looked up once per request, and builds each
language's messages.mo from its .po at start.
"""

from __future__ import annotations

import contextvars
import logging
import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask_babel import get_translations

_CATALOG: contextvars.ContextVar = contextvars.ContextVar("catalog", default=None)


def choose_catalog() -> None:
    """Before each request: look up the reader's catalog once (Flask-Babel would on every call)."""
    _CATALOG.set(get_translations())


def forget_catalog(_exc=None) -> None:
    """After each request: the thread's next request chooses its own."""
    _CATALOG.set(None)


def request_gettext(text: str, **variables) -> str:
    """gettext from the catalog chosen for this request: a host screen's news makes thousands of
    calls, and looking the catalog up each time was a fifth of the answer's time."""
    text = _catalog().ugettext(text)
    return text % variables if variables else text


def request_ngettext(singular: str, plural: str, n: int) -> str:
    """ngettext from the catalog chosen for this request (engine phrases with a count)."""
    return _catalog().ngettext(singular, plural, n)


def _catalog():
    """This request's catalog; outside a request (a script, a test), Flask-Babel's own lookup."""
    catalog = _CATALOG.get()
    if catalog is None:
            catalog = get_translations()
    return catalog


def request_pgettext(context: str, message: str) -> str:
    """pgettext from the catalog chosen for this request (a letter that stands for a word, pictures/letters.py)."""
    return _catalog().pgettext(context, message)


# how `tr` finds the plural lookup that goes with it, and pictures the letters of colours, classes and rats
# (a function's own attributes, which mypy does not model)
request_gettext.ngettext = request_ngettext  # type: ignore[attr-defined]
request_gettext.pgettext = request_pgettext  # type: ignore[attr-defined]


def compile_catalogs(directory: Path) -> None:
    """Build each language's messages.mo from its messages.po when missing or older (only the .po is
    committed). Written atomically; a read-only install keeps whatever .mo it has."""
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
