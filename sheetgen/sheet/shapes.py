"""The plain shapes a sheet or a chart is laid out in, in points: boxes, texts, rules, shades."""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Align = Literal["left", "center", "right"]


class Box(NamedTuple):
    """A rectangle on the page."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height


class Text(NamedTuple):
    """A line of text: ``y`` is its baseline, ``x`` its left, centre or right edge."""

    text: str
    x: float
    y: float
    size: float
    bold: bool = False
    align: Align = "left"


class Rule(NamedTuple):
    """A straight line, solid black unless it says otherwise."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.5
    gray: float = 0.0
    dash: tuple[float, ...] = ()


class Shade(NamedTuple):
    """A light grey background that only helps the eye; it never carries meaning alone."""

    box: Box
    gray: float


class Grid(NamedTuple):
    """The part of a page that is the same on every sheet of this shape."""

    rules: tuple[Rule, ...]
    shades: tuple[Shade, ...]
    labels: tuple[Text, ...]


def outline(box: Box, width: float) -> list[Rule]:
    """The four sides of ``box`` as rules ``width`` thick."""
    x1, y1, x2, y2 = box.x, box.y, box.right, box.top
    return [
        Rule(x1, y1, x2, y1, width),
        Rule(x2, y1, x2, y2, width),
        Rule(x2, y2, x1, y2, width),
        Rule(x1, y2, x1, y1, width),
    ]


# A straight apostrophe after a letter: in a word (game's) or ending one (players').
APOSTROPHE = re.compile(r"(?<=\w)'")
KAPPA = 0.5523  # control-point distance of a quarter circle drawn as one cubic Bézier
# One step of a path: "M" move to, "L" line to (x, y); "C" a cubic Bézier (x1, y1, x2, y2,
# x, y); "Z" close the part.
Step = tuple[str, tuple[float, ...]]


def as_printed(text: str) -> str:
    """A text as it is printed: an apostrophe set as a typesetter sets it (game’s,
    players’), as in the booklet."""
    return APOSTROPHE.sub("\N{RIGHT SINGLE QUOTATION MARK}", text)


def quarters(
    cx: float, cy: float, rx: float, ry: float
) -> tuple[tuple[float, float], tuple[tuple[float, float, float, float, float, float], ...]]:
    """An ellipse as four Bézier quarters: where it starts and each curve's three points."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (cx + rx, cy), (
        (cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        (cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        (cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        (cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
    )


def dot_path(x: float, y: float, radius: float) -> tuple[Step, ...]:
    """A round dot of ``radius`` centred on (x, y), as path steps that every painter (PDF
    or SVG) draws alike."""
    start, curves = quarters(x, y, radius, radius)
    return (("M", start), *(("C", curve) for curve in curves), ("Z", ()))
