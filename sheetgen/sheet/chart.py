"""The race chart: each side's running total after every game, and the target as a line.

While the leader is far from the target (the axis a step above the highest total would
reach less than WITHIN_REACH of it), the y axis stops a step above the highest total, so
close low totals are told apart, and a note at its top names the target; from then on it
runs past the target, which is drawn as a grey band.

Like the sheet, the chart is laid out here as plain shapes (no reportlab) and
drawn by the painter: axes, grid and the target line form a background that
charts of the same shape share. Every point of every line is drawn at its true
value: a higher total is drawn higher, level totals at one height, and a
total of 0 lies on the zero line. The chart reads on a black-and-white printer:
every side has its own dash pattern and marker (past six sides, lines are also
black or grey), is named with its total at the end of its line, and in the key. A
side's marker, ringed, stands on the point of each game it won, and nowhere else; where
lines run together their dashes take turns, and a line that runs past a ring shows
through it (``stretches``). Sides that finish level share a label; a label pushed off
its line's end gets a thin leader. The zero line sits above the axis, and the ink is
centred on the page. The x axis runs to the last game played, or, with cards-left
scoring, to the last game agreed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple, get_args

from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoring import SeriesResult, game_of
from sheetgen.game.wording import games_count, series_name
from sheetgen.sheet.fitting import Fitted, Measure, fit, wrap_whole
from sheetgen.sheet.grid import MARGIN
from sheetgen.sheet.layout import MIN_TEXT, TITLE_SIZE
from sheetgen.sheet.shapes import MARKER_SIZE, RING, Grid, Rule, Text
from sheetgen.sheet.stretches import (
    Marker,
    Trace,
    shared_stretches,
    through_rings,
)

# The first six sides get six looks that differ in both the line and the marker: solid, long
# dashes, dots, dash-dot, short dashes, long and short dashes in turn (print review 28: a
# dash-dot-dot read as the dash-dot); hollow and solid markers alternate.
# More sides (a game folder may declare any number) take the same dashes in grey, and the
# markers' twins (a solid circle, a hollow square ...): see ``side_look``.
DASHES: tuple[tuple[float, ...], ...] = (
    (),
    (8, 3),
    (1.2, 2.4),
    (8, 2.5, 1.5, 2.5),
    (3, 2.5),
    (12, 3, 3, 3),
)
GRAYS = (0.0, 0.5)  # black, and a grey any black-and-white printer shows as one
MARKERS: tuple[Marker, ...] = get_args(Marker)
LABEL_SIZE = 9.0
TICK_SIZE = 8.0
NAME_RISE = 11.0  # the y axis's name: its baseline over the plot's top
KEY_ROW = 16.0
NOTE_LINE = 10.0  # between the lines of the key's note on markers
# A key's sample of a line, its marker in the middle: 35 pt, so that the marker's halo cuts
# no dash of any look to a sliver (print review 30: at 36, 0.04 pt of the dash-dot's).
KEY_SAMPLE = 35.0
KEY_GAP = 18.0
WEB_EDGE = 4.0  # a web page's chart: the ink this near its top and foot
END_ROOM = 160.0  # at most this much beside the plot for the names at the lines' ends
ZERO_LIFT = 10.0  # the zero line stands clear of the axis
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)
# While the leader is far from the target, the y axis runs only a step above the highest
# total (in finer steps, so close low totals use the plot's height) and the target is named
# at its top; once that axis would reach this share of the target, it runs to the target.
ZOOM_STEPS = (1, 2, 5, *STEPS)
WITHIN_REACH = 0.6


class Look(NamedTuple):
    """How one side's line and markers are drawn."""

    dash: tuple[float, ...]
    gray: float
    marker: Marker


def side_look(index: int) -> Look:
    """The look of side ``index`` (from 0), for any number of sides.

    The first six are those of ``DASHES`` and ``MARKERS``, in black. Every sixth side
    on, the line turns grey or black again and the markers move one further, so no two of
    the first twelve sides draw the same line and no two of the first 72 the same line
    and marker (a dash's marker moves 7 places each time, and 7 shares no factor with 12).
    Past that the looks repeat: the key and the name at each line's end still tell every
    side apart.
    """
    turn = index // len(DASHES)
    return Look(
        DASHES[index % len(DASHES)],
        GRAYS[turn % len(GRAYS)],
        MARKERS[(index + turn) % len(MARKERS)],
    )


