"""Resume anywhere, in a real headless Chromium (issue 36): the first laptop exports its game and dies; on
another machine the host picks the file on the front page (a damaged copy first, which is refused plainly)
and lands on the resumed game's host screen with new codes; a phone joins by its seat's new code and makes
the next move; the seat's old link says its game is not on this machine. Screenshots land in test-output/."""

from __future__ import annotations

import pytest
from server import Server
from test_browser import OUT
from test_browser_phones import PHONE, TAP, call, deciding, move_on, served_game

pytestmark = pytest.mark.slow


def test_the_host_resumes_a_game_from_its_file_and_a_phone_plays_on_by_its_new_code(tmp_path, browser):
    OUT.mkdir(exist_ok=True)
    with Server(tmp_path / "first") as first, Server(tmp_path / "second") as second:
        game = served_game(first.base)
        for _ in range(5):
            move_on(first.base, game)
        status, _, data = first.request("GET", f"/host/{game['id']}/export.json",
                                        headers={"X-Host-Token": game["host_token"]})
        assert status == 200
        (tmp_path / "messina.json").write_bytes(data)
        (tmp_path / "damaged.json").write_bytes(data[: len(data) // 3])
        first.kill()  # the first laptop's battery runs out

        host = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        host.goto(second.base + "/")
        host.set_input_files("#resume input[type=file]", str(tmp_path / "damaged.json"))
        host.click("#resume button[type=submit]")
        assert "cut short" in host.locator("#resume [role=alert]").inner_text()
        host.screenshot(path=str(OUT / "resume-refused.png"), full_page=True)
        host.set_input_files("#resume input[type=file]", str(tmp_path / "messina.json"))
        host.click("#resume button[type=submit]")
        host.wait_for_selector("#seats span.join-code")
        gid = host.url.rstrip("/").rsplit("/", 1)[1]
        key = next(c["value"] for c in host.context.cookies() if c["name"] == f"host_{gid}")
        resumed = {"id": gid, "host_token": key}
        assert gid != game["id"] and "key=" not in host.url
        host.screenshot(path=str(OUT / "resume-host.png"), full_page=True)

        who = deciding(second.base, resumed)
        codes = host.locator("#seats span.join-code").all_inner_texts()
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(second.base + "/join")
        phone.fill("input[name=code]", codes[who])
        phone.click("button[type=submit]")
        phone.wait_for_selector(TAP)
        before = call(second.base, "GET", f"/api/games/{gid}/state", headers={"X-Host-Token": key})[1]["version"]
        with phone.expect_response(lambda r: r.request.method == "POST") as posted:
            phone.locator(TAP).first.click()
        assert posted.value.status == 200
        after = call(second.base, "GET", f"/api/games/{gid}/state", headers={"X-Host-Token": key})[1]["version"]
        assert after == before + 1
        phone.screenshot(path=str(OUT / "resume-phone-next-move.png"), full_page=True)

        old = browser.new_context(**PHONE).new_page()
        old.goto(second.base + f"/j/{game['seats'][who]['token']}")  # the seat's link on the first laptop
        assert "not on this machine" in old.locator("main").inner_text()
        old.screenshot(path=str(OUT / "resume-old-link.png"), full_page=True)
