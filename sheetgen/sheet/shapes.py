"""The plain shapes a sheet or a chart is laid out in, in points: boxes, texts, rules, shades."""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Align = Literal["left", "center", "right"]
MARKER_SIZE = 3.2  # half the width of a marker on a chart's line
STROKE = 1.4  # the width of a side's line on a chart


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
# The markers filled white (hollow); the others are filled black (a cross and a plus, open
# strokes, are only stroked). Six shapes, each hollow and solid.
HOLLOW = frozenset({"circle", "triangle", "box", "lozenge", "vee"})
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


# The ring round a game's winner's marker on a chart: this far from its centre, over a white
# band RING_HALO wide that parts it from the marker and the lines (print review 14: a
# solid square nearly filled its ring, a blob in grey); the band's inside clears a square
# marker's corners, outline and all (print reviews 17 and 18: it cut them off, and the
# square read as a disc).
MARKER_CORNER = MARKER_SIZE * 2**0.5 + 0.45  # a square's corner with its stroke
RING_HALO = 2.0
# The ring's ink stands 0.85 pt clear of a square's corner (print review 26: 0.65).
RING = MARKER_CORNER + RING_HALO / 2 + 0.3
# Every marker stands on a white halo, its outline stroked this wide in white under it, so a
# line that crosses a marker stops short of it, 0.8 pt each side of its 0.9 pt outline (print
# review 21: a rising line crossed another side's marker and read as part of it).
MARKER_HALO = 0.9 + 2 * 0.8


def ring_path(x: float, y: float) -> tuple[Step, ...]:
    """The ring round the marker of a game's winner, centred on (x, y): a game won reads
    apart from lines that merely meet (print review 11)."""
    start, curves = quarters(x, y, RING, RING)
    return (("M", start), *(("C", curve) for curve in curves), ("Z", ()))


def marker_path(kind: str, x: float, y: float) -> tuple[Step, ...]:
    """The outline of a chart's marker of ``kind`` centred on (x, y), as path steps that
    every painter (PDF or SVG) draws alike."""
    size = MARKER_SIZE
    if kind in ("circle", "disc"):
        start, curves = quarters(x, y, size, size)
        return (("M", start), *(("C", curve) for curve in curves), ("Z", ()))
    corners: tuple[tuple[float, float], ...]
    if kind in ("square", "box"):
        corners = ((x - size, y - size), (x + size, y - size), (x + size, y + size))
        corners += ((x - size, y + size),)
    elif kind in ("triangle", "delta"):
        corners = ((x - size, y - size), (x + size, y - size), (x, y + size * 1.1))
    elif kind in ("wedge", "vee"):
        corners = ((x - size, y + size), (x + size, y + size), (x, y - size * 1.1))
    elif kind in ("diamond", "lozenge"):
        corners = ((x, y - size * 1.2), (x + size, y), (x, y + size * 1.2), (x - size, y))
    elif kind == "plus":
        return (
            ("M", (x - size * 1.2, y)),
            ("L", (x + size * 1.2, y)),
            ("M", (x, y - size * 1.2)),
            ("L", (x, y + size * 1.2)),
        )
    else:  # a cross
        return (
            ("M", (x - size, y - size)),
            ("L", (x + size, y + size)),
            ("M", (x - size, y + size)),
            ("L", (x + size, y - size)),
        )
    first, *rest = corners
    return (("M", first), *(("L", corner) for corner in rest), ("Z", ()))
