"""Workbooks (.xlsx), both ways: a series or a season exported as a real workbook, and a
workbook's games sheet read back as a series file, with the checks a CSV file gets.

A series' workbook has a games sheet (the settings rows, the heading row and a row per
game: the cards left under each player's name, the game's points and every side's running
total) and a standings sheet; a season's has a table of the players and one of the teams,
then a games sheet per series. Numbers are numbers, the heading rows are frozen and bold,
every column is as wide as what it holds, and the points and totals are values that
sheetgen worked out (no formulas: a workbook read back is checked against them). A name a
spreadsheet would run as a formula (``=...``, ``+``, ``-``, ``@``) is a text cell shown as
typed. openpyxl is imported only when a workbook is read or written.
"""

from __future__ import annotations

import datetime
import io
import re
import warnings
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetgen.errors import SeriesFileError
from sheetgen.series.cells import heading, text_of
from sheetgen.series.csvfile import FORMULA_STARTS, game_rows, heading_row, settings_rows
from sheetgen.series.grid import Grid, is_heading_row, read_grid

if TYPE_CHECKING:
    from sheetgen.game.language import Language
    from sheetgen.game.scoring import SeriesResult

# What a workbook may unpack to, and how many parts it may have: a games sheet of the
# most games a series holds is a few megabytes; a zip bomb is refused before it is opened.
MAX_UNPACKED = 256 * 2**20
MAX_PARTS = 2000
# Rows looked through for a heading row when a sheet is searched for the games.
HEADING_SEARCH = 100
# What a workbook sheetgen wrote holds near its start (its properties, stored unpacked).
SIGN = b">sheetgen</dc:creator>"
SEASON_SIGN = b">sheetgen season</cp:keywords>"
CORE = "docProps/core.xml"
GAMES_SHEETS = ("games", "spiele")
# A sheet's name may have 31 characters and none of these.
_SHEET_NAME_BANNED = str.maketrans({char: "-" for char in "[]:*?/\\"})


# Reading ---------------------------------------------------------------------------


def _check_zip(data: bytes, path: Path) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise SeriesFileError(
            file=path,
            problem=f"is not an .xlsx workbook ({exc}); save it from the spreadsheet as "
            "Excel 2007-365 (.xlsx), without a password",
        ) from None
    if len(parts) > MAX_PARTS or sum(part.file_size for part in parts) > MAX_UNPACKED:
        raise SeriesFileError(
            file=path,
            problem=f"unpacks to more than {MAX_UNPACKED // 2**20} MB or {MAX_PARTS} parts, "
            "far more than a series' workbook holds",
        )


def read_xlsx(data: bytes, path: Path, *, games: bool = True) -> Grid:
    """The games sheet of a workbook, read as a CSV series file is."""
    _check_zip(data, path)
    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl warns of what it does not read
        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many kinds for a damaged workbook
            raise SeriesFileError(
                file=path,
                problem=f"is not a workbook sheetgen can read ({type(exc).__name__}: {exc}); "
                "save it from the spreadsheet as Excel 2007-365 (.xlsx)",
            ) from None
        try:
            sheet = _games_sheet(book, path)
            rows = enumerate(sheet.iter_rows(values_only=True), start=1)
            return read_grid(rows, path, None, games=games, pad=True)
        finally:
            book.close()


def _games_sheet(book: Any, path: Path) -> Any:
    """The sheet holding the games: the one with a heading row (game, winner, players)."""
    found = []
    for sheet in book.worksheets:
        for _, row in zip(range(HEADING_SEARCH), sheet.iter_rows(values_only=True), strict=False):
            if is_heading_row([text_of(cell).strip() for cell in row]):
                found.append(sheet)
                break
    if len(found) == 1:
        return found[0]
    named = [sheet for sheet in found if heading(sheet.title) in GAMES_SHEETS]
    if len(named) == 1:
        return named[0]
    if not found:
        raise SeriesFileError(
            file=path,
            problem="no sheet has a heading row; the games sheet names the columns game and "
            "winner, then one per player",
        )
    names = ", ".join(repr(sheet.title) for sheet in found)
    raise SeriesFileError(
        file=path,
        problem=f"the sheets {names} each hold games; sheetgen reads a workbook of one "
        "series (a season's workbook is for reading in a spreadsheet: give the series "
        "files themselves)",
    )


def is_season(head: bytes) -> bool:
    """Whether the first bytes of a file are of a season's workbook that sheetgen wrote
    (several games sheets: for a spreadsheet, not read back as a series)."""
    return head.startswith(b"PK\x03\x04") and SEASON_SIGN in head


# Writing ---------------------------------------------------------------------------


def _text_cell(cell: Any, text: str) -> None:
    """A name or title as text, shown as typed: never a formula, whatever it starts with."""
    cell.value = text
    cell.data_type = "s"
    if text.startswith(FORMULA_STARTS):
        cell.quotePrefix = True


