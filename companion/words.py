"""Text that can be translated later (engine and catalog): the English now, with its template and values kept.

The engine stays pure (no Babel, no locale), so it writes English, but through `T`:

    T("{who} takes boat {boat}.", who=..., boat=...)

is the English sentence (a `str`, so every caller and test reads it as before) that also carries
`.msg`, the template (a gettext msgid: pybabel extracts `T` like `_`), and `.args`, its values as plain
JSON data. A nested Text value becomes {"msg": ..., "args": ...}, so it is translated on its own.
Where text is stored (log, setup steps, upkeep report, menus, prompts, scoring) `keep` saves the
template beside the English, and the web layer shows `gettext(msg).format(**translated args)`.
"""

from __future__ import annotations

from typing import Any


class Text(str):
    """An English string made from a template; `.msg` and `.args` say how to make it in another language."""

    msg: str
    args: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> "Text":
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
        return _rebuild, (str(self), self.msg, self.args)


T = Text
_SIMPLE = frozenset((str, int, float))


def _rebuild(english: str, msg: str, args: dict) -> Text:
    self = str.__new__(Text, english)
    self.msg, self.args = msg, args
    return self


def plain(value: Any) -> Any:
    """A template value as JSON data: a Text keeps its own template (as a dict); numbers stay numbers.
    Also how text waits inside saved work (a task's "why"): `again` makes it text once more."""
    if isinstance(value, Text):
        return {"msg": value.msg, "args": value.args}
    if isinstance(value, dict) and value.keys() == {"msg", "args"}:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def again(value: Any) -> Any:
    """The text a `plain` value stood for: a Text again for {"msg", "args"}, anything else unchanged."""
    if isinstance(value, dict) and value.keys() == {"msg", "args"}:
        args = {k: again(v) for k, v in value["args"].items()}
        return _rebuild(value["msg"].format(**args), value["msg"], value["args"])
    return value


def faces_in(args: Any) -> list[str]:
    """The components a stored text names ("hex:n04"…), in order: the hidden `face` values that
    engine/describe.py puts in a component's name, however deep the name is nested."""
    found: list[str] = []
    if isinstance(args, dict):
        for key, value in args.items():
            if key == "face" and isinstance(value, str):
                found.append(value)
            else:
                found.extend(f for f in faces_in(value) if f not in found)
    return found


def joined(items, sep: str = ", ") -> Text:
    """`sep.join(items)`, keeping each item translatable (class words, Texts); the separator is kept as is."""
    values = {f"i{n}": item for n, item in enumerate(items)}
    return Text(sep.join("{%s}" % k for k in values), **values)


def keep(entry: dict, key: str, text: Any) -> dict:
    """Store `text` at entry[key] as a plain str; a Text also leaves `<key>_msg`/`<key>_args` (for the
    key "text" of log entries and table steps: "msg"/"args")."""
    if type(text) is Text:
        msg, args = _KEYS.get(key) or (key + "_msg", key + "_args")
        entry[key], entry[msg], entry[args] = str(text), text.msg, text.args
    else:
        entry[key] = text
    return entry


_KEYS = {k: (k + "_msg", k + "_args") for k in ("label", "reason", "cost", "prompt", "detail", "tiebreak")}
_KEYS["text"] = ("msg", "args")


#: Single words the engine passes as values (citizen classes, colours, registers, cargo, rats, branches,
#: tile kinds): written out here so extraction puts them in the catalog. The web layer translates any
#: value that is one lowercase word.
VOCABULARY = (
    T("aristocrat"), T("nun"), T("craftsman"), T("red"), T("yellow"), T("blue"), T("green"), T("white"),
    T("orange"), T("popularity"), T("city"), T("church"), T("silk"), T("spices"), T("stones"), T("standing"),
    T("left"), T("right"), T("improvements"), T("workshops"), T("improvement"), T("workshop"), T("buildings"),
    T("repopulated"), T("overseers"), T("coins"), T("boats"), T("lumber"), T("goods"), T("none"),
)
