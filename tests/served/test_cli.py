"""`python -m companion ...` as the table runs it: catalog check and game setup (docs/CATALOG.md), through
click's test runner (tests/tables.py, run_command)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tables import run_command

CUBES = {1: 16, 2: 16, 3: 18, 4: 24}  # R-SETUP-5

FAMILY_COUNTS = {
    "hex": 20, "harbor": 4, "dock": 4, "docking_tile": 4, "layout": 3, "boat": 9, "workshop": 33,
    "improvement": 15, "wagon": 10, "solo_tile": 14, "board": 5, "scroll_board": 5, "round_info": 2,
    "priority_tile": 2, "register": 6, "rat_table": 1,
}


def run(*args, catalog_env: str | os.PathLike | None = None, tmp_path: Path | None = None):
    """The command with $MESSINA_CATALOG naming `catalog_env`, else a file that does not exist (no corrections)."""
    return run_command(*args, MESSINA_CATALOG=str(catalog_env if catalog_env is not None else tmp_path / "absent.toml"))


BROKEN = """
[[boat]]
id = "boat-5"
back = 2
cargo = "spices"
reward = "2 ducats"
source = "rulebook"
"""


def test_catalog_check_lists_every_family_with_its_count(tmp_path):
    res = run("catalog", "check", tmp_path=tmp_path)
    assert res.exit_code == 0, res.stderr
    counts = {}
    for line in res.stdout.splitlines():
        m = re.match(r"^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", line)
        if m:
            counts[m.group(1)] = int(m.group(2))
            # rulebook + mixed + assumed add up to the family's count
            assert sum(int(m.group(i)) for i in (3, 4, 5)) == int(m.group(2)), line
    for family, n in FAMILY_COUNTS.items():
        assert counts.get(family) == n, (family, res.stdout)
    assert counts.get("wheel", 0) >= 1
    assert counts["all"] == sum(v for k, v in counts.items() if k != "all")
    assert "R-COMP needs" not in res.stdout


def test_catalog_check_applies_a_valid_override(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(BROKEN.replace("2 ducats", "2 coin"), encoding="utf-8")
    res = run("catalog", "check", "--override", good, tmp_path=tmp_path)
    assert res.exit_code == 0, res.stderr
    boat = next(line for line in res.stdout.splitlines() if line.startswith("boat "))
    assert boat.split()[1:3] == ["9", "1"]  # one boat now rulebook


@pytest.mark.parametrize("how", ["env", "flag"])
def test_catalog_check_refuses_a_broken_override(tmp_path, how):
    bad = tmp_path / "broken-catalog.toml"
    bad.write_text(BROKEN, encoding="utf-8")
    if how == "env":
        res = run("catalog", "check", catalog_env=bad)
    else:
        res = run("catalog", "check", "--override", bad, tmp_path=tmp_path)
    assert res.exit_code != 0
    assert str(bad) in res.stderr
    assert "boat-5" in res.stderr
    assert "ducats" in res.stderr


def test_catalog_check_refuses_invalid_toml(tmp_path):
    bad = tmp_path / "not-toml.toml"
    bad.write_text("[[boat]\n", encoding="utf-8")
    res = run("catalog", "check", "--override", bad, tmp_path=tmp_path)
    assert res.exit_code != 0
    assert str(bad) in res.stderr and "TOML" in res.stderr


def _cubes(state: dict) -> int:
    on_hexes = sum(h["cubes"] for h in state["hexes"].values())
    on_boats = sum(1 for boats in state["docks"].values() for b in boats if b["cube"])
    return on_hexes + on_boats + state["supply_cubes"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("flags", [(), ("--advanced",), ("--priority-tile",), ("--advanced", "--priority-tile")])
def test_setup_json_conserves_plague_cubes_R_SETUP_5(tmp_path, players, flags):
    res = run("setup", "--players", players, "--seed", 7 + players, "--json", *flags, tmp_path=tmp_path)
    assert res.exit_code == 0, res.stderr
    state = json.loads(res.stdout)
    assert state["players"] == players
    assert state["phase"] == "setup"  # round I waits for the host's "the table is ready" (C-18)
    assert state["lanes"]["main"][-1]["kind"] == "table_ready"
    assert _cubes(state) == CUBES[players]
    assert state["setup_steps"]
    assert all(re.match(r"^(R|Q|C)-[A-Z0-9-]+$", s.get("rule") or "") for s in state["setup_steps"])
    rules = {s["rule"] for s in state["setup_steps"]}
    assert {"R-SETUP-5", "R-SETUP-8", "R-R1-1", "R-R1-2"} <= rules
    assert sorted(state["order"]) == list(range(players))
    assert state["options"]["advanced"] is ("--advanced" in flags)
    assert state["options"]["priority_tile"] is ("--priority-tile" in flags)
    if "--advanced" in flags:
        assert all(s["board"].startswith("b-") for s in state["seats"])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_json_table_draw_waits_for_the_host(tmp_path, players):
    """Table-draw mode (C-1): the first stack reveal, the city deal (R-SETUP-2), is the host's."""
    res = run("setup", "--players", players, "--draw", "table", "--json", tmp_path=tmp_path)
    assert res.exit_code == 0, res.stderr
    state = json.loads(res.stdout)
    assert state["options"]["draw"] == "table"
    assert state["phase"] == "setup"
    top = state["lanes"]["main"][-1]
    assert top["do"] == "ask" and top["who"] == "host" and top["kind"] == "reveal"
    assert len(top["options"]) >= 2
    assert state["setup_steps"]


