"""Where everything on a score sheet goes, in points: one layout for blank and filled sheets.

The layout knows nothing of reportlab: it takes the page size, what the
header says and a ``measure(text, size, bold)`` function for text widths, and
returns boxes, rules and texts. The painter draws them; the filled sheet
writes its values into the slots the layout names. Origin bottom left, as in
PDF.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Measure = Callable[[str, float, bool], float]
Align = Literal["left", "center", "right"]

MARGIN = 30.0  # every mark at least 18 pt (0.25 in) from the edge, with room to spare
MIN_ROW = 0.3 * 72  # a game cell takes handwriting: at least 0.3 in tall
MAX_ROW = 40.0
GAME_COLUMN = 44.0
TITLE_BAND = 26.0
TARGET_BAND = 24.0
STATUS_BAND = 16.0
NAME_ROW = 30.0
TEAM_NAME_ROW = 38.0
SUBHEAD_ROW = 15.0
TOTALS_ROW = 26.0
FOOT_BAND = 12.0
GAP = 6.0
NAME_SIZE = 12.0
MIN_TEXT_SIZE = 5.0
PADDING = 4.0
WRAP_BELOW = 9.0  # a name that would shrink below this goes on two lines
TWO_LINE_SIZE = 11.0
ELLIPSIS = "…"


@dataclass(frozen=True)
class Box:
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


@dataclass(frozen=True)
class Text:
    """A line of text: ``y`` is its baseline, ``x`` its left, centre or right edge."""

    text: str
    x: float
    y: float
    size: float
    bold: bool = False
    align: Align = "left"


@dataclass(frozen=True)
class Rule:
    """A straight line, solid black unless it says otherwise."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.5
    gray: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Shade:
    """A light grey background that only helps the eye; it never carries meaning alone."""

    box: Box
    gray: float


@dataclass(frozen=True)
class Heading:
    """One side's column head: its name and, for a team, the partners."""

    name: str = ""
    members: tuple[str, ...] = ()
    caption: str = ""


@dataclass(frozen=True)
class SheetSpec:
    """What a sheet says, independent of its page: columns, target, title, reminder."""

    headings: tuple[Heading, ...]
    columns: int
    target: int
    title: str
    reminder: str
    partnership: bool = False


@dataclass(frozen=True)
class Grid:
    """The part of a page that is the same on every sheet of this shape."""

    rules: tuple[Rule, ...]
    shades: tuple[Shade, ...]
    labels: tuple[Text, ...]


@dataclass(frozen=True)
class Layout:
    """One page of a sheet: the grid, its words, and the slots the filled values go in."""

    width: float
    height: float
    grid: Grid
    texts: tuple[Text, ...]
    games: tuple[int, ...]
    points: tuple[tuple[Box, ...], ...]
    totals: tuple[tuple[Box, ...], ...]
    forward: tuple[Box, ...]
    final: tuple[Box, ...]
    status: Box
    legend: Box
    names: tuple[Box, ...]


def fit(text: str, width: float, size: float, bold: bool, measure: Measure) -> tuple[str, float]:
    """Shrink ``text`` to fit ``width``; below the smallest size, cut it short with an ellipsis."""
    wide = measure(text, size, bold)
    if wide <= width:
        return text, size
    smaller = size * width / wide
    if smaller >= MIN_TEXT_SIZE:
        return text, smaller
    shortened = text
    while shortened and measure(shortened + ELLIPSIS, MIN_TEXT_SIZE, bold) > width:
        shortened = shortened[:-1]
    return shortened.rstrip() + ELLIPSIS, MIN_TEXT_SIZE


