"""The race chart: each side's running total after every game, as small multiples.

The chart has one panel per side, all drawn to one scale. In each panel, that side's
line is black and carries a dot on each game it won; every other side's line runs
behind it in light grey. The panel's heading names the side and its total. A reader
follows one side through the series without telling dash patterns apart, and a tie
or a near tie cannot hide a line: in its own panel, each side's line is drawn on top
(print reviews 26 to 31: one plot of six dashed lines could not show lines that run
together, or 5 points apart, as six lines).

Every point of every line is drawn at its true value: a higher total is drawn higher,
level totals at one height, and a total of 0 lies on the zero line, which stands clear
of the axis. While the leader is far from the target (the axis a step above the highest
total would reach less than WITHIN_REACH of it), the y axis stops a step above the
highest total, so close low totals are told apart, and a note under the panels names
the target. From then on the axis runs past the target, drawn in each panel as a grey
band. The x axis runs to the last game played or, with cards-left scoring, to the last
game agreed.

Like the sheet, the chart is laid out here as plain shapes (no reportlab) and drawn by
the painter (``painter.Painter.chart``) or written as SVG (``svg``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoring import SeriesResult, game_of
from sheetgen.game.wording import games_count, series_name
from sheetgen.sheet.fitting import Measure, fit, wrap_whole
from sheetgen.sheet.grid import MARGIN
from sheetgen.sheet.layout import MIN_TEXT, TITLE_SIZE
from sheetgen.sheet.shapes import Box, Grid, Rule, Text

LABEL_SIZE = 9.0  # a panel's heading, the note under the panels
TICK_SIZE = 8.0  # the figures on the axes
OWN_STROKE = 1.6  # a panel's own side's line, black
OTHER_STROKE = 0.8  # the other sides' lines behind it
OTHER_GRAY = 0.62  # light enough to stay behind, dark enough for any printer
DOT = 2.5  # the radius of the dot on a game the panel's side won
DOT_HALO = 1.0  # the white round a dot, so a grey line that crosses it stops short
# Darker than the grid and the other sides' lines, and broader than both (print review 32:
# at grey 0.82 it read as a thick grid line in grey print).
TARGET_BAND = 2.4
TARGET_GRAY = 0.5
HEAD = LABEL_SIZE + 7  # a panel's heading, over its plot
FOOT = 15.0  # under a plot: the ticks and the games' numbers
COL_GAP = 22.0
ROW_GAP = 14.0
ASPECT = 1.5  # a plot this many times as wide as it is tall reads a race best
FIGURE_ROOM = 12.0  # the least room between two figures up the y axis
GAME_ROOM = 16.0  # and between two games' numbers along the x axis
WEB_EDGE = 4.0  # a web page's chart: the ink this near its edges
ZERO_LIFT = 6.0  # the zero line stands clear of the axis
NOTE_LEAD = 1.2
NOTE_ROOM = 440.0  # the note under the panels: about 90 characters to a line at most
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)
# While the leader is far from the target, the y axis runs only a step above the highest
# total (in finer steps, so close low totals use the plot's height) and the target is named
# under the panels; once that axis would reach this share of the target, it runs to the target.
ZOOM_STEPS = (1, 2, 5, *STEPS)
WITHIN_REACH = 0.6
NUMBERS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)  # every how many games is numbered


@dataclass(frozen=True)
class Trace:
    """One side's line through its running totals, and the points of the games it won."""

    points: tuple[tuple[float, float], ...]
    wins: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Panel:
    """One side's panel: its plot's box, its own line (black, its wins dotted) and the
    other sides' lines behind it (grey, in the order of the sides)."""

    side: int
    box: Box
    line: Trace
    others: tuple[Trace, ...]


@dataclass(frozen=True)
class Chart:
    """A page of the race: a background the panels share, the panels and the words."""

    width: float
    height: float
    background: Grid
    panels: tuple[Panel, ...]
    texts: tuple[Text, ...]


