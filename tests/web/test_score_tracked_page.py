"""The score sheet shows a tracked game's finale as the host screen does (issue 26): a game played to its
end through the API, its end position (as the host's state gives it) opened as a score sheet; the sheet's
breakdown table is the host's, cell for cell, as both pages draw it with the same partial."""

from __future__ import annotations

import random
import re

import pytest

from companion.catalog import shipped_catalog
from companion.engine import state_from_dict
from companion.scoresheet import position_of, read_position
from companion.web import create_app
from companion.web.score.form import sheet_query
from tables import drive

pytestmark = pytest.mark.slow

TABLE = re.compile(r'<table class="scoring">.*?</table>', re.S)


@pytest.mark.parametrize("players,advanced,seed", [(3, False, 21), (1, True, 22)])
def test_the_sheet_of_a_tracked_games_end_shows_the_hosts_finale(tmp_path, players, advanced, seed):
    """R-SCORE-1…7, R-ADV-3, R-SOLO-8: the host's final scoring and the sheet's, table for table."""
    client = create_app({"INSTANCE": str(tmp_path), "TESTING": True}).test_client()
    names = [("Ada", "red"), ("Bruno", "yellow"), ("Chiara", "blue")][:players]
    game = client.post("/api/games", json={"players": [{"name": n, "colour": c} for n, c in names], "seed": seed,
                                           "advanced": advanced}).get_json()
    for s in game["seats"]:
        s["device"] = client.post(f"/api/seats/{s['token']}/join", json={}).get_json()["device"]
    host = {"X-Host-Token": game["host_token"]}
    st = drive(client, game, random.Random(seed))
    finale = client.get(f"/host/{game['id']}/part/scoring", headers=host).get_data(as_text=True)
    state = state_from_dict(st["state"], shipped_catalog())
    position = read_position(position_of(state), shipped_catalog())
    sheet = client.get("/score?" + sheet_query(position)).get_data(as_text=True)
    assert TABLE.search(finale).group(0) == TABLE.search(sheet).group(0)
    assert re.search(r'<p class="winner">.*?</p>', finale, re.S).group(0) == \
        re.search(r'<p class="winner">.*?</p>', sheet, re.S).group(0)
