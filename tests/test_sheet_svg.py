"""The race chart as SVG (for the table-side page): the very shapes the PDF painter draws, as
a standalone, accessible SVG document that fetches nothing and escapes every text."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
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
from sheetgen.sheet import svg
from sheetgen.sheet.chart import Chart, chart_title, race_chart, side_look
from sheetgen.sheet.fill import fill_pdf
from sheetgen.sheet.shapes import (
    HOLLOW,
    MARKER_HALO,
    MARKER_SIZE,
    RING,
    RING_HALO,
    STROKE,
    as_printed,
    marker_path,
)
from sheetgen.sheet.svg import chart_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
GERMAN = language("de")
LETTER = paper("letter").landscape
A4 = paper("a4").landscape


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
    """Six sides, six looks, drawing level, so markers stand side by side."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    games = [(n, {m: 2 for m in names if m != n}) for n in names[:3]]
    return scored(names, games, target=80)


def teams_cards_left() -> SeriesResult:
    teams = {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]}
    games = [("Red", {"Bob": 3, "Di": 4}), ("Blue", {"Ann": 2, "Cy": 5})]
    return scored(["Ann", "Bob", "Cy", "Di"], games, teams=teams, way="cards-left", games_to_play=5)


def hostile() -> SeriesResult:
    """Names and a title that are markup if written unescaped."""
    return scored(
        ['A<&">', "Bob</text><script>alert(1)</script>", "Cy's"],
        [("Bob</text><script>alert(1)</script>", {'A<&">': 3, "Cy's": 2})],
        title='<b>Fri & "Sat"</b>',
    )


SERIES = {
    "close": four_close,
    "six": six_level,
    "teams-cards-left": teams_cards_left,
    "hostile": hostile,
}


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def flip(points: tuple[tuple[float, float], ...], height: float) -> list[tuple[float, float]]:
    return [(x, height - y) for x, y in points]


def polyline(element: ET.Element) -> list[tuple[float, float]]:
    pairs = (pair.split(",") for pair in (element.get("points") or "").split())
    return [(float(x), float(y)) for x, y in pairs]


def close(a: list[tuple[float, float]], b: list[tuple[float, float]], tol: float = 0.01) -> bool:
    return len(a) == len(b) and all(
        abs(x1 - x2) <= tol and abs(y1 - y2) <= tol for (x1, y1), (x2, y2) in zip(a, b, strict=True)
    )


def layout(result: SeriesResult, lang: Language, page: tuple[float, float]) -> Chart:
    heading = chart_title(result, lang)
    return race_chart(result, page, heading, string_width, lang)


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
@pytest.mark.parametrize("name", list(SERIES))
def test_the_svg_draws_the_charts_shapes(name: str, lang: Language) -> None:
    result = SERIES[name]()
    width, height = LETTER
    text = chart_svg(result, lang, width, height)
    root = parse(text)
    chart = layout(result, lang, LETTER)
    sides = result.series.table.sides
    # One line per side, through the very points the chart is laid out with; dash and grey too.
    lines = root.findall("svg:polyline[@class='line']", NS)
    assert len(lines) == len(sides)
    for element, trace in zip(lines, chart.traces[len(sides) :], strict=True):
        assert close(polyline(element), flip(trace.points, height))
        dash = element.get("stroke-dasharray")
        assert tuple(float(d) for d in dash.split()) == trace.dash if dash else not trace.dash
        assert element.get("stroke") == svg.gray(trace.gray)
        assert float(element.get("stroke-width") or 0) == STROKE
    assert len(root.findall("svg:polyline[@class='key']", NS)) == len(sides)
    # Every marker, hollow or solid, in its path.
    paths = {p.get("class"): p.get("d") or "" for p in root.findall("svg:path", NS)}
    for trace in chart.traces:
        kind = "markers hollow" if trace.marker in HOLLOW else "markers solid"
        for x, y in trace.marks:
            assert svg._path(marker_path(trace.marker, x, y), height) in paths[kind]
    marks = sum(len(trace.marks) for trace in chart.traces)
    drawn = sum(paths.get(k, "").count("M") for k in ("markers hollow", "markers solid"))
    assert drawn >= marks > 0
    # Every text of the chart at its place, size and weight, and the sides' names among them.
    texts = root.findall(".//svg:text", NS)
    expected = [*chart.background.labels, *chart.texts]
    assert len(texts) == len(expected)
    for element, shape in zip(texts, expected, strict=True):
        assert element.text == as_printed(shape.text)
        assert float(element.get("x") or 0) == pytest.approx(shape.x, abs=0.01)
        assert float(element.get("y") or 0) == pytest.approx(height - shape.y, abs=0.01)
        assert float(element.get("font-size") or 0) == shape.size
        assert (element.get("font-weight") == "bold") is shape.bold
        assert element.get("text-anchor", "start") == svg.ANCHOR[shape.align]
    shown = " ".join(element.text or "" for element in texts)
    for side in sides:
        assert as_printed(side) in shown
    # The grid's rules, grouped by width, grey and dash as the PDF's grid draws them.
    grid = root.find("svg:g[@class='grid']", NS)
    assert grid is not None
    strokes = {(p.get("stroke"), p.get("stroke-width")) for p in grid.findall("svg:path", NS)}
    assert strokes == {
        (svg.gray(rule.gray), svg.number(rule.width)) for rule in chart.background.rules
    }
    segments = sum((p.get("d") or "").count("M") for p in grid.findall("svg:path", NS))
    assert segments == len(chart.background.rules)


