"""The plain shapes a sheet or a chart is laid out in, in points: boxes, texts, rules, shades."""

from __future__ import annotations

from typing import Literal, NamedTuple

Align = Literal["left", "center", "right"]
MARKER_SIZE = 3.2  # half the width of a marker on a chart's line


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
