"""A full disk reaches the phone (issue 10, item 7): in headless Chromium, a tap that cannot be saved shows
"The disk is full: nothing was saved." in the phone's flash area, and the tap after the disk has room
again goes through. The server runs in this process so the test can fill its disk (max_page_count)."""

from __future__ import annotations

import threading
import time

import pytest
from cheroot.wsgi import Server as WSGIServer

from companion.store import Store
from companion.web import create_app

from server import free_port
from tables import fill_the_disk, free_the_disk, store_step
from test_browser import ARGS, CHROMIUM, _need_browser

pytestmark = pytest.mark.slow


@pytest.fixture
def served(tmp_path, monkeypatch):
    """(base URL, app, disk): while disk["full"], every connection of every thread may not grow the file."""
    disk = {"full": False}
    connect = Store._db

    def db(self):
        conn = connect(self)
        (fill_the_disk if disk["full"] else free_the_disk)(conn)
        return conn

    monkeypatch.setattr(Store, "_db", db)
    app = create_app({"INSTANCE": str(tmp_path), "POLL_HOLD_S": 2.0})
    port = free_port()
    server = WSGIServer(("127.0.0.1", port), app, numthreads=8)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}", app, disk
    server.stop()
    thread.join(10)


def test_a_phone_tapping_on_a_full_disk_is_told_nothing_was_saved(served):
    _need_browser()
    from playwright.sync_api import sync_playwright

    base, app, disk = served
    client = app.test_client()
    game = client.post("/api/games", json={"players": [{"name": "Ada", "colour": "red"},
                                                        {"name": "Bruno", "colour": "yellow"}], "seed": 5}).get_json()
    for _ in range(9):  # the 10th move also writes a snapshot: it needs new pages
        store_step(app.extensions["store"], game["id"])
    state = client.get(f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]}).get_json()
    seat = game["seats"][state["pending"][0]["who"]]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        phone = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True).new_page()
        phone.goto(seat["join_url"].replace("http://localhost", base))
        button = phone.locator("#menu button.option:not([disabled])").first
        button.wait_for()
        disk["full"] = True
        with phone.expect_response(lambda r: r.request.method == "POST") as answer:
            button.click()
        assert answer.value.status == 507
        phone.wait_for_function("() => document.getElementById('flash').innerText.includes('nothing was saved')",
                                timeout=5000)
        assert "The disk is full: nothing was saved." in phone.locator("#flash").inner_text()
        assert app.extensions["store"].version(game["id"]) == state["version"]
        disk["full"] = False
        phone.wait_for_timeout(300)
        with phone.expect_response(lambda r: r.request.method == "POST") as answer:
            phone.locator("#menu button.option:not([disabled])").first.click()
        assert answer.value.status == 200
        deadline = time.monotonic() + 5
        while app.extensions["store"].version(game["id"]) == state["version"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        browser.close()
