"""The rules booklet, read back from the PDF: pages, contents, toggles, fonts, safety, errors."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from pagecheck import chars_text, read_chars
from pypdf import PdfReader

import sheetgen.booklet.pdf
from sheetgen import __version__
from sheetgen.booklet import build as booklet
from sheetgen.booklet.build import build_booklet
from sheetgen.booklet.pdf import asset_path
from sheetgen.fonts import retagged
from sheetgen.game.houserules import resolve
from sheetgen.paper import A4, LETTER

# The module's booklets are rendered once: its tests run in one xdist worker.
pytestmark = pytest.mark.xdist_group("test_booklet")

NASTY = """# Snacks

<script>alert(1)</script>

<img src="file:///etc/passwd"> ![x](file:///etc/passwd) {{ 7*7 }}

## Who shuffles

The loser shuffles.
"""


class Rendered:
    """A booklet's bytes, its text per page and the URLs weasyprint asked for."""

    def __init__(self, pdf: bytes, fetched: list[str]) -> None:
        self.pdf = pdf
        self.fetched = fetched
        # Read with pdfium: the text is pdfplumber's; a character's box also takes in any
        # ink past its advance (a J's tail), so the margins are checked at least as strictly.
        read = read_chars(pdf)
        self.pages = [chars_text(chars) for chars, _, _ in read]
        self.sizes = [(width, height) for _, width, height in read]
        self.chars = [
            [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in chars] for chars, _, _ in read
        ]
        self.text = "\n".join(self.pages)


def render(rules: Any, paper: Any, extra: str | None = None) -> Rendered:
    fetched: list[str] = []
    original = sheetgen.booklet.pdf.asset_path

    def spy(url: str) -> Path:
        fetched.append(url)
        return original(url)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sheetgen.booklet.pdf, "asset_path", spy)
        pdf = build_booklet(rules, paper=paper, extra_markdown=extra)
    return Rendered(pdf, fetched)


@pytest.fixture(scope="module")
def official(booklet_pdf: Callable[..., bytes]) -> Rendered:
    """The run's shared official Letter booklet (what it fetches is read from ``toggled``,
    which this module renders itself)."""
    return Rendered(booklet_pdf("skip-bo", LETTER), [])


@pytest.fixture(scope="module")
def toggled() -> Rendered:
    rules = resolve(
        options={
            "stock": "10",
            "series": False,
            "partnerships": True,
            "deck": "standard",
            "must-play-stock": True,
            "no-wild-start": True,
            "first-player": "youngest",
        }
    )
    return render(rules, A4, extra=NASTY)


@pytest.fixture(scope="module")
def teams(booklet_pdf: Callable[..., bytes]) -> Rendered:
    """Three teams to 300 on Letter: the run's shared copy (a case of test_booklet_pages)."""
    return Rendered(booklet_pdf("skip-bo", LETTER, players=6, partnerships=True, target=300), [])