@dataclass(frozen=True)
class Chart:
    """A page of the race: a shared background, the traces and their words."""

    width: float
    height: float
    background: Grid
    traces: tuple[Trace, ...]
    texts: tuple[Text, ...]
    leaders: tuple[Rule, ...] = ()  # from a line's end to its label, where the label moved
    # Each stretch two lines or more run along together, drawn once more over a white band
    # in pieces that take their looks in turn (print review 15: three dash patterns printed
    # over each other on the zero line read as one odd line; review 19: in the first line's
    # look alone, it hid the others).
    shared: tuple[Trace, ...] = ()
    # The parts of lines that pass through a winner's ring without meeting its point, drawn
    # again over the ring's white (``stretches.through_rings``).
    over: tuple[Trace, ...] = ()


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


def _key_rows(widths: list[float], room: float) -> list[list[int]]:
    """The key's entries in as few rows as fit ``room``, the rows as even as can be."""
    count = len(widths)
    for rows in range(1, count + 1):
        per_row = -(-count // rows)
        chunks = [
            list(range(start, min(start + per_row, count))) for start in range(0, count, per_row)
        ]
        if all(
            sum(widths[i] for i in chunk) + KEY_GAP * (len(chunk) - 1) <= room for chunk in chunks
        ):
            return chunks
    return [[index] for index in range(count)]


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


class _Plot(NamedTuple):
    """Where the plot lies on the page, and how games and points map onto it."""

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


class _Ends(NamedTuple):
    """The names at the lines' ends: the sides finishing on each total, their lines, the size
    they are set at and the room they take beside the plot."""

    finals: dict[int, list[int]]
    lines: dict[int, tuple[str, ...]]
    size: float
    room: float


def race_chart(
    result: SeriesResult,
    page: tuple[float, float],
    heading: str,
    measure: Measure,
    lang: Language = ENGLISH,
    *,
    headed: bool = True,
    title_size: float = TITLE_SIZE,
) -> Chart:
    """Lay out the race to the target on a landscape page, its words in ``lang``; without
    its title and subtitle unless ``headed`` (a web page sets those as text of its own).
    The title is set at ``title_size`` at most: the size of the sheets' title before it
    (print review 27: 16.5 pt on the sheets, 18 on the chart)."""
    width, height = page
    series = result.series
    # A cards-left series has no target: the lowest total after the agreed games wins.
    target = None if series.scoring.cards_left else series.scoring.target
    scale = _scale(result, target)
    texts: list[Text] = []
    # A page keeps its margins; on a web page the drawing's top and foot stand close to
    # the text above and below it (print review 8: 60 px of white above the chart).
    edge = MARGIN if headed else WEB_EDGE
    # The y axis's name stands over its figures, flush with them on the right (print
    # review 15: an axis without a name).
    figures = measure(lang.number(scale.ceiling), TICK_SIZE, False)
    left = MARGIN + max(figures, measure(_axis_name(target, lang), LABEL_SIZE, True)) + 5
    if headed:
        top = _titles(result, target, heading, page, measure, lang, texts, title_size)
    elif target is not None and scale.zoomed:  # room for the target's note, in its lines
        note = _target_note(target, width - MARGIN - left, measure, lang)
        top = height - edge - len(note.lines) * (LABEL_SIZE + 6)
    else:  # room for the top tick's figure
        top = height - edge - TICK_SIZE / 2
    # and for the axis's name over it.
    top = min(top, height - edge - NAME_RISE - LABEL_SIZE * 0.75)
    keys, bottom = _key(result, width, measure, texts, edge, lang)
    ends = _ends(result, measure, lang)
    # A cards-left series runs to its last agreed game, played or not.
    games = max(len(result.games), series.scoring.games_to_play if target is None else 1)
    # The plot fills what is left, so the ink is as far from the left edge as from the right:
    # the names at the lines' ends stand just past the last game played, beside the plot
    # or, in a series with games still to play, inside it.
    across = width - MARGIN - left
    played = len(result.games)
    if played:
        across = min(across, (across - ends.room) * games / played)
    plot = _Plot(
        left=left,
        right=left + across,
        bottom=bottom,
        top=top,
        games=games,
        ceiling=scale.ceiling,
    )
    rules, ticks = _axes(plot, scale, target, lang, right_edge=width - MARGIN, measure=measure)
    lines = _traces(result, plot)
    # The key shows a side's marker only if its line carries one.
    keys = [
        key if line.marks else replace(key, marks=()) for key, line in zip(keys, lines, strict=True)
    ]
    tips = {index: line.points[-1] for index, line in enumerate(lines)}
    # The names stand clear of the last winner's ring (print review 12: it touched its name).
    clear = max((x + RING + 1.0 for line in lines for x, _ in line.wins), default=0.0)
    leaders = _end_labels(ends, tips, plot, texts, clear)
    return Chart(
        width,
        height,
        Grid(tuple(rules), (), tuple(ticks)),
        (*keys, *lines),
        tuple(texts),
        tuple(leaders),
        shared_stretches(lines),
        through_rings(lines),
    )


def _titles(
    result: SeriesResult,
    target: int | None,
    heading: str,
    page: tuple[float, float],
    measure: Measure,
    lang: Language,
    texts: list[Text],
    size: float,
) -> float:
    """Title (at ``size`` at most) and subtitle at the top, added to ``texts``; returns the
    plot's top."""
    width, height = page
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
    return baseline - 30


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
            _("Each team's total after the game; the lowest wins")
            if teams
            else _("Each player's total after the game; the lowest wins")
        )
    said = (
        _("Each team's running total after every game; the lowest after {games} games wins")
        if teams
        else _("Each player's running total after every game; the lowest after {games} games wins")
    )
    return said.format(games=games_count(rules, lang))


