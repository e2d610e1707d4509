"""Where documents go: a name with a trailing slash is a folder, the default folder is
never the file system's root, and a printed path has no ``..`` left in it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import sheetgen.booklet.build as build

SERIES = ["new", "s.yaml", "--players", "Ann,Bob"]


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["sheet"], "score-sheet.pdf"),
        (["rules"], "rules-skip-bo.pdf"),
        (["fill", "s.yaml"], "s.pdf"),
        (["export", "s.yaml"], "s.json"),
    ],
)
@pytest.mark.parametrize("folder", ["newdir/", "there/b/"])
def test_a_trailing_slash_names_a_folder_that_is_made(
    runner: Any, monkeypatch: pytest.MonkeyPatch, command: list[str], name: str, folder: str
) -> None:
    monkeypatch.setattr(build, "rules_document", lambda *a, **k: b"%PDF-1.7 fake")
    assert runner(*SERIES).exit_code == 0
    (runner.cwd / "there").mkdir()
    result = runner(*command, "--paper", "a4", "-o", folder) if command[0] in (
        "sheet", "rules", "fill"
    ) else runner(*command, "-o", folder)  # fmt: skip
    assert result.exit_code == 0, result.output
    made = runner.cwd / folder
    assert made.is_dir()
    assert [path.name for path in made.iterdir()] == [name]
    assert not (runner.cwd / folder.rstrip("/")).is_file()


@pytest.mark.parametrize("given", ["taken/", "missing/b/"])
def test_a_trailing_slash_on_a_file_or_in_a_missing_folder_is_refused(
    runner: Any, snapshot: Any, given: str
) -> None:
    """A folder is made only in a folder that is there (sheetgen makes no chain of them)."""
    (runner.cwd / "taken").write_text("mine", encoding="utf-8")
    before = snapshot(runner.cwd)
    result = runner("sheet", "-o", given)
    assert result.exit_code != 0
    assert given.split("/")[0] in result.output and "Traceback" not in result.output
    assert snapshot(runner.cwd) == before
    assert sorted(path.name for path in runner.cwd.iterdir()) == ["taken"]


def test_the_default_folder_is_never_made_at_the_root(
    runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner.cwd = Path("/")
    result = runner("sheet")
    assert result.exit_code != 0
    assert "/output" in result.output and "-o" in result.output
    assert not Path("/output/score-sheet.pdf").exists()


def test_a_printed_path_has_no_dotdot(runner: Any) -> None:
    (runner.cwd / "sub").mkdir()
    result = runner("sheet", "-o", "sub/../x.pdf")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"Wrote {os.path.join(runner.cwd, 'x.pdf')}"


@pytest.mark.parametrize("how", [["--format", "png"], ["-o", "all.png"]])
def test_a_png_of_several_series_is_refused_before_anything_is_written(
    runner: Any, snapshot: Any, how: list[str]
) -> None:
    for name in ("a.yaml", "b.yaml"):
        assert runner("new", name, "--players", "Ann,Bob").exit_code == 0
    before = snapshot(runner.cwd)
    result = runner("fill", "a.yaml", "b.yaml", *how)
    assert result.exit_code == 2
    assert "--split FOLDER" in result.output
    assert snapshot(runner.cwd) == before


def test_the_sheets_of_a_folder_are_named_after_it(runner: Any) -> None:
    (runner.cwd / "season").mkdir()
    for name in ("a.yaml", "b.yaml"):
        assert runner("new", f"season/{name}", "--players", "Ann,Bob").exit_code == 0
    result = runner("fill", "season", "--paper", "a4")
    assert result.exit_code == 0, result.output
    assert (runner.cwd / "output" / "season.pdf").is_file()


def test_new_says_which_endings_it_makes(runner: Any) -> None:
    result = runner("new", "plain", "--players", "Ann,Bob")
    assert result.exit_code == 1
    assert "new starts a .yaml, .json or .csv series, and its name needs one" in result.output
    assert ".xlsx" not in result.output
