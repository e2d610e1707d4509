"""Lay a booklet's half-size pages two to a side on sheets of paper, in saddle-stitch order.

Print the result double-sided, flipped on the short edge, fold the stack once
down the middle and staple on the fold: the pages then read 1, 2, 3, ...
Landscape pages at the end (the score sheet at the end of the rules) are not
folded: they follow the sheets at full size, one to a sheet. ``print_rules``
builds the rules booklet in the layout and format the user asked for.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject

from sheetgen.errors import ChoiceError
from sheetgen.houserules import HouseRules
from sheetgen.paper import A4, LETTER, POINTS_PER_INCH, POINTS_PER_MM, Paper

LAYOUTS = ("pages", "booklet")
FORMATS = ("pdf", "png")
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


def split_trailing_landscape(pages: list[PageObject]) -> tuple[list[PageObject], list[PageObject]]:
    """The pages to fold, and the landscape pages at the end that keep a sheet of their own."""
    end = len(pages)
    while end > 1 and pages[end - 1].mediabox.width > pages[end - 1].mediabox.height:
        end -= 1
    return pages[:end], pages[end:]


def impose_saddle_stitch(pdf_bytes: bytes, sheet: Paper) -> bytes:
    """Impose the half-size pages of ``pdf_bytes`` on landscape ``sheet`` paper.

    Each side of a sheet carries two pages at full scale (a page too big for
    its half is shrunk to fit, keeping its proportions, and centred). The
    landscape pages at the end follow the folded sheets unchanged, one to a
    sheet. Links, bookmarks and the structure tree of the source refer to its
    own pages, so the imposed document carries none of them; the document
    information (title, author) is kept.
    """
    half_paper(sheet)
    source = PdfReader(io.BytesIO(pdf_bytes))
    folded, whole = split_trailing_landscape(list(source.pages))
    writer = PdfWriter()
    width, height = sheet.landscape
    for printed in saddle_stitch_order(len(folded)):
        for left, right in (
            (printed.front_left, printed.front_right),
            (printed.back_left, printed.back_right),
        ):
            side = writer.add_blank_page(width, height)
            for offset, number in ((0.0, left), (width / 2, right)):
                if number is not None:
                    _place(side, folded[number - 1], offset, width / 2, height)
            side.compress_content_streams()
    for page in whole:
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


def print_rules(
    rules: HouseRules, *, paper: Paper, layout: str = "pages", fmt: str = "pdf"
) -> bytes:
    """The rules booklet laid out for printing: one page per sheet, or folded.

    ``pages`` prints each page on its own sheet of ``paper``; ``booklet`` sets
    half-size pages and imposes them for folding (the score sheet stays whole).
    ``png`` gives a preview of the first sheet as it will print instead of the PDF.
    """
    from sheetgen.booklet import build_booklet

    if layout not in LAYOUTS:
        raise ChoiceError(f"layout: {layout!r} is not a layout; choose {' or '.join(LAYOUTS)}")
    if fmt not in FORMATS:
        raise ChoiceError(f"format: {fmt!r} is not a format; choose {' or '.join(FORMATS)}")
    if layout == "booklet":
        half = half_paper(paper)
        pdf = impose_saddle_stitch(
            build_booklet(rules, paper=paper, page_size_override=half.portrait), paper
        )
    else:
        pdf = build_booklet(rules, paper=paper)
    if fmt == "png":
        from sheetgen.preview import pdf_to_png

        return pdf_to_png(pdf)
    return pdf
