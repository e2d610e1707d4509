"""Lay a booklet's half-size pages two to a side on sheets of paper, in saddle-stitch order.

Print the result double-sided, flipped on the short edge, fold the stack once
down the middle and staple on the fold: the pages then read 1, 2, 3, ...
Landscape pages at the end (the score sheet at the end of the rules) are not
folded: they follow the sheets at full size, one to a sheet.
"""

from __future__ import annotations

import io
from typing import NamedTuple

import pikepdf

from sheetgen.errors import ChoiceError
from sheetgen.paper import A4, LETTER, POINTS_PER_INCH, POINTS_PER_MM, Paper

PAGES_PER_SHEET = 4
# Size tolerance for "fits", so rounding in a PDF's MediaBox never causes a scale-down.
FIT_SLACK = 0.5

HALF_PAPERS: dict[str, Paper] = {
    LETTER.name: Paper("half-letter", 5.5 * POINTS_PER_INCH, 8.5 * POINTS_PER_INCH),
    A4.name: Paper("a5", 148 * POINTS_PER_MM, 210 * POINTS_PER_MM),
}


class Sheet(NamedTuple):
    """One sheet of a saddle-stitched booklet: the page on each half of each side.

    Pages are numbered from 1 in reading order; ``None`` is a blank half. The
    front is the side that faces out when the stack is folded.
    """

    front_left: int | None
    front_right: int | None
    back_left: int | None
    back_right: int | None


def half_paper(paper: Paper) -> Paper:
    """The page size of a booklet folded from ``paper``: A5 from A4, half-letter from Letter."""
    try:
        return HALF_PAPERS[paper.name]
    except KeyError:
        raise ChoiceError(
            f"a booklet cannot be folded from {paper.name!r} paper; "
            f"choose {' or '.join(sorted(HALF_PAPERS))}",
            field="paper",
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


def split_trailing_landscape(
    pages: list[pikepdf.Page],
) -> tuple[list[pikepdf.Page], list[pikepdf.Page]]:
    """The pages to fold, and the landscape pages at the end that keep a sheet of their own."""
    end = len(pages)
    while end > 1 and _is_landscape(pages[end - 1]):
        end -= 1
    return pages[:end], pages[end:]


def _is_landscape(page: pikepdf.Page) -> bool:
    box = page.mediabox
    wide = abs(float(box[2]) - float(box[0])) > abs(float(box[3]) - float(box[1]))
    turned = int(page.obj.get("/Rotate", 0)) % 180 == 90
    return wide != turned


def impose_saddle_stitch(pdf_bytes: bytes, paper: Paper) -> bytes:
    """Impose the half-size pages of ``pdf_bytes`` on landscape ``paper``.

    Each side of a sheet carries two pages at full scale (a page too big for
    its half is shrunk to fit, keeping its proportions, and centred). The
    landscape pages at the end follow the folded sheets unchanged, one to a
    sheet. Links, bookmarks and the structure tree of the source refer to its
    own pages, so the imposed document carries none of them; the document
    information (title, author) is kept.
    """
    half_paper(paper)
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf_bytes)) as source, pikepdf.new() as imposed:
        for page in source.pages:
            for key in ("/Annots", "/StructParents"):
                if key in page.obj:
                    del page.obj[key]
        folded, whole = split_trailing_landscape(list(source.pages))
        # Each page becomes a form drawn where it belongs: qpdf copies its content
        # stream as it is, without reading it.
        forms = [page.as_form_xobject() for page in folded]
        width, height = paper.landscape
        for printed in saddle_stitch_order(len(folded)):
            for left, right in (
                (printed.front_left, printed.front_right),
                (printed.back_left, printed.back_right),
            ):
                halves = [(0.0, left), (width / 2, right)]
                placed = [(x, forms[n - 1]) for x, n in halves if n is not None]
                imposed.pages.append(_side(imposed, placed, width, height))
        for page in whole:
            imposed.pages.append(page)
        for key, value in source.docinfo.items():
            imposed.docinfo[key] = imposed.copy_foreign(value) if value.is_indirect else value
        # The document's language (a screen reader's voice, a viewer's hyphenation) stays.
        if "/Lang" in source.Root:
            imposed.Root.Lang = pikepdf.String(str(source.Root.Lang))
        imposed.save(out, deterministic_id=True)
    return out.getvalue()


def _side(
    pdf: pikepdf.Pdf, placed: list[tuple[float, pikepdf.Object]], width: float, height: float
) -> pikepdf.Page:
    """A ``width`` x ``height`` side with each form centred in the half starting at its x."""
    forms = pikepdf.Dictionary()
    drawing = []
    for index, (x, form) in enumerate(placed):
        name = pikepdf.Name(f"/Page{index}")
        forms[name] = pdf.copy_foreign(form)
        matrix = " ".join(f"{v:.6f}" for v in _placement(form, x, width / 2, height))
        drawing.append(f"q {matrix} cm {name} Do Q".encode())
    contents = pikepdf.Stream(pdf, b"\n".join(drawing))
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, width, height],
        Resources=pikepdf.Dictionary(XObject=forms),
        Contents=pdf.make_indirect(contents),
    )
    return pikepdf.Page(page)


def _placement(form: pikepdf.Object, x: float, width: float, height: float) -> tuple[float, ...]:
    """The matrix that draws ``form`` centred in the ``width`` x ``height`` box at ``x``.

    The form's own /Matrix (a rotated page's turn) is applied first, so the box
    measured is the page as it shows.
    """
    matrix = pikepdf.Matrix(form.Matrix) if "/Matrix" in form else pikepdf.Matrix()
    x0, y0, x1, y1 = (float(v) for v in form.BBox)
    corners = [matrix.transform((px, py)) for px in (x0, x1) for py in (y0, y1)]
    left = min(px for px, _ in corners)
    bottom = min(py for _, py in corners)
    box_width = max(px for px, _ in corners) - left
    box_height = max(py for _, py in corners) - bottom
    fits = box_width <= width + FIT_SLACK and box_height <= height + FIT_SLACK
    scale = 1.0 if fits else min(width / box_width, height / box_height)
    tx = x + (width - box_width * scale) / 2 - left * scale
    ty = (height - box_height * scale) / 2 - bottom * scale
    return (scale, 0.0, 0.0, scale, tx, ty)
