"""The printed faces (companion/pictures/faces): every record of the shipped catalog draws as valid SVG,
no internal id is ever written on a face, every colour comes with its letter, rewards are drawn as the
rulebook's icons with their numbers, and a corrected record draws a corrected face."""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.catalog import catalog_from_records, shipped_catalog
from companion.catalog.loader import catalog_from_files
from companion.catalog.read import DATA_DIR
from companion.catalog.rewards import parse_reward
from companion.pictures.faces import DRAW, face, record_ids
from companion.pictures.letters import class_letter, hex_letter
from companion.pictures.faces.shapes import CARGO
from companion.pictures.glyphs import CLASS_FILL, HEX_FILL, PLAYER_FILL, letter
from companion.pictures.icons import reward_icons

NS = "{http://www.w3.org/2000/svg}"
CATALOG = shipped_catalog()
EVERY = [(family, rid) for family in DRAW for rid in record_ids(CATALOG, family)]
#: the shapes of internal ids the issue names (n04, ws1-a3, imp-03, s04, w2…), whatever family they are from
ID_SHAPES = re.compile(r"\b(n\d\d|ws\d-[a-z]\d+|imp-\d+|s\d\d|w\d|x\d|solo-\d+|boat-\d+|wagon-\d+[ab]|dock-\w+|"
                       r"docking-\w+|harbor-\w+|[a-z]+-\d?p)\b")


def parse(markup) -> ET.Element:
    return ET.fromstring(str(markup))


def visible_words(root: ET.Element) -> list[str]:
    """What a player reads on a face: its drawn text and its tooltips (titles)."""
    return ["".join(e.itertext()) for e in root.iter() if e.tag in (NS + "text", NS + "title")]


def internal_ids() -> set[str]:
    """Every record id of the shipped catalog that is not a plain word or a printed side letter,
    and the ids inside records (squares, regions, overseer path spaces, expansion spaces)."""
    ids = {rid for family, rid in EVERY}
    for board in CATALOG.boards.values():
        ids |= {s.id for s in board.squares} | {s.region for s in board.squares}
        for path in board.paths.values():
            ids |= {sp.id for sp in (path.first, *path.left, *path.right)}
    for layout in CATALOG.layouts.values():
        ids |= set(layout.expansion)
    return {i for i in ids if len(i) > 1 and not i.isalpha()}


def test_issue_13_every_record_of_every_family_draws_as_svg_with_its_family_id_and_a_title():
    assert set(DRAW) >= {"hex", "harbor", "docking_tile", "boat", "workshop", "improvement", "wagon", "solo_tile",
                         "wheel", "register", "board", "scroll_board"}
    assert len([1 for f, _r in EVERY if f in ("hex", "harbor", "boat", "workshop", "improvement", "wagon",
                                               "solo_tile")]) == 20 + 4 + 9 + 33 + 15 + 10 + 14
    for family, rid in EVERY:
        root = parse(face(CATALOG, family, rid))
        assert root.tag == NS + "svg" and root.get("data-family") == family and root.get("data-id") == rid
        assert "face" in root.get("class").split()
        title = root.find(NS + "title")
        assert title is not None and len(title.text) > 10 and root.get("aria-label") == title.text


def test_no_internal_id_is_written_on_any_face():
    ids = internal_ids()
    assert {"n04", "ws1-a3", "imp-03", "w2", "x1", "solo-01"} <= ids
    for family, rid in EVERY:
        for words in visible_words(parse(face(CATALOG, family, rid))):
            tokens = set(re.findall(r"[\w-]+", words))
            assert not tokens & ids, (family, rid, words)
            assert not ID_SHAPES.search(words), (family, rid, words)


def _ancestors(root: ET.Element) -> dict:
    return {child: parent for parent in root.iter() for child in parent}


def _letters_near(node, parents) -> set[str]:
    """The letters written in the group a coloured shape belongs to."""
    group = parents.get(node, node)
    return {"".join(t.itertext()) for t in group.iter(NS + "text")}


def test_every_colour_drawn_carries_its_letter():
    """Hex colours (O/W/B/R), citizen and overseer classes (A/N/C), boat goods and player colours never
    rely on colour alone."""
    by_fill = {**{HEX_FILL[c]: hex_letter(c) for c in ("orange", "white", "blue", "red")},
               **{CLASS_FILL[c]: class_letter(c) for c in CLASS_FILL},
               **{fill: letters for fill, letters in CARGO.values()},
               **{PLAYER_FILL[c]: letter(c) for c in PLAYER_FILL}}
    seen = set()
    for family, rid in EVERY:
        root = parse(face(CATALOG, family, rid))
        parents = _ancestors(root)
        for node in root.iter():
            fill = node.get("fill")
            if fill in by_fill:
                seen.add(fill)
                assert by_fill[fill] in _letters_near(node, parents), (family, rid, node.attrib)
    assert seen == set(by_fill)  # every colour was drawn somewhere, and checked there


def test_a_hex_shows_its_colour_letter_rat_class_and_player_mark():
    for rid, h in CATALOG.hexes.items():
        root = parse(face(CATALOG, "hex", rid))
        mark = root.find(f".//{NS}g[@data-colour='{h.colour}']")
        assert mark is not None and "".join(mark.itertext()).endswith(hex_letter(h.colour))
        rat = root.find(f".//{NS}g[@class='rat rat-{h.rat}']")
        assert (rat is None) == (h.rat == "none")
        cls = root.find(f".//{NS}g[@class='class-mark']")
        assert cls.get("data-class") == h.cls and cls.get("data-players") == (h.players or "")
        assert (root.find(f".//{NS}g[@class='repop']") is not None) == h.repop


