"""The race chart as SVG (for the table-side page): the very shapes the PDF painter draws, as
a standalone, accessible SVG document that fetches nothing and escapes every text.

The chart is small multiples: a panel per side, painted in this order: the other sides'
grey lines, white halos where its dots go (cutting the grey lines short of them), its own
line in black (unbroken, print review 32), then a black dot on each game that side won."""

from __future__ import annotations

import ast
import functools
import io
import itertools
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pdfplumber
import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgen import fonts
from sheetgen.fonts import string_width
from sheetgen.game.definition import load_game
from sheetgen.game.language import ENGLISH, Language, language
from sheetgen.game.scoring import Game, Series, SeriesResult, score_series
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import make_table
from sheetgen.game.wording import labels
from sheetgen.paper import paper
from sheetgen.serve.pages import CHART_SIZES
from sheetgen.sheet import svg
from sheetgen.sheet.chart import (
    DOT,
    DOT_HALO,
    FOOT,
    GAME_ROOM,
    LABEL_SIZE,
    NOTE_ROOM,
    OTHER_GRAY,
    OTHER_STROKE,
    OWN_STROKE,
    TARGET_BAND,
    TARGET_GRAY,
    WEB_EDGE,
    Chart,
    Panel,
    chart_subtitle,
    chart_title,
    race_chart,
    web_height,
)
from sheetgen.sheet.fill import fill_pdf, status_line
from sheetgen.sheet.grid import MARGIN
from sheetgen.sheet.layout import MIN_TEXT
from sheetgen.sheet.shapes import Text, as_printed

SVG = "{http://www.w3.org/2000/svg}"
NS = {"svg": SVG[1:-1]}
GERMAN = language("de")
LETTER = paper("letter").landscape
A4 = paper("a4").landscape
Point = tuple[float, float]
ANCHOR = {"left": "start", "center": "middle", "right": "end"}  # SVG's text-anchor
# The words under the panels, as the sheet says them (the German is the catalogue's), by
# (teams, two sides): with two sides there is one light line (print review 32).
NOTE = {
    (False, False): "In each panel the black line is that player’s running total, the light"
    " lines are the other players’, and a dot marks each game that player won.",
    (True, False): "In each panel the black line is that team’s running total, the light lines"
    " are the other teams’, and a dot marks each game that team won.",
    (False, True): "In each panel the black line is that player’s running total, the light"
    " line is the other player’s, and a dot marks each game that player won.",
    (True, True): "In each panel the black line is that team’s running total, the light line"
    " is the other team’s, and a dot marks each game that team won.",
}


def scored(
    players: list[str],
    games: list[tuple[str, dict[str, int]]],
    *,
    teams: dict[str, list[str]] | None = None,
    title: str | None = None,
    **rules: object,
) -> SeriesResult:
    game = load_game("skip-bo")
    table = make_table(players, teams=teams, game=game)
    scoring = ScoringRules.from_mapping({"target": 500, **rules}, game.scoring)
    played = tuple(Game(winner, left) for winner, left in games)
    return score_series(
        Series(table, played, scoring, title=title, game="skip-bo", definition=game)
    )


def four_close() -> SeriesResult:
    """Far from the target: a zoomed axis, the target named under the panels."""
    return scored(
        ["Ann", "Bob", "Cy", "Di"],
        [
            ("Bob", {"Ann": 5, "Cy": 4, "Di": 5}),
            ("Ann", {"Bob": 5, "Cy": 4, "Di": 4}),
            ("Cy", {"Ann": 4, "Bob": 4, "Di": 4}),
            ("Bob", {"Ann": 1, "Cy": 1, "Di": 1}),
        ],
    )


def six_level() -> SeriesResult:
    """Six sides drawing level: lines that run together, panels on two rows."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    games = [(n, {m: 2 for m in names if m != n}) for n in names[:3]]
    return scored(names, games, target=80)


def near_target() -> SeriesResult:
    """Close to the target: the axis runs past it, a band in every panel."""
    return scored(
        ["Ann", "Bob", "Cy"],
        [
            ("Ann", {"Bob": 20, "Cy": 20}),
            ("Bob", {"Ann": 10, "Cy": 20}),
            ("Ann", {"Bob": 15, "Cy": 5}),
        ],
    )


def teams_cards_left() -> SeriesResult:
    teams = {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]}
    games = [("Red", {"Bob": 3, "Di": 4}), ("Blue", {"Ann": 2, "Cy": 5})]
    return scored(["Ann", "Bob", "Cy", "Di"], games, teams=teams, way="cards-left", games_to_play=5)


def duel() -> SeriesResult:
    """Two players, the series won: the axis past its target of 100, one grey line a panel."""
    return scored(
        ["Ann", "Bob"],
        [("Ann", {"Bob": 10}), ("Bob", {"Ann": 2}), ("Ann", {"Bob": 5})],
        target=100,
    )


LONG_NAME = "Maximiliana Theodora Fitzwilliam Ashworth"


def long_name() -> SeriesResult:
    """A name too long for one line of a panel's heading on the wide web drawing."""
    return scored([LONG_NAME, "Bob", "Cy"], [("Bob", {LONG_NAME: 3, "Cy": 2})])


def hostile() -> SeriesResult:
    """Names and a title that are markup if written unescaped."""
    return scored(
        ['A<&">', "Bob</text><script>alert(1)</script>", "Cy's"],
        [("Bob</text><script>alert(1)</script>", {'A<&">': 3, "Cy's": 2})],
        title='<b>Fri & "Sat"</b>',
    )


SERIES: dict[str, Callable[[], SeriesResult]] = {
    "close": four_close,
    "six": six_level,
    "near": near_target,
    "teams-cards-left": teams_cards_left,
    "duel": duel,
    "long-name": long_name,
    "hostile": hostile,
}


