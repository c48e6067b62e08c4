"""Phones stay awake in a game (issue 25 item 8): the seat page carries a visible switch and static/wake.js,
which holds the Screen Wake Lock where the page is a secure context and otherwise plays a tiny muted video
made for this project (static/awake/), served from here: no CDN, allowed by the CSP's media-src 'self'."""

from __future__ import annotations

import re
from pathlib import Path

from companion.web.headers import CSP
from tables import new_game, text


STATIC = Path(__file__).resolve().parents[2] / "static"


def test_a_phone_in_a_game_has_the_keep_awake_switch_and_its_script(client):
    game = new_game(client)
    token = game["seats"][0]["token"]
    client.get(f"/j/{token}")
    page = text(client.get(f"/seat/{token}"))
    button = re.search(r'<button type="button" id="wake"[^>]*>', page).group(0)
    assert 'aria-pressed="false"' in button and 'data-on="Screen stays on"' in button
    assert 'data-webm="/static/awake/awake.webm"' in button and 'data-mp4="/static/awake/awake.mp4"' in button
    assert '<script src="/static/wake.js" defer></script>' in page
    proxy = text(client.get(f"/host/{game['id']}/seat/0", headers={"X-Host-Token": game["host_token"]}))
    assert 'id="wake"' not in proxy, "the host's view of a seat keeps the host's screen alone"


def test_the_keep_awake_video_is_ours_tiny_and_allowed_by_the_csp(client):
    assert "media-src 'self'" in CSP
    mp4, webm = (STATIC / "awake" / "awake.mp4").read_bytes(), (STATIC / "awake" / "awake.webm").read_bytes()
    assert mp4[4:8] == b"ftyp" and webm[:4] == b"\x1a\x45\xdf\xa3"  # an MP4 box and a Matroska/WebM header
    assert len(mp4) < 8192 and len(webm) < 8192
    for name, kind in (("awake.mp4", "video/mp4"), ("awake.webm", "video/webm")):
        r = client.get(f"/static/awake/{name}")
        assert r.status_code == 200 and r.mimetype == kind
    script = (STATIC / "wake.js").read_text(encoding="utf-8")
    assert "navigator.wakeLock" in script and "isSecureContext" in script
    assert not re.search(r"https?://", script), "asks no other site"


def test_a_finished_game_tells_the_phone_to_let_the_screen_sleep(client):
    """The phone's status says when the game is over (data-over); wake.js lets go then."""
    page = text(client.get("/static/wake.js"))
    assert "#seat_status[data-over]" in page
