"""The score sheet (issue 26): whole sheets worked out by hand from RULES.md (tests/sheets.py) give exactly
those lines, totals and winners through `POST /api/score` and through the `/score` page; a finished
tracked game's end position scores exactly as the tracked finale did; the export carries the catalog's
fingerprint, and a table's corrections count."""

from __future__ import annotations

import copy
import json
import re
from urllib.parse import parse_qsl

import pytest
from werkzeug.datastructures import MultiDict

from companion.catalog import shipped_catalog
from companion.catalog.corrections import shipped_record
from companion.catalog.write import toml_text
from companion.scoresheet import read_position, score_sheet
from companion.simulate import play_game
from companion.web import create_app
from companion.web.score.form import sheet_data, sheet_query
from sheets import CATALOG_VALUES, SHEETS


def api(client, position) -> dict:
    r = client.post("/api/score", json=position)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_the_hand_sums_read_these_catalog_values():
    """tests/sheets.py adds up values of the shipped catalog (M-7, M-16, M-17, Q-2): they are what it read."""
    c = shipped_catalog()
    assert [s.vp for s in c.register("city", 2).spaces] == CATALOG_VALUES["register_vp_2p"]
    assert [s.vp for s in c.register("popularity", 4).spaces] == CATALOG_VALUES["register_vp_3-4p"]
    for kind in ("city", "church"):
        assert [s.vp for s in c.register(kind, 3).spaces] == CATALOG_VALUES["register_vp_3-4p"], kind
    reg = c.register("city", 4)
    assert (reg.single_bar, reg.double_bar) == CATALOG_VALUES["bars_3-4p"]
    assert list(c.rat_table.penalty) == CATALOG_VALUES["rat_penalty"]
    for board in ("a", "b1", "b2", "b3", "b4"):
        tracks = c.scroll_boards[board].tracks
        levels = {t.id: [list(v) if isinstance(v, tuple) else v for v in t.levels] for t in tracks}
        assert levels == CATALOG_VALUES[f"scroll_{board}"], board
    assert {h: c.hexes[h].repop_vp for h in CATALOG_VALUES["hex_vp"]} == CATALOG_VALUES["hex_vp"]


@pytest.mark.parametrize("case", sorted(SHEETS))
def test_a_sheet_worked_by_hand_scores_the_same_through_the_api(client, case):
    """Every line of tests/sheets.py: R-SCORE-7 game VP, R-END-2 rats (stopping at the start space), R-SCORE-1
    registers, R-SCORE-3 hexes, R-SCORE-4 and R-ADV-4, R-ADV-5, R-ADV-6 scroll tracks, R-SCORE-5 tokens,
    R-SCORE-2 placement (fire breaks a tie, a major fire counting 2), R-ADV-3 majority (tie split, Q-13),
    R-SOLO-8 and R-SOLO-9 (Q-19), R-SOLO-10 target, R-SCORE-6 winner and its tiebreaks."""
    sheet = SHEETS[case]
    out = api(client, sheet["position"])
    sc = out["scoring"]
    for seat, expected in zip(sc["seats"], sheet["lines"]):
        assert {ln["key"]: ln["points"] for ln in seat["lines"]} == expected, (case, seat["name"])
    assert [x["total"] for x in sc["seats"]] == sheet["totals"]
    assert out["winners"] == sheet["winners"]
    assert sc.get("tiebreak") == sheet["tiebreak"]
    assert sc.get("target") == sheet.get("target")


@pytest.mark.parametrize("case", sorted(SHEETS))
def test_a_sheet_worked_by_hand_scores_the_same_on_the_page(client, case):
    """The page's own fields (its shareable query) give the same totals, winner and tiebreak (R-SCORE-6)."""
    sheet = SHEETS[case]
    position = read_position(copy.deepcopy(sheet["position"]), shipped_catalog())
    r = client.get("/score?" + sheet_query(position))
    assert r.status_code == 200, r.get_data(as_text=True)[:400]
    page = r.get_data(as_text=True)
    wide, narrow = page.split('class="bars bars-narrow"')  # the bars twice: beside their words, and for a phone
    for bars in (wide, narrow):
        assert [int(t) for t in re.findall(r'class="score-seat[^"]*" data-seat="\d" data-total="(-?\d+)"', bars)] == \
            sheet["totals"]
    winner = re.search(r'<p class="winner">(.*?)</p>', page, re.S).group(1)
    assert re.findall(r"<strong>(.*?)</strong>", winner) == sheet["winners"]
    if sheet["tiebreak"]:
        assert sheet["tiebreak"] in re.sub(r"<[^>]+>", "", winner)  # its rule cited as a link (issue 35)
    rows = re.findall(r'<tr class="total"><td>Total</td>(.*?)</tr>', page)[0]
    assert re.findall(r"<td>(-?\d+) \(rank", rows) == [str(t) for t in sheet["totals"]]


