"""The command line: a thin click face over sheetgen's core.

Each command parses its options, calls one core function and says where the
file went. Heavy modules (reportlab, weasyprint) are imported inside the
commands that need them, so ``sheetgen --help`` stays quick. Core errors are
turned into one clean message in one place: ``SheetgenGroup.invoke``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from sheetgen import __version__
from sheetgen.errors import SheetgenError


class SheetgenGroup(click.Group):
    """A group that reports sheetgen's own errors as one line and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SheetgenError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group(cls=SheetgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sheetgen")
def cli() -> None:
    """Print the paper for a Skip-Bo table: score sheets, rules booklets and
    filled-in sheets from a table's recorded series.

    \b
    Example:
        sheetgen sheet --names "Ann,Bob,Cy,Di"
    """


def main() -> None:
    """Entry point of the ``sheetgen`` console script."""
    cli(prog_name="sheetgen")


def _said(path: Path) -> None:
    """Tell the user where a document went (unless it went to standard output)."""
    if str(path) != "-":
        click.echo(f"Wrote {path}", err=True)
