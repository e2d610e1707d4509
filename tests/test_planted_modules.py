"""Code planted in the working folder never runs: modules named as sheetgen's (yaml, csv,
click, openpyxl) there stay unread, since, as for the installed ``sheetgen`` command, the
working folder is not on the module path."""

from __future__ import annotations

from pathlib import Path

from hostile import run

SERIES = """\
title: Friday nights
players: [Ann, Bob, Cy]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12}
"""
PLANTED = 'open("{marker}", "w").close()\n'


def test_code_planted_in_the_working_folder_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "f.yaml").write_text(SERIES, encoding="utf-8")
    for name in ("yaml.py", "csv.py", "click.py", "openpyxl.py"):
        (folder / name).write_text(PLANTED.format(marker=marker), encoding="utf-8")
    done = run(["export", "f.yaml", "-o", "out.csv"], folder)
    assert done.code == 0, done.err
    assert not marker.exists(), "planted code ran"