def scored_totals(names: list[str], played: list[Any], target: int) -> list[int]:
    """Each side's total after ``played``."""
    result = scored(names, played, target=target)
    return [result.totals.get(name, 0) for name in names]


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def flip(points: tuple[Point, ...], height: float) -> list[Point]:
    return [(x, height - y) for x, y in points]


def polyline(element: ET.Element) -> list[Point]:
    pairs = (pair.split(",") for pair in (element.get("points") or "").split())
    return [(float(x), float(y)) for x, y in pairs]


def close(a: list[Point], b: list[Point], tol: float = 0.01) -> bool:
    return len(a) == len(b) and all(
        abs(x1 - x2) <= tol and abs(y1 - y2) <= tol for (x1, y1), (x2, y2) in zip(a, b, strict=True)
    )


def layout(
    result: SeriesResult, lang: Language, page: tuple[float, float], *, headed: bool = True
) -> Chart:
    heading = chart_title(result, lang)
    return race_chart(result, page, heading, string_width, lang, headed=headed)


def web(result: SeriesResult, width: float, columns: int) -> tuple[float, float]:
    """A web page's drawing: ``width`` wide, as tall as its panels need."""
    return width, web_height(width, len(result.series.table.sides), columns)


def subpaths(d: str) -> list[list[Point]]:
    """An SVG path's data as its parts, each the points its steps name."""
    parts = []
    for part in re.findall(r"M[^M]*", d):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", part)]
        parts.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return parts


def round_centres(parts: list[list[Point]], radius: float, tol: float = 0.01) -> list[Point]:
    """The centres of the round discs a path's parts draw (each starts at its rightmost
    point and ends where it started), each checked to be ``radius`` round: its points (ends
    and control points) just fill the square round the circle."""
    centres = []
    for points in parts:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        assert points[0] == pytest.approx(points[-1], abs=tol), points
        assert points[0] == pytest.approx((centre[0] + radius, centre[1]), abs=tol), points
        assert max(xs) - min(xs) == pytest.approx(2 * radius, abs=2 * tol), points
        assert max(ys) - min(ys) == pytest.approx(2 * radius, abs=2 * tol), points
        centres.append(centre)
    return centres


def dot_centres(d: str, radius: float = DOT) -> list[Point]:
    """The centres of the round dots (or halos) of ``radius`` in an SVG path's data."""
    return round_centres(subpaths(d), radius)


def ink(text: Text) -> tuple[float, float, float, float]:
    """Where a text's glyphs may stand (left, bottom, right, top; y up): its measured width
    and the face's ascent and descent."""
    fonts.BUNDLED.register()
    from reportlab.pdfbase.pdfmetrics import getFont

    face = getFont(fonts.BOLD if text.bold else fonts.REGULAR).face
    width = string_width(as_printed(text.text), text.size, text.bold)
    left = {"left": text.x, "center": text.x - width / 2, "right": text.x - width}[text.align]
    return (
        left,
        text.y + face.descent / 1000 * text.size,
        left + width,
        text.y + face.ascent / 1000 * text.size,
    )


def panels(root: ET.Element) -> list[ET.Element]:
    return root.findall("svg:g[@class='panel']", NS)


def check_panel(element: ET.Element, panel: Panel, height: float) -> None:
    """One panel group against its layout, in painting order: the grey lines, then (if the
    side won a game) the white halos, then the black line, then the black dots."""
    assert element.get("data-side") == str(panel.side)
    kids = list(element)
    wins = bool(panel.line.wins)
    order = ["other"] * len(panel.others) + (["halos", "line", "wins"] if wins else ["line"])
    assert [kid.get("class") for kid in kids] == order
    for drawn, trace in zip(kids[: len(panel.others)], panel.others, strict=True):
        assert drawn.tag == SVG + "polyline"
        assert close(polyline(drawn), flip(trace.points, height))
        assert drawn.get("stroke") == svg.gray(OTHER_GRAY)
        assert float(drawn.get("stroke-width") or 0) == OTHER_STROKE
        assert drawn.get("fill") == "none" and drawn.get("stroke-dasharray") is None
    line = kids[order.index("line")]
    assert line.tag == SVG + "polyline"
    assert close(polyline(line), flip(panel.line.points, height))
    assert line.get("stroke") == "#000000" and float(line.get("stroke-width") or 0) == OWN_STROKE
    if not wins:
        return
    halos, dots = kids[order.index("halos")], kids[order.index("wins")]
    for path, radius, fill in ((halos, DOT + DOT_HALO, "#ffffff"), (dots, DOT, "#000000")):
        assert path.tag == SVG + "path" and path.get("fill") == fill
        # Plain discs: no outline, nothing painted under or over them but what is drawn.
        assert path.get("stroke") is None and path.get("paint-order") is None
        assert close(dot_centres(path.get("d") or "", radius), flip(panel.line.wins, height))


def check_texts(root: ET.Element, chart: Chart) -> None:
    """Every text of the chart at its place, size, weight and anchor, in drawing order."""
    texts = root.findall(".//svg:text", NS)
    expected = [*chart.background.labels, *chart.texts]
    assert len(texts) == len(expected)
    for element, shape in zip(texts, expected, strict=True):
        assert element.text == as_printed(shape.text)
        assert float(element.get("x") or 0) == pytest.approx(shape.x, abs=0.01)
        assert float(element.get("y") or 0) == pytest.approx(chart.height - shape.y, abs=0.01)
        assert float(element.get("font-size") or 0) == pytest.approx(shape.size, abs=0.01)
        assert (element.get("font-weight") == "bold") is shape.bold
        assert element.get("text-anchor", "start") == ANCHOR[shape.align]


