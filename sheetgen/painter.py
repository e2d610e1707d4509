"""Paint sheet layouts onto PDF pages with reportlab; the blank and the filled sheet both come here.

The grid of a layout is drawn once per document as a form XObject and reused
on every page of the same shape, which keeps batches of sheets fast and their
files small. Marks on a filled sheet are shapes as well as type (a ring round
the winner's points, a heavy box round the total that reached the target), so
the sheet reads the same in black and white.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from sheetgen import __version__, fonts
from sheetgen.layout import Box, Grid, Layout, Text

Cell = tuple[int, int]  # (row on the page, column)
VALUE_SIZE = 12.0
STATUS_SIZE = 10.0


@dataclass(frozen=True)
class PageValues:
    """What a filled sheet writes into one page's slots, as text."""

    points: Mapping[Cell, str] = field(default_factory=dict)
    totals: Mapping[Cell, str] = field(default_factory=dict)
    forward: Mapping[int, str] = field(default_factory=dict)
    final: Mapping[int, str] = field(default_factory=dict)
    status: str = ""
    won: frozenset[Cell] = frozenset()
    reached: Cell | None = None


@dataclass(frozen=True)
class Meta:
    """The document information a PDF carries."""

    title: str
    subject: str


def reproducible() -> bool:
    """True when SOURCE_DATE_EPOCH asks for byte-identical output."""
    return bool(os.environ.get("SOURCE_DATE_EPOCH", "").strip())


class Painter:
    """A PDF under construction: add pages of layouts (and drawings), then take its bytes."""

    def __init__(self, page: tuple[float, float], meta: Meta) -> None:
        fonts.register()
        self._buffer = io.BytesIO()
        self.canvas = Canvas(
            self._buffer,
            pagesize=page,
            invariant=1 if reproducible() else 0,
            initialFontName=fonts.REGULAR,
            pageCompression=1,
        )
        self.canvas.setTitle(meta.title)
        self.canvas.setSubject(meta.subject)
        self.canvas.setCreator(f"sheetgen {__version__}")
        self.canvas.setAuthor("sheetgen")
        self.canvas.setViewerPreference("PrintScaling", "None")
        self._forms: dict[Grid, str] = {}
        self._font: tuple[str, float] | None = None

    def sheet(self, layout: Layout, values: PageValues | None = None) -> None:
        """Paint one page of a sheet, blank or with ``values`` written in."""
        canvas = self.canvas
        canvas.setPageSize((layout.width, layout.height))
        self._font = None
        canvas.doForm(self._form(layout.grid))
        self._font = None
        for text in layout.texts:
            self._text(text)
        if values is not None:
            self._values(layout, values)
        self.end_page()

    def end_page(self) -> None:
        self.canvas.showPage()
        self._font = None

    def finish(self) -> bytes:
        """Close the document and return the PDF."""
        self.canvas.save()
        return self._buffer.getvalue()

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
        path = canvas.beginPath()
        width: float | None = None
        for rule in grid.rules:
            if rule.width != width:
                if width is not None:
                    canvas.drawPath(path, stroke=1, fill=0)
                    path = canvas.beginPath()
                canvas.setLineWidth(rule.width)
                width = rule.width
            path.moveTo(rule.x1, rule.y1)
            path.lineTo(rule.x2, rule.y2)
        canvas.drawPath(path, stroke=1, fill=0)
        self._font = None
        for text in grid.labels:
            self._text(text)
        canvas.endForm()
        self._forms[grid] = name
        return name

    def _set_font(self, name: str, size: float) -> None:
        if self._font != (name, size):
            self.canvas.setFont(name, size)
            self._font = (name, size)

    def _text(self, text: Text) -> None:
        self._set_font(fonts.font_for(text.text, text.bold), text.size)
        if text.align == "center":
            self.canvas.drawCentredString(text.x, text.y, text.text)
        elif text.align == "right":
            self.canvas.drawRightString(text.x, text.y, text.text)
        else:
            self.canvas.drawString(text.x, text.y, text.text)

    def _in_box(self, box: Box, value: str, bold: bool = False) -> None:
        size = min(VALUE_SIZE, box.height * 0.5)
        baseline = box.y + (box.height - size * 0.72) / 2
        self._text(Text(value, box.x + box.width / 2, baseline, size, bold, "center"))

    def _values(self, layout: Layout, values: PageValues) -> None:
        canvas = self.canvas
        for (row, column), value in values.points.items():
            self._in_box(layout.points[row][column], value, bold=True)
        for (row, column), value in values.totals.items():
            self._in_box(layout.totals[row][column], value)
        for column, value in values.forward.items():
            self._in_box(layout.forward[column], value)
        for column, value in values.final.items():
            self._in_box(layout.final[column], value, bold=True)
        canvas.setLineWidth(0.9)
        for row, column in sorted(values.won):
            _ring(canvas, layout.points[row][column])
        if values.reached is not None:
            row, column = values.reached
            _heavy_box(canvas, layout.totals[row][column])
        status = layout.status
        if values.status:
            size = min(STATUS_SIZE, status.height * 0.7)
            self._text(Text(values.status, status.x, status.y + 4, size, bold=True))
        self._legend(layout.legend)

    def _legend(self, box: Box) -> None:
        canvas = self.canvas
        y = box.y + 3
        x = box.x + 4
        key = Box(x, box.y, 22, box.height)
        canvas.setLineWidth(0.9)
        _ring(canvas, key)
        self._text(Text("won the game", key.right + 3, y, 8))
        x = key.right + 3 + fonts.string_width("won the game", 8) + 10
        key = Box(x, box.y, 22, box.height)
        _heavy_box(canvas, key)
        self._text(Text("reached the target", key.right + 3, y, 8))


def _ring(canvas: Any, box: Box) -> None:
    inset_x = max(2.0, box.width * 0.12)
    inset_y = max(1.5, box.height * 0.12)
    canvas.ellipse(box.x + inset_x, box.y + inset_y, box.right - inset_x, box.top - inset_y)


def _heavy_box(canvas: Any, box: Box) -> None:
    canvas.setLineWidth(2.2)
    canvas.rect(box.x + 2, box.y + 2, box.width - 4, box.height - 4, stroke=1, fill=0)
    canvas.setLineWidth(0.9)
