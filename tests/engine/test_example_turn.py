"""The rulebook's example turn (EN "EXAMPLE TURN"), played tap by tap through the menus.

Yellow moves two hexes for 1 coin past a lying figure (R-TURN-MOVE-3/4), rescues a citizen into
quarantine (R-TURN-RESCUE-3), spends one major fire on the cube of his hex and one adjacent cube
(R-TURN-FIRE-5/8: 2 popularity steps, the second giving an overseer advance), activates a craftsman
for 1 coin + 1 lumber (R-OVS-6), builds a cabin improvement with that lumber (R-BUILD-3), pays 3 coins
for a city advance that gives a 4th lieutenant (R-REG-3/4), and would then pay 4 for the next.
"""

from companion.catalog import shipped_catalog
from companion.engine import apply, legal_actions, new_game, options_for
from companion.engine.city import distances_from
from companion.engine.flow import run

YELLOW, RED = 1, 0


def pick(state, who, match):
    """Tap the one available option whose value matches `match` (a dict subset or a value)."""
    menu = legal_actions(state, who)
    for opt in menu:
        v = opt["value"]
        ok = (isinstance(match, dict) and isinstance(v, dict) and all(v.get(k) == m for k, m in match.items())) \
            or v == match
        if ok:
            assert opt["available"], opt
            apply(state, opt["action"])
            return opt
    raise AssertionError(f"no option {match!r} in {[o['value'] for o in menu]}")


def example_state():
    s = new_game(options_for(3), 11, shipped_catalog())
    assert s.seats[YELLOW].colour == "yellow" and s.seats[RED].colour == "red"
    s.round, s.phase = 2, "play"
    for h in s.hexes.values():
        s.supply_cubes += h.cubes
        h.cubes, h.citizens = 0, []
    target = "n04"  # "build or 1 major-fire", the EN example's kind of hex (R-ACT-2)
    dist = distances_from(s, f"hex:{target}")
    ring2 = [p[4:] for p, d in dist.items() if d == 2 and p.startswith("hex:")]
    start = next(x for x in ring2 if x in s.catalog.hexes)
    via = next(p[4:] for p, d in distances_from(s, f"hex:{start}").items()
               if d == 1 and p.startswith("hex:") and dist.get(p) == 1)
    near = next(p[4:] for p, d in dist.items() if d == 1 and p.startswith("hex:") and p[4:] not in (via,))
    far = [t for t in s.hexes if t not in (target, start, via, near)]
    for seat in s.seats:
        for lt in seat.lieutenants[:3]:
            lt.where, lt.used = f"hex:{far.pop()}", True
    y = s.seats[YELLOW]
    y.lieutenants[0].where, y.lieutenants[0].used = f"hex:{start}", False
    s.seats[RED].lieutenants[0].where, s.seats[RED].lieutenants[0].used = f"hex:{via}", False
    s.hexes[target].cubes, s.hexes[near].cubes = 1, 1
    s.supply_cubes -= 2
    s.hexes[target].citizens = [s.new_citizen("craftsman")]
    y.coins, y.major_fire, y.fire, y.lumber = 4, 1, 0, 0
    y.squares = {"cr1": s.new_citizen("craftsman"), "cr2": s.new_citizen("craftsman")}
    y.overseers["craftsman"].step, y.overseers["craftsman"].branch = 2, "left"
    y.registers["city"] = 1
    for st in s.improvements:
        if st.up == "imp-01":
            st.up = None
    s.pools["improvements"] = [t for t in s.pools["improvements"] if t != "imp-01"]
    s.improvements[0].up = "imp-01"  # costs 1 lumber, yields 1 fire (M-12)
    s.order, s.turn = [YELLOW, RED, 2], 0
    s.lanes = {"main": [{"do": "turn", "seat": YELLOW}]}
    run(s)
    return s, target, via, near


def test_rulebook_example_turn_R_TURN_MOVE_3_and_the_whole_turn():
    s, target, via, near = example_state()
    y = s.seats[YELLOW]
    menu = {o["value"].get("tile"): o for o in legal_actions(s, YELLOW) if o["value"].get("go") == "hex"}
    assert menu[target]["cost"] == "1 coin"  # distance 2 → 1 coin (R-TURN-MOVE-3)
    assert menu[via]["available"]  # Red's figure lies down: it blocks nothing (R-TURN-MOVE-4)

    pick(s, YELLOW, {"go": "hex", "tile": target})
    assert y.coins == 3 and y.lieutenants[0].where == f"hex:{target}" and y.lieutenants[0].used
    # R-TURN-RESCUE-3: the hex had a cube, so the craftsman goes to space I of a cabin
    assert y.cabins[0].citizen.cls == "craftsman" and y.cabins[0].space == 1

    pick(s, YELLOW, {"major": 1, "fire": 0, "adjacent": True})  # R-TURN-FIRE-5
    pick(s, YELLOW, near)  # the adjacent cube, free
    assert s.hexes[target].cubes == 0 and s.hexes[near].cubes == 0
    assert y.major_fire == 0 and y.rats == 0
    assert y.registers["popularity"] == 2  # R-TURN-FIRE-8: two cubes, two steps
    assert [r["reward"] for r in s.rights] == ["advance-any"]  # the second step's action (M-7)

    pick(s, YELLOW, {"act": "right"})  # advance an overseer first, as Yellow does
    pick(s, YELLOW, {"overseer": "craftsman", "steps": 1})
    acts = [o["value"] for o in legal_actions(s, YELLOW) if o["value"]]
    assert set(acts) == {"cr1", "cr2"}  # either craftsman of the region (R-OVS-7 T2)
    pick(s, YELLOW, "cr2")
    assert y.coins == 4 and y.lumber == 1

    pick(s, YELLOW, {"act": "hex"})
    pick(s, YELLOW, 0)  # "build" of "build or 1 major fire" (R-ACT-2)
    pick(s, YELLOW, {"build": "improvement", "stack": 0})
    pick(s, YELLOW, 0)  # on the cabin holding the rescued craftsman
    assert y.cabins[0].improvement == "imp-01" and y.lumber == 0

    city = {o["value"].get("register"): o for o in legal_actions(s, YELLOW) if o["value"].get("act") == "pay"}
    assert city["city"]["cost"] == "3 coins"  # R-REG-3: 3 lieutenants owned
    pick(s, YELLOW, {"act": "pay", "register": "city"})
    assert y.coins == 1 and y.registers["city"] == 2
    pick(s, YELLOW, {"act": "right", "reward": "lieutenant"})  # R-REG-4
    assert y.owned_lieutenants == 4
    assert sum(1 for lt in y.lieutenants if lt.where == "estate") == 1
    nxt = {o["value"].get("register"): o for o in legal_actions(s, YELLOW) if o["value"].get("act") == "pay"}
    assert nxt["city"]["cost"] == "4 coins" and not nxt["city"]["available"]
    assert nxt["city"]["rule"] == "R-REG-3"

    pick(s, YELLOW, {"act": "end"})
    assert s.active is None and s.rights == []
    assert legal_actions(s, YELLOW) == []  # Red's turn now
    assert legal_actions(s, RED)
