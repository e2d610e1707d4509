"""Paint sheet layouts onto PDF pages with reportlab; the blank and the filled sheet both come here.

The grid of a layout is drawn once per document as a form XObject and reused
on every page of the same shape, which keeps batches of sheets fast and their
files small. Marks on a filled sheet are shapes as well as type (a ring round
the winner's points, a heavy box round the total that reached the target), so
the sheet reads the same in black and white.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from reportlab import rl_config
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas

from sheetgen import __version__, fonts
from sheetgen.sheet.fitting import fit
from sheetgen.sheet.layout import MIN_TEXT, Layout
from sheetgen.sheet.shapes import (
    Box,
    Grid,
    Rule,
    Text,
    as_printed,
    dot_path,
    quarters,
)
from sheetgen.sourcedate import source_date_epoch

if TYPE_CHECKING:  # a blank sheet has no chart: the chart module loads with a filled one
    from sheetgen.sheet.chart import Chart

# Compressed streams stay binary: ASCII85 on top only makes files bigger and slower to write.
rl_config.useA85 = 0

Cell = tuple[int, int]  # (row on the page, column)
VALUE_SIZE = 12.0
RING_ASPECT = 1.8


class PageValues(NamedTuple):
    """What a filled sheet writes into one page's slots, as text."""

    points: Mapping[Cell, str]
    totals: Mapping[Cell, str]
    forward: Mapping[int, str]
    final: Mapping[int, str]
    won: frozenset[Cell]
    reached: Cell | None


class Meta(NamedTuple):
    """The document information a PDF carries."""

    title: str
    subject: str
    lang: str = "en"  # the document's language, as the PDF's /Lang tag


def reproducible() -> bool:
    """True when SOURCE_DATE_EPOCH asks for byte-identical output (a malformed one is
    refused: reportlab would fail on it)."""
    return source_date_epoch() is not None


