"""The bundled typeface: what it prints, what falls back to a system font, what is refused.

fontconfig sees only the fonts a test offers (see conftest.py), so these tests mean the
same on a machine with every script's fonts installed and on one with none.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pikepdf
import pytest
from conftest import machine_font_covering

from sheetgen import fonts
from sheetgen.errors import FontCoverageError
from sheetgen.paper import paper
from sheetgen.sheet.blank import blank_sheet

ARC = "\u2312"  # in DejaVu Sans Mono, not in DejaVu Sans
CJK = "王芳"


def font_names(pdf: bytes) -> set[str]:
    doc = pikepdf.open(io.BytesIO(pdf))
    found: set[str] = set()
    for page in doc.pages:
        resources = [page.Resources]
        resources += [x.Resources for x in page.Resources.get("/XObject", {}).values()]
        for resource in resources:
            for font in resource.get("/Font", {}).values():
                descendant = font.DescendantFonts[0] if font.Subtype == "/Type0" else font
                assert "/FontFile2" in descendant.FontDescriptor
                found.add(str(font.BaseFont).split("+", 1)[1])
    return found


def test_font_files_are_the_bundled_faces() -> None:
    files = fonts.font_files()
    assert set(files) == {"regular", "bold"}
    assert files["regular"].name == "DejaVuSans.ttf"
    assert all(path.is_file() for path in files.values())


@pytest.mark.parametrize("name", ["Zoë", "Łukasz", "Jiří Dvořák", "Erdős", "Σοφία", "Дмитрий"])
def test_bundled_typeface_prints_european_scripts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_system_fonts(chars: object) -> list[fonts.SystemFont]:
        raise AssertionError("the bundled face should be enough")

    monkeypatch.setattr(fonts, "_system_fonts_covering", no_system_fonts)
    typeface = fonts.check_printable([name], "names")
    assert typeface == fonts.BUNDLED
    assert typeface.font_for(name) == fonts.REGULAR
    assert typeface.font_for(name, bold=True) == fonts.BOLD


@pytest.mark.parametrize(
    ("text", "described"),
    [
        ("Ann\ue000", "U+E000 (an unassigned or private character)"),
        ("Bo\u0378", "U+0378 (an unassigned or private character)"),
        ("王芳", "王 (U+738B)"),
    ],
)
def test_text_nothing_covers_is_refused(text: str, described: str) -> None:
    with pytest.raises(FontCoverageError) as caught:
        fonts.check_printable(["Bob", text], "names")
    message = str(caught.value)
    assert message.startswith("names: ")
    assert f"has {described}, which the bundled typeface cannot print" in message


def test_refused_name_writes_nothing(runner, tmp_path: Path, snapshot) -> None:
    before = snapshot(tmp_path)
    result = runner("sheet", "--names", "Ann,Bo\ue000b")
    assert result.exit_code == 1
    assert "U+E000" in result.output
    assert snapshot(tmp_path) == before


def test_with_no_system_font_offered_fontconfig_finds_none() -> None:
    if shutil.which("fc-list") is None:
        pytest.skip("needs fontconfig's fc-list")
    assert fonts._system_fonts_covering("王") == []
    assert fonts._system_fonts_covering("a") == []


@pytest.mark.parametrize("name", [f"Bob{ARC}", CJK], ids=["U+2312", "CJK"])
def test_system_font_covering_a_gap_is_embedded_for_that_name(
    name: str, system_fonts, runner
) -> None:  # type: ignore[no-untyped-def]
    font = machine_font_covering(name)
    if font is None:
        pytest.skip(f"no TrueType font on this machine covers all of {name}")
    system_fonts(font)
    typeface = fonts.check_printable(["Ann", name], "names")
    assert typeface.font_for(name).startswith(fonts.FALLBACK_PREFIX)
    assert typeface.font_for(name, bold=True).startswith(fonts.FALLBACK_PREFIX)
    assert typeface.font_for("Ann") == fonts.REGULAR
    pdf = blank_sheet(paper=paper("letter"), names=["Ann", name]).pdf
    names = font_names(pdf)
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= names
    assert any(found not in {"DejaVuSans", "DejaVuSans-Bold"} for found in names)
    # The command line finds the same font, through the same configuration.
    result = runner("sheet", "--names", f"Ann,{name}", "-o", "named.pdf")
    assert result.exit_code == 0, result.output
    assert font_names((runner.cwd / "named.pdf").read_bytes()) == names


def test_a_text_made_of_checked_names_is_drawn_in_their_font(system_fonts) -> None:  # type: ignore[no-untyped-def]
    font = machine_font_covering(CJK)
    if font is None:
        pytest.skip(f"no TrueType font on this machine covers {CJK}")
    system_fonts(font)
    typeface = fonts.check_printable(["Ann", CJK], "names")
    chosen = typeface.font_for(CJK)
    assert typeface.font_for(CJK[::-1]) == chosen  # a text the chosen font covers too
    assert fonts.BUNDLED.font_for(CJK) == fonts.REGULAR  # no choice is kept behind the scenes


def test_a_choice_made_for_one_test_is_not_kept_for_the_next(runner) -> None:  # type: ignore[no-untyped-def]
    """The font found when a CJK font was offered above is forgotten here, where none is."""
    with pytest.raises(FontCoverageError):
        fonts.check_printable([CJK], "names")
    result = runner("sheet", "--names", f"Ann,{CJK}")
    assert result.exit_code == 1
    assert "王 (U+738B), which the bundled typeface cannot print" in result.output


def test_blank_sheet_uses_no_font_but_the_bundled_one() -> None:
    pdf = blank_sheet(paper=paper("a4"), players=3).pdf
    assert font_names(pdf) == {"DejaVuSans", "DejaVuSans-Bold"}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("דוד", 'names: "דוד" is written right to left (ד (U+05D3))'),
        ("مريم", 'names: "مريم" is written right to left (م (U+0645))'),
        (
            "Jo \U0001f600",
            'names: "Jo \U0001f600" has \U0001f600 (U+1F600), which the score sheet cannot print',
        ),
        (
            "Bo\U000e0fff",
            "names: 'Bo\\U000e0fff' has U+E0FFF (an unassigned or private character), which the score sheet cannot print",
        ),
    ],
)
def test_right_to_left_and_astral_names_are_refused(name: str, message: str) -> None:
    with pytest.raises(FontCoverageError) as caught:
        fonts.check_printable([name], "names")
    assert str(caught.value).startswith(message)


def test_a_blank_sheet_stays_small() -> None:
    """Two font subsets and a grid: a blank sheet fits in 30 KB, easy to mail or keep."""
    pdf = blank_sheet(paper=paper("letter"), names=["Łukasz", "Σοφία", "Дмитрий", "Zoë"]).pdf
    assert len(pdf) <= 30 * 1024