def items(markup) -> list[list[tuple[str, int]]]:
    """A drawn reward read back: its options, each a list of (icon, count)."""
    root = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{markup}</svg>')
    options, current = [], []
    for node in root.find(NS + "g"):
        if node.get("class") == "or":
            options.append(current)
            current = []
        elif node.get("class") == "item":
            current.append((node.get("data-icon"), int(node.get("data-count"))))
    return options + [current]


def test_R_ACT_2_a_slash_offers_a_choice_build_or_one_major_fire():
    drawn = reward_icons(parse_reward("build or 1 major-fire"), 0, 0, 200)
    assert items(drawn) == [[("build", 1)], [("major-fire", 1)]]
    assert str(drawn).count('class="or"') == 1


def test_R_BUILD_8_and_R_EOR_2_bundles_draw_every_icon_with_its_number():
    """The late nun workshop's once-only 1 fire + 3 VP; an improved cabin's 1 fire + 1 VP."""
    drawn = reward_icons(parse_reward("1 fire and 3 vp"), 0, 0, 200)
    assert items(drawn) == [[("fire", 1), ("vp", 3)]]
    root = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{drawn}</svg>')
    assert "3" in ["".join(t.itertext()) for t in root.iter(NS + "text")]  # the VP shield carries its number
    two = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{reward_icons(parse_reward("2 coin"), 0, 0, 200)}</svg>')
    assert [("".join(t.itertext())) for t in two.iter(NS + "text")] == ["2"]  # "2" beside one coin icon


def test_R_REPOP_5_a_hex_shows_its_repopulation_cost_citizens_and_vp():
    """Example 1 (hex n01 in our catalog): 1 lumber + 2 aristocrats, no lieutenant."""
    root = parse(face(CATALOG, "hex", "n01"))
    repop = root.find(f".//{NS}g[@class='repop']")
    assert repop.find(f".//{NS}g[@data-icon='lumber']") is not None
    assert repop.find(f".//{NS}g[@class='icon-citizen icon-citizen-aristocrat']") is not None
    texts = ["".join(t.itertext()) for t in repop.iter(NS + "text")]
    assert "2" in texts and "A" in texts and str(CATALOG.hexes["n01"].repop_vp) in texts
    assert repop.find(f".//{NS}g[@class='icon icon-lieutenant']") is None


def test_the_same_reward_draws_the_same_on_a_hex_a_workshop_and_a_register_space():
    """One drawing of the reward grammar: "2 coin" is the same icons and numbers wherever it is printed."""
    alone = items(reward_icons(parse_reward("2 coin"), 0, 0, 200))
    found = {}
    for family, rid in EVERY:
        root = parse(face(CATALOG, family, rid))
        for group in root.iter(NS + "g"):
            if group.get("class") == "reward" and group.find(NS + "title").text == "2 coins":
                found.setdefault(family, []).append(items(ET.tostring(group, encoding="unicode")))
    assert {"hex", "workshop", "register"} <= set(found)
    assert all(drawn == alone == [[("coin", 2)]] for seen in found.values() for drawn in seen)


def shipped_record(family: str, rid: str) -> dict:
    for path in sorted(Path(DATA_DIR).glob("*.toml")):
        for rec in tomllib.loads(path.read_text(encoding="utf-8")).get(family, []):
            if rec["id"] == rid:
                return rec
    raise KeyError(rid)


def as_toml(family: str, rec: dict) -> bytes:
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return repr(v) if isinstance(v, int) else '"' + v + '"'
    return (f"[[{family}]]\n" + "".join(f"{k} = {value(v)}\n" for k, v in rec.items())).encode()


def test_a_corrected_record_draws_a_corrected_face(tmp_path):
    """A table corrects hex n04's action and repopulation VP in its override file: the face follows."""
    rec = dict(shipped_record("hex", "n04"), action="3 lumber", repop_vp=9, source="rulebook")
    rec.pop("rulebook_fields", None)
    fixed = catalog_from_files(tmp_path / "catalog.toml", as_toml("hex", rec))
    before, after = parse(face(CATALOG, "hex", "n04")), parse(face(fixed, "hex", "n04"))

    def action(root):
        printed = root.find(f"{NS}g[@class='reward']")
        return [(g.get("data-icon"), g.get("data-count")) for g in printed.iter(NS + "g") if g.get("class") == "item"]

    assert action(before) == [("build", "1"), ("major-fire", "1")]  # R-ACT-2's example, as shipped
    assert action(after) == [("lumber", "3")]
    vp_of = lambda root: "".join(root.find(f".//{NS}g[@class='repop']/{NS}g[@class='icon icon-vp']").itertext())  # noqa
    assert vp_of(after) == "9" and vp_of(before) != "9"


def test_a_face_draws_only_what_its_record_holds():
    """Two catalogs that differ in one boat's reward draw every other face the same."""
    records = json.loads(CATALOG.records_json)
    boat = next(r for r in records["boat"] if r["id"] == "boat-5")
    boat["reward"] = "4 vp"
    changed = catalog_from_records(records)
    for family, rid in EVERY:
        same = str(face(CATALOG, family, rid)) == str(face(changed, family, rid))
        assert same == ((family, rid) != ("boat", "boat-5")), (family, rid)


@pytest.mark.parametrize("family", sorted(DRAW))
def test_fixed_words_go_through_gettext(family):
    mark = lambda s: f"«{s}»"  # noqa: E731
    rid = record_ids(CATALOG, family)[0]
    title = parse(face(CATALOG, family, rid, mark)).find(NS + "title").text
    assert "«" in title, title


def test_an_unknown_family_or_record_is_a_key_error():
    with pytest.raises(KeyError):
        face(CATALOG, "meeple", "x")
    with pytest.raises(KeyError):
        face(CATALOG, "hex", "n99")
