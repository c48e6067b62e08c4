"""What one worker process of `serve` tells the others, so the table sees one companion however many
processes answer it (serve/workers.py): the news port's workers' implementation (`WorkersNews`), and the
phones seen.

The games file is shared, so every process reads the truth from it, and the per-device limits are counted
there too (store/tries.py). What lives only in a process's memory is told to its siblings as it happens, in
one small message each, on its private line to each of them (serve/lines.py):

- `v`: a game moved on (its version): a sibling wakes the screens of that game that wait there;
- `r`: a game's screens must look again though it did not move (a seat taken by a phone, a tick);
- `s`: a seat's phone asked (and, while its question waits, until when it will be asking).

Telling never waits, and a message lost on the way (a sibling's line full, a sibling being started again)
costs a moment at most: a waiting question reads the version from the games file before it waits, and
asks again within a hold (web/news.py). A message that cannot be read is dropped and counted; nothing a
line carries can stop the thread that listens.
"""

from __future__ import annotations

import selectors
import threading
from collections.abc import Callable

from ..news import InProcessNews
from .lines import Line


class Siblings:
    """This worker's lines to the others (`lines`: by the other's index; `index`: its own place)."""

    def __init__(self, lines: dict[int, Line], index: int):
        self.lines, self.index = lines, index
        self._heard: dict[str, Callable[..., None]] = {}
        self.unreadable = 0  # messages dropped because they could not be read

    @property
    def dropped(self) -> int:
        """Messages lost either way: not sent (a line full), or not readable when they came."""
        return sum(line.dropped for line in self.lines.values()) + self.unreadable

    def on(self, kind: str, heard: Callable[..., None]) -> None:
        """Call `heard(*fields)` for each message of `kind` a sibling sends."""
        self._heard[kind] = heard

    def tell(self, kind: str, *fields) -> None:
        """Send a message to every other worker, never waiting."""
        data = "\t".join([kind, *map(str, fields)]).encode()
        for line in self.lines.values():
            line.send(data)

    def apply(self, data: bytes) -> None:
        """One message; anything unreadable (not text, an unknown kind, fields its reader refuses) is dropped
        and counted, whatever its reader raises."""
        try:
            kind, *fields = data.decode().split("\t")
            self._heard[kind](*fields)
        except Exception:  # noqa: BLE001 - whatever a message is, the line goes on
            self.unreadable += 1

    def apply_waiting(self) -> None:
        """Apply every message waiting on the lines, now."""
        for line in self.lines.values():
            while (data := line.receive()) is not None:
                self.apply(data)

    def listen(self) -> threading.Thread:
        """A daemon thread that applies messages as they come."""
        def run() -> None:
            with selectors.DefaultSelector() as selector:
                for line in self.lines.values():
                    selector.register(line.sock, selectors.EVENT_READ)
                while all(line.sock.fileno() >= 0 for line in self.lines.values()):  # until the worker stops
                    try:
                        selector.select(1.0)
                        self.apply_waiting()
                    except (OSError, ValueError):
                        return

        thread = threading.Thread(target=run, name="siblings", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        for line in self.lines.values():
            line.close()


class WorkersNews(InProcessNews):
    """The news port (companion/news.py) for one of serve's worker processes: the in-process news, with each
    fact told to the other workers as it happens (`v`, `r`) and theirs applied here."""

    def __init__(self, siblings: Siblings):
        super().__init__()
        self.siblings = siblings
        siblings.on("v", lambda gid, version: InProcessNews.moved(self, gid, int(version)))
        siblings.on("r", lambda gid: InProcessNews.look_again(self, gid))

    def moved(self, gid: str, version: int) -> None:
        super().moved(gid, version)
        self.siblings.tell("v", gid, version)

    def look_again(self, gid: str) -> None:
        super().look_again(gid)
        self.siblings.tell("r", gid)

    def share_phones(self, phones) -> None:
        """The phones seen (web/phones.py): each sighting here is told to the others (`s`: game, seat, when,
        asking until, which worker), and theirs are applied here."""
        index = self.siblings.index
        phones.echo = lambda gid, seat, when, until: self.siblings.tell("s", gid, seat, when, until, index)
        self.siblings.on("s", lambda gid, seat, when, until, where: phones.heard(gid, int(seat), float(when),
                                                                              float(until), where))
