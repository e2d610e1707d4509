"""Without Pango, `rules` says in one line what is missing; sheets still work."""

from __future__ import annotations

import importlib.abc
import sys
from pathlib import Path

import pytest

from sheetgen.booklet.weasy import missing_pango_message

FAILURE = (
    "cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file: "
    "No such file or directory"
)


class NoPango(importlib.abc.MetaPathFinder):
    """Makes ``import weasyprint`` fail as it does on a system without Pango."""

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name == "weasyprint" or name.startswith("weasyprint."):
            # weasyprint prints a banner to standard output before it re-raises.
            print("\n-----\n\nWeasyPrint could not import some external libraries.\n-----\n")
            raise OSError(FAILURE)
        return None


@pytest.fixture
def no_pango(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "weasyprint" or n.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [NoPango(), *sys.meta_path])
    monkeypatch.setattr(sys, "platform", "linux")


def test_rules_without_pango_is_one_line(runner, no_pango, tmp_path: Path) -> None:
    result = runner("rules", "-o", "rules.pdf")
    assert result.exit_code == 1
    assert result.output == (
        "Error: rules booklets need the Pango library, which is not installed "
        "(libpango-1.0-0 is missing); install it on Debian or Ubuntu: sudo apt-get install "
        "libpango-1.0-0 libpangoft2-1.0-0. Score sheets (sheet, fill) work without it.\n"
    )
    assert not (tmp_path / "rules.pdf").exists()


def test_sheet_and_fill_work_without_pango(runner, no_pango, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 7}\n", encoding="utf-8"
    )
    assert runner("sheet", "-o", "blank.pdf").exit_code == 0
    assert runner("fill", "s.yaml", "-o", "filled.pdf").exit_code == 0
    for name in ("blank.pdf", "filled.pdf"):
        assert (tmp_path / name).read_bytes().startswith(b"%PDF")
    assert "weasyprint" not in sys.modules


@pytest.mark.parametrize(
    ("platform", "how"),
    [
        ("linux", "on Debian or Ubuntu: sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0"),
        ("darwin", "on macOS with Homebrew: brew install pango"),
        (
            "win32",
            "on Windows: install MSYS2, run pacman -S mingw-w64-x86_64-pango and add its bin "
            "folder to PATH (WeasyPrint's installation guide shows how)",
        ),
    ],
)
def test_the_install_hint_follows_the_system(platform: str, how: str) -> None:
    message = missing_pango_message("cannot load library 'gobject-2.0-0': not found", platform)
    assert message == (
        "rules booklets need the Pango library, which is not installed (gobject-2.0-0 is "
        f"missing); install it {how}. Score sheets (sheet, fill) work without it."
    )
    assert "\n" not in message


def test_a_machine_without_fonts_gets_no_ugly_output_warning(
    tmp_path: Path, no_system_fonts: Path
) -> None:
    """fontconfig with no fonts makes weasyprint warn of "ugly output" as it loads; the
    booklet brings its own fonts, so `rules` says only what it wrote (a container or a
    minimal server has no fonts at all)."""
    import os
    import subprocess

    import pypdfium2

    done = subprocess.run(
        [sys.executable, "-m", "sheetgen", "rules", "-o", "r.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "FONTCONFIG_FILE": str(no_system_fonts)},
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, f"Wrote {tmp_path / 'r.pdf'}\n")
    first = pypdfium2.PdfDocument(tmp_path / "r.pdf")[0].get_textpage().get_text_range()
    assert "Skip-Bo" in first