def check_grid(root: ET.Element, chart: Chart) -> None:
    """The grid's rules, one path per width, grey and dash (as the PDF's grid draws them),
    each rule a segment of its group's path at its place."""
    grid = root.find("svg:g[@class='grid']", NS)
    assert grid is not None
    groups: dict[tuple[str, str], list[tuple[float, ...]]] = {}
    for rule in chart.background.rules:
        segment = (rule.x1, chart.height - rule.y1, rule.x2, chart.height - rule.y2)
        groups.setdefault((svg.gray(rule.gray), svg.number(rule.width)), []).append(segment)
        assert not rule.dash
    paths = grid.findall("svg:path", NS)
    assert len(paths) == len(groups)
    for path in paths:
        key = (path.get("stroke") or "", path.get("stroke-width") or "")
        drawn = [tuple(x for point in part for x in point) for part in subpaths(path.get("d", ""))]
        assert len(drawn) == len(groups[key])
        for got, want in zip(drawn, groups[key], strict=True):
            assert got == pytest.approx(want, abs=0.01)


def check_chart(text: str, chart: Chart) -> None:
    root = parse(text)
    assert root.get("viewBox") == f"0 0 {svg.number(chart.width)} {svg.number(chart.height)}"
    drawn = panels(root)
    assert len(drawn) == len(chart.panels)
    for element, panel in zip(drawn, chart.panels, strict=True):
        check_panel(element, panel, chart.height)
    check_texts(root, chart)
    check_grid(root, chart)
    # Nothing but the background, the panels and the texts.
    kinds = [child.tag[len(SVG) :] for child in root]
    assert kinds[:3] == ["title", "desc", "rect"] and kinds[3] == "g"
    assert set(kinds[4:]) <= {"g", "text"}


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("name", list(SERIES))
def test_the_svg_draws_the_charts_shapes(name: str, lang: Language) -> None:
    """The web page's chart is the printed one: a group per panel in the order of the sides,
    its grey lines then its black line through the very points laid out, its wins' dots in
    one path, every word where the layout set it, and the grid's rules grouped; nothing
    missing, nothing extra."""
    result = SERIES[name]()
    chart = layout(result, lang, LETTER)
    check_chart(svg.chart_svg(result, lang, *LETTER), chart)
    sides = result.series.table.sides
    assert [panel.side for panel in chart.panels] == list(range(len(sides)))
    # Every side's name heads its panel, whole (on one line or two), in the drawing's words.
    shown = [t.text for t in parse(svg.chart_svg(result, lang, *LETTER)).iter(SVG + "text")]
    for side, panel in zip(sides, chart.panels, strict=True):
        lines = heading(chart, panel)
        assert " ".join(lines) == result.series.table.side_label(side)
        assert all(as_printed(line) in shown for line in lines)


def heading(chart: Chart, panel: Panel) -> list[str]:
    """The lines of a panel's name over its plot, top down (bold, set at the plot's left)."""
    texts = [
        text
        for text in chart.texts
        if text.bold and text.align == "left" and abs(text.x - panel.box.x) < 0.01
        if panel.box.top < text.y < panel.box.top + 30
    ]
    return [text.text for text in sorted(texts, key=lambda text: -text.y)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sides=st.integers(2, 6),
    games=st.lists(st.tuples(st.integers(0, 5), st.integers(1, 12)), min_size=1, max_size=9),
    target=st.sampled_from([150, 500, 2000]),
    width=st.sampled_from([236.0, 248.0, 600.0]),
)
def test_any_series_svg_draws_its_layout(
    sides: int, games: list[tuple[int, int]], target: int, width: float
) -> None:
    """Over generated series (zoomed or past the target, ties, zeros), on either web drawing:
    the SVG is its layout, shape for shape."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"][:sides]
    played = [
        (names[who % sides], {n: left for n in names if n != names[who % sides]})
        for who, left in games
    ]
    # The games up to the one that wins the series (no game is played after it).
    won = next(
        (
            count
            for count in range(1, len(played))
            if max(scored_totals(names, played[:count], target)) >= target
        ),
        len(played),
    )
    result = scored(names, played[:won], target=target)
    page = web(result, width, 1 if width < 300 else 3)
    chart = layout(result, ENGLISH, page, headed=False)
    check_chart(svg.chart_svg(result, ENGLISH, *page, headed=False), chart)


class Paint(NamedTuple):
    """One path painted on the chart page: stroked or filled, its grey (as SVG writes it),
    the line width (strokes only) and the points of its parts (y up, as the layout counts)."""

    kind: str
    gray: str
    width: float
    parts: tuple[tuple[Point, ...], ...]


def paints_of(page: pikepdf.Page) -> list[Paint]:
    """The paths a page's own content paints, in the order painted (the background is a
    form of its own; text is left out)."""
    state = {"G": 0.0, "g": 0.0, "w": 1.0}
    saved: list[dict[str, float]] = []
    parts: list[list[Point]] = []
    paints: list[Paint] = []
    text = False
    for instruction in pikepdf.parse_content_stream(page):
        assert isinstance(instruction, pikepdf.ContentStreamInstruction)  # no inline image
        op = str(instruction.operator)
        numeric = op in ("cm", "G", "g", "w", "m", "l", "c")
        values = [float(v) for v in instruction.operands] if numeric else []
        if op in ("BT", "ET"):
            text = op == "BT"
        elif text:
            continue
        elif op == "cm":
            assert values == [1, 0, 0, 1, 0, 0], values  # page points as laid out
        elif op == "q":
            saved.append(dict(state))
        elif op == "Q":
            state = saved.pop()
        elif op in state:
            state[op] = values[0]
        elif op == "m":
            parts.append([(values[0], values[1])])
        elif op in ("l", "c"):
            parts[-1].extend(zip(values[::2], values[1::2], strict=True))
        elif op in ("S", "f", "f*"):
            stroke = op == "S"
            level = state["G" if stroke else "g"]
            width = state["w"] if stroke else 0.0
            paints.append(Paint(op[0], svg.gray(level), width, tuple(map(tuple, parts))))
            parts = []
        elif op == "n":
            parts = []
        else:
            assert op not in ("re", "s", "F", "B", "B*", "b", "b*"), op  # no other painting
    return paints


def svg_paints(root: ET.Element, height: float) -> list[Paint]:
    """What an SVG's panels paint, in drawing order, as ``paints_of`` reads a PDF page."""
    out = []
    for element in panels(root):
        for kid in element:
            if kid.tag == SVG + "polyline":
                width = float(kid.get("stroke-width") or 0)
                points = tuple(flip(tuple(polyline(kid)), height))
                out.append(Paint("S", kid.get("stroke") or "", width, (points,)))
            else:
                parts = [tuple(flip(tuple(part), height)) for part in subpaths(kid.get("d") or "")]
                out.append(Paint("f", kid.get("fill") or "", 0.0, tuple(parts)))
    return out


