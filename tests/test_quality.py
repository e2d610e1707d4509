"""The code stays as STYLE.md asks: ruff-clean, ruff-formatted, mypy --strict on the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "ruff", "check", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        [sys.executable, "-m", "mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_code_quality(command: list[str]) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_reads_only_the_package() -> None:
    """mypy checks what its configuration names, so a virtual environment made inside the
    checkout (the README's .venv) is never read, whatever it is called."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["mypy"]["files"] == ["sheetgen"]


@pytest.mark.parametrize("folder", [".venv-3.11", "venv311", "myvenv", "env", "py-env", "build"])
def test_ruff_skips_virtual_environments_in_the_checkout(tmp_path: Path, folder: str) -> None:
    """A venv made inside the checkout holds other people's code, formatted their way."""
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "ours.py").write_text('"""Ours."""\n\nVALUE = 1\n', encoding="utf-8")
    theirs = tmp_path / folder / "lib" / "python3.11" / "site-packages" / "theirs.py"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("import os,sys\nx=[1,2 ,3]\n", encoding="utf-8")
    for command in (["check", "."], ["format", "--check", "."]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "theirs.py" not in result.stdout + result.stderr
    # The same file outside such a folder is checked, so the test can fail.
    shutil.copyfile(theirs, tmp_path / "theirs.py")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1 and "theirs.py" in result.stdout
