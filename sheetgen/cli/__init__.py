"""The command line: a thin click face over sheetgen's core.

Each command parses its options, calls one core function and says where the
file went. Heavy modules (reportlab, weasyprint) are imported inside the
commands that need them, so ``sheetgen --help`` stays quick. Core errors are
turned into one clean message in one place: ``SheetgenGroup.invoke``.
"""

from __future__ import annotations

import errno
import functools
import io
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from sheetgen import __version__
from sheetgen.errors import SheetgenError
from sheetgen.limits import DEFAULT_GAMES, MAX_COPIES, MAX_GAMES
from sheetgen.start import INTERRUPTED, answer_ctrl_c

if TYPE_CHECKING:
    from sheetgen.printing import Job, Request, Sent

FC = TypeVar("FC", bound=Callable[..., Any])


def _add_rules_dirs(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> None:
    """Offer the games in --rules-dir folders; the group's option starts each run afresh."""
    from sheetgen.game.definition import added_rules_dirs, use_rules_dirs

    if isinstance(ctx.command, click.Group):
        use_rules_dirs(value)
    elif value:
        use_rules_dirs((*added_rules_dirs(), *value))


# Each game's numbers are in its game.toml; the help points at them rather than copying them.
PLAYERS_HELP = "Players at the table (`sheetgen games` gives each game's range)."

RULES_DIR_HELP = (
    "A folder of game folders (each laid out like rules/skip-bo) to offer beside the "
    "built-in games; repeatable. SHEETGEN_RULES_PATH adds more (separated by "
    f"{os.pathsep!r})."
)


def rules_dir_option() -> click.Option:
    """``--rules-dir DIR``: read before the other options, so ``--game`` can name its games."""
    return click.Option(
        ["--rules-dir"],
        multiple=True,
        type=click.Path(path_type=Path, file_okay=False, exists=True),
        is_eager=True,
        expose_value=False,
        callback=_add_rules_dirs,
        help=RULES_DIR_HELP,
    )


class SheetgenCommand(click.Command):
    """A command whose help lists its options in named sections, defaults shown one way.

    ``sections`` maps a heading to the names of the options under it, in order;
    an option it does not name (one added later, or ``--help``) is listed under
    "Other options", so nothing declared is ever left out of the help.
    """

    def __init__(
        self, *args: Any, sections: Mapping[str, Sequence[str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sections = dict(sections or {})

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records: dict[str | None, tuple[str, str]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                records[param.name] = _one_default_style(param, record)
        listed = {name for names in self.sections.values() for name in names}
        groups = [
            (heading, [records[name] for name in names if name in records])
            for heading, names in self.sections.items()
        ]
        rest = [record for name, record in records.items() if name not in listed]
        groups.append(("Other options" if self.sections else "Options", rest))
        # One column width for every section, as click gives a single list (at most 30).
        width = min(max((len(term) for term, _ in records.values()), default=0), 30)
        for heading, rows in groups:
            if rows:
                with formatter.section(heading):
                    formatter.write_dl([(term.ljust(width), text) for term, text in rows])


def _one_default_style(param: click.Parameter, record: tuple[str, str]) -> tuple[str, str]:
    """click writes a default given as text in parentheses; write it as any other default."""
    shown = getattr(param, "show_default", None)
    if isinstance(shown, str):
        return record[0], record[1].replace(f"[default: ({shown})", f"[default: {shown}")
    return record


# The order a newcomer meets the commands in: paper first, then keeping a series.
COMMAND_ORDER = (
    "sheet",
    "fill",
    "rules",
    "games",
    "new",
    "record",
    "undo",
    "standings",
    "export",
    "deal",
    "printers",
)


class SheetgenGroup(click.Group):
    """A group that reports sheetgen's own errors as one line and exit status 1.

    Its help lists the commands in ``COMMAND_ORDER`` with each one's whole first
    paragraph, wrapped rather than cut.
    """

    command_class = SheetgenCommand

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Every command takes ``--rules-dir``, as the group itself does."""
        cmd.params.append(rules_dir_option())
        super().add_command(cmd, name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        known = [name for name in COMMAND_ORDER if name in self.commands]
        return known + sorted(name for name in self.commands if name not in COMMAND_ORDER)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, _first_paragraph(command.help or "")))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SheetgenError as exc:
            raise click.ClickException(str(exc)) from exc
        except KeyboardInterrupt:
            # Ctrl-C: the user knows why it stopped; say nothing, exit as the shell expects.
            ctx.exit(INTERRUPTED)
        except BrokenPipeError:
            # The reader went away (`| head`): as other tools do, stop quietly. Standard
            # output goes to /dev/null so that Python's own flush at exit cannot complain.
            _silence_stdout()
            ctx.exit(1)
        except OSError as exc:
            # Whatever the system refuses (a full disk, a closed pipe) is one line, not a trace.
            raise click.ClickException(_os_message(exc)) from exc


def _silence_stdout() -> None:
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # standard output is already gone or was never a file
    finally:
        os.close(devnull)


def _first_paragraph(text: str) -> str:
    import inspect

    return " ".join(inspect.cleandoc(text).split("\n\n")[0].split())


def _os_message(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename is not None else ""
    return f"{where}{exc.strerror or exc}"


@click.group(
    cls=SheetgenGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    params=[rules_dir_option()],
)
@click.version_option(__version__, prog_name="sheetgen")
def cli() -> None:
    """Print the paper for a Skip-Bo table: score sheets, rules booklets and
    filled-in sheets from a table's recorded series.

    \b
    Example:
        sheetgen sheet --names "Ann,Bob,Cy,Di"
    """


class _ClosedOutput(io.RawIOBase):
    """Standard output that was closed before sheetgen started (``>&-``): writing fails."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def main() -> None:
    """Run the command line (``sheetgen.start.main`` answers Ctrl-C before importing this)."""
    import sys

    if sys.stdout is None:  # Python leaves it None when descriptor 1 is closed
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedOutput()))
    if sys.stderr is None:
        # Descriptor 2 closed (`2>&-`): messages go nowhere. Left None, click would write
        # them to standard output, into the JSON or PDF the run writes there.
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives until the process ends
    _never_unprintable(sys.stdout, sys.stderr)
    answer_ctrl_c()
    try:
        cli(prog_name="sheetgen")
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    except BrokenPipeError:
        # The group's own --help or --version, written before any command runs (a command's
        # errors are its group's to report): a reader that went away ends the run quietly.
        _silence_stdout()
        sys.exit(1)
    except OSError as exc:
        click.echo(f"Error: {_os_message(exc)}", err=True)
        sys.exit(1)
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            # Standard output went away (a closed pipe): let Python's exit flush nowhere.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until the process ends


def _never_unprintable(*streams: Any) -> None:
    """Text a stream's encoding lacks (a Greek name on a latin-1 terminal) is written as
    ``\\u0391`` escapes, as Python writes standard error: what a command prints, often
    after its file is written, must never fail it."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with suppress(OSError, ValueError):  # a closed stream: writing to it says so
                reconfigure(errors="backslashreplace")


@contextmanager
def _already_written(file: Path, done: str) -> Iterator[None]:
    """Report on a series file already changed: if the report cannot be shown, say that the
    change was made, so nobody makes it twice. A reader that went away (``| head``) wanted
    no more: the run ends quietly and successfully."""
    try:
        yield
    except BrokenPipeError:
        _silence_stdout()
        raise click.exceptions.Exit(0) from None
    except OSError as exc:
        raise click.ClickException(
            f"{file}: {done}, but this report could not be shown ({_os_message(exc)})"
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


def _said(path: Path) -> None:
    """Tell the user where a document went, by its full path (unless to standard output)."""
    if str(path) != "-":
        click.echo(f"Wrote {path.absolute()}", err=True)


def _check_source_date() -> None:
    """Refuse a malformed SOURCE_DATE_EPOCH before anything is drawn or written. Every
    command that makes a document checks it, even where this run dates no PDF (an HTML
    booklet, a kept score sheet): one answer for one environment."""
    from sheetgen.sourcedate import source_date_epoch

    source_date_epoch()


FORCE_HELP = "Replace the file at -o even if it is not a document of this kind."


class _Digits:
    """Whole numbers as sheetgen reads them everywhere (``numbers.whole_number``): ASCII
    digits only, so ``--games ٣`` is refused as a series file would refuse it."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            from sheetgen.numbers import whole_number

            try:
                value = whole_number(value)
            except SheetgenError as exc:
                cast("click.ParamType[Any]", self).fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)  # type: ignore[misc]


class WholeNumber(_Digits, click.types.IntParamType):
    """Any whole number."""


class WholeRange(_Digits, click.IntRange):
    """A whole number within a range, shown in the help as click shows its ranges."""


class LeftCount(click.ParamType[tuple[tuple[str, int], ...]]):
    """``NAME=N``, or several as ``NAME=N,NAME=N``: the cards left in players' stock piles."""

    name = "NAME=N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        from sheetgen.numbers import whole_number

        pairs = []
        for part in str(value).split(","):
            name, sep, count = part.rpartition("=")
            if not sep or not name.strip() or not count.strip():
                self.fail(f"{part.strip()!r} is not NAME=N, for example Bob=7", param, ctx)
            try:
                pairs.append((name.strip(), whole_number(count, name.strip())))
            except SheetgenError as exc:
                self.fail(str(exc), param, ctx)
        return tuple(pairs)


class DataChoice(click.Choice[str]):
    """Choices the game folders declare, read only when the option is used or its help shown.

    Unless ``checked``, the help shows them all but a value goes on to the chosen
    game, which refuses one that is not its own and names its own choices.
    """

    def __init__(self, source: Callable[[], Sequence[str]], *, checked: bool = False) -> None:
        self._source = source
        self._checked = checked
        super().__init__(())

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(value, param, ctx) if self._checked else str(value)

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self._source()))

    @choices.setter
    def choices(self, value: object) -> None:
        """click sets the choices when it builds the type; the folders decide them instead."""


