"""`serve` on the laptop the table has (issue 32 item 1): macOS and Windows lack parts of Linux that `serve`
once needed at start (`socket.SO_PASSCRED`, `SCM_CREDENTIALS`, abstract sockets, `prctl`, `resource`,
`select.epoll`, and on Windows `os.fork`). Each test starts the real command in a subprocess whose
`sitecustomize` takes those parts away before anything else runs, and a table plays over HTTP: a game is
created, a phone joins by its link, a tap is made, and the host's waiting question is answered with it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server import ROOT, Browser, Server, alive, csrf_of, wait_until, workers_of

pytestmark = pytest.mark.slow

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
TAKEN_AWAY = '''"""Parts of Linux taken away, as on macOS or Windows (tests/served/test_everywhere.py)."""
import ctypes
import os
import select
import socket
import sys

for where, name in [("socket", "SO_PASSCRED"), ("socket", "SCM_CREDENTIALS"), ("select", "epoll"),
                    ("os", "sched_getaffinity")] + [("os", "fork")] * {no_fork}:
    if hasattr(sys.modules[where], name):
        delattr(sys.modules[where], name)
sys.modules["resource"] = None  # import resource: ImportError, as on Windows


class _NoPrctl(ctypes.CDLL):  # macOS's C library has no prctl
    def __getattr__(self, name):
        if name == "prctl":
            raise AttributeError(name)
        return super().__getattr__(name)


ctypes.CDLL = _NoPrctl
'''
SYSTEMS = {"like Windows: no fork": 1, "like macOS: fork, but none of the rest": 0}


def taken_away(folder: Path, no_fork: int) -> dict:
    """The environment of a process that starts without Linux's own parts."""
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(TAKEN_AWAY.format(no_fork=no_fork))
    return {"PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


def menu_form(page: bytes) -> dict:
    """The fields of the first option a phone's page offers (templates/seat/_menu.html)."""
    form = re.search(rb'<form[^>]*hx-post="[^"]*/act"[^>]*>(.*?)</form>', page, re.S)
    assert form, "the phone offers nothing to tap"
    fields = dict(re.findall(rb'name="(version|decision|choice)" value="([^"]*)"', form.group(1)))
    return {k.decode(): v.decode() for k, v in fields.items()}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_table_plays_on_a_laptop_without_linuxs_own_parts(tmp_path, system):
    env = taken_away(tmp_path / "site", SYSTEMS[system])
    with Server(tmp_path / "instance", env=env) as srv:
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        assert status == 201, game
        gid, key = game["id"], {"X-Host-Token": game["host_token"]}
        menu = srv.json("GET", f"/api/games/{gid}/host/menu", headers=key)[1]  # the host: "the table is ready"
        ready = next(o for o in menu["menu"] if o["available"])
        status, out = srv.json("POST", f"/api/games/{gid}/host/actions",
                               {"version": menu["version"], "choice": ready["choice"]}, headers=key)
        assert status == 200, out
        who = srv.json("GET", f"/api/games/{gid}/state", headers=key)[1]["pending"][0]["who"]
        phone, token = Browser(srv), game["seats"][who]["token"]
        assert phone.get(game["seats"][who]["join_url"].split(str(srv.port), 1)[1])[0] == 302  # joins by its link
        status, _, page = phone.get(f"/seat/{token}")
        assert status == 200

        host = srv.connect(timeout=30)
        host.request("GET", f"/host/{gid}/news?v={out['version']}&key={game['host_token']}")
        time.sleep(0.5)  # the host's question waits at the server
        status, _, _ = phone.post(f"/seat/{token}/act", {"csrf": csrf_of(page), **menu_form(page)},
                                  headers={"HX-Request": "true"})
        assert status == 200
        t0 = time.monotonic()
        answer = host.getresponse()
        assert answer.status == 200 and f'data-version="{out["version"] + 1}"'.encode() in answer.read()
        assert time.monotonic() - t0 < 5
        host.close()
        phone.close()
        said = srv.tail()
    assert "Traceback" not in said and "starting it again" not in said, said
    if SYSTEMS[system]:  # default options asked for a worker per core: one process, without a word of error
        assert "1 worker process;" in said


def test_asking_for_workers_where_there_is_no_fork_says_so_in_one_line(tmp_path):
    env = taken_away(tmp_path / "site", no_fork=1)
    with Server(tmp_path / "instance", env=env, args=["--workers", "4"]) as srv:
        assert srv.json("GET", "/api/games/-/version")[0] == 404
        lines = srv.tail().splitlines()
    said = [line for line in lines if "--workers" in line]
    assert len(said) == 1 and "one process" in said[0] and "4" in said[0], lines


@pytest.mark.parametrize("command", [["catalog", "check"], ["setup", "--players", "2", "--seed", "3"],
                                     ["simulate", "--players", "2", "--seed", "1", "--no-roundtrip"],
                                     ["prune", "--older-than", "1", "--dry-run"]])
def test_every_other_command_runs_without_them_too(tmp_path, command):
    env = {**os.environ, **taken_away(tmp_path / "site", no_fork=1), "MESSINA_INSTANCE": str(tmp_path / "instance")}
    out = subprocess.run([sys.executable, "-m", "companion", *command], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.linux
def test_without_prctl_workers_still_end_soon_after_their_parent_is_killed(tmp_path):
    """macOS has no PR_SET_PDEATHSIG: a worker's heartbeat sees its parent gone and stops it within about a
    second, so a server killed by the system leaves no worker holding its port."""
    env = taken_away(tmp_path / "site", SYSTEMS["like macOS: fork, but none of the rest"])
    srv = Server(tmp_path / "instance", env=env, args=["--workers", "2"]).start()
    wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p)]) == 2, 30)
    workers, port = workers_of(srv.proc.pid), srv.port
    srv.kill()
    t0 = time.monotonic()
    wait_until(lambda: not any(alive(p) for p in workers), 10, "the workers outlived their parent")
    assert time.monotonic() - t0 < 3.0
    srv.start(port=port)  # the same address at once
    srv.stop()
