"""Which requests take their turn in the connection manager (issue 21 item 2): the large public pages, never a
tap or news."""

from __future__ import annotations

import pytest

from companion.serve.large_pages import large_page


@pytest.mark.parametrize("head", [b"GET /catalog/board HTTP/1.1", b"HEAD /catalog HTTP/1.1",
                                  b"GET /score?players=4&advanced=1 HTTP/1.1", b"GET /score/export.json?p=2 HTTP/1.1"])
def test_large_public_pages_wait_their_turn(head):
    assert large_page(head)


@pytest.mark.parametrize("head", [b"POST /catalog/board/b1 HTTP/1.1", b"POST /seat/abc/act HTTP/1.1",
                                  b"GET /host/123/news?v=4 HTTP/1.1", b"GET /seat/abc HTTP/1.1", b"GET / HTTP/1.1"])
def test_taps_news_and_screens_never_wait_behind_them(head):
    assert not large_page(head)