def _key(
    result: SeriesResult,
    width: float,
    measure: Measure,
    texts: list[Text],
    edge: float,
    lang: Language,
) -> tuple[list[Trace], float]:
    """The key: one entry per side, in as few centred rows as fit, every name at one size,
    and under them what a marker means, ``edge`` above the foot. Its words are added to
    ``texts``; returns its samples (each with its marker, in the order of the sides) and
    the plot's bottom."""
    table = result.series.table
    sides = table.sides
    names = [table.side_label(side) for side in sides]
    room = width - 2 * MARGIN - KEY_SAMPLE - 6
    key_size = min(fit(name, room, LABEL_SIZE, MIN_TEXT, measure).size for name in names)
    labels = [fit(name, room, key_size, key_size, measure).line for name in names]
    widths = [KEY_SAMPLE + 6 + measure(label, key_size, False) for label in labels]
    rows = _key_rows(widths, width - 2 * MARGIN)
    traces: list[Trace] = []
    # Print review 10: a marker on some games only read as a mistake; review 11: a game won
    # and lines that meet read alike, so the winner's marker is ringed.
    # Review 26: markers of lines that meet, set where there was room, showed some ties and
    # not others; a stretch lines share shows their dashes in turn instead.
    said = lang._(
        "A ring marks each game’s winner; where lines run together, their dashes take turns."
    )
    meaning = wrap_whole(said, width - 2 * MARGIN, key_size, MIN_TEXT, measure, lines=2)
    for place, line in enumerate(reversed(meaning.lines)):
        texts.append(
            Text(line, width / 2, edge + 1 + place * NOTE_LINE, meaning.size, align="center")
        )
    edge += len(meaning.lines) * NOTE_LINE + 6
    for place, chunk in enumerate(rows):
        y = edge + (len(rows) - 1 - place) * KEY_ROW + 4
        x = (width - sum(widths[i] for i in chunk) - KEY_GAP * (len(chunk) - 1)) / 2
        for index in chunk:
            sample = ((x, y), (x + KEY_SAMPLE, y))
            mark = ((x + KEY_SAMPLE / 2, y),)
            look = side_look(index)
            traces.append(Trace(sample, look.dash, look.marker, mark, look.gray))
            texts.append(Text(labels[index], x + KEY_SAMPLE + 6, y - 3, key_size))
            x += widths[index] + KEY_GAP
    return traces, edge + len(rows) * KEY_ROW + 30


