"""The one family of exceptions sheetgen raises for bad input.

The command line turns any of these into a single clean line and a non-zero
exit. Messages never start with "Error:" (click adds that). An error carries
its place as data: the file, the recorded game's number and the field, so a
caller that knows more (which file, which option) fills them in with
:meth:`SheetgenError.at` instead of cutting and re-gluing the message.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Self


class SheetgenError(Exception):
    """Base of every error sheetgen reports to a user instead of a traceback.

    ``problem`` says what is wrong and what would be right; ``file`` (a path, or
    the name of a command-line option's source), ``game`` (the number of a
    recorded game) and ``field`` (a key or an option) say where. ``str()`` joins
    them: ``series.yaml, game 3, left Cy: 31 cards left, but stock piles hold 30``.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: Path | str | None = None,
        game: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(problem)
        self.problem = problem
        self.file = None if file is None else str(file)
        self.game = game
        self.field = field

    @property
    def where(self) -> str:
        """The place, as the message opens with it ("" when nothing is known)."""
        parts = [self.file, None if self.game is None else f"game {self.game}", self.field]
        return ", ".join(part for part in parts if part)

    def __str__(self) -> str:
        where = self.where
        return f"{where}: {self.problem}" if where else self.problem

    def at(
        self,
        *,
        file: Path | str | None = None,
        game: int | None = None,
        field: str | None = None,
    ) -> Self:
        """A copy of this error placed more exactly: each given part replaces the old one."""
        placed = copy.copy(self)
        if file is not None:
            placed.file = str(file)
        if game is not None:
            placed.game = game
        if field is not None:
            placed.field = field
        return placed

    def within(self, file: Path | str | None) -> Self:
        """A copy that names ``file`` unless it names a file already."""
        return self if self.file is not None or file is None else self.at(file=file)


class RuleError(SheetgenError):
    """A game, a series or a set of house rules breaks the rules of the game."""


class NumberTooLargeError(RuleError):
    """A number has far more digits than any count of cards, points or players."""


class SeriesFileError(SheetgenError):
    """A series file is missing, unreadable, malformed or holds invalid data."""


class StaleSeriesError(SeriesFileError):
    """A change was asked for against an older state of a series file than it now holds
    (another page or command changed it first); nothing was changed."""


class HouseRulesError(SheetgenError):
    """A house-rules file or option asks for something the game cannot do."""


class GameDefinitionError(HouseRulesError):
    """A game folder (rules/<game>/game.toml and its presets) is incomplete or malformed."""


class FontCoverageError(SheetgenError):
    """Text holds characters that no embeddable typeface can print."""


class ChoiceError(SheetgenError):
    """An option names something sheetgen does not know: a paper size, a preset, a game."""


class OutputError(SheetgenError):
    """A document cannot be written where it was asked to go."""


class MissingLibraryError(SheetgenError):
    """A system library a document needs (Pango, for booklets) is not installed."""


class PrintError(SheetgenError):
    """A document cannot be printed: no CUPS, no such printer, or the printer refused the job."""


def not_utf8(exc: UnicodeDecodeError) -> tuple[str, str]:
    """Where a file that is not UTF-8 text first goes wrong (its line, as an error's field)
    and what stands there: the character, and the byte as the Windows code page reads it,
    the usual cause (a spreadsheet's plain CSV, an old editor's text)."""
    data = bytes(exc.object)
    start = data.rfind(b"\n", 0, exc.start) + 1
    line = data.count(b"\n", 0, exc.start) + 1
    column = len(data[start : exc.start].decode("utf-8", "replace")) + 1
    byte = data[exc.start]
    seen = bytes([byte]).decode("cp1252", "replace")
    shown = seen.isprintable() and seen != "\ufffd"
    read = f" ({seen!r} in the Windows code page)" if shown else ""
    return f"line {line}", f"is not UTF-8 text: character {column} is the byte 0x{byte:02X}{read}"
