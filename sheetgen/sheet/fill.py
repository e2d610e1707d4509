"""Filled-in score sheets: recorded series written into the blank sheet's own layout.

Every number comes from ``scoring.score_series``; this module only decides
which slot of the layout shows it. Batches are checked in full (every file
read, scored and found printable) before the first page is drawn.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sheetgen import fonts
from sheetgen.atomic import Staged, refuse_own_input, write_document
from sheetgen.batching import Workers, idle_cores, ordered_map, usable_cores
from sheetgen.errors import SeriesFileError, SheetgenError
from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoring import SeriesResult, game_of
from sheetgen.game.wording import labels, outcome, series_name, title_for
from sheetgen.paper import Paper
from sheetgen.preview import in_format
from sheetgen.series.words import listing
from sheetgen.sheet.blank import page_layouts, spec_for
from sheetgen.sheet.chart import chart_title, race_chart
from sheetgen.sheet.fitting import NO_BREAK_SPACE
from sheetgen.sheet.layout import Layout
from sheetgen.sheet.painter import Meta, PageValues, Painter

# Below this many series, starting two workers costs more than they save, even with the
# second core idle. Measured with one process per batch size, serial against two workers
# (medians of alternating runs on the project's 2-core machine while other work ran): one
# PDF, two workers took 3.4x the serial time at 2 files, 1.6x at 16, 1.5x at 64, 1.09x at
# 100, 0.77-1.14x at 128, 0.77x at 200, 0.82-0.94x at 256-400 (0.62x at 1000 in the
# benchmark); --split, 1.2x at 16, 0.8-1.0x at 32, 1.0-1.1x at 64, 0.6-1.3x at 128. Two
# workers cost about 0.25 s of processor time more than one (starting them, joining their
# parts) whatever the batch; the break-even lies between 100 and 200 files. Workers are
# only started on cores that are idle (batching.idle_cores): on a busy core they slow a
# batch down at any size.
PARALLEL_FROM = 200
Progress = Callable[[int], None]
Item = TypeVar("Item")


@dataclass(frozen=True)
class Loaded:
    """A series file that was read and scored."""

    path: Path
    result: SeriesResult
    typeface: fonts.Typeface = fonts.BUNDLED


@dataclass(frozen=True)
class Failed:
    """A series file that could not be filled in, and why."""

    path: Path
    message: str


def check_printable(result: SeriesResult, where: str) -> fonts.Typeface:
    """Refuse a series whose names or title no font can print; the typeface that prints them."""
    series = result.series
    try:
        typeface = fonts.check_printable(series.table.players, "players")
        typeface |= fonts.check_printable(series.table.sides, "teams")
        if series.title:
            typeface |= fonts.check_printable([series.title], "title")
    except SheetgenError as exc:
        raise exc.within(where) from None
    return typeface


def typeface_of(loaded: Iterable[Loaded]) -> fonts.Typeface:
    """The typeface that prints every one of ``loaded``."""
    typeface = fonts.BUNDLED
    for item in loaded:
        typeface |= item.typeface
    return typeface


def load_results(
    paths: Sequence[Path], *, keep_going: bool = False, progress: Progress | None = None
) -> tuple[list[Loaded], list[Failed]]:
    """Read, score and check every series file; stop at the first bad one unless ``keep_going``."""
    from sheetgen.series.file import load_scored

    loaded: list[Loaded] = []
    failed: list[Failed] = []
    for path in paths:
        try:
            result = load_scored(path)
            typeface = check_printable(result, str(path))
        except SheetgenError as exc:
            if not keep_going:
                raise
            failed.append(Failed(path, str(exc.within(path))))
        else:
            loaded.append(Loaded(path, result, typeface))
        if progress is not None:
            progress(1)
    return loaded, failed


def status_line(result: SeriesResult, lang: Language = ENGLISH) -> str:
    """What the sheet says beside "Series winner:": the winner, or the leader and what is needed."""
    _, number = lang._, lang.number
    rules = result.series.scoring
    target = number(rules.target)
    if rules.cards_left:
        return _cards_left_status(result, lang)
    if result.winner is not None:
        if result.totals[result.winner] == rules.target:  # not "500 ... (500 points)"
            return _("{winner}, reaching {target} in game {game}").format(
                winner=result.winner, target=target, game=result.won_in_game
            )
        total = number(result.totals[result.winner])
        return _("{winner}, reaching {target} in game {game} ({total} points)").format(
            winner=result.winner, target=target, game=result.won_in_game, total=total
        )
    if not result.games:
        return _("none yet; no games recorded")
    # Each side kept on one line with its figure, its name unbroken (print reviews 33, 36).
    needed = ", ".join(
        f"{row.side} {number(row.needed)}".replace(" ", NO_BREAK_SPACE) for row in result.standings
    )
    lead = (
        _("{leader} leads").format(leader=result.leader)
        if result.leader
        else _("the lead is shared")
    )
    # Said after which game: the first of a series' sheets says it too, above its own
    # games only (print review 35: "Ann-Katrin leads" over a sheet that Bernd ended ahead).
    return _("none yet; {lead} after game {game}. Still needed to reach {target}: {needed}").format(
        lead=lead, game=len(result.games), target=target, needed=needed
    )


def _cards_left_status(result: SeriesResult, lang: Language) -> str:
    _, number = lang._, lang.number
    if result.winner is not None:
        total = number(result.totals[result.winner])
        return _("{winner}, lowest after {games} games ({total} cards)").format(
            winner=result.winner, games=result.won_in_game, total=total
        )
    if result.finished:
        return _("shared: the lowest total is tied after the last game")
    if not result.games:
        if result.series.scoring.games_to_play == 1:
            return _("none yet; no games recorded, lowest total after one game")
        agreed = number(result.series.scoring.games_to_play)
        return _("none yet; no games recorded, lowest total after {games} games").format(
            games=agreed
        )
    if result.leader:
        lead = lang.ngettext(
            "none yet; {leader} leads with {count} game to play; lowest total wins",
            "none yet; {leader} leads with {count} games to play; lowest total wins",
            result.games_left,
        )
    else:  # the level leaders named (print review 33: "the lead is shared" named none)
        lead = lang.ngettext(
            "none yet; {leaders} share the lead; {count} game to play; lowest total wins",
            "none yet; {leaders} share the lead; {count} games to play; lowest total wins",
            result.games_left,
        )
    best = result.standings[0].total
    level = [row.side for row in result.standings if row.total == best]
    return lead.format(leader=result.leader, leaders=listing(lang, level), count=result.games_left)


def filled_pages(
    result: SeriesResult,
    paper: Paper,
    title: str | None = None,
    typeface: fonts.Typeface = fonts.BUNDLED,
    lang: Language = ENGLISH,
) -> list[tuple[Layout, PageValues]]:
    """The layouts of a series' sheet, in ``lang``, and the values that go into each page."""
    series = result.series
    written = lang.number
    heading = heading_of(result, title, lang)
    definition = game_of(series)
    partnership = series.table.partnership
    spec = spec_for(
        series.table,
        series.scoring,
        heading,
        count=len(series.table.sides),
        teams=partnership,
        piles=lang.words(definition).stocks,
        pile=lang.words(definition).stock,
        status=status_line(result, lang),
        legend=True,
        lang=lang,
    )
    column = {side: index for index, side in enumerate(series.table.sides)}
    # A series still open ends in a row of its totals so far, not a Total (print review 8).
    # Its key names the heavy box only once there is one: the series won.
    going_on = result.winner is None and bool(result.games)
    spec = spec._replace(so_far=lang._("So far") if going_on else "", boxed_key=not going_on)
    if series.scoring.cards_left:  # a row for every game agreed on
        rows = max(len(result.games), series.scoring.games_to_play)
        layouts = page_layouts(paper, spec, rows, typeface)
    elif result.winner is not None:  # a won series ends at its last game
        layouts = page_layouts(paper, spec, len(result.games), typeface)
    else:  # whole pages of rows, so the table can go on writing games by hand after the last one
        layouts = page_layouts(paper, spec, len(result.games), typeface, whole_pages=True)
    pages: list[tuple[Layout, PageValues]] = []
    brought: dict[int, str] = {}  # what the last page carried forward, if it was written
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
            # Every side's cell of a played game is written: the cards each is charged, or
            # the winner's points and a 0 for every other side (as a scorekeeper writes it).
            for side, score in game.scores.items():
                points[(row, column[side])] = written(score)
            won.add((row, winner))
            for side, total in game.totals.items():
                totals[(row, column[side])] = written(total)
                final[column[side]] = written(total)
            if number == result.won_in_game and result.winner is not None:
                reached = (row, column[result.winner])
        # A page's foot row (its Total, or what it carries forward) is written under a page
        # of played games; under rows left empty to go on by hand only on the last page,
        # as the totals so far. A page carried forward from is always one of played games.
        complete = bool(layout.games) and layout.games[-1] <= len(result.games)
        complete |= layout is layouts[-1] and going_on
        pages.append(
            (
                layout,
                PageValues(
                    points=points,
                    totals=totals,
                    forward=brought if layout.forward else {},
                    final=final if complete else {},
                    won=frozenset(won),
                    reached=reached,
                ),
            )
        )
        brought = final if complete else {}
    return pages