def _ends(result: SeriesResult, measure: Measure, lang: Language) -> _Ends:
    """The names at the lines' ends, each label closed by the total (print review 29: a side
    5 points under a tie beside it read as tied): sides that finish level share one label,
    its lines breaking after a comma, a long name on two lines (its words whole if they fit
    so, else broken between syllables)."""
    sides = result.series.table.sides
    finals: dict[int, list[int]] = {}
    for index, side in enumerate(sides):
        finals.setdefault(result.totals.get(side, 0), []).append(index)
    names = {total: [sides[i] for i in members] for total, members in finals.items()}
    ends = {total: f"{', '.join(names[total])} {lang.number(total)}" for total in finals}
    most = {total: 2 * len(members) for total, members in finals.items()}
    end_size = min(
        wrap_whole(
            text, END_ROOM, LABEL_SIZE, MIN_TEXT, measure, lines=most[total], lang=lang.code
        ).size
        for total, text in ends.items()
    )
    end_lines = {
        total: _names(names[total], lang.number(total), end_size, measure)
        or wrap_whole(
            text, END_ROOM, end_size, end_size, measure, lines=most[total], lang=lang.code
        ).lines
        for total, text in ends.items()
    }
    end_room = max(measure(line, end_size, False) for lines in end_lines.values() for line in lines)
    # Past a line's end come the last winner's ring, and a gap.
    return _Ends(finals, end_lines, end_size, end_room + 7 + MARKER_SIZE + RING)


# A label of level sides is packed this wide at most (print review 29: four names on one
# line 163 pt wide narrowed the plot by a sixth).
NAMES_ROOM = 110.0


def _names(names: list[str], total: str, size: float, measure: Measure) -> tuple[str, ...]:
    """Level sides' names and their ``total`` on as few lines as hold them within
    NAMES_ROOM (a long name on a line of its own), a line breaking only after a comma
    (print review 28: "Dörte / Müller-Lüdenscheidt" broke a name in two); none where a
    name is too long for END_ROOM."""
    lines: list[str] = []
    for number, name in enumerate(names):
        name += "," if number < len(names) - 1 else f" {total}"
        if measure(name, size, False) > END_ROOM:
            return ()
        joined = f"{lines[-1]} {name}" if lines else name
        if lines and measure(joined, size, False) <= NAMES_ROOM:
            lines[-1] = joined
        else:
            lines.append(name)
    return tuple(lines)


def _target_note(target: int, room: float, measure: Measure, lang: Language) -> Fitted:
    """The note that names a target above the range shown, fitted to ``room`` (from the
    plot's left edge) in at most two lines."""
    note = lang._("Target: {target} (above the range shown)").format(target=lang.number(target))
    return wrap_whole(note, room - 6, LABEL_SIZE, MIN_TEXT, measure, bold=True, lines=2)


def _axis_name(target: int | None, lang: Language) -> str:
    """What the y axis counts: points, or with cards-left scoring (no target) cards."""
    return lang._("Cards left") if target is None else lang._("Points")


