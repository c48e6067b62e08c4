"""Faults among serve's worker processes, on real servers (issue 32 items 2, 3 and 6): their lines cannot be
found or reached by another process, one stopped worker costs the other nothing and is started again, and
two workers that die start again each on its own."""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import socket
import subprocess
import time
from pathlib import Path

import pytest

from companion.serve.workers import HUNG_AFTER
from server import Server, alive, seat_key, take_seats, wait_until, workers_of

pytestmark = [pytest.mark.slow, pytest.mark.linux]

PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bruno", "colour": "yellow"}]
NOBODY = 65534


def two_workers(srv: Server, count: int = 2) -> list[int]:
    """The workers' pids once each serves and has been heard from: a worker stopped while it still builds its
    app has never sent a heartbeat, and the parent gives such a one FIRST_BEAT, not HUNG_AFTER."""
    wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p)]) == count, 30, "workers never started")
    pids = [p for p in workers_of(srv.proc.pid) if alive(p)]
    threads, deadline = {}, time.monotonic() + 60
    while True:  # serving, each has started its answering threads: their count holds from one look to the next
        now = {pid: len(os.listdir(f"/proc/{pid}/task")) for pid in pids}
        if now == threads and min(now.values()) > 1:
            break
        assert time.monotonic() < deadline, "the workers never started serving"
        threads = now
        time.sleep(0.3)
    time.sleep(1.5)  # a serving worker beats each second
    return pids


# --- nobody else reaches the lines ------------------------------------------------------------------------

def sockets_of(pid: int) -> set[int]:
    """The inodes of every socket process `pid` holds."""
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(int(target[8:-1]))
    return found


def unix_sockets() -> dict[int, str]:
    """Every Unix socket of the machine: its inode and its name ('' for none; '@…' for an abstract name)."""
    found = {}
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        parts = line.split()
        found[int(parts[6])] = parts[7] if len(parts) > 7 else ""
    return found


def reach(names: list[str]) -> list[str]:
    """What a process of its own can do with each name: "send <name>", "bind <name>"."""
    reached = []
    for name in names:
        address = "\0" + name[1:] if name.startswith("@") else name
        for how in ("send", "bind"):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                s.sendto(b"v\tgame\t1", address) if how == "send" else s.bind(address)
                reached.append(f"{how} {name}")
            except OSError:
                pass
            s.close()
    return reached


