"""Engine text in the reader's language, and the compiled catalogs that make it possible.

The engine stores English next to its template (companion/words.py): a log entry has "text",
"msg" and "args"; a menu option "label", "label_msg" and "label_args"; and so on. `tr` shows such text
translated: gettext on the template, then the values filled in, each translated the same way (a
nested template, or a single lowercase word such as a citizen class or a colour). Text stored without
a template goes through gettext whole. A phrase with a count ("1 coin" / "2 coins") also keeps its
plural template, and is shown through ngettext. Pure: the gettext function is passed in (the app passes
Flask-Babel's), so pictures and tests can use it too; its plural lookup travels with it as its
`ngettext` attribute (without one, English rules pick the form).
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Callable

from ..words import stored_keys

Gettext = Callable[[str], str]
WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # a class, colour or track word ("register-city")


def _same(s: str) -> str:
    return s


def tr(obj: Any, key: str = "text", _: Gettext = _same, literal: bool = False) -> str:
    """obj[key] in the reader's language; the English as stored when the translation does not fit.
    `literal`: only templates are translated, every other value stays as written (the catalog's paths,
    families, ids and field names in a loader's problem, which are the same in every language)."""
    if not obj:
        return ""
    english = obj.get(key)
    names = stored_keys(key)
    msg = obj.get(names[0])
    if msg is not None:
        try:
            return _render(msg, obj.get(names[1]) or {}, _, obj.get(names[2]), literal)
        except (KeyError, IndexError, ValueError, AttributeError):  # a translation naming an unknown value
            logging.getLogger(__name__).warning("translation of %r does not fit its values", msg)
    return _(english) if english else ""


def _render(msg: str, args: dict, _: Gettext, plural: str | None = None, literal: bool = False) -> str:
    text = _plural(_, msg, plural, args["n"]) if plural else _(msg)
    if not args:
        return text
    return text.format(**{k: _value(v, _, literal) for k, v in args.items()})


def _plural(_: Gettext, singular: str, plural: str, n: int) -> str:
    """The form of a phrase with a count for `n`: the catalog's own plural rule when `_` carries one."""
    many = getattr(_, "ngettext", None)
    if many is not None:
        return many(singular, plural, n)
    return _(singular if n == 1 else plural)


def _value(value: Any, _: Gettext, literal: bool = False) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return _render(value["msg"], value.get("args") or {}, _, value.get("plural"), literal)
    if isinstance(value, str) and not literal and WORD.fullmatch(value):
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
    text = _catalog().ugettext(text)
    return text % variables if variables else text


def request_ngettext(singular: str, plural: str, n: int) -> str:
    """ngettext from the catalog chosen for this request (engine phrases with a count)."""
    return _catalog().ngettext(singular, plural, n)


def _catalog():
    """This request's catalog; outside a request (a script, a test), Flask-Babel's own lookup."""
    catalog = _CATALOG.get()
    if catalog is None:
        from flask_babel import get_translations

        catalog = get_translations()
    return catalog


def request_pgettext(context: str, message: str) -> str:
    """pgettext from the catalog chosen for this request (a letter that stands for a word, web/draw/letters.py)."""
    return _catalog().pgettext(context, message)


request_gettext.ngettext = request_ngettext  # how `tr` finds the plural lookup that goes with it
request_gettext.pgettext = request_pgettext  # and pictures the letters of colours, classes and rats


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