@pytest.mark.parametrize("case", sorted(SHEETS))
def test_the_pages_query_reads_back_as_the_same_position(case):
    """The sheet's link is its state: the query written for a position reads back as that position."""
    catalog = shipped_catalog()
    position = read_position(copy.deepcopy(SHEETS[case]["position"]), catalog)
    args = MultiDict(parse_qsl(sheet_query(position)))
    again = read_position(sheet_data(args, catalog, lambda i: f"Player {i + 1}"), catalog)
    assert again == position


@pytest.mark.parametrize("players,advanced,seed", [(1, False, 3), (1, True, 4), (2, False, 5), (2, True, 6),
                                                    (3, False, 7), (3, True, 8), (4, False, 9), (4, True, 10)])
def test_a_tracked_games_end_position_scores_as_the_tracked_finale(client, players, advanced, seed):
    """A finished simulated game's end, written as a sheet (scoresheet.position_of), sent to /api/score:
    every line, detail, rule, total, rank, the winners, the tiebreak and the solo target are the tracked
    game's own (one scoring function serves both)."""
    from companion.scoresheet import position_of

    game = play_game(players, seed, advanced=advanced, check=False).state
    out = api(client, json.loads(json.dumps(position_of(game))))
    assert out["scoring"] == json.loads(json.dumps(game.scoring))
    assert out["winners"] == [game.seats[i].name for i in game.scoring["winners"]]


def test_the_breakdown_is_the_engines_final_scoring_of_the_sheets_position():
    """Nothing is computed twice: the sheet's state is scored by engine.final_scoring, which ends it."""
    catalog = shipped_catalog()
    state = score_sheet(read_position(copy.deepcopy(SHEETS["solo (R-SOLO-8, R-SOLO-9)"]["position"]), catalog),
                        catalog)
    assert state.phase == "over" and state.scoring["seats"][0]["total"] == 217
    assert any("Final scoring: Ada" in e["text"] for e in state.log)


def test_the_export_carries_the_position_the_breakdown_and_the_catalog_fingerprint(client):
    catalog = shipped_catalog()
    sheet = SHEETS["3p rat penalty stops at the start space (R-END-2)"]
    position = read_position(copy.deepcopy(sheet["position"]), catalog)
    query = sheet_query(position)
    page = client.get("/score?" + query).get_data(as_text=True)
    export = re.search(r'href="(/score/export\.json\?[^"]+)"', page).group(1).replace("&amp;", "&")
    r = client.get(export)
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert "attachment" in r.headers["Content-Disposition"]
    body = json.loads(r.get_data(as_text=True))
    assert body["catalog"] == {"fingerprint": catalog.fingerprint, "corrected": False}
    assert [x["total"] for x in body["scoring"]["seats"]] == sheet["totals"]
    assert body["position"] == json.loads(json.dumps(position))
    assert body["link"].endswith("/score?" + query)
    again = api(client, body["position"])  # the export's position is what the API takes
    assert again["scoring"] == body["scoring"]


def test_the_link_reopens_the_filled_sheet_with_its_result(client):
    position = read_position(copy.deepcopy(SHEETS["2p popularity tie broken by fire (R-SCORE-2)"]["position"]),
                             shipped_catalog())
    page = client.get("/score?" + sheet_query(position)).get_data(as_text=True)
    link = re.search(r'id="sheet-link" type="url" readonly value="([^"]+)"', page).group(1).replace("&amp;", "&")
    again = client.get(link.split("localhost", 1)[1]).get_data(as_text=True)
    assert 'value="Ada"' in again and 'name="p0.city" value="6" checked' in again
    assert re.findall(r'data-total="(\d+)"', again) == ["114", "123"] * 2  # the wide bars, and a phone's