class Painter:
    """A PDF under construction: add pages of layouts (and drawings), then take its bytes."""

    def __init__(
        self, page: tuple[float, float], meta: Meta, typeface: fonts.Typeface = fonts.BUNDLED
    ) -> None:
        typeface.register()
        self.typeface = typeface
        self._buffer = io.BytesIO()
        self.canvas = Canvas(
            self._buffer,
            pagesize=page,
            invariant=1 if reproducible() else 0,
            initialFontName=fonts.REGULAR,
            pageCompression=1,
            lang=meta.lang,
        )
        self.canvas.setTitle(meta.title)
        self.canvas.setSubject(meta.subject)
        self.canvas.setCreator(f"sheetgen {__version__}")
        self.canvas.setAuthor("sheetgen")
        self.canvas.setViewerPreference("PrintScaling", "None")
        self._forms: dict[Grid, str] = {}
        # Each text's font, origin and strings by font subset: valid for this document
        # only, whose subsets gave its characters their codes.
        self._placed: dict[Text, tuple[str, str, tuple[tuple[int, str], ...]]] = {}

    def sheet(self, layout: Layout, values: PageValues | None = None) -> None:
        """Paint one page of a sheet, blank or with ``values`` written in."""
        self.canvas.setPageSize((layout.width, layout.height))
        self.canvas.doForm(self._form(layout.grid))
        texts = list(layout.texts)
        if values is not None:
            texts.extend(self._values(layout, values))
        self._texts(texts)
        self.end_page()

    def chart(self, chart: Chart) -> None:
        """Paint a race chart on a page of its own: in each panel the other sides' lines in
        grey, the white halos of the dots (so no grey line runs into a dot), its own side's
        line in black, and the dots of the games it won (print review 32: halos drawn over
        the black line broke a winning streak into dashes)."""
        from sheetgen.sheet.chart import DOT, DOT_HALO, OTHER_GRAY, OTHER_STROKE, OWN_STROKE

        canvas = self.canvas
        canvas.setPageSize((chart.width, chart.height))
        canvas.doForm(self._form(chart.background))
        canvas.setLineJoin(1)
        canvas.setLineCap(1)
        for panel in chart.panels:
            canvas.setLineWidth(OTHER_STROKE)
            canvas.setStrokeGray(OTHER_GRAY)
            for trace in panel.others:
                if len(trace.points) > 1:
                    canvas.addLiteral(_stroked(trace.points))
            halos, dots = canvas.beginPath(), canvas.beginPath()
            for x, y in panel.line.wins:
                _add_steps(halos, dot_path(x, y, DOT + DOT_HALO))
                _add_steps(dots, dot_path(x, y, DOT))
            if panel.line.wins:
                canvas.setFillGray(1)
                canvas.drawPath(halos, stroke=0, fill=1)
            canvas.setLineWidth(OWN_STROKE)
            canvas.setStrokeGray(0)
            if len(panel.line.points) > 1:
                canvas.addLiteral(_stroked(panel.line.points))
            if panel.line.wins:
                canvas.setFillGray(0)
                canvas.drawPath(dots, stroke=0, fill=1)
        canvas.setLineCap(0)
        self._texts(list(chart.texts))
        self.end_page()

    def end_page(self) -> None:
        self.canvas.showPage()

    def finish(self) -> bytes:
        """Close the document and return the PDF."""
        self.canvas.save()
        return fonts.unique_subset_tags(self._buffer.getvalue())

    def _form(self, grid: Grid) -> str:
        name = self._forms.get(grid)
        if name is not None:
            return name
        name = f"grid{len(self._forms)}"
        canvas = self.canvas
        canvas.beginForm(name)
        for shade in grid.shades:
            canvas.setFillGray(shade.gray)
            box = shade.box
            canvas.rect(box.x, box.y, box.width, box.height, stroke=0, fill=1)
        canvas.setFillGray(0)
        canvas.setLineCap(2)
        strokes: dict[tuple[float, float, tuple[float, ...]], list[Rule]] = {}
        for rule in grid.rules:
            strokes.setdefault((rule.width, rule.gray, rule.dash), []).append(rule)
        for (width, gray, dash), rules in strokes.items():
            canvas.setLineWidth(width)
            canvas.setStrokeGray(gray)
            canvas.setDash(list(dash) or [], 0)
            path = canvas.beginPath()
            for rule in rules:
                path.moveTo(rule.x1, rule.y1)
                path.lineTo(rule.x2, rule.y2)
            canvas.drawPath(path, stroke=1, fill=0)
        canvas.setStrokeGray(0)
        canvas.setDash([], 0)
        self._texts(list(grid.labels))
        canvas.endForm()
        self._forms[grid] = name
        return name

    def _texts(self, texts: list[Text]) -> None:
        """Set every text of a page in one text object: far quicker than a string at a time.

        The operators are the ones reportlab's text object writes for a TrueType font
        (its documented way: ``splitString`` into subsets, a ``Tf`` where the subset
        changes), but each text is placed and encoded once per document: a batch sets
        the same numbers, names and words in the same places page after page.
        """
        if not texts:
            return
        doc, placed = self.canvas._doc, self._placed
        code = ["BT", "1 0 0 1 0 0 Tm"]
        current: tuple[str, float] | None = None
        font: Any = None
        subset_now = -1
        size_code = ""
        for text in texts:
            place = placed.get(text)
            if place is None:
                place = placed[text] = self._place(text)
            name, origin, parts = place
            if current != (name, text.size):
                current = (name, text.size)
                font = getFont(name)
                subset_now = -1
                size_code = f"{fp_str(text.size)} Tf {fp_str(text.size * 1.2)} TL"
            code.append(origin)
            shown = []
            for subset, chunk in parts:
                if subset != subset_now:
                    shown.append(f"{font.getSubsetInternalName(subset, doc)} {size_code}")
                    subset_now = subset
                shown.append(chunk)
            code.append(" ".join(shown))
        code.append("ET")
        self.canvas.addLiteral(" ".join(code))

    def _place(self, text: Text) -> tuple[str, str, tuple[tuple[int, str], ...]]:
        """The font that prints ``text``, the operator that moves to where it starts, and
        its string in each font subset it uses (the first time, its characters get their
        codes in this document's subsets)."""
        # An apostrophe is set as a typesetter sets it (game’s, players’), as in the booklet.
        printed = as_printed(text.text)
        name = self.typeface.font_for(printed, text.bold)
        x = text.x
        if text.align != "left":
            width = self.typeface.string_width(printed, text.size, text.bold)
            x -= width / 2 if text.align == "center" else width
        parts = tuple(
            (subset, f"({escapePDF(chunk)}) Tj")
            for subset, chunk in getFont(name).splitString(printed, self.canvas._doc)
        )
        return name, f"1 0 0 1 {fp_str(x, text.y)} Tm", parts

    def _values(self, layout: Layout, values: PageValues) -> list[Text]:
        """Draw the marks of a filled page; return its values as texts to set."""
        # A game's points in bold, but a 0 that no one won with (print review 9: heavier
        # than the running totals beside it).
        texts = [
            _in_box(layout.points[r][c], v, (r, c) in values.won or v != "0")
            for (r, c), v in values.points.items()
        ]
        texts += [_in_box(layout.totals[r][c], v) for (r, c), v in values.totals.items()]
        texts += [_in_box(layout.forward[c], v) for c, v in values.forward.items()]
        texts += [_in_box(layout.final[c], v, True) for c, v in values.final.items()]
        canvas = self.canvas
        canvas.setLineWidth(0.9)
        rings = [_ring(layout.points[row][column]) for row, column in sorted(values.won)]
        if layout.keys:
            rings.append(_ring(layout.keys[0]))
        # One stroked path of every ring, as drawPath writes it: "n" and the path, then "S".
        canvas.addLiteral(" ".join(["n", *rings]) if rings else "")
        canvas.addLiteral("S")
        if len(layout.keys) > 1:
            _heavy_box(canvas, layout.keys[1])
        if values.reached is not None:
            row, column = values.reached
            _heavy_box(canvas, layout.totals[row][column])
        return texts


