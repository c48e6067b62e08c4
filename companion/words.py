"""Text that can be translated later (engine and catalog): the English now, with its template and values kept.

The engine stays pure (no Babel, no locale), so it writes English, but through `Text`:

    Text("{who} takes boat {boat}.", who=..., boat=...)

is the English sentence (a `str`, so every caller and test reads it as before) that also carries
`.msg`, the template (a gettext msgid: pybabel extracts `Text` like `_`), and `.args`, its values as plain
JSON data. A nested Text value becomes {"msg": ..., "args": ...}, so it is translated on its own.
A phrase with a count has two templates: `Plural("{n} coin", "{n} coins", n=2)` keeps the singular as `.msg`
and the plural as `.plural` (stored beside them), so a translation chooses its own plural form
(gettext's ngettext; pybabel extracts `Plural` as `Plural:1,2`).
Where text is stored (log, setup steps, upkeep report, menus, prompts, scoring) `put_text` saves the
template beside the English, and the web layer shows `gettext(msg).format(**translated args)`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload


class Text(str):
    """An English string made from a template; `.msg` and `.args` say how to make it in another language."""

    msg: str
    args: dict[str, Any]
    plural: str | None = None  # the plural template of a phrase with a count (`Plural`); its count is args["n"]
    _plain: dict[str, Any]  # its stored form, made once (`plain`)

    def __new__(cls, template: str, /, **params: Any) -> Text:
        if not params:  # a fixed sentence: nothing to format (menus build many of these)
            self = str.__new__(cls, template)
            self.msg, self.args = template, {}
            return self
        self = str.__new__(cls, template.format_map(params))
        for k, v in params.items():  # `params` is this call's own dict: made plain in place
            if type(v) not in _SIMPLE:
                params[k] = plain(v)
        self.msg, self.args = template, params
        return self

    def __reduce__(self):  # copy/pickle rebuild from the stored parts, never re-format the English
        return _rebuild, (str(self), self.msg, self.args, self.plural)


_SIMPLE = frozenset((str, int, float))


def Plural(singular: str, plural: str, /, n: int, **params: Any) -> Text:
    """A phrase with a count `n`: "1 coin", "2 coins". English picks by n == 1; the other languages
    by their own plural rules, from both templates kept."""
    self = Text(singular if n == 1 else plural, n=n, **params)
    self.msg, self.plural = singular, plural
    return self


def _rebuild(english: str, msg: str, args: dict, plural: str | None = None) -> Text:
    self = str.__new__(Text, english)
    self.msg, self.args = msg, args
    if plural:
        self.plural = plural
    return self


def _stored(value: Any) -> bool:
    """A text as `plain` stores it: {"msg", "args"}, and "plural" for a phrase with a count."""
    return (isinstance(value, dict) and "msg" in value and "args" in value
            and (len(value) == 2 or (len(value) == 3 and "plural" in value)))


def plain(value: Any) -> Any:
    """A template value as JSON data: a Text keeps its own template (as a dict); numbers stay numbers.
    Also how text waits inside saved work (a task's "why"): `again` makes it text once more."""
    if isinstance(value, Text):
        stored = value.__dict__.get("_plain")  # a Text never changes: its plain form is made once
        if stored is None:
            stored = {"msg": value.msg, "args": value.args}
            if value.plural:
                stored["plural"] = value.plural
            value._plain = stored
        return stored
    if _stored(value):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def from_plain(value: Any) -> Any:
    """The text a `plain` value stood for: a Text again for {"msg", "args"}, anything else unchanged."""
    if _stored(value):
        args = {k: from_plain(v) for k, v in value["args"].items()}
        plural = value.get("plural")
        english = plural if plural and args.get("n") != 1 else value["msg"]
        return _rebuild(english.format(**args), value["msg"], value["args"], plural)
    return value


def faces_in(args: Any) -> list[str]:
    """The components a stored text names ("hex:n04"…), in order: the hidden `face` values that
    engine/describe.py puts in a component's name, however deep the name is nested."""
    found: list[str] = []
    _find_faces(args, found)
    return found


def _find_faces(args: Any, found: list[str]) -> None:
    if isinstance(args, dict):
        for key, value in args.items():
            if key == "face" and isinstance(value, str):
                if value not in found:
                    found.append(value)
            elif isinstance(value, dict):
                _find_faces(value, found)


def joined(items, sep: str = ", ") -> Text:
    """`sep.join(items)`, keeping each item translatable (class words, Texts); the separator is kept as is."""
    values = {f"i{n}": item for n, item in enumerate(items)}
    return Text(sep.join("{" + k + "}" for k in values), **values)


#: a record put_text writes into: a TypedDict (engine/records.py), handed back as its own type
Entry = TypeVar("Entry", bound=Mapping[str, Any])


@overload
def put_text(entry: dict[str, Any], key: str, text: Any) -> dict[str, Any]: ...
@overload
def put_text(entry: Entry, key: str, text: Any) -> Entry: ...


def put_text(entry: Any, key: str, text: Any) -> Any:
    """Store `text` at entry[key] as a plain str; a Text also leaves `<key>_msg`/`<key>_args`, and
    `<key>_plural` for a phrase with a count (for the key "text" of log entries and table steps:
    "msg"/"args"/"plural")."""
    if type(text) is Text:
        msg, args, plural = _KEYS.get(key) or stored_keys(key)
        entry[key], entry[msg], entry[args] = str(text), text.msg, text.args
        if text.plural:
            entry[plural] = text.plural
    else:
        entry[key] = text
    return entry


def stored_keys(key: str) -> tuple[str, str, str]:
    """Where `keep` puts the template, values and plural template of the text stored at `key`."""
    return ("msg", "args", "plural") if key == "text" else (key + "_msg", key + "_args", key + "_plural")


_KEYS = {k: stored_keys(k) for k in ("text", "label", "reason", "cost", "prompt", "detail", "tiebreak")}


#: Single words the engine passes as values (citizen classes, colours, registers, cargo, rats, branches,
#: tile kinds): written out here so extraction puts them in the catalog. The web layer translates any
#: value that is one lowercase word.
VOCABULARY = (
    Text("aristocrat"), Text("nun"), Text("craftsman"), Text("red"), Text("yellow"), Text("blue"), Text("green"),
    Text("white"),
    Text("orange"), Text("popularity"), Text("city"), Text("church"), Text("silk"), Text("spices"), Text("stones"),
    Text("standing"),
    Text("left"), Text("right"), Text("improvements"), Text("workshops"), Text("improvement"), Text("workshop"),
    Text("buildings"),
    Text("repopulated"), Text("overseers"), Text("coins"), Text("boats"), Text("lumber"), Text("goods"), Text("none"),
    Text("register-popularity"), Text("register-city"), Text("register-church"),  # scroll tracks of the b boards
)


# Stored text shown in the reader's language: `tr` is pure, the gettext function is passed in (the app
# passes the request's, web/translate.py), so pictures and tests use it too; its plural lookup travels with
# it as its `ngettext` attribute (without one, English rules pick the form).

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
    text = plural_form(_, msg, plural, args["n"]) if plural else _(msg)
    if not args:
        return text
    return text.format(**{k: _value(v, _, literal) for k, v in args.items()})


def plural_form(_: Gettext, singular: str, plural: str, n: int) -> str:
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