def _games() -> list[Any]:
    from sheetgen.game.definition import game_ids, load_game

    return [load_game(game) for game in game_ids()]


def _game_ids() -> list[str]:
    from sheetgen.game.definition import game_ids

    return game_ids()


class GameChoice(DataChoice):
    """The games under rules/ (and any --rules-dir)."""

    def __init__(self) -> None:
        super().__init__(_game_ids, checked=True)


class DeckChoice(DataChoice):
    """Every deck some game declares; the chosen game checks that it is one of its own."""

    def __init__(self) -> None:
        super().__init__(lambda: [deck.id for game in _games() for deck in game.decks])


class PresetChoice(DataChoice):
    """Every preset some game ships; the chosen game checks that it has it."""

    def __init__(self) -> None:
        super().__init__(lambda: [name for game in _games() for name in game.preset_names()])


class ToggleChoice(DataChoice):
    """The values the games' ``[toggles.NAME]`` choices allow for one toggle."""

    def __init__(self, toggle: str) -> None:
        super().__init__(
            lambda: [
                str(value)
                for game in _games()
                if toggle in game.toggle_defs
                for value in game.toggle_defs[toggle].choices
            ]
        )


scoring_option = click.option(
    "--scoring",
    type=click.Choice(["winner", "cards-left"]),
    help="winner: the winner scores bonus + points per card left in the others' piles, first "
    "to the target wins; cards-left: everyone counts the cards left in their own pile, lowest "
    "total after the agreed games wins.",
    show_default="the game's way",
)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--game", type=GameChoice(), show_default="skip-bo", help="Which game the series is of."
)
@click.option("--players", required=True, help='The players in seating order: "Ann,Bob,Cy,Di".')
@click.option("--teams", help='Partnership play, teams of two: "Red=Ann+Cy,Blue=Bob+Di".')
@click.option("--stock", type=WholeRange(min=1), help="Cards in each stock pile.")
@scoring_option
@click.option(
    "--target", type=WholeNumber(), show_default="the game's", help="Points that win the series."
)
@click.option(
    "--games-to-play",
    type=WholeRange(1, MAX_GAMES),
    help="With cards-left scoring: games in the series.",
)
@click.option("--title", help="A name for the series, printed on its sheets.")
def new(
    file: Path,
    game: str | None,
    players: str,
    teams: str | None,
    stock: int | None,
    scoring: str | None,
    target: int | None,
    games_to_play: int | None,
    title: str | None,
) -> None:
    """Start a series file (.yaml, .json or .csv) for a table; never overwrites one.

    \b
    Example:
        sheetgen new friday.yaml --players "Ann,Bob,Cy,Di" --title "Friday nights"
        sheetgen new duel.yaml --game spite-and-malice --players "Ann,Bob"
        sheetgen new casual.yaml --players "Ann,Bob,Cy" --scoring cards-left --games-to-play 8
    """
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
    with _already_written(file, "the series was started"):
        click.echo(f"Started {file}; add games with: sheetgen record {file} --winner NAME ...")