def words(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def test_page_size_follows_the_paper(official: Rendered, toggled: Rendered) -> None:
    for rendered, paper in ((official, LETTER), (toggled, A4)):
        for width, height in rendered.sizes[:-1] if rendered is official else rendered.sizes:
            assert (width, height) == pytest.approx(paper.portrait, abs=0.5)


def test_page_counts(official: Rendered, toggled: Rendered) -> None:
    assert 6 <= len(official.pages) <= 12
    assert 5 <= len(toggled.pages) <= 12


def test_last_page_is_the_landscape_score_sheet(official: Rendered, teams: Rendered) -> None:
    for rendered in (official, teams):
        width, height = rendered.sizes[-1]
        assert (width, height) == pytest.approx(LETTER.landscape, abs=0.5)
        assert "Skip-Bo score sheet" in rendered.pages[-1]
    assert "500" in official.pages[-1]
    assert "300" in teams.pages[-1]


def test_without_series_there_is_no_score_sheet(toggled: Rendered) -> None:
    assert all(width < height for width, height in toggled.sizes)
    assert "score sheet" not in toggled.text.lower()


def test_table_of_contents_gives_the_right_pages(official: Rendered) -> None:
    contents = official.pages[0]
    # The dots to each page number are drawn, not text.
    entries = re.findall(r"^(.+?)\s+(\d+)$", contents, flags=re.MULTILINE)
    titles = {title.strip(" ."): int(page) for title, page in entries}
    for title in (
        "What is in the box",
        "Setting up",
        "Building piles",
        "Scoring",
    ):
        page = titles[title]
        assert title in official.pages[page - 1]
    assert "Quick reference" in official.pages[-2]
    # The quick reference is named by its page: the score sheet comes after it.
    assert titles["Quick reference"] == len(official.pages) - 1
    assert re.search(r"^Score sheet[ .]+its own sheet$", contents, flags=re.MULTILINE)


def test_page_numbers_are_printed(official: Rendered) -> None:
    """Every page but the cover and the sheet: the flat quick reference has its folio too."""
    for number, text in enumerate(official.pages[1:-1], start=2):
        assert text.rstrip().splitlines()[-1].strip() == str(number)
    assert not official.pages[-1].rstrip().splitlines()[-1].strip().isdigit()


def test_bookmarks_and_metadata(official: Rendered) -> None:
    reader = PdfReader(io.BytesIO(official.pdf))
    top = [item["/Title"] for item in reader.outline if not isinstance(item, list)]
    assert top[:3] == ["What is in the box", "Setting up", "Your turn, step by step"]
    assert "Quick reference" in top and top[-1] == "Score sheet"
    assert any(isinstance(item, list) for item in reader.outline)
    meta = reader.metadata
    assert meta is not None
    assert meta.title == "Skip-Bo rules"
    assert meta.author == meta.creator == f"sheetgen {__version__}"
    assert reader.trailer["/Root"]["/Lang"] == "en"


def test_laying_the_sheet_in_keeps_info_and_xmp(official: Rendered) -> None:
    """The score sheet is added by rewriting the file; its /Info and XMP metadata stay."""
    with pikepdf.open(io.BytesIO(official.pdf)) as pdf:
        assert str(pdf.docinfo.Title) == "Skip-Bo rules"
        assert str(pdf.docinfo.Creator) == f"sheetgen {__version__}"
        assert str(pdf.docinfo.Producer).startswith("WeasyPrint")
        metadata = pdf.open_metadata()
        assert metadata["dc:title"] == "Skip-Bo rules"
        assert metadata["xmp:CreatorTool"] == f"sheetgen {__version__}"


def test_booklet_is_reproducible(
    monkeypatch: pytest.MonkeyPatch, booklet_pdf: Callable[..., bytes]
) -> None:
    """Made here, the booklet is byte for byte the run's shared copy (made by whichever
    test or worker asked first)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert retagged(build_booklet(resolve(), paper=A4)) == booklet_pdf("skip-bo", A4)


def _subsets(pdf: bytes) -> dict[str, str]:
    """Each font subset's name, by the name of its font program (to tell subsets apart)."""
    found = {}
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for item in document.objects:
            if isinstance(item, pikepdf.Dictionary) and item.get("/Type") == "/FontDescriptor":
                program = item.get("/FontFile2") or item.get("/FontFile3") or item.get("/FontFile")
                found[str(item.FontName)] = hashlib.sha256(program.read_raw_bytes()).hexdigest()
    return found


def test_each_booklet_tags_its_subsets_its_own_way(booklet_pdf: Callable[..., bytes]) -> None:
    """Print review 24, finding 8: every booklet gave a face's subsets one tag (RWLKBI+),
    whatever letters they held; a print shop merging two files may take one for the other.
    Subsets of different letters have different names, in every booklet and across them."""
    english, german = (_subsets(booklet_pdf("skip-bo", A4, lang=lang)) for lang in ("en", "de"))
    assert english and german
    for name in english.keys() & german.keys():
        assert english[name] == german[name], name
    assert not english.keys() & german.keys()
    assert all(re.fullmatch(r"/[A-Z]{6}\+.+", name) for name in english.keys() | german.keys())


def test_every_font_is_embedded_dejavu(official: Rendered) -> None:
    with pikepdf.open(io.BytesIO(official.pdf)) as pdf:
        fonts = [
            obj
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"
        ]
        assert fonts
        for font in fonts:
            assert "DejaVu" in str(font.BaseFont)
            if font.Subtype == "/Type0":
                font = font.DescendantFonts[0]
            descriptor = font.FontDescriptor
            assert any(key in descriptor for key in ("/FontFile2", "/FontFile3", "/FontFile"))


def test_margins_are_at_least_a_quarter_inch(official: Rendered, toggled: Rendered) -> None:
    quarter = 18
    for rendered in (official, toggled):
        for (width, height), chars in zip(rendered.sizes, rendered.chars, strict=True):
            for x0, top, x1, bottom in chars:
                assert x0 >= quarter and top >= quarter
                assert x1 <= width - quarter and bottom <= height - quarter


def test_official_text(official: Rendered) -> None:
    text = official.text
    # Who starts is the one thing the rule sheets disagree on: the box says what this table does.
    assert (
        "Rule sheets differ: some let the player on the dealer’s left start, others the "
        "youngest. This table lets the player on the dealer’s left start."
    ) in " ".join(text.split())
    assert "30 cards" in text and "42" in text and "475" in text
    assert "500" in text
    assert "Playing in partnerships" not in text
    assert "Counts as" not in text
    assert "The player on the dealer’s left takes the first turn" in text
    assert "Rule sheets differ" in text


@pytest.mark.parametrize(
    ("absent", "present"),
    [
        ("30", "ten cards"),
        ("500", "no points are kept"),
        ("25", "youngest player takes the first turn"),
        ("475", "Playing in partnerships"),
    ],
)
def test_toggles_change_every_sentence(toggled: Rendered, absent: str, present: str) -> None:
    # The house-rules box names the official size it replaces, and the single-games line the
    # points series it leaves out (the common questions name the published deal); nothing
    # else may.
    text = " ".join(toggled.text.split())
    for named in (
        "instead of 30",
        "The points series to 500, the published way",
        "which otherwise deal 30.",
    ):
        text = text.replace(named, "")
    assert absent not in words(text)
    assert present in text


@pytest.mark.parametrize(
    "section",
    ["Your partner’s piles", "The quiet partner", "When a team wins", "Cheating"],
)
def test_partnerships_add_the_team_sections(
    toggled: Rendered, teams: Rendered, section: str
) -> None:
    assert section in toggled.text and section in teams.text


def test_team_scoring_only_with_the_points_game(toggled: Rendered, teams: Rendered) -> None:
    assert "Team scoring" in teams.text
    assert "Team scoring" not in toggled.text


def test_standard_deck_adds_the_conversion_table(toggled: Rendered) -> None:
    text = toggled.text
    assert "Counts as" in text and "Jack 11" in text and "Queen 12" in text
    assert "King wild" in text


def test_house_rules_box_lists_the_differences(toggled: Rendered) -> None:
    cover = toggled.pages[0]
    assert "This table’s choices" in cover
    for sentence in (
        "10 cards instead of 30",
        "youngest player",
        "teams of two",
        "three standard",
        "it must be your next play",
        "turns up a new top card",
        "see “Snacks”",
    ):
        assert sentence in " ".join(cover.split())


def test_worked_example_is_computed_for_this_table(teams: Rendered) -> None:
    from sheetgen.game.scoring import Game, game_points, max_points
    from sheetgen.game.scoringrules import ScoringRules
    from sheetgen.game.seating import make_table

    table = make_table(
        ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"],
        stock=20,
        teams={"Team A": ["Ann", "Di"], "Team B": ["Bob", "Eve"], "Team C": ["Cy", "Fay"]},
    )
    left = {"Ann": 0, "Di": 0, "Bob": 5, "Cy": 8, "Eve": 2, "Fay": 10}
    scoring = ScoringRules(target=300)
    points = game_points(table, Game("Team A", left), scoring)
    text = " ".join(teams.text.split())
    assert f"Team A scores {points}" in text
    assert f"most one game can pay at this table is {max_points(table, scoring)} points" in text


def test_extra_markdown_is_shown_literally(toggled: Rendered) -> None:
    text = toggled.text
    assert "Snacks" in text and "Who shuffles" in text
    assert "<script>alert(1)</script>" in text
    assert '<img src="file:///etc/passwd">' in text
    assert "![x](file:///etc/passwd)" in text
    assert "{{ 7*7 }}" in text and "49" not in words(text)


def test_nothing_outside_the_package_is_fetched(toggled: Rendered) -> None:
    """The booklet with a table's own chapter that links files, pages and data."""
    from sheetgen.resources import fonts_dir

    fetched = toggled.fetched
    assert fetched
    assert all(url.startswith(fonts_dir().as_uri()) for url in fetched)


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "http://example.com/x.png", "data:text/plain,hi", "file:///"]
)
def test_the_fetcher_refuses_everything_else(url: str) -> None:
    with pytest.raises(PermissionError):
        asset_path(url)


