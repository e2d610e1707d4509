"""Where a race chart's lines run together, or past a winner's ring: the sides' lines
(``Trace``), each stretch two lines or more share cut into pieces in their looks in turn,
and the parts of lines that pass through a ring drawn again over its white."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from sheetgen.sheet.shapes import RING, RING_HALO, STROKE

Marker = Literal[
    "circle",
    "square",
    "triangle",
    "diamond",
    "cross",
    "wedge",
    "disc",
    "box",
    "delta",
    "lozenge",
    "plus",
    "vee",
]

SHARED_BAND = STROKE + 1.6  # the white under a stretch lines share, drawn once over it


@dataclass(frozen=True)
class Trace:
    """One side's line through its running totals, with its dash pattern, grey and markers."""

    points: tuple[tuple[float, float], ...]
    dash: tuple[float, ...]
    marker: Marker
    marks: tuple[tuple[float, float], ...] = ()
    gray: float = 0.0
    # Of its marks, those of the games it won, each ringed.
    wins: tuple[tuple[float, float], ...] = ()


def shared_stretches(lines: list[Trace]) -> tuple[Trace, ...]:
    """The stretches between games that two lines or more share (the same totals at both
    ends), a run of them among the same lines as one, each cut into pieces that take those
    lines' looks in turn (``_pieces``), the first of them a different line's from one game
    to the next (print review 30: runs a game long, with room for one look or two, showed
    the same side's every time, and the others seemed to vanish)."""
    runs: list[tuple[tuple[int, ...], list[tuple[float, float]]]] = []
    starts: list[int] = []  # the game each run starts from
    running: dict[tuple[int, ...], int] = {}  # a run that reaches the game before: its place
    for step, groups in enumerate(_sharing(lines)):
        now: dict[tuple[int, ...], int] = {}
        for group in groups:
            stretch = lines[group[0]].points[step : step + 2]
            if group in running:
                place = running[group]
                runs[place][1].append(stretch[1])
            else:
                place = len(runs)
                runs.append((group, list(stretch)))
                starts.append(step)
            now[group] = place
        running = now
    rings = {point for line in lines for point in line.wins}
    return tuple(
        piece
        for (group, points), start in zip(runs, starts, strict=True)
        for piece in _pieces(
            [lines[group[(start + n) % len(group)]] for n in range(len(group))], points, rings
        )
    )


def _sharing(lines: list[Trace]) -> list[list[tuple[int, ...]]]:
    """For each stretch between two games, the groups of two lines or more that share it
    (the same totals at both ends), each as the lines' places in order."""
    found = []
    for step in range(len(lines[0].points) - 1 if lines else 0):
        ends: dict[tuple[float, float], list[int]] = {}
        for index, line in enumerate(lines):
            (_, y1), (_, y2) = line.points[step], line.points[step + 1]
            ends.setdefault((round(y1, 2), round(y2, 2)), []).append(index)
        found.append([tuple(group) for group in ends.values() if len(group) > 1])
    return found


def through_rings(lines: list[Trace]) -> tuple[Trace, ...]:
    """The parts of each line inside a winner's ring (its white disc, DISC round) that does
    not stand on the line's own point: drawn again over the white, the line is seen to run
    past the ring, not into it (print reviews 26 and 28: a ring hid a line 5 points from its
    centre, which then read as a tie, and shaved a line that grazed it to a hairline). A
    stretch the line shares with another stays under the white: its pieces in turn are
    drawn there."""
    sharing = _sharing(lines)
    steps = range(len(sharing))
    shared = {(index, step) for step in steps for group in sharing[step] for index in group}
    parts: list[Trace] = []
    for ring in (point for line in lines for point in line.wins):
        for index, line in enumerate(lines):
            if ring in line.points:  # its own ring, or a side level with it there
                continue
            run: list[tuple[float, float]] = []
            for step in steps:
                inside = (
                    None if (index, step) in shared else _clip(line.points[step : step + 2], ring)
                )
                if inside and run and math.dist(run[-1], inside[0]) < 1e-6:
                    run.append(inside[1])
                    continue
                if len(run) > 1:
                    parts.append(Trace(tuple(run), line.dash, line.marker, gray=line.gray))
                run = list(inside) if inside else []
            if len(run) > 1:
                parts.append(Trace(tuple(run), line.dash, line.marker, gray=line.gray))
    return tuple(parts)


