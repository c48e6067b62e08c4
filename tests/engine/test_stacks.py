"""The last tile of a stack (issue 31): a face-up tile is on offer while it lies face up, whether or not
tiles remain below it (R-BUILD-4 "turn up the tile below it"; R-SETUP-9, R-SETUP-11 "turn up the top tile in
each stack"). Taking it leaves the stack empty: nothing turns up, the table is told so, and the next Build
names the stack greyed with its reason. The same through the solo opponent's red action (R-SOLO-7)."""

from __future__ import annotations

import pytest

from companion.engine.flow import MAIN, push, run
from companion.engine.twin import put_back
from companion.engine.state import Stack

from scenario import available, find, game, give, grant, kind, pending, pick, scenario, whose


def _last_improvement(s, i: int = 0) -> str:
    """Improvement stack `i` down to its face-up tile (its unseen tiles stay with the other stacks)."""
    st = s.improvements[i]
    st.hidden, st.top, st.bottom = 0, [], []
    return st.up


def _last_workshop(s, cls: str) -> str:
    """The `cls` early workshop stack down to its face-up tile: the unseen ones were built before."""
    st = s.workshops[cls]
    s.pools[st.pool] = []
    st.hidden, st.top, st.bottom = 0, [], []
    return st.up


def _last_wagon(s, i: int = 0) -> str:
    ws = s.wagon_stacks[i]
    ws.backs = []
    return ws.up


#: (how to run a stack down to its face-up tile, the Build option's value, the stack as it reads, its rule)
KINDS = {
    "improvement": (lambda s: _last_improvement(s, 1), {"build": "improvement", "stack": 1},
                    "improvement stack 2", "R-BUILD-3", lambda s: s.improvements[1]),
    "workshop": (lambda s: _last_workshop(s, "aristocrat"), {"build": "workshop", "cls": "aristocrat"},
                 "aristocrat workshop stack", "R-BUILD-4", lambda s: s.workshops["aristocrat"]),
    "wagon": (lambda s: _last_wagon(s, 0), {"build": "wagon", "stack": 0}, "wagon stack 1", "R-BUILD-7",
              lambda s: s.wagon_stacks[0]),
}


def _rich_build(s):
    give(s, 0, coins=30, lumber=10, fire=5, major_fire=5)
    return grant(s, 0, "build")


@pytest.mark.parametrize("draw", ["app", "table"])
@pytest.mark.parametrize("what", list(KINDS))
def test_R_BUILD_4_R_SETUP_9_11_the_last_face_up_tile_is_offered_and_taking_it_empties_the_stack(what, draw):
    run_down, value, name, rule, stack_of = KINDS[what]
    s = scenario(3, seed=3)
    s.options.draw = draw  # the table draws from here on: an empty stack must ask nothing
    last = run_down(s)
    assert last
    _rich_build(s)
    offered = find(s, 0, value)
    assert offered["available"], f"the last tile of the {name} is face up and must be on offer: {offered}"
    log_before = len(s.log)
    pick(s, 0, value)
    if what == "improvement":
        pick(s, 0, 0)  # R-BUILD-3: onto cabin 1
    assert all(d["who"] != "host" for d in pending(s)), "nothing is left to turn up: no draw question"
    st = stack_of(s)
    assert st.up is None and st.empty
    told = [e for e in s.log[log_before:] if e.get("msg") == "The {where} is empty: nothing to turn up."]
    assert told, "the table is told the stack is empty"
    assert told[0]["rule"] == rule

    _rich_build(s)
    greyed = find(s, 0, value)
    assert not greyed["available"]
    assert greyed["reason"] == f"the {name} is empty" and greyed["rule"] == rule
    assert greyed["label"] == f"Build from the {name}"


def test_R_BUILD_4_a_stack_with_tiles_below_still_turns_up_the_next():
    s = scenario(3, seed=3)
    st = s.workshops["nun"]
    first = st.up
    _rich_build(s)
    pick(s, 0, {"build": "workshop", "cls": "nun"})
    assert st.up not in (None, first) and not st.empty


def test_R_BUILD_2_cycling_a_stack_down_to_its_face_up_tile_turns_the_same_tile_up_again():
    s = scenario(3, seed=3)
    last = _last_workshop(s, "craftsman")
    _rich_build(s)
    pick(s, 0, {"cycle": "workshops", "pay": "coins"})
    while whose(s) == "host":
        pick(s, "host", available(s, "host")[0]["value"])
    assert s.workshops["craftsman"].up == last and kind(s) == "build"
    assert find(s, 0, {"build": "workshop", "cls": "craftsman"})["available"]


def test_a_stack_is_on_the_table_even_with_nothing_below_its_face_up_tile():
    """The trap issue 31 fell into: an empty `len` made the stack read as absent."""
    st = Stack(pool="p", up="tile")
    assert len(st) == 0 and bool(st) and not st.empty
    st.up = None
    assert st.empty


@pytest.mark.parametrize("cls", ["aristocrat", "nun", "craftsman"])
def test_R_SOLO_7_the_opponent_takes_the_last_face_up_workshop_and_the_stack_stays_empty(cls):
    s = game(1, seed=2)
    last = _last_workshop(s, cls)
    hexes = [t for t in s.hexes if t in s.catalog.hexes]
    s.lanes = {MAIN: []}
    push(s, MAIN, {"do": "opponent_action", "action": f"workshop-{cls}", "hex": hexes[0]})
    run(s)
    assert s.workshops[cls].empty
    said = [e["msg"] for e in s.log[-2:]]
    assert "The opponent takes the {tile}; it leaves the game." in said
    assert "The {where} is empty: nothing to turn up." in said
    assert any(f"workshop:{last}" in str(e.get("args")) for e in s.log[-2:])
    # the next red action of that class finds nothing
    push(s, MAIN, {"do": "opponent_action", "action": f"workshop-{cls}", "hex": hexes[0]})
    run(s)
    assert s.log[-1]["msg"] == "No {cls} workshop is face up: the opponent takes nothing."


def test_R_SOLO_7_the_opponent_takes_the_last_improvement_and_wagon():
    s = game(1, seed=2)
    last_imp = _last_improvement(s, 0)
    last_wagon = _last_wagon(s, 0)
    hexes = [t for t in s.hexes if t in s.catalog.hexes]
    s.lanes = {MAIN: []}
    push(s, MAIN, {"do": "opponent_action", "action": "improvements", "hex": hexes[0]},
         {"do": "opponent_action", "action": "wagon", "hex": hexes[0]})
    run(s)
    assert s.improvements[0].empty and s.improvements[1].up and s.wagon_stacks[0].empty
    assert last_imp and last_wagon
    empties = [e for e in s.log if e.get("msg") == "The {where} is empty: nothing to turn up."]
    assert len(empties) == 2


@pytest.mark.parametrize("what", list(KINDS))
def test_R_BUILD_4_undoing_the_build_of_a_last_tile_lays_it_face_up_again(what):
    """The undo's put-back lines (engine/put_back/) read the emptied stack like any other."""
    run_down, value, name, _rule, _stack = KINDS[what]
    s = scenario(3, seed=3)
    last = run_down(s)
    _rich_build(s)
    before_build = s.clone()
    pick(s, 0, value)
    if what == "improvement":
        pick(s, 0, 0)
    lines = put_back(s, before_build)
    again = [ln for ln in lines if ln["msg"] in ("Lay the {tile} face up on the {stack}.",
                                                 "Lay the {tile} face up on wagon stack {n}.")]
    assert len(again) == 1 and again[0]["args"]["tile"]["args"]["face"] == f"{what}:{last}", lines
