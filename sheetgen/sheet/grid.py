"""A score sheet's table: the sides' columns, the game rows, the totals and the footnote's
place, worked out once for every page of a shape and shared by blank and filled sheets.

The game column is wide enough for the longest word any catalogue sets in it at its role's
size ("Summe" at 10 pt bold as "Total" is, "Blatt 10 von 13", "Übertrag"): a role has one
size in every language, and a test measures each catalogue's words against the column.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from sheetgen.game.wording import Labels
from sheetgen.sheet.shapes import Box, Grid, Rule, Shade, Text, outline

MARGIN = 30.0  # every mark at least 18 pt (0.25 in) from the edge, with room to spare
GAME_COLUMN = 54.0
GAP = 6.0
ASCENT = 0.76  # of the bundled face, as a share of the size
SUBHEAD_ROW = 15.0
SUBHEAD_SIZE = 9.0
TOTALS_ROW = 24.0
NUMBER_SIZE = 12.0
FORWARD_SIZE = 8.0  # "Brought forward", "Carried forward" and "Sheet 2 of 3", on two lines
TOTAL_SIZE = 10.0  # the Total row's label
FOOT_SIZE = 8.0
FOOT_LINE = 10.0


def side_columns(width: float, sides: int) -> tuple[float, tuple[float, ...]]:
    """How wide each side's column is on a page ``width`` wide, and where each one starts:
    the sides share evenly what the margins and the game column leave."""
    left, right = MARGIN, width - MARGIN
    side_width = (right - left - GAME_COLUMN) / sides
    return side_width, tuple(left + GAME_COLUMN + index * side_width for index in range(sides))


class PageShape(NamedTuple):
    """What a page's frame depends on: two pages alike in all of it share one frame."""

    width: float
    height: float
    sides: int
    table_top: float
    name_row: float
    games: tuple[int, ...]
    forward: bool
    row: float
    sheet: tuple[int, int] | None
    labels: Labels
    scored: str
    plan_labels: tuple[Text, ...]
    plan_rules: tuple[Rule, ...]
    captions: tuple[tuple[Text, ...], ...]  # a blank sheet's column heads, placed at x = 0
    foot: tuple[tuple[str, float], ...]
    keys: tuple[Box, ...]
    key_texts: tuple[Text, ...]
    # What the foot row says when the sheet goes on on the next page ("Carried forward");
    # empty on a sheet's last page, whose foot row is its Total.
    carried: str = ""
    # What a last page's foot row says instead of Total ("So far": a series still open).
    total: str = ""


class Frame(NamedTuple):
    """A page without the sheet's own words: its grid, the texts set before the sides' names
    (``lead``) and after them (``tail``), where each column starts and the slots."""

    grid: Grid
    lead: tuple[Text, ...]
    tail: tuple[Text, ...]
    columns: tuple[float, ...]
    points: tuple[tuple[Box, ...], ...]
    totals: tuple[tuple[Box, ...], ...]
    forward: tuple[Box, ...]
    final: tuple[Box, ...]
    keys: tuple[Box, ...]
    names: tuple[Box, ...]


class _Bands(NamedTuple):
    """Where the table of a page lies: its edges, the sides' columns and, top to bottom,
    the names, the column heads, the game rows and the totals."""

    left: float
    right: float
    side_width: float
    columns: tuple[float, ...]
    table_top: float
    name_bottom: float
    body_top: float  # the column heads' bottom
    body_bottom: float
    totals_bottom: float

    @property
    def sub(self) -> float:
        """The width of each of a side's two columns (its score and its running total)."""
        return self.side_width / 2

    def cells(self, y: float, tall: float) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
        """Every side's score and running-total cell of the row ``tall`` high at ``y``."""
        return (
            tuple(Box(x, y, self.sub, tall) for x in self.columns),
            tuple(Box(x + self.sub, y, self.sub, tall) for x in self.columns),
        )