def _ask(question: str, nothing_done: str) -> None:
    """Ask a yes/no question; go on only on yes. "No" and the end of input (Ctrl-D) end
    the command with ``nothing_done`` and exit 1; Ctrl-C ends it quietly with 130."""
    try:
        yes = click.confirm(question, err=True)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            click.echo(err=True)
            raise SystemExit(INTERRUPTED) from None
        click.echo(err=True)
        raise click.ClickException(f"{nothing_done} (no answer: the input ended)") from None
    if not yes:
        raise click.ClickException(nothing_done)


def _waiting(file: Path) -> Callable[[], None]:
    """What a change of a series file says when another sheetgen holds its lock."""
    return lambda: click.echo(f"Waiting for another sheetgen to finish writing {file}...", err=True)


def _stdin_is_terminal() -> bool:
    import sys

    return sys.stdin.isatty()


yes_option = click.option("-y", "--yes", is_flag=True, help="Do not ask; go ahead.")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
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
    from sheetgen.series.file import load_series, record_game, repeats_last_game, replace_game

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
            if not yes and _stdin_is_terminal():
                _ask(f"Record it as game {played + 1}?", f"{file}: nothing recorded")
        result = record_game(file, game, _waiting(file))
        number = len(result.games)
        line = result_line(result.games[-1], result.series.scoring)
        done = f"game {number} was recorded"
    with _already_written(file, done):
        click.echo(f"Game {number}{' replaced' if replace is not None else ''}: {line}.")
        click.echo(standings_text(result), nl=False)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
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
    from sheetgen.series.file import last_game, load_series, undo_game

    expected = None
    if not yes:
        series = load_series(file)
        expected = last_game(series, file)
        click.echo(f"Last {game_text(len(series.games), expected)}", err=True)
        if not _stdin_is_terminal():
            raise click.ClickException(
                f"{file}: nothing removed; there is no terminal to ask on, so give --yes"
            )
        _ask(f"Remove game {len(series.games)}?", f"{file}: nothing removed")
    # With --yes nothing was shown or asked: the game last when the lock is held goes,
    # even if another record added one meanwhile.
    removed, result = undo_game(file, expected=expected, waiting=_waiting(file))
    number = len(result.games) + 1
    with _already_written(file, f"game {number} was removed"):
        click.echo(f"Removed {game_text(number, removed)}.")
        click.echo(standings_text(result), nl=False)


