"""The /catalog pages' views: a record's card (its face, each value in words with its source, what differs
from the shipped record), its correction form with each field and choice in words, a family's progress,
and what every catalog page shows at its top. The routes (catalog.py) decide; this draws."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TypedDict

from flask import render_template, request
from flask_babel import format_decimal
from markupsafe import Markup

from ...catalog import InForce
from ...catalog.corrections import differences, shipped_ids, shipped_record, source_of, values
from ...catalog.rewards import ICONS
from ...pictures.faces import face
from ...words import Text
from ..access import csrf_token
from ..translate import request_gettext
from .form import form_fields, lacking
from .words import in_words, label, say, shown

#: the families in the order a table checks a box: the city's tiles first, the boards' small print last
FAMILY_NAMES = {
    "hex": (Text("Neighborhood hexes"), Text("Hex")), "harbor": (Text("Harbor hexes"), Text("Harbor")),
    "boat": (Text("Boats"), Text("Boat")), "docking_tile": (Text("Docking tiles"), Text("Docking tile")),
    "wheel": (Text("Population wheel windows"), Text("Window")), "workshop": (Text("Workshops"), Text("Workshop")),
    "improvement": (Text("Cabin improvements"), Text("Improvement")), "wagon": (Text("Wagons"), Text("Wagon")),
    "solo_tile": (Text("Solo tiles"), Text("Solo tile")), "board": (Text("Player boards"), Text("Player board")),
    "scroll_board": (Text("Scroll boards"), Text("Scroll board")), "register": (Text("Registers"), Text("Register")),
    "round_info": (Text("Scoreboard rounds"), Text("Scoreboard side")),
    "priority_tile": (Text("Register priority tiles"), Text("Priority tile")),
    "rat_table": (Text("Rat penalties"), Text("Rat table")), "dock": (Text("Docks"), Text("Dock")),
    "layout": (Text("City layouts"), Text("Layout")),
}


class Card(TypedDict):
    """A record as its card shows it; rows and differences are (field in words, value, source / before, after)."""

    family: str
    id: str
    kind: Text  # "Hex": with number, how the box names it
    number: int
    face: Markup
    source: str  # the record's provenance: "rulebook", "assumed", "mixed" or "checked"
    corrected: bool  # the table's corrections file changed it
    rows: list[tuple[str, str, str]]
    differences: list[tuple[str, str, str]]


class FamilyProgress(TypedDict):
    family: str
    name: Text
    checked: int
    count: int


class CatalogTop(TypedDict):
    """What every catalog page shows at its top."""

    now: InForce
    admin: bool
    csrf: str
    checked: int
    total: int
    fingerprint: str  # its first 12 characters

def record_page(family: str, rid: str, plain: dict, now: InForce, admin: bool, problems=(), status: int = 200):
    """A record's page: its card as kept; after a refusal, the refusal (naming the record and the field,
    never a file) and the form as it was typed."""
    ids = shipped_ids(family)
    at = ids.index(rid)
    typed = request.form if problems else {}
    return render_template("catalog/record.html", **base(now, admin), family=family, title=FAMILY_NAMES[family][0],
                           card=card(family, rid, plain, now), fields=_form(family, form_fields(family, plain),
                                                                                 typed, now),
                           added=_form(family, lacking_fields(family, plain), typed, now),
                           problems=[in_words(p, record_name, family_name) for p in problems],
                           record_name=in_reader_words(record_name(family, rid)), previous=ids[at - 1] if at else None,
                           grammar_icons=[(icon, in_reader_words(meaning)) for icon, meaning in ICONS.items()],
                           next=ids[at + 1] if at + 1 < len(ids) else None), status


def _form(family: str, fields, typed, now) -> list:
    """Each field with its name in words and its choices in words, showing what was typed, if anything."""
    return [(replace(field, value=typed.get(field.name, field.value)), in_reader_words(label(field.name)),
             [(choice, in_reader_words(_choice(family, field, choice, now.catalog)) if choice else "—")
              for choice in field.choices]) for field in fields]


def lacking_fields(family: str, plain: dict) -> list:
    return lacking(family, plain, [shipped_record(family, other) for other in shipped_ids(family)])


def record_name(family: str, rid: str):
    """A record as the box names it: "Hex 4" (its kind and place in the family); an unknown one by its id."""
    ids = shipped_ids(family) if family in FAMILY_NAMES else []
    return Text("{kind} {number}", kind=FAMILY_NAMES[family][1], number=ids.index(rid) + 1) if rid in ids else rid


def family_name(family: str):
    return FAMILY_NAMES[family][0] if family in FAMILY_NAMES else family


def card(family: str, rid: str, plain: dict, now: InForce) -> Card:
    """One record as a card shows it: where it comes from, each value with its own source, what differs."""
    built = now.catalog.family(family)[rid]
    ids = shipped_ids(family)
    return {
        "family": family, "id": rid, "kind": FAMILY_NAMES[family][1], "number": ids.index(rid) + 1,
        "face": face(now.catalog, family, rid, _=request_gettext),
        "source": built.prov.source, "corrected": now.catalog.origins.get((family, rid)) == str(now.override),
        "rows": [(in_reader_words(label(name)), _value(family, name, value, now.catalog), source_of(plain, name))
                 for name, value in values(plain).items()],
        "differences": [(in_reader_words(label(name)), _value(family, name, before, now.catalog),
                         _value(family, name, after, now.catalog))
                        for name, before, after in differences(shipped_record(family, rid), plain)],
    }


def in_reader_words(text) -> str:
    return say(text, request_gettext)


def _value(family: str, name: str, value, catalog) -> str:
    """A value as the reader reads it, numbers written the reader's way (0,5 in French and German)."""
    return in_reader_words(shown(family, name, value, catalog, format_decimal))


def _choice(family: str, field, choice: str, catalog):
    """A choice of the form in words: "yes"/"no" are the form's own values for a yes-no field."""
    return shown(family, field.name, choice == "yes" if field.kind == "yes-no" else choice, catalog)


def progress(catalog) -> list[FamilyProgress]:
    rows: list[FamilyProgress] = []
    for family, (plural, _one) in FAMILY_NAMES.items():
        sources = Counter(r.prov.source for r in catalog.family(family).values())
        rows.append({"family": family, "name": plural, "checked": sources["checked"],
                     "count": sum(sources.values())})
    return rows


def base(now: InForce, admin: bool) -> CatalogTop:
    """What every catalog page shows at its top: the catalog in force and how much of it is checked."""
    sources = now.catalog.sources()
    return {"now": now, "admin": admin, "csrf": csrf_token(), "checked": sources["checked"],
            "total": sum(sources.values()), "fingerprint": now.catalog.fingerprint[:12]}
