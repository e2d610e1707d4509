"""The race chart's y axis zooms in on low totals while the leader is far from the target (the
target named at its top), and runs to the target once the leader is within reach; a cards-left
chart keeps its axis. And the filled sheet writes every side's Points cell of a played game:
a 0 for each side that lost it. Both read from the chart's shapes and back from the PDF."""

from __future__ import annotations

import io
from typing import Any

import pdfplumber
import pytest

from sheetgen.fonts import string_width
from sheetgen.game.definition import load_game
from sheetgen.game.language import ENGLISH, Language, language
from sheetgen.game.scoring import Game, Series, SeriesResult, score_series
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import make_table
from sheetgen.paper import paper
from sheetgen.sheet.chart import WITHIN_REACH, Chart, race_chart
from sheetgen.sheet.fill import fill_pdf
from sheetgen.sheet.shapes import STROKE

GERMAN = language("de")
NOTES = {
    "en": "Target: 500 (above the range shown)",
    "de": "Ziel: 500 (oberhalb des dargestellten Bereichs)",
}
BANDS = {"en": "Target: 500", "de": "Ziel: 500"}


def series(
    games: list[tuple[str, dict[str, int]]],
    *,
    players: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di"),
    teams: dict[str, list[str]] | None = None,
    **rules: Any,
) -> SeriesResult:
    """A scored Skip-Bo series: each game as its winner and the cards left to the others
    (25 for going out and 5 a card, unless ``rules`` say otherwise)."""
    game = load_game("skip-bo")
    table = make_table(players, teams=teams, game=game)
    scoring = ScoringRules.from_mapping({"target": 500, **rules}, game.scoring)
    played = tuple(Game(winner, left) for winner, left in games)
    return score_series(Series(table, played, scoring, game="skip-bo", definition=game))


# The print reviewer's case: after three games Bob 95, Ann 90, Cy 85, Di 0 in a race to 500.
THREE_LOW = [
    ("Bob", {"Ann": 5, "Cy": 4, "Di": 5}),
    ("Ann", {"Bob": 5, "Cy": 4, "Di": 4}),
    ("Cy", {"Ann": 4, "Bob": 4, "Di": 4}),
]
# Then 15 more games of 65 points, five won by each: Bob 420, Ann 415, Cy 410, Di 0 (the
# leader within reach).
NEAR_END = THREE_LOW + [
    (
        winner,
        {side: 2 if side == "Di" else 3 for side in ("Ann", "Bob", "Cy", "Di") if side != winner},
    )
    for winner in ["Bob", "Ann", "Cy"] * 5
]


def chart_of(result: SeriesResult, lang: Language = ENGLISH) -> Chart:
    return race_chart(result, paper("letter").landscape, "Friday", string_width, lang)


def plot_box(chart: Chart) -> tuple[float, float]:
    """The plot's bottom (the x axis) and top (where the y axis ends)."""
    axes = [rule for rule in chart.background.rules if rule.width == 0.9]
    (x_axis,) = [rule for rule in axes if rule.y1 == rule.y2]
    (y_axis,) = [rule for rule in axes if rule.x1 == rule.x2]
    return x_axis.y1, max(y_axis.y1, y_axis.y2)


def band(chart: Chart) -> list[Any]:
    """The target's broad grey band, if drawn."""
    return [rule for rule in chart.background.rules if rule.width == 3.0 and rule.gray == 0.6]


def ticks(chart: Chart) -> list[str]:
    """The y axis's numbers, bottom up."""
    labels = [t for t in chart.background.labels if t.align == "right" and t.text[0].isdigit()]
    return [t.text for t in sorted(labels, key=lambda t: t.y)]


def label_texts(chart: Chart) -> list[str]:
    return [t.text for t in chart.background.labels]


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
def test_three_low_games_fill_the_plot_and_name_the_target_above(lang: Language) -> None:
    result = series(THREE_LOW)
    assert dict(result.totals) == {"Ann": 90, "Bob": 95, "Cy": 85, "Di": 0}
    chart = chart_of(result, lang)
    bottom, top = plot_box(chart)
    sides = result.series.table.sides
    highest = max(y for line in chart.traces[len(sides) :] for _, y in line.points)
    assert (highest - bottom) / (top - bottom) >= 0.7
    assert ticks(chart)[-1] == "100" and "500" not in ticks(chart)
    # The target is named at the top, not drawn inside the plot.
    assert not band(chart)
    (note,) = [t for t in chart.background.labels if t.text == NOTES[lang.code]]
    assert note.bold and top < note.y < top + 12
    assert BANDS[lang.code] not in label_texts(chart)
    subtitle = min((t for t in chart.texts if t.size == 10), key=lambda t: t.y)
    assert note.y + note.size < subtitle.y - 2, "the note stays clear of the subtitle"


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
def test_a_series_near_its_end_draws_the_target_band_as_before(lang: Language) -> None:
    result = series(NEAR_END)
    assert result.winner is None and max(result.totals.values()) == 420
    chart = chart_of(result, lang)
    _, top = plot_box(chart)
    (line,) = band(chart)
    zero = next(t for t in chart.background.labels if t.text == "0" and t.align == "right")
    per_point = (top - (zero.y + 3)) / 550
    assert ticks(chart)[-1] == "550" and "500" in ticks(chart)
    assert line.y1 == pytest.approx(zero.y + 3 + 500 * per_point)
    assert BANDS[lang.code] in label_texts(chart)
    assert NOTES[lang.code] not in label_texts(chart)


