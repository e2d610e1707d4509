"""Lay a booklet's half-size pages two to a side on sheets of paper, in saddle-stitch order.

Print the result double-sided, flipped on the short edge, fold the stack once
down the middle and staple on the fold: the pages then read 1, 2, 3, ...
Pages that need a whole sheet (the score sheet at the end of the rules) come
after the folded sheets, at full size, one to a sheet.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject

from sheetgen.errors import ChoiceError
from sheetgen.paper import A4, LETTER, POINTS_PER_INCH, POINTS_PER_MM, Paper

PAGES_PER_SHEET = 4
# Size tolerance for "fits", so rounding in a PDF's MediaBox never causes a scale-down.
FIT_SLACK = 0.5

HALF_PAPERS: dict[str, Paper] = {
    LETTER.name: Paper("half-letter", 5.5 * POINTS_PER_INCH, 8.5 * POINTS_PER_INCH),
    A4.name: Paper("a5", 148 * POINTS_PER_MM, 210 * POINTS_PER_MM),
}


@dataclass(frozen=True)
class Sheet:
    """One sheet of a saddle-stitched booklet: the page on each half of each side.

    Pages are numbered from 1 in reading order; ``None`` is a blank half. The
    front is the side that faces out when the stack is folded.
    """

    front_left: int | None
    front_right: int | None
    back_left: int | None
    back_right: int | None


def half_paper(sheet: Paper) -> Paper:
    """The page size of a booklet folded from ``sheet``: A5 from A4, half-letter from Letter."""
    try:
        return HALF_PAPERS[sheet.name]
    except KeyError:
        raise ChoiceError(
            f"paper: a booklet cannot be folded from {sheet.name!r} paper; "
            f"choose {' or '.join(sorted(HALF_PAPERS))}"
        ) from None


def padded_pages(pages: int) -> list[int | None]:
    """The booklet's pages in reading order, padded with blanks to fill whole sheets.

    The blanks go just before the last page, so that page stays the back cover.
    A one-page booklet is a cover followed by blanks.
    """
    if pages < 1:
        raise ValueError(f"a booklet needs at least one page, not {pages}")
    blanks = -pages % PAGES_PER_SHEET
    numbers: list[int | None] = list(range(1, pages + 1))
    if pages == 1:
        return [*numbers, *[None] * blanks]
    return [*numbers[:-1], *[None] * blanks, numbers[-1]]


def saddle_stitch_order(pages: int) -> list[Sheet]:
    """Which page goes on each half of each sheet, outermost sheet first.

    The sheets are printed double-sided, flipped on the short edge, so the
    page printed on the back of a half is the next or previous page of the
    one on its front.
    """
    slots = padded_pages(pages)
    last = len(slots) - 1
    return [
        Sheet(
            front_left=slots[last - 2 * k],
            front_right=slots[2 * k],
            back_left=slots[2 * k + 1],
            back_right=slots[last - 2 * k - 1],
        )
        for k in range(len(slots) // PAGES_PER_SHEET)
    ]


def impose_saddle_stitch(
    pdf_bytes: bytes, sheet: Paper, *, extra_pages: bytes | None = None
) -> bytes:
    """Impose the half-size pages of ``pdf_bytes`` on landscape ``sheet`` paper.

    Each side of a sheet carries two pages at full scale (a page too big for
    its half is shrunk to fit, keeping its proportions, and centred). Every
    page of ``extra_pages`` follows the folded sheets unchanged, one to a
    sheet. Links, bookmarks and the structure tree of the source refer to its
    own pages, so the imposed document carries none of them; the document
    information (title, author) is kept.
    """
    half_paper(sheet)
    source = PdfReader(io.BytesIO(pdf_bytes))
    writer = PdfWriter()
    width, height = sheet.landscape
    for printed in saddle_stitch_order(len(source.pages)):
        for left, right in (
            (printed.front_left, printed.front_right),
            (printed.back_left, printed.back_right),
        ):
            side = writer.add_blank_page(width, height)
            for offset, number in ((0.0, left), (width / 2, right)):
                if number is not None:
                    _place(side, source.pages[number - 1], offset, width / 2, height)
            side.compress_content_streams()
    if extra_pages is not None:
        for page in PdfReader(io.BytesIO(extra_pages)).pages:
            writer.add_page(page)
    for page in writer.pages:
        if "/Annots" in page:
            del page[NameObject("/Annots")]
    if source.metadata:
        writer.add_metadata({key: str(value) for key, value in source.metadata.items()})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _place(side: PageObject, page: PageObject, x: float, width: float, height: float) -> None:
    """Draw ``page`` centred in the ``width`` x ``height`` box at ``x`` on ``side``."""
    if page.rotation:
        page.transfer_rotation_to_content()
    box = page.mediabox
    fits = float(box.width) <= width + FIT_SLACK and float(box.height) <= height + FIT_SLACK
    scale = 1.0 if fits else min(width / float(box.width), height / float(box.height))
    tx = x + (width - float(box.width) * scale) / 2 - float(box.left) * scale
    ty = (height - float(box.height) * scale) / 2 - float(box.bottom) * scale
    side.merge_transformed_page(page, Transformation().scale(scale).translate(tx, ty))
