"""In a real headless Chromium against `python -m companion serve` (issue 13, "Check your copy"): the host
opens the admin link `serve` prints, corrects one hex's action and repopulation VP on /catalog and marks
three records checked; a new game's menus offer the corrected action while a game started before keeps
the old one; a correction that breaks a catalog rule is refused with the loader's message and nothing is
written; the exported file imported into a fresh companion gives the same catalog fingerprint.
Screenshots land in test-output/."""

from __future__ import annotations

import re
import time

import pytest
from server import Server
from test_browser import ARGS, CHROMIUM, OUT, _need_browser

pytestmark = pytest.mark.slow

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chiara", "colour": "yellow"}]
ADMIN = re.compile(r"Check the catalog against your copy .*?: (http://\S+/catalog\?key=[0-9a-f]{64})")


def admin_link(srv: Server) -> str:
    """The admin link, as `serve` prints it at start (the one line of its output that shows a secret)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = ADMIN.search(srv.log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        time.sleep(0.05)
    raise AssertionError(srv.tail())


def first_menu(srv: Server, game: dict) -> str:
    """The labels of the menu a new game opens with, as the deciding seat's phone gets them."""
    status, state = srv.json("GET", f"/api/games/{game['id']}/state", headers={"X-Host-Token": game["host_token"]})
    token = game["seats"][state["pending"][0]["who"]]["token"]
    _, joined = srv.json("POST", f"/api/seats/{token}/join", {})
    _, menu = srv.json("GET", f"/api/seats/{token}/menu", headers={"X-Seat-Device": joined["device"]})
    return " | ".join(option["label"] for option in menu["menu"])


def ready_game(srv: Server) -> dict:
    status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 5})
    assert status == 201
    status, _ = srv.json("POST", f"/api/games/{game['id']}/host/actions", {"version": 0, "choice": 0},
                         headers={"X-Host-Token": game["host_token"]})  # C-18: the table is ready
    assert status == 200
    return game


def signed_in(browser, srv: Server, viewport=(1280, 900)):
    page = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}).new_page()
    page.goto(admin_link(srv))
    assert page.url == srv.base + "/catalog", "the key leaves the address bar"
    assert "This browser may change the catalog." in page.inner_text("#catalog-status")
    return page


def correct(page, srv: Server, hex_id: str, choose: dict | None = None, **typed: str) -> None:
    """A hex's correction form filled in as the table reads its copy, and saved."""
    page.goto(f"{srv.base}/catalog/hex/{hex_id}")
    for name, value in typed.items():
        page.fill(f"input[name={name}]", value)
    for name, value in (choose or {}).items():
        page.select_option(f"select[name={name}]", value)
    with page.expect_navigation():
        page.click("#correct button[type=submit]")


def catalog_shown(page) -> str:
    return re.search(r"catalog ([0-9a-f]{12})", page.inner_text("#catalog-status")).group(1)


