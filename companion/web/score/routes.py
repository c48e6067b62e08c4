"""`/score`: final scoring for a game the companion did not track (issue 26). No game is made and nothing
is stored: the sheet is a GET form, so a filled sheet is its own link; its export and `POST /api/score`
answer the same breakdown as JSON, with the catalog's fingerprint.

The routes read the fields, and companion/scoresheet/ does the rest: the position is checked against the
catalog in force (a table's corrections count), built into the end of a game and scored by the engine's
own final scoring, so the breakdown is the one a tracked game shows, drawn by the same partial.
"""

from __future__ import annotations

import json
from typing import TypedDict

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from ...engine.pieces import Pieces
from ...engine.records import Scoring
from ...scoresheet import Refused, read_position, score_sheet
from ...scoresheet.fields import Position
from ...words import Text, put_text
from .. import catalog_desk
from ..address import public_base
from ..translate import request_gettext as _
from ..views import SYMBOLS
from .form import advanced_of, checked_name, form_name, players_of, sheet_data, sheet_query
from .screen import Typed, city_hexes, opponent_field, player_column

bp = Blueprint("score", __name__)


class CatalogUsed(TypedDict):
    fingerprint: str
    corrected: bool  # the table's corrections were in it


class Answer(TypedDict):
    """The export's file and /api/score's answer: the checked position, the engine's breakdown and its winners."""

    position: Position  # scoresheet.read_position's
    scoring: Scoring  # the engine's final scoring
    winners: list[str]
    catalog: CatalogUsed
    link: str  # the filled sheet's address


def in_force():
    """The catalog a new game would start with now (the table's corrections when they are valid), and
    whether corrections are in it."""
    fixed = current_app.config.get("CATALOG")
    if fixed is not None:
        return fixed() if callable(fixed) else fixed, False
    now = catalog_desk.now()
    return now.catalog, now.corrected


def _blank_name(i: int) -> str:
    return _("Player %(n)s", n=i + 1)


@bp.get("/score")
def sheet():
    catalog, _corrected = in_force()
    typed = Typed(request.args, players_of(request.args), advanced_of(request.args))
    state = problem = data = None
    if "score" in request.args:
        try:
            data = sheet_data(request.args, catalog, _blank_name)
            position = read_position(data, catalog)
            state = score_sheet(position, catalog)
        except Refused as exc:
            problem = put_text({"field": form_name(exc.field, data or {"seats": []})}, "message", exc.message)
    columns = [player_column(i, typed, catalog, _) for i in range(typed.players)]
    context = {"typed": typed, "columns": columns, "hexes": city_hexes(typed, catalog, columns, _),
               "opponent": opponent_field(typed, catalog, _) if typed.players == 1 else None,
               "problem": problem, "symbols": SYMBOLS}
    if problem:
        problem["field"] = _shown(problem["field"], context)
    if state is not None:
        query = sheet_query(position)
        assert state.scoring is not None  # a score sheet is a game's end
        winners = [state.seats[i].name for i in state.scoring["winners"]]
        context.update(pieces=Pieces(state), sc=state.scoring, winner_names=winners,
                       link=public_base() + url_for("score.sheet") + "?" + query,
                       export=url_for("score.export") + "?" + query)
    return render_template("score/sheet.html", **context), 400 if problem else 200


def _shown(field: str, context: dict) -> str:
    """The refused field as the page shows it; a field the page does not offer (a forged link's) is marked
    by its section: the player's column, or the city's hexes."""
    shown = {h["name"] for h in context["hexes"]} | {"opponent_popularity"}
    for col in context["columns"]:
        shown |= {col["prefix"] + "name", col["prefix"] + "colour"}
        shown |= {f["name"] for sec in col["sections"] for f in sec["fields"] + sec.get("tracks", [])}
    if field in shown:
        return field
    if field.startswith("hex"):
        return "hexes"
    head = field.split(".")[0]
    return head if head[:1] == "p" and head[1:].isdigit() else "sheet"


@bp.get("/score/export.json")
def export():
    """The filled sheet as a file: the position, the breakdown and the catalog it was scored with."""
    catalog, corrected = in_force()
    try:
        position = read_position(sheet_data(request.args, catalog, _blank_name), catalog)
    except Refused as exc:
        return _refused(exc)
    body = json.dumps(_answer(position, catalog, corrected), indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": "attachment; filename=messina-score.json"})


@bp.post("/api/score")
def api_score():
    """The same position as JSON (the export's "position" is one): the breakdown, or 400 naming the field."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # absurdly nested JSON
        data = None
    catalog, corrected = in_force()
    try:
        if not isinstance(data, dict):
            raise Refused("", Text("Send a JSON object."))
        seats = data.get("seats")
        for i, seat in enumerate(seats if isinstance(seats, list) else []):
            if isinstance(seat, dict) and isinstance(seat.get("name"), str):
                seat["name"] = checked_name(seat["name"], i) or None
        position = read_position(data, catalog)
    except Refused as exc:
        return _refused(exc)
    return jsonify(_answer(position, catalog, corrected))


def _answer(position: Position, catalog, corrected: bool) -> Answer:
    state = score_sheet(position, catalog)
    assert state.scoring is not None  # a score sheet is a game's end
    return {"position": position, "scoring": state.scoring,
            "winners": [state.seats[i].name for i in state.scoring["winners"]],
            "catalog": {"fingerprint": catalog.fingerprint, "corrected": corrected},
            "link": public_base() + url_for("score.sheet") + "?" + sheet_query(position)}


def _refused(exc: Refused):
    return jsonify({"error": str(exc.message), "field": exc.field}), 400
