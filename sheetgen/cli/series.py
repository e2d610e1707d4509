"""The commands that keep a table's series: new, record, undo, standings, export, deal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

import sheetgen.cli.shared
from sheetgen.cli.options import (
    FORCE_HELP,
    PLAYERS_HELP,
    DeckChoice,
    ExportChoice,
    GameChoice,
    LeftCount,
    SheetgenCommand,
    WholeNumber,
    WholeRange,
    lang_option,
    series_inputs,
    series_options,
    yes_option,
)
from sheetgen.cli.shared import (
    language_of,
    one_file,
    os_message,
    said,
    scored,
    series_files,
    silence_stdout,
)
from sheetgen.errors import SheetgenError
from sheetgen.folders import as_given
from sheetgen.interrupt import INTERRUPTED


@contextmanager
def _already_written(file: Path, done: str) -> Iterator[None]:
    """Report on a series file already changed: if the report cannot be shown, say that the
    change was made, so nobody makes it twice. A reader that went away (``| head``) wanted
    no more: the run ends quietly and successfully."""
    try:
        yield
    except BrokenPipeError:
        silence_stdout()
        raise click.exceptions.Exit(0) from None
    except OSError as exc:
        raise click.ClickException(
            f"{file}: {done}, but this report could not be shown ({os_message(exc)})"
        ) from None


@contextmanager
def _options_named() -> Iterator[None]:
    """Place the core's errors at the options they came from: ``stock`` becomes ``--stock``."""
    try:
        yield
    except SheetgenError as exc:
        if exc.field is None or exc.file is not None:
            raise
        raise exc.at(field=f"--{exc.field}") from None


@click.command(cls=SheetgenCommand)
@click.argument(
    "file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The series file to start: its .yaml, .json or .csv decides the format.",
)
@series_options()
def new(file: Path, **series: Any) -> None:
    """Start a series file (.yaml, .json or .csv) for a table; never overwrites one.

    \b
    Example:
        sheetgen new friday.yaml --players "Ann,Bob,Cy,Di" --title "Friday nights"
        sheetgen new duel.yaml --game spite-and-malice --players "Ann,Bob"
        sheetgen new casual.yaml --players "Ann,Bob,Cy" --scoring cards-left --games-to-play 8
    """
    start_series(file, **series)
    with _already_written(file, "the series was started"):
        click.echo(f"Started {file}; add games with: sheetgen record {file} --winner NAME ...")


def start_series(
    file: Path,
    *,
    game: str | None,
    players: str,
    teams: str | None,
    stock: int | None,
    scoring: str | None,
    target: int | None,
    games_to_play: int | None,
    title: str | None,
) -> None:
    """Write a new series file from ``new``'s options (``serve --new`` takes the same)."""
    from sheetgen.game.definition import DEFAULT_GAME
    from sheetgen.game.seating import parse_names, parse_teams
    from sheetgen.series.file import create_series

    create_series(
        file,
        parse_names(players),
        game=game or DEFAULT_GAME,
        teams=parse_teams(teams) if teams else None,
        stock=stock,
        target=target,
        scoring=scoring,
        games_to_play=games_to_play,
        title=title,
    )


def _ask(question: str, nothing_done: str) -> bool:
    """Ask a yes/no question: whether the answer was yes. "No" is the user's choice, not an
    error; the end of input (Ctrl-D) ends the command with ``nothing_done`` and exit 1;
    Ctrl-C ends it quietly with 130."""
    try:
        yes = click.confirm(question, err=True)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            click.echo(err=True)
            raise SystemExit(INTERRUPTED) from None
        click.echo(err=True)
        raise click.ClickException(f"{nothing_done} (no answer: the input ended)") from None
    return bool(yes)


def _own_columns_noted(file: Path) -> None:
    """A note for each column of the club's own in a CSV file (notes, a date), which the
    change left as it was."""
    from sheetgen.series.inputs import own_columns

    for note in own_columns(file):
        click.echo(f"Note: {file}: {note}", err=True)


