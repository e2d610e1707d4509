"""The one family of exceptions sheetgen raises for bad input.

The command line turns any of these into a single clean line and a non-zero
exit. Messages never start with "Error:" (click adds that) and name the file,
the game and the field wherever those are known.
"""

from __future__ import annotations


class SheetgenError(Exception):
    """Base of every error sheetgen reports to a user instead of a traceback."""


class RuleError(SheetgenError):
    """A game, a series or a set of house rules breaks the rules of the game."""


class SeriesFileError(SheetgenError):
    """A series file is missing, unreadable, malformed or holds invalid data."""


class HouseRulesError(SheetgenError):
    """A house-rules file or option asks for something the game cannot do."""


class FontCoverageError(SheetgenError):
    """Text holds characters that no embeddable typeface can print."""


class ChoiceError(SheetgenError):
    """An option names something sheetgen does not know: a paper size, a preset, a game."""


class OutputError(SheetgenError):
    """A document cannot be written where it was asked to go."""


class MissingLibraryError(SheetgenError):
    """A system library a document needs (Pango, for booklets) is not installed."""