@lru_cache(maxsize=256)  # a batch of sheets has a handful of shapes, page after page
def frame(shape: PageShape) -> Frame:
    """The frame of every page of ``shape``."""
    body_rows = len(shape.games) + (1 if shape.forward else 0)
    side_width, columns = side_columns(shape.width, shape.sides)
    name_bottom = shape.table_top - shape.name_row
    body_top = name_bottom - SUBHEAD_ROW
    body_bottom = body_top - body_rows * shape.row
    bands = _Bands(
        left=MARGIN,
        right=shape.width - MARGIN,
        side_width=side_width,
        columns=columns,
        table_top=shape.table_top,
        name_bottom=name_bottom,
        body_top=body_top,
        body_bottom=body_bottom,
        totals_bottom=body_bottom - TOTALS_ROW,
    )
    rules, shades = _lines(shape, bands, body_rows)
    labels = list(shape.plan_labels)
    lead = _heads(shape, bands, labels)
    forward, points, totals, tail = _rows(shape, bands, labels)
    keys = _foot(shape, bands, tail)
    return Frame(
        grid=Grid(tuple(rules), tuple(shades), tuple(labels)),
        lead=tuple(lead),
        tail=tuple(tail),
        columns=columns,
        points=tuple(points),
        totals=tuple(totals),
        forward=forward,
        final=bands.cells(bands.totals_bottom, TOTALS_ROW)[1],
        keys=keys,
        names=tuple(Box(x, name_bottom, side_width, shape.name_row) for x in columns),
    )


def _lines(shape: PageShape, bands: _Bands, body_rows: int) -> tuple[list[Rule], list[Shade]]:
    """The table's rules and shades, after the rules the header drew."""
    left, right, row = bands.left, bands.right, shape.row
    sub_bottom, body_top, body_bottom = bands.body_top, bands.body_top, bands.body_bottom
    name_bottom, totals_bottom, table_top = bands.name_bottom, bands.totals_bottom, bands.table_top
    rules = list(shape.plan_rules)
    shades: list[Shade] = []
    shades.append(Shade(Box(left, sub_bottom, right - left, SUBHEAD_ROW), 0.88))
    shades.append(Shade(Box(left, name_bottom, GAME_COLUMN, shape.name_row), 0.88))
    shades.append(Shade(Box(left, totals_bottom, right - left, TOTALS_ROW), 0.88))
    shades.append(Shade(Box(left, body_bottom, GAME_COLUMN, body_top - body_bottom), 0.94))

    rules.extend(outline(Box(left, totals_bottom, right - left, table_top - totals_bottom), 1.4))
    for x in bands.columns:
        rules.append(Rule(x, totals_bottom, x, table_top, 1.4))
    for x in bands.columns:
        rules.append(Rule(x + bands.sub, totals_bottom, x + bands.sub, name_bottom, 0.5))
    rules.append(Rule(left + GAME_COLUMN, name_bottom, right, name_bottom, 0.5))
    rules.append(Rule(left, sub_bottom, right, sub_bottom, 1.2))
    for index in range(1, body_rows):
        y = body_top - index * row
        rules.append(Rule(left, y, right, y, 1.0 if shape.forward and index == 1 else 0.5))
    rules.append(Rule(left, body_bottom, right, body_bottom, 1.4))
    rules.append(Rule(left, body_bottom - 2, right, body_bottom - 2, 0.5))
    return rules, shades


