"""What no game ends with is refused by the score sheet with a message naming the field (issue 26): more
rats or tokens than the sheet takes (C-19), a register space past its end (M-7), a scroll level off its
track (Q-17), more than 5 repopulated hexes (R-COMP-3), more workshops than the game has (R-COMP-2), and
every malformed body; through `POST /api/score` (400 with the field's path) and on the page (400, the
message above the sheet in the reader's language, the field marked). Nothing ever answers 500."""

from __future__ import annotations

import copy
import re

import pytest

from sheets import SHEETS

BASE = SHEETS["3p rat penalty stops at the start space (R-END-2)"]["position"]
ADVANCED = SHEETS["4p advanced majority tie split evenly (R-ADV-3, Q-13)"]["position"]


def changed(base: dict, seat: int | None, **fields) -> dict:
    out = copy.deepcopy(base)
    (out["seats"][seat] if seat is not None else out).update(fields)
    return out


#: (what is wrong, position, field named, words the message must hold)
REFUSED = [
    ("more rats than the sheet takes (C-19)", changed(BASE, 0, rats=100), "seats[0].rats", "Ada, rats: at most 99"),
    ("a register space past its end (M-7)", changed(BASE, 1, city=15), "seats[1].city",
     "Bruno, city register: the register's spaces go from 0 (its start) to 14"),
    ("a 2p register is shorter (R-SETUP-12)", changed(SHEETS["solo (R-SOLO-8, R-SOLO-9)"]["position"], 0, church=14),
     "seats[0].church", "to 13"),
    ("a scroll level off its track (Q-17)", changed(BASE, 2, scroll={"buildings": 6}), "seats[2].scroll.buildings",
     "Chiara, scroll track: buildings: the track's levels go from 0 (its start) to 5"),
    ("more than 5 repopulated hexes (R-COMP-3)",
     changed(BASE, 0, repopulated=["n01", "n02", "n03", "n04", "n06", "n07"]), "seats[0].repopulated",
     "at most 5, as each player has 5 repopulation tiles"),
    ("more workshops than the game has (R-COMP-2)",
     changed(changed(BASE, 0, workshops=20), 2, workshops=14), "seats[2].workshops",
     "the game has 33 workshops, and the sheet counts 35 in all"),
    ("more improvements than cabins (M-14)", changed(BASE, 1, improvements=5), "seats[1].improvements",
     "a player board has 4 quarantine cabins"),
    ("more wagons than a 2p game has (R-SETUP-10)",
     changed(SHEETS["tie broken by repopulated hexes (R-SCORE-6)"]["position"], 1, wagons=6), "seats[1].wagons",
     "a game of 2 players has 5 wagons"),
    ("more silk boats than printed (R-COMP-2)", changed(BASE, 0, boats={"silk": 4}), "seats[0].boats.silk",
     "the game has 3 of these boats"),
    ("precious stones in a 2p game (R-SETUP-8)",
     changed(SHEETS["tie broken by repopulated hexes (R-SCORE-6)"]["position"], 0, boats={"stones": 1}),
     "seats[0].boats.stones", "returns these boats to the box"),
    ("an unknown cargo", changed(BASE, 0, boats={"gold": 1}), "seats[0].boats.gold", "the boats carry"),
    ("a hex repopulated twice (R-REPOP-2)", changed(BASE, 1, repopulated=["n07"]), "seats[1].repopulated[0]",
     "carries Ada's repopulation tile already"),
    ("a hex without requirements (R-REPOP-2)", changed(BASE, 0, repopulated=["n05"]), "seats[0].repopulated[0]",
     "never repopulated"),
    ("a 4p-only hex in a 3p game (R-SETUP-1)", changed(BASE, 0, repopulated=["n12"]), "seats[0].repopulated[0]",
     "not in a game of 3 players"),
    ("no such hex", changed(BASE, 0, repopulated=["x99"]), "seats[0].repopulated[0]", "no such neighborhood hex"),
    ("a hex listed twice", changed(BASE, 0, repopulated=["n01", "n01"]), "seats[0].repopulated[1]", "listed twice"),
    ("an overseer past the centre (R-OVS-3)", changed(ADVANCED, 1, overseers={"nun": 7}), "seats[1].overseers.nun",
     "a path has 6 steps"),
    ("a b scroll board in the standard game (R-SETUP-14)", changed(BASE, 0, scroll_board="b1", scroll={}),
     "seats[0].scroll_board", "the standard game plays side a"),
    ("one b board twice (R-ADV-1)", changed(ADVANCED, 1, scroll_board="b1", scroll={}), "seats[1].scroll_board",
     "Ada has that scroll board already"),
    ("a track the board lacks", changed(BASE, 0, scroll={"coins": 1}), "seats[0].scroll.coins", "no field coins"),
    ("two players of one colour (R-SETUP-14)", changed(BASE, 2, colour="red"), "seats[2].colour",
     "Ada plays that colour already"),
    ("two players of one name", changed(BASE, 1, name="ada"), "seats[1].name", "Ada has that name already"),
    ("a colour the game lacks", changed(BASE, 0, colour="purple"), "seats[0].colour", "red, yellow, blue or green"),
    ("a name with a control character", changed(BASE, 0, name="A\u202eda"), "seats[0].name", "player 1, name"),
    ("a score track space past 49 (R-SCORE-7)", changed(BASE, 0, track=50), "seats[0].track", "at most 49"),
    ("negative lumber", changed(BASE, 0, lumber=-1), "seats[0].lumber", "not below 0"),
    ("a number as text", changed(BASE, 0, fire="3"), "seats[0].fire", "enter a whole number"),
    ("a boolean as a number", changed(BASE, 0, fire=True), "seats[0].fire", "enter a whole number"),
    ("a fraction", changed(BASE, 0, coins={"1": 1.5}), "seats[0].coins.1", "Ada, coins of 1: enter a whole number"),
    ("a coin the game lacks", changed(BASE, 0, coins={"2": 1}), "seats[0].coins.2", "no field 2"),
    ("an unknown field", changed(BASE, 0, gold=3), "seats[0].gold", "the sheet has no field gold"),
    ("an opponent outside solo (R-SOLO-1)", changed(BASE, None, opponent_popularity=3), "opponent_popularity",
     "Only the solo game"),
    ("the opponent past the register's end", changed(SHEETS["solo (R-SOLO-8, R-SOLO-9)"]["position"], None,
                                                     opponent_popularity=14), "opponent_popularity", "to 13"),
    ("players that do not match the seats", changed(BASE, None, players=4), "players", "says 4 players but fills 3"),
    ("five players", changed(BASE, None, seats=BASE["seats"] + [{}, {}]), "seats", "1 to 4 players"),
    ("no seats", {"seats": []}, "seats", "1 to 4 players"),
    ("advanced as text", changed(BASE, None, advanced="yes"), "advanced", "true or false"),
    ("a seat that is not an object", {"seats": [3]}, "seats[0]", "expected an object"),
    ("a huge number", changed(BASE, 0, rats=10 ** 30), "seats[0].rats", "at most 99"),
]


