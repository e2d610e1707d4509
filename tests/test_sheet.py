"""The blank score sheet, read back from the PDF: page, text, positions, fonts, metadata, errors."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from sheetgen import __version__
from sheetgen.paper import paper
from sheetgen.sheet.blank import blank_sheet

EDGE = 18.0
LONG_NAMES = [
    "Maximilian-Alexander von Habsburg-Lothringen",
    "Bartholomew Featherstonehaugh",
    "Zoë",
    "Łukasz Wróblewski-Przybyszewski",
    "Σοφία Παπαδοπούλου",
    "Дмитрий Александрович Карамазов",
]
SIZES = {"letter": (792.0, 612.0), "a4": (841.89, 595.28)}


@pytest.fixture(scope="module")
def six_long() -> dict[str, bytes]:
    return {name: blank_sheet(paper=paper(name), names=LONG_NAMES).pdf for name in SIZES}


@pytest.fixture(scope="module")
def two_teams() -> bytes:
    return blank_sheet(paper=paper("a4"), teams={"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]}).pdf


def words(pdf: bytes, page: int = 0) -> list[dict[str, object]]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return list(doc.pages[page].extract_words(keep_blank_chars=True, use_text_flow=True))


def page_text(pdf: bytes, page: int = 0) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return doc.pages[page].extract_text() or ""


@pytest.mark.parametrize("name", SIZES)
def test_page_is_landscape_at_the_paper_size(six_long: dict[str, bytes], name: str) -> None:
    with pdfplumber.open(io.BytesIO(six_long[name])) as doc:
        assert len(doc.pages) == 1
        page = doc.pages[0]
        assert (round(page.width, 2), round(page.height, 2)) == SIZES[name]
        assert page.width > page.height


@pytest.mark.parametrize("name", SIZES)
def test_names_game_numbers_and_target_extract(six_long: dict[str, bytes], name: str) -> None:
    text = page_text(six_long[name])
    lines = [line.strip() for line in text.splitlines()]
    for number in range(1, 11):
        assert str(number) in lines
    assert "Target: 500 points. The first to reach 500 wins the series." in text
    flat = " ".join(text.split())
    for long_name in LONG_NAMES:
        # A name may wrap at a space or after a hyphen; the cell test reads it whole.
        for part in re.split(r"(?<=-)| ", long_name):
            assert part in flat
    assert "winner gets 25, and 5 more per card" in flat


@pytest.mark.parametrize("name", SIZES)
def test_every_mark_is_18pt_from_every_edge(six_long: dict[str, bytes], name: str) -> None:
    with pdfplumber.open(io.BytesIO(six_long[name])) as doc:
        page = doc.pages[0]
        objects = page.chars + page.lines + page.rects + page.curves
        assert objects
        for item in objects:
            assert item["x0"] >= EDGE and item["top"] >= EDGE
            assert page.width - item["x1"] >= EDGE and page.height - item["bottom"] >= EDGE


@pytest.mark.parametrize("name", SIZES)
def test_long_names_stay_inside_their_cells(six_long: dict[str, bytes], name: str) -> None:
    with pdfplumber.open(io.BytesIO(six_long[name])) as doc:
        page = doc.pages[0]
        heads = sorted(
            (w for w in page.extract_words() if w["text"] == "Points"), key=lambda w: w["x0"]
        )
        assert len(heads) == 6
        # The heavy vertical rules part the sides; the name row sits above the sub-headings.
        edges = sorted(
            {
                round(line["x0"], 2)
                for line in page.lines
                if line["x0"] == line["x1"] and line["linewidth"] > 1
            }
        )
        sides = list(itertools.pairwise(edges[1:]))
        assert len(sides) == 6
        row_top = max(
            line["top"]
            for line in page.lines
            if line["linewidth"] > 1.3
            and line["top"] < heads[0]["top"]
            and line["x0"] != line["x1"]
        )
        name_chars = [c for c in page.chars if row_top < c["top"] < heads[0]["top"] - 1]
        for (left, right), long_name in zip(sides, LONG_NAMES, strict=True):
            mine = [c for c in name_chars if left < (c["x0"] + c["x1"]) / 2 < right]
            spelled = "".join(
                c["text"] for c in sorted(mine, key=lambda c: (round(c["top"]), c["x0"]))
            )
            assert spelled.replace(" ", "") == long_name.replace(" ", "")
            for char in mine:
                assert left < char["x0"] and char["x1"] < right
        sizes = {round(char["size"], 2) for char in name_chars}
        assert len(sizes) == 1 and min(sizes) >= 8  # the whole row at one readable size


def test_team_sheet_names_both_partners(two_teams: bytes) -> None:
    text = " ".join(page_text(two_teams).split())
    assert "Red" in text and "Blue" in text
    assert "Ann + Cy" in text and "Bob + Di" in text
    assert "other team’s stock piles; the losing team gets 0" in text


def test_fonts_are_embedded_subsets_only(six_long: dict[str, bytes]) -> None:
    pdf = pikepdf.open(io.BytesIO(six_long["letter"]))
    fonts = []
    for page in pdf.pages:
        resources = [page.Resources]
        for xobject in page.Resources.get("/XObject", {}).values():
            resources.append(xobject.Resources)
        for resource in resources:
            fonts.extend(resource.get("/Font", {}).values())
    assert fonts
    for font in fonts:
        assert re.fullmatch(r"/[A-Z]{6}\+DejaVuSans(-Bold)?", str(font.BaseFont))
        descendant = font.DescendantFonts[0] if font.Subtype == "/Type0" else font
        assert "/FontFile2" in descendant.FontDescriptor


def _subset_names(pdf_bytes: bytes) -> set[str]:
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    names = set()
    for page in pdf.pages:
        for font in page.Resources.get("/Font", {}).values():
            descendant = font.DescendantFonts[0] if font.Subtype == "/Type0" else font
            assert descendant.FontDescriptor.FontName == font.BaseFont
            names.add(str(font.BaseFont))
    return names


def test_each_document_tags_its_subsets_its_own_way(six_long: dict[str, bytes]) -> None:
    """Print review 22, finding 14: reportlab tags every subset AAAAAA+, so a print shop
    merging two sheets takes two different subsets under one name."""
    letter, a4 = _subset_names(six_long["letter"]), _subset_names(six_long["a4"])
    assert len(letter) == 2 and len(a4) == 2
    assert not any(name.startswith("/AAAAAA+") for name in letter | a4)
    assert not letter & a4


def test_metadata_and_print_at_actual_size(six_long: dict[str, bytes]) -> None:
    pdf = pikepdf.open(io.BytesIO(six_long["a4"]))
    info = pdf.docinfo
    assert str(info["/Title"]) == "Skip-Bo score sheet"
    assert "500" in str(info["/Subject"])
    assert str(info["/Creator"]) == f"sheetgen {__version__}"
    assert pdf.Root.ViewerPreferences.PrintScaling == "/None"


def test_source_date_epoch_gives_identical_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first = blank_sheet(paper=paper("letter"), names=["Ann", "Bob"]).pdf
    second = blank_sheet(paper=paper("letter"), names=["Ann", "Bob"]).pdf
    assert first == second
    assert b"D:20231114" in first


def test_more_games_than_fit_continue_with_totals_brought_forward() -> None:
    pdf = blank_sheet(paper=paper("letter"), players=3, games=30, copies=2).pdf
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == 4
        second = doc.pages[1].extract_text() or ""
    assert "Brought" in second and "forward" in second
    lines = [line.strip() for line in second.splitlines()]
    assert "30" in lines and "1" not in lines


def test_cli_writes_default_path_and_reports_it(runner, tmp_path: Path) -> None:
    result = runner("sheet", "--names", "Ann,Bob", "--paper", "a4")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "output" / "score-sheet.pdf"
    assert result.output == f"Wrote {pdf}\n"
    with pdfplumber.open(pdf) as doc:
        assert round(doc.pages[0].width) == 842


def test_cli_writes_pdf_to_standard_output(runner, tmp_path: Path) -> None:
    result = runner("sheet", "--players", "2", "-o", "-", "--paper", "letter")
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"%PDF-")
    assert not (tmp_path / "output").exists()


def test_cli_png_preview(runner, tmp_path: Path) -> None:
    result = runner("sheet", "--format", "png", "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "score-sheet.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--names", "A,B,C,D,E,F,G"],
            "Error: players: Skip-Bo is played by 2 to 6 players, not 7",
        ),
        (["--names", "Ann,,Bob"], "Error: players, player 2: a name cannot be blank"),
        (
            ["--names", "Ann,Bob,Ann"],
            "Error: players: Ann is listed twice; every name must be unique",
        ),
        (
            ["--teams", "Red=Ann+Cy,Blue=Bob"],
            "Error: teams: teams of two need 4 or 6 players, not 3",
        ),
        (
            ["--teams", "Red=Ann+Cy,Blue=Bob+Di,Gold=Ed"],
            "Error: teams: teams of two need 4 or 6 players, not 5",
        ),
        (
            ["--teams", "2", "--players", "5"],
            "Error: teams: teams of two need 4 or 6 players, not 5",
        ),
        (["--teams", "4"], "Error: teams: 4 teams cannot sit at one Skip-Bo table; choose 2 or 3"),
        (
            ["--names", "Ann,Bob", "--players", "3"],
            "Error: names: 2 names given, but --players asks for 3",
        ),
        (["--games", "0"], "Error: Invalid value for '--games': 0 is not in the range 1<=x<=200."),
        (["--target", "-5"], "Error: Invalid value for '--target': -5 is not in the range x>=1."),
        (
            ["--players", "7"],
            "Error: players: Skip-Bo is played by 2 to 6 players, not 7",
        ),
        (
            ["--paper", "legal"],
            "Error: Invalid value for '--paper': 'legal' is not one of 'letter', 'a4'.",
        ),
        (
            ["--names", "Ann,王芳"],
            'Error: names: "王芳" has 王 (U+738B), which the bundled typeface cannot print and '
            "no font on this system covers; spell it in Latin, Greek or Cyrillic letters",
        ),
    ],
)
def test_bad_input_is_refused_and_nothing_written(
    runner, tmp_path: Path, snapshot, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sheetgen.fonts._system_fonts_covering", lambda chars: [])
    before = snapshot(tmp_path)
    result = runner("sheet", *args, "-o", "out.pdf")
    assert result.exit_code != 0
    assert result.output.strip().splitlines()[-1] == message
    assert "Traceback" not in result.output
    assert snapshot(tmp_path) == before


def test_help_has_an_example(runner) -> None:
    result = runner("sheet", "--help")
    assert result.exit_code == 0
    assert "Example:" in result.output
    assert "sheetgen sheet --names" in result.output


def test_reminder_follows_the_games_own_figures_and_words() -> None:
    from sheetgen.game.definition import load_game
    from sheetgen.game.scoringrules import ScoringRules

    pdf = blank_sheet(
        paper=paper("letter"),
        game=load_game("spite-and-malice"),
        scoring=ScoringRules(bonus=10, per_card=2, target=100),
        players=2,
    ).pdf
    text = " ".join(page_text(pdf).split())
    assert "winner gets 10, and 2 more per card still in the other player’s pay-off pile" in text
    assert "Target: 100 points." in text