class Printed(NamedTuple):
    """A filled A4 sheet's chart page, read back, and the layout it was painted from."""

    result: SeriesResult
    chart: Chart
    size: tuple[float, float]
    lines: list[dict[str, Any]]
    chars: list[dict[str, Any]]
    paints: list[Paint]


@functools.cache
def printed(name: str) -> Printed:
    """The race chart page of SERIES[name]'s filled A4 sheet, read back with pdfplumber (the
    background's rules, the characters) and pikepdf (the panels' paths in painting order),
    and the chart as the sheet lays it out: its title at the size the page shows, the
    sheet's status line as its verdict."""
    result = SERIES[name]()
    pdf = fill_pdf([result], paper("a4"))
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[-1]
        size = (float(page.width), float(page.height))
        lines, chars = list(page.lines), list(page.chars)
    with pikepdf.open(io.BytesIO(pdf)) as document:
        paints = paints_of(document.pages[-1])
    verdict = f"{labels(ENGLISH).status} {status_line(result, ENGLISH)}"
    title = max(float(char["size"]) for char in chars)
    chart = race_chart(
        result, A4, chart_title(result), string_width, title_size=title, verdict=verdict
    )
    return Printed(result, chart, size, lines, chars, paints)


def gray_of(colour: Any) -> float:
    """A pdfplumber stroking or filling colour (a grey) as one level."""
    if isinstance(colour, (tuple, list)):
        assert len(colour) == 1, colour
        colour = colour[0]
    return float(colour)


def same_paints(got: list[Paint], want: list[Paint], tol: float = 0.02) -> None:
    """Two painting orders alike: kind, grey, width and every point of every part."""
    assert [(p.kind, p.gray, round(p.width, 2)) for p in got] == [
        (p.kind, p.gray, round(p.width, 2)) for p in want
    ]
    for one, other in zip(got, want, strict=True):
        assert len(one.parts) == len(other.parts)
        for a, b in zip(one.parts, other.parts, strict=True):
            assert close(list(a), list(b), tol), (one, other)


@pytest.mark.parametrize("name", ["close", "six", "near", "teams-cards-left", "duel", "long-name"])
def test_the_svg_lines_are_the_lines_the_pdf_draws(name: str) -> None:
    """Read back from the filled sheet's chart page: the PDF paints, path for path and in
    the same order, the very grey lines, white halos, black lines and dots (at the same
    points) that the SVG of the same layout draws, and that layout is the chart's."""
    page = printed(name)
    chart = page.chart
    assert page.size == pytest.approx(A4)
    text = svg.shapes_svg(chart, chart_title(page.result), chart_subtitle(page.result))
    check_chart(text, chart)
    drawn = svg_paints(parse(text), chart.height)
    assert {p.kind for p in drawn} == {"S", "f"}
    same_paints(page.paints, drawn)
    dots = [p for p in page.paints if p.kind == "f" and p.gray == "#000000"]
    assert sum(len(p.parts) for p in dots) == len(page.result.games)


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("name", ["close", "teams-cards-left"])
def test_the_svg_is_accessible_standalone_and_scales(name: str, lang: Language) -> None:
    """A screen reader hears the chart's title and, in its description, what it shows and
    every side's total; the drawing fetches nothing, has no inline style (a page's
    Content-Security-Policy may forbid it) and no id (a page holds two charts), and takes
    the width it is given through its viewBox alone."""
    result = SERIES[name]()
    text = svg.chart_svg(result, lang, 600, 400)
    root = parse(text)
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.get("viewBox") == "0 0 600 400"
    assert root.get("width") is None and root.get("height") is None
    title = as_printed(chart_title(result, lang))
    assert root.get("aria-label") == title
    assert root.findtext("svg:title", namespaces=NS) == title
    description = root.findtext("svg:desc", namespaces=NS) or ""
    for side in result.series.table.sides:
        assert f"{side} {lang.number(result.totals.get(side, 0))}" in description, side
    said = lang._("The race to {target}: each player's running total after every game")
    assert (as_printed(said.format(target=500)) in description) is (name == "close")
    if lang is GERMAN and name == "close":  # print review 32's wording
        assert description.startswith(
            "Der Weg zu 500 Punkten: der Punktestand jedes Spielers nach jedem Spiel. "
        )
    assert "sans-serif" in (root.get("font-family") or "")
    # Nothing outside the document: no link, image, style, script, foreign font or id.
    for element in root.iter():
        assert not any("href" in key for key in element.attrib), element.tag
        assert "style" not in element.attrib and "id" not in element.attrib, element.tag
        assert element.tag[len(SVG) :] not in ("image", "script", "style", "foreignObject")
    assert "url(" not in text and "@import" not in text
    assert text.count("http://") == 1  # the namespace only
    # It scales: the same series at another size is the same drawing, its viewBox apart.
    other = parse(svg.chart_svg(result, lang, 300, 200))
    assert other.get("viewBox") == "0 0 300 200"
    assert len(panels(other)) == len(panels(root)) == len(result.series.table.sides)


