"""The race chart draws true values: at every game the sides' lines stand in the order of their
totals, level sides at one height, a total of 0 on the zero line, and a marker only on each
game's winner's point. Proved over generated close series of every game (from the shapes the
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
from sheetgen.sheet.chart import Chart, race_chart, side_look
from sheetgen.sheet.fill import fill_pdf
from sheetgen.sheet.grid import MARGIN
from sheetgen.sheet.shapes import MARKER_SIZE, STROKE
from sheetgen.sheet.stretches import DISC, PIECE_GAP, SHARED_BAND, Trace, piece_width

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
    """At every game the lines stand in the order of the totals, ties at one height, and
    every total of 0 on the zero line."""
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


def assert_only_winners_marked(result: SeriesResult, chart: Chart) -> None:
    """A side's only markers are those of the games it won, each on its line's point for
    that game, ringed (print review 26: markers of lines that meet, set beside the point
    where there was room, showed some ties and not others)."""
    sides = result.series.table.sides
    lines = chart.traces[len(sides) :]
    for side, line in zip(sides, lines, strict=True):
        won = tuple(line.points[game.number] for game in result.games if game.winner == side)
        assert line.marks == line.wins == won, side


@settings(max_examples=300, deadline=None)
@given(result=close_series(), name=st.sampled_from(["letter", "a4"]))
def test_every_game_draws_the_sides_in_the_order_of_their_totals(
    result: SeriesResult, name: str
) -> None:
    chart = race_chart(result, paper(name).landscape, "Close", string_width)
    assert_true_order(result, chart)
    assert_only_winners_marked(result, chart)
    assert_shared_stretches_drawn_in_turn(chart)
    assert_lines_run_past_rings(chart)


def assert_lines_run_past_rings(chart: Chart) -> None:
    """Every part of a line within a winner's ring (its white disc) that does not stand on
    the line's own point, nor run with another line, is drawn again over the white in the
    line's look (print reviews 26 and 28: a ring hid a line 5 points from its centre); and
    nothing else is."""
    lines = chart.traces[len(chart.traces) // 2 :]
    rings = [point for line in lines for point in line.wins]

    def on(trace: Trace, point: tuple[float, float]) -> bool:
        for (x1, y1), (x2, y2) in pairwise(trace.points):
            if x1 - 1e-6 <= point[0] <= x2 + 1e-6:
                share = (point[0] - x1) / (x2 - x1) if x2 > x1 else 0.0
                if abs(y1 + (y2 - y1) * share - point[1]) < 1e-6:
                    return True
        return False

    for piece in chart.over:
        owner = [line for line in lines if line.dash == piece.dash and line.gray == piece.gray]
        assert any(all(on(line, point) for point in piece.points) for line in owner)
        middle = piece.points[len(piece.points) // 2]
        assert any(math.dist(middle, ring) <= DISC + 1e-6 for ring in rings)
    for line in lines:
        for step, (a, b) in enumerate(pairwise(line.points)):
            if any(o is not line and o.points[step : step + 2] == (a, b) for o in lines):
                continue
            for n in range(1, 20):
                point = (a[0] + (b[0] - a[0]) * n / 20, a[1] + (b[1] - a[1]) * n / 20)
                for ring in rings:
                    if ring in line.points or math.dist(point, ring) > DISC - 0.01:
                        continue
                    mine = [p for p in chart.over if (p.dash, p.gray) == (line.dash, line.gray)]
                    assert any(on(piece, point) for piece in mine), (point, ring)


@st.composite
def long_series(draw: st.DrawFn) -> SeriesResult:
    """Long open series (10 to 40 games) of close totals: many rings, many lines running
    together and near each other."""
    players = draw(st.integers(2, 6))
    rules = {"bonus": draw(st.integers(0, 25)), "per_card": draw(st.integers(0, 5))}
    games = draw(
        st.lists(
            st.tuples(
                st.integers(0, players - 1),
                st.lists(st.integers(1, 3), min_size=players, max_size=players),
            ),
            min_size=10,
            max_size=40,
        )
    )
    return build("skip-bo", players, False, {**rules, "target": 100_000}, games)


@settings(max_examples=100, deadline=None)
@given(result=long_series(), name=st.sampled_from(["letter", "a4"]))
def test_long_close_series_keep_their_lines_in_view(result: SeriesResult, name: str) -> None:
    chart = race_chart(result, paper(name).landscape, "Long", string_width)
    assert_true_order(result, chart)
    assert_only_winners_marked(result, chart)
    assert_shared_stretches_drawn_in_turn(chart)
    assert_lines_run_past_rings(chart)


def assert_shared_stretches_drawn_in_turn(chart: Chart) -> None:
    """Every stretch between two games that lines share (the same heights at both ends) is
    drawn once more over them, whole, in pieces that take the looks of the lines sharing it
    in turn; nothing else is (print review 15: three dash patterns on the zero line printed
    over each other; review 19: the first line's look alone hid the others). Each piece is
    at least a whole dash period and PIECE_LEAST wide, or a whole run (print review 26:
    pieces 3.4 pt long printed a dash solid); a run shows every one of its lines' looks
    where they fit at those widths, else as many as fit."""
    lines = chart.traces[len(chart.traces) // 2 :]
    # The runs: consecutive stretches that the same lines share, each as its group and ends.
    runs: list[tuple[frozenset[int], list[tuple[float, float]]]] = []
    before: dict[frozenset[int], int] = {}
    for step in range(len(lines[0].points) - 1):
        groups: dict[tuple[float, float], list[int]] = {}
        for index, line in enumerate(lines):
            (_, y1), (_, y2) = line.points[step : step + 2]
            groups.setdefault((round(y1, 2), round(y2, 2)), []).append(index)
        now: dict[frozenset[int], int] = {}
        for members in (frozenset(group) for group in groups.values() if len(group) > 1):
            stretch = lines[min(members)].points[step : step + 2]
            if members in before:
                runs[before[members]][1].append(stretch[1])
            else:
                runs.append((members, list(stretch)))
            now[members] = len(runs) - 1 if members not in before else before[members]
        before = now

    def on(run: list[tuple[float, float]], point: tuple[float, float]) -> bool:
        for (x1, y1), (x2, y2) in pairwise(run):
            share = (point[0] - x1) / (x2 - x1)
            if -1e-6 <= share <= 1 + 1e-6 and abs(y1 + (y2 - y1) * share - point[1]) < 1e-6:
                return True
        return False

    pieces: dict[int, list[Trace]] = {place: [] for place in range(len(runs))}
    for trace in chart.shared:
        assert len(trace.points) >= 2
        (place,) = [n for n, (_, run) in enumerate(runs) if all(on(run, p) for p in trace.points)]
        pieces[place].append(trace)
    rings = {point for line in lines for point in line.wins}
    for place, (members, run) in enumerate(runs):
        drawn = sorted(pieces[place], key=lambda trace: trace.points[0][0])
        assert drawn, run
        assert drawn[0].points[0][0] == pytest.approx(run[0][0], abs=1e-6)
        assert drawn[-1].points[-1][0] == pytest.approx(run[-1][0], abs=1e-6)
        # PIECE_GAP apart, so that no two run together into another look (print review 28).
        for a, b in pairwise(drawn):
            assert b.points[0][0] - a.points[-1][0] == pytest.approx(PIECE_GAP, abs=1e-6)
        looks = {(lines[i].dash, lines[i].gray) for i in members}
        shown = {(trace.dash, trace.gray) for trace in drawn}
        assert shown <= looks
        # Every look shows where the part the rings at its ends leave white fits them all.
        showing = run[-1][0] - run[0][0] - DISC * ((run[0] in rings) + (run[-1] in rings))
        need = sum(piece_width(dash) for dash, _ in looks) + PIECE_GAP * (len(looks) - 1)
        if need <= showing:
            assert shown == looks, (members, run)
        if len(drawn) > 1:
            for trace in drawn:
                width = trace.points[-1][0] - trace.points[0][0]
                assert width >= piece_width(trace.dash) - 1e-6, (trace.dash, width)


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
    # Each a side's name and its total (print review 29).
    said = {f"{side} {result.totals[side]}" for side in sides}
    names = [t for t in chart.texts if t.text in said and t.x > last]
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
    # The shared stretches' pieces, and the parts of lines drawn again over a ring's white.
    assert len(over) == len(chart.shared) + len(chart.over)
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
def test_a_long_close_series_marks_each_games_winner_and_nothing_else(
    stress: str, name: str, lang: str
) -> None:
    """Print reviews 25 and 26: in long series with many ties, markers of lines that meet
    reached 3.25 pt into rings, or were left out where there was no room, or slid onto
    climbing lines at totals nobody scored. Read back from the PDF, the chart's markers
    are one per game, each inside the game's ring on the winner's point; every stretch
    sides share is cut in pieces long enough to show their dash patterns whole."""
    players, target, games = STRESS[stress]
    result = build("skip-bo", players, False, {"target": target}, games)
    assert len(result.games) == len(games)
    pdf = fill_pdf([result], paper(name), lang=language(lang))
    page, lines, zero = drawn_lines(pdf, len(games))
    shapes = [
        shape
        for shape in [*page.curves, *page.rects]
        if abs(shape["linewidth"] - 0.9) < 0.01 and shape["bottom"] < zero + 10
    ]
    rings = [s for s in shapes if s["width"] > 10]
    marks = [s for s in shapes if s["width"] <= 10]
    assert len(rings) == len(marks) == len(games)
    for number, game in enumerate(result.games, start=1):
        x, y = lines[result.series.table.sides.index(game.winner)][number]
        for shape in (*rings, *marks):
            if shape["x0"] < x < shape["x1"] and shape["top"] < y < shape["bottom"]:
                break
        else:
            raise AssertionError((number, game.winner))
        (ring,) = [r for r in rings if r["x0"] < x < r["x1"] and r["top"] < y < r["bottom"]]
        assert abs((ring["x0"] + ring["x1"]) / 2 - x) < 0.01
        assert abs((ring["top"] + ring["bottom"]) / 2 - y) < 0.01
    chart = race_chart(result, paper(name).landscape, "Stress", string_width, language(lang))
    assert chart.shared
    for piece in chart.shared:
        width = piece.points[-1][0] - piece.points[0][0]
        assert width >= piece_width(piece.dash) - 1e-6, (piece.dash, width)


def test_every_game_has_a_tick_and_the_unnamed_ones_are_shorter() -> None:
    """Print review 26: with 29 to 35 games, only every second game had a tick and a figure,
    and a ring at an odd game had nothing to be read against."""
    players, target, games = STRESS["three"]
    result = build("skip-bo", players, False, {"target": target}, games)
    chart = race_chart(result, paper("letter").landscape, "Ticks", string_width)
    line = chart.traces[-1]
    xs = [x for x, _ in line.points]
    bottom = min(rule.y1 for rule in chart.background.rules if rule.width == 0.9)
    ticks = {
        round(rule.x1, 3): rule.y1 - rule.y2
        for rule in chart.background.rules
        if rule.x1 == rule.x2 and rule.y1 == bottom and rule.y2 < bottom
    }
    named = {t.text for t in chart.background.labels if t.align == "center" and t.y < bottom}
    assert len(xs) == 32 and [round(x, 3) for x in xs] == sorted(ticks)
    for number, x in enumerate(xs):
        assert ticks[round(x, 3)] == (4 if number % 2 == 0 else 2.5), number
        assert (str(number) in named) == (number % 2 == 0), number


def test_the_targets_name_stands_clear_of_its_band() -> None:
    """Print review 28: the descenders of "Target:" stood 1.34 pt over the grey band."""
    players, target, games = STRESS["three"]
    result = build("skip-bo", players, False, {"target": target}, games)
    chart = race_chart(result, paper("letter").landscape, "Target", string_width)
    (band,) = [rule for rule in chart.background.rules if rule.width == 3.0]
    (name,) = [t for t in chart.background.labels if t.text.startswith("Target: ")]
    descender = 0.24 * name.size  # DejaVu Sans's, below the baseline
    assert name.y - descender - (band.y1 + band.width / 2) >= 2.5


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_every_side_that_runs_with_others_shows_its_look_on_a_stretch_they_share(
    name: str,
) -> None:
    """Print review 30: stretches a game long, room for one look or two, showed the same
    sides' looks every time; in the 28-game rotation Di's dash-dot never showed on any of
    them. The first piece's side turns from one game to the next."""
    players, target, games = STRESS["rotation"]
    result = build("skip-bo", players, False, {"target": target}, games)
    chart = race_chart(result, paper(name).landscape, "Rotation", string_width)
    lines = chart.traces[len(chart.traces) // 2 :]
    shown = {(piece.dash, piece.gray) for piece in chart.shared}
    assert shown == {(line.dash, line.gray) for line in lines}


def test_the_keys_samples_leave_no_sliver_beside_their_markers() -> None:
    """Print review 30: the white halo round the key's marker cut the dash-dot sample's dash
    to a 0.04 pt sliver. Of every look's sample, cut where the marker's halo lies over it
    (its middle, MARKER_SIZE and half the halo's width either side), no piece of ink left
    is thinner than 0.25 pt."""
    from sheetgen.sheet.chart import KEY_SAMPLE
    from sheetgen.sheet.shapes import MARKER_HALO

    reach = MARKER_SIZE + MARKER_HALO / 2
    cut = (KEY_SAMPLE / 2 - reach, KEY_SAMPLE / 2 + reach)
    for index in range(12):
        dash = side_look(index).dash
        if not dash:
            continue
        at, on, inks = 0.0, True, []
        while at < KEY_SAMPLE:
            for length in dash:
                if on:
                    inks.append((at, min(at + length, KEY_SAMPLE)))
                at, on = at + length, not on
        for start, end in inks:
            for left, right in ((start, min(end, cut[0])), (max(start, cut[1]), end)):
                assert right - left <= 1e-6 or right - left >= 0.25, (dash, start, end)