@pytest.mark.parametrize("what,position,field,words", REFUSED, ids=[r[0] for r in REFUSED])
def test_the_api_refuses_naming_the_field(sheet_client, what, position, field, words):
    r = sheet_client.post("/api/score", json=position)
    assert r.status_code == 400, (what, r.get_json())
    body = r.get_json()
    assert body["field"] == field and words in body["error"], (what, body)


@pytest.mark.parametrize("body", [None, "[]", "3", '"seats"', "{", '{"seats": {}}', "[" * 20_000 + "]" * 20_000,
                                  "[" * 100_000 + "]" * 100_000])
def test_the_api_refuses_what_is_no_json_object(sheet_client, body):
    r = sheet_client.post("/api/score", data=body, content_type="application/json")
    assert r.status_code in (400, 413) and "error" in r.get_json()  # 413: past the 64 KB a request may carry


def test_the_api_refuses_a_form_post_so_no_other_site_can_send_one(sheet_client):
    r = sheet_client.post("/api/score", data={"seats": "x"})
    assert r.status_code == 400


PAGE = {"players": "3", "score": "1", "p0.name": "Ada", "p1.name": "Bruno", "p2.name": "Chiara"}


@pytest.mark.parametrize("fields,field,words", [
    ({"p0.rats": "100"}, "p0.rats", "Ada, rats: at most 99"),
    ({"p1.city": "15"}, "p1.city", "Bruno, city register"),
    ({"p2.scroll.a.boats": "9"}, "p2.scroll.a.boats", "Chiara, scroll track: boats"),
    ({"p0.workshops": "20", "p1.workshops": "14"}, "p1.workshops", "the game has 33 workshops"),
    ({f"hex.{h}": "1" for h in ("n01", "n02", "n03", "n04", "n06", "n07")}, "hexes", "at most 5"),
    ({"hex.n12": "2"}, "hexes", "not in a game of 3 players"),  # a hex the sheet does not offer: its section
    ({"hex.n01": "7"}, "hex.n01", "names player 7"),
    ({"p0.fire": "lots"}, "p0.fire", "Ada, fire: enter a whole number"),
    ({"p0.lumber": "-2"}, "p0.lumber", "not below 0"),
    ({"p1.colour": "red"}, "p1.colour", "Ada plays that colour already"),
    ({"p1.name": "ada"}, "p1.name", "Ada has that name already"),
    ({"p0.boats.stones": "4"}, "p0.boats.stones", "the game has 3 of these boats"),
    ({"p0.scroll_board": "b9"}, "p0", "no such scroll board"),  # the standard game offers no choice: the column
    ({"p0.name": "\u202ex"}, "p0.name", "player 1, name"),
])
def test_the_page_refuses_naming_and_marking_the_field(sheet_client, fields, field, words):
    r = sheet_client.get("/score", query_string={**PAGE, **fields})
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    alert = re.search(r'<p class="flash-error" role="alert">(.*?)</p>', page, re.S).group(1)
    assert words in alert.replace("&#39;", "'") and f'href="#at-{field}"' in alert
    assert f'id="at-{field}"' in page and re.search(rf'class="[^"]*refused[^"]*" id="at-{re.escape(field)}"', page)
    assert 'id="result"' not in page  # no breakdown for a sheet no game ends with


