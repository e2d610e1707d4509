"""Series files: which format a file is in, reading one into a checked ``Series`` and
writing a new one.

Each format has its module (``yamlfile``, ``jsonfile``, ``csvfile``, ``xlsxfile``) whose
reader gives plain data to the one ``schema``; every rule of the scoring module applies, and
a games sheet's points and totals cells (CSV, workbooks) are checked against the scoring. Changing a
file (record, replace, undo) is ``record``'s.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from sheetgen import fonts
from sheetgen.atomic import create_bytes
from sheetgen.errors import SeriesFileError, SheetgenError, not_utf8
from sheetgen.game.definition import DEFAULT_GAME, load_game
from sheetgen.game.names import check_title
from sheetgen.game.scoring import Series, SeriesResult
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import make_table
from sheetgen.limits import MAX_SERIES_BYTES, MAX_SERIES_GAMES
from sheetgen.series import csvfile, jsonfile, yamlfile
from sheetgen.series.grid import Grid, check_stated
from sheetgen.series.schema import BOM, scored

FORMATS = {".yaml": "yaml", ".yml": "yaml", ".json": "json", ".csv": "csv", ".xlsx": "xlsx"}
# Spreadsheets sheetgen does not read, and what to do instead.
OTHER_SHEETS = {
    ".ods": "sheetgen reads .xlsx workbooks, not .ods: save it in LibreOffice as Excel "
    "2007-365 (.xlsx) or as Text CSV (.csv)",
    ".xls": "sheetgen reads .xlsx workbooks, not the older .xls: save it as Excel "
    "2007-365 (.xlsx) or as CSV (.csv)",
    ".xlsm": "sheetgen reads .xlsx workbooks without macros: save it as Excel 2007-365 "
    "(.xlsx) or as CSV (.csv)",
    ".numbers": "sheetgen reads .xlsx workbooks, not Numbers files: export it as Excel "
    "(.xlsx) or as CSV (.csv)",
}


class Read(NamedTuple):
    """A series file read: its plain data (not yet checked) and, for a games sheet (CSV or
    a workbook), the sheet with the points and totals cells to check after scoring."""

    data: Any
    grid: Grid | None = None


class _Format(NamedTuple):
    """What loading and saving need of a text format: its text as plain data (not yet
    checked), and the text of a new file holding a series."""

    read: Callable[[str, Path], Read]
    new_text: Callable[[Series], str]


def _csv(text: str, path: Path) -> Read:
    grid = csvfile.read_csv(text, path)
    return Read(grid.data, grid)


_BY_NAME = {
    "yaml": _Format(lambda text, path: Read(yamlfile.read(text, path)), yamlfile.new_text),
    "json": _Format(lambda text, path: Read(jsonfile.read(text, path)), jsonfile.new_text),
    "csv": _Format(_csv, csvfile.new_text),
}


def series_format(path: Path) -> str:
    """The format of a series file, by its suffix."""
    suffix = path.suffix.lower()
    try:
        return FORMATS[suffix]
    except KeyError:
        problem = OTHER_SHEETS.get(suffix) or (
            f"a series file ends in .yaml, .yml, .json, .csv or .xlsx, "
            f"not {path.suffix or '(no suffix)'!r}"
        )
        raise SeriesFileError(file=path, problem=problem) from None


def load_series(path: Path) -> Series:
    """Read and check a series file."""
    return load_scored(path).series


def load_scored(path: Path) -> SeriesResult:
    """Read and check a series file; its result, from the scoring that checked it."""
    if series_format(path) == "xlsx":
        from sheetgen.series.xlsxfile import read_xlsx

        grid = read_xlsx(read_bytes(path), path)
        return _scored(Read(grid.data, grid), path)
    return _scored(_data(read_text(path), path), path)


def parse_series(text: str, path: Path) -> Series:
    """Turn a series file's text into a checked Series; ``path`` names it in messages."""
    return _scored(_data(text, path), path).series


def _scored(read: Read, path: Path) -> SeriesResult:
    """The series read, checked and scored; a games sheet's points and totals cells
    checked against the scoring."""
    try:
        result = scored(read.data, path)
    except SheetgenError as exc:
        place = read.grid.cell_of(exc.game, exc.field) if read.grid is not None else None
        if place is None:
            raise
        raise exc.at(field=place) from None  # a spreadsheet's reader looks for a cell
    if read.grid is not None:
        check_stated(read.grid, result, path)
    return result


