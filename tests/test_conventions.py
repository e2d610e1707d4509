"""Command-line manners: no PDF bytes on a terminal, quiet logs, a guarded completion line."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFUSAL = (
    "Error: Invalid value for '-o' / '--output': standard output is a terminal, and a "
    "document is not written to the screen; pipe it (-o - | lp) or give a file name"
)
SERIES = {"players": ["Ann", "Bob"], "games": [{"winner": "Ann", "left": {"Bob": 7}}]}


def _series_files(folder: Path, count: int) -> None:
    for index in range(count):
        (folder / f"s{index}.json").write_text(json.dumps(SERIES), encoding="utf-8")


def _on_a_terminal(args: list[str], cwd: Path, stream: str) -> tuple[int, bytes, bytes]:
    """Run sheetgen with ``stream`` (stdout or stderr) on a pseudo-terminal."""
    main, side = pty.openpty()
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, stream: side}
    process = subprocess.Popen([sys.executable, "-m", "sheetgen", *args], cwd=cwd, **pipes)
    os.close(side)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other end closed
            break
        if not chunk:
            break
        seen += chunk
    other = process.stderr if stream == "stdout" else process.stdout
    assert other is not None
    rest = other.read()
    process.wait()
    os.close(main)
    return process.returncode, seen, rest


@pytest.mark.parametrize(
    "args", [["sheet", "-o", "-"], ["rules", "-o", "-"], ["fill", "s0.json", "-o", "-"]]
)
def test_dash_o_refused_on_a_terminal(runner, monkeypatch, tmp_path: Path, snapshot, args) -> None:
    _series_files(tmp_path, 1)
    monkeypatch.setattr("sheetgen.cli.options._stdout_is_terminal", lambda: True)
    before = snapshot(tmp_path)
    result = runner(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == REFUSAL
    assert result.stdout_bytes == b""
    assert snapshot(tmp_path) == before


def test_dash_o_on_a_real_terminal(tmp_path: Path) -> None:
    code, screen, errors = _on_a_terminal(["sheet", "-o", "-"], tmp_path, "stdout")
    assert code == 2
    assert b"%PDF" not in screen
    assert errors.decode().splitlines()[-1] == REFUSAL


def test_dash_o_into_a_pipe_still_writes_the_pdf(runner, tmp_path: Path) -> None:
    result = runner("sheet", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"%PDF-")


def test_split_prints_one_summary_line(runner, tmp_path: Path) -> None:
    _series_files(tmp_path, 5)
    result = runner("fill", ".", "--split", "out")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"Wrote 5 files to {tmp_path / 'out'}\n"
    assert len(list((tmp_path / "out").iterdir())) == 5


def test_split_verbose_names_every_file(runner, tmp_path: Path) -> None:
    _series_files(tmp_path, 5)
    result = runner("fill", ".", "--split", "out", "-v")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"Wrote {tmp_path}/out/s{index}.pdf" for index in range(5)
    ]


def test_progress_label_only_on_a_terminal(tmp_path: Path) -> None:
    _series_files(tmp_path, 5)
    piped = subprocess.run(
        [sys.executable, "-m", "sheetgen", "fill", ".", "-o", "all.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == f"Wrote {tmp_path / 'all.pdf'}\n"
    code, screen, _ = _on_a_terminal(["fill", ".", "-o", "all.pdf"], tmp_path, "stderr")
    assert code == 0
    assert b"Filling sheets" in screen


def _completion_line() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (line,) = [line for line in text.splitlines() if "_SHEETGEN_COMPLETE=bash_source" in line]
    return line


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_completion_line_is_quiet_without_sheetgen(tmp_path: Path) -> None:
    line = _completion_line()
    assert line.startswith("command -v sheetgen >/dev/null && eval ")
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        ["bash", "-c", line + "; echo done"], env=bare, capture_output=True, text=True, check=False
    )
    assert result.stderr == ""
    assert result.stdout == "done\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_completion_line_installs_completion_with_sheetgen(tmp_path: Path) -> None:
    (tmp_path / "sheetgen").write_text(
        f'#!/bin/sh\nexec {sys.executable} -m sheetgen "$@"\n', encoding="utf-8"
    )
    (tmp_path / "sheetgen").chmod(0o755)
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        ["bash", "-c", _completion_line() + "; complete -p sheetgen"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stderr == ""
    assert "_sheetgen_completion" in result.stdout