def _waiting(file: Path) -> Callable[[], None]:
    """What a change of a series file says when another sheetgen holds its lock."""
    return lambda: click.echo(f"Waiting for another sheetgen to finish writing {file}...", err=True)


@click.command(cls=SheetgenCommand)
@click.argument(
    "file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The series file the game goes into (.yaml, .json or .csv).",
)
@click.option("--winner", required=True, help="The player (or team) who went out.")
@click.option(
    "--left",
    "left",
    multiple=True,
    type=LeftCount(),
    help="Cards left in the other players' stock piles: --left Bob=7 --left Cy=2, "
    "or --left Bob=7,Cy=2.",
)
@click.option(
    "--replace",
    type=WholeRange(min=1),
    metavar="N",
    help="Put this game in place of game N instead of adding it.",
)
@yes_option
def record(
    file: Path,
    winner: str,
    left: tuple[tuple[tuple[str, int], ...], ...],
    replace: int | None,
    yes: bool,
) -> None:
    """Add a finished game to a series file and show the standings.

    The game is checked against the whole series first; the file is changed
    only by a locked, atomic write that keeps your comments and layout. A game
    that repeats the one before exactly is recorded with a warning (and, on a
    terminal, only after you say yes).

    \b
    Example:
        sheetgen record friday.yaml --winner Ann --left Bob=7 --left Cy=12 --left Di=3
        sheetgen record friday.yaml --replace 2 --winner Bob --left Ann=4
    """
    from sheetgen.game.scoring import Game, result_line
    from sheetgen.series.export import standings_text
    from sheetgen.series.file import load_series
    from sheetgen.series.record import record_game, repeats_last_game, replace_game

    pairs = [pair for given in left for pair in given]
    counts = dict(pairs)
    if len(counts) != len(pairs):
        raise click.BadParameter("a player is named twice", param_hint="--left")
    game = Game(winner, counts)
    if replace is not None:
        result = replace_game(file, replace, game, _waiting(file))
        number = replace
        line = result_line(result.games[number - 1], result.series.scoring)
        done = f"game {number} was replaced"
    else:
        series = load_series(file)
        if repeats_last_game(series, game):
            played = len(series.games)
            click.echo(
                f"Warning: this game repeats game {played} exactly; "
                f"if it was entered twice, leave it out or run: sheetgen undo {file}",
                err=True,
            )
            asked = f"Record it as game {played + 1}?"
            if (
                not yes
                and sheetgen.cli.shared.stdin_is_terminal()
                and not _ask(asked, f"{file}: nothing recorded")
            ):
                click.echo(f"Nothing recorded: {file} still holds {played} games.")
                return
        result = record_game(file, game, _waiting(file))
        number = len(result.games)
        line = result_line(result.games[-1], result.series.scoring)
        done = f"game {number} was recorded"
    with _already_written(file, done):
        click.echo(f"Game {number}{' replaced' if replace is not None else ''}: {line}.")
        click.echo(standings_text(result), nl=False)
        _own_columns_noted(file)


@click.command(cls=SheetgenCommand)
@click.argument(
    "file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The series file whose last game goes (.yaml, .json or .csv).",
)
@yes_option
def undo(file: Path, yes: bool) -> None:
    """Remove the last game of a series file, after showing it.

    Asks first unless --yes; without a terminal to ask on, --yes is needed.
    The file is changed by the same locked, atomic write as record.

    \b
    Example:
        sheetgen undo friday.yaml
    """
    from sheetgen.series.export import game_text, standings_text
    from sheetgen.series.file import load_series
    from sheetgen.series.record import last_game, undo_game

    expected = None
    if not yes:
        series = load_series(file)
        expected = last_game(series, file)
        click.echo(f"Last {game_text(len(series.games), expected)}", err=True)
        if not sheetgen.cli.shared.stdin_is_terminal():
            raise click.ClickException(
                f"{file}: nothing removed, as there is no terminal to ask on "
                "(--yes removes it without asking)"
            )
        if not _ask(f"Remove game {len(series.games)}?", f"{file}: nothing removed"):
            click.echo(f"Kept game {len(series.games)}.")
            return
    # With --yes nothing was shown or asked: the game last when the lock is held goes,
    # even if another record added one meanwhile.
    removed, result = undo_game(file, expected=expected, waiting=_waiting(file))
    number = len(result.games) + 1
    with _already_written(file, f"game {number} was removed"):
        click.echo(f"Removed {game_text(number, removed)}.")
        click.echo(standings_text(result), nl=False)
        _own_columns_noted(file)


