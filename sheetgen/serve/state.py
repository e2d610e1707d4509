"""The series a server shows: its file is the only truth, and every open page hears of
each change.

Changes made through the server go through ``sheetgen.series.record``'s locked, atomic,
comment-keeping write, each against the number of games its page last saw (a page that
saw an older state is refused, so two phones never record one game twice). A change made
to the file by anyone else (an editor, the command line) is seen by a watch that looks at
the file's identity, size and time a few times a second and reads it again when they move.
A file that cannot be read for a moment (an editor halfway through saving) leaves the
last good state on the pages, with the problem beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sheetgen.errors import SheetgenError
from sheetgen.game.scoring import Game, SeriesResult
from sheetgen.series.file import load_scored
from sheetgen.series.record import record_game, replace_game, undo_game

POLL_SECONDS = 0.25  # an edit by hand reaches every page within a second


@dataclass(frozen=True)
class Snapshot:
    """One state of the series as the pages show it. ``revision`` grows by one at every
    change seen; ``problem`` says why the file cannot be read now (the result shown is
    then the last one read)."""

    result: SeriesResult
    revision: int
    problem: str | None = None

    @property
    def played(self) -> int:
        return len(self.result.games)


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What changes when a file is written: its identity, size and time (no read)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


class Listener:
    """One open page's place in line: it holds only the newest snapshot not yet sent, so
    a slow or stalled page costs one reference, never a growing queue."""

    def __init__(self) -> None:
        self._newest: Snapshot | None = None
        self._ready = asyncio.Event()

    def offer(self, snapshot: Snapshot) -> None:
        self._newest = snapshot
        self._ready.set()

    async def next(self) -> Snapshot:
        await self._ready.wait()
        self._ready.clear()
        assert self._newest is not None
        return self._newest


class ServedSeries:
    """A series file kept in view: its newest snapshot, its listeners, its changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp = _stamp(path)
        self._snapshot = Snapshot(load_scored(path), 1)
        self._listeners: set[Listener] = set()
        self._writing = threading.Lock()  # one change at a time from this server
        self._reading = asyncio.Lock()

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @contextlib.contextmanager
    def listening(self) -> Iterator[Listener]:
        """A listener for as long as a page keeps its stream open."""
        listener = Listener()
        self._listeners.add(listener)
        try:
            yield listener
        finally:
            self._listeners.discard(listener)

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    async def refresh(self, *, force: bool = False) -> Snapshot:
        """Read the file again if it moved (or ``force``), and tell every listener."""
        async with self._reading:
            stamp = await asyncio.to_thread(_stamp, self.path)
            if stamp == self._stamp and not force:
                return self._snapshot
            self._stamp = stamp
            old = self._snapshot
            try:
                result = await asyncio.to_thread(load_scored, self.path)
            except SheetgenError as exc:
                snapshot = Snapshot(old.result, old.revision + 1, str(exc))
            except OSError as exc:
                snapshot = Snapshot(old.result, old.revision + 1, f"{self.path}: {exc.strerror}")
            else:
                snapshot = Snapshot(result, old.revision + 1)
            if (snapshot.result, snapshot.problem) == (old.result, old.problem):
                return old  # read again, found as it was: no page needs telling
            self._snapshot = snapshot
            for listener in list(self._listeners):
                listener.offer(snapshot)
            return snapshot

    async def watch(self, every: float = POLL_SECONDS) -> None:
        """Look at the file every ``every`` seconds for as long as the server runs."""
        while True:
            await asyncio.sleep(every)
            await self.refresh()

    async def _change(self, write: Callable[[], object]) -> Snapshot:
        def locked() -> None:
            with self._writing:
                write()

        await asyncio.to_thread(locked)
        return await self.refresh(force=True)

    async def record(self, game: Game, expected_games: int) -> Snapshot:
        """Add ``game`` if the file still holds ``expected_games`` games."""
        return await self._change(
            lambda: record_game(self.path, game, expected_games=expected_games)
        )

    async def replace(self, number: int, game: Game, expected_games: int) -> Snapshot:
        """Put ``game`` in place of game ``number`` if the file still holds
        ``expected_games`` games."""
        return await self._change(
            lambda: replace_game(self.path, number, game, expected_games=expected_games)
        )

    async def undo(self, expected_games: int) -> Snapshot:
        """Remove the last game if the file still holds ``expected_games`` games."""
        return await self._change(lambda: undo_game(self.path, expected_games=expected_games))