series_inputs = click.argument(
    "inputs", metavar="FILE_OR_DIR...", nargs=-1, required=True, type=click.Path(path_type=Path)
)


def _series_files(inputs: tuple[Path, ...]) -> Any:
    """Every series file named or in a named folder, each series once; notes what was left out."""
    from sheetgen.series.file import distinct_series

    files = distinct_series(inputs)
    for note in files.notes:
        click.echo(f"Note: {note}", err=True)
    return files


def _scored(files: Any) -> list[tuple[Path, Any]]:
    """Each of the series files, read, checked and scored."""
    from sheetgen.game.scoring import score_series
    from sheetgen.series.file import load_series

    return [(path, score_series(load_series(path))) for path in files.paths]


def _one_file(inputs: tuple[Path, ...], paths: Sequence[Any]) -> bool:
    """Whether one series file was named (perhaps twice), and no folder."""
    return len(paths) == 1 and not any(item.is_dir() for item in inputs)


@cli.command()
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

    named = _scored(_series_files(inputs))
    if _one_file(inputs, named):
        click.echo(standings_text(named[0][1]), nl=False)
        return
    for path, result in named:
        click.echo(f"{path}\n{standings_text(result)}")
    click.echo(season_text([result for _, result in named]), nl=False)


lang_option = click.option(
    "--lang",
    "lang_code",
    type=click.Choice(["en", "de"], case_sensitive=False),
    show_default="the system's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else en",
    help="Language of the document: en or de.",
)


def _lang(code: str | None) -> Any:
    """The language asked for with --lang, else the system's."""
    from sheetgen.game.language import language, system_language

    return language(code) if code else system_language()


