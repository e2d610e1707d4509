"""``sheetgen serve``: the table-side page, a thin face over ``sheetgen.serve``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from sheetgen.cli.options import (
    SheetgenCommand,
    WholeRange,
    paper_option,
    series_options,
)
from sheetgen.errors import MissingLibraryError

# What the serve extra brings, by the name each is imported as.
SERVE_LIBRARIES = ("starlette", "uvicorn", "sse_starlette", "multipart", "itsdangerous", "segno")


def _check_extra() -> None:
    """Refuse at once, with the command that helps, when the serve extra is missing."""
    import importlib.util

    missing = [name for name in SERVE_LIBRARIES if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingLibraryError(
            f"sheetgen serve needs {', '.join(missing)}, which the serve extra installs: "
            "pip install 'sheetgen[serve]'"
        )


@click.command(cls=SheetgenCommand)
@click.argument(
    "file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The series file the page shows and records into (.yaml, .json or .csv).",
)
@click.option(
    "--new",
    "start_new",
    is_flag=True,
    help="Start FILE first, as sheetgen new does (with --players and its other options).",
)
@series_options("With --new: ")
@click.option(
    "--lan",
    is_flag=True,
    help="Let phones on the local network open the page: shows its address as a QR code "
    "and a PIN each phone enters once.",
)
@click.option(
    "--port",
    type=WholeRange(0, 65535),
    default=8765,
    show_default=True,
    help="The port to listen on; 0 takes any free one.",
)
@click.option(
    "--lang",
    "lang_code",
    type=click.Choice(["en", "de"], case_sensitive=False),
    help="Language of every page, whatever each browser asks for (else the browser's).",
)
@paper_option
@click.option("--printer", metavar="NAME", help="Print on this printer (else the default).")
def serve(
    file: Path,
    start_new: bool,
    lan: bool,
    port: int,
    lang_code: str | None,
    paper_name: str | None,
    printer: str | None,
    **series: Any,
) -> None:
    """Open a series on a page every phone at the table can use, live.

    The page shows the standings and the race chart, records, replaces and undoes games
    (with the same checks as record), and prints or downloads the sheets, exports and the
    rules booklet. On this computer, the browser that opens the address it prints (with
    its key) gets in; --lan lets phones in with a PIN. The series file stays the only
    record: every change is a locked, atomic write, and edits made to it meanwhile show
    on every page.

    \b
    Example:
        sheetgen serve friday.yaml
        sheetgen serve friday.yaml --lan
        sheetgen serve new.yaml --new --players "Ann,Bob,Cy"
    """
    _check_extra()
    from sheetgen.paper import default_paper, paper

    start = None
    if start_new:
        if not series["players"]:
            raise click.UsageError("--new starts a series: give --players too")

        def start() -> None:
            from sheetgen.cli.series import start_series

            start_series(file, **series)
            click.echo(f"Started {file}", err=True)

    elif any(value is not None for value in series.values()):
        raise click.UsageError(
            "the series options are for --new; the file already says who plays and how"
        )
    from sheetgen.serve.run import serve as run

    run(
        file,
        lan=lan,
        port=port,
        paper=paper(paper_name) if paper_name else default_paper(),
        lang=lang_code.lower() if lang_code else None,
        printer=printer,
        say=lambda text: click.echo(text, err=True),
        start=start,
    )
