"""The rules booklet as a screen reader meets it: a tagged PDF/UA-1 file."""

from __future__ import annotations

import io
from collections.abc import Callable

import pikepdf
import pytest
from pdfcheck import PdfStructure, check_pdf_structure

from sheetgen.booklet.build import rules_document
from sheetgen.game.houserules import resolve
from sheetgen.paper import A4

PDFUA_PART = "{http://www.aiim.org/pdfua/ns/id/}part"


@pytest.fixture(scope="module")
def pages_pdf(booklet_pdf: Callable[..., bytes]) -> bytes:
    return booklet_pdf("skip-bo", A4)


@pytest.fixture(scope="module")
def structure(pages_pdf: bytes) -> PdfStructure:
    return check_pdf_structure(pages_pdf)


def test_booklet_is_tagged_in_english(structure: PdfStructure) -> None:
    assert structure.tagged
    assert structure.lang == "en"
    assert structure.tags[0] == "Document"


def test_booklet_claims_pdf_ua_1_and_shows_its_title(pages_pdf: bytes) -> None:
    with pikepdf.open(io.BytesIO(pages_pdf)) as pdf:
        metadata = pdf.open_metadata()
        assert metadata[PDFUA_PART] == "1"
        assert metadata["dc:title"] == "Skip-Bo rules"
        assert pdf.Root.ViewerPreferences.DisplayDocTitle


def test_headings_are_real_headings(structure: PdfStructure) -> None:
    """The cover's title is the one H1; the chapters are H2s below it (test_pdf_structure
    reads their order and text)."""
    tags = structure.tags
    assert tags.count("H1") == 1
    assert tags.count("H2") >= 10
    assert "H3" in tags


def test_every_picture_has_a_text_alternative(structure: PdfStructure) -> None:
    motif, figure, *cards = structure.figures()
    assert motif.alt == "A fan of five playing cards"  # the cover's (issue 31)
    assert len(cards) == 3
    assert all(card.alt.startswith("Cards: ") for card in cards)
    assert figure.alt.startswith("The table seen from above: four players sit round it.")
    assert "four discard piles and then the stock pile, on the player’s right" in figure.alt


def test_every_font_is_embedded_dejavu(structure: PdfStructure) -> None:
    assert structure.fonts
    assert all(name.startswith("DejaVu") for name in structure.fonts)


def test_folded_layout_is_for_paper_and_not_tagged() -> None:
    """Imposing pages onto sheets breaks the tag tree's page references; the file says so."""
    folded = rules_document(resolve(options={"series": False}), paper=A4, layout="booklet")
    structure = check_pdf_structure(folded)
    assert not structure.tagged
    assert structure.elements == []


def test_the_score_sheet_drawing_is_an_artifact(pages_pdf: bytes) -> None:
    """The pasted-on grid is a form drawn inside /Artifact marked content, so every mark
    on the page is tagged or an artifact."""
    with pikepdf.open(io.BytesIO(pages_pdf)) as pdf:
        last = pdf.pages[-1]
        assert float(last.mediabox[2]) > float(last.mediabox[3])
        parts = last.obj.Contents
        streams = [parts] if isinstance(parts, pikepdf.Stream) else list(parts)
        operators = [
            (str(operator), operands)
            for stream in streams
            for operands, operator in pikepdf.parse_content_stream(stream)
        ]
        (form_name,) = [operands[0] for operator, operands in operators if operator == "Do"]
        form = last.Resources.XObject[form_name]
        assert form.Subtype == "/Form"
        drawing = {str(op) for _, op in pikepdf.parse_content_stream(form)}
    assert {"BT", "Tj"} <= drawing
    names = [operator for operator, _ in operators]
    opened = names.index("BMC")
    assert operators[opened][1] == [pikepdf.Name.Artifact]
    assert opened < names.index("Do") < names.index("EMC", opened)


def test_only_the_last_page_carries_the_score_sheet(pages_pdf: bytes) -> None:
    """weasyprint's pages share their resources; the sheet's form is the last page's alone."""
    with pikepdf.open(io.BytesIO(pages_pdf)) as pdf:
        *pages, last = pdf.pages
        assert "/ScoreSheet" in last.Resources.XObject
        assert all("/ScoreSheet" not in page.Resources.get("/XObject", {}) for page in pages)