@cli.command()
@series_inputs
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "csv", "md"]),
    show_default="json, or what -o's name ends in",
    help="json: every game and total; csv: a series file with points and totals; md: tables.",
)
@click.option(
    "--excel",
    is_flag=True,
    help="CSV for a spreadsheet: UTF-8 with a byte-order mark, so names with accents show.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=Path("-"),
    show_default="- (standard output)",
    help="Where to write it: a file (its .json, .csv or .md decides the format), a folder, "
    "or - for standard output.",
)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@lang_option
def export(
    inputs: tuple[Path, ...],
    fmt: str | None,
    excel: bool,
    output: Path,
    force: bool,
    lang_code: str | None,
) -> None:
    """Export a scored series as JSON, CSV or Markdown; several as a season.

    The CSV export is itself a series file: standings, fill and record read it.
    Several files or a folder give every series and the season table (json, md).

    \b
    Example:
        sheetgen export friday.yaml --format csv --excel -o friday.csv
        sheetgen export season/ --format md -o season.md
    """
    from sheetgen.atomic import STDOUT, destination, write_text
    from sheetgen.series.export import (
        EXPORT_FORMATS,
        export_season,
        export_series,
        spreadsheet_safe,
    )
    from sheetgen.series.file import refuse_replacing_series

    if excel and fmt not in (None, "csv"):
        raise click.BadParameter(f"--excel makes a CSV file, not {fmt}", param_hint="--excel")
    files = _series_files(inputs)
    named = _scored(files)
    one = _one_file(inputs, named)
    target, fmt = destination(
        output,
        fmt or ("csv" if excel else None),
        formats=EXPORT_FORMATS,
        stem=named[0][0].stem if one else "season",
        reads=files.read,
        force=force,
    )
    lang = _lang(lang_code)
    one = one or (fmt == "csv" and len(named) == 1)  # a folder of one series: its CSV
    text = export_series(named[0][1], fmt, lang) if one else export_season(named, fmt, lang)
    if excel:
        text = "\ufeff" + spreadsheet_safe(text)
    if not force and target != STDOUT:
        refuse_replacing_series(target, text, named[0][1].series if one else None)
    write_text(target, text)
    _said(target)


@cli.command()
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


class TeamsParam(click.ParamType[int | dict[str, list[str]]]):
    """``--teams``: a count of teams (2 or 3) or ``RED=ANN+CY,BLUE=BOB+DI``."""

    name = "TEAMS"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> int | dict[str, list[str]]:
        if isinstance(value, (int, dict)):
            return value
        from sheetgen.game.seating import parse_teams
        from sheetgen.numbers import whole_number

        text = str(value).strip()
        try:
            return whole_number(text)
        except SheetgenError:
            pass
        try:
            return parse_teams(text)
        except SheetgenError as exc:
            self.fail(exc.problem, param, ctx)


paper_option = click.option(
    "--paper",
    "paper_name",
    type=click.Choice(["letter", "a4"], case_sensitive=False),
    show_default="the system's",
    help="Paper size; the system's is read from PAPERSIZE, /etc/papersize or LC_PAPER.",
)
DOCUMENT_FORMATS = ("pdf", "png")
format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(DOCUMENT_FORMATS),
    show_default="pdf, or what -o's name ends in",
    help="png: a preview image of the first page.",
)
RULES_FORMATS = (*DOCUMENT_FORMATS, "html")


def _stdout_is_terminal() -> bool:
    import sys

    return sys.stdout.isatty()


def _not_to_a_terminal(ctx: click.Context, param: click.Parameter, value: Path | None) -> Any:
    """Refuse ``-o -`` when standard output is a terminal: PDF bytes would fill the screen."""
    if value is not None and str(value) == "-" and _stdout_is_terminal():
        raise click.BadParameter(
            "standard output is a terminal, and a document is not written to the screen; "
            "pipe it (-o - | lp) or give a file name",
            ctx,
            param,
        )
    return value


def output_option(default: str) -> Callable[[FC], FC]:
    """``-o/--output`` and ``--force`` for a command whose document goes to ``default``."""

    def decorate(command: FC) -> FC:
        command = click.option("--force", is_flag=True, help=FORCE_HELP)(command)
        return click.option(
            "-o",
            "--output",
            type=click.Path(path_type=Path),
            callback=_not_to_a_terminal,
            show_default=default,
            help="Where to write: a file, a folder, or - for standard output.",
        )(command)

    return decorate