def fill_sheet(sheet: Any, rows: Sequence[Sequence[str | int | None]], heading_at: int) -> None:
    """Write ``rows`` from the top of ``sheet``: numbers as numbers, text as text; the row
    at ``heading_at`` (from 1) bold and frozen with everything above it; every column as
    wide as its longest cell."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    bold = Font(bold=True)
    widths: dict[int, int] = {}
    for number, row in enumerate(rows, start=1):
        for column, value in enumerate(row, start=1):
            if value is None:
                continue
            cell = sheet.cell(row=number, column=column)
            if isinstance(value, str):
                _text_cell(cell, value)
            else:
                cell.value = value
            if number == heading_at:
                cell.font = bold
            widths[column] = max(widths.get(column, 0), len(str(value)))
    for column, width in widths.items():
        sheet.column_dimensions[get_column_letter(column)].width = min(max(width + 2, 8), 60)
    sheet.freeze_panes = f"A{heading_at + 1}"


def games_rows(result: SeriesResult, code: str) -> tuple[list[list[str | int | None]], int]:
    """A series' games sheet: its settings rows, heading row and games; and the number of
    the heading row."""
    series = result.series
    settings: list[list[str | int | None]] = [
        list(row) for row in settings_rows(series, code, "xlsx")
    ]
    rows: list[list[str | int | None]] = [*settings, [*heading_row(series, code, "xlsx")]]
    rows += [[*row] for row in game_rows(result)]
    return rows, len(settings) + 1


def unique_title(name: str, taken: set[str]) -> str:
    """A sheet name from ``name``: at most 31 characters, none a sheet name may not have,
    and not one already taken (whatever its case)."""
    base = name.translate(_SHEET_NAME_BANNED).strip("'") or "Series"
    title = base[:31]
    count = 2
    while title.casefold() in taken:
        suffix = f" ({count})"
        title = base[: 31 - len(suffix)] + suffix
        count += 1
    taken.add(title.casefold())
    return title


def workbook_bytes(book: Any) -> bytes:
    """The workbook as sheetgen writes it: its properties name sheetgen and are stored
    first and unpacked (so that sheetgen knows its own workbooks from their first bytes),
    and every part carries one time: the document's (SOURCE_DATE_EPOCH, or now)."""
    from sheetgen.sourcedate import source_date_epoch

    epoch = source_date_epoch()
    when = (
        datetime.datetime.now(datetime.UTC)
        if epoch is None
        else datetime.datetime.fromtimestamp(epoch, datetime.UTC)
    ).replace(microsecond=0, tzinfo=None)
    book.properties.creator = "sheetgen"
    book.properties.lastModifiedBy = "sheetgen"
    book.properties.created = book.properties.modified = when
    made = io.BytesIO()
    book.save(made)
    stamp = max(when, datetime.datetime(1980, 1, 1)).timetuple()[:6]
    out = io.BytesIO()
    with (
        zipfile.ZipFile(made) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        names = sorted(source.namelist(), key=lambda name: name != CORE)
        for name in names:
            part = zipfile.ZipInfo(name, date_time=stamp)
            data = source.read(name)
            if name == CORE:
                # openpyxl dates the save itself: the document's one time goes in its place.
                part.compress_type = zipfile.ZIP_STORED
                data = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                    rb"\g<1>" + when.isoformat().encode() + rb"Z\g<2>",
                    data,
                )
            else:
                part.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(part, data)
    return out.getvalue()


def series_xlsx(result: SeriesResult, lang: Language) -> bytes:
    """One series as a workbook: its games sheet and its standings sheet."""
    import openpyxl

    from sheetgen.series.words import say, standings_rows

    book = openpyxl.Workbook()
    games = book.active
    games.title = say(lang, "Games")
    rows, heading_at = games_rows(result, lang.code)
    fill_sheet(games, rows, heading_at)
    standings = book.create_sheet(say(lang, "Standings"))
    fill_sheet(standings, standings_rows(result, lang), 1)
    return workbook_bytes(book)


def season_xlsx(named: Sequence[tuple[Path, SeriesResult]], lang: Language) -> bytes:
    """A season as a workbook: the players' table, the teams' (if a series had teams),
    then a games sheet for each series, named after its file."""
    import openpyxl

    from sheetgen.series.words import say, season_tables

    book = openpyxl.Workbook()
    tables = season_tables([result for _, result in named], lang)
    first = True
    taken: set[str] = set()
    for title, rows in tables:
        sheet = book.active if first else book.create_sheet()
        sheet.title = unique_title(title, taken)
        fill_sheet(sheet, rows, 1)
        first = False
    for path, result in named:
        sheet = book.create_sheet(unique_title(path.stem, taken))
        rows, heading_at = games_rows(result, lang.code)
        fill_sheet(sheet, rows, heading_at)
    book.properties.title = say(lang, "Season")
    book.properties.keywords = "sheetgen season"
    return workbook_bytes(book)