def _paint_series(
    painter: Painter, result: SeriesResult, paper: Paper, title: str | None, lang: Language
) -> None:
    typeface = painter.typeface
    pages = filled_pages(result, paper, title, typeface, lang)
    for layout, values in pages:
        painter.sheet(layout, values)
    heading = title or chart_title(result, lang)
    size = min(layout.title_size for layout, _ in pages)
    # The chart says who won or leads, as the sheet does (print review 32).
    verdict = f"{labels(lang).status} {status_line(result, lang)}"
    painter.chart(
        race_chart(
            result,
            paper.landscape,
            heading,
            typeface.string_width,
            lang,
            title_size=size,
            verdict=verdict,
        )
    )


def document_meta(
    first: SeriesResult, count: int, title: str | None = None, lang: Language = ENGLISH
) -> Meta:
    """The title and subject of a PDF holding ``count`` series, the first of them ``first``."""
    game = game_of(first.series)
    if count == 1:
        subject = f"{series_name(game, lang)}, {outcome(first.series.scoring, lang)}"
    else:
        subject = f"{count} {series_name(game, lang)}"
    return Meta(title=heading_of(first, title, lang), subject=subject, lang=lang.code)


def heading_of(result: SeriesResult, title: str | None = None, lang: Language = ENGLISH) -> str:
    """A filled sheet's heading: the one asked for, the series' title, or the game's sheet."""
    return title or result.series.title or title_for(game_of(result.series), lang)