@click.command(cls=SheetgenCommand)
@series_inputs
def standings(inputs: tuple[Path, ...]) -> None:
    """Show each side's total, games won and points still needed.

    Given several files or a folder, shows each series and then the season
    table: every side's series, wins, games and points added up by name.

    \b
    Example:
        sheetgen standings friday.yaml
        sheetgen standings season/
    """
    from sheetgen.series.export import season_text, standings_text

    named = scored(series_files(inputs))
    if one_file(inputs, named):
        click.echo(standings_text(named[0][1]), nl=False)
        return
    for path, result in named:
        click.echo(f"{path}\n{standings_text(result)}")
    click.echo(season_text([result for _, result in named]), nl=False)


@click.command(cls=SheetgenCommand)
@series_inputs
@click.option(
    "--format",
    "fmt",
    type=ExportChoice(),
    show_default="json, or what -o's name ends in",
    help="json: every game and total; csv: a series file with points and totals; md: "
    "tables; xlsx: a workbook with a games and a standings sheet (a season: the players' "
    "and teams' tables and a games sheet per series), its points and totals written as "
    "values sheetgen works out, not formulas. The CSV and the workbook read back as "
    "series files.",
)
@click.option(
    "--csv-dialect",
    "dialect_name",
    type=click.Choice(["plain", "excel", "excel-de"]),
    show_default="excel-de for an export in German (--lang de or a German system language), "
    "else plain",
    help="How the CSV is written. plain: commas and LF line ends, as sheetgen writes series "
    "files; excel: commas, CRLF, a UTF-8 byte-order mark and a quote before any cell a "
    "spreadsheet would run as a formula; excel-de: the same with semicolons, as German "
    "Excel and LibreOffice read and write CSV. Reading, sheetgen finds the dialect itself.",
)
@click.option(
    "--excel",
    is_flag=True,
    help="CSV for a spreadsheet: --csv-dialect excel (excel-de for an export in German).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    default="-",
    callback=lambda ctx, param, value: as_given(value),
    show_default="- (standard output)",
    help="Where to write it: a file (its .json, .csv, .md or .xlsx decides the format), a "
    "folder, or - for standard output.",
)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@lang_option
def export(
    inputs: tuple[Path, ...],
    fmt: str | None,
    dialect_name: str | None,
    excel: bool,
    output: Path,
    force: bool,
    lang_code: str | None,
) -> None:
    """Export a scored series as JSON, CSV, Markdown or a workbook; several as a season.

    The CSV export and the workbook are series files themselves: standings, fill and
    record read them (record changes a CSV file, not a workbook). Several files or a
    folder give every series and the season's tables of players and teams (json, md,
    xlsx).

    \b
    Example:
        sheetgen export friday.yaml --format csv --excel -o friday.csv
        sheetgen export friday.yaml -o friday.xlsx
        sheetgen export season/ --format md -o season.md
    """
    from sheetgen.atomic import STDOUT, destination, write_document, write_text
    from sheetgen.series.csvfile import DIALECTS
    from sheetgen.series.export import EXPORT_FORMATS, EXPORTS, export_season, export_series
    from sheetgen.series.inputs import refuse_replacing_series

    csv_only = excel or dialect_name is not None
    if csv_only and fmt not in (None, "csv"):
        option = "--excel" if excel else "--csv-dialect"
        raise click.BadParameter(f"{option} makes a CSV file, not {fmt}", param_hint=option)
    fmt = fmt or ("csv" if csv_only else None)
    _check_export_name(output, fmt)
    files = series_files(inputs)
    named = scored(files)
    one = one_file(inputs, named)
    target, fmt = destination(
        output,
        fmt,
        formats=EXPORT_FORMATS,
        stem=named[0][0].stem if one else "season",
        reads=files.read,
        force=force,
        wrote=lambda name, head: EXPORTS[name].wrote(head),
    )
    if EXPORTS[fmt].binary and target == STDOUT and _stdout_is_terminal():
        raise click.UsageError(
            f"a workbook is not written to the screen; give -o FILE{EXPORTS[fmt].suffix} or pipe it"
        )
    lang = language_of(lang_code)
    if dialect_name is None:
        # The locale's dialect: German spreadsheets separate cells by semicolons.
        dialect_name = "excel-de" if lang.code == "de" else "excel" if excel else "plain"
    dialect = DIALECTS[dialect_name]
    # A folder of one series, in a format that holds no season: that series.
    one = one or (EXPORTS[fmt].season is None and len(named) == 1)
    document = (
        export_series(named[0][1], fmt, lang, dialect) if one else export_season(named, fmt, lang)
    )
    if not force and target != STDOUT:
        refuse_replacing_series(target, document, named[0][1].series if one else None)
    if isinstance(document, bytes):
        write_document(target, document)
    else:
        write_text(target, document)
    said(target)


