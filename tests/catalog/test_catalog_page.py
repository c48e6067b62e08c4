"""/catalog through Flask's test client: anyone reads it; only a browser holding the instance's admin link
changes it, with the session's CSRF token; every change is checked by the loader and a refused one writes
nothing; new games follow the corrections, a game in progress keeps its catalog; the host screen says which
catalog a game uses and offers the admin link."""

from __future__ import annotations

import gzip
import io
import re
import tomllib

import pytest

from companion.catalog import loader, shipped_catalog
from companion.engine import legal_actions, pending
from companion.web import create_app
from companion.logs import hide_secrets
from tables import form_of, new_game, page_text

pytestmark = pytest.mark.usefixtures("own_corrections")  # each instance's corrections count
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chiara", "colour": "yellow"}]
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def admin(app):
    """A browser that opened the admin link (the key leaves the address for an HttpOnly cookie)."""
    client = app.test_client()
    r = client.get(f"/catalog?key={app.extensions['catalog_admin']}")
    assert r.status_code == 303 and r.headers["Location"] == "/catalog"
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    return client


def csrf(client) -> str:
    return CSRF.search(page_text(client.get("/"))).group(1)  # the session's token, as any form carries it


def override(app):
    path = app.extensions["catalog_file"]
    return path.read_bytes() if path.exists() else None


def first_menu(app, gid: str) -> str:
    state = app.extensions["store"].load(gid).state
    return " | ".join(o["label"] for o in legal_actions(state, pending(state)[0]["who"]))


