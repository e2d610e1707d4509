"""The command line: a thin click face over sheetgen's core, its one group and ``main``.

Each command (in ``series``, ``sheet`` and ``booklet`` beside this) parses its options,
calls one core function and says where the file went. Heavy modules (reportlab,
weasyprint) are imported inside the commands that need them, so ``sheetgen --help``
stays quick. Core errors are turned into one clean message in one place:
``SheetgenGroup.invoke``.
"""

from __future__ import annotations

import errno
import io
import os
from contextlib import suppress
from typing import Any

import click

from sheetgen import __version__
from sheetgen.cli import booklet, series, serve, sheet
from sheetgen.cli.options import SheetgenCommand, rules_dir_option
from sheetgen.cli.shared import os_message, silence_stdout
from sheetgen.errors import SheetgenError
from sheetgen.interrupt import INTERRUPTED, answer_ctrl_c

__all__ = ["COMMAND_ORDER", "cli", "main"]

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
    "serve",
)


# Commands that never read a game's folder: --rules-dir would change nothing for them.
READS_NO_GAME = frozenset({"printers"})


class SheetgenGroup(click.Group):
    """A group that reports sheetgen's own errors as one line and exit status 1.

    Its help lists the commands in ``COMMAND_ORDER`` with each one's whole first
    paragraph, wrapped rather than cut.
    """

    command_class = SheetgenCommand

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Every command that reads games takes ``--rules-dir``, as the group itself does."""
        if (name or cmd.name) not in READS_NO_GAME:
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
            silence_stdout()
            ctx.exit(1)
        except OSError as exc:
            # Whatever the system refuses (a full disk, a closed pipe) is one line, not a trace.
            raise click.ClickException(os_message(exc)) from exc


def _first_paragraph(text: str) -> str:
    import inspect

    return " ".join(inspect.cleandoc(text).split("\n\n")[0].split())


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
        silence_stdout()
        sys.exit(1)
    except OSError as exc:
        click.echo(f"Error: {os_message(exc)}", err=True)
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


for command in (
    sheet.sheet,
    sheet.fill,
    booklet.rules,
    sheet.games,
    series.new,
    series.record,
    series.undo,
    series.standings,
    series.export,
    series.deal,
    sheet.printers,
    serve.serve,
):
    cli.add_command(command)
