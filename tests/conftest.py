"""Shared fixtures: a click runner and readers for the PDFs sheetgen writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sheetgen.cli import cli


class Runner:
    """Invoke ``sheetgen`` in-process, from a temporary working folder."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._runner = CliRunner()

    def __call__(self, *args: str, input: str | bytes | None = None, **kwargs: Any) -> Result:
        import os

        old = Path.cwd()
        os.chdir(self.cwd)
        try:
            return self._runner.invoke(
                cli, list(args), input=input, catch_exceptions=True, **kwargs
            )
        finally:
            os.chdir(old)


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    """A CLI runner whose working folder is ``tmp_path``."""
    return Runner(tmp_path)


def folder_snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` with its bytes, to prove nothing was written."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, bytes]]:
    return folder_snapshot