def test_anyone_reads_every_page_and_sees_no_way_to_change_it(app):
    client = app.test_client()
    for path in ("/catalog", "/catalog/hex", "/catalog/hex/n04", "/catalog/board/a", "/catalog/layout/3p",
                 "/catalog/changes", "/catalog/export"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "Matches my copy" not in page_text(r) and 'id="correct"' not in page_text(r), path
    assert "0 of 145 checked" in page_text(client.get("/catalog"))
    assert "admin link" in page_text(client.get("/catalog"))


def test_every_change_needs_the_admin_link_and_the_csrf_token_and_a_refusal_writes_nothing(app):
    owner = admin(app)
    owner.post("/catalog/hex/n01/check", data={"csrf": csrf(owner)})
    before = override(app)
    guest = app.test_client()
    forged = app.test_client()
    forged.set_cookie("catalog_admin", "x" * 64)
    changes = [("/catalog/hex/n02/check", {}), ("/catalog/hex/n01/reset", {}),
               ("/catalog/hex/n04", form_of(owner, "hex", "n04") | {"repop_vp": "9"}),
               ("/catalog/import", {})]
    for path, data in changes:
        for who in (guest, forged):
            r = who.post(path, data={**data, "csrf": csrf(who)})
            assert r.status_code == 403 and "admin link" in page_text(r), path
        for token in (None, "", "forged"):
            form = dict(data) if token is None else {**data, "csrf": token}
            assert owner.post(path, data=form).status_code == 400, path
        assert override(app) == before, path
    r = guest.get("/catalog?key=" + "0" * 64)
    assert r.status_code == 403 and "Set-Cookie" not in r.headers


def test_matches_my_copy_counts_per_family_and_overall(app):
    client = admin(app)
    token = csrf(client)
    for family, rid in (("hex", "n01"), ("hex", "n02"), ("boat", "boat-1")):
        r = client.post(f"/catalog/{family}/{rid}/check", data={"csrf": token, "then": "family"})
        assert r.status_code == 303 and r.headers["Location"].endswith(f"#r-{rid}")
    text = page_text(client.get("/catalog"))
    assert "3 of 145 checked against a copy" in text
    assert "2 of 20 checked" in text and "1 of 9 checked" in text
    assert "checked against a copy" in page_text(client.get("/catalog/hex"))
    r = client.post("/catalog/hex/n03/check", data={"csrf": token, "then": "next"})
    assert r.headers["Location"] == "/catalog/hex/n04"  # the box passes on to the next tile


def test_a_hexs_corrected_action_and_vp_reach_new_games_and_not_the_game_in_progress(app):
    """R-ACT-2, R-REPOP-6: the action a hex gives and its repopulation VP come from the catalog a game
    started with."""
    client = admin(app)
    before = new_game(client, PLAYERS)
    form = form_of(client, "hex", "n04") | {"action": "2 coin or 1 lumber", "repop_vp": "7", "csrf": csrf(client)}
    r = client.post("/catalog/hex/n04", data=form)
    assert r.status_code == 303
    after = new_game(client, PLAYERS)
    assert "2 coins or 1 lumber" in first_menu(app, after["id"])
    assert "build or 1 major fire" in first_menu(app, before["id"])
    assert "2 coins or 1 lumber" not in first_menu(app, before["id"])
    store = app.extensions["store"]
    assert store.load(after["id"]).state.catalog.hexes["n04"].repop_vp == 7
    assert store.load(before["id"]).state.catalog.hexes["n04"].repop_vp == 3
    changes = page_text(client.get("/catalog/changes"))
    assert "build or 1 major fire" in changes and "2 coins or 1 lumber" in changes  # in words, not the grammar


BREAKING = {
    "a third B hex": ("hex", "n16", {"class": "B"}, "3 B hexes, R-SETUP-2/3 needs exactly 2"),
    "a broken reward": ("boat", "boat-1", {"reward": "2 gold"}, "unknown icon &#39;gold&#39;"),
    "a wrong count": ("priority_tile", "2p", {"priority": "none, city"}, "priority"),
}


@pytest.mark.parametrize("case", BREAKING)
def test_a_breaking_correction_is_refused_with_the_loaders_message_and_the_file_is_unchanged(app, case):
    family, rid, change, words = BREAKING[case]
    client = admin(app)
    client.post("/catalog/hex/n01/check", data={"csrf": csrf(client)})
    before = override(app)
    r = client.post(f"/catalog/{family}/{rid}", data=form_of(client, family, rid) | change | {"csrf": csrf(client)})
    assert r.status_code == 400
    shown = re.sub(r"<a class=\"rule\"[^>]*>([^<]*)</a>", r"\1", page_text(r))  # a rule it cites is a link (issue 35)
    assert "Not saved: nothing was changed" in shown and words in shown
    assert override(app) == before


def test_reset_gives_back_the_shipped_record(app):
    client = admin(app)
    client.post("/catalog/hex/n04", data=form_of(client, "hex", "n04") | {"repop_vp": "9", "csrf": csrf(client)})
    assert "Reset to the shipped value" in page_text(client.get("/catalog/hex/n04"))
    r = client.post("/catalog/hex/n04/reset", data={"csrf": csrf(client), "then": "record"})
    assert r.status_code == 303
    assert app.extensions["store"].load(new_game(client, PLAYERS)["id"]).state.catalog.fingerprint == \
        shipped_catalog().fingerprint


def test_the_exported_file_imported_into_a_fresh_instance_gives_the_same_fingerprint(app, tmp_path):
    client = admin(app)
    client.post("/catalog/hex/n04", data=form_of(client, "hex", "n04") | {"action": "2 coin", "csrf": csrf(client)})
    client.post("/catalog/wheel/w1/check", data={"csrf": csrf(client)})
    exported = client.get("/catalog/export")
    assert "attachment" in exported.headers["Content-Disposition"]
    fresh = create_app({"INSTANCE": str(tmp_path / "fresh"), "TESTING": True})
    other = admin(fresh)
    r = other.post("/catalog/import", data={"csrf": csrf(other), "corrections": (_file(exported.data), "c.toml")},
                   content_type="multipart/form-data")
    assert r.status_code == 303
    theirs = fresh.extensions["store"].load(new_game(other)["id"]).state.catalog.fingerprint
    ours = app.extensions["store"].load(new_game(client, PLAYERS)["id"]).state.catalog.fingerprint
    assert theirs == ours != shipped_catalog().fingerprint


def test_a_bad_import_is_refused_whole_with_the_message(app):
    client = admin(app)
    client.post("/catalog/hex/n01/check", data={"csrf": csrf(client)})
    before = override(app)
    bad = b'[[boat]]\nid = "boat-1"\nback = 1\ncargo = "gold"\nreward = "1 coin"\nsource = "checked"\n'
    r = client.post("/catalog/import", data={"csrf": csrf(client), "corrections": (_file(bad), "bad.toml")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and "Not imported" in page_text(r) and "Boat 1: Cargo must be one of" in page_text(r)
    assert client.post("/catalog/import", data={"csrf": csrf(client)}).status_code == 400
    assert override(app) == before


@pytest.mark.parametrize("path, data, status", [
    ("/catalog/nothing/n01/check", {}, 404), ("/catalog/hex/n99/check", {}, 404), ("/catalog/hex/n99", {}, 404),
    ("/catalog/hex/n04", {"action": "2 coin"}, 400),  # the rest of the form is missing
    ("/catalog/hex/n04", {"repop_vp": "seven"}, 400), ("/catalog/hex/n04", {"repop": "perhaps"}, 400),
    ("/catalog/rat_table/rats", {"penalty": "[[[[["}, 400),
])
def test_a_malformed_change_is_a_clear_4xx_never_a_500(app, path, data, status):
    client = admin(app)
    full = form_of(client, "hex", "n04") if path == "/catalog/hex/n04" and len(data) == 1 and "action" not in data \
        else form_of(client, "rat_table", "rats") if "rat_table" in path else {}
    r = client.post(path, data=full | data | {"csrf": csrf(client)})
    assert r.status_code == status and override(app) is None
    for missing in ("/catalog/nothing", "/catalog/hex/n99"):
        assert client.get(missing).status_code == 404


def test_the_host_screen_says_which_catalog_the_game_uses_and_links_to_it_without_the_admin_key(app):
    client = admin(app)
    game = new_game(client, PLAYERS)
    client.post("/catalog/hex/n01/check", data={"csrf": csrf(client)})
    host = page_text(client.get(f"/host/{game['id']}?key={game['host_token']}", follow_redirects=True))
    assert "0 of 145 records checked against a copy" in host  # the game keeps the catalog it started with
    assert f'data-catalog="{shipped_catalog().fingerprint[:12]}"' in host  # a mark, no text (issue 25)
    assert 'href="/catalog"' in host and app.extensions["catalog_admin"] not in host  # even on the admin's browser
    later = new_game(client, PLAYERS)
    host = page_text(client.get(f"/host/{later['id']}?key={later['host_token']}", follow_redirects=True))
    assert "1 of 145 records checked against a copy" in host
    assert app.extensions["catalog_admin"] not in page_text(app.test_client().get("/"))  # not on the open page


def test_only_the_admins_browser_is_shown_the_admin_link(app):
    """The admin's own /catalog page offers the link as a QR code for a phone; no other browser sees it,
    on any catalog page."""
    key = app.extensions["catalog_admin"]
    owner = admin(app)
    page = page_text(owner.get("/catalog"))
    passing = page[page.index('id="pass-on"'):page.index("</details>", page.index('id="pass-on"'))]
    assert '<div class="qr"><svg' in passing and key not in page  # the link as a QR code, never as text
    guest = app.test_client()
    for path in ("/catalog", "/catalog/hex", "/catalog/hex/n04", "/catalog/changes", "/catalog/export"):
        assert key not in page_text(guest.get(path)) and 'id="pass-on"' not in page_text(guest.get(path)), path
    assert 'id="pass-on"' not in page_text(owner.get("/catalog/hex/n04"))  # only the page meant for passing it on


def test_the_admin_key_is_made_once_in_the_instance_folder_and_kept(tmp_path):
    first = create_app({"INSTANCE": str(tmp_path), "TESTING": True}).extensions["catalog_admin"]
    assert len(first) == 64 and (tmp_path / "admin_key").stat().st_mode & 0o077 == 0
    assert create_app({"INSTANCE": str(tmp_path), "TESTING": True}).extensions["catalog_admin"] == first


def _file(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


def test_the_admin_key_is_hidden_in_log_lines_as_other_keys_are():
    key = "ab" * 32
    for line in (f"GET /catalog?key={key} HTTP/1.1", f"Cookie: csrf=1; catalog_admin={key}"):
        assert key not in hide_secrets(line) and "[hidden]" in hide_secrets(line)


def test_a_public_page_is_drawn_once_per_catalog_and_language(app):
    """Issue 21: /catalog/board (329 KB) was drawn again for every reader. Now once per content: the same
    catalog and language send the page as it was (gzipped once); another language, a correction (a new
    fingerprint) draw it anew; the admin's pages, with their forms, are drawn each time."""
    reader = app.test_client()
    reader.get("/catalog")  # the first page makes the cache
    pages = app.extensions["public_pages"]
    first = reader.get("/catalog/board")
    drawn = pages.drawn
    again = reader.get("/catalog/board?anything=else", headers={"Accept-Encoding": "gzip"})
    assert pages.drawn == drawn and again.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(again.data) == first.data and "Set-Cookie" not in again.headers
    assert "Deutsch" in page_text(reader.get("/catalog/board", headers={"Accept-Language": "de"}))
    assert pages.drawn == drawn + 1
    owner = admin(app)
    for _ in range(2):
        assert 'id="correct"' in page_text(owner.get("/catalog/hex/n04"))
    assert 'id="correct"' not in page_text(reader.get("/catalog/hex/n04")) and pages.drawn == drawn + 2
    owner.post("/catalog/board/a/check", data={"csrf": csrf(owner)})
    assert "1 of 145 checked against a copy" in page_text(reader.get("/catalog/board")) and pages.drawn == drawn + 3


# --- corrections that forgive and never leak (issue 21) -------------------------------------------------

def kept(app, family: str, rid: str) -> dict:
    """The record as the corrections file keeps it."""
    return next(r for r in tomllib.loads(override(app).decode())[family] if r["id"] == rid)


@pytest.mark.parametrize("lang, typed, grammar", [
    ("en", "3 coins", "3 coin"), ("en", "build or 1 major fire", "build or 1 major-fire"),
    ("en", "1 Lumber + 1 coin", "1 lumber and 1 coin"), ("en", "3 coin", "3 coin"), ("en", "nothing", "nothing"),
    ("fr", "2 pièces ou 1 poutre", "2 coin or 1 lumber"), ("fr", "construire ou 1 incendie majeur", "build or 1 major-fire"),
    ("de", "3 Münzen oder 2 VP", "3 coin or 2 vp"), ("de", "3 coins", "3 coin"),
])
def test_a_reward_typed_as_the_page_writes_it_is_kept_in_the_grammar(app, lang, typed, grammar):
    """R-ACT-2: the box takes what the card shows ("3 coins", in the reader's language too) as well as the
    grammar's own "3 coin", and keeps the grammar."""
    client = admin(app)
    client.get(f"/language/{lang}")
    r = client.post("/catalog/hex/n04", data=form_of(client, "hex", "n04") | {"action": typed, "csrf": csrf(client)})
    assert r.status_code == 303, page_text(r)
    assert kept(app, "hex", "n04")["action"] == grammar


def test_costs_and_citizens_take_the_pages_words_too(app):
    """R-REPOP-3: a repopulation's cost and citizens as the card writes them."""
    client = admin(app)
    form = form_of(client, "hex", "n04") | {"repop_cost": "2 fires", "repop_citizens": "2 aristocrats + 1 upgraded nun"}
    assert client.post("/catalog/hex/n04", data=form | {"csrf": csrf(client)}).status_code == 303
    assert (kept(app, "hex", "n04")["repop_cost"], kept(app, "hex", "n04")["repop_citizens"]) == \
        ("2 fire", "2 aristocrat and 1 upgraded nun")


@pytest.mark.parametrize("field, typed, words", [
    ("action", "2 gold", "Hex 4: Action: unknown icon &#39;gold&#39;"),
    ("repop_cost", "1 vp", "Hex 4: Repopulation cost: a cost may only use tokens"),
    ("class", "B", "Hex 4: 3 B hexes, R-SETUP-2/3 needs exactly 2"),  # refused by the loader, not the form
])
def test_a_refusal_names_the_record_and_the_field_never_a_path(app, field, typed, words):
    client = admin(app)
    r = client.post("/catalog/hex/n04", data=form_of(client, "hex", "n04") | {field: typed, "csrf": csrf(client)})
    text = re.sub(r"<a class=\"rule\"[^>]*>([^<]*)</a>", r"\1", page_text(r))  # a rule it cites is a link
    assert r.status_code == 400 and words in text, text[text.find('id="refused"'):][:600]
    assert str(app.extensions["catalog_file"].parent) not in text and "catalog.toml" not in text
    assert override(app) is None


def test_a_refused_change_is_not_shown_as_a_difference_and_the_changes_page_agrees(app):
    """The page never says "Not saved" while showing the change as made: the card is the record as kept
    (with an earlier correction that was saved), the form holds what was typed, and /catalog/changes
    shows the same differences as the record's card."""
    client = admin(app)
    client.post("/catalog/hex/n04", data=form_of(client, "hex", "n04") | {"repop_vp": "9", "csrf": csrf(client)})
    r = client.post("/catalog/hex/n04", data=form_of(client, "hex", "n04") | {"action": "2 gold", "csrf": csrf(client)})
    text = page_text(r)
    card = text[text.index('id="r-n04"'):text.index('id="correct"')]
    assert "Not saved" in text and "gold" not in card and "<ins>9</ins>" in card
    assert 'name="action" value="2 gold"' in text  # what was typed, to put right
    changes = page_text(client.get("/catalog/changes"))
    listed = changes[changes.index('id="r-n04"'):]
    listed = listed[:listed.index("</article>")]
    assert re.findall(r"<ins>(.*?)</ins>", listed) == re.findall(r"<ins>(.*?)</ins>", card) == ["9"]


def test_a_value_a_record_lacks_can_be_added_on_its_page(app):
    """R-REPOP-2: hex n05 ships without repopulation requirements; a table whose copy prints some adds them."""
    client = admin(app)
    page = page_text(client.get("/catalog/hex/n05"))
    added = page[page.index('id="added"'):page.index("</fieldset>", page.index('id="added"'))]
    assert all(f'name="{name}"' in added for name in ("repop_cost", "repop_citizens", "repop_lieutenant", "repop_vp"))
    form = form_of(client, "hex", "n05") | {"repop": "yes", "repop_cost": "1 coins", "repop_citizens": "2 nuns",
                                            "repop_lieutenant": "", "repop_vp": "5", "csrf": csrf(client)}
    assert client.post("/catalog/hex/n05", data=form).status_code == 303
    record = kept(app, "hex", "n05")
    assert (record["repop"], record["repop_cost"], record["repop_citizens"], record["repop_vp"]) == \
        (True, "1 coin", "2 nun", 5) and "repop_lieutenant" not in record
    hexes = app.extensions["store"].load(new_game(client, PLAYERS)["id"]).state.catalog.hexes
    assert hexes["n05"].repop and hexes["n05"].repop_vp == 5


def test_a_whole_family_is_checked_from_one_page_and_the_odd_ones_wait(app):
    client = admin(app)
    grid = page_text(client.get("/catalog/hex/all"))
    ticks = re.findall(r'<input type="checkbox" name="match" value="([^"]+)" checked>', grid)
    assert len(ticks) == 20 and grid.count('<figure class="face">') == 20
    r = client.post("/catalog/hex/all", data={"csrf": csrf(client), "match": [t for t in ticks if t not in ("n03", "n07")]})
    assert r.status_code == 303 and r.headers["Location"] == "/catalog/hex/all#odd"
    assert "18 of 145 checked against a copy" in page_text(client.get("/catalog"))
    odd = page_text(client.get("/catalog/hex/all"))
    odd = odd[odd.index('id="odd"'):]
    assert re.findall(r'href="/catalog/hex/(n\d+)"', odd) == ["n03", "n07"]
    guest = app.test_client()
    assert guest.post("/catalog/hex/all", data={"csrf": csrf(guest), "match": ["n03"]}).status_code == 403
    assert 'name="match"' not in page_text(guest.get("/catalog/hex/all"))


def test_a_catalog_page_loads_the_catalog_at_most_once_per_request(app, monkeypatch):
    """Issue 24 item 3: the corrections file is read on every page but loaded (validated into a catalog)
    once per content. Each page of an admin's walk, and each change, loads at most once; reading the same
    pages again loads nothing."""
    shipped_catalog()  # the shipped catalog is loaded once per process
    loads = []
    real = loader.merge_files  # each load of the files merges them first, whoever asks
    monkeypatch.setattr(loader, "merge_files", lambda *a, **k: loads.append(1) or real(*a, **k))
    client = admin(app)
    token = csrf(client)
    loads.clear()
    r = client.post("/catalog/hex/n01/check", data={"csrf": token})
    assert r.status_code == 303 and len(loads) <= 1
    pages = ["/catalog", "/catalog/changes", "/catalog/hex", "/catalog/hex/all", "/catalog/hex/n01", "/catalog/boat/boat-1",
             "/"]
    for path in pages:
        loads.clear()
        assert client.get(path).status_code == 200, path
        assert len(loads) <= 1, path
    loads.clear()
    for path in pages:
        client.get(path)
    assert loads == []
    form = form_of(client, "hex", "n02")
    loads.clear()
    assert client.post("/catalog/hex/n02", data={**form, "csrf": token}).status_code == 303
    assert len(loads) <= 1
