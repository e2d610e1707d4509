"""The race chart: each side's running total after every game, and the target as a line.

Like the sheet, the chart is laid out here as plain shapes (no reportlab) and
drawn by the painter: axes, grid and the target line form a background that
charts of the same shape share. Every side has its own dash pattern and
marker and is named at the end of its line and in the key, so the chart reads
on a black-and-white printer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sheetgen.layout import MARGIN, Grid, Measure, Rule, Text, fit
from sheetgen.scoring import SeriesResult

Marker = Literal["circle", "square", "triangle", "diamond", "disc", "cross"]
DASHES: tuple[tuple[float, ...], ...] = ((), (6, 3), (2, 2), (8, 3, 2, 3), (1, 3), (12, 4))
MARKERS: tuple[Marker, ...] = ("circle", "square", "triangle", "diamond", "disc", "cross")
LABEL_SIZE = 9.0
LABEL_GAP = 11.0
KEY_ROW = 16.0
KEY_COLUMNS = 3
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)


@dataclass(frozen=True)
class Trace:
    """One side's line through its running totals, with its dash pattern and marker."""

    points: tuple[tuple[float, float], ...]
    dash: tuple[float, ...]
    marker: Marker
    markers: bool = True


@dataclass(frozen=True)
class Chart:
    """A page of the race: a shared background, the traces and their words."""

    width: float
    height: float
    background: Grid
    traces: tuple[Trace, ...]
    texts: tuple[Text, ...]


def _step(top: int) -> int:
    """A round step that draws five to ten grid lines up to ``top``."""
    return next((step for step in STEPS if top / step <= 10), STEPS[-1])


def race_chart(
    result: SeriesResult, page: tuple[float, float], heading: str, measure: Measure
) -> Chart:
    """Lay out the race to the target on a landscape page."""
    width, height = page
    series = result.series
    target = series.rules.target
    sides = series.table.sides
    games = max(len(result.games), 1)
    highest = max([target, *result.totals.values()])
    step = _step(highest)
    ceiling = (highest // step + 1) * step

    key_rows = -(-len(sides) // KEY_COLUMNS)
    left, right = MARGIN + 40, width - MARGIN - 110
    bottom, top = MARGIN + 30 + key_rows * KEY_ROW, height - MARGIN - 48

    def px(game: float) -> float:
        return left + (right - left) * game / games

    def py(points: float) -> float:
        return bottom + (top - bottom) * points / ceiling

    rules: list[Rule] = []
    labels: list[Text] = []
    for value in range(0, ceiling + 1, step):
        rules.append(Rule(left, py(value), right, py(value), 0.4, gray=0.75))
        labels.append(Text(str(value), left - 5, py(value) - 3, 8, align="right"))
    every = -(-games // 20)
    for game in range(0, games + 1, every):
        rules.append(Rule(px(game), bottom, px(game), bottom - 4, 0.6))
        labels.append(Text(str(game), px(game), bottom - 13, 8, align="center"))
    labels.append(Text("Game", (left + right) / 2, bottom - 25, 9, True, "center"))
    rules.append(Rule(left, bottom, right, bottom, 0.9))
    rules.append(Rule(left, bottom, left, top, 0.9))
    rules.append(Rule(left, py(target), right, py(target), 2.2, dash=(10, 3)))
    labels.append(Text(f"Target: {target}", left + 6, py(target) + 5, LABEL_SIZE, True))
    subtitle = f"The race to {target}: each side's running total after every game"
    labels.append(Text(subtitle, MARGIN, height - MARGIN - 30, 10))

    title, size = fit(heading, width - 2 * MARGIN, 16, True, measure)
    texts = [Text(title, MARGIN, height - MARGIN - 14, size, True)]
    traces: list[Trace] = []
    ends: list[tuple[float, str]] = []
    for index, side in enumerate(sides):
        points = ((px(0), py(0)), *((px(g.number), py(g.totals[side])) for g in result.games))
        traces.append(Trace(points, DASHES[index], MARKERS[index]))
        ends.append((points[-1][1], side))
    for y, side in _spread(ends, bottom, top):
        label, size = fit(side, width - MARGIN - right - 6, LABEL_SIZE, False, measure)
        texts.append(Text(label, right + 6, y - 3, size))

    column = (width - 2 * MARGIN) / KEY_COLUMNS
    for index, side in enumerate(sides):
        x = MARGIN + (index % KEY_COLUMNS) * column
        y = MARGIN + (key_rows - 1 - index // KEY_COLUMNS) * KEY_ROW + 4
        traces.append(Trace(((x, y), (x + 36, y)), DASHES[index], MARKERS[index], False))
        traces.append(Trace(((x + 18, y),), (), MARKERS[index]))
        members = series.table.members(side)
        name = f"{side} ({' + '.join(members)})" if series.table.partnership else side
        label, size = fit(name, column - 50, LABEL_SIZE, False, measure)
        texts.append(Text(label, x + 44, y - 3, size))
    return Chart(width, height, Grid(tuple(rules), (), tuple(labels)), tuple(traces), tuple(texts))


def _spread(ends: list[tuple[float, str]], low: float, high: float) -> list[tuple[float, str]]:
    """Move line-end labels apart so no two overlap, keeping their order."""
    placed: list[tuple[float, str]] = []
    for y, side in sorted(ends):
        if placed and y - placed[-1][0] < LABEL_GAP:
            y = placed[-1][0] + LABEL_GAP
        placed.append((y, side))
    overflow = placed[-1][0] - high if placed else 0
    if overflow > 0:
        placed = [(max(low, y - overflow), side) for y, side in placed]
    return placed