@pytest.fixture
def no_render(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("bad input must be refused before rendering")

    monkeypatch.setattr(booklet, "build_booklet", refuse)
    yield


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "3", "--partnerships"],
            "--partnerships: teams of two need 4 or 6 players, not 3",
        ),
        (
            ["--players", "5", "--partnerships"],
            "--partnerships: teams of two need 4 or 6 players, not 5",
        ),
        (
            ["--stock", "40"],
            "--stock: 4 players cannot each be dealt a 40-card stock pile from a "
            "162-card deck: every player must still draw a first hand of 5; choose 1 to 35",
        ),
        (["--target", "0"], "--target: 0 points cannot win a series; give 1 or more"),
        (
            ["--preset", "speedy"],
            "--preset: Skip-Bo has no preset 'speedy'; choose family, official, short, strict",
        ),
        (["--house-rules", "missing.toml"], "missing.toml: no such house-rules file"),
        (
            ["--house-rules", "bad.toml"],
            "bad.toml: not valid TOML (Expected '=' after a key in "
            "a key/value pair (at line 1, column 7))",
        ),
        (
            ["--house-rules", "odd.toml"],
            "odd.toml, colour: does not apply to Skip-Bo; its settings are bonus, deck, "
            "extra, first-player, games-to-play, must-play-stock, no-wild-start, partnerships, "
            "per-card, players, scoring, series, stock, target",
        ),
        (
            ["--game", "skip-bo-board", "--partnerships"],
            "--partnerships: does not apply to "
            "Skip-Bo Board Game; its settings are extra, players, stock",
        ),
    ],
)
def test_bad_input_writes_nothing(
    runner, snapshot, no_render, args: list[str], message: str
) -> None:  # type: ignore[no-untyped-def]
    (runner.cwd / "bad.toml").write_text("stock 10\n", encoding="utf-8")
    (runner.cwd / "odd.toml").write_text("colour = 'red'\n", encoding="utf-8")
    before = snapshot(runner.cwd)
    result = runner("rules", *args)
    assert result.exit_code == 1
    assert result.output == f"Error: {message}\n"
    assert snapshot(runner.cwd) == before


