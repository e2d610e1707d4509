"""The options and parameter types the commands share, and the command class that lists them."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from sheetgen.errors import SheetgenError

FC = TypeVar("FC", bound=Callable[..., Any])


def _add_rules_dirs(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> None:
    """Offer the games in --rules-dir folders; the group's option starts each run afresh."""
    from sheetgen.game.definition import added_rules_dirs, use_rules_dirs

    if isinstance(ctx.command, click.Group):
        use_rules_dirs(value)
    elif value:
        use_rules_dirs((*added_rules_dirs(), *value))


# Each game's numbers are in its game.toml; the help points at them rather than copying them.
PLAYERS_HELP = "Players at the table (sheetgen games gives each game's range)."

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
            if isinstance(param, click.Argument):
                continue  # click lists them under "Positional arguments"
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


def _export_formats() -> tuple[str, ...]:
    from sheetgen.series.export import EXPORT_FORMATS

    return EXPORT_FORMATS


class ExportChoice(DataChoice):
    """The export formats of the series wing's registry, read only when the option is used
    or its help shown (the registry brings csv and json, which ``--help`` needs not)."""

    def __init__(self) -> None:
        super().__init__(_export_formats, checked=True)


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


SCORING_HELP = (
    "winner: the winner scores bonus + points per card left in the others' piles, first "
    "to the target wins; cards-left: everyone counts the cards left in their own pile, lowest "
    "total after the agreed games wins."
)
scoring_option = click.option(
    "--scoring",
    type=click.Choice(["winner", "cards-left"]),
    help=SCORING_HELP,
    show_default="the game's way",
)


yes_option = click.option("-y", "--yes", is_flag=True, help="Do not ask; go ahead.")


def series_options(prefix: str = "") -> Callable[[FC], FC]:
    """The options that start a series, handed to the command by their names: ``new``'s
    (``prefix`` empty: --players required) and ``serve --new``'s (``prefix`` "With --new: "
    before each help, nothing required)."""
    from sheetgen.limits import MAX_GAMES

    def told(help_text: str) -> str:
        return prefix + help_text if prefix else help_text[0].upper() + help_text[1:]

    options = [
        click.option(
            "--game",
            type=GameChoice(),
            show_default="skip-bo",
            help=told("which game the series is of."),
        ),
        click.option(
            "--players",
            required=not prefix,
            help=told('the players in seating order: "Ann,Bob,Cy,Di".'),
        ),
        click.option(
            "--teams", help=told('partnership play, teams of two: "Red=Ann+Cy,Blue=Bob+Di".')
        ),
        click.option("--stock", type=WholeRange(min=1), help=told("cards in each stock pile.")),
        click.option(
            "--scoring",
            type=click.Choice(["winner", "cards-left"]),
            show_default="the game's way",
            help=prefix + SCORING_HELP,
        ),
        click.option(
            "--target",
            type=WholeNumber(),
            show_default="the game's",
            help=told("points that win the series."),
        ),
        click.option(
            "--games-to-play",
            type=WholeRange(1, MAX_GAMES),
            help=told("with cards-left scoring: games in the series."),
        ),
        click.option("--title", help=told("a name for the series, printed on its sheets.")),
    ]

    def decorate(command: FC) -> FC:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


SERIES_INPUTS_HELP = (
    "Series files (.yaml, .json, .csv, .xlsx), or folders holding them; several make a season."
)
series_inputs = click.argument(
    "inputs",
    metavar="FILE_OR_DIR...",
    nargs=-1,
    required=True,
    type=click.Path(path_type=Path),
    help=SERIES_INPUTS_HELP,
)


lang_option = click.option(
    "--lang",
    "lang_code",
    type=click.Choice(["en", "de"], case_sensitive=False),
    show_default="the system's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else en",
    help="Language of the document: en or de.",
)


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


def _not_to_a_terminal(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """Refuse ``-o -`` when standard output is a terminal: PDF bytes would fill the screen.
    A name typed with a trailing slash stays a folder (``-o newdir/``)."""
    from sheetgen.folders import as_given

    if value is not None and value == "-" and _stdout_is_terminal():
        raise click.BadParameter(
            "standard output is a terminal, and a document is not written to the screen; "
            "pipe it (-o - | lp) or give a file name",
            ctx,
            param,
        )
    return None if value is None else as_given(value)


def output_option(default: str) -> Callable[[FC], FC]:
    """``-o/--output`` and ``--force`` for a command whose document goes to ``default``."""

    def decorate(command: FC) -> FC:
        command = click.option("--force", is_flag=True, help=FORCE_HELP)(command)
        return click.option(
            "-o",
            "--output",
            type=click.Path(),
            callback=_not_to_a_terminal,
            show_default=default,
            help="Where to write: a file, a folder (a name ending in / is made if missing), "
            "or - for standard output.",
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
