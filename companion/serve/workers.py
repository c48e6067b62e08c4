"""`serve` on every core: one listening socket, made by a small parent process, and one worker process per
core answering on it, each with its own threads.

Python runs one thread at a time per process, so one process keeps one core busy however many threads it
has. A worker per core multiplies what the companion can draw at once; the kernel hands each new
connection to whichever worker accepts it first (an idle one, usually). What the workers share:

- the games file (SQLite in WAL mode), where every move is written under the version check, whichever
  worker wrote it, and where the per-device limits count (store/tries.py);
- the keys and the catalog's corrections, files in the instance folder that the parent makes before
  the workers start;
- what each one knows only in memory (a move to wake waiting screens, a seat taken, a phone seen), told to
  the others on private lines the parent made before starting them (serve/lines.py, serve/siblings.py).

The parent only watches. Each worker is on its own: one that dies, or stops answering
(no heartbeat for HUNG_AFTER seconds), is started again after its own pause, which doubles while it keeps
failing and is back to RESTART_AFTER once it has run RAN_A_WHILE. A worker ends when its parent has gone
(and at once on Linux, where the kernel kills it), so a server killed by the operating system never leaves
workers holding its port.

Several processes need `os.fork` (Linux, macOS); where it is missing (Windows) `serve` answers from one
process (`can_fork`).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from .lines import ALIVE, Line, Lines, Watch

PR_SET_PDEATHSIG = 1  # prctl(2), Linux only: the signal a process gets when its parent dies
RESTART_AFTER = 1.0  # seconds before a worker that stopped is started again (doubling up to LONGEST_PAUSE)
LONGEST_PAUSE = 60.0
RAN_A_WHILE = 60.0  # seconds after which a worker's next stop counts as a first one again
HUNG_AFTER = 10.0  # seconds without a heartbeat after which a worker counts as stopped (it answers nobody)
FIRST_BEAT = 60.0  # seconds a worker just started has to send its first heartbeat (it builds its app first)
STOP_WAIT = 1.5  # seconds workers get to finish when serve is stopped, then they are killed
TICK = 0.2  # seconds between two looks at the workers


def can_fork() -> bool:
    return hasattr(os, "fork")


def cores() -> int:
    """The cores this process may run on (a container may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class Worker:
    index: int
    pid: int = 0  # 0: not running
    started: float = 0.0
    pause: float = RESTART_AFTER  # before it is started again, the next time it stops
    due: float | None = None  # when it is started again (None: running, or ended on purpose)

    def failed(self, now: float) -> float:
        """It stopped at `now` and is to be started again: its pause (back to RESTART_AFTER if it had run a
        while, doubled for the next time), after which it is due."""
        if now - self.started >= RAN_A_WHILE:
            self.pause = RESTART_AFTER
        pause, self.pause = self.pause, min(LONGEST_PAUSE, self.pause * 2)
        self.pid, self.due = 0, now + pause
        return pause


Work = Callable[[int, dict[int, Line], Callable[[], None]], None]


def run_workers(count: int, work: Work, say: Callable[[str], None]) -> int:
    """Start `count` workers, each running `work(index, lines to the others, heartbeat)`, and keep them running
    until serve is stopped (SIGINT, SIGTERM) or every worker has ended on purpose (exit code 0). Returns
    serve's exit code."""
    lines, workers, parent = Lines(count), [Worker(i) for i in range(count)], os.getpid()
    watch = Watch(lines)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        for worker in workers:
            _start(worker, lines, watch, work, parent)
        while any(w.pid or w.due is not None for w in workers):
            watch.turn(TICK)
            now = time.monotonic()
            _reap(workers, say, now)
            _watch(workers, watch, say)
            for worker in workers:
                if worker.due is not None and now >= worker.due:
                    _start(worker, lines, watch, work, parent)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop(workers)
    return 0


def _start(worker: Worker, lines: Lines, watch: Watch, work: Work, parent: int) -> None:
    watch.started(worker.index)
    pid = os.fork()
    if pid == 0:
        watch.close_in_worker()
        lines.keep_only(worker.index)
        _worker(worker.index, lines, parent, work)
    worker.pid, worker.started, worker.due = pid, time.monotonic(), None


def _reap(workers: list[Worker], say, now: float) -> None:
    """Every worker that ended since the last look: started again after its pause, unless it ended on purpose."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        worker = next((w for w in workers if w.pid == pid), None)
        if worker is None:
            continue
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            worker.pid = 0
            continue  # stopped on purpose (Ctrl-C in its terminal, SIGTERM): serve ends with its last worker
        pause = worker.failed(now)
        say(f"worker {worker.index + 1} of {len(workers)} stopped ({_how(status)}); starting it again in "
            f"{pause:.0f} s")


def _watch(workers: list[Worker], watch: Watch, say) -> None:
    """A running worker not heard from for too long answers nobody: it is killed, and then started again."""
    for worker in workers:
        if not worker.pid:
            continue
        silent, heard = watch.silent_for(worker.index)
        if silent > (HUNG_AFTER if heard else FIRST_BEAT):
            say(f"worker {worker.index + 1} of {len(workers)} has not answered for {silent:.0f} s; stopping it")
            _signal(worker.pid, signal.SIGKILL)
            watch.heard[worker.index] = watch.clock()  # said once: it is reaped at the next look


def heartbeat(line: Line, parent: int) -> Callable[[], None]:
    """What a worker's connection manager calls each second: stop as on Ctrl-C once the parent is gone, else say
    it is alive."""
    def beat() -> None:
        if os.getppid() != parent:
            raise KeyboardInterrupt
        line.send(ALIVE)
    return beat


def _worker(index: int, lines: Lines, parent: int, work: Work) -> None:
    """In the forked worker: die with the parent, stop on SIGTERM as on Ctrl-C, never return to the
    parent's code."""
    code = 1
    try:
        _die_with_parent(parent)
        stop_on_sigterm()
        siblings, beats = lines.of(index)
        work(index, siblings, heartbeat(beats, parent))
        code = 0
    except KeyboardInterrupt:
        code = 0
    except BaseException:  # a worker's failure is told, then the parent starts it again
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def stop_on_sigterm():
    """SIGTERM (a service manager, `kill`) stops this process as Ctrl-C does; the handler it had before."""
    return signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum, frame):
    """SIGTERM stops serve as Ctrl-C does: answers in progress finish, then the process ends. Once: a
    second signal while it stops does not break its stopping."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _die_with_parent(parent: int) -> None:
    """On Linux the kernel kills the worker the moment its parent dies; elsewhere its heartbeat notices."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(0)


def _stop(workers: list[Worker]) -> None:
    """SIGTERM to every worker, then SIGKILL to those still there after STOP_WAIT."""
    running = {w.pid for w in workers if w.pid}
    for pid in running:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT
    while running and time.monotonic() < deadline:
        running = {pid for pid in running if not _ended(pid)}
        time.sleep(0.02)
    for pid in running:
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
