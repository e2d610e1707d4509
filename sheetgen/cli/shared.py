"""What several commands do alike: read series inputs, check a title, write, print and say."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from sheetgen.printing import Job, Request, Sent


def silence_stdout() -> None:
    """Send standard output to /dev/null: its reader went away (``| head``)."""
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # standard output is already gone or was never a file
    finally:
        os.close(devnull)


def os_message(exc: OSError) -> str:
    """What the system refused, in one line: the file first, if there is one."""
    where = f"{exc.filename}: " if exc.filename is not None else ""
    return f"{where}{exc.strerror or exc}"


def said(path: Path) -> None:
    """Tell the user where a document went, by its full path with no ``..`` left in it
    (unless to standard output)."""
    if str(path) != "-":
        click.echo(f"Wrote {os.path.abspath(path)}", err=True)


def check_source_date() -> None:
    """Refuse a malformed SOURCE_DATE_EPOCH before anything is drawn or written. Every
    command that makes a document checks it, even where this run dates no PDF (an HTML
    booklet, a kept score sheet): one answer for one environment."""
    from sheetgen.sourcedate import source_date_epoch

    source_date_epoch()


def language_of(code: str | None) -> Any:
    """The language asked for with --lang, else the system's."""
    from sheetgen.game.language import language, system_language

    return language(code) if code else system_language()


def series_files(inputs: tuple[Path, ...]) -> Any:
    """Every series file named or in a named folder, each series once; notes what was left out."""
    from sheetgen.series.inputs import distinct_series

    files = distinct_series(inputs)
    for note in files.notes:
        click.echo(f"Note: {note}", err=True)
    return files


def scored(files: Any) -> list[tuple[Path, Any]]:
    """Each of the series files, read, checked and scored."""
    from sheetgen.game.scoring import score_series
    from sheetgen.series.file import load_series

    return [(path, score_series(load_series(path))) for path in files.paths]


def one_file(inputs: tuple[Path, ...], paths: Sequence[Any]) -> bool:
    """Whether one series file was named (perhaps twice), and no folder."""
    return len(paths) == 1 and not any(item.is_dir() for item in inputs)


def checked_title(title: str | None) -> str | None:
    """``--title`` as every document takes it: one printable line the fonts can draw."""
    if title is None:
        return None
    from sheetgen import fonts
    from sheetgen.game.names import check_title

    title = check_title(title, "--title")
    fonts.check_printable([title], "--title")
    return title


def write_in_format(pdf: bytes, fmt: str, output: Path) -> None:
    """Write a PDF, or the preview of its first page for ``png``."""
    from sheetgen.atomic import write_document
    from sheetgen.preview import in_format

    write_document(output, in_format(pdf, fmt))
    said(output)


def stdin_is_terminal() -> bool:
    """Whether a question can be asked: standard input is a terminal."""
    return sys.stdin.isatty()


def send_to_printer(plan: Sequence[Job], request: Request) -> None:
    """Send a document's print plan to the printer the user asked for."""
    from sheetgen.printing import find_printer, paper_warning, send, turns_by_hand

    printer = find_printer(request.printer)
    if turns_by_hand(plan, printer, request.manual_duplex) and not stdin_is_terminal():
        # Decided before anything is sent: fronts without their backs waste the paper.
        raise click.ClickException(
            f"printing both sides on {printer.name} means turning the stack by hand between "
            "the fronts and the backs, and there is no terminal to say when; run it in a "
            "terminal, choose a printer that prints both sides (--printer NAME), or write "
            "the PDF with -o and print it yourself"
        )
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