@pytest.mark.parametrize("name", ["close", "six", "teams-cards-left"])
def test_the_svg_lines_are_the_lines_the_pdf_draws(name: str) -> None:
    """Read back from the PDF chart page (top-down, as SVG counts): the same polylines."""
    result = SERIES[name]()
    width, height = A4
    root = parse(chart_svg(result, ENGLISH, width, height))
    drawn = [polyline(element) for element in root.findall("svg:polyline", NS)]
    with pdfplumber.open(io.BytesIO(fill_pdf([result], paper("a4")))) as document:
        page = document.pages[-1]
        assert (page.width, page.height) == pytest.approx((width, height))
        strokes = [c for c in page.curves if abs(c["linewidth"] - STROKE) < 0.01]
        strokes += [
            {"pts": [(line["x0"], line["top"]), (line["x1"], line["bottom"])]}
            for line in page.lines
            if abs(line["linewidth"] - STROKE) < 0.01
        ]
    pdf_lines = [[(float(x), float(y)) for x, y in curve["pts"]] for curve in strokes]
    assert len(pdf_lines) == len(drawn)
    for line in drawn:
        assert any(close(line, other, 0.02) for other in pdf_lines), line


@pytest.mark.parametrize("lang", [ENGLISH, GERMAN], ids=["en", "de"])
def test_the_svg_is_accessible_standalone_and_scales(lang: Language) -> None:
    result = four_close()
    text = chart_svg(result, lang, 600, 400)
    root = parse(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox") == "0 0 600 400"
    name = chart_title(result, lang)
    assert root.get("aria-label") == name
    assert root.findtext("svg:title", namespaces=NS) == name
    description = root.findtext("svg:desc", namespaces=NS) or ""
    assert "Bob 135" in description and "Di 0" in description
    assert ("Das Rennen auf 500" in description) is (lang is GERMAN)
    assert "sans-serif" in (root.get("font-family") or "")
    # Nothing outside the document: no link, image, style sheet, script or foreign font.
    for element in root.iter():
        assert not any("href" in key for key in element.attrib), element.tag
        assert element.tag.split("}")[1] not in ("image", "script", "style", "foreignObject")
    assert "url(" not in text and "@import" not in text
    assert text.count("http://") == 1  # the namespace only
    # The note naming the target above a zoomed axis is there, in the page's language.
    note = "Target: 500" if lang is ENGLISH else "Ziel: 500"
    assert any(note in (t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_greys_are_the_pdfs_greys() -> None:
    assert [svg.gray(level) for level in (0.0, 0.5, 0.6, 0.75, 1.0)] == [
        "#000000",
        "#808080",
        "#999999",
        "#bfbfbf",
        "#ffffff",
    ]


def test_names_and_titles_are_escaped() -> None:
    result = hostile()
    text = chart_svg(result, ENGLISH)
    root = parse(text)
    assert "<script" not in text and "<b>" not in text
    assert 'A&lt;&amp;"&gt;' in text or "A&lt;&amp;&quot;&gt;" in text
    shown = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert 'A<&">' in shown and "Bob</text><script>alert(1)</script>" in shown
    assert "Cy\N{RIGHT SINGLE QUOTATION MARK}s" in shown  # set as the PDF sets it
    assert root.get("aria-label") == '<b>Fri & "Sat"</b>'
    assert root.findtext("svg:title", namespaces=NS) == '<b>Fri & "Sat"</b>'
    assert not list(root.iter("{http://www.w3.org/2000/svg}script"))


def test_the_svg_module_needs_no_reportlab() -> None:
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


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("series", [four_close, teams_cards_left, six_level])
def test_a_phone_sized_chart_keeps_every_word_inside_its_drawing(series, lang: str) -> None:
    """The served page draws the chart 360 points wide for a phone: no title, subtitle,
    tick or name runs past the drawing's edge (the German subtitle takes two lines)."""
    result = series()
    chart = race_chart(
        result, (360.0, 320.0), chart_title(result, language(lang)), string_width, language(lang)
    )
    for text in chart.texts:
        width = string_width(as_printed(text.text), text.size, text.bold)
        left = {"left": text.x, "center": text.x - width / 2, "right": text.x - width}[text.align]
        assert left >= 0 and left + width <= chart.width + 0.01, text.text


@pytest.mark.parametrize(("width", "height"), [(248.0, 300.0), (600.0, 340.0)])
def test_a_web_pages_chart_stands_close_to_its_heading_and_what_follows(
    width: float, height: float
) -> None:
    """Print review 8: the served chart left about 60 px of white above its first word (a
    page's margin, drawn into a web page's picture). Unheaded, its ink starts and ends a few
    units from the drawing's top and foot; headed, it keeps the page's margins."""
    result = four_close()
    rules = {"{http://www.w3.org/2000/svg}text", "{http://www.w3.org/2000/svg}polyline"}

    def ink(drawing: ET.Element) -> tuple[float, float]:
        tops = []
        for element in drawing.iter():
            if element.tag.endswith("text"):
                tops.append(float(element.get("y", "0")))
            elif element.tag in rules:
                tops += [y for _, y in polyline(element)]
        return min(tops), max(tops)

    top, foot = ink(parse(chart_svg(result, ENGLISH, width, height, headed=False)))
    assert top < 20 and height - foot < 20, (top, height - foot)
    top, foot = ink(parse(chart_svg(result, ENGLISH, width, height)))
    assert top >= 25 and height - foot >= 25


def test_the_key_says_what_a_marker_means() -> None:
    """Print review 10: without a word on it, a reader took markers missing from some games
    for a mistake. The key says what the rings are, and how lines that run together show
    (print review 26), under its entries (on two lines on a phone's narrow drawing), on
    the page and on the web page alike."""
    result = four_close()
    for width, height in ((248.0, 300.0), (600.0, 340.0), (792.0, 612.0)):
        drawing = parse(chart_svg(result, ENGLISH, width, height, headed=False))
        texts = [
            (float(element.get("y", "0")), element.text or "")
            for element in drawing.iter()
            if element.tag.endswith("text")
        ]
        key = max(y for y, text in texts if text in result.series.table.sides)
        under = " ".join(text for y, text in sorted(texts) if y > key)
        said = "A ring marks each game’s winner; where lines run together, their dashes take turns."
        assert under == said, (width, under)


@pytest.mark.parametrize("result", [four_close(), six_level()], ids=["four-close", "six-level"])
def test_each_games_winner_is_ringed_and_no_other_marker(result: SeriesResult) -> None:
    """Print review 11 (both reviewers): a game won and lines that meet had one marker, so a
    reader could not tell who won game 1 where everyone was level. The winner's marker of
    every game is ringed, in the PDF's drawing and the web page's alike; a marker where lines
    merely meet is not."""
    chart = race_chart(result, (792.0, 612.0), "Race", string_width, ENGLISH)
    sides = result.series.table.sides
    lines = chart.traces[-len(sides) :]  # the key's samples come first
    assert not any(trace.wins for trace in chart.traces[: -len(sides)])
    for number, game in enumerate(result.games):
        winner = lines[sides.index(game.winner)]
        x = lines[0].points[number + 1][0]  # the game's point across
        ringed = [mark for mark in winner.wins if abs(mark[0] - x) < 12]
        assert len(ringed) == 1 and ringed[0] in winner.marks
        for index, trace in enumerate(lines):
            if sides[index] != game.winner:
                assert not [mark for mark in trace.wins if abs(mark[0] - x) < 12]
    drawn = svg.chart_svg(result, ENGLISH, 792.0, 612.0)
    rings = re.search(r'<path class="rings" d="([^"]+)"', drawn)
    assert rings is not None and rings.group(1).count("M") == len(result.games)
    # Print review 14: a solid marker nearly filled its ring, a blob in grey. The ring
    # stands two points off the marker, over a white band that parts the two.
    # Print review 23: bits of lines (and of the target's line) showed inside the ring. Its
    # inside is white too, drawn before every marker, so that it cuts none of them.
    halo = re.search(r'<path class="ring-halo" d="([^"]+)" fill="#ffffff" stroke="#ffffff"', drawn)
    assert halo is not None and halo.group(1) == rings.group(1)
    assert drawn.index('class="ring-halo"') < drawn.index('class="markers ')
    assert drawn.index('class="markers ') < drawn.index('class="rings"')
    assert RING - MARKER_SIZE >= 2.0 and RING_HALO > 0.9
    # The band's inside clears every marker's outline, a square's corners included (print
    # reviews 17 and 18: it cut them off, and a ringed square read as a disc).
    stroke = 0.9 / 2  # a marker's outline
    for kind in {side_look(index).marker for index in range(12)}:
        points = [
            (x, y)
            for step, args in marker_path(kind, 0.0, 0.0)
            for x, y in zip(args[::2], args[1::2], strict=True)
        ]
        reach = max((x * x + y * y) ** 0.5 for x, y in points) + stroke
        assert reach <= RING - RING_HALO / 2, (kind, reach)
        # and leaves 0.8 pt of white to the ring's own ink (print review 26: 0.65 pt).
        assert RING - 0.9 / 2 - reach >= 0.8, (kind, reach)


def test_every_marker_stands_on_a_white_halo() -> None:
    """Print review 21: a rising line crossed another side's marker and read as part of it.
    Every marker's outline is first stroked in white, wider than the outline, under all the
    markers: a line stops short of a marker, and no halo cuts another marker. The same in
    the web page's drawing and the PDF's."""
    result = four_close()
    drawn = svg.chart_svg(result, ENGLISH, 792.0, 612.0)
    halo = re.search(
        r'<path class="marker-halo" d="([^"]+)" fill="none" stroke="#ffffff"'
        r' stroke-width="([\d.]+)"',
        drawn,
    )
    outlines = re.findall(r'<path class="markers \w+" d="([^"]+)"', drawn)
    assert halo is not None and halo.group(1) == " ".join(outlines)
    assert float(halo.group(2)) == MARKER_HALO and (MARKER_HALO - 0.9) / 2 >= 0.75
    assert drawn.index('class="marker-halo"') < drawn.index('class="markers ')
    with pdfplumber.open(io.BytesIO(fill_pdf([result], paper("a4")))) as document:
        page = document.pages[-1]
        curves, rects = page.curves, page.rects
    reach = 2 * MARKER_SIZE * 1.2 + 0.01

    def box(curve: dict[str, Any]) -> tuple[float, ...]:
        return tuple(round(curve[key], 2) for key in ("x0", "top", "x1", "bottom"))

    small = [c for c in curves if c["x1"] - c["x0"] <= reach and c["bottom"] - c["top"] <= reach]
    halos = [c for c in small if abs(c["linewidth"] - MARKER_HALO) < 0.01]
    markers = [c for c in small if abs(c["linewidth"] - 0.9) < 0.01]
    # Each game's winner's, and in the key those of the sides that won a game (a square is
    # read back as a rectangle).
    won = {game.winner for game in result.games}
    squares = [r for r in rects if abs(r["linewidth"] - 0.9) < 0.01 and r["width"] <= reach]
    assert len(markers) + len(squares) == len(won) + len(result.games)
    assert all(c["stroking_color"] in ((1.0,), 1.0, (1,), 1) for c in halos)
    assert sorted(map(box, halos)) == sorted(map(box, markers))
    assert max(map(curves.index, halos)) < min(map(curves.index, markers))
    # Each winner's ring is a white disc under the markers (print review 23: stubs of lines
    # showed between the marker and its ring).
    discs = [c for c in curves if abs(c["linewidth"] - RING_HALO) < 0.01]
    assert len(discs) == len(result.games)
    assert all(c["fill"] and c["non_stroking_color"] in ((1.0,), 1.0, (1,), 1) for c in discs)
    assert max(map(curves.index, discs)) < min(map(curves.index, markers))


def test_a_name_at_a_lines_end_stands_clear_of_the_last_winners_ring() -> None:
    """Print review 12: the last game's winner's ring touched the name at its line's end."""
    result = four_close()
    chart = race_chart(result, (792.0, 612.0), "Race", string_width, ENGLISH)
    rings = [x + RING for trace in chart.traces for x, _ in trace.wins]
    sides = set(result.series.table.sides)
    names = [text for text in chart.texts if any(side in text.text for side in sides)]
    ends = [text for text in names if text.x > max(rings) - 40]
    assert ends and all(text.x >= max(rings) + 2 for text in ends)