def _heads(shape: PageShape, bands: _Bands, labels: list[Text]) -> list[Text]:
    """The column heads' words added to ``labels``; returns the words over the game numbers
    ("Sheet 2 of 3"), set before the sides' names."""
    left, sub, sub_bottom, name_bottom = bands.left, bands.sub, bands.body_top, bands.name_bottom
    words = shape.labels
    lead: list[Text] = []
    labels.append(
        Text(words.game, left + GAME_COLUMN / 2, sub_bottom + 4, SUBHEAD_SIZE, True, "center")
    )
    if shape.sheet is not None:
        said = words.sheet.format(number=shape.sheet[0], count=shape.sheet[1]).split(None, 1)
        middle = name_bottom + shape.name_row / 2
        baselines = (middle + 1, middle - 8) if len(said) > 1 else (middle - 3,)
        for word, baseline in zip(said, baselines, strict=False):
            lead.append(Text(word, left + GAME_COLUMN / 2, baseline, FORWARD_SIZE, True, "center"))
    for index, x in enumerate(bands.columns):
        for offset, label in ((0.0, shape.scored), (sub, words.total)):
            labels.append(
                Text(label, x + offset + sub / 2, sub_bottom + 4, SUBHEAD_SIZE, False, "center")
            )
        if shape.captions:
            labels.extend(
                Text(t.text, x + t.x, t.y, t.size, t.bold, t.align) for t in shape.captions[index]
            )
    return lead


def _rows(
    shape: PageShape, bands: _Bands, labels: list[Text]
) -> tuple[tuple[Box, ...], list[tuple[Box, ...]], list[tuple[Box, ...]], list[Text]]:
    """The brought-forward row's cells, each game's score and total cells, and the game
    numbers; the rows' fixed words are added to ``labels``."""
    left, row, words = bands.left, shape.row, shape.labels
    tail: list[Text] = []
    number_size = min(NUMBER_SIZE, row * 0.5)
    forward_boxes: tuple[Box, ...] = ()
    y = bands.body_top
    if shape.forward:
        y -= row
        forward_boxes = bands.cells(y, row)[1]
        middle = y + row / 2
        said = words.brought_forward.split(None, 1)
        baselines = (middle + 1, middle - 7) if len(said) > 1 else (middle - 3,)
        # Bold, as every word of the game column is (print review 35: "Brought forward"
        # regular, "Carried forward" bold).
        for word, baseline in zip(said, baselines, strict=False):
            labels.append(
                Text(word, left + GAME_COLUMN / 2, baseline, FORWARD_SIZE, True, "center")
            )
    points: list[tuple[Box, ...]] = []
    totals: list[tuple[Box, ...]] = []
    for number in shape.games:
        y -= row
        baseline = y + (row - number_size * 0.72) / 2
        tail.append(
            Text(str(number), left + GAME_COLUMN / 2, baseline, number_size, True, "center")
        )
        game_points, game_totals = bands.cells(y, row)
        points.append(game_points)
        totals.append(game_totals)
    middle = bands.totals_bottom + TOTALS_ROW / 2
    if shape.carried:  # a page the sheet goes on from: its foot row is carried to the next
        said = shape.carried.split(None, 1)
        baselines = (middle + 1, middle - 7) if len(said) > 1 else (middle - 3,)
        for word, baseline in zip(said, baselines, strict=False):
            labels.append(
                Text(word, left + GAME_COLUMN / 2, baseline, FORWARD_SIZE, True, "center")
            )
    else:
        labels.append(
            Text(
                shape.total or words.total,
                left + GAME_COLUMN / 2,
                middle - 4,
                TOTAL_SIZE,
                True,
                "center",
            )
        )
    return forward_boxes, points, totals, tail


def _foot(shape: PageShape, bands: _Bands, tail: list[Text]) -> tuple[Box, ...]:
    """The footnote's lines and the key's words added to ``tail``; returns the key's boxes."""
    foot_top = bands.totals_bottom - GAP
    for index, (line, size) in enumerate(shape.foot):
        tail.append(
            Text(line, bands.left, foot_top - FOOT_SIZE * ASCENT - 1 - index * FOOT_LINE, size)
        )
    # The key stands beside a footnote of more lines between its first two, a line of its
    # own (print review 35: the key read as the end of the footnote's first line).
    key_line = foot_top - FOOT_SIZE * ASCENT - 1 - (FOOT_LINE / 2 if len(shape.foot) > 1 else 0)
    tail.extend(Text(t.text, t.x, key_line, t.size) for t in shape.key_texts)
    return tuple(Box(key.x, key_line - 2, key.width, key.height) for key in shape.keys)