def _data(text: str, path: Path) -> Read:
    """A series file's text as plain data, not yet checked."""
    fmt = series_format(path)
    if fmt not in _BY_NAME:
        raise SeriesFileError(file=path, problem=f"a {fmt} file is not text")
    # Spreadsheets save UTF-8 with a byte-order mark.
    return _BY_NAME[fmt].read(text.removeprefix(BOM), path)


def _check_size(path: Path, size: int) -> None:
    if size > MAX_SERIES_BYTES:
        raise SeriesFileError(
            file=path,
            problem=f"is larger than {MAX_SERIES_BYTES // 2**20} MB, the most a series file "
            f"may hold (and a series holds at most {MAX_SERIES_GAMES:,} games)",
        )


def read_bytes(path: Path) -> bytes:
    """A series file's bytes, read from the one descriptor it was opened on.

    What was opened is checked, not what the name pointed at a moment before: a FIFO or a
    device would block or never end (opened without waiting for a writer, it is refused),
    and no more than MAX_SERIES_BYTES is read whatever size the file claims (a file that
    grows while it is read, or one under /proc that says 0).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(fd, "rb") as handle:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise SeriesFileError(file=path, problem="is a folder, not a series file")
            if not stat.S_ISREG(info.st_mode):
                raise SeriesFileError(
                    file=path, problem="is not an ordinary file; give a series file"
                )
            _check_size(path, info.st_size)
            data = handle.read(MAX_SERIES_BYTES + 1)
    except FileNotFoundError:
        raise SeriesFileError(file=path, problem="no such series file") from None
    except OSError as exc:
        raise SeriesFileError(
            file=path, problem=f"cannot be read ({exc.strerror or exc})"
        ) from None
    _check_size(path, len(data))
    return data


def read_text(path: Path) -> str:
    """A series file's text (bytes, not text, are read: line endings must come back
    exactly as they were)."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, problem = not_utf8(exc)
        if path.suffix.lower() == ".csv":
            # Excel's plain "CSV" is in the Windows code page; its "CSV UTF-8" is what reads.
            problem += (
                '; save it from the spreadsheet as "CSV UTF-8" (LibreOffice: Text CSV with '
                "the character set Unicode (UTF-8))"
            )
        raise SeriesFileError(file=path, field=line, problem=problem) from None


def new_series_text(fmt: str, series: Series) -> str:
    """The text of a new series file holding ``series`` (no games yet)."""
    return _BY_NAME[fmt].new_text(series)


def refuse_workbook(path: Path, doing: str) -> None:
    """Refuse to change a workbook: sheetgen reads one, and writes one only as an export."""
    if series_format(path) == "xlsx":
        raise SeriesFileError(
            file=path,
            problem=f"sheetgen reads a workbook but does not {doing} one (a spreadsheet keeps "
            "more in it than sheetgen could write back); type the game into its games "
            "sheet, or keep the series in a .yaml, .json or .csv file and export the "
            "workbook from it",
        )


def create_series(
    path: Path,
    players: Sequence[str],
    *,
    game: str = DEFAULT_GAME,
    teams: Mapping[str, Sequence[str]] | None = None,
    stock: int | None = None,
    target: int | None = None,
    scoring: str | None = None,
    games_to_play: int | None = None,
    title: str | None = None,
) -> Series:
    """Check a new table and write its series file; refuse to replace one that exists.

    Unset figures are the game's own: its official stock and its way of scoring.
    """
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None or fmt == "xlsx":
        workbook = (
            "; a workbook is made from a series with: sheetgen export FILE --format xlsx"
            if fmt == "xlsx"
            else f", not {path.suffix!r}"
            if path.suffix
            else ", and its name needs one of those endings"
        )
        raise SeriesFileError(
            file=path, problem=f"new starts a .yaml, .json or .csv series{workbook}"
        )
    definition = load_game(game)
    rules = ScoringRules.from_options(
        {"way": scoring, "target": target, "games_to_play": games_to_play}, definition.scoring
    )
    table = make_table(players, stock=stock, teams=teams, game=definition)
    if title is not None:
        title = check_title(title, "--title")
    # What fill would refuse later is refused now, while the file is being made.
    fonts.check_printable(table.players, "--players")
    fonts.check_printable([team.name for team in table.teams], "--teams")
    fonts.check_printable([title] if title else [], "--title")
    series = Series(table, (), rules, title or None, game=definition.id, definition=definition)
    create_bytes(path, new_series_text(fmt, series).encode("utf-8"))
    return series
