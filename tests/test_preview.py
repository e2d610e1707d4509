"""Preview images of a sheet's first page."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from sheetgen.errors import OutputError
from sheetgen.paper import paper
from sheetgen.preview import PREVIEW_DPI, in_format, pdf_to_png
from sheetgen.sheet.blank import blank_sheet


@pytest.fixture(scope="module")
def two_pages() -> bytes:
    return blank_sheet(paper=paper("letter"), players=2, copies=2).pdf


def test_png_of_first_page_has_landscape_proportions(two_pages: bytes) -> None:
    image = Image.open(io.BytesIO(pdf_to_png(two_pages, dpi=36)))
    assert image.format == "PNG"
    assert image.size == (396, 306)


def test_missing_page_is_refused(two_pages: bytes) -> None:
    with pytest.raises(OutputError, match="page 3 does not exist; the PDF has 2"):
        pdf_to_png(two_pages, page=2)


def test_in_format_gives_the_pdf_or_its_first_page_as_png(two_pages: bytes) -> None:
    assert in_format(two_pages, "pdf") is two_pages
    png = in_format(two_pages, "png")
    assert png == pdf_to_png(two_pages)
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (round(792 * PREVIEW_DPI / 72), round(612 * PREVIEW_DPI / 72))