def _step(top: int, steps: tuple[int, ...] = STEPS) -> int:
    """A round step that draws five to ten grid lines up to ``top``."""
    return next((step for step in steps if top / step <= 10), -(-top // 10))


class _Scale(NamedTuple):
    """The y axis: its grid step, its top, and whether the target lies above that top."""

    step: int
    ceiling: int
    zoomed: bool


def _scale(result: SeriesResult, target: int | None) -> _Scale:
    """The y axis of a race: a step above the highest total while the leader is far from the
    target (then the target is named, not drawn), else a step above the target (or above
    the highest total past it). A cards-left series runs a step above its highest total."""
    highest = max((total for game in result.games for total in game.totals.values()), default=0)
    if target is not None and highest > 0:
        step = _step(highest, ZOOM_STEPS)
        ceiling = (highest // step + 1) * step
        if ceiling < WITHIN_REACH * target:
            return _Scale(step, ceiling, True)
    highest = max(target or 1, highest)
    step = _step(highest)
    return _Scale(step, (highest // step + 1) * step, False)


def chart_title(result: SeriesResult, lang: Language = ENGLISH) -> str:
    """The heading of a series' chart: its title; untitled, the lowest total it plays for,
    or the series' name (its subtitle names the race to the target)."""
    if result.series.title:
        return result.series.title
    rules = result.series.scoring
    if rules.cards_left and rules.games_to_play == 1:
        return lang._("Lowest total after one game")
    if rules.cards_left:
        return lang._("Lowest total after {games} games").format(games=games_count(rules, lang))
    # The chart's subtitle already names the race to the target: the title names the series.
    return series_name(game_of(result.series), lang)


def _titles(
    result: SeriesResult,
    target: int | None,
    words: tuple[str, str],
    page: tuple[float, float],
    measure: Measure,
    lang: Language,
    texts: list[Text],
    size: float,
) -> float:
    """Title (at ``size`` at most), subtitle and verdict (``words``: the heading and the
    verdict) at the top, added to ``texts``; returns the panels' top."""
    width, height = page
    heading, verdict = words
    title = wrap_whole(
        heading, width - 2 * MARGIN, size, 12, measure, bold=True, lines=2, lang=lang.code
    )
    baseline = height - MARGIN - title.size * 0.76
    for line in title.lines:
        texts.append(Text(line, MARGIN, baseline, title.size, True))
        baseline -= title.size * 1.15
    # The subtitle keeps to the page: on a narrow drawing (a phone's) it takes two lines.
    subtitle = wrap_whole(
        _subtitle(result, target, lang),
        width - 2 * MARGIN,
        10,
        8,
        measure,
        lines=2,
        lang=lang.code,
    )
    baseline -= 2
    for index, line in enumerate(subtitle.lines):
        if index:
            baseline -= subtitle.size * 1.2
        texts.append(Text(line, MARGIN, baseline, subtitle.size))
    if verdict:
        said = wrap_whole(
            verdict,
            width - 2 * MARGIN,
            10,
            8,
            measure,
            bold=True,
            lines=2,
            lang=lang.code,
            balance=False,
        )
        for line in said.lines:
            baseline -= said.size * 1.3
            texts.append(Text(line, MARGIN, baseline, said.size, True))
    return baseline - 18


def chart_subtitle(result: SeriesResult, lang: Language = ENGLISH) -> str:
    """The line under the chart's title: what the chart shows."""
    scoring = result.series.scoring
    return _subtitle(result, None if scoring.cards_left else scoring.target, lang)


def _subtitle(result: SeriesResult, target: int | None, lang: Language) -> str:
    """What the chart shows, in a line: the race to the target, or the lowest total."""
    _ = lang._
    rules = result.series.scoring
    teams = result.series.table.partnership
    if target is not None:
        said = (
            _("The race to {target}: each team's running total after every game")
            if teams
            else _("The race to {target}: each player's running total after every game")
        )
        return said.format(target=lang.number(target))
    if rules.games_to_play == 1:
        return (
            _("Each team's cards left after the game; the fewest wins")
            if teams
            else _("Each player's cards left after the game; the fewest wins")
        )
    said = (
        _(
            "Each team's running total of cards left after every game;"
            " the lowest after {games} games wins"
        )
        if teams
        else _(
            "Each player's running total of cards left after every game;"
            " the lowest after {games} games wins"
        )
    )
    return said.format(games=games_count(rules, lang))


class _Plot(NamedTuple):
    """Where a panel's plot lies on the page, and how games and points map onto it."""

    left: float
    right: float
    bottom: float
    top: float
    games: int
    ceiling: int

    def x(self, game: float) -> float:
        return self.left + (self.right - self.left) * game / self.games

    def y(self, points: float) -> float:
        return (
            self.bottom + ZERO_LIFT + (self.top - self.bottom - ZERO_LIFT) * points / self.ceiling
        )


def race_chart(
    result: SeriesResult,
    page: tuple[float, float],
    heading: str,
    measure: Measure,
    lang: Language = ENGLISH,
    *,
    headed: bool = True,
    title_size: float = TITLE_SIZE,
    verdict: str = "",
) -> Chart:
    """Lay out the race to the target on a landscape page, its words in ``lang``: one panel
    per side, in the order of the sides, as many to a row as gives each plot the most
    room. Without its title and subtitle unless ``headed`` (a web page sets those as text
    of its own); the title is set at ``title_size`` at most: the size of the sheets'
    title before it (print review 27: 16.5 pt on the sheets, 18 on the chart). A headed
    chart says under its subtitle who won or leads (``verdict``, the sheet's status line:
    print review 32 found a finished series not called finished, and a cards-left chart's
    leaders unnamed where the highest line looks like the leader)."""
    width, height = page
    series = result.series
    # A cards-left series has no target: the lowest total after the agreed games wins.
    target = None if series.scoring.cards_left else series.scoring.target
    scale = _scale(result, target)
    texts: list[Text] = []
    # A page keeps its margins; a web page's drawing stands close to the text around it.
    edge = MARGIN if headed else WEB_EDGE
    top = (
        _titles(result, target, (heading, verdict), page, measure, lang, texts, title_size)
        if headed
        else height - edge
    )
    bottom = _note(result, target, scale, width - 2 * edge, edge, measure, lang, texts)
    sides = series.table.sides
    figures = measure(lang.number(scale.ceiling), TICK_SIZE, False) + 5
    columns, rows = arrangement(len(sides), width - 2 * edge, top - bottom, figures)
    across = (width - 2 * edge - (columns - 1) * COL_GAP) / columns
    tall = (top - bottom - (rows - 1) * ROW_GAP) / rows
    # A cards-left series runs to its last agreed game, played or not.
    games = max(len(result.games), series.scoring.games_to_play if target is None else 1)
    # The last game's number, centred on the plot's right edge, stays inside the panel.
    last = measure(str(games), TICK_SIZE, False) / 2
    heads = _headings(result, across - figures - last, measure, lang)
    # A heading on two lines lowers every plot by a line.
    lower = max((len(lines) - 1) * size * 1.15 for lines, _, size in heads) if heads else 0.0
    # Every side's running total before the first game and after each one.
    standings = [dict.fromkeys(sides, 0), *(game.totals for game in result.games)]
    rules: list[Rule] = []
    labels: list[Text] = []
    panels: list[Panel] = []
    for index in range(len(sides)):
        row, column = divmod(index, columns)
        # A last row with fewer panels stands in the middle of the page.
        short = columns - min(columns, len(sides) - row * columns)
        left = edge + (column + short / 2) * (across + COL_GAP)
        ceiling = top - row * (tall + ROW_GAP)
        plot = _Plot(
            left=left + figures,
            right=left + across - last,
            bottom=ceiling - tall + FOOT,
            top=ceiling - HEAD - lower,
            games=games,
            ceiling=scale.ceiling,
        )
        name, total, size = heads[index]
        for number, line in enumerate(name):
            texts.append(Text(line, plot.left, ceiling - size - number * size * 1.15, size, True))
        texts.append(Text(total, plot.right, ceiling - size, size, True, "right"))
        _axes(plot, scale, target, lang, measure, rules, labels)
        panels.append(_panel(result, standings, index, plot))
    return Chart(width, height, Grid(tuple(rules), (), tuple(labels)), tuple(panels), tuple(texts))


def arrangement(count: int, across: float, tall: float, figures: float) -> tuple[int, int]:
    """The columns and rows of ``count`` panels in a room ``across`` by ``tall``: those
    whose plots are largest, a plot counted no wider than ASPECT times its height (so six
    panels stand three by two on a landscape page, not six in a row); fewer columns on a
    tie. The plots then take all the room their columns and rows give them."""
    best = (float("-inf"), 1, count)
    for columns in range(1, max(count, 1) + 1):
        rows = -(-count // columns)
        wide = (across - (columns - 1) * COL_GAP) / columns - figures
        high = (tall - (rows - 1) * ROW_GAP) / rows - HEAD - FOOT
        size = min(wide / ASPECT, high)
        if size > best[0] + 1e-6:
            best = (size, columns, rows)
    return best[1], best[2]


def web_height(width: float, sides: int, columns: int) -> float:
    """How tall a web page's drawing ``width`` wide is for ``sides`` panels, at most
    ``columns`` to a row, each plot ASPECT times as wide as it is tall, with room for
    four lines of the note under the panels."""
    rows = -(-sides // max(1, min(columns, sides)))
    columns = -(-sides // rows)  # as few columns as make those rows: 4 sides in 2 by 2
    plot = ((width - 2 * WEB_EDGE - (columns - 1) * COL_GAP) / columns - 24) / ASPECT
    note = 4 * LABEL_SIZE * NOTE_LEAD + 10
    return 2 * WEB_EDGE + rows * (plot + HEAD + FOOT) + (rows - 1) * ROW_GAP + note


def _headings(
    result: SeriesResult, room: float, measure: Measure, lang: Language
) -> list[tuple[tuple[str, ...], str, float]]:
    """Each panel's heading: the side's name beside its total, at one size for all; a
    name too long for one line takes two, broken between words where it can be (print
    review 32: a long name was cut short on the web's three-column chart)."""
    table = result.series.table
    totals = [lang.number(result.totals.get(side, 0)) for side in table.sides]
    names = [table.side_label(side) for side in table.sides]
    rooms = [room - measure(total, LABEL_SIZE, True) - 8 for total in totals]
    pairs = list(zip(names, rooms, strict=True))
    lines = (
        1 if all(not fit(n, r, LABEL_SIZE, MIN_TEXT, measure, True).cut for n, r in pairs) else 2
    )
    size = min(
        (
            wrap_whole(
                name, space, LABEL_SIZE, MIN_TEXT, measure, bold=True, lines=lines, lang=lang.code
            ).size
            for name, space in pairs
        ),
        default=LABEL_SIZE,
    )
    return [
        (
            wrap_whole(
                name, space, size, size, measure, bold=True, lines=lines, lang=lang.code
            ).lines,
            total,
            size,
        )
        for (name, space), total in zip(pairs, totals, strict=True)
    ]


def _note(
    result: SeriesResult,
    target: int | None,
    scale: _Scale,
    room: float,
    edge: float,
    measure: Measure,
    lang: Language,
    texts: list[Text],
) -> float:
    """What the panels show, centred under them ``edge`` above the foot, and on a
    zoomed axis the target above its range, added to ``texts``; returns the panels'
    bottom."""
    _ = lang._
    table = result.series.table
    # By teams or players, and one other line or several (print review 32: "the light
    # lines" under two sides' panels).
    said = {
        (False, True): _(
            "In each panel the black line is that player’s running total, the light line"
            " is the other player’s, and a dot marks each game that player won."
        ),
        (True, True): _(
            "In each panel the black line is that team’s running total, the light line"
            " is the other team’s, and a dot marks each game that team won."
        ),
        (False, False): _(
            "In each panel the black line is that player’s running total, the light lines"
            " are the other players’, and a dot marks each game that player won."
        ),
        (True, False): _(
            "In each panel the black line is that team’s running total, the light lines"
            " are the other teams’, and a dot marks each game that team won."
        ),
    }[table.partnership, len(table.sides) == 2]
    middle = edge + room / 2
    # At most NOTE_ROOM wide (print review 32: 143 characters on one line), in up to four
    # lines (German on a phone's drawing takes four).
    meaning = wrap_whole(
        said, min(room, NOTE_ROOM), LABEL_SIZE, MIN_TEXT, measure, lines=4, lang=lang.code
    )
    lead = meaning.size * NOTE_LEAD
    baseline = edge + 2
    for line in reversed(meaning.lines):
        texts.append(Text(line, middle, baseline, meaning.size, align="center"))
        baseline += lead
    if target is not None and scale.zoomed:
        said = _("Target: {target} (above the range shown)").format(target=lang.number(target))
        shown = wrap_whole(said, room, LABEL_SIZE, MIN_TEXT, measure, bold=True, lang=lang.code)
        texts.append(Text(shown.line, middle, baseline + 2, shown.size, True, "center"))
        baseline += lead + 2
    return baseline + 6


def _axis_step(spacing: float, least: float) -> int:
    """Every how many steps of ``spacing`` a figure goes, so figures stand ``least`` apart."""
    return next((every for every in NUMBERS if spacing * every >= least), NUMBERS[-1])


def _axes(
    plot: _Plot,
    scale: _Scale,
    target: int | None,
    lang: Language,
    measure: Measure,
    rules: list[Rule],
    labels: list[Text],
) -> None:
    """A panel's grid lines, axes, ticks and figures, and the target's band with its name
    where the axis runs past the target, added to ``rules`` and ``labels``."""
    left, right, bottom = plot.left, plot.right, plot.bottom
    spacing = plot.y(scale.step) - plot.y(0)
    every = _axis_step(spacing, FIGURE_ROOM)
    for number, value in enumerate(range(0, plot.ceiling + 1, scale.step)):
        rules.append(Rule(left, plot.y(value), right, plot.y(value), 0.4, gray=0.8))
        if number % every == 0:
            labels.append(
                Text(lang.number(value), left - 4, plot.y(value) - 2.8, TICK_SIZE, align="right")
            )
    numbered = _axis_step(plot.x(1) - plot.x(0), GAME_ROOM)
    games = plot.games
    for game in range(games + 1):
        # Every game has its tick; the unnamed ones are shorter (print review 26). The last
        # game is always named, and a number too near it is left out (print review 32: a
        # 34-game axis stopped at 30).
        near = game != games and plot.x(games) - plot.x(game) < GAME_ROOM
        named = game == games or (game % numbered == 0 and not near)
        rules.append(Rule(plot.x(game), bottom, plot.x(game), bottom - (3.5 if named else 2), 0.6))
        if named:
            labels.append(Text(str(game), plot.x(game), bottom - 12, TICK_SIZE, align="center"))
    rules.append(Rule(left, bottom, right, bottom, 0.8))
    rules.append(Rule(left, bottom, left, plot.top, 0.8))
    if target is not None and not scale.zoomed:
        # The target: a broad band no side's line can be taken for, named at its left (where
        # the lines are still low), its descenders 3 pt clear of the band (print review 28).
        y = plot.y(target)
        # Square caps reach half the band past each end: the band keeps to the plot.
        inset = TARGET_BAND / 2
        rules.append(Rule(left + inset, y, right - inset, y, TARGET_BAND, gray=TARGET_GRAY))
        name = lang._("Target: {target}").format(target=lang.number(target))
        if measure(name, TICK_SIZE, True) < (right - left) / 2:
            labels.append(Text(name, left + 4, y + TARGET_BAND / 2 + 5, TICK_SIZE, True))
    elif target is not None:
        # An axis that stops below the target points up to it at its top left, where the
        # lines are still low (print review 33: the note under the panels alone was easy to
        # miss, and 210 could read as nearly there).
        pointer = f"\N{UPWARDS ARROW} {lang.number(target)}"
        labels.append(Text(pointer, left + 4, plot.top - TICK_SIZE - 1, TICK_SIZE, True))


def _panel(
    result: SeriesResult, standings: list[Mapping[str, int]], index: int, plot: _Plot
) -> Panel:
    """Side ``index``'s panel: every side's line through its running totals
    (``standings``, from before the first game) at their true values, this side's with a
    dot on each game it won."""
    sides = result.series.table.sides
    xs = [plot.x(0)] + [plot.x(game.number) for game in result.games]
    lines = [
        tuple((x, plot.y(standing[side])) for x, standing in zip(xs, standings, strict=True))
        for side in sides
    ]
    side = sides[index]
    wins = tuple(lines[index][game.number] for game in result.games if game.winner == side)
    return Panel(
        index,
        Box(plot.left, plot.bottom, plot.right - plot.left, plot.top - plot.bottom),
        Trace(lines[index], wins),
        tuple(Trace(line) for number, line in enumerate(lines) if number != index),
    )
