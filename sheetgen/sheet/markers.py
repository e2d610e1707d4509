"""Where a race chart shows the sides' markers at each game.

A game's winner shows its marker, ringed, on the game's point. A side whose line meets
another's there (drawn so close that the two strokes touch) shows its marker too, so no
side hides under another. Markers that would touch stand side by side, each on its own
line: set beside the game's point toward the side where its line runs level (print
reviews 22 and 23: a marker set beside a climbing line stood 37 pt below it, and a line
seemed to leave from another side's marker).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from sheetgen.sheet.shapes import MARKER_SIZE, RING

Point = tuple[float, float]

STROKE = 1.4  # the width of a side's line
# Lines closer than this (centre to centre) touch: where they meet, each shows its marker.
MEET = STROKE + 1.0
NEAR = 2 * MARKER_SIZE + 1.0  # markers closer than this, up or down, would touch
# Markers of sides that meet stand this far apart across the game's point; never so close
# that they touch (SQUEEZED), nor so far that they reach the next game's: a series too long
# for that shows only the markers of the games won.
APART = RING + 0.45 + MARKER_SIZE + 0.8  # a winner's ring clear of the next marker
SQUEEZED = 2 * MARKER_SIZE + 0.5


def place_markers(
    xs: Sequence[float], heights: Sequence[Sequence[float]], winners: Sequence[int]
) -> tuple[list[list[Point]], list[list[Point]]]:
    """Each side's markers, and of them those of the games it won, over the points at
    ``xs`` (the start, then one per game) where the sides' lines stand at ``heights``."""
    sides = len(heights[0])
    marks: list[list[Point]] = [[] for _ in range(sides)]
    wins: list[list[Point]] = [[] for _ in range(sides)]
    room = xs[1] - xs[0] if len(xs) > 1 else 0.0
    for game in range(1, len(xs)):

        def on_line(side: int, shift: float, game: int = game) -> float:
            """The side's line's height ``shift`` right (+) or left of the game's point;
            beside a line's end, the end's."""
            other = game + (1 if shift > 0 else -1)
            if not shift or other >= len(xs):
                return heights[game][side]
            rise = heights[other][side] - heights[game][side]
            return heights[game][side] + rise * shift / (xs[other] - xs[game])

        winner = winners[game - 1]
        for side, shift, y in _shifts(heights[game], winner, room, on_line):
            mark = (xs[game] + shift, y)
            marks[side].append(mark)
            if side == winner:
                wins[side].append(mark)
    return marks, wins


def _shifts(
    heights: Sequence[float],
    winner: int,
    room: float,
    on_line: Callable[[int, float], float],
) -> list[tuple[int, float, float]]:
    """The sides with a marker at one game, how far each stands right (+) or left of the
    game's point, and at what height: the winner's on the point, with its ring (print
    review 20: a ring moved off its game), and every side whose line meets another's there.
    Markers that would touch stand side by side, each on its own line: in the order of the
    key, each takes the nearest free place beside the winner's (or around the point, in a
    group without the winner) where its line runs most nearly level and it touches no
    marker set before it; where games stand too close for any, the nearest place at its
    game's height. Where a group cannot stand apart within ``room`` (the space between two
    games' points), only the winner's is shown."""
    order = sorted(range(len(heights)), key=lambda index: heights[index])
    marked = {winner}
    for low, high in pairwise(order):
        if heights[high] - heights[low] < MEET:
            marked |= {low, high}
    groups: list[list[int]] = []
    for index in (index for index in order if index in marked):
        if groups and heights[index] - heights[groups[-1][-1]] < NEAR:
            groups[-1].append(index)
        else:
            groups.append([index])
    groups.sort(key=lambda group: winner not in group)
    found: dict[int, Point] = {}

    def clear(index: int, shift: float) -> bool:
        mark = (shift, on_line(index, shift))
        return all(not _touch(mark, other) for other in found.values())

    for group in groups:
        # Places from the point, steps apart: 0 for the winner, then 1, -1, 2, -2 ...; in a
        # group without the winner, centred on the point (-0.5, 0.5 for two). Farther ones
        # within ``room`` are there for a marker that would touch another at these.
        widest: float
        if winner in group:
            members = [winner, *sorted(index for index in group if index != winner)]
            widest = len(members) // 2
        else:
            members = sorted(group)
            widest = (len(members) - 1) / 2
        reach = room / 2 - MARKER_SIZE - 1
        apart = APART if not widest else min(APART, reach / widest)
        if apart < SQUEEZED:
            found.update({index: (0.0, heights[index]) for index in group if index == winner})
            continue
        offset = widest % 1
        steps = int(reach / apart - offset + 1e-9)
        free = sorted(
            {sign * (step + offset) * apart for step in range(steps + 1) for sign in (1, -1)}
        )
        for index in members:
            ranked = sorted(
                free, key=lambda shift: (abs(shift), abs(on_line(index, shift) - heights[index]))
            )
            shift = next((shift for shift in ranked if clear(index, shift)), None)
            if shift is None:  # nowhere on its line: beside the point at its game's height
                found[index] = (ranked[0], heights[index])
            else:
                found[index] = (shift, on_line(index, shift))
            free.remove(found[index][0])
    return [(index, shift, y) for index, (shift, y) in found.items()]


def _touch(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) < 2 * MARKER_SIZE - 1e-9 and abs(a[1] - b[1]) < 2 * MARKER_SIZE