def _clip(
    segment: tuple[tuple[float, float], ...], centre: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of ``segment`` within DISC of ``centre``, if any."""
    (x1, y1), (x2, y2) = segment
    dx, dy = x2 - x1, y2 - y1
    fx, fy = x1 - centre[0], y1 - centre[1]
    a, b, c = dx * dx + dy * dy, 2 * (fx * dx + fy * dy), fx * fx + fy * fy - DISC * DISC
    root = b * b - 4 * a * c
    if not a or root <= 0:
        return None
    low = max(0.0, (-b - math.sqrt(root)) / (2 * a))
    high = min(1.0, (-b + math.sqrt(root)) / (2 * a))
    if high - low < 1e-9:
        return None
    return (x1 + dx * low, y1 + dy * low), (x1 + dx * high, y1 + dy * high)


# A stretch lines share is cut into pieces, each in one line's look in turn, each at least
# a whole period of its line's dash pattern and PIECE_LEAST wide (print review 26: pieces 3.4
# pt long printed Bob's (8, 3) dash solid, a look the key does not have), PIECE_GAP apart
# (print review 28: every pattern starts with a dash, so abutting pieces ran together into
# a look the key does not have either).
PIECE_LEAST = 8.0
PIECE_GAP = 2.0
# A winner's ring is white inside this far from its centre, over the lines.
DISC = RING + RING_HALO / 2


def piece_width(dash: tuple[float, ...]) -> float:
    """The least width of a piece of a shared stretch drawn with ``dash``."""
    return max(PIECE_LEAST, sum(dash))


def visible(
    points: list[tuple[float, float]], rings: set[tuple[float, float]]
) -> tuple[float, float]:
    """Of a shared stretch through ``points``, the part that winners' rings at its ends
    leave showing (print review 28: the pieces' turns fell under the rings' white); the
    whole of it where that part is shorter than a piece."""
    (left, _), (right, _) = points[0], points[-1]
    start = left + (DISC if points[0] in rings else 0.0)
    end = right - (DISC if points[-1] in rings else 0.0)
    return (start, end) if end - start >= PIECE_LEAST else (left, right)


def _pieces(
    owners: list[Trace], points: list[tuple[float, float]], rings: set[tuple[float, float]]
) -> list[Trace]:
    """The polyline ``points`` (left to right) cut into pieces in the owners' looks in turn
    (print review 19: drawn in the first line's look alone, the stretch hid the other lines),
    laid out on the part the rings leave showing: as many whole rounds of them as fit at
    their least widths and PIECE_GAP apart, stretched to fill it; where not one round fits,
    as many of the owners as do, in order, one at least. The first and the last piece reach
    on under the rings to the stretch's ends."""
    (left, _), (right, _) = points[0], points[-1]
    start, end = visible(points, rings)
    widths = [piece_width(owner.dash) + PIECE_GAP for owner in owners]
    rounds = int((end - start + PIECE_GAP) // sum(widths))
    if rounds:
        order = owners * rounds
    else:
        fit = 1
        while fit < len(owners) and sum(widths[: fit + 1]) <= end - start + PIECE_GAP:
            fit += 1
        order = owners[:fit]
    least = [piece_width(owner.dash) for owner in order]
    stretch = (end - start - PIECE_GAP * (len(order) - 1)) / sum(least)

    def at(x: float) -> tuple[float, float]:
        (x1, y1), (x2, y2) = next((a, b) for a, b in pairwise(points) if x <= b[0] + 1e-9)
        return x, y1 + (y2 - y1) * (x - x1) / (x2 - x1)

    pieces = []
    for number, owner in enumerate(order):
        until = start + least[number] * stretch
        first, last = (
            (left if number == 0 else start),
            (right if number == len(order) - 1 else until),
        )
        inner = [point for point in points if first + 1e-6 < point[0] < last - 1e-6]
        pieces.append(
            Trace((at(first), *inner, at(last)), owner.dash, owner.marker, gray=owner.gray)
        )
        start = until + PIECE_GAP
    return pieces
