"""Where a race chart shows the sides' markers at each game.

A game's winner shows its marker, ringed, on the game's point. A side whose line meets
another's there (drawn so close that the two strokes touch) shows its marker too, so no
side hides under another. Such markers stand beside the point, each on its own line (print
review 22: a marker set beside a climbing line stood 37 pt below it), seated so that no
other side's line runs through one (print reviews 23 and 24: a line leaving a tie seemed
to leave from another side's marker), and always GAP clear of every other marker and ring
(print review 25: squeezed markers reached 3 pt into a ring). A marker with no such seat
within its game's reach is left out: the chart's key says markers show where there is room.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise, permutations
from math import hypot

from sheetgen.sheet.shapes import MARKER_SIZE, RING

Point = tuple[float, float]

STROKE = 1.4  # the width of a side's line
# Lines closer than this (centre to centre) touch: where they meet, each shows its marker.
MEET = STROKE + 1.0
# A marker's ink (any kind, its 0.9 pt outline with it) reaches this far from its centre
# across (a plus's arm) and up or down (a triangle's apex and its mitre); a ring's, RING_INK.
HALF_WIDTH = MARKER_SIZE * 1.2 + 0.45
HALF_HEIGHT = MARKER_SIZE * 1.1 + 1.05
RING_INK = RING + 0.45
GAP = 0.8  # white at least this wide between any two markers' ink, or a marker's and a ring's
NEAR = 2 * HALF_HEIGHT + GAP  # markers closer than this, up or down, stand side by side
# Markers of sides that meet stand this far apart across the game's point: beside a ring,
# clear of it; never so close that they touch (SQUEEZED). A marker stands at most REACH_SHORT
# short of half the way to the next game's point.
APART = RING_INK + GAP + HALF_WIDTH
SQUEEZED = 2 * HALF_WIDTH + GAP
REACH_SHORT = 1.0
FINE = 0.25  # the step along its line of a marker's seat that the groups' places left out


def clash(a: Point, b: Point) -> bool:
    """Whether two markers centred on ``a`` and ``b`` stand closer than GAP."""
    return abs(a[0] - b[0]) < 2 * HALF_WIDTH + GAP - 1e-9 and (
        abs(a[1] - b[1]) < 2 * HALF_HEIGHT + GAP - 1e-9
    )


def clash_ring(mark: Point, ring: Point) -> bool:
    """Whether a marker centred on ``mark`` stands closer than GAP to a ring round ``ring``."""
    across = max(abs(mark[0] - ring[0]) - HALF_WIDTH, 0.0)
    up = max(abs(mark[1] - ring[1]) - HALF_HEIGHT, 0.0)
    return hypot(across, up) < RING_INK + GAP - 1e-9


def place_markers(
    xs: Sequence[float], heights: Sequence[Sequence[float]], winners: Sequence[int]
) -> tuple[list[list[Point]], list[list[Point]]]:
    """Each side's markers, and of them those of the games it won, over the points at
    ``xs`` (the start, then one per game) where the sides' lines stand at ``heights``."""
    sides = len(heights[0])
    marks: list[list[Point]] = [[] for _ in range(sides)]
    wins: list[list[Point]] = [[] for _ in range(sides)]
    room = xs[1] - xs[0] if len(xs) > 1 else 0.0
    rings = [(xs[game], heights[game][winners[game - 1]]) for game in range(1, len(xs))]
    before: list[Point] = []  # the markers of the game before, beside its ring
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

        x = xs[game]
        near = [(rx - x, ry) for rx, ry in rings[max(0, game - 2) : game + 1]]
        winner = winners[game - 1]
        seats = _shifts(heights[game], winner, room, on_line, near, [(a - x, b) for a, b in before])
        before = []
        for side, shift, y in seats:
            mark = (x + shift, y)
            marks[side].append(mark)
            if side == winner:
                wins[side].append(mark)
            else:
                before.append(mark)
    return marks, wins