def print_options(command: FC) -> FC:
    """``--print``, ``--printer`` and ``--manual-duplex``, handed to ``command`` as one
    ``print_on`` value: a ``printing.Request``, or None when none of them is given."""

    @functools.wraps(command)
    def with_printing(
        *args: Any, to_printer: bool, printer: str | None, manual_duplex: bool, **kwargs: Any
    ) -> Any:
        wanted = to_printer or printer is not None or manual_duplex
        if wanted and kwargs.get("fmt") not in (None, "pdf"):
            raise click.UsageError(
                f"--print sends the PDF to the printer; leave out --format {kwargs['fmt']}"
            )
        named = kwargs.get("output")
        suffix = named.suffix.lower().lstrip(".") if named is not None else ""
        if wanted and kwargs.get("fmt") is None and suffix in ("png", "html"):
            raise click.UsageError(
                f"--print sends the PDF to the printer, but {named} names a .{suffix} file; "
                "write a .pdf or leave out --print"
            )
        kwargs["print_on"] = None
        if wanted:  # the printing module is loaded only for a document that is printed
            from sheetgen.printing import Request

            kwargs["print_on"] = Request(printer, manual_duplex)
        return command(*args, **kwargs)

    for option in (
        click.option(
            "--manual-duplex",
            is_flag=True,
            help="Print both sides by hand: fronts, turn the stack, backs (implies --print).",
        ),
        click.option("--printer", metavar="NAME", help="Print on this printer (implies --print)."),
        click.option(
            "--print",
            "to_printer",
            is_flag=True,
            help="Print on the default printer, through CUPS; a file only with -o.",
        ),
    ):
        with_printing = option(with_printing)
    return cast(FC, with_printing)


def _print(plan: Sequence[Job], request: Request) -> None:
    """Send a document's print plan to the printer the user asked for."""
    from sheetgen.printing import find_printer, paper_warning, send

    printer = find_printer(request.printer)
    warning = paper_warning(plan, printer)
    if warning is not None:
        click.echo(f"Warning: {warning}", err=True)
    send(
        plan,
        printer,
        ask=_turn_stack,
        report=_sent,
        force_manual_duplex=request.manual_duplex,
    )


def _turn_stack(message: str) -> None:
    click.echo(message, err=True)
    click.prompt("[Enter]", default="", show_default=False, prompt_suffix=" ", err=True)


def _sent(sent: Sent) -> None:
    from sheetgen.printing import describe

    click.echo(f"Printing {sent.job.title!r} ({describe(sent.job)}): {sent.request}", err=True)


@cli.command()
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
    from sheetgen.game.scoring import ScoringRules
    from sheetgen.game.seating import parse_names
    from sheetgen.paper import paper
    from sheetgen.sheet.blank import blank_sheet

    _check_source_date()
    definition = load_game(game or DEFAULT_GAME)
    figures = {"way": scoring, "target": target, "games_to_play": games_to_play}
    rules = ScoringRules.from_mapping(figures, definition.scoring)
    title = _checked_title(title)
    lang = _lang(lang_code)

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
        _write_document(sheets(copies), fmt, where)
    if print_on is not None:  # one copy in the PDF, the printer makes the others
        from sheetgen.printing import score_sheet_plan

        _print(score_sheet_plan(sheets(1), copies), print_on)


def _checked_title(title: str | None) -> str | None:
    """``--title`` as every document takes it: one printable line the fonts can draw."""
    if title is None:
        return None
    from sheetgen import fonts
    from sheetgen.game.names import check_title

    title = check_title(title, "--title")
    fonts.check_printable([title], "--title")
    return title


def _write_document(pdf: bytes, fmt: str, output: Path) -> None:
    """Write a PDF, or the preview of its first page for ``png``."""
    from sheetgen.atomic import write_document
    from sheetgen.preview import in_format

    write_document(output, in_format(pdf, fmt))
    _said(output)


