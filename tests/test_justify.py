"""Pages set to their foot (sheetgen.booklet.justify), read back from the PDF: a page whose
text goes on overleaf, a little short, ends at its foot, its white shared between its blocks
at up to a tenth of a line each; a page that would need more keeps its spacing; page breaks,
links and the last page stay as they were."""

from __future__ import annotations

import io
from typing import Any

import pdfplumber
import pikepdf
import pytest

from sheetgen.booklet.flow import number_blocks
from sheetgen.booklet.justify import GROWTH_BLOCK, GROWTH_ITEM, LEAST_SHORT, justify
from sheetgen.booklet.weasy import load_weasyprint
from sheetgen.resources import fonts_dir

# A small page: a chapter of paragraphs, a list and a subheading, then a table kept whole
# that does not fit under them, so that it opens page 2 and leaves page 1 short; FILLERS
# paragraphs more and PAD over the chapter decide by how much.
PAGE = """<!doctype html><html><head><style>
@font-face {{ font-family: T; src: url({font}); }}
@page {{ size: 300pt 400pt; margin: 30pt; }}
html {{ font: 10pt/1.4 T; }}
section {{ padding-top: {pad}pt; }}
h2, h3 {{ break-after: avoid; }}
p {{ margin: 0 0 5pt; }}
ul {{ margin: 0 0 5pt; }}
table {{ break-inside: avoid; border-collapse: collapse; }}
td {{ border: 0.5pt solid black; padding: 2pt; }}
</style></head><body><section class="chapter">
<h2 id="start">Heading</h2>
<p>First paragraph, a line or two of running text to stand under the heading.</p>
<p>Second paragraph, with a <a href="#start">link back</a> to the heading.</p>
<h3>Subheading</h3>
<p>Third paragraph under the subheading, the last one on this page.</p>
<ul><li>One item</li><li>Two items</li><li>Three items</li></ul>
{fillers}
<table>{rows}</table>
<p>After the table.</p>
</section></body></html>"""
FOOT = 400 - 30


def _document(fillers: int, rows: int = 10, pad: float = 0) -> Any:
    weasyprint = load_weasyprint()
    html = weasyprint.HTML(
        string=PAGE.format(
            pad=pad,
            font=(fonts_dir() / "DejaVuSans.ttf").as_uri(),
            fillers="".join(f"<p>Filler paragraph {n}.</p>" for n in range(fillers)),
            rows="".join(f"<tr><td>row {n}</td></tr>" for n in range(rows)),
        )
    )
    number_blocks(html.etree_element)
    return html.render()


def _read(pdf: bytes) -> list[list[dict[str, Any]]]:
    with pdfplumber.open(io.BytesIO(pdf)) as opened:
        return [page.extract_text_lines() for page in opened.pages]


def _made(fillers: int, pad: float = 0) -> tuple[bytes, bytes, list[float]]:
    plain, justified = _document(fillers, pad=pad), _document(fillers, pad=pad)
    given = justify(justified)
    return plain.write_pdf(), justified.write_pdf(), given


# Five fillers under 6 pt of padding leave page 1 about 12 pt short, which its blocks can
# take; none leave it short by more than they can (checked below, so that the cases stay
# what they say).
A_LITTLE_SHORT, PAD, FAR_SHORT = 5, 6, 0


@pytest.fixture(scope="module")
def little() -> tuple[bytes, bytes, list[float]]:
    return _made(A_LITTLE_SHORT, PAD)


def test_a_page_a_little_short_that_goes_on_ends_at_its_foot(little: Any) -> None:
    plain, justified, given = little
    before, after = _read(plain), _read(justified)
    assert len(before) == len(after) == 2
    # The same lines on each page, in the same order: nothing moved over a page turn.
    assert [[line["text"] for line in page] for page in before] == [
        [line["text"] for line in page] for page in after
    ]
    short = FOOT - before[0][-1]["bottom"]
    assert LEAST_SHORT * 14 < short < 20, "the case must leave page 1 a little short"
    # Every line is where it was or lower, the first where it was, the last at the foot.
    assert after[0][0]["top"] == pytest.approx(before[0][0]["top"], abs=0.01)
    assert all(b["top"] <= a["top"] + 0.01 for b, a in zip(before[0], after[0], strict=True))
    assert FOOT - after[0][-1]["bottom"] < 4
    # The last page, which ends the text, is left as it is.
    assert [line["top"] for line in before[1]] == [line["top"] for line in after[1]]
    assert given[0] > 0 and given[1] == 0


