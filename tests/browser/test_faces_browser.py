"""Every family's faces in a real Chromium: one plain HTML file per family (the shipped app.css, no server)
with all its faces, screenshotted into test-output/faces-<family>.png, each face with a size on the page.
Tiles are laid out at phone size (a grid about 100 px a tile), so the screenshots show what a phone shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import ARGS, CHROMIUM, OUT, ROOT, _need_browser

from companion.catalog import shipped_catalog
from companion.pictures.faces import DRAW, face, record_ids

pytestmark = pytest.mark.slow
WIDE = {"register", "board", "scroll_board", "round_info", "priority_tile", "rat_table", "layout"}


def family_page(family: str) -> str:
    """A page of one family's faces, as a grid the way a phone shows them."""
    catalog = shipped_catalog()
    cells = "".join(f'<div class="cell">{face(catalog, family, rid)}</div>' for rid in record_ids(catalog, family))
    css = (ROOT / "static" / "app.css").resolve().as_uri()
    grid = "faces wide" if family in WIDE else "faces"
    return (f'<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="{css}">'
            f'<title>{family}</title></head><body><h1>{family}</h1><div class="{grid}">{cells}</div></body></html>')


def test_every_familys_faces_render_with_a_size_and_are_screenshotted():
    _need_browser()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 420, "height": 900})
        for family in DRAW:
            path = OUT / f"faces-{family}.html"
            path.write_text(family_page(family), encoding="utf-8")
            page.goto(path.resolve().as_uri())
            sizes = page.eval_on_selector_all("svg.face", "els => els.map(e => [e.getBoundingClientRect().width, "
                                                          "e.getBoundingClientRect().height])")
            assert len(sizes) == len(record_ids(shipped_catalog(), family)), family
            assert all(w > 0 and h > 0 for w, h in sizes), (family, sizes)
            if family not in WIDE:  # a tile in the grid is phone-sized: about 90-120 CSS px wide
                assert all(85 <= w <= 140 for w, _h in sizes), (family, sizes)
            page.screenshot(path=str(OUT / f"faces-{family}.png"), full_page=True)
        browser.close()
    assert all(Path(OUT / f"faces-{f}.png").stat().st_size > 0 for f in DRAW)
