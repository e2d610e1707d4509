"""The commands of the score sheet: sheet, fill, games, printers."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sheetgen.cli.options import (
    DOCUMENT_FORMATS,
    PLAYERS_HELP,
    GameChoice,
    SheetgenCommand,
    TeamsParam,
    WholeNumber,
    WholeRange,
    format_option,
    lang_option,
    output_option,
    paper_option,
    print_options,
    scoring_option,
)
from sheetgen.cli.shared import (
    check_source_date,
    checked_title,
    language_of,
    one_file,
    said,
    send_to_printer,
    series_files,
    write_in_format,
)
from sheetgen.limits import DEFAULT_GAMES, MAX_COPIES, MAX_GAMES

if TYPE_CHECKING:
    from sheetgen.printing import Request


@click.command(cls=SheetgenCommand)
@click.option(
    "--game", type=GameChoice(), show_default="skip-bo", help="Which game the sheet is for."
)
@click.option(
    "--players",
    type=WholeNumber(),
    show_default="a column for every seat the game has",
    help=PLAYERS_HELP,
)
@click.option("--names", help='Player names for the header, e.g. "Ann,Bob,Cy" (sets the count).')
@click.option("--teams", type=TeamsParam(), help='"Red=Ann+Cy,Blue=Bob+Di", or 2 or 3 teams.')
@click.option(
    "--games",
    type=WholeRange(1, MAX_GAMES),
    show_default=f"{DEFAULT_GAMES}; with cards-left scoring the games to play",
    help="Game rows.",
)
@scoring_option
@click.option("--target", type=WholeRange(1), show_default="the game's", help="Points to win.")
@click.option("--title", show_default="the game's sheet title", help="Heading of the sheet.")
@click.option(
    "--games-to-play", type=WholeRange(1, MAX_GAMES), help="With cards-left scoring: games."
)
@click.option(
    "--copies",
    type=WholeRange(1, MAX_COPIES),
    default=1,
    show_default=True,
    help="Copies: in the PDF, or printed ones with --print.",
)
@paper_option
@lang_option
@format_option
@output_option("output/score-sheet.pdf")
@print_options
def sheet(
    game: str | None,
    players: int | None,
    names: str | None,
    teams: Any,
    games: int | None,
    scoring: str | None,
    target: int | None,
    games_to_play: int | None,
    title: str | None,
    copies: int,
    paper_name: str | None,
    lang_code: str | None,
    fmt: str | None,
    output: Path | None,
    print_on: Request | None,
    force: bool,
) -> None:
    """Draw blank score sheets: a row per game, a column per side, running totals, the target.

    The sheet says how the table scores: the game's way, or --scoring.

    \b
    Example:
        sheetgen sheet --names "Ann,Bob,Cy,Di" --paper a4
        sheetgen sheet --teams "Red=Ann+Cy,Blue=Bob+Di" --copies 3 --print
        sheetgen sheet --game spite-and-malice --names "Ann,Bob"
        sheetgen sheet --names "Ann,Bob,Cy" --scoring cards-left --games-to-play 8
        sheetgen sheet --lang de --paper a4
    """
    from sheetgen.atomic import destination
    from sheetgen.game.definition import DEFAULT_GAME, load_game
    from sheetgen.game.scoringrules import ScoringRules
    from sheetgen.game.seating import parse_names
    from sheetgen.paper import paper
    from sheetgen.sheet.blank import blank_sheet

    check_source_date()
    definition = load_game(game or DEFAULT_GAME)
    figures = {"way": scoring, "target": target, "games_to_play": games_to_play}
    rules = ScoringRules.from_options(figures, definition.scoring)
    title = checked_title(title)
    lang = language_of(lang_code)

    def sheets(count: int) -> bytes:
        return blank_sheet(
            paper=paper(paper_name) if paper_name else None,
            game=definition,
            scoring=rules,
            players=players,
            names=parse_names(names) if names is not None else None,
            teams=teams,
            games=games,
            title=title,
            copies=count,
            lang=lang,
        ).pdf

    if print_on is None or output is not None:
        where, fmt = destination(
            output, fmt, formats=DOCUMENT_FORMATS, stem="score-sheet", force=force
        )
        write_in_format(sheets(copies), fmt, where)
    if print_on is not None:  # one copy in the PDF, the printer makes the others
        from sheetgen.printing import score_sheet_plan

        send_to_printer(score_sheet_plan(sheets(1), copies), print_on)


@click.command(cls=SheetgenCommand)
@click.option("--game", type=GameChoice(), show_default="every game", help="Only this game.")
def games(game: str | None) -> None:
    """List the games sheetgen knows and the house rules (toggles) each one declares.

    Any toggle listed can be set with sheetgen rules --set NAME=VALUE or in a
    house-rules file; --rules-dir and SHEETGEN_RULES_PATH add games of your own.

    \b
    Example:
        sheetgen games --game skip-bo
        sheetgen games --rules-dir ~/games
    """
    from sheetgen.game.definition import games_text

    text, broken = games_text(game)
    click.echo(text, nl=False)
    if broken:
        # The good games are listed; each broken one gets its line, the last the Error.
        for problem in broken[:-1]:
            click.echo(f"Error: {problem}", err=True)
        raise broken[-1]


@click.command(cls=SheetgenCommand)
@click.argument(
    "inputs",
    metavar="FILE_OR_DIR...",
    nargs=-1,
    required=True,
    type=click.Path(path_type=Path),
    help="Series files (.yaml, .json, .csv, .xlsx), or folders holding them: a filled sheet each.",
)
@paper_option
@lang_option
@click.option("--title", show_default="each series' own title", help="Heading of every sheet.")
@format_option
@output_option("output/<file stem>.pdf")
@click.option(
    "--split",
    "split_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Write one file per series into this folder, named after its series file "
    "(the folder is made if missing, inside one that exists).",
)
@click.option("--keep-going", is_flag=True, help="Fill the good files even if some are bad.")
@click.option("-v", "--verbose", is_flag=True, help="With --split, name every file written.")
@click.option(
    "--jobs",
    type=WholeRange(1),
    show_default="one per idle core",
    help="Worker processes that share a large batch (1: none); at most one per usable "
    "core, a larger N is taken as that.",
)
@print_options
def fill(
    inputs: tuple[Path, ...],
    paper_name: str | None,
    lang_code: str | None,
    title: str | None,
    fmt: str | None,
    output: Path | None,
    force: bool,
    split_dir: Path | None,
    keep_going: bool,
    verbose: bool,
    jobs: int | None,
    print_on: Request | None,
) -> None:
    """Fill in score sheets from series files, with a race chart for each series.

    \b
    Example:
        sheetgen fill friday.yaml
        sheetgen fill series/ --split output/sheets --keep-going
        sheetgen fill friday.yaml --print
        sheetgen fill friday.yaml --lang de
    """
    from sheetgen.atomic import STDOUT, batch_folder, check_target, destination
    from sheetgen.paper import default_paper, paper
    from sheetgen.sheet.fill import fill_documents, write_documents

    if split_dir is not None and output is not None:
        raise click.UsageError("give --split FOLDER or -o FILE, not both")
    check_source_date()
    title = checked_title(title)
    found = series_files(inputs)
    paths = found.paths
    reads = found.read
    stem = paths[0].stem if one_file(inputs, paths) else _batch_stem(inputs)
    _one_png_one_sheet(fmt, output, split_dir, len(paths))
    if split_dir is None and print_on is not None and output is None:
        target, fmt = STDOUT, fmt or DOCUMENT_FORMATS[0]  # printed only, never written
    elif split_dir is None:
        target, fmt = destination(
            output, fmt, formats=DOCUMENT_FORMATS, stem=stem, reads=reads, force=force
        )
    else:
        target, fmt = split_dir, fmt or DOCUMENT_FORMATS[0]
    # A --split folder is made now, and gone again if nothing is written.
    folder: Any = nullcontext() if split_dir is None else batch_folder(split_dir)
    with folder, _progress(len(paths)) as bar:
        if split_dir is not None:
            for path in paths:
                check_target(split_dir / f"{path.stem}.{fmt}", fmt, reads=reads, force=force)
        documents, failed = fill_documents(
            paths,
            paper=paper(paper_name) if paper_name else default_paper(),
            output=target,
            title=title,
            fmt=fmt,
            split=split_dir,
            keep_going=keep_going,
            progress=bar.update,
            workers=jobs,
            lang=language_of(lang_code),
        )
        written, printed, undrawable = write_documents(
            documents,
            keep_going=keep_going,
            all_or_nothing=split_dir is not None and not keep_going,
            keep=print_on is None or output is not None or split_dir is not None,
            printing=print_on is not None,
        )
        failed += undrawable
    _said_all(written, split_dir if not verbose else None)
    if print_on is not None and printed:
        from sheetgen.printing import score_sheet_plan

        send_to_printer([job for data in printed for job in score_sheet_plan(data)], print_on)
    if failed:
        for failure in failed:
            click.echo(failure.message, err=True)
        raise click.ClickException(f"{len(failed)} of {len(paths)} series files were not filled")


def _batch_stem(inputs: tuple[Path, ...]) -> str:
    """The default name for the sheets of several series: the folder's, if one was given."""
    if len(inputs) == 1 and inputs[0].is_dir() and inputs[0].resolve().name:
        return inputs[0].resolve().name
    return "filled-sheets"