@pytest.mark.parametrize("lang,words", [("fr", "Ada, rats : au plus 99."), ("de", "Ada, Ratten: höchstens 99.")])
def test_the_pages_refusal_speaks_the_readers_language(sheet_client, lang, words):
    sheet_client.get(f"/language/{lang}")
    page = sheet_client.get("/score", query_string={**PAGE, "p0.rats": "100"}).get_data(as_text=True)
    sheet_client.get("/language/en")
    assert words in page


def test_an_odd_player_count_shows_the_default_sheet(sheet_client):
    for raw in ("0", "5", "x", "", "1.5"):
        r = sheet_client.get(f"/score?players={raw}")
        assert r.status_code == 200 and r.get_data(as_text=True).count('class="panel player"') == 2


def test_the_export_refuses_in_json_naming_the_field(sheet_client):
    r = sheet_client.get("/score/export.json?players=2&p0.rats=500")
    assert r.status_code == 400 and r.get_json()["field"] == "seats[0].rats"


def test_a_name_is_escaped_on_the_sheet_its_result_and_its_refusals(sheet_client):
    name = "<script>alert(1)</script>"
    for extra in ({}, {"p1.rats": "100"}):
        page = sheet_client.get("/score", query_string={"players": "2", "score": "1", "p0.name": name, **extra})
        text = page.get_data(as_text=True)
        assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
