"""Production before quarantine (issue 22 item 1): a Build or any-hex action earned in production is part of
production, so it is resolved, in play order, before any citizen leaves quarantine (R-EOR-1, R-EOR-4,
R-CIT-3); what a citizen *leaving* quarantine earns (a late workshop's reward, Q-9) comes after it, still
in that upkeep (C-4). A citizen leaving quarantine may first have a sector citizen move into a workshop to
make room (R-CIT-4, C-21). Games saved before keep the order they were recorded with."""

from __future__ import annotations

import re

from flask import render_template

from companion.engine.pieces import Pieces
from companion.engine import table_view
from companion.web import create_app
from companion.web.told import checklist

from scenario import (add_workshop, fill_sector, give, in_cabin, open_decisions, only_the_table_is_asked, pick,
                      report_rules, report_with, set_round, to_upkeep)
from scenario import bare


def _build_workshop(cat):
    """The early workshop whose production is a Build (it needs an upgraded citizen)."""
    return next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
                if w.era == 1 and w.output.phrase == "build")


def _late_build_workshop(cat):
    """A late workshop whose one-time reward includes a Build, for a regular citizen."""
    return next(w for w in sorted(cat.workshops.values(), key=lambda w: w.id)
                if w.era == 2 and not w.needs_upgraded and "build" in w.reward.icons())


def reproduction():
    """The issue's position: round II; the first seat's early workshop yields a Build (an upgraded citizen
    holds it), an aristocrat waits in quarantine space II, the aristocrat sector is full, and coins and
    lumber are to spare. Returns the state at upkeep and that seat."""
    state = bare()
    seat = _crowded(state)
    give(state, seat, coins=20, lumber=20)
    to_upkeep(state)
    return state, seat


def _crowded(state) -> int:
    """Round II; the first seat's early workshop yields a Build with an upgraded citizen on it, an aristocrat
    waits in quarantine space II and the aristocrat sector is full. Returns that seat."""
    set_round(state, 2)
    seat = state.order[0]
    ws = _build_workshop(state.catalog)
    add_workshop(state, seat, ws.id, ws.cls, upgraded=True)
    in_cabin(state, seat, 0, "aristocrat", space=2)
    fill_sector(state, seat, "aristocrat")
    return seat


def test_R_EOR_1_R_EOR_4_R_CIT_3_the_citizen_leaving_quarantine_enters_the_workshop_built_in_production():
    state, seat = reproduction()
    asked = open_decisions(state)
    assert [(d["who"], d["kind"]) for d in asked] == [(seat, "build")], \
        "R-EOR-4: the Build earned in production is asked before quarantine advances"
    assert "R-CIT-3" not in report_rules(state) and "Q-7" not in report_rules(state), "quarantine has not moved yet"
    built = state.workshops["aristocrat"].up
    pick(state, seat, {"build": "workshop", "cls": "aristocrat"})
    new = len(state.seats[seat].workshops) - 1
    assert state.seats[seat].workshops[new].tile == built
    assert [(d["who"], d["kind"]) for d in open_decisions(state)] == [(seat, "leave_quarantine")]
    pick(state, seat, ["workshop", new])
    assert state.seats[seat].workshops[new].citizen is not None, "R-CIT-3: it enters the new workshop"
    assert state.seats[seat].workshops[new].citizen.cls == "aristocrat"
    assert not report_with(state, "Q-7"), "nobody is discarded: the workshop exists when quarantine advances"
    assert only_the_table_is_asked(state) and state.round == 3


def test_R_EOR_1_R_EOR_4_Q_9_C_4_production_builds_come_first_and_a_late_reward_from_quarantine_after():
    """Both orders in one upkeep: seat A's Build from production comes before quarantine; seat B's Build,
    earned when its citizen leaves quarantine into a late workshop (Q-9), comes after quarantine and before
    round VI's setup (C-4)."""
    state = bare()
    set_round(state, 5)
    cat = state.catalog
    a, b = state.order[0], state.order[1]
    ws = _build_workshop(cat)
    add_workshop(state, a, ws.id, ws.cls, upgraded=True)
    late = _late_build_workshop(cat)
    in_cabin(state, b, 0, late.cls, space=2)
    shop = add_workshop(state, b, late.id)
    to_upkeep(state)
    seen = []
    while not only_the_table_is_asked(state):
        d = open_decisions(state)[0]
        seen.append((d["who"], d["kind"]))
        if d["kind"] == "build":
            pick(state, d["who"], {"build": None})
        elif d["kind"] == "leave_quarantine":
            pick(state, d["who"], ["workshop", shop])
        else:
            raise AssertionError(f"unexpected question {d}")
    assert seen[0] == (a, "build"), "R-EOR-4: the production Build before anyone leaves quarantine"
    assert seen[-1] == (b, "build"), "C-4, Q-9: the Build earned leaving quarantine comes after quarantine"
    rules = report_rules(state)
    held = [e for e in state.report if e.get("data", {}).get("seat") == a and e["rule"] == "R-EOR-4"]
    header = next(i for i, e in enumerate(state.report) if e["rule"] == "R-EOR-4" and "seat" not in e.get("data", {}))
    later = next(i for i, e in enumerate(state.report) if e["rule"] == "C-4")
    assert held and state.report.index(held[0]) < header < rules.index("R-CIT-3") < later < rules.index("R-NEXT-1")
    assert state.round == 6 and state.held == []