@cli.command()
@click.option("--game", type=GameChoice(), show_default="every game", help="Only this game.")
def games(game: str | None) -> None:
    """List the games sheetgen knows and the house rules (toggles) each one declares.

    Any toggle listed can be set with ``rules --set NAME=VALUE`` or in a
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


# The rules options by what they are about; an option not named here is still shown,
# under "Other options".
RULES_SECTIONS = {
    "The table": (
        "game",
        "rules_dir",
        "players",
        "partnerships",
        "deck",
        "stock",
        "building_piles",
    ),
    "House rules": (
        "preset",
        "list_presets",
        "house_rules",
        "settings",
        "first_player",
        "must_play_stock",
        "no_wild_start",
        "extra",
    ),
    "The points game": ("series", "scoring", "target", "games_to_play", "bonus", "per_card"),
    "The document": ("paper_name", "lang_code", "layout", "fmt", "output", "force"),
    "Printing": ("to_printer", "printer", "manual_duplex"),
}


@cli.command(sections=RULES_SECTIONS)
@click.option("--game", type=GameChoice(), show_default="skip-bo", help="Which game's rules.")
@click.option(
    "--players",
    type=WholeNumber(),
    show_default="the game's official table",
    help=PLAYERS_HELP,
)
@click.option(
    "--stock",
    metavar="[official|short|N]",
    show_default="official",
    help="Cards in each stock pile: the game's official size, its short game (Skip-Bo: 10) "
    "or a number.",
)
@click.option(
    "--first-player",
    type=ToggleChoice("first-player"),
    show_default="left-of-dealer",
    help="Who starts the first game.",
)
@click.option(
    "--partnerships/--no-partnerships",
    default=None,
    show_default="no-partnerships",
    help="Teams of two (4 or 6).",
)
@click.option(
    "--series/--no-series",
    default=None,
    show_default="the game's; series for Skip-Bo",
    help="The points game and its score sheet.",
)
@click.option(
    "--target", type=WholeNumber(), show_default="the game's", help="Points that win the series."
)
@click.option(
    "--deck",
    type=DeckChoice(),
    show_default="the game's own",
    help="standard: three standard decks with their jokers.",
)
@click.option(
    "--building-piles",
    type=WholeNumber(),
    show_default="the game's",
    help="How many building piles (centre stacks) may stand at once, where the game allows.",
)
@click.option(
    "--bonus",
    type=WholeNumber(),
    show_default="the game's",
    help="Points for going out in the points game.",
)
@click.option(
    "--per-card",
    type=WholeNumber(),
    show_default="the game's",
    help="Points per card left in another's pile.",
)
@scoring_option
@click.option(
    "--games-to-play", type=WholeNumber(), help="With cards-left scoring: games in the series."
)
@click.option(
    "--must-play-stock", is_flag=True, default=None, help="A fitting stock card must be played."
)
@click.option(
    "--no-wild-start", is_flag=True, default=None, help="Reshuffle a stock pile showing a wild."
)
@click.option(
    "--extra",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The table's own rules, in Markdown.",
)
@click.option(
    "--house-rules",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A TOML house-rules file.",
)
@click.option(
    "--preset",
    type=PresetChoice(),
    show_default="official",
    help="Start from a shipped preset (--list-presets says what each changes).",
)
@click.option(
    "--list-presets", is_flag=True, help="List the game's presets and what each changes, then stop."
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set any house rule the game declares in its game.toml, e.g. --set "
    "first-player=youngest (repeatable; `sheetgen games` lists them).",
)
@paper_option
@lang_option
@click.option(
    "--layout",
    type=click.Choice(["pages", "booklet"]),
    default="pages",
    show_default=True,
    help="pages: one page per sheet; booklet: half-size pages to print both sides and fold.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(RULES_FORMATS),
    show_default="pdf, or what -o's name ends in",
    help="png: a preview image of the first page; html: one self-contained page to read "
    "on a phone.",
)
@output_option("output/rules-GAME.pdf, .png or .html")
@print_options
def rules(
    game: str | None,
    house_rules: Path | None,
    preset: str | None,
    list_presets: bool,
    settings: tuple[str, ...],
    paper_name: str | None,
    lang_code: str | None,
    layout: str,
    fmt: str | None,
    output: Path | None,
    print_on: Request | None,
    force: bool,
    **toggles: Any,
) -> None:
    """Write the rules booklet for how this table plays: house rules, numbers, score sheet.

    Options override --set, which overrides the --house-rules file, which
    overrides the --preset.

    \b
    Example:
        sheetgen rules --players 5 --stock short --no-series
        sheetgen rules --set first-player=youngest --scoring cards-left
        sheetgen rules --house-rules ours.toml --extra ours.md --paper a4 -o rules.pdf
        sheetgen rules --layout booklet --paper letter -o booklet.pdf
        sheetgen rules --layout booklet --printer office
        sheetgen rules --format html -o rules.html
    """
    from sheetgen.atomic import destination, write_document
    from sheetgen.booklet.build import check_layout, rules_document
    from sheetgen.game.houserules import parse_settings, presets_text, resolve
    from sheetgen.paper import default_paper, paper

    if list_presets:
        click.echo(presets_text(game), nl=False)
        return
    _check_source_date()

    given = click.get_current_context().get_parameter_source
    options = {
        key.replace("_", "-"): value
        for key, value in toggles.items()
        if value is not None and given(key) is not click.core.ParameterSource.DEFAULT
    }
    house = resolve(
        game=game,
        preset=preset,
        house_rules=house_rules,
        options=options,
        settings=parse_settings(settings),
    )
    from sheetgen.game.definition import load_game
    from sheetgen.game.language import booklet_language

    lang = booklet_language(load_game(house.game), lang_code)
    reads = [path for path in (house_rules, toggles.get("extra"), house.extra) if path is not None]
    check_layout(layout, fmt or DOCUMENT_FORMATS[0])  # before an output folder is made
    target = None
    if print_on is None or output is not None:
        target, fmt = destination(
            output,
            fmt,
            formats=RULES_FORMATS,
            stem=f"rules-{house.game}",
            reads=reads,
            force=force,
        )
    chosen_paper = paper(paper_name) if paper_name else default_paper()
    document = rules_document(
        house, paper=chosen_paper, layout=layout, fmt=fmt or DOCUMENT_FORMATS[0], lang=lang
    )
    if target is not None:
        write_document(target, document)
        _said(target)
    if print_on is not None:
        from sheetgen.printing import rules_plan

        _print(rules_plan(document, layout), print_on)


@cli.command()
@click.argument(
    "inputs", metavar="FILE_OR_DIR...", nargs=-1, required=True, type=click.Path(path_type=Path)
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
    import sys

    from sheetgen.atomic import STDOUT, batch_folder, check_target, destination
    from sheetgen.paper import default_paper, paper
    from sheetgen.sheet.fill import fill_documents, write_documents

    if split_dir is not None and output is not None:
        raise click.UsageError("give --split FOLDER or -o FILE, not both")
    _check_source_date()
    title = _checked_title(title)
    found = _series_files(inputs)
    paths = found.paths
    reads = found.read
    stem = paths[0].stem if _one_file(inputs, paths) else "filled-sheets"
    folder: Any = nullcontext()
    if split_dir is None and print_on is not None and output is None:
        target, fmt = STDOUT, fmt or DOCUMENT_FORMATS[0]  # printed only, never written
    elif split_dir is None:
        target, fmt = destination(
            output, fmt, formats=DOCUMENT_FORMATS, stem=stem, reads=reads, force=force
        )
    else:
        target, fmt = split_dir, fmt or DOCUMENT_FORMATS[0]
        folder = batch_folder(split_dir)  # made now; gone again if nothing is written
    # Off a terminal, click would still print the label once: a log wants none of it.
    quiet = len(paths) <= 3 or not sys.stderr.isatty()
    bar = click.progressbar(
        length=2 * len(paths), label="Filling sheets", file=sys.stderr, hidden=quiet
    )
    with folder, bar:
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
            lang=_lang(lang_code),
        )
        written, printed, undrawable = write_documents(
            documents,
            keep_going=keep_going,
            all_or_nothing=split_dir is not None and not keep_going,
            keep=print_on is None or output is not None or split_dir is not None,
            printing=print_on is not None,
        )
        failed += undrawable
    if split_dir is not None and not verbose:
        files = "file" if len(written) == 1 else "files"
        click.echo(f"Wrote {len(written)} {files} to {split_dir.absolute()}", err=True)
    else:
        for path in written:
            _said(path)
    if print_on is not None and printed:
        from sheetgen.printing import score_sheet_plan

        _print([job for data in printed for job in score_sheet_plan(data)], print_on)
    if failed:
        for failure in failed:
            click.echo(failure.message, err=True)
        raise click.ClickException(f"{len(failed)} of {len(paths)} series files were not filled")


@cli.command()
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
