"""Which paper a sheet defaults to, found as Debian's paper tools find it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetgen.errors import ChoiceError
from sheetgen.paper import A4, LETTER, default_paper, paper


@pytest.fixture
def no_file(tmp_path: Path) -> Path:
    return tmp_path / "missing-papersize"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, LETTER),
        ({"PAPERSIZE": "a4"}, A4),
        ({"PAPERSIZE": "Letter", "LC_PAPER": "de_DE.UTF-8"}, LETTER),
        ({"LC_PAPER": "de_DE.UTF-8"}, A4),
        ({"LC_PAPER": "en_US.UTF-8"}, LETTER),
        ({"LC_PAPER": "en_CA.UTF-8"}, LETTER),
        ({"LANG": "fr_FR.UTF-8"}, A4),
        ({"LC_ALL": "C"}, LETTER),
        ({"PAPERSIZE": "legal", "LC_PAPER": "pl_PL.UTF-8"}, A4),
    ],
)
def test_default_from_environment(env: dict[str, str], expected: object, no_file: Path) -> None:
    assert default_paper(env, no_file) == expected


def test_papersize_file_comes_before_the_locale(tmp_path: Path) -> None:
    conf = tmp_path / "papersize"
    conf.write_text("# system paper\n\na4\n", encoding="utf-8")
    assert default_paper({"LC_PAPER": "en_US.UTF-8"}, conf) == A4
    assert default_paper({"PAPERSIZE": "letter"}, conf) == LETTER


def test_papersize_named_by_paperconf(tmp_path: Path, no_file: Path) -> None:
    conf = tmp_path / "mine"
    conf.write_text("a4\n", encoding="utf-8")
    assert default_paper({"PAPERCONF": str(conf)}, no_file) == A4


def test_unknown_paper_is_refused() -> None:
    with pytest.raises(ChoiceError, match="'legal' is not a paper size sheetgen lays out"):
        paper("legal")


def test_sheet_follows_the_system_paper(runner, tmp_path: Path, monkeypatch) -> None:
    import pdfplumber

    monkeypatch.setenv("PAPERSIZE", "a4")
    result = runner("sheet", "--players", "2", "-o", "a4.pdf")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "a4.pdf") as doc:
        assert (round(doc.pages[0].width), round(doc.pages[0].height)) == (842, 595)
