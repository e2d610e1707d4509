"""Which series files a command reads (each series once, a CSV export beside its series
left out) and which an export must not be written over."""

from __future__ import annotations

import contextlib
import csv
import stat
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from sheetgen.errors import OutputError, SeriesFileError, SheetgenError
from sheetgen.game.scoring import Series
from sheetgen.series.file import FORMATS, load_series, read_bytes, series_format
from sheetgen.series.grid import Grid
from sheetgen.series.schema import BOM


def series_paths(inputs: Iterable[Path]) -> list[Path]:
    """The series files named, with every series file of a named folder (sorted by name)."""
    paths: list[Path] = []
    for item in inputs:
        if item.is_dir():
            # Hidden names are editors' lock and backup files (.#friday.yaml), not series.
            found = sorted(
                p
                for p in item.iterdir()
                if p.suffix.lower() in FORMATS and not p.name.startswith(".")
            )
            if not found:
                raise SeriesFileError(
                    f"{item}: the folder holds no series files (.yaml, .yml, .json, .csv or .xlsx)"
                )
            paths.extend(found)
        else:
            paths.append(item)
    return paths


class SeriesFiles(NamedTuple):
    """The series files a command reads, each series once, the files it left out, and
    what else a reader should know of a file (a column of its own that is not read)."""

    paths: list[Path]
    left_out: list[tuple[Path, str]]
    remarks: tuple[tuple[Path, str], ...] = ()

    @property
    def read(self) -> list[Path]:
        """Every file named or found, left out or not: none may be written over."""
        return [*self.paths, *(path for path, _ in self.left_out)]

    @property
    def notes(self) -> list[str]:
        """One line per file left out, saying why, and per remark."""
        return [f"{path}: {why}" for path, why in [*self.left_out, *self.remarks]]


def distinct_series(inputs: Iterable[Path]) -> SeriesFiles:
    """The series files named or found in named folders, each series read once.

    A file named twice (``a.yaml ./a.yaml``, a folder and a file in it, two links to
    one file) is read once; an export (CSV or workbook) beside the series it was exported from (its
    games are that series' games, or the first of them) is left out, so a season
    counts those games once. Files that cannot be read are kept: reading them reports
    what is wrong. A season's workbook sheetgen exported, found in a folder, is left out
    too (named, it is read, and refused for holding several series).
    """
    inputs = list(inputs)
    named = {item for item in inputs if not item.is_dir()}
    paths: list[Path] = []
    left_out: list[tuple[Path, str]] = []
    seen: dict[tuple[int, int], Path] = {}
    for path in series_paths(inputs):
        try:
            info = path.stat()
        except OSError:
            paths.append(path)
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            same = "named twice" if seen[key] == path else f"the same file as {seen[key]}"
            left_out.append((path, f"{same}; read once"))
        else:
            seen[key] = path
            paths.append(path)
    seasons = {path: SEASON_NOTE for path in paths if _is_season(path) and path not in named}
    left_out += seasons.items()
    paths = [path for path in paths if path not in seasons]
    exports = _exports_beside_their_series(paths)
    left_out += exports.items()
    kept = [path for path in paths if path not in exports]
    return SeriesFiles(
        kept, left_out, tuple((path, note) for path in kept for note in own_columns(path))
    )


SEASON_NOTE = "a season's workbook that sheetgen exported; left out, as its series are files"


def _is_season(path: Path) -> bool:
    """Whether ``path`` is a season's workbook sheetgen wrote (several games sheets)."""
    from sheetgen.series.xlsxfile import is_season

    if series_format(path) != "xlsx":
        return False
    try:
        with path.open("rb") as handle:
            return is_season(handle.read(4096))
    except OSError:
        return False


def _grid(path: Path, games: bool) -> Grid | None:
    """The games sheet of a CSV file or a workbook (None for other formats, or if it cannot
    be read: reading it for the command says why)."""
    fmt = series_format(path)
    if fmt not in ("csv", "xlsx"):
        return None
    try:
        data = read_bytes(path)
        if fmt == "xlsx":
            from sheetgen.series.xlsxfile import read_xlsx

            return read_xlsx(data, path, games=games)
        from sheetgen.series.csvfile import read_csv

        return read_csv(data.decode("utf-8").removeprefix(BOM), path, games=games)
    except (SheetgenError, UnicodeDecodeError, csv.Error):
        return None


def own_columns(path: Path) -> list[str]:
    """A note for a games sheet with columns of the club's own (notes, a date): sheetgen
    leaves them as they are and does not read them. None for a file that does not read."""
    heading = _grid(path, games=False)  # the heading row tells whether there may be any
    if heading is None or not (heading.layout.own or heading.layout.tentative):
        return []
    grid = _grid(path, games=True)  # a column headed Notes may yet be a player's
    if grid is None or not grid.own_columns:
        return []
    try:
        load_series(path)
    except SheetgenError:
        return []  # what is wrong is said when the file is read for the command
    columns = grid.own_columns
    if len(columns) == 1:
        return [f"sheetgen does not read {columns[0]}; it is left as it is"]
    listed = ", ".join(columns[:-1]) + f" and {columns[-1]}"
    return [f"sheetgen does not read {listed}; they are left as they are"]


def _is_export(path: Path) -> bool:
    """Whether ``path`` is an export: a games sheet with points and totals columns."""
    grid = _grid(path, games=False)
    return grid is not None and grid.layout.worked


def _exports_beside_their_series(paths: list[Path]) -> dict[Path, str]:
    """Each CSV export whose series another file beside it (or of its name) holds, and why
    it is left out."""
    exports = [path for path in paths if _is_export(path)]
    left_out: dict[Path, str] = {}
    read: dict[Path, Series | None] = {}

    def series_of(path: Path) -> Series | None:
        if path not in read:
            try:
                read[path] = load_series(path)
            except SheetgenError:
                read[path] = None  # reported when the file is read for the command
        return read[path]

    for export in exports:
        exported = series_of(export)
        if exported is None:
            continue
        for other in paths:
            beside = other.parent == export.parent or other.stem == export.stem
            if other == export or other in left_out or not beside:
                continue
            if other in exports and paths.index(other) > paths.index(export):
                continue  # of two copies of one export, the first is kept
            series = series_of(other)
            if series is not None and _holds(series, exported):
                games, played = len(exported.games), len(series.games)
                first = "its games" if games == played else f"{games} of its {played} games"
                left_out[export] = f"an export of {other} ({first}); left out, so they count once"
                break
    return left_out


def _holds(series: Series, exported: Series) -> bool:
    """Whether ``exported`` is ``series`` as it stood after some of its games."""
    count = len(exported.games)
    return count <= len(series.games) and replace(series, games=series.games[:count]) == exported


def refuse_replacing_series(path: Path, text: str | bytes, exported: Series | None) -> None:
    """Refuse to write an export over a series file (one the reader takes as a series)
    unless nothing of it would be lost: the file already holds exactly ``text``, or it is
    a CSV series or a workbook that ``exported`` holds game for game (an earlier export of
    it, which ``text``, an export that reads back as a series, replaces with all its
    games)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(path.stat().st_mode) or path.read_bytes() == data:
            return
    try:
        there = load_series(path)
    except SheetgenError:
        return  # not a series: the destination check decided whether it may be replaced
    sheets = ("csv", "xlsx")
    if series_format(path) in sheets and exported is not None and _holds(exported, there):
        return
    played = len(there.games)
    raise OutputError(
        f"holds a series with {played} recorded game{'' if played == 1 else 's'}; "
        "sheetgen will not replace it without --force",
        file=path,
    )
