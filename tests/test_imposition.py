"""Saddle-stitch imposition: read the imposed sheets back and fold them to prove the order."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pdfplumber
import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pdfcheck import check_pdf_structure, marks_near_edge
from PIL import Image
from pypdf import PdfReader, PdfWriter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from sheetgen.booklet import build as booklet
from sheetgen.booklet.build import rules_document
from sheetgen.booklet.imposition import (
    HALF_PAPERS,
    Sheet,
    half_paper,
    impose_saddle_stitch,
    padded_pages,
    saddle_stitch_order,
)
from sheetgen.errors import ChoiceError
from sheetgen.game.houserules import resolve
from sheetgen.paper import A4, LETTER, Paper
from sheetgen.preview import PREVIEW_DPI
from sheetgen.resources import fonts_dir

MARGIN = 20.0  # the frame drawn on each test page, just over 0.25 in from its edges
LABEL = re.compile(r"^p(\d+)$")
FOOT = 0.8 * 72  # the booklet's bottom margin, where its page numbers sit

pdfmetrics.registerFont(TTFont("DejaVuSans", str(fonts_dir() / "DejaVuSans.ttf")))


def numbered_pdf(
    count: int, size: tuple[float, float], *, link: bool = False, margin: float = MARGIN
) -> bytes:
    """A PDF of ``count`` pages, each framed just inside 0.25 in and labelled p1, p2, ..."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=size, initialFontName="DejaVuSans")
    page.setTitle("Numbered pages")
    width, height = size
    for number in range(1, count + 1):
        page.setFont("DejaVuSans", 40)
        page.drawCentredString(width / 2, height / 2, f"p{number}")
        page.rect(margin, margin, width - 2 * margin, height - 2 * margin)
        if link:
            page.linkURL("https://example.org/", (40, 40, 90, 60))
        page.showPage()
    page.save()
    return out.getvalue()


def read_sides(
    pdf_bytes: bytes, number: Callable[[dict[str, Any], float], int | None] | None = None
) -> list[tuple[int | None, int | None]]:
    """For each printed side: the page number found on its left half and on its right half.

    ``number`` reads a page number from a word (given the side's height); by
    default it reads the labels p1, p2, ... of ``numbered_pdf``.
    """
    read = number or _label
    sides = []
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        for page in pdf.pages:
            halves: list[int | None] = [None, None]
            for word in page.extract_words():
                found = read(word, float(page.height))
                if found is not None:
                    half = 0 if (word["x0"] + word["x1"]) / 2 < page.width / 2 else 1
                    assert halves[half] is None, f"two pages on one half of side {page}"
                    halves[half] = found
            sides.append((halves[0], halves[1]))
    return sides


def _label(word: dict[str, Any], height: float) -> int | None:
    label = LABEL.match(word["text"])
    return int(label.group(1)) if label else None


def _foot_number(word: dict[str, Any], height: float) -> int | None:
    """The booklet's page number, set in the bottom margin of each half page."""
    foot = word["top"] > height - FOOT and word["text"].isdigit()
    return int(word["text"]) if foot else None


def fold(sheets: list[Sheet]) -> list[int | None]:
    """Stack the printed sheets as they leave the printer, fold once, and leaf through.

    Going in, each sheet shows the right half of its front, then (turned over)
    the left half of its back; past the centre spread, coming back out, the
    right half of its back and then the left half of its front.
    """
    going_in = [page for s in sheets for page in (s.front_right, s.back_left)]
    coming_out = [page for s in reversed(sheets) for page in (s.back_right, s.front_left)]
    return going_in + coming_out


def expected_reading(count: int) -> list[int | None]:
    """Pages 1..count in order, blanks to a multiple of four just before the back cover."""
    blanks = [None] * (-count % 4)
    if count == 1:
        return [1, *blanks]
    return [*range(1, count), *blanks, count]


def sheets_from_sides(sides: list[tuple[int | None, int | None]]) -> list[Sheet]:
    assert len(sides) % 2 == 0
    return [
        Sheet(front[0], front[1], back[0], back[1])
        for front, back in zip(sides[::2], sides[1::2], strict=True)
    ]


