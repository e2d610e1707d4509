"""Pages set to their foot (sheetgen.booklet.justify), read back from the PDF: a page whose
text goes on overleaf ends at its foot, its white shared between its blocks; its page
breaks, its links and what the last page holds stay as they were."""

from __future__ import annotations

import io
from typing import Any

import pdfplumber
import pikepdf
import pytest

from sheetgen.booklet.flow import number_blocks
from sheetgen.booklet.justify import GROWTH_BLOCK, GROWTH_HEADING, justify
from sheetgen.booklet.weasy import load_weasyprint
from sheetgen.resources import fonts_dir

# A small page: a chapter of paragraphs and a subheading, then a table kept whole that does
# not fit under them, so that it opens page 2 and leaves page 1 short.
PAGE = """<!doctype html><html><head><style>
@font-face {{ font-family: T; src: url({font}); }}
@page {{ size: 300pt 400pt; margin: 30pt; }}
html {{ font: 10pt/1.4 T; }}
h2, h3 {{ break-after: avoid; }}
p {{ margin: 0 0 5pt; }}
table {{ break-inside: avoid; border-collapse: collapse; }}
td {{ border: 0.5pt solid black; padding: 2pt; }}
</style></head><body><section class="chapter">
<h2 id="start">Heading</h2>
<p>First paragraph, a line or two of running text to stand under the heading.</p>
<p>Second paragraph, with a <a href="#start">link back</a> to the heading.</p>
<h3>Subheading</h3>
<p>Third paragraph under the subheading, the last one on this page.</p>
<p>Fourth paragraph, a line.</p>
<p>Fifth paragraph, a line.</p>
<p>Sixth paragraph, a line.</p>
<p>Seventh paragraph, a line.</p>
<p>Eighth paragraph, a line.</p>
{rows}
<p>After the table.</p>
</section></body></html>"""


def _document(rows: int) -> tuple[Any, Any]:
    weasyprint = load_weasyprint()
    table = "<table>" + "".join(f"<tr><td>row {n}</td></tr>" for n in range(rows)) + "</table>"
    font = (fonts_dir() / "DejaVuSans.ttf").as_uri()
    html = weasyprint.HTML(string=PAGE.format(font=font, rows=table))
    number_blocks(html.etree_element)
    return html, html.render()


def _read(pdf: bytes) -> list[list[dict[str, Any]]]:
    with pdfplumber.open(io.BytesIO(pdf)) as opened:
        return [page.extract_text_lines() for page in opened.pages]


def _link_rect(pdf: bytes) -> list[float]:
    with pikepdf.open(io.BytesIO(pdf)) as opened:
        links = [
            [float(v) for v in annot.Rect]
            for annot in opened.pages[0].get("/Annots", [])
            if annot.get("/Subtype") == "/Link"
        ]
    assert len(links) == 1
    return links[0]


@pytest.fixture(scope="module")
def before_after() -> tuple[bytes, bytes, list[float]]:
    _, plain = _document(8)
    _, justified = _document(8)
    given = justify(justified)
    return plain.write_pdf(), justified.write_pdf(), given


def test_a_short_page_that_goes_on_ends_at_its_foot(before_after: Any) -> None:
    plain, justified, given = before_after
    before, after = _read(plain), _read(justified)
    assert len(before) == len(after) == 2
    # The same lines on each page, in the same order: nothing moved over a page turn.
    assert [[line["text"] for line in page] for page in before] == [
        [line["text"] for line in page] for page in after
    ]
    foot = 400 - 30
    short = foot - before[0][-1]["bottom"]
    assert short > 60, "the case must leave page 1 short"
    # Every line is where it was or lower, the first where it was, the last near the foot.
    assert after[0][0]["top"] == pytest.approx(before[0][0]["top"], abs=0.01)
    assert all(b["top"] <= a["top"] + 0.01 for b, a in zip(before[0], after[0], strict=True))
    assert foot - after[0][-1]["bottom"] < 6
    # The last page, which ends the text, is left as it is.
    assert [line["top"] for line in before[1]] == [line["top"] for line in after[1]]
    assert given[0] > 0 and given[1] == 0


def test_the_white_goes_most_over_a_heading_and_never_under_one(before_after: Any) -> None:
    plain, justified, _ = before_after
    before, after = _read(plain)[0], _read(justified)[0]
    moved = {b["text"]: a["top"] - b["top"] for b, a in zip(before, after, strict=True)}

    def gap(text: str, previous: str) -> float:
        return moved[text] - moved[previous]

    over_subheading = gap("Subheading", "heading.")
    under_subheading = gap("Third paragraph under the subheading, the", "Subheading")
    within = gap("last one on this page.", "Third paragraph under the subheading, the")
    between = gap("Fourth paragraph, a line.", "last one on this page.")
    assert under_subheading == pytest.approx(0, abs=0.01)
    assert within == pytest.approx(0, abs=0.01)  # a paragraph's lines stay together
    assert over_subheading == pytest.approx(between * GROWTH_HEADING / GROWTH_BLOCK, rel=0.02)
    assert between > 0


def test_a_link_moves_with_its_words(before_after: Any) -> None:
    plain, justified, _ = before_after
    for pdf in (plain, justified):
        with pdfplumber.open(io.BytesIO(pdf)) as opened:
            words = opened.pages[0].extract_words()
            height = float(opened.pages[0].height)
        back = next(word for word in words if word["text"] == "back")
        x0, top, x1, bottom = _link_rect(pdf)
        y0, y1 = sorted((top, bottom))
        # The link's box (PDF points from the foot) covers the word as printed.
        assert y0 - 1 <= height - back["bottom"] and height - back["top"] <= y1 + 1
        assert x0 - 1 <= back["x0"] and back["x1"] <= x1 + 1


def test_a_page_that_fits_is_left_as_it_is() -> None:
    _, document = _document(0)  # no table: one page
    assert justify(document) == [0.0]