def test_a_tables_corrections_count_on_the_sheet(tmp_path, monkeypatch):
    """The catalog in force (R-SCORE-1, R-SCORE-3, R-END-2 read printed values): a table's corrected rat
    table, city register and hex VP change the sheet's pictures, its score and its fingerprint."""
    folder = tmp_path / "instance"
    folder.mkdir()
    monkeypatch.setenv("MESSINA_CATALOG", str(folder / "catalog.toml"))
    city = shipped_record("register", "city-2p")
    city["space"][6]["vp"] = 9  # space 6 of the 2p city register: 3 VP as shipped
    hex07 = dict(shipped_record("hex", "n07"), repop_vp=7)  # 6 as shipped
    rats = dict(shipped_record("rat_table", "rats"), penalty=[0, 1, 2, 3, 5, 8, 11, 13, 16, 19, 21])  # 3 rats: 3
    (folder / "catalog.toml").write_text(toml_text({"register": [city], "hex": [hex07], "rat_table": [rats]}),
                                         encoding="utf-8")
    client = create_app({"INSTANCE": str(folder), "TESTING": True}).test_client()
    sheet = SHEETS["2p popularity tie broken by fire (R-SCORE-2)"]
    out = api(client, copy.deepcopy(sheet["position"]))
    assert out["catalog"]["corrected"] is True and out["catalog"]["fingerprint"] != shipped_catalog().fingerprint
    ada = {ln["key"]: ln["points"] for ln in out["scoring"]["seats"][0]["lines"]}
    assert (ada["rats"], ada["register-city"], ada["repopulated"]) == (-3, 9, 7)
    assert out["scoring"]["seats"][0]["total"] == sheet["totals"][0] - 1 + 6 + 1
    page = client.get("/score?players=2").get_data(as_text=True)
    assert re.search(r'name="p0.city" value="6"><svg[^>]*aria-label="space 7: [^"]*; 9 VP"', page)
    assert re.search(r'data-id="n07"[^>]*>(?:(?!</svg>).)*; 7 VP\.', page, re.S)  # n07's face: the corrected VP


def test_the_front_page_links_the_score_sheet(client):
    page = client.get("/").get_data(as_text=True)
    assert 'href="/score"' in page


def test_an_empty_sheet_asks_for_every_count_and_mode(client):
    for players in ("1", "2", "3", "4"):
        for advanced in ("0", "1"):
            r = client.get(f"/score?players={players}&advanced={advanced}")
            assert r.status_code == 200
            page = r.get_data(as_text=True)
            assert page.count('class="panel player"') == int(players)
            assert ("opponent_popularity" in page) == (players == "1")
            assert ('name="p0.overseers.nun"' in page) == (advanced == "1")


def test_R_ADV_1_side_a_may_be_mixed_into_the_advanced_game(client):
    """R-ADV-1 allows mixing a with b: Dario plays side a in the 4-player advanced sheet; his scroll lines
    are side a's (R-SCORE-4), the others' b boards still score by R-ADV-4."""
    sheet = copy.deepcopy(SHEETS["4p advanced majority tie split evenly (R-ADV-3, Q-13)"])
    dario = sheet["position"]["seats"][3]
    dario.update(scroll_board="a", scroll={"buildings": 3, "boats": 1}, improvements=2, overseers={})
    out = api(client, sheet["position"])
    lines = {ln["key"]: (ln["points"], ln["rule"]) for ln in out["scoring"]["seats"][3]["lines"]}
    assert {k: v for k, v in lines.items() if k.startswith("scroll-")} == {
        "scroll-buildings": (6, "R-SCORE-4"),  # 2 improvements × 3
        "scroll-boats": (2, "R-SCORE-4"),  # 1 boat × 2
        "scroll-repopulated": (0, "R-SCORE-4")}
    assert out["scoring"]["seats"][3]["total"] == 23 - 3 + 8
    assert [x["total"] for x in out["scoring"]["seats"][:3]] == sheet["totals"][:3]