@given(st.integers(min_value=1, max_value=400))
def test_folded_sheets_read_in_page_order(count: int) -> None:
    assert fold(saddle_stitch_order(count)) == expected_reading(count)


@given(st.integers(min_value=1, max_value=400))
def test_padding_fills_whole_sheets_and_keeps_the_back_cover(count: int) -> None:
    pages = padded_pages(count)
    assert len(pages) % 4 == 0
    assert len(pages) - count < 4
    assert [page for page in pages if page is not None] == list(range(1, count + 1))
    assert pages[0] == 1
    if count > 1:
        assert pages[-1] == count


def test_a_booklet_needs_a_page() -> None:
    with pytest.raises(ValueError, match="at least one page"):
        saddle_stitch_order(0)


@pytest.mark.parametrize(
    ("count", "sheets"),
    [
        (4, [Sheet(4, 1, 2, 3)]),
        (5, [Sheet(5, 1, 2, None), Sheet(None, 3, 4, None)]),
        (8, [Sheet(8, 1, 2, 7), Sheet(6, 3, 4, 5)]),
    ],
)
def test_order_of_small_booklets(count: int, sheets: list[Sheet]) -> None:
    assert saddle_stitch_order(count) == sheets


@pytest.mark.parametrize("sheet", [A4, LETTER], ids=lambda paper: paper.name)
@pytest.mark.parametrize("count", [1, 2, 3, 4, 6, 7, 9, 12])
def test_imposed_pdf_folds_into_the_booklet(sheet: Paper, count: int) -> None:
    half = half_paper(sheet)
    imposed = impose_saddle_stitch(numbered_pdf(count, half.portrait), sheet)
    sides = read_sides(imposed)
    assert len(sides) == 2 * -(-count // 4)
    assert fold(sheets_from_sides(sides)) == expected_reading(count)


@pytest.fixture(scope="module", params=[A4, LETTER], ids=lambda paper: paper.name)
def seven_pages(request: pytest.FixtureRequest) -> tuple[Paper, bytes]:
    sheet: Paper = request.param
    writer = PdfWriter()
    writer.append(io.BytesIO(numbered_pdf(7, half_paper(sheet).portrait, link=True)))
    writer.append(io.BytesIO(numbered_pdf(1, sheet.landscape)))  # the score sheet
    writer.add_metadata({"/Title": "Numbered pages"})
    source = io.BytesIO()
    writer.write(source)
    return sheet, impose_saddle_stitch(source.getvalue(), sheet)


def test_sides_are_landscape_sheets_of_the_paper(seven_pages: tuple[Paper, bytes]) -> None:
    sheet, imposed = seven_pages
    for page in PdfReader(io.BytesIO(imposed)).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            sheet.landscape, abs=0.01
        )


def test_half_pages_sit_at_full_scale_in_their_halves(seven_pages: tuple[Paper, bytes]) -> None:
    sheet, imposed = seven_pages
    half = half_paper(sheet)
    slot = sheet.height / 2
    gutter = (slot - half.width) / 2  # A5 is a hair narrower than half of A4
    with pdfplumber.open(io.BytesIO(imposed)) as pdf:
        frames = sorted((rect["x0"], rect["top"], rect["width"]) for rect in pdf.pages[0].rects)
    assert frames[0] == pytest.approx((gutter + MARGIN, MARGIN, half.width - 2 * MARGIN))
    assert frames[1] == pytest.approx((slot + gutter + MARGIN, MARGIN, half.width - 2 * MARGIN))


def test_no_marks_near_the_sheet_edges(seven_pages: tuple[Paper, bytes]) -> None:
    _, imposed = seven_pages
    assert marks_near_edge(imposed) == []


