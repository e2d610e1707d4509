"""Where a race chart shows the sides' markers at each game.

A game's winner shows its marker, ringed, on the game's point. A side whose line meets
another's there (drawn so close that the two strokes touch) shows its marker too, so no
side hides under another. Markers that would touch stand side by side, each on its own
line (print review 22: a marker set beside a climbing line stood 37 pt below it), seated
so that no other side's line runs through one (print reviews 23 and 24: a line leaving a
tie seemed to leave from another side's marker); where no seat on their lines keeps them
apart, at their game's height.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, pairwise, permutations

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

        def on_line(side: int, shift: float, game: int = game) -> float | None:
            """The side's line's height ``shift`` right (+) or left of the game's point;
            None past the line's end."""
            other = game + (1 if shift > 0 else -1)
            if not shift:
                return heights[game][side]
            if other >= len(xs):
                return None
            rise = heights[other][side] - heights[game][side]
            return heights[game][side] + rise * shift / (xs[other] - xs[game])

        winner = winners[game - 1]
        for side, shift, y in _shifts(heights[game], winner, room, on_line):
            mark = (xs[game] + shift, y)
            marks[side].append(mark)
            if side == winner:
                wins[side].append(mark)
    return marks, wins


def _shifts(  # long: the groups, their places, and the search for the best of them
    heights: Sequence[float],
    winner: int,
    room: float,
    on_line: Callable[[int, float], float | None],
) -> list[tuple[int, float, float]]:
    """The sides with a marker at one game, how far each stands right (+) or left of the
    game's point, and at what height: the winner's on the point, with its ring (print
    review 20: a ring moved off its game), and every side whose line meets another's there.
    Markers that would touch stand side by side, each on its own line (print review 22: a
    marker set aside on the tie's height stood 37 pt below its climbing line): of the
    places beside the winner's (or around the point, in a group without the winner), the
    ones where no marker touches another, no other side's line runs through a marker (print
    review 24: a line leaving a tie seemed to leave from the other side's marker), none
    stands past the end of its line, then the nearest, then where the lines run most
    nearly level. Where no seat keeps them all apart, every marker of the game stands at
    its game's height (``_level``). Where a group cannot stand apart within ``room`` (the
    space between two games' points), only the winner's is shown."""
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

    def height(index: int, shift: float) -> float:
        """Where the side's marker stands at ``shift``: on its line, or beside its end at
        the end's height."""
        y = on_line(index, shift)
        return heights[index] if y is None else y

    def crossed(index: int, mark: Point) -> int:
        """How many other sides' lines run through a marker of ``index``'s at ``mark``
        (its halo's width around it), a stretch they share with its own line apart, and a
        level line through the marker of a side whose own line leaves it there (a line
        that leaves a tie starts from its own marker)."""
        reach = MARKER_SIZE + 0.8
        count = 0
        for other in range(len(heights)):
            if other == index:
                continue
            for left, right in ((mark[0] - reach, min(mark[0] + reach, 0.0)),
                                (max(mark[0] - reach, 0.0), mark[0] + reach)):  # fmt: skip
                if left >= right:
                    continue
                ends = [(on_line(other, x), on_line(index, x)) for x in (left, right)]
                seen = [(y, own) for y, own in ends if y is not None]
                if not seen or all(own is not None and abs(y - own) < 0.01 for y, own in seen):
                    continue
                low, high = min(y for y, _ in seen), max(y for y, _ in seen)
                owns = [own for _, own in ends if own is not None]
                leaving = len(owns) == 2 and abs(owns[0] - owns[1]) >= 0.01
                if leaving and high - low < 0.01:
                    continue
                if low <= mark[1] + reach and high >= mark[1] - reach:
                    count += 1
                    break
        return count

    def score(chosen: dict[int, float]) -> tuple[int, int, int, float, float]:
        marks = {index: (shift, height(index, shift)) for index, shift in chosen.items()}
        placed = [*found.values(), *marks.values()]
        touching = sum(_touch(a, b) for a, b in combinations(placed, 2))
        return (
            touching,
            sum(crossed(index, mark) for index, mark in marks.items()),
            sum(on_line(index, shift) is None for index, shift in chosen.items()),
            sum(abs(shift) for shift in chosen.values()),
            sum(abs(mark[1] - heights[index]) for index, mark in marks.items()),
        )

    reach = room / 2 - MARKER_SIZE - 1
    for group in groups:
        if winner in group:
            found[winner] = (0.0, heights[winner])
        spaced = _spacing(group, winner, room)
        members = (
            [index for index in group if index != winner] if winner in group else sorted(group)
        )
        if spaced is None or not members:
            continue
        # The places of _spacing, and farther ones on the same steps within ``room``.
        _, places, apart = spaced
        widest = max(abs(place) for place in places)
        offset = widest % 1
        steps = int(reach / apart - offset + 1e-9)
        free = sorted(
            {sign * (step + offset) * apart for step in range(steps + 1) for sign in (1, -1)}
            - ({0.0} if winner in group else set()),
            key=abs,
        )
        if len(members) <= 3:  # each way to seat them in the nearest places
            nearest = free[: len(members) + 2]
            seated = permutations(nearest, len(members))
            ways = [dict(zip(members, places, strict=True)) for places in seated]
            best = min(ways, key=score)
        else:  # one by one, in the order of the key
            best = {}
            for index in members:
                left = [shift for shift in free if shift not in best.values()]
                best[index] = min(left, key=lambda shift: score({**best, index: shift}))
        found.update({index: (shift, height(index, shift)) for index, shift in best.items()})
    if any(_touch(a, b) for a, b in combinations(found.values(), 2)):
        # No seat on their lines keeps them apart (games close together, lines steep): all
        # at their game's height, as a tie is drawn, where they cannot touch.
        return _level(groups, winner, room, heights)
    return [(index, shift, y) for index, (shift, y) in found.items()]


def _spacing(
    group: list[int], winner: int, room: float
) -> tuple[list[int], list[float], float] | None:
    """A group's sides in order, their places from the game's point in steps (0 for the
    winner, then 1, -1, 2, -2 ... in the order of the key; a group without the winner
    centred on the point: -0.5, 0.5 for two), and the step in points: never so close that
    markers touch (SQUEEZED), nor so far that they reach the next game's within ``room``.
    None for a group too wide for it: its ring alone shows."""
    places: list[float]
    if winner in group:
        others = sorted(index for index in group if index != winner)
        members = [winner, *others]
        places = [
            0,
            *((step // 2 + 1) * (1 if step % 2 == 0 else -1) for step in range(len(others))),
        ]
    else:
        members = sorted(group)
        places = [place - (len(group) - 1) / 2 for place in range(len(group))]
    widest = max(abs(place) for place in places)
    apart = APART if not widest else min(APART, (room / 2 - MARKER_SIZE - 1) / widest)
    return None if apart < SQUEEZED else (members, places, apart)


def _level(
    groups: list[list[int]], winner: int, room: float, heights: Sequence[float]
) -> list[tuple[int, float, float]]:
    """The markers at their game's height, at the places of ``_spacing``; of a group too
    wide for ``room``, the winner's alone."""
    found: list[tuple[int, float, float]] = []
    for group in groups:
        spaced = _spacing(group, winner, room)
        if spaced is None:
            found.extend((index, 0.0, heights[index]) for index in group if index == winner)
            continue
        members, places, apart = spaced
        found.extend(
            (index, place * apart, heights[index])
            for index, place in zip(members, places, strict=True)
        )
    return found


def _touch(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) < 2 * MARKER_SIZE - 1e-9 and abs(a[1] - b[1]) < 2 * MARKER_SIZE
