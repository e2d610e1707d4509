"""The race chart's y axis zooms in on low totals while the leader is far from the target (the
target named in a line under the panels), and runs to the target, drawn as a band in every
panel, once the leader is within reach; a cards-left chart keeps its axis. And the filled sheet
writes every side's Points cell of a played game: a 0 for each side that lost it. Both read from
the chart's shapes and back from the PDF."""

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
from sheetgen.sheet.chart import (
    OWN_STROKE,
    TARGET_BAND,
    TARGET_GRAY,
    WITHIN_REACH,
    ZERO_LIFT,
    Chart,
    Panel,
    race_chart,
)
from sheetgen.sheet.fill import fill_pdf
from sheetgen.sheet.shapes import Rule, Text

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


def in_panel(panel: Panel, x: float, y: float) -> bool:
    """Whether (x, y) lies in the panel's plot or just left of it, where its figures stand."""
    box = panel.box
    return box.x - 40 < x <= box.right + 1e-6 and box.y - 1e-6 <= y <= box.top + 1e-6


def band(chart: Chart, panel: Panel) -> list[Rule]:
    """The panel's target band, a broad grey rule across its plot and kept to it (its
    square caps too), if drawn."""
    return [
        rule
        for rule in chart.background.rules
        if rule.width == TARGET_BAND
        and rule.gray == TARGET_GRAY
        and panel.box.x <= rule.x1 - rule.width / 2
        and rule.x2 + rule.width / 2 <= panel.box.right + 1e-6
        and in_panel(panel, rule.x1, rule.y1)
    ]


def figures(chart: Chart, panel: Panel) -> list[Text]:
    """The panel's y axis figures, bottom up."""
    labels = [
        t
        for t in chart.background.labels
        if t.align == "right"
        and t.text[0].isdigit()
        and in_panel(panel, t.x, t.y)
        and t.x < panel.box.x
    ]
    return sorted(labels, key=lambda t: t.y)


def ticks(chart: Chart, panel: Panel) -> list[str]:
    """The panel's y axis numbers, bottom up."""
    return [t.text for t in figures(chart, panel)]


def said(chart: Chart) -> list[str]:
    """Every word on the chart: the panels' labels and the texts around them."""
    return [t.text for t in (*chart.background.labels, *chart.texts)]


def zero(chart: Chart, panel: Panel) -> float:
    """The height of the panel's zero line: the one its "0" names, ZERO_LIFT over the axis."""
    (label,) = [t for t in figures(chart, panel) if t.text == "0"]
    level = panel.box.y + ZERO_LIFT
    assert abs(label.y + label.size * 0.35 - level) < 1
    return level


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
def test_three_low_games_fill_the_plot_and_name_the_target_under_the_panels(
    lang: Language,
) -> None:
    """Bob 95, Ann 90, Cy 85 in a race to 500: on an axis to 550 the three would run
    together at the foot of every panel. The axis stops at 100, so they fill the plot, and a
    line under the panels (not a band in them) names the target, above the note."""
    result = series(THREE_LOW)
    assert dict(result.totals) == {"Ann": 90, "Bob": 95, "Cy": 85, "Di": 0}
    chart = chart_of(result, lang)
    assert len(chart.panels) == 4
    for panel in chart.panels:
        box = panel.box
        highest = max(y for line in (panel.line, *panel.others) for _, y in line.points)
        assert (highest - box.y) / box.height >= 0.7
        assert ticks(chart, panel)[-1] == "100" and "500" not in ticks(chart, panel)
        assert not band(chart, panel)
    assert BANDS[lang.code] not in [t.text for t in chart.background.labels]
    (note,) = [t for t in chart.texts if t.text == NOTES[lang.code]]
    assert note.bold and note.align == "center" and note.x == pytest.approx(chart.width / 2)
    # Under the panels and their games' numbers, above the note that says what they show.
    numbers = [t for t in chart.background.labels if t.align == "center"]
    assert note.y + note.size < min(t.y for t in numbers) - 2
    below = [t for t in chart.texts if t.y < note.y]
    assert below and all(t.y + t.size < note.y for t in below)
    assert all(not t.bold and t.align == "center" for t in below)


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
def test_a_series_near_its_end_draws_the_target_band_in_every_panel(lang: Language) -> None:
    """Bob 420 of 500: the axis runs to 550 and every panel draws the target, named, as a
    band at its true height."""
    result = series(NEAR_END)
    assert result.winner is None and max(result.totals.values()) == 420
    chart = chart_of(result, lang)
    for panel in chart.panels:
        (line,) = band(chart, panel)
        base = zero(chart, panel)
        per_point = (panel.box.top - base) / 550
        assert ticks(chart, panel)[-1] == "550" and "500" in ticks(chart, panel)
        assert line.y1 == pytest.approx(base + 500 * per_point)
        own = panel.line.points[-1][1]
        assert own == pytest.approx(base + result.totals[panel_side(result, panel)] * per_point)
    names = [t for t in chart.background.labels if t.text == BANDS[lang.code]]
    assert len(names) == len(chart.panels)
    assert NOTES[lang.code] not in said(chart)