def test_greys_are_the_pdfs_greys() -> None:
    """Read back from the PDF: the grey of every line, rule, band, dot and halo is the grey
    the SVG draws it in (a level of 0.62 is #9e9e9e on screen as on paper)."""
    assert [svg.gray(level) for level in (0.0, 0.5, 0.62, 0.8, 1.0)] == [
        "#000000",
        "#808080",
        "#9e9e9e",
        "#cccccc",
        "#ffffff",
    ]
    page = printed("near")
    root = parse(svg.shapes_svg(page.chart, chart_title(page.result), chart_subtitle(page.result)))
    # The sides' lines: grey behind, black in front, in the PDF as in the SVG.
    for kind, stroke in (("other", OTHER_STROKE), ("line", OWN_STROKE)):
        colours = {e.get("stroke") for e in root.iter(SVG + "polyline") if e.get("class") == kind}
        read = {p.gray for p in page.paints if p.kind == "S" and abs(p.width - stroke) < 0.01}
        assert len(colours) == 1 and read == colours, kind
    assert colours == {"#000000"}
    # The grid's rules (the target's band among them), by width: the same greys.
    grid = root.find("svg:g[@class='grid']", NS)
    assert grid is not None
    grid_drawn = {(p.get("stroke-width"), p.get("stroke")) for p in grid.iter(SVG + "path")}
    grid_read = {
        (svg.number(line["linewidth"]), svg.gray(gray_of(line["stroking_color"])))
        for line in page.lines
    }
    assert grid_drawn == grid_read
    assert (svg.number(TARGET_BAND), svg.gray(TARGET_GRAY)) in grid_drawn
    # The dots: black discs on white ones, filled, in both.
    for kind, colour in (("halos", "#ffffff"), ("wins", "#000000")):
        drawn = [e for e in root.iter(SVG + "path") if e.get("class") == kind]
        assert drawn and {(e.get("fill"), e.get("stroke")) for e in drawn} == {(colour, None)}
    fills = {p.gray for p in page.paints if p.kind == "f"}
    assert fills == {"#ffffff", "#000000"}


def test_the_target_band_is_dark_and_keeps_to_its_plot() -> None:
    """Print review 32: the target's band read as a thick grid line in grey print, and its
    square caps ran past the plot. In every panel whose axis runs past the target, the
    band lies at the target, darker than the grid and the grey lines and broader than a
    grey line, its ends (caps and all) flush with the plot's: in the layout, the SVG's
    square-capped path and the PDF read back."""
    assert TARGET_GRAY < OTHER_GRAY < 0.8 and TARGET_BAND > OTHER_STROKE
    page = printed("near")
    chart = page.chart
    bands = [rule for rule in chart.background.rules if rule.width == TARGET_BAND]
    assert len(bands) == len(chart.panels)
    for band, panel in zip(bands, chart.panels, strict=True):
        box, half = panel.box, TARGET_BAND / 2
        assert band.gray == TARGET_GRAY and band.y1 == band.y2
        # At the height of the y axis's "500" (each figure is set 2.8 under its value).
        figures = [
            label.y + 2.8
            for label in chart.background.labels
            if label.text == "500" and label.align == "right" and box.x - 30 < label.x < box.x
        ]
        assert figures == [pytest.approx(band.y1, abs=0.01)]
        assert (band.x1 - half, band.x2 + half) == pytest.approx((box.x, box.right), abs=0.01)
    root = parse(svg.shapes_svg(chart, chart_title(page.result), chart_subtitle(page.result)))
    grid = root.find("svg:g[@class='grid']", NS)
    assert grid is not None
    drawn = [p for p in grid.iter(SVG + "path") if p.get("stroke-width") == "2.4"]
    assert len(drawn) == 1 and drawn[0].get("stroke-linecap") == "square"
    read = [line for line in page.lines if abs(line["linewidth"] - TARGET_BAND) < 0.01]
    ends = sorted((float(line["x0"]), float(line["x1"])) for line in read)
    assert close(ends, sorted((band.x1, band.x2) for band in bands))
    assert {svg.gray(gray_of(line["stroking_color"])) for line in read} == {"#808080"}


def test_names_and_titles_are_escaped() -> None:
    """Names and a title that are markup stay words: escaped in the drawing, read back as
    typed (an apostrophe set as the PDF sets it), in the headings, title and description."""
    result = hostile()
    text = svg.chart_svg(result, ENGLISH)
    root = parse(text)
    assert "<script" not in text and "<b>" not in text
    assert "A&lt;&amp;" in text
    shown = [t.text for t in root.iter(SVG + "text")]
    for side in result.series.table.sides:
        assert as_printed(side) in shown, side
    assert "Cy\N{RIGHT SINGLE QUOTATION MARK}s" in shown
    assert root.get("aria-label") == '<b>Fri & "Sat"</b>'
    assert root.findtext("svg:title", namespaces=NS) == '<b>Fri & "Sat"</b>'
    description = root.findtext("svg:desc", namespaces=NS) or ""
    assert 'A<&"> 0' in description and "Bob</text><script>alert(1)</script> 50" in description
    assert not list(root.iter(SVG + "script"))
    assert [g.get("data-side") for g in panels(root)] == ["0", "1", "2"]


