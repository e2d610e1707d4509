"""Read a generated PDF's structure back: fonts, tags, language, marks near the paper's edge.

Helpers for any test that renders a document: ``from pdfcheck import check_pdf_structure``.
"""

from __future__ import annotations

import ctypes
import io
from collections.abc import Iterator
from dataclasses import dataclass

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

EDGE_MARGIN = 18.0  # 0.25 in: home printers cannot print closer to the edge than this
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass(frozen=True)
class Element:
    """One element of a tagged PDF's structure tree, in reading order."""

    tag: str
    alt: str | None
    depth: int


@dataclass(frozen=True)
class PdfStructure:
    """What a reader (or a screen reader) finds in a PDF."""

    pages: int
    fonts: dict[str, bool]
    tagged: bool
    lang: str | None
    elements: list[Element]

    @property
    def tags(self) -> list[str]:
        return [element.tag for element in self.elements]

    def figures(self) -> list[Element]:
        return [element for element in self.elements if element.tag == "Figure"]


def _resources(pdf: pikepdf.Pdf) -> Iterator[pikepdf.Dictionary]:
    """Every resource dictionary of every page, form XObjects included."""
    seen: set[tuple[int, int]] = set()
    pending = [page.obj.get("/Resources") for page in pdf.pages]
    while pending:
        resources = pending.pop()
        if not isinstance(resources, pikepdf.Dictionary):
            continue
        yield resources
        for xobject in resources.get("/XObject", {}).values():
            if xobject.objgen in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(xobject.objgen)
            pending.append(xobject.get("/Resources"))


def _embedded(font: pikepdf.Dictionary) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True  # its glyphs are drawn by content streams inside the file
    if font.get("/Subtype") == "/Type0":
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(key in descriptor for key in FONT_FILES)


def fonts_of(pdf: pikepdf.Pdf) -> dict[str, bool]:
    """Each font's name (subset prefix removed) and whether its glyphs are in the file."""
    fonts: dict[str, bool] = {}
    for resources in _resources(pdf):
        for font in resources.get("/Font", {}).values():
            name = str(font.get("/BaseFont", "/Type3"))[1:].split("+", 1)[-1]
            fonts[name] = fonts.get(name, True) and _embedded(font)
    return fonts


def is_tagged(pdf: pikepdf.Pdf) -> bool:
    """True if the PDF says it is tagged and carries a structure tree."""
    mark_info = pdf.Root.get("/MarkInfo")
    marked = mark_info is not None and bool(mark_info.get("/Marked", False))
    return marked and "/StructTreeRoot" in pdf.Root


def _kids(node: pikepdf.Object) -> list[pikepdf.Object]:
    kids = node.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def structure_of(pdf: pikepdf.Pdf) -> list[Element]:
    """The structure tree's elements depth-first (reading order), with their alt text."""
    root = pdf.Root.get("/StructTreeRoot")
    if root is None:
        return []
    elements: list[Element] = []
    pending = [(kid, 0) for kid in reversed(_kids(root))]
    while pending:
        node, depth = pending.pop()
        if not isinstance(node, pikepdf.Dictionary) or "/S" not in node:
            continue  # a marked-content reference, not an element
        alt = node.get("/Alt")
        elements.append(Element(str(node.S)[1:], None if alt is None else str(alt), depth))
        pending.extend((kid, depth + 1) for kid in reversed(_kids(node)))
    return elements


def check_pdf_structure(pdf_bytes: bytes) -> PdfStructure:
    """Open the PDF with pikepdf, insist every font is embedded, and report its structure."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        fonts = fonts_of(pdf)
        missing = sorted(name for name, embedded in fonts.items() if not embedded)
        assert not missing, f"fonts not embedded: {missing}"
        lang = pdf.Root.get("/Lang")
        return PdfStructure(
            pages=len(pdf.pages),
            fonts=fonts,
            tagged=is_tagged(pdf),
            lang=None if lang is None else str(lang),
            elements=structure_of(pdf),
        )


# What pdfium calls each kind of page object, as a message names it.
KINDS = {1: "text", 2: "drawing", 3: "image", 4: "shading"}
FORM = 5
Box = tuple[float, float, float, float]  # left, bottom, right, top, before any /Rotate


def marks_near_edge(pdf_bytes: bytes, margin: float = EDGE_MARGIN) -> list[str]:
    """Everything drawn within ``margin`` points of a page's edge, described for a message:
    each letter by its font's box (as pdfminer measures one), and every page object (a run
    of text by its ink, a path with its line, an image) by its bounds, inside forms too
    (an imposed page is one); a run pdfium's text page leaves out (the same text again
    within a few points, its way of seeing fake bold) is still measured as an object.
    Measured as the objects stand, before any /Rotate, from the media box."""
    found: list[str] = []
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        for number, page in enumerate(document, start=1):
            edge_left, edge_bottom, edge_right, edge_top = page.get_mediabox()
            marks = [("text", box) for box in _letter_boxes(page)] + _drawn(page)
            for what, (left, bottom, right, top) in marks:
                across = edge_left + margin <= left and right <= edge_right - margin
                if not across or bottom < edge_bottom + margin or top > edge_top - margin:
                    where = f"({left - edge_left:.1f}, {edge_top - top:.1f})"
                    found.append(f"page {number}: {what} at {where}")
            page.close()
    finally:
        document.close()
    return found


def _letter_boxes(page: pdfium.PdfPage) -> list[Box]:
    """Each printed letter's box on the page, inside forms too: its advance across, its
    font's ascent to descent up and down, however little ink the glyph has."""
    textpage = page.get_textpage()
    box = pdfium_c.FS_RECTF()
    boxes = []
    try:
        handle = textpage.raw
        for index in range(textpage.count_chars()):
            if pdfium_c.FPDFText_IsGenerated(handle, index):
                continue  # a space or line end pdfium made up; nothing is drawn
            pdfium_c.FPDFText_GetLooseCharBox(handle, index, ctypes.byref(box))
            boxes.append((box.left, box.bottom, box.right, box.top))
    finally:
        textpage.close()
    return boxes


def _drawn(page: pdfium.PdfPage) -> list[tuple[str, Box]]:
    """Each page object but forms, with its bounds on the page: pdfium gives an object
    inside a form in the form's space, so the forms' matrices carry it out."""
    drawn = []
    forms: list[pdfium.PdfMatrix] = []  # the matrices of the forms the object stands in
    for obj in page.get_objects():
        del forms[obj.level :]
        if obj.type == FORM:  # its own objects follow, one level down
            inner = obj.get_matrix()
            forms.append(inner.multiply(forms[-1]) if forms else inner)
            continue
        left, bottom, right, top = obj.get_bounds()
        if forms:
            corners = [forms[-1].on_point(x, y) for x in (left, right) for y in (bottom, top)]
            left, right = min(x for x, _ in corners), max(x for x, _ in corners)
            bottom, top = min(y for _, y in corners), max(y for _, y in corners)
        drawn.append((KINDS.get(obj.type, "object"), (left, bottom, right, top)))
    return drawn