def _axes(
    plot: _Plot,
    scale: _Scale,
    target: int | None,
    lang: Language,
    *,
    right_edge: float,
    measure: Measure,
) -> tuple[list[Rule], list[Text]]:
    """The grid lines, the axes with their ticks, and the target's band (or, on an axis that
    stops below the target, a note at its top that names it, on two lines where one would
    run past the drawing's ``right_edge``, as ``measure`` sets it)."""
    left, right, bottom, top, games = plot.left, plot.right, plot.bottom, plot.top, plot.games
    rules: list[Rule] = []
    ticks: list[Text] = []
    for value in range(0, plot.ceiling + 1, scale.step):
        rules.append(Rule(left, plot.y(value), right, plot.y(value), 0.4, gray=0.75))
        ticks.append(
            Text(lang.number(value), left - 5, plot.y(value) - 3, TICK_SIZE, align="right")
        )
    every = -(-games // 20)
    for tick in range(games + 1):
        # Every game has its tick; where not every one can be named, the unnamed are shorter
        # (print review 26: a ring at an odd game had no tick to be read against).
        named = tick % every == 0
        rules.append(Rule(plot.x(tick), bottom, plot.x(tick), bottom - (4 if named else 2.5), 0.6))
        if named:
            ticks.append(Text(str(tick), plot.x(tick), bottom - 13, TICK_SIZE, align="center"))
    ticks.append(Text(lang._("Game"), (left + right) / 2, bottom - 25, LABEL_SIZE, True, "center"))
    ticks.append(
        Text(_axis_name(target, lang), left - 5, top + NAME_RISE, LABEL_SIZE, True, "right")
    )
    rules.append(Rule(left, bottom, right, bottom, 0.9))
    rules.append(Rule(left, bottom, left, top, 0.9))
    if target is not None and scale.zoomed:
        fitted = _target_note(target, right_edge - left, measure, lang)
        baseline = plot.y(plot.ceiling) + 5 + (len(fitted.lines) - 1) * fitted.size * 1.15
        for line in fitted.lines:
            ticks.append(Text(line, left + 6, baseline, fitted.size, True))
            baseline -= fitted.size * 1.15
    # The target: a broad grey band no side's black line can be taken for.
    elif target is not None:
        rules.append(Rule(left, plot.y(target), right, plot.y(target), 3.0, gray=0.6))
        ticks.append(
            Text(
                lang._("Target: {target}").format(target=lang.number(target)),
                left + 6,
                plot.y(target) + 6.5,  # its descenders 3 pt clear of the band (review 28)
                LABEL_SIZE,
                True,
            )
        )
    return rules, ticks


def _traces(result: SeriesResult, plot: _Plot) -> list[Trace]:
    """Every side's line through its running totals, at their true values, with its marker,
    ringed, on the point of each game it won: the only markers (print review 26: markers
    of lines that meet, set beside the point where there was room, showed some ties and
    not others, and stood on climbing lines at totals nobody scored)."""
    sides = result.series.table.sides
    xs = [plot.x(0)] + [plot.x(game.number) for game in result.games]
    totals = [dict.fromkeys(sides, 0), *(game.totals for game in result.games)]
    traces = []
    for index, side in enumerate(sides):
        look = side_look(index)
        points = tuple((x, plot.y(standing[side])) for x, standing in zip(xs, totals, strict=True))
        wins = tuple(points[game.number] for game in result.games if game.winner == side)
        traces.append(Trace(points, look.dash, look.marker, wins, look.gray, wins))
    return traces


def _end_labels(
    ends: _Ends,
    tips: dict[int, tuple[float, float]],
    plot: _Plot,
    texts: list[Text],
    clear: float = 0.0,
) -> list[Rule]:
    """The names at the lines' ends added to ``texts``, just past the ends and clear of the
    markers (which reach to ``clear``; a series still to be played stops short of the plot's
    right), moved apart where they would meet; returns the leaders from a line's end to a
    label that moved."""
    lead = ends.size * 1.15
    right = max(max(x for x, _ in tips.values()), clear - 3)
    placed = _spread(
        [
            (sum(tips[i][1] for i in members) / len(members), total)
            for total, members in ends.finals.items()
        ],
        {total: len(lines) * lead for total, lines in ends.lines.items()},
        plot.bottom,
        plot.top,
        # Labels moved apart stand further apart than a label's own lines (print review 28:
        # "Cy" read as the third line of the label above it).
        lead * 0.4,
    )
    leaders: list[Rule] = []
    for y, total in placed:
        lines = ends.lines[total]
        first = y + (len(lines) - 1) * lead / 2 - ends.size * 0.35
        for number, line in enumerate(lines):
            texts.append(Text(line, right + 6, first - number * lead, ends.size))
        # One leader from where the sides' lines end (level sides end at one point).
        for tip_x, end in dict.fromkeys(tips[index] for index in ends.finals[total]):
            if abs(end - y) > 1.0:
                leaders.append(Rule(tip_x, end, right + 5, y, 0.4))
    return leaders


def _spread(
    ends: list[tuple[float, int]], tall: dict[int, float], low: float, high: float, gap: float
) -> list[tuple[float, int]]:
    """Move the blocks of line-end labels (centred at ``y``, ``tall[key]`` high) apart so no
    two come closer than ``gap``, keeping their order."""
    placed: list[tuple[float, int]] = []
    for y, key in sorted(ends):
        if placed:
            last, previous = placed[-1]
            y = max(y, last + (tall[previous] + tall[key]) / 2 + gap)
        placed.append((y, key))
    overflow = placed[-1][0] + tall[placed[-1][1]] / 2 - high if placed else 0
    if overflow > 0:
        placed = [(max(low, y - overflow), key) for y, key in placed]
    return placed