def fill_pdf(
    results: Sequence[SeriesResult],
    paper: Paper,
    title: str | None = None,
    progress: Progress | None = None,
    typeface: fonts.Typeface = fonts.BUNDLED,
    lang: Language = ENGLISH,
) -> bytes:
    """One PDF holding the filled sheet and race chart of every series, in order, drawn
    in ``typeface`` (the one their checks returned) and written in ``lang``."""
    meta = document_meta(results[0], len(results), title, lang)
    painter = Painter(paper.landscape, meta, typeface)
    for index, result in enumerate(results):
        try:
            _paint_series(painter, result, paper, title, lang)
        # Whatever stops one drawing (its checks all passed) is that series' fault.
        except Exception as exc:
            raise Undrawable(index, exc) from exc
        if progress is not None:
            progress(1)
    return painter.finish()


class Undrawable(Exception):
    """Drawing the series at ``index`` of a document failed, after its checks passed."""

    def __init__(self, index: int, cause: Exception) -> None:
        super().__init__(index, cause)
        self.index = index
        self.cause = cause


def cannot_be_drawn(path: Path, exc: BaseException) -> str:
    """The message for a series file whose drawing failed."""
    problem = str(exc) if isinstance(exc, SheetgenError) else f"{type(exc).__name__}: {exc}"
    return f"{path}: cannot be drawn ({problem})"