def _one_png_one_sheet(
    fmt: str | None, output: Path | None, split_dir: Path | None, series: int
) -> None:
    """Refuse one png for the sheets of several series: it would hold the first only."""
    png = fmt == "png" or (output is not None and output.suffix.lower() == ".png")
    if png and split_dir is None and series > 1:
        raise click.UsageError(
            f"a png holds one page, and {series} series fill {series} sheets; "
            "give --split FOLDER for a png of each, or write a pdf"
        )


def _progress(count: int) -> Any:
    """The bar a batch of ``count`` series files fills on a terminal, twice per file."""
    import sys

    # Off a terminal, click would still print the label once: a log wants none of it.
    quiet = count <= 3 or not sys.stderr.isatty()
    return click.progressbar(
        length=2 * count, label="Filling sheets", file=sys.stderr, hidden=quiet
    )


def _said_all(written: list[Path], split_dir: Path | None) -> None:
    """Name every file written, or with ``split_dir`` only how many went into it."""
    if split_dir is not None:
        files = "file" if len(written) == 1 else "files"
        click.echo(f"Wrote {len(written)} {files} to {split_dir.absolute()}", err=True)
    else:
        for path in written:
            said(path)


@click.command(cls=SheetgenCommand)
def printers() -> None:
    """List the printers CUPS knows: paper sizes, and whether each prints both sides.

    \b
    Example:
        sheetgen printers
        sheetgen rules --layout booklet --printer office
    """
    from sheetgen.printing import printers as cups_printers
    from sheetgen.printing import printers_text

    click.echo(printers_text(cups_printers()), nl=False)
