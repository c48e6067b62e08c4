"""Which places of the city the host's map marks, and with what label.

The table has no ids: a step of the setup checklist or the upkeep report that is about places ("put a
cube on each marked hex") carries them (`places`) and a `mark`, its step number; the map outlines those
places and labels them with the number, so the step and the map point at each other. A host question
about a place ("Which hex is on the marked space?") marks it with "?".
"""

from __future__ import annotations

from ..engine import pending
from ..engine.records import Step

ASKED = "?"


def checklist(state) -> list[Step]:
    """The steps the table is carrying out now: the setup steps while setting up; the upkeep report
    during the upkeep and until the round's first move (after it, marks on the map would only be in
    the way of play)."""
    if state.phase == "setup":
        return state.setup_steps
    last = state.log[-1] if state.log else {}
    return state.report if state.phase == "upkeep" or (last.get("data") or {}).get("table") else []


def step_marks(state) -> dict[str, str]:
    """Place ("hex:<tile>", "dock:<id>", "space:<id>") → its label; a place two steps name shows both."""
    marks: dict[str, list[str]] = {}
    for step in checklist(state):
        for place in (step.get("data") or {}).get("places", []):
            marks.setdefault(place, []).append(step.get("mark") or str(step["step"]))
    for q in pending(state):
        if q["who"] == "host":
            for place in q.get("places", []):
                marks.setdefault(place, []).append(ASKED)
    return {place: "·".join(dict.fromkeys(labels)) for place, labels in marks.items()}