def test_the_svg_module_needs_no_reportlab() -> None:
    """The web page draws charts without the PDF library loaded."""
    tree = ast.parse(Path(svg.__file__).read_text(encoding="utf-8"))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
    assert "sheetgen.sheet.chart" in modules
    assert not [module for module in modules if module.startswith("reportlab")]
    code = (
        "import sys, sheetgen.sheet.svg; print(any(m.startswith('reportlab') for m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "False"


WEB = [(width, columns) for _, width, columns in CHART_SIZES]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["close", "six", "teams-cards-left", "long-name", "hostile"])
@pytest.mark.parametrize(("width", "columns"), WEB, ids=["narrow", "wide"])
def test_a_phone_sized_chart_keeps_every_word_inside_its_drawing(
    name: str, lang: str, width: float, columns: int
) -> None:
    """The served page draws the chart 236 points wide for a phone (a panel to a row) and
    600 wide for a desktop (up to three), as tall as ``web_height`` says: no word or panel
    runs past the drawing's edge or into another panel, the panels keep to the columns the
    height was worked out for, and no word is set under 8 units."""
    result = SERIES[name]()
    page = web(result, width, columns)
    chart = layout(result, language(lang), page, headed=False)
    for text in [*chart.texts, *chart.background.labels]:
        left, bottom, right, top = ink(text)
        assert left >= 0 and right <= chart.width + 0.01, text
        assert bottom >= 0 and top <= chart.height + 0.01, text
        assert text.size >= MIN_TEXT, text
    boxes = [panel.box for panel in chart.panels]
    for box in boxes:
        assert box.x >= 0 and box.right <= chart.width and box.y - FOOT >= 0, box
        assert box.top <= chart.height, box
    for one, other in itertools.pairwise(boxes):
        assert one.right <= other.x or other.top <= one.y, (one, other)
    assert len({round(box.x, 2) for box in boxes}) <= columns
    drawing = parse(svg.chart_svg(result, language(lang), *page, headed=False))
    sizes = [float(t.get("font-size") or 0) for t in drawing.iter(SVG + "text")]
    assert sizes and min(sizes) >= MIN_TEXT
    for element in drawing.iter(SVG + "polyline"):
        for x, y in polyline(element):
            assert 0 <= x <= chart.width and 0 <= y <= chart.height


def extent(chart: Chart) -> tuple[float, float, float, float]:
    """The box (left, bottom, right, top; y up) round every word and line of a chart."""
    boxes = [ink(text) for text in [*chart.texts, *chart.background.labels]]
    for panel in chart.panels:
        for trace in (panel.line, *panel.others):
            xs, ys = [x for x, _ in trace.points], [y for _, y in trace.points]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        boxes.append((panel.box.x, panel.box.y, panel.box.right, panel.box.top))
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@pytest.mark.parametrize(("width", "columns"), WEB, ids=["narrow", "wide"])
@pytest.mark.parametrize("name", ["close", "six"])
def test_a_web_pages_chart_stands_close_to_its_edges(name: str, width: float, columns: int) -> None:
    """Print review 8: the served chart left about 60 px of white above its first word (a
    page's margin, drawn into a web page's picture). Unheaded, its ink starts and ends
    within a few units (WEB_EDGE) of each edge of the drawing; a page keeps its margins."""
    result = SERIES[name]()
    page = web(result, width, columns)
    left, bottom, right, top = extent(layout(result, ENGLISH, page, headed=False))
    gaps = (left, bottom, page[0] - right, page[1] - top)
    assert all(0 <= gap <= min(2 * WEB_EDGE, 8.0) for gap in gaps), gaps
    left, bottom, right, top = extent(layout(result, ENGLISH, LETTER))
    gaps = (left, bottom, LETTER[0] - right, LETTER[1] - top)
    assert all(gap >= MARGIN - 6 for gap in gaps), gaps


def note(chart: Chart) -> tuple[str, list[Text]]:
    """The words under the panels, read top down, and their texts."""
    lowest = min(panel.box.y for panel in chart.panels) - FOOT
    under = [text for text in chart.texts if text.y < lowest and not text.bold]
    under.sort(key=lambda text: -text.y)
    return " ".join(text.text for text in under), under


DRAWINGS = {"narrow": WEB[0], "wide": WEB[1]}  # a web page's, by width and columns


@pytest.mark.parametrize("where", ["page", "narrow", "wide"])
@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("name", ["close", "teams-cards-left", "duel"])
def test_the_note_says_what_the_lines_and_dots_mean(name: str, where: str, lang: Language) -> None:
    """Print review 10: without a word on it, a reader took marks missing from some games
    for a mistake. Under the panels, centred and clear of the games' numbers, a note says
    in full (never cut, in up to four lines) what the black line, the light line or lines
    and a dot mean (for players or teams; with two sides there is one light line, print
    review 32), on the page and on both web drawings alike, in the sheet's language, no
    line wider than NOTE_ROOM (a page's 143 characters on one line were hard to follow);
    the English avoids words spelled two ways (no "grey")."""
    result = SERIES[name]()
    teams, two = result.series.table.partnership, len(result.series.table.sides) == 2
    said = lang._(NOTE[teams, two])
    if lang is GERMAN:
        assert said != NOTE[teams, two]
        # One other side ("den der anderen Person"), or several ("die Stände der anderen");
        # no "er" for every player (print review 33).
        light = ("den de",) if two else ("die Stände der anderen",)
        assert all(word in said for word in ("schwarze Linie", *light, "hell", "Punkt"))
        assert ("Stände" in said) is not two
        assert " er " not in said
    else:
        assert not re.search(r"\bgr[ae]y", said, re.IGNORECASE)
        said_light = "the light line is the other " if two else "the light lines are the other "
        assert said_light in said
    headed = where == "page"
    page = LETTER if headed else web(result, *DRAWINGS[where])
    chart = layout(result, lang, page, headed=headed)
    words, texts = note(chart)
    assert words == said
    assert 1 <= len(texts) <= 4
    assert max(ink(text)[2] - ink(text)[0] for text in texts) <= NOTE_ROOM + 0.01
    assert min(text.size for text in texts) >= MIN_TEXT
    assert {(text.align, text.x) for text in texts} == {("center", page[0] / 2)}
    figures = [ink(label)[1] for label in chart.background.labels]
    assert max(ink(text)[3] for text in texts) < min(figures)
    drawn = parse(svg.chart_svg(result, lang, *page, headed=headed))
    shown = [t.text for t in drawn.iter(SVG + "text")]
    assert all(as_printed(text.text) in shown for text in texts)


