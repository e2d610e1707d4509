"""The race chart as SVG text, for a web page: the same shapes the PDF painter draws.

``chart.race_chart`` lays the chart out as plain shapes; ``painter.Painter.chart``
draws them on a PDF page and ``shapes_svg`` here writes them as SVG, shape for
shape: the grid's rules (grouped by width, grey and dash, with square caps as the
PDF's grid has), each side's line at its width, dash and grey with round joins,
the leaders, the markers (``shapes.marker_path``, hollow ones filled white) and
every text at its place and size. Points become user units (1 pt = 1 unit) with
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
from sheetgen.sheet.chart import Chart, chart_subtitle, chart_title, race_chart
from sheetgen.sheet.shapes import (
    HOLLOW,
    MARKER_HALO,
    RING_HALO,
    STROKE,
    Grid,
    Rule,
    Step,
    Text,
    as_printed,
    marker_path,
    ring_path,
)
from sheetgen.sheet.stretches import SHARED_BAND, Trace

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
    out += _lines(chart)
    if chart.leaders:
        out.append(
            f'<path class="leaders" d="{_rules_path(chart.leaders, chart.height)}"'
            ' fill="none" stroke="#000000" stroke-width="0.4"/>'
        )
    out += _markers(chart)
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


def _lines(chart: Chart) -> list[str]:
    """Every trace as a polyline: the key's samples first, then each side's line, in the
    order of the sides (a trace of one point draws nothing, as on the PDF)."""
    sides = len(chart.traces) // 2
    out = []
    for index, trace in enumerate(chart.traces):
        if len(trace.points) < 2:
            continue
        kind = "key" if index < sides else "line"
        out.append(_polyline(kind, trace, chart.height, index % sides))
    for trace in chart.shared:
        first, *rest = trace.points
        band = _path((("M", first), *(("L", point) for point in rest)), chart.height)
        out.append(
            f'<path class="shared-band" d="{band}" fill="none"'
            f' stroke="#ffffff" stroke-width="{number(SHARED_BAND)}"/>'
        )
    out += [_polyline("shared", trace, chart.height) for trace in chart.shared]
    return out


def _polyline(kind: str, trace: Trace, height: float, side: int | None = None) -> str:
    """A side's line (or a piece of one) of class ``kind``, in its dash and grey; the key's
    samples and the lines say whose (``side``)."""
    whose = "" if side is None else f' data-side="{side}"'
    return (
        f'<polyline class="{kind}"{whose} points="{_points(trace, height)}" fill="none"'
        f' stroke="{gray(trace.gray)}" stroke-width="{number(STROKE)}"'
        f' stroke-linejoin="round"{_dash(trace.dash)}/>'
    )


def _points(trace: Trace, height: float) -> str:
    """A trace's points as a polyline's ``points`` (y down)."""
    return " ".join(f"{number(x)},{number(height - y)}" for x, y in trace.points)


def _markers(chart: Chart) -> list[str]:
    """The markers, in two paths as on the PDF: the hollow ones filled white, the solid
    ones black, both outlined in black."""
    hollow: list[str] = []
    solid: list[str] = []
    for trace in chart.traces:
        for x, y in trace.marks:
            outline = _path(marker_path(trace.marker, x, y), chart.height)
            (hollow if trace.marker in HOLLOW else solid).append(outline)
    rings = [_path(ring_path(x, y), chart.height) for trace in chart.traces for x, y in trace.wins]
    drawn = " ".join(rings)
    out = []
    # White first, as on the PDF: each winner's ring a white disc with its band, and each
    # marker's halo, before any marker, so that none cuts another marker.
    if rings:
        out.append(
            f'<path class="ring-halo" d="{drawn}" fill="#ffffff" stroke="#ffffff"'
            f' stroke-width="{RING_HALO}"/>'
        )
    # A line that runs past a ring (not to its point) is drawn again over its white, and
    # stops short of the marker, as every line does.
    out += [_polyline("over", trace, chart.height) for trace in chart.over]
    if hollow or solid:
        out.append(
            f'<path class="marker-halo" d="{" ".join(hollow + solid)}" fill="none"'
            f' stroke="#ffffff" stroke-width="{MARKER_HALO}" stroke-linejoin="round"/>'
        )
    for kind, steps, fill in (("hollow", hollow, "#ffffff"), ("solid", solid, "#000000")):
        if steps:
            out.append(
                f'<path class="markers {kind}" d="{" ".join(steps)}" fill="{fill}"'
                ' stroke="#000000" stroke-width="0.9" stroke-linejoin="round"/>'
            )
    if rings:
        out.append(
            f'<path class="rings" d="{drawn}" fill="none" stroke="#000000" stroke-width="0.9"/>'
        )
    return out


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