def panel_side(result: SeriesResult, panel: Panel) -> str:
    return result.series.table.sides[panel.side]


def test_the_axis_runs_to_the_target_once_the_leader_is_within_reach() -> None:
    """250 zooms to 275 (under 60 % of 500); 260 would zoom to 300, 60 %: the target's
    axis. A reader would see the target both named under the panels and drawn, or neither."""
    for cards, zoomed in ((25, True), (26, False)):
        result = series([("Ann", {"Bob": cards})], players=("Ann", "Bob"), bonus=0, per_card=10)
        highest = max(result.totals.values())
        assert highest == 10 * cards
        chart = chart_of(result)
        assert (NOTES["en"] in said(chart)) is zoomed, highest
        expected = "275" if zoomed else "550"
        for panel in chart.panels:
            assert bool(band(chart, panel)) is not zoomed, highest
            assert ticks(chart, panel)[-1] == expected, (highest, ticks(chart, panel))
    assert 300 >= WITHIN_REACH * 500 > 275


def test_no_game_yet_and_a_won_series_keep_the_target_axis() -> None:
    """Before the first game, and once won (595 past 500), the axis runs past the target."""
    won = series([*NEAR_END, ("Bob", {"Ann": 10, "Cy": 10, "Di": 10})])
    assert won.winner == "Bob" and won.totals["Bob"] == 595
    for result, top in ((series([]), "550"), (won, "600")):
        chart = chart_of(result)
        assert NOTES["en"] not in said(chart)
        for panel in chart.panels:
            assert band(chart, panel)
            assert ticks(chart, panel)[-1] == top


def test_a_cards_left_chart_keeps_its_axis() -> None:
    """Cards left has no target: a step of 10 above the highest total (not the zoomed
    chart's finer steps), no band, no target named."""
    games = [("Ann", {"Bob": 3, "Cy": 4, "Di": 5}), ("Bob", {"Ann": 2, "Cy": 1, "Di": 6})]
    result = series(games, way="cards-left", games_to_play=6)
    assert max(result.totals.values()) == 11
    chart = chart_of(result)
    for panel in chart.panels:
        assert ticks(chart, panel) == ["0", "10", "20"]
        assert not band(chart, panel)
    assert not [t for t in said(chart) if "500" in t]


def test_the_zoomed_chart_reads_back_from_the_pdf() -> None:
    """The line naming the target is printed, the band's name is not, and in every panel
    the highest line's top sits high in the plot on the page."""
    result = series(THREE_LOW)
    with pdfplumber.open(io.BytesIO(fill_pdf([result], paper("a4")))) as document:
        page = document.pages[-1]
        text = " ".join((page.extract_text() or "").split())
        curves = [c for c in page.curves if len(c["pts"]) == 4]
        own = [c for c in curves if abs(c["linewidth"] - OWN_STROKE) < 0.01]
        axes = [line for line in page.lines if abs(line["linewidth"] - 0.8) < 0.01]
    assert NOTES["en"] in text and "Target: 500" not in text.replace(NOTES["en"], "")
    assert len(own) == 4 and len(curves) == 16
    for line in own:
        # Top-down: the panel's x axis under its line, and its y axis's top.
        left = line["x0"]
        x_axis = min(
            a["top"]
            for a in axes
            if abs(a["top"] - a["bottom"]) < 0.01
            and abs(a["x0"] - left) < 0.01
            and a["top"] >= line["bottom"]
        )
        (y_axis,) = [
            a
            for a in axes
            if abs(a["x0"] - a["x1"]) < 0.01
            and abs(a["x0"] - left) < 0.01
            and abs(a["bottom"] - x_axis) < 0.01
        ]
        tops = [
            min(y for _, y in c["pts"])
            for c in curves
            if abs(c["x0"] - left) < 0.01 and y_axis["top"] <= c["top"] <= x_axis
        ]
        assert len(tops) == 4, "the panel's own line and the three others"
        assert (x_axis - min(tops)) / (x_axis - y_axis["top"]) >= 0.7


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