def _stroked(points: tuple[tuple[float, float], ...]) -> str:
    """A line through ``points``, stroked, as drawPath writes it ("n", the moves and lines,
    then "S"), without a method call per point of every side's line."""
    start, *rest = points
    return " ".join(["n", f"{fp_str(*start)} m", *(f"{fp_str(*point)} l" for point in rest), "S"])


@lru_cache(maxsize=4096)  # the same numbers go into the same slots, sheet after sheet
def _in_box(box: Box, value: str, bold: bool = False) -> Text:
    size = min(VALUE_SIZE, box.height * 0.5)
    if fonts.string_width(value, size, bold) > box.width - 4:  # only an absurdly long number
        fitted = fit(value, box.width - 4, size, MIN_TEXT, fonts.string_width, bold)
        value, size = fitted.line, fitted.size
    baseline = box.y + (box.height - size * 0.72) / 2
    return Text(value, box.x + box.width / 2, baseline, size, bold, "center")


def _add_steps(path: Any, steps: Any) -> None:
    """Path ``steps`` (``shapes.dot_path``) added to ``path``."""
    for step, args in steps:
        if step == "M":
            path.moveTo(*args)
        elif step == "L":
            path.lineTo(*args)
        elif step == "C":
            path.curveTo(*args)
        else:
            path.close()


@lru_cache(maxsize=1024)  # the winners' slots of one shape of page ring the same boxes
def _ring(box: Box) -> str:
    """A ring round the number, of one shape however wide the column (never over
    RING_ASPECT times as wide as it is tall), as the path operators reportlab writes."""
    ry = box.height / 2 - max(1.5, box.height * 0.12)
    rx = min(box.width / 2 - 2.0, ry * RING_ASPECT)
    start, curves = quarters(box.x + box.width / 2, box.y + box.height / 2, rx, ry)
    return " ".join([f"{fp_str(*start)} m", *(f"{fp_str(*curve)} c" for curve in curves), "h"])


def _heavy_box(canvas: Any, box: Box) -> None:
    canvas.setLineWidth(2.2)
    canvas.rect(box.x + 2, box.y + 2, box.width - 4, box.height - 4, stroke=1, fill=0)
    canvas.setLineWidth(0.9)
