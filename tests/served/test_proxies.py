"""`serve --proxies N` (issue 32 item 9): behind N reverse proxies every player arrives from the last proxy's
address, so the per-device limits counted the whole table as one device. With --proxies each player's own
address is read from the header the proxies add (Werkzeug's ProxyFix); without it the header is ignored, so
nobody dodges a limit by writing it."""

from __future__ import annotations

import pytest

from server import Server

pytestmark = pytest.mark.slow

PLAYERS = [{"name": "Ada", "colour": "red"}]


def start_game(srv: Server, forwarded: str) -> int:
    return srv.json("POST", "/api/games", {"players": PLAYERS}, headers={"X-Forwarded-For": forwarded})[0]


def test_with_proxies_1_the_limits_count_each_forwarded_address(tmp_path):
    with Server(tmp_path, args=["--proxies", "1", "--new-games-per-minute", "2"]) as srv:
        assert [start_game(srv, "10.0.0.1") for _ in range(3)] == [201, 201, 429]
        assert start_game(srv, "10.0.0.2") == 201  # another player behind the same proxy
        # what a player wrote before the proxy's own entry is not trusted: this is still 10.0.0.1
        assert start_game(srv, "10.9.9.9, 10.0.0.1") == 429
        assert start_game(srv, "2001:db8:5:5::1") == 201 and start_game(srv, "2001:db8:5:5::2") == 201
        assert start_game(srv, "2001:db8:5:5::3") == 429  # one IPv6 device: its /64


def test_without_proxies_the_forwarded_header_is_ignored(tmp_path):
    with Server(tmp_path, args=["--new-games-per-minute", "2"]) as srv:
        assert [start_game(srv, f"10.0.0.{i}") for i in range(3)] == [201, 201, 429]