def test_cli_writes_the_booklet(runner, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    seen: dict[str, Any] = {}

    def fake(rules: Any, *, paper: Any, **kwargs: Any) -> bytes:
        seen.update(rules=rules, paper=paper)
        return b"%PDF-fake"

    monkeypatch.setattr(booklet, "build_booklet", fake)
    monkeypatch.setattr(booklet, "retagged", lambda pdf: pdf)  # no fonts to tag
    (runner.cwd / "ours.toml").write_text("preset = 'short'\ntarget = 300\n", encoding="utf-8")
    result = runner("rules", "--house-rules", "ours.toml", "--target", "200", "--paper", "a4")
    assert result.exit_code == 0, result.output
    assert (runner.cwd / "output" / "rules-skip-bo-ours.pdf").read_bytes() == b"%PDF-fake"
    assert (seen["rules"].stock, seen["rules"].target, seen["paper"]) == (10, 200, A4)
    result = runner("rules", "-o", "-")
    assert result.exit_code == 0 and result.stdout_bytes == b"%PDF-fake"


def test_help_has_an_example(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner("rules", "--help")
    assert result.exit_code == 0
    assert "Example:" in result.output and "sheetgen rules --players 5" in result.output


def test_extra_nested_past_the_limit_is_refused_by_name(runner, tmp_path: Path) -> None:
    (tmp_path / "deep.md").write_text("*" * 600 + "deep" + "*" * 600 + "\n", encoding="utf-8")
    result = runner("rules", "--extra", "deep.md", "-o", "deep.pdf")
    assert result.exit_code == 1
    assert result.output == (
        "Error: deep.md: lists, quotes or emphasis are nested 302 levels deep; "
        "a booklet sets at most 32\n"
    )
    assert not (tmp_path / "deep.pdf").exists()


def test_a_booklet_run_ends_at_once_and_leaves_no_temporary_folder(
    tmp_path: Path, no_system_fonts: Path
) -> None:
    """`sheetgen rules` ends with its message on a pipe, and the folder weasyprint copies
    the fonts into is gone."""
    import os
    import subprocess
    import sys

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "FONTCONFIG_FILE": str(no_system_fonts)}
    done = subprocess.run(
        [sys.executable, "-m", "sheetgen", "rules", "--no-series", "-o", "rules.pdf"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"Wrote {tmp_path / 'rules.pdf'}\n"
    assert PdfReader(tmp_path / "rules.pdf").pages
    assert list(scratch.iterdir()) == []