def fill_loaded(
    loaded: Sequence[Loaded],
    paper: Paper,
    title: str | None = None,
    *,
    keep_going: bool = False,
    progress: Progress | None = None,
    lang: Language = ENGLISH,
) -> tuple[bytes | None, list[Loaded], list[Failed]]:
    """One PDF of every series that can be drawn, the series in it and those that failed.

    A series whose drawing fails stops the run (a ``SeriesFileError`` naming its file)
    unless ``keep_going``: then the document is drawn again without it, and it is
    reported like a bad file.
    """
    items = list(loaded)
    failed: list[Failed] = []
    while items:
        try:
            pdf = fill_pdf(
                [item.result for item in items], paper, title, progress, typeface_of(items), lang
            )
        except Undrawable as exc:
            message = cannot_be_drawn(items[exc.index].path, exc.cause)
            if not keep_going:
                raise SeriesFileError(message) from None
            failed.append(Failed(items.pop(exc.index).path, message))
        else:
            return pdf, items, failed
    return None, [], failed


class PdfJoin:
    """PDFs joined page by page as they arrive, so the joining overlaps their making.

    Streams are copied as they are (already compressed by reportlab): decoding
    and compressing them again would cost more than painting the pages did.
    """

    def __init__(self) -> None:
        self._parts: list[Any] = []

    def add(self, pdf: bytes) -> None:
        """Append the pages of ``pdf``."""
        import pikepdf

        part = pikepdf.open(io.BytesIO(pdf))
        if self._parts:
            self._parts[0].pages.extend(part.pages)
        self._parts.append(part)

    def finish(self, meta: Meta) -> bytes:
        """The joined PDF, carrying ``meta``; the parts are closed."""
        import pikepdf

        try:
            joined = self._parts[0]
            joined.docinfo["/Title"] = meta.title
            joined.docinfo["/Subject"] = meta.subject
            out = io.BytesIO()
            joined.save(
                out,
                compress_streams=False,
                stream_decode_level=pikepdf.StreamDecodeLevel.none,
                object_stream_mode=pikepdf.ObjectStreamMode.disable,
                deterministic_id=True,
            )
        finally:
            for part in self._parts:
                part.close()
        return out.getvalue()