def test_setup_same_seed_same_output(tmp_path):
    a = run("setup", "--players", 3, "--seed", 42, "--json", tmp_path=tmp_path)
    b = run("setup", "--players", 3, "--seed", 42, "--json", tmp_path=tmp_path)
    assert a.exit_code == 0 and a.stdout == b.stdout


def test_setup_text_lists_steps_with_rules(tmp_path):
    res = run("setup", "--players", 2, "--seed", 3, tmp_path=tmp_path)
    assert res.exit_code == 0, res.stderr
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("- ")]
    assert lines
    assert any("[R-SETUP-5]" in ln and "16" in ln for ln in lines)


def test_setup_text_when_the_companion_draws_leaves_nothing_to_chance(tmp_path):
    """Issue 33 item 4 (C-22): the companion drew, so no step says shuffle, deal at random or any window; each
    start hex is found and put on its marked space, and the wheel is set to the window named (R-SETUP-2, -6)."""
    res = run("setup", "--players", 3, "--seed", 7, tmp_path=tmp_path)
    assert res.exit_code == 0, res.stderr
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("- ")]
    assert [ln for ln in lines if re.search(r"shuffl|at random|any window", ln, re.I)] == []
    assert sum(ln.startswith("- Find the ") and "marked start space" in ln for ln in lines) == 11  # 3p: 10 A + 1 B
    assert any("population wheel within reach, turned to the window" in ln for ln in lines)


def test_setup_refuses_five_players(tmp_path):
    res = run("setup", "--players", 5, tmp_path=tmp_path)
    assert res.exit_code != 0


# --- the command line itself: its commands, their options and defaults, a fault in one line ------------

COMMANDS = ["catalog", "setup", "simulate", "serve", "prune", "replay", "resume"]
OPTIONS = {
    ("catalog", "check"): ["--override"],
    ("setup",): ["--players", "--seed", "--advanced", "--priority-tile", "--draw", "--json"],
    ("simulate",): ["--players", "--seed", "--advanced", "--priority-tile", "--draw", "--games", "--json",
                    "--no-roundtrip", "--policy", "--coverage", "--sweep"],
    ("serve",): ["--host", "--port", "--public-url", "--name", "--workers", "--threads", "--screens", "--wait",
                 "--per-client", "--proxies", "--new-games-per-minute", "--new-games-per-day", "--keep-unplayed",
                 "--backups"],
    ("prune",): ["--older-than", "--dry-run", "--vacuum"],
    ("replay",): ["FILE"],
    ("resume",): ["FILE", "--port", "--public-url"],
}


@pytest.mark.parametrize("ask", ["--help", "-h"])
def test_help_lists_every_command_in_the_order_a_table_meets_them(ask):
    res = run_command(ask)
    assert res.exit_code == 0, res.stderr
    listed = [line.split()[0] for line in res.stdout.split("Commands:", 1)[1].splitlines() if line.strip()]
    assert listed == COMMANDS


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_each_commands_help_lists_its_options(command):
    res = run_command(*command, "--help")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.startswith(f"Usage: companion {' '.join(command)} ")
    assert [name for name in OPTIONS[command] if name not in res.stdout] == []


def test_serve_keeps_its_defaults():
    from companion.cli import serve

    assert serve.make_context("serve", []).params == {
        "host": "0.0.0.0", "port": 8000, "public_url": None, "name": (), "workers": 0, "threads": 8, "screens": 600,
        "wait": 20.0, "per_client": 64, "proxies": 0, "new_games_per_minute": 30, "new_games_per_day": 200,
        "keep_unplayed": False, "backups": None}


def test_a_command_without_what_it_needs_is_refused_with_exit_2(tmp_path):
    """A usage mistake is the command line's exit code 2, as before click: a missing command or option."""
    assert run_command().exit_code == 2
    assert run_command("catalog").exit_code == 2
    assert run_command("prune").exit_code == 2 and "--older-than" in run_command("prune").stderr
    assert run_command("replay").exit_code == 2


def test_a_folder_it_cannot_make_is_one_line_and_exit_1(tmp_path):
    """A StartupError (here: the instance folder would sit under a file) is one line `companion: ...` on
    stderr, exit code 1, no traceback."""
    (tmp_path / "a-file").write_text("not a folder")
    res = run_command("serve", "--port", "0", MESSINA_INSTANCE=str(tmp_path / "a-file" / "instance"))
    assert res.exit_code == 1
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: ") and "a-file" in lines[0], res.stderr
