"""Hostile review of this round's new surfaces: the compiled-template cache, the HTML
booklet's picture, the language folders, Ctrl-C at start-up, fill's workers, YAML tags.

Each test holds sheetgen to the hostile suite's promises: one ``Error:`` line or
success, no traceback, inputs byte-identical, nothing left behind.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import _env, assert_clean, assert_no_process_left, run, snapshot, temporaries

from sheetgen import fill
from sheetgen.batching import usable_cores
from sheetgen.paper import paper
from sheetgen.seriesfile import series_paths

SERIES = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
"""

# The installed ``sheetgen`` script (its entry point loaded as pip's script does), with
# Ctrl-C landing while the command line's heavy modules are imported: the moment ``click``
# is looked for, the process interrupts itself, as a terminal's Ctrl-C would.
INTERRUPTED_WHILE_IMPORTING = """\
import os, signal, sys
from importlib.metadata import entry_points

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "click":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv[0] = "sheetgen"
(script,) = entry_points(group="console_scripts", name="sheetgen")
sys.exit(script.load()())
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "f.yaml").write_text(SERIES, encoding="utf-8")
    return tmp_path


def _interrupted_at_start(folder: Path, *, ignored: bool) -> subprocess.CompletedProcess[bytes]:
    script = folder / "ctrl_c.py"
    script.write_text(INTERRUPTED_WHILE_IMPORTING, encoding="utf-8")

    def start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignored else signal.SIG_DFL)

    process = subprocess.Popen(
        [sys.executable, str(script), "sheet", "-o", "s.pdf"],
        cwd=folder,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=start,
    )
    out, err = process.communicate(timeout=120)
    assert_no_process_left(process.pid)
    script.unlink()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_ctrl_c_while_the_command_line_is_imported_exits_quietly_with_130(folder: Path) -> None:
    before = snapshot(folder)
    done = _interrupted_at_start(folder, ignored=False)
    assert (done.returncode, done.stderr) == (130, b"")
    assert snapshot(folder) == before
    assert temporaries(folder) == []


def test_an_ignored_ctrl_c_stays_ignored(folder: Path) -> None:
    """A script's background job (``sheetgen ... &``) starts with Ctrl-C ignored: it runs on."""
    done = _interrupted_at_start(folder, ignored=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"Wrote {folder / 's.pdf'}\n".encode()
    assert (folder / "s.pdf").read_bytes().startswith(b"%PDF-")


def test_jobs_never_start_more_workers_than_usable_cores(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []

    class Counted(fill.Workers):
        def __init__(self, size: int) -> None:
            started.append(size)
            super().__init__(size)

    monkeypatch.setattr(fill, "Workers", Counted)
    monkeypatch.setattr(fill, "PARALLEL_FROM", 1)
    paths = series_paths([folder])
    for asked in (1000, 10**6):
        documents, _ = fill.fill_documents(
            paths, paper=paper("letter"), output=folder / "all.pdf", workers=asked
        )
        assert [path.name for path, _ in documents] == ["all.pdf"]
    cores = usable_cores()
    assert started == ([cores] * 2 if cores > 1 else [])


def test_a_huge_jobs_is_taken_as_the_usable_cores(folder: Path) -> None:
    before = snapshot(folder)
    done = run(["fill", "f.yaml", "--split", "out", "--jobs", "100000"], folder)
    assert_clean(done)
    assert done.code == 0
    assert sorted(p.name for p in (folder / "out").iterdir()) == ["f.pdf"]
    assert {name: snapshot(folder)[name] for name in before} == before
    assert temporaries(folder) == []
    help_text = run(["fill", "--help"], folder).out.decode()
    assert "at most one per usable core" in " ".join(help_text.split())