def row_capacity(page: tuple[float, float], spec: SheetSpec) -> int:
    """How many game rows one page holds at the smallest row height, with a brought-forward row."""
    return int(_table_room(page, spec) // MIN_ROW) - 1


def _name_row(spec: SheetSpec) -> float:
    return TEAM_NAME_ROW if spec.partnership else NAME_ROW


def _table_room(page: tuple[float, float], spec: SheetSpec) -> float:
    height = page[1]
    fixed = TITLE_BAND + TARGET_BAND + STATUS_BAND + _name_row(spec) + SUBHEAD_ROW
    fixed += TOTALS_ROW + FOOT_BAND + 4 * GAP
    return height - 2 * MARGIN - fixed


def layout_page(
    page: tuple[float, float],
    spec: SheetSpec,
    games: tuple[int, ...],
    forward: bool,
    measure: Measure,
) -> Layout:
    """Lay out one landscape page of ``games`` (their numbers), after a brought-forward row."""
    width, height = page
    left, right, top = MARGIN, width - MARGIN, height - MARGIN
    body_rows = len(games) + (1 if forward else 0)
    row = min(MAX_ROW, _table_room(page, spec) / body_rows)
    if row < MIN_ROW:
        raise ValueError(f"{body_rows} rows do not fit one page; split them first")

    texts: list[Text] = []
    labels: list[Text] = []
    rules: list[Rule] = []
    shades: list[Shade] = []

    # Title on the left, blanks for the date and the place on the right.
    baseline = top - 18
    blanks = (("Date", 110.0), ("Place", 150.0))
    x = right
    for label, line in reversed(blanks):
        rules.append(Rule(x - line, baseline - 2, x, baseline - 2, 0.6))
        x -= line + 4
        labels.append(Text(label, x, baseline, 10, align="right"))
        x -= measure(label, 10, False) + 16
    title, size = fit(spec.title, x - left, 18, True, measure)
    texts.append(Text(title, left, baseline, size, bold=True))

    # The target, boxed and bold, so nobody forgets the goal.
    band_top = top - TITLE_BAND - GAP
    band = Box(left, band_top - TARGET_BAND, right - left, TARGET_BAND)
    rules.extend(_outline(band, 1.6))
    target_text = f"Target: {spec.target} points. The first to reach {spec.target} wins the series."
    words, size = fit(target_text, band.width - 2 * PADDING, 13, True, measure)
    texts.append(Text(words, left + band.width / 2, band.y + 8, size, bold=True, align="center"))

    label = "Series winner:"
    labels.append(Text(label, left, band.y - GAP - STATUS_BAND + 4, 10, bold=True))
    status_x = left + measure(label, 10, True) + 6
    status = Box(status_x, band.y - GAP - STATUS_BAND, right - status_x, STATUS_BAND)
    rules.append(Rule(status.x, status.y + 2, status.right, status.y + 2, 0.6))

    # The table: game column, then per side a points and a total column.
    table_top = status.y - GAP
    side_width = (right - left - GAME_COLUMN) / spec.columns
    sub = side_width / 2
    name_top, name_bottom = table_top, table_top - _name_row(spec)
    sub_bottom = name_bottom - SUBHEAD_ROW
    body_top = sub_bottom
    body_bottom = body_top - body_rows * row
    totals_bottom = body_bottom - TOTALS_ROW

    shades.append(Shade(Box(left, sub_bottom, right - left, SUBHEAD_ROW), 0.88))
    shades.append(Shade(Box(left, name_bottom, GAME_COLUMN, name_top - name_bottom), 0.88))
    shades.append(Shade(Box(left, totals_bottom, right - left, TOTALS_ROW), 0.88))
    shades.append(Shade(Box(left, body_bottom, GAME_COLUMN, body_top - body_bottom), 0.94))

    rules.extend(_outline(Box(left, totals_bottom, right - left, table_top - totals_bottom), 1.4))
    for index in range(1, spec.columns):
        x = left + GAME_COLUMN + index * side_width
        rules.append(Rule(x, totals_bottom, x, table_top, 1.4))
    rules.append(Rule(left + GAME_COLUMN, totals_bottom, left + GAME_COLUMN, table_top, 1.4))
    for index in range(spec.columns):
        x = left + GAME_COLUMN + index * side_width + sub
        rules.append(Rule(x, totals_bottom, x, name_bottom, 0.5))
    rules.append(Rule(left + GAME_COLUMN, name_bottom, right, name_bottom, 0.5))
    rules.append(Rule(left, sub_bottom, right, sub_bottom, 1.2))
    for index in range(1, body_rows):
        y = body_top - index * row
        rules.append(Rule(left, y, right, y, 1.0 if forward and index == 1 else 0.5))
    rules.append(Rule(left, body_bottom, right, body_bottom, 1.4))
    rules.append(Rule(left, body_bottom - 2, right, body_bottom - 2, 0.5))

    labels.append(Text("Game", left + GAME_COLUMN / 2, sub_bottom + 4, 9, True, "center"))
    names: list[Box] = []
    for index in range(spec.columns):
        x = left + GAME_COLUMN + index * side_width
        names.append(Box(x, name_bottom, side_width, name_top - name_bottom))
        for offset, label in ((0.0, "Points"), (sub, "Total")):
            labels.append(Text(label, x + offset + sub / 2, sub_bottom + 4, 9, False, "center"))
    for box, heading in zip(names, spec.headings, strict=False):
        texts.extend(_heading_texts(box, heading, measure))

    def cells(y: float) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
        xs = [left + GAME_COLUMN + index * side_width for index in range(spec.columns)]
        return (
            tuple(Box(x, y, sub, row) for x in xs),
            tuple(Box(x + sub, y, sub, row) for x in xs),
        )

    number_size = min(12.0, row * 0.5)
    forward_boxes: tuple[Box, ...] = ()
    y = body_top
    if forward:
        y -= row
        forward_boxes = cells(y)[1]
        middle = y + row / 2
        texts.append(Text("Brought", left + GAME_COLUMN / 2, middle + 1, 7.5, False, "center"))
        texts.append(Text("forward", left + GAME_COLUMN / 2, middle - 7, 7.5, False, "center"))
    points: list[tuple[Box, ...]] = []
    totals: list[tuple[Box, ...]] = []
    for number in games:
        y -= row
        texts.append(
            Text(
                str(number),
                left + GAME_COLUMN / 2,
                y + (row - number_size * 0.7) / 2,
                number_size,
                True,
                "center",
            )
        )
        game_points, game_totals = cells(y)
        points.append(game_points)
        totals.append(game_totals)
    labels.append(Text("Total", left + GAME_COLUMN / 2, totals_bottom + 9, 10, True, "center"))
    final = cells(totals_bottom)[1]
    final = tuple(Box(box.x, box.y, box.width, TOTALS_ROW) for box in final)

    foot = Box(left, totals_bottom - GAP - FOOT_BAND, right - left, FOOT_BAND)
    legend = Box(left + foot.width * 0.7, foot.y, foot.width * 0.3, FOOT_BAND)
    reminder, size = fit(spec.reminder, foot.width * 0.7 - PADDING, 9, False, measure)
    texts.append(Text(reminder, left, foot.y + 3, size))

    return Layout(
        width=width,
        height=height,
        grid=Grid(tuple(rules), tuple(shades), tuple(labels)),
        texts=tuple(texts),
        games=games,
        points=tuple(points),
        totals=tuple(totals),
        forward=forward_boxes,
        final=final,
        status=status,
        legend=legend,
        names=tuple(names),
    )


def _name_lines(name: str, room: float, measure: Measure) -> list[tuple[str, float]]:
    """One line of the name if it stays legible, else two lines split at the best space."""
    line, size = fit(name, room, NAME_SIZE, True, measure)
    if size >= WRAP_BELOW or " " not in name:
        return [(line, size)]
    words = name.split(" ")
    splits = [(" ".join(words[:n]), " ".join(words[n:])) for n in range(1, len(words))]
    upper, lower = min(splits, key=lambda pair: max(measure(part, 1, True) for part in pair))
    both = min(fit(part, room, TWO_LINE_SIZE, True, measure)[1] for part in (upper, lower))
    if both <= size:
        return [(line, size)]
    return [fit(upper, room, both, True, measure), fit(lower, room, both, True, measure)]


def _outline(box: Box, width: float) -> list[Rule]:
    x1, y1, x2, y2 = box.x, box.y, box.right, box.top
    return [
        Rule(x1, y1, x2, y1, width),
        Rule(x2, y1, x2, y2, width),
        Rule(x2, y2, x1, y2, width),
        Rule(x1, y2, x1, y1, width),
    ]


def _heading_texts(box: Box, heading: Heading, measure: Measure) -> list[Text]:
    room = box.width - 2 * PADDING
    centre = box.x + box.width / 2
    if heading.caption:
        caption, size = fit(heading.caption, room, 7, False, measure)
        texts = [Text(caption, box.x + PADDING, box.top - 3 - size * 0.75, size)]
        if heading.members:
            texts.append(Text("+", centre, box.y + 5, 9, False, "center"))
        return texts
    if not heading.members:
        lines = _name_lines(heading.name, room, measure)
        size = lines[0][1]
        middle = box.y + box.height / 2
        if len(lines) == 1:
            return [Text(lines[0][0], centre, middle - size * 0.35, size, True, "center")]
        (upper, upper_size), (lower, lower_size) = lines
        return [
            Text(upper, centre, middle + 1.5, upper_size, True, "center"),
            Text(lower, centre, middle - 1.5 - lower_size * 0.72, lower_size, True, "center"),
        ]
    name, size = fit(heading.name, room, NAME_SIZE, True, measure)
    partners, small = fit(" + ".join(heading.members), room, 9, False, measure)
    return [
        Text(name, centre, box.top - 5 - size * 0.75, size, True, "center"),
        Text(partners, centre, box.y + 5, small, False, "center"),
    ]