def test_marks_near_the_edge_are_found() -> None:
    """Each half's frame, drawn 9 pt inside its page (8 pt with its line), is found where
    imposing put it: an object inside a form is carried to the sheet by the form's matrix,
    so the right half's frame is found at 404 pt, not at 8 pt."""
    imposed = impose_saddle_stitch(
        numbered_pdf(2, HALF_PAPERS["letter"].portrait, margin=9), LETTER
    )
    assert marks_near_edge(imposed) == [
        "page 1: drawing at (8.0, 8.0)",
        "page 1: drawing at (404.0, 8.0)",
    ]
    # Text too: a word set 5 pt from the left edge, 20 pt below the top.
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=LETTER.portrait)
    page.drawString(5, LETTER.portrait[1] - 20, "edge")
    page.drawString(100, 400, "clear")
    page.save()
    # Each letter of the word by its font's box (from its advance, not its ink), then the
    # run by its ink; nothing of the word in the middle of the page.
    assert marks_near_edge(out.getvalue()) == [
        "page 1: text at (5.0, 8.7)",
        "page 1: text at (11.7, 8.7)",
        "page 1: text at (18.3, 8.7)",
        "page 1: text at (25.0, 8.7)",
        "page 1: text at (5.5, 11.4)",
    ]
    # The same word drawn again 6 pt further out, as fake bold is, past the margin: pdfium's
    # text page keeps only the first of the two, and the second is still found, as a run.
    bold = io.BytesIO()
    page = canvas.Canvas(bold, pagesize=LETTER.portrait)
    page.drawString(21, 400, "bold")
    page.drawString(15, 400, "bold")
    page.save()
    assert [mark[:23] for mark in marks_near_edge(bold.getvalue())] == ["page 1: text at (15.7, "]
    # A page turned by /Rotate keeps its objects where they stand: a frame 5 pt inside the
    # right edge of an upright Letter page is found once the page is turned.
    turned = io.BytesIO()
    page = canvas.Canvas(turned, pagesize=LETTER.portrait)
    page.rect(LETTER.portrait[0] - 55, 300, 50, 50)
    page.save()
    with pikepdf.open(io.BytesIO(turned.getvalue())) as document:
        document.pages[0].Rotate = 90
        rotated = io.BytesIO()
        document.save(rotated)
    assert marks_near_edge(rotated.getvalue()) == ["page 1: drawing at (556.0, 441.0)"]


def test_score_sheet_follows_on_its_own_full_sheet(seven_pages: tuple[Paper, bytes]) -> None:
    _, imposed = seven_pages
    sides = read_sides(imposed)
    assert len(sides) == 5
    assert fold(sheets_from_sides(sides[:4])) == [1, 2, 3, 4, 5, 6, None, 7]
    with pdfplumber.open(io.BytesIO(imposed)) as pdf:
        last = pdf.pages[-1]
        (label,) = last.extract_words()
    assert label["text"] == "p1"
    assert (label["x0"] + label["x1"]) / 2 == pytest.approx(last.width / 2, abs=1)


def test_fonts_stay_embedded_and_title_stays(seven_pages: tuple[Paper, bytes]) -> None:
    _, imposed = seven_pages
    structure = check_pdf_structure(imposed)
    assert structure.fonts == {"DejaVuSans": True}
    assert PdfReader(io.BytesIO(imposed)).metadata.title == "Numbered pages"


def test_links_to_the_source_pages_are_dropped(seven_pages: tuple[Paper, bytes]) -> None:
    _, imposed = seven_pages
    assert all("/Annots" not in page for page in PdfReader(io.BytesIO(imposed)).pages)


def test_a_page_too_big_for_its_half_is_shrunk_to_fit() -> None:
    imposed = impose_saddle_stitch(numbered_pdf(4, A4.portrait), A4)
    scale = min(A4.height / 2 / A4.width, A4.width / A4.height)
    half_width = A4.height / 2
    with pdfplumber.open(io.BytesIO(imposed)) as pdf:
        frames = [rect for page in pdf.pages for rect in page.rects]
    assert len(frames) == 4
    for rect in frames:
        assert rect["height"] == pytest.approx((A4.height - 2 * MARGIN) * scale, abs=0.01)
        assert rect["top"] >= 0 and rect["bottom"] <= A4.width
        assert rect["x1"] <= half_width or rect["x0"] >= half_width
    assert fold(sheets_from_sides(read_sides(imposed))) == [1, 2, 3, 4]


