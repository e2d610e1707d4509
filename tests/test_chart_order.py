"""The race chart draws true values: at every game the sides' lines stand in the order of their
totals, level sides at one height, a total of 0 on the zero line, and every marker at its
side's own height. Proved over generated close series of every game (from the shapes the
chart is laid out in) and read back from the PDF."""

from __future__ import annotations

import io
import math
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.fonts import string_width
from sheetgen.game.definition import game_ids, load_game
from sheetgen.game.language import language
from sheetgen.game.scoring import Game, Series, SeriesResult, score_series
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import make_table
from sheetgen.paper import paper
from sheetgen.sheet.chart import SHARED_BAND, STROKE, Chart, race_chart, side_look
from sheetgen.sheet.fill import fill_pdf
from sheetgen.sheet.grid import MARGIN
from sheetgen.sheet.markers import GAP, HALF_HEIGHT, HALF_WIDTH, RING_INK
from sheetgen.sheet.shapes import MARKER_SIZE

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
# The issue's case: an open 25-game series of close scores drawn 11 pairs the wrong way up.
ISSUE_WINNERS = "ABACBDCCADBBCDDACABBCDABC"


def build(
    game_id: str,
    players: int,
    teams: bool,
    rules: dict[str, Any],
    games: list[tuple[int, list[int]]],
) -> SeriesResult:
    """A scored series: each game as the winning side's index and every player's cards left
    (a winner's own are set to 0); a winner's way series ends with the game that wins it."""
    game = load_game(game_id)
    names = NAMES[:players]
    pairs = {f"T{n}": names[n :: players // 2] for n in range(players // 2)} if teams else None
    table = make_table(names, teams=pairs, game=game)
    scoring = ScoringRules.from_mapping(rules, game.scoring)
    played: list[Game] = []
    for winner_index, counts in games:
        winner = table.sides[winner_index % len(table.sides)]
        won = table.members(winner)
        left = {
            player: 0 if player in won else max(1, min(count, table.stock))
            for player, count in zip(names, counts, strict=True)
        }
        played.append(Game(winner, left))
        result = score_series(Series(table, tuple(played), scoring, game=game_id, definition=game))
        if result.finished:
            break
    return score_series(Series(table, tuple(played), scoring, game=game_id, definition=game))


@st.composite
def close_series(draw: st.DrawFn) -> SeriesResult:
    """Series whose totals run close together and often level: few points a game, small
    counts, every game and both ways of scoring."""
    game_id = draw(st.sampled_from(game_ids()))
    game = load_game(game_id)
    players = draw(st.integers(game.min_players, game.max_players))
    teams = players in game.partnership_players and draw(st.booleans())
    cards_left = draw(st.booleans())
    agreed = draw(st.integers(1, 30))
    rules = {
        "way": "cards-left" if cards_left else "winner",
        "bonus": draw(st.integers(0, 3)),
        "per_card": draw(st.integers(0, 2)),
        "target": draw(st.integers(1, 80)),
        "games_to_play": agreed,
    }
    games = draw(
        st.lists(
            st.tuples(
                st.integers(0, 5), st.lists(st.integers(1, 3), min_size=players, max_size=players)
            ),
            max_size=agreed if cards_left else 40,
        )
    )
    return build(game_id, players, teams, rules, games)


def zero_line(chart: Chart) -> float:
    """The height of the chart's 0: its lowest grid line, the one its "0" names."""
    grid = [rule for rule in chart.background.rules if rule.gray == 0.75]
    zero = min(rule.y1 for rule in grid)
    (label,) = [t for t in chart.background.labels if t.text == "0" and t.align == "right"]
    assert abs(label.y + 3 - zero) < 0.01
    return zero


def assert_true_order(result: SeriesResult, chart: Chart) -> None:
    """At every game the lines stand in the order of the totals, ties at one height, every
    total of 0 on the zero line, and every marker at its own side's height there."""
    sides = result.series.table.sides
    lines = chart.traces[len(sides) :]
    assert len(lines) == len(sides)
    zero = zero_line(chart)
    totals = [dict.fromkeys(sides, 0), *(game.totals for game in result.games)]
    for number, standing in enumerate(totals):
        xs = {line.points[number][0] for line in lines}
        assert len(xs) == 1, f"game {number}: the sides' points stand at one x"
        ys = {side: line.points[number][1] for side, line in zip(sides, lines, strict=True)}
        for a, b in combinations(sides, 2):
            if standing[a] == standing[b]:
                assert ys[a] == ys[b], (number, a, b, standing, ys)
            elif standing[a] < standing[b]:
                assert ys[a] < ys[b], (number, a, b, standing, ys)
            else:
                assert ys[a] > ys[b], (number, a, b, standing, ys)
        for side in sides:
            if standing[side] == 0:
                assert ys[side] == pytest.approx(zero, abs=1e-9), (number, side)
    room = lines[0].points[1][0] - lines[0].points[0][0] if len(lines[0].points) > 1 else 0
    for side, line in zip(sides, lines, strict=True):
        for x, y in line.marks:
            number = min(range(1, len(line.points)), key=lambda n: abs(line.points[n][0] - x))
            assert abs(x - line.points[number][0]) < room / 2, (side, x)
            # On its own line (print reviews 22 and 23), never past its end (review 25).
            assert line.points[0][0] <= x <= line.points[-1][0], (side, x)
            assert y == pytest.approx(height_at(line.points, x), abs=1e-6), (side, number)


def height_at(points: tuple[tuple[float, float], ...], x: float) -> float:
    """A line's height at ``x``; past its end, the end's."""
    if x >= points[-1][0]:
        return points[-1][1]
    (x1, y1), (x2, y2) = next((a, b) for a, b in pairwise(points) if a[0] <= x <= b[0])
    return y1 + (y2 - y1) * (x - x1) / (x2 - x1)


def too_near(a: tuple[float, float], b: tuple[float, float], ring: bool) -> bool:
    """Whether a marker at ``a`` has less than GAP of white between its ink and that of the
    marker (or ``ring``) at ``b``: the widest marker's ink is a box HALF_WIDTH across and
    HALF_HEIGHT up and down, a ring's a circle RING_INK round."""
    across, up = abs(a[0] - b[0]), abs(a[1] - b[1])
    if ring:
        return (
            math.hypot(max(across - HALF_WIDTH, 0), max(up - HALF_HEIGHT, 0))
            < RING_INK + GAP - 1e-6
        )
    return across < 2 * HALF_WIDTH + GAP - 1e-6 and up < 2 * HALF_HEIGHT + GAP - 1e-6


def assert_markers_show_ties(result: SeriesResult, chart: Chart) -> None:
    """Every game's winner shows its marker, ringed, on the game's point; no marker comes
    within GAP of another or of a ring (print review 25: markers 3 pt inside rings); and a
    side level with another at a game shows its marker there wherever its line has a seat
    for it that clear, within the game's reach (half the way to the next game's point)."""
    sides = result.series.table.sides
    lines = chart.traces[len(sides) :]
    if len(lines[0].points) < 2:
        return
    points = lines[0].points
    room = points[1][0] - points[0][0]
    rings = [mark for line in lines for mark in line.wins]
    others = [mark for line in lines for mark in line.marks if mark not in line.wins]
    for mark in others:
        assert not any(too_near(mark, ring, True) for ring in rings), (mark, rings)
    for a, b in combinations(others, 2):
        assert not too_near(a, b, False), (a, b)
    for game in result.games:
        x = points[game.number][0]
        marks = {
            side: [m for m in line.marks if abs(m[0] - x) < room / 2]
            for side, line in zip(sides, lines, strict=True)
        }
        for side, here in marks.items():
            assert len(here) <= 1, (game.number, side, here)
        # The winner's marker, ringed, stands on the game's point (print review 20).
        assert marks[game.winner] == [(x, points[game.number][1])] or all(
            mark[0] == x for mark in marks[game.winner]
        ), (game.number, marks)
        assert marks[game.winner], (game.number, game.winner)
        totals = list(game.totals.values())
        for side, line in zip(sides, lines, strict=True):
            if marks[side] or totals.count(game.totals[side]) < 2:
                continue
            # Left out: every seat on its line within reach comes too near a marker or ring
            # (a quarter point's leeway for the steps the placing takes).
            reach = room / 2 - 1.25
            for step in range(-int(reach * 4), int(reach * 4) + 1):
                seat_x = x + step / 4
                if not points[0][0] <= seat_x <= points[-1][0]:
                    continue
                seat = (seat_x, height_at(line.points, seat_x))
                assert any(too_near(seat, ring, True) for ring in rings) or any(
                    too_near(seat, mark, False) for mark in others
                ), (game.number, side, seat)


@settings(max_examples=300, deadline=None)
@given(result=close_series(), name=st.sampled_from(["letter", "a4"]))
def test_every_game_draws_the_sides_in_the_order_of_their_totals(
    result: SeriesResult, name: str
) -> None:
    chart = race_chart(result, paper(name).landscape, "Close", string_width)
    assert_true_order(result, chart)
    assert_markers_show_ties(result, chart)
    assert_shared_stretches_drawn_in_turn(chart)


def assert_shared_stretches_drawn_in_turn(chart: Chart) -> None:
    """Every stretch between two games that lines share (the same heights at both ends) is
    drawn once more over them, whole, in pieces that take the looks of the lines sharing it
    in turn, every one of them shown; nothing else is (print review 15: three dash patterns
    on the zero line printed over each other; review 19: the first line's look alone hid
    the others)."""
    lines = chart.traces[len(chart.traces) // 2 :]
    wanted: dict[tuple[tuple[float, float], ...], frozenset[int]] = {}
    for step in range(len(lines[0].points) - 1):
        groups: dict[tuple[float, float], list[int]] = {}
        for index, line in enumerate(lines):
            (_, y1), (_, y2) = line.points[step : step + 2]
            groups.setdefault((round(y1, 2), round(y2, 2)), []).append(index)
        for group in groups.values():
            if len(group) > 1:
                wanted[tuple(lines[group[0]].points[step : step + 2])] = frozenset(group)

    def on(stretch: tuple[tuple[float, float], ...], point: tuple[float, float]) -> bool:
        (x1, y1), (x2, y2) = stretch
        share = (point[0] - x1) / (x2 - x1)
        return -1e-6 <= share <= 1 + 1e-6 and abs(y1 + (y2 - y1) * share - point[1]) < 1e-6

    covered = dict.fromkeys(wanted, 0.0)
    shown: dict[frozenset[int], set[tuple[tuple[float, ...], float]]] = {}
    for trace in chart.shared:
        assert len(trace.points) >= 2
        for a, b in pairwise(trace.points):
            (stretch,) = [s for s in wanted if on(s, a) and on(s, b)]  # on one shared stretch
            covered[stretch] += math.dist(a, b)
            shown.setdefault(wanted[stretch], set()).add((trace.dash, trace.gray))
    for stretch, length in covered.items():
        assert length == pytest.approx(math.dist(*stretch), abs=1e-6), stretch
    for group, looks in shown.items():
        assert looks == {(lines[i].dash, lines[i].gray) for i in group}, group


@pytest.mark.parametrize("sides", range(2, 13))
def test_every_side_has_a_look_of_its_own_in_black_and_white(sides: int) -> None:
    looks = [side_look(index) for index in range(sides)]
    # The lines alone (dash and black or grey) tell twelve sides apart; with the marker, more.
    assert len({(look.dash, look.gray) for look in looks}) == sides
    assert len(set(looks)) == sides


def issue_series(game_id: str = "skip-bo", cards_left: bool = False) -> SeriesResult:
    """Four players, 25 games of a few points each: close, often level, still open."""
    games = [
        ("ABCD".index(winner), [1 + (number + seat) % 3 for seat in range(4)])
        for number, winner in enumerate(ISSUE_WINNERS)
    ]
    rules = {"bonus": 5, "per_card": 1, "target": 5000}
    if cards_left:
        rules = {"way": "cards-left", "games_to_play": 30}
    return build(game_id, 4, False, rules, games)


def drawn_lines(pdf: bytes, games: int) -> tuple[Any, list[list[tuple[float, float]]], float]:
    """The chart page, each side's line as drawn (in the key's order, told apart by their
    dashes) and the height of the zero line, read back from the PDF (top-down)."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[-1]
        strokes = [
            curve
            for curve in page.curves
            if abs(curve["linewidth"] - STROKE) < 0.01 and len(curve["pts"]) == games + 1
        ]
        grid = [line for line in page.lines if line["stroking_color"] in ((0.75,), 0.75)]
        zero = max(line["top"] for line in grid)
        dashes = [tuple(curve["dash"][0]) if curve["dash"] else () for curve in strokes]
        lines = []
        for index in range(len(strokes)):
            wanted = tuple(float(x) for x in side_look(index).dash)
            (match,) = [
                curve
                for curve, dash in zip(strokes, dashes, strict=True)
                if tuple(float(x) for x in dash) == wanted
            ]
            assert match["stroking_color"] in ((0.0,), 0.0, (0,), 0), "black or grey, no colour"
            lines.append([(float(x), float(y)) for x, y in match["pts"]])
        return page, lines, zero


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["letter", "a4"])
def test_the_printed_chart_keeps_the_order_of_the_totals(name: str, lang: str) -> None:
    result = issue_series()
    assert result.winner is None and len(result.games) == 25
    sides = result.series.table.sides
    pdf = fill_pdf([result], paper(name), lang=language(lang))
    _, lines, zero = drawn_lines(pdf, len(result.games))
    assert len(lines) == len(sides)
    tied = 0
    for number in range(len(result.games) + 1):
        standing = result.games[number - 1].totals if number else dict.fromkeys(sides, 0)
        tops = {side: line[number][1] for side, line in zip(sides, lines, strict=True)}
        for a, b in combinations(sides, 2):
            if standing[a] == standing[b]:
                tied += 1
                assert tops[a] == pytest.approx(tops[b], abs=0.01), (number, a, b)
            else:
                # Top-down: the higher total is drawn nearer the top of the page.
                assert (tops[a] < tops[b]) == (standing[a] > standing[b]), (number, a, b)
        for side in sides:
            if standing[side] == 0:
                assert tops[side] == pytest.approx(zero, abs=0.01), (number, side)
    assert tied >= 10  # the series is as close as the issue's


def test_a_cards_left_chart_runs_to_the_last_game_agreed() -> None:
    result = issue_series(cards_left=True)
    assert len(result.games) == 25 and result.series.scoring.games_to_play == 30
    chart = race_chart(result, paper("letter").landscape, "Close", string_width)
    assert_true_order(result, chart)
    ticks = [t for t in chart.background.labels if t.align == "center" and t.text.isdigit()]
    assert max(int(t.text) for t in ticks) == 30
    sides = result.series.table.sides
    first, *_, last = (x for x, _ in chart.traces[len(sides)].points)
    right = max(rule.x2 for rule in chart.background.rules if rule.gray == 0.75)
    assert last == pytest.approx(first + (right - first) * 25 / 30)
    # The names stand just past the lines' ends, not across the games still to play.
    names = [t for t in chart.texts if t.text in sides and t.x > last]
    assert len(names) == len(sides)
    # (Clear of the markers, which may stand beside a line's end.)
    assert len({t.x for t in names}) == 1
    assert all(last + 6 <= t.x <= last + 6 + 2 * MARKER_SIZE for t in names)
    assert max(t.x + string_width(t.text, t.size, t.bold) for t in names) <= chart.width - 30
    # A series of as many games as agreed ends at the axis's end.
    full = score_series(
        Series(
            result.series.table,
            result.series.games,
            ScoringRules.from_mapping({"games_to_play": 25}, result.series.scoring),
            game=result.series.game,
            definition=result.series.definition,
        )
    )
    chart = race_chart(full, paper("letter").landscape, "Close", string_width)
    right = max(rule.x2 for rule in chart.background.rules if rule.gray == 0.75)
    assert chart.traces[len(sides)].points[-1][0] == pytest.approx(right)


REVIEWED = """\
target: 500
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 4, Cy: 7, Di: 2}
  - winner: Bob
    left: {Ann: 5, Cy: 3, Di: 6}
  - winner: Cy
    left: {Ann: 3, Bob: 2, Di: 9}
  - winner: Di
    left: {Ann: 1, Bob: 2, Cy: 3}
"""


def test_the_names_at_the_lines_ends_stand_clear_of_the_markers(tmp_path: Path) -> None:
    """Where ends meet (Bob and Cy both at 95), their markers stand on their lines, not
    past their end (print review 24: a marker 2 pt past its line's end, 3 pt from the
    name), and never touch the name after them (print review: Cy's triangle over the "B"
    of "Bob, Cy")."""
    from sheetgen.series.file import load_scored

    path = tmp_path / "series.yaml"
    path.write_text(REVIEWED, encoding="utf-8")
    result = load_scored(path)
    chart = race_chart(result, paper("letter").landscape, "Close", string_width)
    sides = result.series.table.sides
    traces = chart.traces[len(sides) :]
    marks = [x for trace in traces for x, _ in trace.marks]
    last = max(x for trace in traces for x, _ in trace.points)
    assert max(marks) <= last  # none past the end of its line
    names = [t for t in chart.texts if any(side in t.text for side in sides) and t.x > last]
    assert names
    assert min(t.x for t in names) >= max(marks) + MARKER_SIZE + 2


@pytest.mark.parametrize("cards_left", [False, True], ids=["winner", "cards-left"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_printed_chart_names_its_y_axis_and_draws_a_shared_stretch_in_turn(
    lang: str, cards_left: bool
) -> None:
    """The y axis says what it counts, over its figures and flush with them (print review
    15: no name); a stretch lines share is printed once more in one look over a white band,
    so no two dash patterns print over each other."""
    result = issue_series(cards_left=cards_left)
    pdf = fill_pdf([result], paper("letter"), lang=language(lang))
    page, lines, zero = drawn_lines(pdf, len(result.games))
    name = {
        ("en", False): "Points",
        ("de", False): "Punkte",
        ("en", True): "Cards left",
        ("de", True): "Restkarten",
    }[lang, cards_left]
    plot_top = min(min(y for _, y in line) for line in lines)
    words = page.extract_words(keep_blank_chars=True)
    (said,) = [word for word in words if word["text"] == name]
    figures = [w for w in words if w["text"].isdigit() and w["x1"] < min(x for x, _ in lines[0])]
    highest = min(figures, key=lambda word: word["top"])
    assert said["bottom"] < highest["top"] - 2  # over the highest figure, clear of it
    assert said["x1"] == pytest.approx(max(w["x1"] for w in figures), abs=0.5)
    assert said["x0"] >= MARGIN - 0.01
    # Nothing else on the page touches it.
    others = [word for word in words if word is not said]
    assert all(
        word["bottom"] < said["top"] - 1
        or word["top"] > said["bottom"] + 1
        or word["x0"] > said["x1"] + 1
        or word["x1"] < said["x0"] - 1
        for word in others
    )
    assert said["top"] < plot_top
    # The white bands and the stretches over them: as many as the chart lays out, each
    # stretch in the look of a side's line.
    chart = race_chart(result, paper("letter").landscape, "Close", string_width, language(lang))
    assert bool(chart.shared) is not cards_left  # where winners alone score, lines meet
    strokes = [*page.curves, *page.lines]
    bands = [s for s in strokes if abs(s["linewidth"] - SHARED_BAND) < 0.01]
    assert len(bands) == len(chart.shared)
    assert all(s["stroking_color"] in ((1.0,), 1.0, (1,), 1) for s in bands)
    looks = {tuple(float(x) for x in side_look(i).dash) for i in range(4)}
    over = [
        s
        for s in strokes
        if abs(s["linewidth"] - STROKE) < 0.01
        and len(s["pts"]) < len(result.games) + 1
        and s["top"] <= zero + 0.5  # not the key's samples, under the axis
    ]
    assert len(over) == len(chart.shared)
    assert all(tuple(float(x) for x in (s["dash"] or [[]])[0]) in looks for s in over)


# Print review 25's stress series: a 28-game rotation with a four-way tie every fourth game,
# and three players over 31 games, long level stretches among them.
STRESS = {
    "rotation": (4, 300, [(game % 4, [1] * 4) for game in range(28)]),
    "three": (
        3,
        500,
        [
            (winner, [8, 8, 8] if game in (6, 7) else [5, 4, 4] if game in (18, 19) else [1] * 3)
            for game, winner in enumerate([0] * 6 + [1, 2] * 6 + [0] * 5 + [1, 2] * 3 + [2, 1])
        ],
    ),
}


@pytest.mark.parametrize(("name", "lang"), [("letter", "en"), ("a4", "de")])
@pytest.mark.parametrize("stress", sorted(STRESS))
def test_the_printed_markers_keep_white_between_them_and_the_rings(
    stress: str, name: str, lang: str
) -> None:
    """Print review 25, finding 1: on A4, markers beside a game's point reached 3.25 pt into
    the next game's ring and squeezed ones overlapped by 0.37 pt. Read back from the PDF,
    every marker's ink (its outline's box, the stroke with it) keeps GAP of white from every
    other marker's and every ring's, and tie markers still show."""
    players, target, games = STRESS[stress]
    result = build("skip-bo", players, False, {"target": target}, games)
    assert len(result.games) == len(games)
    pdf = fill_pdf([result], paper(name), lang=language(lang))
    page, _, zero = drawn_lines(pdf, len(games))
    shapes = [
        shape
        for shape in [*page.curves, *page.rects]
        if abs(shape["linewidth"] - 0.9) < 0.01 and shape["bottom"] < zero + RING_INK + 1
    ]
    half = 0.45  # half the outline's stroke
    rings = [
        ((s["x0"] + s["x1"]) / 2, (s["top"] + s["bottom"]) / 2, s["width"] / 2 + half)
        for s in shapes
        if s["width"] > 10
    ]
    boxes = [
        (s["x0"] - half, s["top"] - half, s["x1"] + half, s["bottom"] + half)
        for s in shapes
        if s["width"] <= 10
    ]
    assert len(rings) == len(games)
    assert len(boxes) - len(games) >= (12 if stress == "rotation" else 20)  # tie markers
    for x, y, radius in rings:
        for x0, top, x1, bottom in boxes:
            if x0 < x < x1 and top < y < bottom:
                continue  # the winner's own marker, inside its ring
            across = max(x0 - x, x - x1, 0)
            up = max(top - y, y - bottom, 0)
            assert math.hypot(across, up) - radius >= GAP - 0.05, ((x, y), (x0, top))
    for a, b in combinations(boxes, 2):
        if any(a[0] < x < a[2] and a[1] < y < a[3] for x, y, _ in rings):
            continue
        if any(b[0] < x < b[2] and b[1] < y < b[3] for x, y, _ in rings):
            continue
        white = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
        assert white >= GAP - 0.05, (a, b)
