"""Player names (companion/names.py): control characters, text-direction overrides, invisible
characters and names with nothing visible are refused with a message, and two seats may not share a
name; everything else a person might be called (accents, any script, emoji, a script tag) is kept."""

from __future__ import annotations

import re

import pytest

from companion.names import BadName, player_name, same_name, same_names


def games(app) -> int:
    return len(app.extensions["store"].games())


def form_create(client, names: list[str]):
    page = client.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    colours = ["red", "yellow", "blue", "green"]
    form = {"csrf": csrf, **{f"name{i}": n for i, n in enumerate(names)},
            **{f"colour{i}": colours[i] for i in range(len(names))}}
    return client.post("/games", data=form)


def api_create(client, names: list[str]):
    colours = ["red", "yellow", "blue", "green"]
    return client.post("/api/games", json={"players": [{"name": n, "colour": c} for n, c in zip(names, colours)]})


HIDING = {
    "right-to-left override": "\u202eadA",
    "left-to-right embedding": "Ada\u202a",
    "isolate": "\u2066Ada\u2069",
    "zero-width space inside": "A\u200bda",
    "zero-width space only": "\u200b\u200b",
    "byte order mark": "\ufeffAda",
    "joiner alone": "\u200d",
    "tab": "Ada\tBruno",
    "escape": "Ada\x1b[31m",
    "null": "Ada\x00",
    "line separator": "Ada\u2028Bruno",
    "soft hyphen": "A\u00adda",
}
NOTHING_VISIBLE = {"hangul filler": "\u3164", "braille blank": "\u2800\u2800", "a lone accent": "\u0301"}


@pytest.mark.parametrize("label", list(HIDING) + list(NOTHING_VISIBLE))
def test_a_name_that_hides_something_is_refused_with_a_message_on_the_form_and_in_json(app, label):
    name = HIDING.get(label) or NOTHING_VISIBLE[label]
    client = app.test_client()
    r = form_create(client, ["Bruno", name])
    body = r.get_data(as_text=True)
    assert r.status_code == 400 and "name" in body and ("invisible" in body or "visible" in body), body[-600:]
    r = api_create(client, ["Bruno", name])
    assert r.status_code == 400 and "name" in r.get_json()["error"]
    assert games(app) == 0


@pytest.mark.parametrize("a,b", [("Ada", "Ada"), ("Ada", "ada"), ("Ada", "  ADA "), ("Zoë", "Zoe\u0308"),
                                 ("Ada", "Ａｄａ"), ("Ada Lovelace", "Ada   Lovelace"), ("Straße", "STRASSE")])
def test_two_seats_may_not_share_a_name(app, a, b):
    client = app.test_client()
    r = form_create(client, [a, "Chiara", b])
    assert r.status_code == 400
    assert "Players 1 and 3 have the same name. Give each player a different name." in r.get_data(as_text=True)
    r = api_create(client, [a, b])
    assert r.status_code == 400 and "different name" in r.get_json()["error"]
    assert games(app) == 0


KEPT = ["Ada", "Zoë", "Ana María", "李小龍", "Ελένη", "Мария", "مريم", "דָּנִיאֵל", "मीरा", "😀",
        "👩\u200d👩\u200d👧", "❤\ufe0f\u200d🔥", "می\u200cرود", "<script>alert(1)</script>", "50% off", "O'Brien"]


def test_names_people_have_are_kept_as_typed(app):
    client = app.test_client()
    for i in range(0, len(KEPT), 4):
        names = KEPT[i:i + 4]
        r = api_create(client, names)
        assert r.status_code == 201, (names, r.get_json())
        state = client.get(f"/api/games/{r.get_json()['id']}/state",
                           headers={"X-Host-Token": r.get_json()["host_token"]}).get_json()["state"]
        assert [s["name"] for s in state["seats"]] == names


def test_spaces_are_trimmed_and_single_and_a_name_is_at_most_40_characters():
    assert player_name("  Ada   Lovelace  ") == "Ada Lovelace"
    assert player_name("   ") == ""  # a row left blank
    assert player_name("x" * 60) == "x" * 40
    assert player_name("a" * 39 + "\u200d" + "b") == "a" * 39  # no joiner left dangling by the cut


def test_the_rules_on_their_own():
    for name in list(HIDING.values()) + list(NOTHING_VISIBLE.values()) + ["\ud800"]:
        with pytest.raises(BadName):
            player_name(name)
    assert same_name("Ada", "A\u200dda")  # a joiner cannot make a second "Ada"
    assert not same_name("Ada", "Adam")
    assert same_names(["Ada", "Bruno", "", "BRUNO"]) == (1, 3) and same_names(["Ada", "", "Bruno", ""]) is None


def test_a_lone_surrogate_is_still_refused_as_unshowable(app):
    r = app.test_client().post("/api/games", data=b'{"players": [{"name": "\\ud800", "colour": "red"}]}',
                               content_type="application/json")
    assert r.status_code == 400 and "cannot be shown" in r.get_json()["error"] and games(app) == 0


def test_a_refusal_never_echoes_what_was_typed(app):
    """Error pages show their message as it is: a name must not travel in it."""
    r = form_create(app.test_client(), ["<b>x</b>", "<b>X</b>"])
    assert r.status_code == 400 and "<b>" not in r.get_data(as_text=True)


def test_a_refused_form_comes_back_as_typed_with_what_to_change(app):
    client = app.test_client()
    r = form_create(client, ["Bruno", "\u202eadA", "Chiara"])
    body = r.get_data(as_text=True)
    assert r.status_code == 400 and 'role="alert"' in body and "text-direction" in body
    assert 'value="Bruno"' in body and 'value="Chiara"' in body and 'name="csrf"' in body
    assert '<option value="blue" selected>' in body  # the colours as chosen
    r = form_create(client, ["<b>x</b>", "<b>X</b>"])
    assert 'value="&lt;b&gt;x&lt;/b&gt;"' in r.get_data(as_text=True)  # typed text comes back escaped