def test_unknown_paper_cannot_be_folded() -> None:
    legal = Paper("legal", 612, 1008)
    with pytest.raises(ChoiceError) as caught:
        impose_saddle_stitch(numbered_pdf(4, HALF_PAPERS["letter"].portrait), legal)
    assert str(caught.value) == (
        "paper: a booklet cannot be folded from 'legal' paper; choose a4 or letter"
    )


@pytest.fixture(scope="module")
def letter_booklet(booklet_pdf: Callable[..., bytes]) -> bytes:
    return booklet_pdf("skip-bo", LETTER, "booklet")


def test_real_booklet_folds_into_page_order(letter_booklet: bytes) -> None:
    reader = PdfReader(io.BytesIO(letter_booklet))
    *sides, score_sheet = reader.pages
    assert all(
        (float(side.mediabox.width), float(side.mediabox.height))
        == pytest.approx(LETTER.landscape, abs=0.5)
        for side in [*sides, score_sheet]
    )
    assert "score sheet" in score_sheet.extract_text()
    pages = fold(sheets_from_sides(read_sides(letter_booklet, _foot_number)[:-1]))
    last = max(page for page in pages if page is not None)
    expected = expected_reading(last + 1)
    expected[0] = None  # the covers carry no page number
    expected[-1] = None
    assert pages == expected


def test_real_booklet_keeps_clear_of_the_paper_edge(letter_booklet: bytes) -> None:
    assert marks_near_edge(letter_booklet) == []


def test_real_booklet_has_the_printing_guidance(
    letter_booklet: bytes, booklet_pdf: Callable[..., bytes]
) -> None:
    """The printing box says how to print the sheets both ways, by the file's pages (each
    side of a sheet carries two of the booklet's page numbers); the score sheet, the file's
    last page, is left out of the two-sided run and of the odd and even runs by hand, or it
    takes a back meant for a sheet of the booklet or is folded in with it (print reviews 21
    and 22)."""

    def said(pdf: bytes) -> tuple[str, int]:
        pages = PdfReader(io.BytesIO(pdf)).pages
        text = "\n".join(page.extract_text() for page in pages)
        text = re.sub("[-\u2010]\n(?=[a-zäöüß])", "", text)  # hyphenated at a line's end
        return " ".join(text.replace("\N{NO-BREAK SPACE}", " ").split()), len(pages)

    # The box names the file's pages as they come out (print review 23: "every page but the
    # last" and "1, 3, 5 and so on" left the reader to count them, and a print dialog's odd
    # pages would have taken the score sheet too); by hand the stack goes back turned over
    # on the short edge, as the two-sided run is flipped (print review 23: a printer's
    # manual shows the turn for the long edge, which sets these backs upside down), and is
    # tried with two sheets first (print review 24: one sheet shows no wrong order of the
    # stack).
    english = (
        "Printing these rules",
        "Print pages 1–{sides} of this file on both sides, flipped on the short edge.",
        "print the odd pages of 1–{sides}, put the stack back in turned over on its short edge",
        "(the printer’s manual shows which side up), then the even ones.",
        "Page {count}, the score sheet, is a landscape sheet of its own",
        "Try it with two sheets first.",
    )
    german = (
        "Seiten 1–{sides} dieser Datei beidseitig drucken",
        "erst die ungeraden Seiten von 1–{sides} drucken, Stapel über die kurze Kante gewendet",
        "dann die geraden.",
        "Seite {count}, der Spielblock im Querformat, wird einseitig gedruckt",
        "Erst mit zwei Blättern probieren.",
    )
    german_pdf = booklet_pdf("skip-bo", LETTER, "booklet", lang="de")
    for pdf, phrases in ((letter_booklet, english), (german_pdf, german)):
        text, count = said(pdf)
        assert count % 2 == 1  # the sheets' sides pair up, the score sheet after them
        for phrase in phrases:
            assert phrase.format(sides=count - 1, count=count) in text
    # Without a score sheet, every page is a side of the booklet.
    plain, count = said(booklet_pdf("skip-bo", LETTER, "booklet", series=False))
    assert count % 2 == 0
    assert f"Print pages 1–{count} of this file on both sides" in plain
    assert f"print the odd pages of 1–{count}, put" in plain
    assert "score sheet, is" not in plain
    # A booklet of whole pages prints all but its last page, the score sheet, as before.
    flat, count = said(booklet_pdf("skip-bo", LETTER, "pages"))
    assert "Print every page of this file but the last one-sided, or both sides" in flat
    assert "The last page, the score sheet, is a landscape sheet of its own" in flat