def test_a_table_checks_its_copy_on_catalog_and_shares_the_corrections(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    here, fresh = tmp_path / "here", tmp_path / "fresh"
    env = {"MESSINA_CATALOG": ""}  # the corrections live in each server's instance folder
    with Server(here, env=env) as srv, Server(fresh, env=env) as other, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        before = ready_game(srv)
        page = signed_in(browser, srv)
        shipped = catalog_shown(page)
        page.screenshot(path=str(OUT / "catalog-index.png"), full_page=True)

        # correct one hex's action and repopulation VP (R-ACT-2, R-REPOP-6)
        correct(page, srv, "n04", action="2 coin or 1 lumber", repop_vp="7")
        assert "2 coins or 1 lumber" in page.inner_text(".differs")  # in words, as the menus say it
        page.screenshot(path=str(OUT / "catalog-corrected-hex.png"), full_page=True)

        # mark three records checked, from the family pages
        for family, rid in (("hex", "n01"), ("hex", "n02"), ("boat", "boat-1")):
            page.goto(f"{srv.base}/catalog/{family}")
            with page.expect_navigation():
                page.click(f"#r-{rid} button[name=check]")
        page.goto(srv.base + "/catalog")
        assert "4 of 145 checked against a copy" in page.inner_text("#catalog-status")  # n04 was checked too
        assert "3 of 20 checked" in page.inner_text("#catalog-families")

        # new games use the corrections, the game started before keeps its catalog
        assert "2 coins or 1 lumber" in first_menu(srv, ready_game(srv))
        old = first_menu(srv, before)
        assert "build or 1 major fire" in old and "2 coins or 1 lumber" not in old

        # a correction breaking a catalog rule (R-SETUP-2/3: exactly 2 B hexes) is refused, nothing written
        file = here / "catalog.toml"
        written = file.read_bytes()
        correct(page, srv, "n16", choose={"class": "B"})
        refusal = page.inner_text("#refused")
        assert "Not saved: nothing was changed" in refusal and "3 B hexes, R-SETUP-2/3 needs exactly 2" in refusal
        assert file.read_bytes() == written
        page.screenshot(path=str(OUT / "catalog-refused.png"), full_page=True)

        # export here, import into a fresh companion: the same catalog, to the fingerprint
        page.goto(srv.base + "/catalog")
        corrected = catalog_shown(page)
        assert corrected != shipped
        with page.expect_download() as download:
            page.click("a[download]")
        exported = tmp_path / "corrections.toml"
        download.value.save_as(exported)
        elsewhere = signed_in(browser, other)
        assert catalog_shown(elsewhere) == shipped
        elsewhere.set_input_files("input[name=corrections]", str(exported))
        with elsewhere.expect_navigation():
            elsewhere.click("form.import button[type=submit]")
        assert catalog_shown(elsewhere) == corrected
        assert "4 of 145 checked against a copy" in elsewhere.inner_text("#catalog-status")

        # on a phone, one record at a time, the box passed round
        phone = signed_in(browser, srv, viewport=(390, 844))
        phone.goto(srv.base + "/catalog/hex/n04")
        assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert phone.evaluate("() => document.querySelector('#correct button').getBoundingClientRect().height >= 44")
        phone.screenshot(path=str(OUT / "catalog-phone-record.png"), full_page=True)

        # a guest on the same network reads the page but has no way to change it
        guest = browser.new_context().new_page()
        guest.goto(srv.base + "/catalog/hex")
        assert guest.locator("button[name=check]").count() == 0
        assert "admin link" in guest.inner_text("#catalog-status")
        browser.close()
        key = admin_link(srv).rsplit("=", 1)[1]
        srv.stop()
        assert srv.log.read_text(errors="replace").count(key) == 1, "only the start line shows the admin key"


def test_corrections_forgive_what_the_page_shows_name_the_record_and_check_a_family_at_once(tmp_path):
    """Issue 21, in a real browser: "3 coins" typed as the card writes it is saved as the grammar's 3 coin; a bad
    value is refused naming the record and the field, with no path of the server, and the card still shows
    what is kept; a hex shipped without repopulation requirements gets them added; a whole family is checked
    from its grid, the odd ones out left to open one by one."""
    _need_browser()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    instance = tmp_path / "here"
    with Server(instance, env={"MESSINA_CATALOG": ""}) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = signed_in(browser, srv)
        file = instance / "catalog.toml"

        correct(page, srv, "n04", action="3 coins")  # R-ACT-2: as the card writes it
        assert 'action = "3 coin"' in file.read_text() and "3 coins" in page.inner_text(".differs")
        page.screenshot(path=str(OUT / "catalog-forgiving-reward.png"), full_page=True)

        written = file.read_bytes()
        correct(page, srv, "n04", action="2 gold")
        refusal = page.inner_text("#refused")
        assert "Hex 4: Action: unknown icon 'gold'" in refusal
        assert str(instance) not in page.content() and "catalog.toml" not in page.content()
        assert "gold" not in page.inner_text("#r-n04") and page.input_value("input[name=action]") == "2 gold"
        assert file.read_bytes() == written
        page.screenshot(path=str(OUT / "catalog-refused-named.png"), full_page=True)

        page.goto(f"{srv.base}/catalog/hex/n05")  # R-REPOP-2: shipped without requirements
        page.select_option("select[name=repop]", "yes")
        page.fill("#added input[name=repop_cost]", "1 coin")
        page.fill("#added input[name=repop_citizens]", "2 nuns")
        page.fill("#added input[name=repop_vp]", "4")
        with page.expect_navigation():
            page.click("#correct button[type=submit]")
        assert 'repop_citizens = "2 nun"' in file.read_text()

        page.goto(f"{srv.base}/catalog/boat")
        with page.expect_navigation():
            page.click("#to-grid")
        assert page.locator(".grid-check figure.face svg").count() == 9
        page.uncheck("input[name=match][value=boat-3]")
        page.uncheck("input[name=match][value=boat-7]")
        page.screenshot(path=str(OUT / "catalog-family-grid.png"), full_page=True)
        with page.expect_navigation():
            page.click("#all-at-once button[type=submit]")
        assert page.locator("#odd a").all_inner_texts() == ["Boat 3", "Boat 7"]
        with page.expect_navigation():
            page.click("#odd a >> nth=0")
        assert page.url.endswith("/catalog/boat/boat-3")
        page.goto(srv.base + "/catalog")
        assert "9 of 145 checked against a copy" in page.inner_text("#catalog-status")  # n04, n05, 7 boats

        phone = signed_in(browser, srv, viewport=(390, 844))
        phone.goto(srv.base + "/catalog/hex/all")
        assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        phone.screenshot(path=str(OUT / "catalog-family-grid-phone.png"), full_page=True)
        browser.close()