def test_the_white_goes_between_blocks_and_never_under_a_heading(little: Any) -> None:
    plain, justified, _ = little
    before, after = _read(plain)[0], _read(justified)[0]
    moved = {b["text"]: a["top"] - b["top"] for b, a in zip(before, after, strict=True)}

    def gap(text: str, previous: str) -> float:
        return moved[text] - moved[previous]

    over_subheading = gap("Subheading", "heading.")
    under_subheading = gap("Third paragraph under the subheading, the", "Subheading")
    within = gap("last one on this page.", "Third paragraph under the subheading, the")
    between_items = gap("• Two items", "• One item")
    between = gap("Filler paragraph 1.", "Filler paragraph 0.")
    assert under_subheading == pytest.approx(0, abs=0.01)
    assert within == pytest.approx(0, abs=0.01)  # a paragraph's lines stay together
    assert over_subheading == pytest.approx(between, rel=0.02)
    assert between_items == pytest.approx(between * GROWTH_ITEM / GROWTH_BLOCK, rel=0.05)
    # A tenth of a line at most (a line is 14 pt here).
    assert 0 < between <= GROWTH_BLOCK * 14 + 0.01


def test_a_page_its_blocks_cannot_fill_keeps_its_spacing() -> None:
    """Print review 37: pages both loosened and still short were the oddest look of all."""
    plain, justified, given = _made(FAR_SHORT)
    before, after = _read(plain), _read(justified)
    assert FOOT - before[0][-1]["bottom"] > 60, "the case must leave page 1 far short"
    assert given == [0.0, 0.0]
    assert [[(line["text"], line["top"]) for line in page] for page in before] == [
        [(line["text"], line["top"]) for line in page] for page in after
    ]


def _link_rect(pdf: bytes) -> tuple[float, float, float, float]:
    with pikepdf.open(io.BytesIO(pdf)) as opened:
        links = [
            [float(v) for v in annot.Rect]
            for annot in opened.pages[0].get("/Annots", [])
            if annot.get("/Subtype") == "/Link"
        ]
    assert len(links) == 1
    x0, top, x1, bottom = links[0]
    return x0, min(top, bottom), x1, max(top, bottom)


def test_a_link_moves_with_its_words(little: Any) -> None:
    plain, justified, _ = little
    tops = []
    for pdf in (plain, justified):
        with pdfplumber.open(io.BytesIO(pdf)) as opened:
            words = opened.pages[0].extract_words()
            height = float(opened.pages[0].height)
        back = next(word for word in words if word["text"] == "back")
        x0, y0, x1, y1 = _link_rect(pdf)
        # The link's box (PDF points from the foot) covers the word as printed.
        assert y0 - 1 <= height - back["bottom"] and height - back["top"] <= y1 + 1
        assert x0 - 1 <= back["x0"] and back["x1"] <= x1 + 1
        tops.append(back["top"])
    assert tops[1] > tops[0]  # the word did move


def test_a_page_that_fits_is_left_as_it_is() -> None:
    assert justify(_document(0, rows=0)) == [0.0]


SPREAD = """<!doctype html><html><head><style>
@font-face {{ font-family: T; src: url({font}); }}
@page {{ size: 300pt 400pt; margin: 30pt; }}
html {{ font: 10pt/1.4 T; }}
p {{ margin: 0 0 5pt; }}
table {{ break-inside: avoid; border-collapse: collapse; }}
td {{ border: 0.5pt solid black; padding: 2pt; }}
</style></head><body><section class="chapter"><p>Cover.</p></section>
<section class="chapter" style="break-before: page">
{little}<table>{rows}</table>{far}<table>{rows}</table><p>The end.</p>
</section></body></html>"""


def _spread_document() -> Any:
    weasyprint = load_weasyprint()
    html = weasyprint.HTML(
        string=SPREAD.format(
            font=(fonts_dir() / "DejaVuSans.ttf").as_uri(),
            little="".join(f"<p>Page two, paragraph {n}.</p>" for n in range(17)),
            far="".join(f"<p>Page three, paragraph {n}.</p>" for n in range(4)),
            rows="".join(f"<tr><td>row {n}</td></tr>" for n in range(12)),
        )
    )
    number_blocks(html.etree_element)
    return html.render()


def test_a_folded_page_is_set_to_its_foot_only_beside_a_page_that_ends_there() -> None:
    """Print review 38: a page set to its foot faced a page ending 40 to 133 pt short. In a
    folded booklet (pages 2 and 3 face each other) a page whose facing page ends short keeps
    its spacing; read alone, the same page is set to its foot."""
    alone, folded = _spread_document(), _spread_document()
    assert len(alone.pages) == 4
    flat = justify(alone)
    assert flat[1] > 0 and flat[2] == 0  # page 2 a little short, page 3 far short
    assert justify(folded, spreads=True) == [0.0, 0.0, 0.0, 0.0]
    before = _read(_spread_document().write_pdf())
    assert [[line["top"] for line in page] for page in _read(folded.write_pdf())] == [
        [line["top"] for line in page] for page in before
    ]