@pytest.mark.parametrize("name", ["close", "six", "near", "teams-cards-left", "duel"])
def test_each_games_winner_has_one_dot_and_nothing_else_is_dotted(name: str) -> None:
    """Print review 11: a reader must tell who won each game, even where every line is
    level. Each game's winner has exactly one dot, in its own panel, on its own line at that
    game; no other panel has a dot at that game, no grey line carries one; in the layout,
    the SVG and the PDF alike."""
    result = SERIES[name]()
    chart = layout(result, ENGLISH, LETTER)
    sides = result.series.table.sides
    for panel in chart.panels:
        assert all(trace.wins == () for trace in panel.others)
    for game in result.games:
        for index, panel in enumerate(chart.panels):
            x = panel.line.points[game.number][0]  # the game's place across this panel
            here = [dot for dot in panel.line.wins if abs(dot[0] - x) < 0.01]
            if sides[index] == game.winner:
                assert here == [panel.line.points[game.number]], (game.number, index)
            else:
                assert here == [], (game.number, index)
    assert sum(len(panel.line.wins) for panel in chart.panels) == len(result.games)
    root = parse(svg.chart_svg(result, ENGLISH, *LETTER))
    for element, panel in zip(panels(root), chart.panels, strict=True):
        wins = [e for e in element if e.get("class") == "wins"]
        drawn = dot_centres(wins[0].get("d") or "") if wins else []
        assert close(drawn, flip(panel.line.wins, LETTER[1]))
    assert len([e for e in root.iter(SVG + "path") if e.get("class") == "wins"]) == len(
        {game.winner for game in result.games}
    )
    # The PDF: the black dots, filled, one a game, at the points its layout dots.
    page = printed(name)
    dots = [p for p in page.paints if p.kind == "f" and p.gray == "#000000"]
    read = sorted(c for p in dots for c in round_centres([list(q) for q in p.parts], DOT, 0.02))
    dotted = sorted(point for panel in page.chart.panels for point in panel.line.wins)
    assert len(read) == len(result.games) and close(read, dotted, 0.02)


@pytest.mark.parametrize("name", ["close", "six", "near", "duel"])
def test_the_black_line_runs_unbroken_between_its_halos_and_dots(name: str) -> None:
    """Print review 21: a grey line that crossed a dot read as part of it; print review 32:
    halos painted over the black line broke a winning streak into dashes. In each panel the
    grey lines come first, then a white disc DOT_HALO wider than each dot (cutting the grey
    lines short of it), then the black line, whole, then the black dots: nothing white is
    painted after the black line. The same in the web page's drawing and the PDF's."""
    assert DOT_HALO >= 0.75
    result = SERIES[name]()
    page = web(result, 600.0, 3)
    chart = layout(result, ENGLISH, page, headed=False)
    drawn = parse(svg.chart_svg(result, ENGLISH, *page, headed=False))
    for element, panel in zip(panels(drawn), chart.panels, strict=True):
        check_panel(element, panel, page[1])  # grey lines, halos, black line, dots
        kids = [kid.get("class") for kid in element]
        line = kids.index("line")
        assert all(kid.get("fill") != "#ffffff" for kid in list(element)[line:])
    assert any(panel.line.wins for panel in chart.panels)
    # The PDF, path by path: g = a grey line, h = the halos (white, filled), l = the black
    # line, d = the dots (black, filled); one group a panel, as the layout has them.
    printed_page = printed(name)
    code = {("S", svg.gray(OTHER_GRAY)): "g", ("f", "#ffffff"): "h", ("S", "#000000"): "l"}
    code[("f", "#000000")] = "d"
    read = "".join(code[paint.kind, paint.gray] for paint in printed_page.paints)
    want = "".join(
        "g" * len(panel.others) + ("hld" if panel.line.wins else "l")
        for panel in printed_page.chart.panels
    )
    assert read == want
    halos = iter(p for p in printed_page.paints if p.gray == "#ffffff")
    for panel in printed_page.chart.panels:
        if panel.line.wins:
            parts = [list(part) for part in next(halos).parts]
            assert close(round_centres(parts, DOT + DOT_HALO, 0.02), list(panel.line.wins), 0.02)


def test_the_printed_chart_says_who_won() -> None:
    """Print review 32: a finished series' chart did not say it was finished. The printed
    chart's page has, under its subtitle and over the panels, the sheet's status line in
    bold ("Series winner: …"), read back from the PDF where the layout set it; the web
    drawings (whose page says it in words of its own) have none."""
    page = printed("duel")
    verdict = f"{labels(ENGLISH).status} {status_line(page.result, ENGLISH)}"
    assert "Ann" in verdict and "100" in verdict  # the winner, reaching the target
    texts = [text for text in page.chart.texts if text.text == verdict]
    assert len(texts) == 1 and texts[0].bold and texts[0].size >= MIN_TEXT
    said = texts[0]
    subtitle = page.chart.texts[page.chart.texts.index(said) - 1]
    assert chart_subtitle(page.result) == subtitle.text and ink(said)[3] < ink(subtitle)[1]
    heads = [text for text in page.chart.texts if text.y < said.y]
    assert heads and ink(said)[1] > max(ink(text)[3] for text in heads)
    assert ink(said)[1] > max(panel.box.top for panel in page.chart.panels)
    # The PDF sets it there, in bold.
    chars = [c for c in page.chars if abs(c["matrix"][5] - said.y) < 0.05]
    assert "".join(c["text"] for c in chars) == as_printed(verdict)
    assert all("Bold" in c["fontname"] for c in chars)
    shown = [t.text or "" for t in parse(svg.chart_svg(page.result)).iter(SVG + "text")]
    assert not [text for text in shown if text.startswith(labels(ENGLISH).status)]