def as_outsider(names: list[str]) -> list[str]:
    """`reach(names)` from another process, of another user when the test may become one (run as root)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            if os.geteuid() == 0:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            os.write(write, json.dumps(reach(names)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as said:
        out = said.read()
    os.waitpid(pid, 0)
    return json.loads(out)


def test_no_other_process_can_find_bind_or_send_to_the_workers_lines(tmp_path):
    """Issue 32 (High): the workers' abstract socket names were listed in /proc/net/unix, so another local
    user could bind one first (keeping that worker from starting) and send to or read what they carried.
    Now each line is a socket pair the parent made before it started the workers: every Unix socket of the
    server has no name, each worker's lines end at sockets the parent made and holds, and a process of
    another user has nothing to bind or send to."""
    with Server(tmp_path, args=["--workers", "2"]) as srv:
        workers = two_workers(srv)
        mine = {pid: sockets_of(pid) for pid in [srv.proc.pid, *workers]}
        machine = unix_sockets()
        held = {inode: machine[inode] for inodes in mine.values() for inode in inodes if inode in machine}
        assert all(sockets_of(pid) & set(machine) for pid in workers), "each worker holds its line"
        named = sorted({name for name in held.values() if name})
        assert as_outsider(named) == [] and named == []
        if shutil.which("ss"):  # each worker's lines end at sockets of the parent's making, and nowhere else
            table = subprocess.run(["ss", "-x", "-a", "-p"], capture_output=True, text=True).stdout
            for worker in workers:
                peers = {int(row.split()[7]) for row in table.splitlines()
                         if f"pid={worker}," in row and row.split()[0] == "u_dgr" and row.split()[7].isdigit()}
                assert peers and peers <= mine[srv.proc.pid], (worker, peers)


# --- a stopped worker -------------------------------------------------------------------------------------

def tap_time(srv: Server, game: dict) -> float:
    """A move through the JSON API: the seconds its POST took to be answered."""
    host = {"X-Host-Token": game["host_token"]}
    who = srv.json("GET", f"/api/games/{game['id']}/state", headers=host)[1]["pending"][0]["who"]
    base = f"/api/games/{game['id']}/host" if who == "host" else f"/api/seats/{game['seats'][who]['token']}"
    key = {**host, **seat_key(game, who)}
    menu = srv.json("GET", base + "/menu", headers=key)[1]
    pick = next(o for o in menu["menu"] if o["available"])
    t0 = time.monotonic()
    status, out = srv.json("POST", base + "/actions", {"version": menu["version"], "choice": pick["choice"]},
                           headers=key)
    assert status == 200, out
    return time.monotonic() - t0


def test_a_stopped_worker_costs_the_other_nothing_and_is_started_again(tmp_path):
    """Issue 32 (Medium): with one worker stopped (SIGSTOP), every move of the other waited 50 ms for the
    stopped one's full queue. Now a send never waits: after as many moves as fill its line, the other
    worker's taps take no more than twice their usual time; and the parent, hearing nothing from the
    stopped worker for HUNG_AFTER seconds, starts it again."""
    with Server(tmp_path, args=["--workers", "2"]) as srv:
        victim = two_workers(srv)[0]
        status, game = srv.json("POST", "/api/games", {"players": PLAYERS, "seed": 3})
        game = take_seats(srv, game)
        for _ in range(5):
            tap_time(srv, game)  # warm
        usual = statistics.median(tap_time(srv, game) for _ in range(15))
        os.kill(victim, signal.SIGSTOP)
        stopped_at = time.monotonic()
        try:
            for _ in range(15):
                tap_time(srv, game)  # its line fills
            meanwhile = statistics.median(tap_time(srv, game) for _ in range(15))
            assert time.monotonic() - stopped_at < HUNG_AFTER, "the test took too long to measure"
            assert meanwhile <= 2 * usual, (usual, meanwhile)
            wait_until(lambda: not alive(victim), HUNG_AFTER + 10, "the stopped worker was never stopped")
            wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p)]) == 2, 30)
        finally:
            if alive(victim):
                os.kill(victim, signal.SIGCONT)
        assert "worker" in srv.tail() and "has not answered" in srv.tail()
        assert srv.json("GET", f"/api/games/{game['id']}/version")[0] == 200


# --- restarts ----------------------------------------------------------------------------------------------

def test_two_dead_workers_start_again_each_after_its_own_pause(tmp_path):
    """Issue 32 (Low): the parent slept one dead worker's pause before even looking at the next, so a worker
    killed while a much-failed sibling waited out its pause (up to 60 s) waited as long. Worker 1 is killed
    three times (its pause doubles to 8 s); then both die together: worker 2 is back after its own 1 s."""
    with Server(tmp_path, args=["--workers", "2"]) as srv:
        first, second = two_workers(srv)
        for _ in range(3):
            os.kill(first, signal.SIGKILL)
            wait_until(lambda: len([p for p in workers_of(srv.proc.pid) if alive(p) and p != first]) == 2, 30)
            first = next(p for p in workers_of(srv.proc.pid) if alive(p) and p != second)
            time.sleep(0.5)
        os.kill(first, signal.SIGKILL)
        time.sleep(0.3)  # the parent has seen it go, and waits out its pause
        os.kill(second, signal.SIGKILL)
        t0 = time.monotonic()
        wait_until(lambda: [p for p in workers_of(srv.proc.pid) if alive(p) and p not in (first, second)], 30)
        assert time.monotonic() - t0 < 4.0, srv.tail()
        assert srv.tail().rstrip().endswith("starting it again in 1 s"), srv.tail()
        assert "worker 1 of 2 stopped (signal 9); starting it again in 8 s" in srv.tail()
