"""The command-line frame: help, version, examples, errors and lazy imports."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import click
import pytest

from sheetgen import __version__
from sheetgen.cli import cli

COMMANDS = sorted(cli.commands)


def test_version(runner) -> None:
    result = runner("--version")
    assert result.exit_code == 0
    assert result.output == f"sheetgen, version {__version__}\n"


def test_help_lists_every_command(runner) -> None:
    result = runner("--help")
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f"  {name}" in result.output


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_an_example(runner, name: str) -> None:
    command = cli.commands[name]
    assert command.help, f"{name} has no help text"
    result = runner(name, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output
    assert f"sheetgen {name}" in result.output.split("Example", 1)[1]
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{name} {param.opts} has no help"


def test_python_dash_m_runs_the_cli() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sheetgen", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"sheetgen, version {__version__}"


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["deal", "--players", "4"],
        ["sheet", "--help"],
        ["sheet", "-o", "OUT/s.pdf"],
    ],
)
def test_help_and_sheet_commands_never_import_weasyprint(tmp_path, args: list[str]) -> None:
    args = [a.replace("OUT", str(tmp_path)) for a in args]
    code = (
        "import sys\n"
        "from sheetgen.cli import cli\n"
        "try:\n"
        f"    cli({args!r}, prog_name='sheetgen')\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "assert 'weasyprint' not in sys.modules, 'weasyprint was imported'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr


def test_an_english_blank_sheet_loads_only_what_it_draws(tmp_path) -> None:
    # Babel (numbers and catalogues of other languages), pikepdf and the printing module (for
    # --print) and the race chart (filled sheets) are each loaded only where they are used.
    code = (
        "import sys\n"
        "from sheetgen.cli import cli\n"
        "try:\n"
        f"    cli(['sheet', '-o', {str(tmp_path / 's.pdf')!r}], prog_name='sheetgen')\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "unwanted = ('babel', 'pikepdf', 'sheetgen.printing', 'sheetgen.sheet.chart', 'subprocess')\n"
        "print(sorted(name for name in unwanted if name in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")


def test_shell_completion_is_available() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sheetgen"],
        capture_output=True,
        text=True,
        check=False,
        env={**__import__("os").environ, "_SHEETGEN_COMPLETE": "bash_source"},
    )
    # python -m runs under the program name "sheetgen", so click's own completion answers.
    assert "complete" in result.stdout
    assert "_sheetgen_completion" in result.stdout


def test_core_modules_do_not_import_click() -> None:
    from pathlib import Path

    import sheetgen

    package = Path(sheetgen.__file__).parent
    offenders = [
        path.name
        for path in package.glob("*.py")
        if path.name != "cli.py" and "import click" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ([], "rules-skip-bo.pdf"),
        (["--preset", "family"], "rules-skip-bo-family.pdf"),
        (["--preset", "official"], "rules-skip-bo.pdf"),
        (["--lang", "de"], "rules-skip-bo-de.pdf"),
        (["--layout", "booklet"], "rules-skip-bo-booklet.pdf"),
        (["--game", "spite-and-malice", "--lang", "de", "--layout", "booklet"],
         "rules-spite-and-malice-de-booklet.pdf"),
        (["--house-rules", "ours.toml", "--preset", "short"], "rules-skip-bo-short-ours.pdf"),
    ],
)  # fmt: skip
def test_default_booklet_names_differ_by_what_makes_the_booklets_differ(
    runner: Any, monkeypatch: pytest.MonkeyPatch, args: list[str], name: str
) -> None:
    """Three booklets a table makes (plain, a preset, German) keep three files."""
    import sheetgen.booklet.build as build

    monkeypatch.setattr(build, "rules_document", lambda *a, **k: b"%PDF-1.7 fake")
    (runner.cwd / "ours.toml").write_text("target = 300\n", encoding="utf-8")
    result = runner("rules", "--paper", "a4", *args)
    assert result.exit_code == 0, result.output
    assert [path.name for path in (runner.cwd / "output").iterdir()] == [name]


@pytest.mark.parametrize(
    ("command", "given"),
    [
        (["sheet", "--games-to-play", "8"], "--games-to-play"),
        (["sheet", "--scoring", "cards-left", "--target", "300"], "--target"),
        (["new", "t.yaml", "--players", "Ann,Bob", "--games-to-play", "8"], "--games-to-play"),
        (["new", "t.yaml", "--players", "Ann,Bob", "--scoring", "cards-left", "--target", "300"],
         "--target"),
    ],
)  # fmt: skip
def test_an_option_that_changes_nothing_in_the_chosen_scoring_is_refused(
    runner: Any, snapshot: Any, command: list[str], given: str
) -> None:
    before = snapshot(runner.cwd)
    result = runner(*command, "-o", "x.pdf") if command[0] == "sheet" else runner(*command)
    assert result.exit_code != 0
    assert f"{given} changes nothing" in result.output
    assert "Traceback" not in result.output
    assert snapshot(runner.cwd) == before
