"""Filled-in score sheets: recorded series written into the blank sheet's own layout.

Every number comes from ``scoring.score_series``; this module only decides
which slot of the layout shows it. Batches are checked in full (every file
read, scored and found printable) before the first page is drawn.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sheetgen import fonts
from sheetgen.atomic import refuse_own_input
from sheetgen.chart import race_chart
from sheetgen.errors import SeriesFileError, SheetgenError
from sheetgen.layout import Layout
from sheetgen.painter import Meta, PageValues, Painter
from sheetgen.paper import Paper
from sheetgen.scoring import SeriesResult, score_series
from sheetgen.sheet import DEFAULT_GAMES, DEFAULT_TITLE, page_layouts, spec_for

SERIES_SUFFIXES = (".yaml", ".yml", ".json", ".csv")
PARALLEL_FROM = 16  # below this many series, starting worker processes costs more than it saves
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Loaded:
    """A series file that was read and scored."""

    path: Path
    result: SeriesResult


@dataclass(frozen=True)
class Failed:
    """A series file that could not be filled in, and why."""

    path: Path
    message: str


def series_paths(inputs: Iterable[Path]) -> list[Path]:
    """The series files named, with every series file of a named folder (sorted by name)."""
    paths: list[Path] = []
    for item in inputs:
        if item.is_dir():
            found = sorted(p for p in item.iterdir() if p.suffix.lower() in SERIES_SUFFIXES)
            if not found:
                raise SeriesFileError(
                    f"{item}: the folder holds no series files (.yaml, .yml, .json or .csv)"
                )
            paths.extend(found)
        else:
            paths.append(item)
    return paths


def check_printable(result: SeriesResult, where: str) -> None:
    """Refuse a series whose names or title the typeface cannot print."""
    series = result.series
    fonts.check_printable(series.table.players, f"{where}: players")
    fonts.check_printable(series.table.sides, f"{where}: teams")
    if series.title:
        fonts.check_printable([series.title], f"{where}: title")


def load_results(
    paths: Sequence[Path], *, keep_going: bool = False, progress: Progress | None = None
) -> tuple[list[Loaded], list[Failed]]:
    """Read, score and check every series file; stop at the first bad one unless ``keep_going``."""
    from sheetgen.seriesfile import load_series

    loaded: list[Loaded] = []
    failed: list[Failed] = []
    for path in paths:
        try:
            result = score_series(load_series(path))
            check_printable(result, str(path))
        except SheetgenError as exc:
            if not keep_going:
                raise
            message = str(exc)
            failed.append(Failed(path, message if str(path) in message else f"{path}: {message}"))
        else:
            loaded.append(Loaded(path, result))
        if progress is not None:
            progress(1)
    return loaded, failed


def status_line(result: SeriesResult) -> str:
    """What the sheet says beside "Series winner:": the winner, or the leader and what is needed."""
    target = result.series.rules.target
    if result.winner is not None:
        total = result.totals[result.winner]
        return f"{result.winner}, reaching {target} in game {result.won_in_game} ({total} points)"
    if not result.games:
        return "none yet; no games recorded"
    needed = ", ".join(f"{row.side} {row.needed}" for row in result.standings)
    lead = f"{result.leader} leads" if result.leader else "the lead is shared"
    return f"none yet; {lead}. Still needed to reach {target}: {needed}"


def filled_pages(
    result: SeriesResult, paper: Paper, title: str | None = None
) -> list[tuple[Layout, PageValues]]:
    """The layouts of a series' sheet and the values that go into each page."""
    series = result.series
    heading = title or series.title or DEFAULT_TITLE
    partnership = series.table.partnership
    spec = spec_for(
        series.table,
        series.rules,
        heading,
        count=len(series.table.sides),
        teams=partnership,
    )
    column = {side: index for index, side in enumerate(series.table.sides)}
    # Whole pages of rows, so the table can go on writing games by hand after the last one.
    rows = max(1, -(-len(result.games) // DEFAULT_GAMES)) * DEFAULT_GAMES
    layouts = page_layouts(paper, spec, rows, DEFAULT_GAMES)
    status = status_line(result)
    pages: list[tuple[Layout, PageValues]] = []
    brought: dict[int, str] = {}
    for layout in layouts:
        points: dict[tuple[int, int], str] = {}
        totals: dict[tuple[int, int], str] = {}
        won: set[tuple[int, int]] = set()
        reached: tuple[int, int] | None = None
        final = dict(brought)
        for row, number in enumerate(layout.games):
            if number > len(result.games):
                break
            game = result.games[number - 1]
            winner = column[game.winner]
            points[(row, winner)] = str(game.points)
            won.add((row, winner))
            for side, total in game.totals.items():
                totals[(row, column[side])] = str(total)
                final[column[side]] = str(total)
            if number == result.won_in_game:
                reached = (row, winner)
        if not result.games:
            final = {index: "0" for index in column.values()}
        pages.append(
            (
                layout,
                PageValues(
                    points=points,
                    totals=totals,
                    forward=brought if layout.forward else {},
                    final=final,
                    status=status,
                    won=frozenset(won),
                    reached=reached,
                ),
            )
        )
        brought = final
    return pages


def _paint_series(painter: Painter, result: SeriesResult, paper: Paper, title: str | None) -> None:
    for layout, values in filled_pages(result, paper, title):
        painter.sheet(layout, values)
    heading = title or result.series.title or DEFAULT_TITLE
    painter.chart(race_chart(result, paper.landscape, heading, fonts.string_width))


def fill_pdf(
    results: Sequence[SeriesResult],
    paper: Paper,
    title: str | None = None,
    progress: Progress | None = None,
) -> bytes:
    """One PDF holding the filled sheet and race chart of every series, in order."""
    first = results[0].series
    heading = title or first.title or DEFAULT_TITLE
    subject = (
        f"Skip-Bo series, first to {first.rules.target}"
        if len(results) == 1
        else f"{len(results)} Skip-Bo series"
    )
    painter = Painter(paper.landscape, Meta(title=heading, subject=subject))
    for result in results:
        _paint_series(painter, result, paper, title)
        if progress is not None:
            progress(1)
    return painter.finish()


def _fill_one(job: tuple[SeriesResult, Paper, str | None]) -> bytes:
    result, paper, title = job
    check_printable(result, "series")  # registers any fallback font in this worker too
    return fill_pdf([result], paper, title)


def split_pdfs(
    loaded: Sequence[Loaded],
    paper: Paper,
    title: str | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> list[bytes]:
    """One PDF per series, rendered in parallel worker processes when there are enough."""
    jobs = [(item.result, paper, title) for item in loaded]
    cores = workers or os.cpu_count() or 1
    if len(jobs) < PARALLEL_FROM or cores < 2:
        pdfs = []
        for job in jobs:
            pdfs.append(_fill_one(job))
            if progress is not None:
                progress(1)
        return pdfs
    from concurrent.futures import ProcessPoolExecutor

    pdfs = []
    with ProcessPoolExecutor(max_workers=cores) as pool:
        for pdf in pool.map(_fill_one, jobs, chunksize=8):
            pdfs.append(pdf)
            if progress is not None:
                progress(1)
    return pdfs


def split_targets(loaded: Sequence[Loaded], folder: Path, suffix: str) -> list[Path]:
    """Where each series' own file goes: ``folder/<file stem><suffix>``, never two on one name."""
    targets: dict[Path, Path] = {}
    for item in loaded:
        target = folder / f"{item.path.stem}{suffix}"
        if target in targets:
            raise SeriesFileError(
                f"{targets[target]} and {item.path} would both be written to {target}; "
                "rename one of them"
            )
        targets[target] = item.path
    return list(targets)


def default_output(inputs: Sequence[Path], fmt: str) -> Path:
    """``output/<series-file-stem>.<fmt>`` for one file, ``output/filled-sheets.<fmt>`` for more."""
    if len(inputs) == 1 and not inputs[0].is_dir():
        return Path("output") / f"{inputs[0].stem}.{fmt}"
    return Path("output") / f"filled-sheets.{fmt}"


def fill_documents(
    paths: Sequence[Path],
    *,
    paper: Paper,
    output: Path,
    title: str | None = None,
    fmt: str = "pdf",
    split: Path | None = None,
    keep_going: bool = False,
    progress: Progress | None = None,
) -> tuple[list[tuple[Path, bytes]], list[Failed]]:
    """Every document to write (path and bytes) and the files that failed, all checked first.

    One PDF holds every series unless ``split`` names a folder for one file
    per series; ``png`` makes each document a preview of its first page.
    """
    from sheetgen.preview import pdf_to_png

    loaded, failed = load_results(paths, keep_going=keep_going, progress=progress)
    if not loaded:
        return [], failed
    if split is not None:
        targets = split_targets(loaded, split, f".{fmt}")
        pdfs = split_pdfs(loaded, paper, title, progress)
    else:
        targets = [output]
        pdfs = [fill_pdf([item.result for item in loaded], paper, title, progress)]
    refuse_own_input(targets, [item.path for item in loaded])
    if fmt == "png":
        pdfs = [pdf_to_png(pdf) for pdf in pdfs]
    return list(zip(targets, pdfs, strict=True)), failed
