"""`serve` on every core: one listening socket, made by a small parent process, and one worker process per
core answering on it, each with its own threads.

Python runs one thread at a time per process, so one process keeps one core busy however many threads it
has. A worker per core multiplies what the companion can draw at once; the kernel hands each new
connection to whichever worker accepts it first (an idle one, usually). What the workers share:

- the games file (SQLite in WAL mode), where every move is written under the version check, whichever
  worker wrote it; a worker's games kept in memory are checked against the file's version before use;
- the keys and the catalog's corrections, files in the instance folder that the parent makes before
  the workers start;
- what each one knows only in memory (a move to wake waiting screens, a seat taken, a try counted by a
  limiter, a phone seen), told to the others as it happens (serve/siblings.py).

The parent only watches: a worker that dies is started again, and a worker dies with its parent (the
kernel kills it), so a parent killed by the operating system never leaves workers holding the port.
"""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
import sys
import time
import traceback
from typing import Callable

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
STOP_WAIT = 10.0  # seconds workers get to finish their answers when serve is stopped
RESTART_AFTER = 1.0  # seconds before a worker that died is started again (doubling up to a minute)


def cores() -> int:
    """The cores this process may run on (a container may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run_workers(count: int, work: Callable[[int, str], None], say: Callable[[str], None]) -> int:
    """Start `count` workers, each running `work(index, run)` (`run` names this serve run for serve/siblings.py),
    and keep them running until serve is stopped (SIGINT, SIGTERM) or every worker has stopped on purpose
    (exit code 0); a worker that fails or is killed is started again. Returns serve's exit code."""
    run, parent = f"{os.getpid()}-{secrets.token_hex(4)}", os.getpid()
    children: dict[int, int] = {}  # pid -> worker index
    pause = {index: RESTART_AFTER for index in range(count)}

    def start(index: int) -> None:
        pid = os.fork()
        if pid == 0:
            _worker(index, run, parent, work)
        children[pid] = index

    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        for index in range(count):
            start(index)
        while children:
            pid, status = os.wait()
            index = children.pop(pid, None)
            if index is None or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
                continue  # stopped on purpose (Ctrl-C in its terminal, SIGTERM): serve ends with its last worker
            say(f"worker {index + 1} of {count} stopped ({_how(status)}); starting it again in {pause[index]:.0f} s")
            time.sleep(pause[index])
            pause[index] = min(60.0, pause[index] * 2)
            start(index)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop(children)
    return 0


def _worker(index: int, run: str, parent: int, work: Callable[[int, str], None]) -> None:
    """In the forked worker: die with the parent, stop on SIGTERM as on Ctrl-C, never return to the
    parent's code."""
    code = 1
    try:
        _die_with_parent(parent)
        signal.signal(signal.SIGTERM, _interrupt)
        work(index, run)
        code = 0
    except KeyboardInterrupt:
        code = 0
    except BaseException:  # a worker's failure is told, then the parent starts it again
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _interrupt(signum, frame):
    """SIGTERM stops serve as Ctrl-C does: answers in progress finish, then the process ends."""
    raise KeyboardInterrupt


def _die_with_parent(parent: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the parent's SIGTERM still stops it
        pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(0)


def _stop(children: dict[int, int]) -> None:
    """SIGTERM to every worker, then SIGKILL to those still there after STOP_WAIT."""
    for pid in children:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT
    while children and time.monotonic() < deadline:
        for pid in list(children):
            if _ended(pid):
                children.pop(pid)
        time.sleep(0.05)
    for pid in children:
        _signal(pid, signal.SIGKILL)
        _ended(pid, wait=True)


def _ended(pid: int, wait: bool = False) -> bool:
    try:
        return os.waitpid(pid, 0 if wait else os.WNOHANG)[0] == pid
    except ChildProcessError:
        return True


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"