def _shifts(  # long: the groups, their places, the search for the best, and the rest
    heights: Sequence[float],
    winner: int,
    room: float,
    on_line: Callable[[int, float], float | None],
    rings: list[Point],
    before: list[Point],
) -> list[tuple[int, float, float]]:
    """The sides with a marker at one game, how far each stands right (+) or left of the
    game's point, and at what height: the winner's on the point, with its ring (print
    review 20: a ring moved off its game), and every side whose line meets another's there
    and has room. Of the places beside the winner's (or around the point, in a group
    without the winner), the ones where no marker comes within GAP of another or of a
    ring (``rings`` and the markers ``before``, of the game before, with them), no other
    side's line runs through a marker (print review 24: a line leaving a tie seemed to leave
    from the other side's marker), then the nearest, then where the lines run most nearly
    level. A side those places leave without a clear seat takes the nearest clear one on its
    line within the game's reach, if there is one."""
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
    found: dict[int, Point] = {winner: (0.0, heights[winner])}
    reach = room / 2 - REACH_SHORT

    def blocked(mark: Point, others: list[Point]) -> int:
        """How many rings and markers (``others`` and those found) ``mark`` comes too near."""
        placed = [*before, *(seat for index, seat in found.items() if index != winner)]
        return sum(clash_ring(mark, ring) for ring in rings) + sum(
            clash(mark, other) for other in [*placed, *others]
        )

    def crossed(index: int, mark: Point) -> int:
        """How many other sides' lines run through a marker of ``index``'s at ``mark``
        (its halo's width around it), a stretch they share with its own line apart, and a
        level line through the marker of a side whose own line leaves it there (a line
        that leaves a tie starts from its own marker)."""
        span = MARKER_SIZE + 0.8
        count = 0
        for other in range(len(heights)):
            if other == index:
                continue
            for left, right in ((mark[0] - span, min(mark[0] + span, 0.0)),
                                (max(mark[0] - span, 0.0), mark[0] + span)):  # fmt: skip
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
                if low <= mark[1] + span and high >= mark[1] - span:
                    count += 1
                    break
        return count

    def seat(index: int, shift: float) -> Point:
        y = on_line(index, shift)
        assert y is not None
        return (shift, y)

    def score(chosen: dict[int, float]) -> tuple[int, int, float, float]:
        seats = {index: seat(index, shift) for index, shift in chosen.items()}
        marks = list(seats.values())
        return (
            sum(blocked(mark, marks[:n]) for n, mark in enumerate(marks)),
            sum(crossed(index, mark) for index, mark in seats.items()),
            sum(abs(shift) for shift in chosen.values()),
            sum(abs(mark[1] - heights[index]) for index, mark in seats.items()),
        )

    left_out: list[int] = []
    for group in groups:
        members = sorted(index for index in group if index != winner)
        spaced = _spacing(group, winner, room)
        if spaced is None:
            left_out += members
            continue
        # The places of _spacing, and farther ones on the same steps within reach, on the
        # drawn lines (none right of the last game's point).
        places, apart = spaced
        offset = max(abs(place) for place in places) % 1
        steps = int(reach / apart - offset + 1e-9)
        shifts = {sign * (step + offset) * apart for step in range(steps + 1) for sign in (1, -1)}
        free = sorted(
            (
                shift
                for shift in shifts
                if on_line(winner, shift) is not None and (shift or winner not in group)
            ),
            key=abs,
        )
        if not members:
            continue
        if len(members) <= 3:  # each way to seat them in the nearest places
            seated = permutations(free[: len(members) + 2], len(members))
            ways = [dict(zip(members, places, strict=True)) for places in seated]
            best = min(ways, key=score, default={})
        else:  # one by one, in the order of the key
            best = {}
            for index in members:
                rest = [shift for shift in free if shift not in best.values()]
                if rest:
                    best[index] = min(rest, key=lambda shift: score({**best, index: shift}))
        for index in members:
            mark = seat(index, best[index]) if index in best else None
            if mark is None or blocked(mark, []):
                left_out.append(index)
            else:
                found[index] = mark
    for index in left_out:  # the nearest clear seat along its line, if any
        along = [FINE * step for step in range(-int(reach / FINE), int(reach / FINE) + 1)]
        clear = [
            seat(index, shift)
            for shift in along
            if on_line(index, shift) is not None and not blocked(seat(index, shift), [])
        ]
        if clear:
            found[index] = min(clear, key=lambda mark: (crossed(index, mark), abs(mark[0])))
    return [(index, shift, y) for index, (shift, y) in found.items()]


def _spacing(group: list[int], winner: int, room: float) -> tuple[list[float], float] | None:
    """A group's places from the game's point in steps (0 for the winner, then 1, -1, 2, -2
    ...; a group without the winner centred on the point: -0.5, 0.5 for two), and the step
    in points: never so close that markers touch (SQUEEZED), nor so far that they reach
    the next game's. None for a group too wide for it."""
    places: list[float]
    if winner in group:
        steps = range(len(group) - 1)
        places = [0, *((step // 2 + 1) * (1 if step % 2 == 0 else -1) for step in steps)]
    else:
        places = [place - (len(group) - 1) / 2 for place in range(len(group))]
    widest = max(abs(place) for place in places)
    apart = APART if not widest else min(APART, (room / 2 - REACH_SHORT) / widest)
    return None if apart < SQUEEZED else (places, apart)
