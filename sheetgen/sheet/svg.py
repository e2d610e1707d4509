"""The race chart as SVG text, for a web page: the same shapes the PDF painter draws.

``chart.race_chart`` lays the chart out as plain shapes; ``painter.Painter.chart``
draws them on a PDF page and ``shapes_svg`` here writes them as SVG, shape for
shape: the grid's rules (grouped by width, grey and dash, with square caps as the
PDF's grid has); in each panel the other sides' lines in grey and its own side's in
black, with round joins; the dots of the games each side won, on their white halos;
and every text at its place and size. Points become user units (1 pt = 1 unit) with
the y axis turned over; the drawing has no size of its own and scales with its viewBox
to the width it is given. Nothing is fetched: no font, image or style from outside, and
no inline style (a page's Content-Security-Policy may forbid it); every look is a
presentation attribute. Text is set in DejaVu Sans where the reader has it, else in their
sans-serif. No element has an id, so a page may hold several charts.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from sheetgen import fonts
from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoring import SeriesResult
from sheetgen.sheet.chart import (
    DOT,
    DOT_HALO,
    OTHER_GRAY,
    OTHER_STROKE,
    OWN_STROKE,
    Chart,
    Trace,
    chart_subtitle,
    chart_title,
    race_chart,
)
from sheetgen.sheet.shapes import Grid, Rule, Step, Text, as_printed, dot_path

FONT_FAMILY = "'DejaVu Sans', sans-serif"  # the face the layout was measured in, if present
ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def number(value: float) -> str:
    """A coordinate as SVG writes it: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def gray(level: float) -> str:
    """A grey level (0 black, 1 white) as an SVG colour."""
    return "#{0:02x}{0:02x}{0:02x}".format(round(level * 255))


def chart_svg(
    result: SeriesResult,
    lang: Language = ENGLISH,
    width: float = 792.0,
    height: float = 612.0,
    *,
    title: str | None = None,
    typeface: fonts.Typeface = fonts.BUNDLED,
    headed: bool = True,
) -> str:
    """A series' race chart as an SVG document ``width`` by ``height`` points (by default a
    landscape Letter page), headed and worded as the filled sheet's chart page; unless
    ``headed``, without the title and subtitle drawn (they stay its name and description)."""
    heading = title or chart_title(result, lang)
    chart = race_chart(result, (width, height), heading, typeface.string_width, lang, headed=headed)
    return shapes_svg(chart, heading, _description(result, lang))


def _description(result: SeriesResult, lang: Language) -> str:
    """What a screen reader says of the chart besides its title: its subtitle and every
    side's total."""
    totals = ", ".join(
        f"{side} {lang.number(result.totals.get(side, 0))}" for side in result.series.table.sides
    )
    return f"{as_printed(chart_subtitle(result, lang))}. {totals}"


def shapes_svg(chart: Chart, title: str, description: str = "") -> str:
    """``chart``'s shapes as a standalone SVG document titled ``title`` (its accessible name)."""
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" role="img"'
        f' viewBox="0 0 {number(chart.width)} {number(chart.height)}"'
        f' aria-label={quoteattr(as_printed(title))} font-family="{FONT_FAMILY}">',
        f"<title>{escape(as_printed(title))}</title>",
    ]
    if description:
        out.append(f"<desc>{escape(description)}</desc>")
    out.append('<rect width="100%" height="100%" fill="#ffffff"/>')
    out += _grid(chart.background, chart.height)
    out += _panels(chart)
    out += _texts(chart.texts, chart.height)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _grid(grid: Grid, height: float) -> list[str]:
    """The shared background: shades, the rules by width, grey and dash, and the labels."""
    out = ['<g class="grid">']
    for shade in grid.shades:
        box = shade.box
        out.append(
            f'<rect x="{number(box.x)}" y="{number(height - box.top)}"'
            f' width="{number(box.width)}" height="{number(box.height)}"'
            f' fill="{gray(shade.gray)}"/>'
        )
    strokes: dict[tuple[float, float, tuple[float, ...]], list[Rule]] = {}
    for rule in grid.rules:
        strokes.setdefault((rule.width, rule.gray, rule.dash), []).append(rule)
    for (width, level, dash), rules in strokes.items():
        out.append(
            f'<path d="{_rules_path(rules, height)}" fill="none" stroke="{gray(level)}"'
            f' stroke-width="{number(width)}" stroke-linecap="square"{_dash(dash)}/>'
        )
    out += _texts(grid.labels, height)
    out.append("</g>")
    return out


def _panels(chart: Chart) -> list[str]:
    """Each panel as a group, painted as on the PDF: the other sides' lines in grey, the
    white halos of the dots, its own side's line in black (a line of one point draws
    nothing), and the dots of the games it won."""
    out = []
    for panel in chart.panels:
        out.append(f'<g class="panel" data-side="{panel.side}">')
        out += [
            _polyline("other", trace, chart.height, OTHER_STROKE, OTHER_GRAY)
            for trace in panel.others
            if len(trace.points) > 1
        ]
        wins = panel.line.wins
        if wins:
            halos = " ".join(_path(dot_path(x, y, DOT + DOT_HALO), chart.height) for x, y in wins)
            out.append(f'<path class="halos" d="{halos}" fill="#ffffff"/>')
        if len(panel.line.points) > 1:
            out.append(_polyline("line", panel.line, chart.height, OWN_STROKE, 0.0))
        if wins:
            dots = " ".join(_path(dot_path(x, y, DOT), chart.height) for x, y in wins)
            out.append(f'<path class="wins" d="{dots}" fill="#000000"/>')
        out.append("</g>")
    return out


def _polyline(kind: str, trace: Trace, height: float, width: float, level: float) -> str:
    """A side's line of class ``kind``, ``width`` wide in grey ``level``."""
    return (
        f'<polyline class="{kind}" points="{_points(trace, height)}" fill="none"'
        f' stroke="{gray(level)}" stroke-width="{number(width)}"'
        ' stroke-linejoin="round" stroke-linecap="round"/>'
    )


def _points(trace: Trace, height: float) -> str:
    """A trace's points as a polyline's ``points`` (y down)."""
    return " ".join(f"{number(x)},{number(height - y)}" for x, y in trace.points)


def _texts(texts: Iterable[Text], height: float) -> list[str]:
    """Each text at its baseline, anchored at its left, centre or right as laid out."""
    out = []
    for text in texts:
        weight = ' font-weight="bold"' if text.bold else ""
        anchor = f' text-anchor="{ANCHOR[text.align]}"' if text.align != "left" else ""
        out.append(
            f'<text x="{number(text.x)}" y="{number(height - text.y)}"'
            f' font-size="{number(text.size)}"{weight}{anchor}>'
            f"{escape(as_printed(text.text))}</text>"
        )
    return out


def _dash(dash: tuple[float, ...]) -> str:
    return f' stroke-dasharray="{" ".join(number(d) for d in dash)}"' if dash else ""


def _rules_path(rules: Iterable[Rule], height: float) -> str:
    return " ".join(
        f"M{number(r.x1)} {number(height - r.y1)} L{number(r.x2)} {number(height - r.y2)}"
        for r in rules
    )


def _path(steps: Iterable[Step], height: float) -> str:
    """Path steps (in page points, y up) as SVG path data (y down)."""
    out = []
    for step, args in steps:
        if step == "Z":
            out.append("Z")
            continue
        pairs = zip(args[::2], args[1::2], strict=True)
        out.append(step + " ".join(f"{number(x)} {number(height - y)}" for x, y in pairs))
    return " ".join(out)