def fake_booklet(
    rules: Any, *, paper: Paper, page_size_override: Any = None, lang: Any = None
) -> bytes:
    """Five numbered pages at the size asked for, in place of a weasyprint render."""
    return numbered_pdf(5, page_size_override or paper.portrait)


@pytest.mark.parametrize(
    ("args", "size", "sides"),
    [
        ([], LETTER.portrait, 5),
        (["--layout", "pages"], LETTER.portrait, 5),
        (["--layout", "booklet"], LETTER.landscape, 4),
    ],
)
def test_cli_layouts(runner, monkeypatch, args: list[str], size: Any, sides: int) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(booklet, "build_booklet", fake_booklet)
    result = runner("rules", "--paper", "letter", *args)
    assert result.exit_code == 0, result.output
    name = "rules-skip-bo-booklet.pdf" if "booklet" in args else "rules-skip-bo.pdf"
    written = (runner.cwd / "output" / name).read_bytes()
    pages = PdfReader(io.BytesIO(written)).pages
    assert len(pages) == sides
    assert (float(pages[0].mediabox.width), float(pages[0].mediabox.height)) == pytest.approx(size)


@pytest.mark.parametrize(("layout", "size"), [("pages", (612, 792)), ("booklet", (792, 612))])
def test_cli_png_previews_the_first_sheet(runner, monkeypatch, layout: str, size: Any) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(booklet, "build_booklet", fake_booklet)
    result = runner("rules", "--paper", "letter", "--layout", layout, "--format", "png")
    assert result.exit_code == 0, result.output
    name = "rules-skip-bo-booklet.png" if layout == "booklet" else "rules-skip-bo.png"
    assert result.output == f"Wrote {runner.cwd / 'output' / name}\n"
    with Image.open(runner.cwd / "output" / name) as image:
        assert image.size == (round(size[0] * PREVIEW_DPI / 72), round(size[1] * PREVIEW_DPI / 72))


def test_cli_refuses_an_unknown_layout(runner, snapshot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(booklet, "build_booklet", fake_booklet)
    before = snapshot(runner.cwd)
    result = runner("rules", "--layout", "zine")
    assert result.exit_code == 2
    assert "Invalid value for '--layout': 'zine' is not one of 'pages', 'booklet'." in result.output
    assert snapshot(runner.cwd) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"layout": "zine"}, "layout: 'zine' is not a layout; choose pages or booklet"),
        ({"fmt": "gif"}, "format: 'gif' is not a format; choose pdf, png or html"),
        (
            {"layout": "booklet", "paper": Paper("legal", 612, 1008)},
            "paper: a booklet cannot be folded from 'legal' paper; choose a4 or letter",
        ),
    ],
)
def test_rules_document_refuses_before_rendering(monkeypatch, kwargs: Any, message: str) -> None:  # type: ignore[no-untyped-def]
    def refuse(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("bad input must be refused before rendering")

    monkeypatch.setattr(booklet, "build_booklet", refuse)
    with pytest.raises(ChoiceError) as caught:
        rules_document(resolve(), **{"paper": LETTER, **kwargs})
    assert str(caught.value) == message