def test_R_EOR_1_builds_from_production_go_one_seat_at_a_time_in_play_order_before_quarantine():
    state = bare()
    ws = _build_workshop(state.catalog)
    for seat in range(3):
        add_workshop(state, seat, ws.id, ws.cls, upgraded=True)
        in_cabin(state, seat, 0, "nun", space=1)
    order = list(state.order)  # this round's; the next round's setup reorders it (R-NEXT-4)
    to_upkeep(state)
    asked = []
    while not only_the_table_is_asked(state):
        waiting = open_decisions(state)
        assert len(waiting) == 1, "shared tiles: one Build at a time"
        assert "R-CIT-3" not in report_rules(state), "R-EOR-4: quarantine waits for every production Build"
        asked.append(waiting[0]["who"])
        pick(state, waiting[0]["who"], {"build": None})
    assert asked == order
    lines = [e["data"]["seat"] for e in state.report if e["rule"] == "R-EOR-4" and "seat" in e.get("data", {})]
    assert lines == order, "the checklist names each seat's Build in play order"


def test_R_END_1_Q_8_a_build_earned_in_round_VI_production_comes_before_the_final_scoring():
    """The game ends after round VI's production (R-END-1), and a Build it earned is part of it: resolved,
    with its line saying so, before the scoring counts the buildings; no quarantine step (Q-8)."""
    state = bare()
    set_round(state, 6)
    seat = state.order[0]
    ws = _build_workshop(state.catalog)
    add_workshop(state, seat, ws.id, ws.cls, upgraded=True)
    give(state, seat, coins=20, lumber=20)
    to_upkeep(state)
    assert state.phase == "upkeep" and [d["kind"] for d in open_decisions(state)] == ["build"]
    line = report_with(state, "R-END-1")
    assert line and "before the final scoring" in line[0]["text"] and "quarantine" not in line[0]["text"]
    pick(state, seat, {"build": "improvement", "stack": 0})
    if open_decisions(state):  # which cabin, when more than one is free
        pick(state, seat, 0)
    assert state.phase == "over" and any(cab.improvement for cab in state.seats[seat].cabins)
    assert "R-EOR-4" not in report_rules(state) and "R-CIT-3" not in report_rules(state)


def test_C_4_a_game_saved_before_keeps_the_order_it_was_recorded_with():
    """A game started before issue 22 (no `upkeep_rules` in its saved state) replays its log as it was
    recorded: its production Builds come after quarantine, as C-4 then said."""
    state = bare()
    state.upkeep_rules = 0
    seat = _crowded(state)
    to_upkeep(state)
    assert [(d["who"], d["kind"]) for d in open_decisions(state)] == [(seat, "build")]
    assert report_with(state, "Q-7"), "the old order: quarantine first, so the aristocrat found no room"
    assert "R-EOR-4" not in report_rules(state)


def test_R_CIT_4_C_19_a_citizen_leaving_quarantine_may_first_make_room_in_its_sector():
    state = bare()
    seat = state.order[1]
    ws = next(w for w in sorted(state.catalog.workshops.values(), key=lambda w: w.id)
              if w.era == 1 and w.cls == "aristocrat" and not w.needs_upgraded)
    in_cabin(state, seat, 0, "aristocrat", space=2)
    fill_sector(state, seat, "aristocrat")
    upgraded_square = next(iter(state.seats[seat].squares))
    state.seats[seat].squares[upgraded_square].upgraded = True
    shop = add_workshop(state, seat, ws.id)
    to_upkeep(state)
    # production first: the seat may move the sector's citizen in now, or collect
    pick(state, seat, "collect")
    move = {"square": upgraded_square, "workshop": shop}
    assert [d["kind"] for d in open_decisions(state)] == ["leave_quarantine"]
    pick(state, seat, move)
    s = state.seats[seat]
    assert s.workshops[shop].citizen.upgraded, "R-CIT-4: the sector citizen went into the workshop"
    assert s.squares[upgraded_square].cls == "aristocrat" and not s.squares[upgraded_square].upgraded, \
        "R-CIT-3: the citizen leaving quarantine takes the square it freed (the only room left: not asked, C-10)"
    assert not report_with(state, "Q-7")


def test_R_EOR_4_the_hosts_upkeep_checklist_lists_the_production_build_before_quarantine(tmp_path):
    """The host's checklist, as the page draws it: production, then the seat's Build and the tile turned up
    in its place, then quarantine (its own line citing R-EOR-4), then the next round's setup."""
    state, seat = reproduction()
    pick(state, seat, {"build": "workshop", "cls": "aristocrat"})
    pick(state, seat, ["workshop", len(state.seats[seat].workshops) - 1])
    app = create_app({"INSTANCE": str(tmp_path), "TESTING": True})
    table = table_view(state)
    name = f"upkeep-{table['upkeep']['round']}"
    with app.test_request_context("/"):
        html = render_template("host/_upkeep.html", pieces=Pieces(state), table=table, upkeep_list=name,
                               upkeep_items=checklist([], state.report, name), game=type("Game", (), {"id": "g1"}))
    items = html.split("<li")[1:]
    rules = [re.search(r'<a class="rule" href="[^"]*">([^<]+)</a>', item).group(1) for item in items]
    assert rules[:2] == ["R-EOR-1", "R-EOR-2"]
    build = rules.index("R-EOR-4")
    assert "before quarantine" in items[build] and state.seats[seat].name in items[build]
    assert rules[build + 1] == "R-BUILD-4", "the tile turned up in place of the one built"
    assert rules[build + 2] == "R-EOR-4" and "advance the citizens in quarantine" in items[build + 2]
    assert rules[build + 3] == "R-CIT-3" and "leaves quarantine for the" in items[build + 3]
    assert rules[build + 4] == "R-NEXT-1"
    assert not any(r.startswith(("R-EOR", "R-CIT", "Q-7", "C-4")) for r in rules[build + 4:]), "setup comes last"