def test_the_axis_runs_to_the_target_once_the_leader_is_within_reach() -> None:
    # 250 zooms to 275 (under 60 % of 500); 260 would zoom to 300, 60 %: the target's axis.
    for cards, zoomed in ((25, True), (26, False)):
        result = series([("Ann", {"Bob": cards})], players=("Ann", "Bob"), bonus=0, per_card=10)
        highest = max(result.totals.values())
        assert highest == 10 * cards
        chart = chart_of(result)
        assert (NOTES["en"] in label_texts(chart)) is zoomed, highest
        assert bool(band(chart)) is not zoomed, highest
        expected = "275" if zoomed else "550"
        assert ticks(chart)[-1] == expected, (highest, ticks(chart))
    assert 300 >= WITHIN_REACH * 500 > 275


def test_no_game_yet_and_a_won_series_keep_the_target_axis() -> None:
    won = series([*NEAR_END, ("Bob", {"Ann": 10, "Cy": 10, "Di": 10})])
    assert won.winner == "Bob" and won.totals["Bob"] == 595
    for result, top in ((series([]), "550"), (won, "600")):
        chart = chart_of(result)
        assert band(chart) and NOTES["en"] not in label_texts(chart)
        assert ticks(chart)[-1] == top


def test_a_cards_left_chart_keeps_its_axis() -> None:
    games = [("Ann", {"Bob": 3, "Cy": 4, "Di": 5}), ("Bob", {"Ann": 2, "Cy": 1, "Di": 6})]
    result = series(games, way="cards-left", games_to_play=6)
    assert max(result.totals.values()) == 11
    chart = chart_of(result)
    # A step of 10 above the highest total (not the zoomed chart's finer steps), no target.
    assert ticks(chart) == ["0", "10", "20"]
    assert not band(chart)
    assert not [t for t in label_texts(chart) if "500" in t]


def test_the_zoomed_chart_reads_back_from_the_pdf() -> None:
    """The note is printed, and the highest line's top sits high in the plot on the page."""
    result = series(THREE_LOW)
    with pdfplumber.open(io.BytesIO(fill_pdf([result], paper("a4")))) as document:
        page = document.pages[-1]
        text = " ".join((page.extract_text() or "").split())
        lines = [c for c in page.curves if abs(c["linewidth"] - STROKE) < 0.01]
        tops = [min(y for _, y in curve["pts"]) for curve in lines if len(curve["pts"]) == 4]
        axes = [line for line in page.lines if abs(line["linewidth"] - 0.9) < 0.01]
    assert NOTES["en"] in text and "Target: 500 " not in text.replace(NOTES["en"], "")
    x_axis = max(line["top"] for line in axes if abs(line["top"] - line["bottom"]) < 0.01)
    y_top = min(line["top"] for line in axes if abs(line["x0"] - line["x1"]) < 0.01)
    assert len(tops) == 4
    assert (x_axis - min(tops)) / (x_axis - y_top) >= 0.7


# The filled sheet's Points cells ------------------------------------------------


def rows_read_back(pdf: bytes) -> tuple[list[dict[str, Any]], list[float], list[float]]:
    """The first page's words, and the x centres of its "Points" and "Total" heads (or
    "Punkte" and "Summe")."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        words = document.pages[0].extract_words()
    points = [w for w in words if w["text"] in ("Points", "Punkte")]
    row = max(
        {round(w["top"]) for w in points},
        key=lambda top: sum(round(w["top"]) == top for w in points),
    )  # the column heads, not the footnote
    heads = [w for w in words if abs(w["top"] - row) < 2]
    centres = [
        sorted((w["x0"] + w["x1"]) / 2 for w in heads if w["text"] in names)
        for names in (("Points", "Punkte"), ("Total", "Summe"))
    ]
    return words, centres[0], centres[1]


def cell(words: list[dict[str, Any]], label: dict[str, Any], x: float) -> list[str]:
    """The words in the row of ``label`` centred (within a few points) on ``x``."""
    return [
        w["text"]
        for w in words
        if abs(w["top"] - label["top"]) < 4 and abs((w["x0"] + w["x1"]) / 2 - x) < 6
    ]


@pytest.mark.parametrize(
    ("lang", "teams"),
    [(ENGLISH, None), (GERMAN, None), (ENGLISH, {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]})],
    ids=["en", "de", "teams"],
)
def test_every_played_row_writes_every_sides_points(
    lang: Language, teams: dict[str, list[str]] | None
) -> None:
    pairs = [("Red", {"Bob": 3, "Di": 4}), ("Blue", {"Ann": 2, "Cy": 5})]
    games = pairs if teams else THREE_LOW
    result = series(games, teams=teams)
    words, points_x, totals_x = rows_read_back(fill_pdf([result], paper("letter"), lang=lang))
    sides = result.series.table.sides
    assert len(points_x) == len(totals_x) == len(sides)
    numbers = sorted(
        (w for w in words if w["x0"] < points_x[0] - 20 and w["text"].isdigit()),
        key=lambda w: w["top"],
    )
    for game in result.games:
        label = next(w for w in numbers if w["text"] == str(game.number))
        for side, x_points, x_total in zip(sides, points_x, totals_x, strict=True):
            expected = str(game.points) if side == game.winner else "0"
            assert cell(words, label, x_points) == [expected], (game.number, side)
            assert cell(words, label, x_total) == [str(game.totals[side])], (game.number, side)
    # The rows left to write the next games by hand stay empty.
    following = next(w for w in numbers if w["text"] == str(len(result.games) + 1))
    for x in points_x + totals_x:
        assert cell(words, following, x) == []