def _chunks(paths: Sequence[Path], workers: int) -> list[Sequence[Path]]:
    """Runs of neighbouring files: a few per worker to even out the load, each big enough
    that its own copy of the font subsets stays small beside its pages."""
    count = min(2 * workers, max(workers, len(paths) // 50))
    size = -(-len(paths) // count)
    return [paths[start : start + size] for start in range(0, len(paths), size)]


@dataclass(frozen=True)
class _Chunk:
    """What a worker sends back for its run of files: small, never the series themselves."""

    loaded: list[Path]
    first: SeriesResult | None
    failed: list[Failed]
    pdf: bytes | None


def _fill_chunk(job: tuple[Sequence[Path], Paper, str | None, bool, Language]) -> _Chunk:
    paths, paper, title, keep_going, lang = job
    loaded, failed = load_results(paths, keep_going=keep_going)
    pdf, drawn, undrawable = fill_loaded(loaded, paper, title, keep_going=keep_going, lang=lang)
    first = drawn[0].result if drawn else None
    return _Chunk([item.path for item in drawn], first, failed + undrawable, pdf)


def _fill_in_chunks(
    pool: Workers,
    paths: Sequence[Path],
    paper: Paper,
    title: str | None,
    keep_going: bool,
    progress: Progress | None,
    lang: Language,
) -> tuple[list[Path], bytes | None, list[Failed]]:
    """Every file read, checked and painted by the workers; the pieces joined in order."""
    chunks = _chunks(paths, pool.size)
    jobs = [(chunk, paper, title, keep_going, lang) for chunk in chunks]
    loaded: list[Path] = []
    failed: list[Failed] = []
    join = PdfJoin()
    first: SeriesResult | None = None
    for chunk, part in zip(chunks, ordered_map(_fill_chunk, jobs, pool), strict=True):
        loaded += part.loaded
        failed += part.failed
        if part.pdf is not None:
            join.add(part.pdf)
        first = first or part.first
        if progress is not None:
            progress(len(chunk) + len(part.loaded))
    if first is None:
        return loaded, None, failed
    return loaded, join.finish(document_meta(first, len(loaded), title, lang)), failed


def _load_chunk(job: tuple[Sequence[Path], bool]) -> tuple[list[Loaded], list[Failed]]:
    paths, keep_going = job
    return load_results(paths, keep_going=keep_going)


def _load_in_chunks(
    pool: Workers, paths: Sequence[Path], keep_going: bool, progress: Progress | None
) -> tuple[list[Loaded], list[Failed]]:
    """``load_results`` spread over the workers, with its results and first error in file order."""
    chunks = _chunks(paths, pool.size)
    jobs = [(chunk, keep_going) for chunk in chunks]
    loaded: list[Loaded] = []
    failed: list[Failed] = []
    for chunk, (good, bad) in zip(chunks, ordered_map(_load_chunk, jobs, pool), strict=True):
        loaded += good
        failed += bad
        if progress is not None:
            progress(len(chunk))
    return loaded, failed


def _fill_one(job: tuple[Loaded, Paper, str | None, str, Language]) -> bytes | Failed:
    """One series' document, or, if drawing it fails, that file as a failure of the batch."""
    item, paper, title, fmt, lang = job
    try:
        pdf = fill_pdf([item.result], paper, title, typeface=item.typeface, lang=lang)
        return in_format(pdf, fmt)
    except Undrawable as exc:
        return Failed(item.path, cannot_be_drawn(item.path, exc.cause))
    # Turning the PDF into a PNG is drawing too: a failure stops only its own file.
    except Exception as exc:
        return Failed(item.path, cannot_be_drawn(item.path, exc))


def split_documents(
    loaded: Sequence[Loaded],
    paper: Paper,
    title: str | None = None,
    fmt: str = "pdf",
    progress: Progress | None = None,
    pool: Workers | None = None,
    lang: Language = ENGLISH,
) -> Generator[bytes | Failed, None, None]:
    """One document per series, in order, each made only shortly before it is asked for.

    With a pool, a few documents are rendered ahead by the workers; never all of
    them, so a batch of any size holds only a handful of finished files at once.
    """
    jobs = ((item, paper, title, fmt, lang) for item in loaded)
    try:
        for document in ordered_map(_fill_one, jobs, pool):
            yield document
            if progress is not None:
                progress(1)
    finally:
        if pool is not None:
            pool.close()


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
    workers: int | None = None,
    lang: Language = ENGLISH,
) -> tuple[Iterable[tuple[Path, bytes | Failed]], list[Failed]]:
    """Every document to write (path and bytes) and the files that failed, all checked first.

    A file whose drawing fails (after its checks passed) comes as a ``Failed`` in
    place of its bytes, so a batch treats it as it treats any bad file.

    One PDF holds every series unless ``split`` names a folder for one file
    per series; ``png`` makes each document a preview of its first page. Every
    file is read and checked before this returns; with ``split`` the documents
    themselves are made one by one as they are taken, so that they can be
    written as they come. With PARALLEL_FROM files or more, ``workers`` processes (by
    default one per idle core) share the reading, checking and painting. Every document is
    written in ``lang``. More workers than usable cores would only take turns on them (and
    ``--jobs 1000`` would start a thousand processes), so there are never more.
    """
    cores = min(workers or idle_cores(), usable_cores())
    pool = Workers(cores) if cores > 1 and len(paths) >= PARALLEL_FROM else None
    batch = _Batch(paper, title, fmt, keep_going, progress, pool, lang)
    try:
        if split is not None:
            return _split_batch(paths, split, batch)
        return _one_document(paths, output, batch)
    except BaseException:
        if pool is not None:
            pool.close()
        raise


@dataclass(frozen=True)
class _Batch:
    """What every document of one run is made with, and the workers that help, if any."""

    paper: Paper
    title: str | None
    fmt: str
    keep_going: bool
    progress: Progress | None
    pool: Workers | None
    lang: Language = ENGLISH


def _one_document(
    paths: Sequence[Path], output: Path, batch: _Batch
) -> tuple[list[tuple[Path, bytes | Failed]], list[Failed]]:
    paper, title, progress = batch.paper, batch.title, batch.progress
    if batch.pool is not None:
        try:
            sources, pdf, failed = _fill_in_chunks(
                batch.pool, paths, paper, title, batch.keep_going, progress, batch.lang
            )
        finally:
            batch.pool.close()
    else:
        loaded, failed = load_results(paths, keep_going=batch.keep_going, progress=progress)
        pdf, _, undrawable = fill_loaded(
            loaded,
            paper,
            title,
            keep_going=batch.keep_going,
            progress=progress,
            lang=batch.lang,
        )
        sources = [item.path for item in loaded]
        failed += undrawable
    if pdf is None:
        return [], failed
    refuse_own_input([output], sources)
    return [(output, in_format(pdf, batch.fmt))], failed


def _split_batch(
    paths: Sequence[Path], folder: Path, batch: _Batch
) -> tuple[Iterable[tuple[Path, bytes | Failed]], list[Failed]]:
    if batch.pool is not None:
        loaded, failed = _load_in_chunks(batch.pool, paths, batch.keep_going, batch.progress)
    else:
        loaded, failed = load_results(paths, keep_going=batch.keep_going, progress=batch.progress)
    targets = split_targets(loaded, folder, f".{batch.fmt}")
    refuse_own_input(targets, [item.path for item in loaded])
    documents = split_documents(
        loaded, batch.paper, batch.title, batch.fmt, batch.progress, batch.pool, batch.lang
    )
    return _paired(targets, documents), failed


def _paired(
    targets: Sequence[Path], documents: Generator[bytes | Failed, None, None]
) -> Generator[tuple[Path, bytes | Failed], None, None]:
    """Each target with its document; closing this closes the documents (and their workers)
    at once, not whenever the garbage collector comes by."""
    try:
        yield from zip(targets, documents, strict=True)
    finally:
        documents.close()


@contextlib.contextmanager
def _closing(items: Iterable[Item]) -> Iterator[Iterator[Item]]:
    """``items`` to go through; a generator left half-way is closed on the way out."""
    each = iter(items)
    try:
        yield each
    finally:
        if isinstance(each, Generator):
            each.close()


def write_documents(
    documents: Iterable[tuple[Path, bytes | Failed]],
    *,
    keep_going: bool,
    all_or_nothing: bool,
    keep: bool = True,
    printing: bool = False,
) -> tuple[list[Path], list[bytes], list[Failed]]:
    """Write the documents ``fill_documents`` makes, as they come; what was written, the
    documents to print (with ``printing``) and the files that failed while drawn.

    A failure stops the run with a ``SeriesFileError`` unless ``keep_going``. With
    ``all_or_nothing`` (a batch of files) every file waits in a temporary beside its
    destination until the last one is made: a failure, an error or Ctrl-C on the way
    leaves every destination as it was. ``keep`` false writes nothing (printing only).
    """
    written: list[Path] = []
    printed: list[bytes] = []
    failed: list[Failed] = []
    with Staged() as staged, _closing(documents) as each:
        for path, data in each:
            if isinstance(data, Failed):
                if not keep_going:
                    raise SeriesFileError(data.message)
                failed.append(data)
                continue
            if keep and all_or_nothing:
                staged.add(path, data)
            elif keep:
                write_document(path, data)
                written.append(path)
            if printing:
                printed.append(data)
        written += staged.commit()
    return written, printed, failed
