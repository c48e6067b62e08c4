"""No seat token, host key or phone cookie is ever written to the server's log (companion/logs.py)."""

from __future__ import annotations

import io
import json
import logging
import sqlite3

import pytest
from server import Browser, Server

from companion.web import create_app
from companion.logs import HiddenStream, hide_secrets

TOKEN, KEY, DEVICE = "q3XwZ9fK2mN8pL1vR7tY4a", "Hk2_j9Lm-Qp4Rs7Tu1Vw3x", "Dv8Bn5Mc2Xz6Lk9Jh3Gf1d"
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}]


@pytest.mark.parametrize("line", [
    f"Exception on /seat/{TOKEN}/act [POST]",
    f"GET /j/{TOKEN} HTTP/1.1",
    f"GET /api/seats/{TOKEN}/menu",
    f"GET /seat/{TOKEN}",
    f"GET /host/abcdef12?key={KEY} HTTP/1.1",
    f"GET /host/abcdef12/export.json?v=3&key={KEY}&x=1",
    f"X-Host-Token: {KEY}",
    f"x-seat-device={DEVICE}",
    f"Cookie: session=abc; host_abcdef12={KEY}; seat_{TOKEN}={DEVICE}; last_seat={TOKEN}",
    f"{{'host_token': '{KEY}', 'token': '{TOKEN}', 'device': '{DEVICE}'}}",
    f'{{"host_token": "{KEY}", "seats": [{{"token": "{TOKEN}"}}]}}',
])
def test_every_kind_of_secret_is_hidden(line):
    shown = hide_secrets(line)
    assert TOKEN not in shown and KEY not in shown and DEVICE not in shown, shown
    assert "[hidden]" in shown and "[hidden]]" not in shown
    assert hide_secrets(shown) == shown  # a logger's filter and then the stream: the same line


def test_what_is_not_secret_is_kept():
    for line in ("GET /host/abcdef12/seat/2/news?v=4", "GET /static/app.css", "POST /api/games 201",
                 "GET /host/abcdef12/part/status", 'File "companion/web/seat.py", line 40, in act'):
        assert hide_secrets(line) == line


def test_a_stream_hides_secrets_even_when_a_line_comes_in_pieces():
    out = io.StringIO()
    stream = HiddenStream(out)
    stream.write(f"Exception on /seat/{TOKEN[:9]}")
    stream.write(f"{TOKEN[9:]}/act [POST]\nnext ")
    stream.writelines(["line\n"])
    stream.flush()
    assert out.getvalue() == "Exception on /seat/[hidden]/act [POST]\nnext line\n"


def test_an_error_in_a_request_logs_its_path_without_the_token(tmp_path, caplog, monkeypatch):
    app = create_app({"INSTANCE": str(tmp_path)})  # not TESTING: the error is logged, the phone gets 500
    client = app.test_client()
    game = client.post("/api/games", json={"players": PLAYERS}).get_json()
    token = game["seats"][0]["token"]
    client.get(f"/j/{token}")

    def broken(*a, **k):
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(app.extensions["store"], "load", broken)
    with caplog.at_level(logging.ERROR):
        r = client.get(f"/seat/{token}?key={game['host_token']}")
    assert r.status_code == 500
    assert "/seat/[hidden]" in caplog.text and "the disk went away" in caplog.text
    assert token not in caplog.text and game["host_token"] not in caplog.text


@pytest.mark.slow
def test_a_real_servers_log_holds_no_token_key_or_cookie_through_a_game_and_an_error(tmp_path):
    """A real server: a game created, both phones joined, the host screen opened by its link and by its
    header, moves made from the phones, an export, and then errors (the games table taken away under
    the server) on a phone's tap, the host's export and a seat's API. The log says what failed, and
    holds none of the secrets."""
    with Server(tmp_path) as srv:
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 4})
        assert status == 201
        gid, key = game["id"], game["host_token"]
        status, _ = srv.json("POST", f"/api/games/{gid}/host/actions", {"version": 0, "choice": 0},
                             headers={"X-Host-Token": key})  # C-18: the table is ready
        assert status == 200
        phones = []
        for s in game["seats"]:
            phone = Browser(srv)
            assert phone.get(f"/j/{s['token']}")[0] == 302
            phones.append(phone)
        host = Browser(srv)
        assert host.get(f"/host/{gid}?key={key}")[0] in (200, 303)  # the link, then the address without it
        assert host.get(f"/host/{gid}")[0] == 200
        for _ in range(6):
            _, st = srv.json("GET", f"/api/games/{gid}/state", headers={"X-Host-Token": key})
            who = st["pending"][0]["who"]
            phone, tok = phones[who], game["seats"][who]["token"]
            _, _, body = phone.get(f"/api/seats/{tok}/menu")
            menu = json.loads(body)
            pick = next(o for o in menu["menu"] if o["available"])
            status, _, _ = phone.request("POST", f"/api/seats/{tok}/actions",
                                         body=json.dumps({"version": menu["version"], "choice": pick["choice"]}).encode(),
                                         headers={"Content-Type": "application/json"})
            assert status == 200
        assert srv.request("GET", f"/host/{gid}/export.json?key={key}")[0] == 200
        _, st = srv.json("GET", f"/api/games/{gid}/state", headers={"X-Host-Token": key})
        who = st["pending"][0]["who"]
        tok = game["seats"][who]["token"]
        menu = json.loads(phones[who].get(f"/api/seats/{tok}/menu")[2])
        tap = {"version": menu["version"], "choice": next(o for o in menu["menu"] if o["available"])["choice"]}

        db = sqlite3.connect(tmp_path / "companion.db")
        db.execute("alter table games rename to games_away")
        db.commit()
        failed = [phones[who].request("POST", f"/api/seats/{tok}/actions", body=json.dumps(tap).encode(),
                                      headers={"Content-Type": "application/json"})[0]]
        failed.append(srv.request("GET", f"/host/{gid}/export.json?key={key}", headers={"X-Host-Token": key})[0])
        failed.append(host.get(f"/host/{gid}/export.json")[0])
        db.execute("alter table games_away rename to games")
        db.commit()
        db.close()
        assert all(code >= 500 for code in failed), failed
        srv.stop()
        log = srv.log.read_text(errors="replace")
    secrets = [key] + [s["token"] for s in game["seats"]] + [v for p in phones + [host] for v in p.cookies.values()]
    secrets += [name for p in phones for name in p.cookies if name.startswith("seat_")]
    leaked = [s for s in secrets if s in log]
    assert leaked == [], leaked
    assert "/api/seats/[hidden]/actions" in log  # the error was logged, with its path