@pytest.mark.parametrize(("width", "columns"), WEB, ids=["narrow", "wide"])
def test_a_long_name_heads_its_panel_whole_on_two_lines(width: float, columns: int) -> None:
    """Print review 32: a long name was cut short on the web's three-column chart. A name
    too long for one line of its heading (even at 8 pt) takes two, whole, broken between
    words, clear of the total beside it and above its plot; every plot then stands a line
    lower than with short names. Where one line holds it, it keeps to one."""
    result = long_name()
    page = web(result, width, columns)
    chart = layout(result, ENGLISH, page, headed=False)
    short = layout(
        scored(["Al", "Bob", "Cy"], [("Bob", {"Al": 3, "Cy": 2})]), ENGLISH, page, headed=False
    )
    panel = chart.panels[0]
    lines = heading(chart, panel)
    assert " ".join(lines) == LONG_NAME
    texts = [t for t in chart.texts if t.text in lines and t.x == panel.box.x]
    total = next(t for t in chart.texts if t.align == "right" and t.x == panel.box.right)
    size = texts[0].size
    assert size >= MIN_TEXT and {t.size for t in texts} == {size}
    # The room the heading gives a name: the panel's width less its total (at the
    # headings' largest size) and 8 points between them.
    room = panel.box.right - panel.box.x - string_width(total.text, LABEL_SIZE, True) - 8
    one_line = string_width(LONG_NAME, MIN_TEXT, True) <= room
    assert len(lines) == (1 if one_line else 2)
    for text in texts:
        assert ink(text)[2] <= ink(total)[0] - 4, (text, total)  # clear of the total
        assert ink(text)[1] > panel.box.top  # above the plot
    if len(lines) == 2:
        upper, lower = sorted(texts, key=lambda t: -t.y)
        assert ink(upper)[1] >= ink(lower)[3] - 0.5 * size  # lines set apart, not overprinted
        lowered = [a.box.top - b.box.top for a, b in zip(short.panels, chart.panels, strict=True)]
        assert lowered == pytest.approx([size * 1.15] * len(chart.panels), abs=0.01)
    else:
        assert [p.box.top for p in chart.panels] == [p.box.top for p in short.panels]
    drawing = parse(svg.chart_svg(result, ENGLISH, *page, headed=False))
    shown = [t.text for t in drawing.iter(SVG + "text")]
    assert all(line in shown for line in lines)
    assert not [t for t in shown if t and "…" in t]


def many(games: int) -> SeriesResult:
    """Two players taking turns to win ``games`` games, far from their target."""
    names = ["Ann", "Bob"]
    played = [(names[n % 2], {names[(n + 1) % 2]: 1}) for n in range(games)]
    return scored(names, played, target=5000)


@pytest.mark.parametrize("where", ["page", "narrow", "wide"])
@pytest.mark.parametrize(
    ("series", "last"),
    [(lambda: many(7), 7), (lambda: many(13), 13), (lambda: many(34), 34), (teams_cards_left, 5)],
    ids=["7", "13", "34", "cards-left-5-agreed"],
)
def test_the_last_game_is_numbered(
    series: Callable[[], SeriesResult], last: int, where: str
) -> None:
    """Print review 32: a 34-game axis stopped at 30. Under every plot each game has a tick
    (a longer one where it is numbered); the numbers run every 1, 2, 5, 10 … games, as few
    as keep them GAME_ROOM apart, and the last game (a cards-left series' last agreed game,
    played or not) is always numbered, at the plot's right end, a regular number too near it
    left out and no other; in the SVG as in the layout."""
    result = series()
    headed = where == "page"
    page = LETTER if headed else web(result, *DRAWINGS[where])
    chart = layout(result, ENGLISH, page, headed=headed)
    for panel in chart.panels:
        box = panel.box
        numbers = {
            int(label.text): label.x
            for label in chart.background.labels
            if label.align == "center" and abs(label.y - (box.y - 12)) < 0.01
            if box.x - 0.01 <= label.x <= box.right + 0.01
        }
        assert max(numbers) == last and numbers[last] == pytest.approx(box.right, abs=0.01)
        per = box.width / last
        xs = sorted(numbers.values())
        assert all(b - a >= GAME_ROOM - 0.01 for a, b in itertools.pairwise(xs))
        regular = sorted(numbers)[:-1]
        step = regular[1] - regular[0] if len(regular) > 1 else last
        assert regular[0] == 0 and all(n % step == 0 for n in regular)
        assert regular == list(range(0, regular[-1] + 1, step))
        assert step * per >= GAME_ROOM  # thinned no more than needed …
        assert step == 1 or (max(n for n in (1, 2, 5, 10, 20) if n < step) * per < GAME_ROOM)
        left_out = regular[-1] + step  # … and a number left out only near the last
        assert left_out >= last or (last - left_out) * per < GAME_ROOM
        ticks = [
            rule
            for rule in chart.background.rules
            if rule.x1 == rule.x2
            and rule.y1 == box.y > rule.y2  # down from the x axis
            and box.x - 0.01 <= rule.x1 <= box.right + 0.01
        ]
        assert len(ticks) == last + 1
        longer = {round(t.x1, 2) for t in ticks if t.y1 - t.y2 == 3.5}
        assert longer == {round(x, 2) for x in xs}
    shown = [
        t.text
        for t in parse(svg.chart_svg(result, ENGLISH, *page, headed=headed)).iter(SVG + "text")
    ]
    assert shown.count(str(last)) >= len(chart.panels)
