"""A copy of every game at every round's end and at game over (`serve --backups DIR`): the laptop may die in
round V, and the file then resumes the game on another machine (companion/resume/).

The copy is written by a store listener, after the commit that brings a game to that moment: the upkeep
waiting for the host's "the table is ready" (the round that ended, with what the table sets up next) or the
final scoring. Only such a commit costs anything more than a look at the phase. File names are ours, made
from the game's id (its own 16 hex digits, checked) and the round: nothing from any file or player is ever
part of a path. The last KEEP files of each game are kept."""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from pathlib import Path

from ..engine.state import GameState
from ..engine.view import between_rounds
from ..faults import StartupError
from ..store import NotFound, Store

KEEP = 3
GAME_ID = re.compile(r"[0-9a-f]{16}")
log = logging.getLogger(__name__)


def moment_of(state: GameState) -> str | None:
    """"over", "round-<n>" while the upkeep after round n waits for "the table is ready" (R-NEXT-14), else
    None (most commits)."""
    if state.phase == "over":
        return "over"
    upkeep = between_rounds(state) if state.phase == "upkeep" else None
    return f"round-{upkeep['round'] - 1}" if upkeep and upkeep["ready"] else None


class Backups:
    """A store listener (Store.on_move: game id, new version) writing each game's file into `folder`."""

    def __init__(self, store: Store, folder: str | os.PathLike, keep: int = KEEP):
        self.store, self.folder, self.keep = store, Path(folder), max(1, keep)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            probe = tempfile.NamedTemporaryFile(dir=self.folder, prefix=".probe-")
            probe.close()
        except OSError as exc:
            raise StartupError(f"Cannot write game copies into {self.folder}: {exc.strerror or exc}. Choose a "
                               "folder the companion may write (--backups DIR).") from None

    def __call__(self, gid: str, version: int) -> None:
        if not GAME_ID.fullmatch(gid):
            return
        try:
            moment = moment_of(self.store.load(gid).state)
            if moment is not None:
                self.write(gid, moment)
        except NotFound:  # deleted: its copies stay, as the host's last word on it
            return
        except OSError as exc:  # a full or missing disk: the game goes on, the log says why there is no copy
            log.warning("could not write a copy of game %s into %s: %s", gid, self.folder, exc)

    def write(self, gid: str, moment: str) -> Path:
        """The game's file as `messina-<game>-<moment>.json`, whole or not at all; then the oldest go."""
        path = self.folder / f"messina-{gid}-{moment}.json"
        data = json.dumps(self.store.game_file(gid), indent=1).encode("utf-8")
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".messina-{gid}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        self._keep_last(gid)
        return path

    def _keep_last(self, gid: str) -> None:
        named = re.compile(rf"messina-{gid}-(round-([1-7])|over)\.json")
        kept = []
        for path in self.folder.iterdir():
            found = named.fullmatch(path.name)
            if found:
                kept.append((int(found.group(2)) if found.group(2) else 99, path))
        for _, path in sorted(kept)[:-self.keep]:
            path.unlink(missing_ok=True)