def _stdout_is_terminal() -> bool:
    import sys

    return sys.stdout.isatty()


def _check_export_name(output: Path, fmt: str | None) -> None:
    """Refuse an -o whose name leaves the format unclear: no extension or one sheetgen
    does not know (without --format), or one it does not write (.ods). A folder, a stream
    and - are fine."""
    from sheetgen.atomic import KNOWN_SUFFIXES, STDOUT
    from sheetgen.folders import FolderPath
    from sheetgen.series.export import EXPORT_FORMATS

    if output == STDOUT or isinstance(output, FolderPath) or output.is_dir():
        return
    if output.exists() and not output.is_file():
        return  # a FIFO or a device: written as the format asks
    suffix = output.suffix.lower().lstrip(".")
    kinds = ", ".join(f".{name}" for name in EXPORT_FORMATS[:-1]) + f" or .{EXPORT_FORMATS[-1]}"
    if suffix == "ods":
        raise click.UsageError(
            f"{output}: sheetgen writes workbooks as .xlsx, not .ods; name it .xlsx "
            "(LibreOffice opens it) or choose another format: " + kinds
        )
    if fmt is None and suffix not in (*EXPORT_FORMATS, *KNOWN_SUFFIXES):
        what = f"a .{suffix} file" if suffix else "the name has no extension, so it"
        raise click.UsageError(
            f"{output}: {what} says nothing of the format; end the name in {kinds}, "
            "or give --format"
        )


@click.command(cls=SheetgenCommand)
@click.option("--game", type=GameChoice(), show_default="skip-bo", help="Which game.")
@click.option("--players", required=True, type=WholeNumber(), help=PLAYERS_HELP)
@click.option(
    "--stock",
    type=WholeNumber(),
    show_default="the game's official size",
    help="Cards in each stock pile.",
)
@click.option(
    "--deck", type=DeckChoice(), show_default="the game's own", help="Which of the game's decks."
)
def deal(game: str | None, players: int, stock: int | None, deck: str | None) -> None:
    """Show the deal in numbers: stock piles and what is left to draw.

    \b
    Example:
        sheetgen deal --players 4
        sheetgen deal --game spite-and-malice --players 2 --stock 25
    """
    from sheetgen.game.definition import DEFAULT_GAME, load_game
    from sheetgen.game.seating import deal_text

    definition = load_game(game or DEFAULT_GAME)
    with _options_named():
        click.echo(deal_text(players, stock, game=definition, deck=deck))
