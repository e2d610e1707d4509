"""Where everything on a score sheet goes, in points: one layout for blank and filled sheets.

The layout knows nothing of reportlab: it takes the page size, what the sheet
says and a ``measure(text, size, bold)`` function for text widths, and returns
boxes, rules and texts. The painter draws them; the filled sheet writes its
values into the slots the layout names. Origin bottom left, as in PDF.

A sheet has one column per side at the table, as wide as the page allows. Rows
are 0.3 to 0.45 in tall: the games share the fewest pages that hold them at
0.3 in (evenly), at the height that fills the page but no taller than 0.45 in;
rows left empty to go on by hand are 0.4 in unless the games need them smaller.
The header gives way (a one-line title, tighter bands, fewer name lines) until
16 games fit on one page. Nothing is set below 8 pt except
the footnote (7 pt at the least): long words wrap onto lines of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from sheetgen.game.wording import Labels
from sheetgen.sheet.fitting import Fitted, Measure, fit, wrap
from sheetgen.sheet.grid import (
    ASCENT,
    FOOT_LINE,
    FOOT_SIZE,
    GAME_COLUMN,
    GAP,
    MARGIN,
    SUBHEAD_ROW,
    TOTALS_ROW,
    PageShape,
    frame,
    side_columns,
)
from sheetgen.sheet.shapes import Box, Grid, Rule, Text, outline

MIN_ROW = 0.3 * 72  # a game cell takes handwriting: at least 0.3 in tall
WRITING_ROW = 0.4 * 72  # the height rows to write in by hand are given when there is room
MAX_ROW = 0.45 * 72  # and no row is taller, however few the games
HEADER_GAMES = 16  # the header gives way until this many games fit on one page
PADDING = 4.0
MIN_TEXT = 8.0  # nothing on a sheet is smaller, but for the footnote
MIN_FOOTNOTE = 7.0
LEADING = 1.15
DESCENT = 0.24

TITLE_SIZE = 18.0
TITLE_BESIDE = 14.0  # a title that would shrink below this gets a line of its own
TITLE_SMALLEST = 12.0
TITLE_BAND = 26.0
BLANK_SIZE = 10.0
BLANK_LINES = (110.0, 150.0)  # the write-in lines for the date and the place
TARGET_BAND = 22.0
TARGET_SIZE = 13.0
STATUS_SIZE = 10.0
STATUS_BAND = 16.0
STATUS_LINES = 2
NAME_SIZE = 12.0
NAME_COMFORT = 10.0  # a header row goes onto more lines before its names shrink below this
NAME_LINES = 3
TEAM_NAME_LINES = 2
PARTNER_SIZE = 10.0
NAME_ROW = 30.0
BLANK_TEAM_ROW = 46.0
CAPTION_SIZE = 8.0
TOTAL_SIZE = 10.0
FOOT_LINES = 2
KEY_WIDTH = 22.0


class Heading(NamedTuple):
    """One side's column head: its name and, for a team, the partners; or a caption to write by."""

    name: str = ""
    members: tuple[str, ...] = ()
    caption: str = ""


class SheetSpec(NamedTuple):
    """What a sheet says, independent of its page: one heading per side, goal, title, reminder.

    ``goal`` is the sentence boxed under the title: how the series is won.

    ``status`` is what a filled sheet writes beside "Series winner:"; ``legend``
    asks for the key to the marks a filled sheet makes, ``boxed`` saying what the
    heavy box round a total means.
    """

    headings: tuple[Heading, ...]
    goal: str
    title: str
    reminder: str
    partnership: bool = False
    status: str = ""
    legend: bool = False
    # What each game puts in a side's first column: the winner's points, or cards left.
    cards_left: bool = False
    labels: Labels = Labels()

    @property
    def scored(self) -> str:
        """The head of each side's first column."""
        return self.labels.cards_left if self.cards_left else self.labels.points

    @property
    def boxed(self) -> str:
        """What the heavy box round a total means, in the key."""
        return self.labels.won_series if self.cards_left else self.labels.reached

    @property
    def sides(self) -> int:
        """How many sides the sheet has a column for."""
        return len(self.headings)


class Layout(NamedTuple):
    """One page of a sheet: the grid, its words, and the slots the filled values go in."""

    width: float
    height: float
    grid: Grid
    texts: tuple[Text, ...]
    games: tuple[int, ...]
    points: tuple[tuple[Box, ...], ...]
    totals: tuple[tuple[Box, ...], ...]
    forward: tuple[Box, ...]
    final: tuple[Box, ...]
    status: Box
    keys: tuple[Box, ...]
    names: tuple[Box, ...]


_NOWHERE = Box(0, 0, 0, 0)


@dataclass(eq=False)
class _Page:
    """The parts of a page that do not depend on its rows, worked out once per sheet."""

    width: float
    height: float
    texts: list[Text] = field(default_factory=list)
    labels: list[Text] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    table_top: float = 0.0
    name_row: float = NAME_ROW
    heads: list[list[Text]] = field(default_factory=list)
    head_rules: list[Rule] = field(default_factory=list)
    status: Box = _NOWHERE
    foot: list[tuple[str, float]] = field(default_factory=list)
    keys: list[Box] = field(default_factory=list)
    key_texts: list[Text] = field(default_factory=list)
    total_size: float = 0.0

    @property
    def foot_height(self) -> float:
        return max(1, len(self.foot)) * FOOT_LINE

    @property
    def body_top(self) -> float:
        return self.table_top - self.name_row - SUBHEAD_ROW

    @property
    def room(self) -> float:
        """The height left for game rows (and a brought-forward row)."""
        return self.body_top - TOTALS_ROW - GAP - self.foot_height - MARGIN


def _baselines(top: float, size: float, count: int) -> list[float]:
    """Baselines of ``count`` lines at ``size`` whose first line's ascent touches ``top``."""
    first = top - size * ASCENT
    return [first - index * size * LEADING for index in range(count)]


def _block(size: float, count: int) -> float:
    """The height from the first line's ascent to the last line's descent."""
    return size + (count - 1) * size * LEADING


def _plan(page: tuple[float, float], spec: SheetSpec, measure: Measure, tight: int = 0) -> _Page:
    """The page's fixed parts; ``tight`` (0 to 3) asks for a shorter header: 1 sets a long
    title on one line, 2 also narrows the gaps, 3 also keeps names to two lines."""
    width, height = page
    left, right = MARGIN, width - MARGIN
    plan = _Page(width, height)
    gap = GAP if tight < 2 else GAP / 2
    # The totals row's label in the game column, with room to spare on both sides ("Summe").
    plan.total_size = fit(
        spec.labels.total, GAME_COLUMN - 2 * PADDING, TOTAL_SIZE, MIN_TEXT, measure, bold=True
    ).size
    blank_line = _title(plan, spec, measure, tight)
    # The target, boxed and bold, so nobody forgets the goal.
    band = Box(left, blank_line - 8 - gap - TARGET_BAND, right - left, TARGET_BAND)
    plan.rules.extend(outline(band, 1.6))
    target = fit(spec.goal, band.width - 2 * PADDING, TARGET_SIZE, MIN_TEXT, measure, True)
    plan.texts.append(
        Text(target.line, left + band.width / 2, band.y + 7, target.size, True, "center")
    )
    _status(plan, spec, measure, band.y - gap)

    # The column heads: every name in a row at one size.
    plan.table_top = plan.status.y - gap
    plan.name_row, plan.heads, plan.head_rules = _heads(
        spec,
        side_columns(width, spec.sides),
        plan.table_top,
        measure,
        NAME_LINES if tight < 3 else 2,
    )
    _footnote(plan, spec, measure)
    return plan


def _title(plan: _Page, spec: SheetSpec, measure: Measure, tight: int) -> float:
    """Title on the left, blanks for the date and the place on the right; a long title takes
    lines of its own and the blanks go beneath it. Returns the blanks' baseline."""
    left, right, top = MARGIN, plan.width - MARGIN, plan.height - MARGIN
    labels = spec.labels
    blanks_ = tuple(zip((labels.date, labels.place), BLANK_LINES, strict=True))
    blanks = sum(line + 4 + measure(label, BLANK_SIZE, False) + 16 for label, line in blanks_)
    title = fit(spec.title, right - left - blanks, TITLE_SIZE, TITLE_BESIDE, measure, True)
    if not title.cut:
        blank_line = top - 18
        plan.texts.append(Text(title.line, left, blank_line, title.size, bold=True))
    else:
        title = wrap(
            spec.title,
            right - left,
            TITLE_SIZE,
            TITLE_SMALLEST,
            measure,
            bold=True,
            lines=1 if tight else 2,
        )
        if title.cut:  # too long for one line even at its smallest: two lines after all
            title = wrap(
                spec.title, right - left, TITLE_SIZE, TITLE_SMALLEST, measure, bold=True, lines=2
            )
        baselines = _baselines(top, title.size, len(title.lines))
        for words, baseline in zip(title.lines, baselines, strict=True):
            plan.texts.append(Text(words, left, baseline, title.size, bold=True))
        blank_line = baselines[-1] - title.size * DESCENT - (16 if tight < 2 else 13)
    x = right
    for label, length in reversed(blanks_):
        plan.rules.append(Rule(x - length, blank_line - 2, x, blank_line - 2, 0.6))
        x -= length + 4
        plan.labels.append(Text(label, x, blank_line, BLANK_SIZE, align="right"))
        x -= measure(label, BLANK_SIZE, False) + 16
    return blank_line


def _status(plan: _Page, spec: SheetSpec, measure: Measure, bottom: float) -> None:
    """The winner, or on a filled sheet how the race stands, above ``bottom``: on as many
    lines as it needs, every descender above the write-in rule."""
    left, right, labels = MARGIN, plan.width - MARGIN, spec.labels
    status_x = left + measure(labels.status, STATUS_SIZE, True) + 6
    status = (
        wrap(
            spec.status,
            right - status_x,
            STATUS_SIZE,
            MIN_TEXT,
            measure,
            bold=True,
            lines=STATUS_LINES,
        )
        if spec.status
        else Fitted((), STATUS_SIZE)
    )
    count = max(1, len(status.lines))
    lead = status.size * LEADING
    box_height = STATUS_BAND + (count - 1) * lead
    plan.status = Box(status_x, bottom - box_height, right - status_x, box_height)
    first = plan.status.y + 5 + (count - 1) * lead
    plan.labels.append(Text(labels.status, left, first, STATUS_SIZE, bold=True))
    plan.rules.append(Rule(status_x, plan.status.y + 1, right, plan.status.y + 1, 0.6))
    for index, line in enumerate(status.lines):
        plan.texts.append(Text(line, status_x, first - index * lead, status.size, bold=True))


def _footnote(plan: _Page, spec: SheetSpec, measure: Measure) -> None:
    """The footnote, and on a filled sheet the key to its marks, at one size."""
    left, right, labels = MARGIN, plan.width - MARGIN, spec.labels
    room = right - left
    if spec.legend:
        won, reached = (measure(words, FOOT_SIZE, False) for words in (labels.won, spec.boxed))
        legend = 4 + KEY_WIDTH + 3 + won + 10 + KEY_WIDTH + 3 + reached
        room -= legend + 12
    reminder = wrap(spec.reminder, room, FOOT_SIZE, MIN_FOOTNOTE, measure, lines=FOOT_LINES)
    plan.foot = [(line, reminder.size) for line in reminder.lines]
    if spec.legend:
        plan.keys.append(Box(right - legend + 4, 0, KEY_WIDTH, FOOT_LINE))
        plan.key_texts.append(Text(labels.won, plan.keys[0].right + 3, 0, FOOT_SIZE))
        plan.keys.append(Box(plan.keys[0].right + 3 + won + 10, 0, KEY_WIDTH, FOOT_LINE))
        plan.key_texts.append(Text(spec.boxed, plan.keys[1].right + 3, 0, FOOT_SIZE))


def _common_size(
    texts: Sequence[str], room: float, size: float, most: int, bold: bool, measure: Measure
) -> tuple[float, int, bool]:
    """One size and line count for every text of a header row, and whether its words stay
    whole: the fewest lines that keep them all at a comfortable size without breaking a word,
    else the fewest lines at a comfortable size, else the lines that give the largest size."""
    best: tuple[float, int, bool] | None = None
    for whole_words in (True, False):
        for count in range(1, most + 1):
            fitted = [
                wrap(
                    text,
                    room,
                    size,
                    MIN_TEXT,
                    measure,
                    bold=bold,
                    lines=count,
                    whole_words=whole_words,
                )
                for text in texts
            ]
            if any(item.cut for item in fitted):
                continue
            common = min(item.size for item in fitted)
            if common >= NAME_COMFORT:
                return common, count, whole_words
            if best is None or common > best[0]:
                best = (common, count, whole_words)
    return best if best is not None else (MIN_TEXT, most, False)


def _heads(
    spec: SheetSpec,
    columns: tuple[float, tuple[float, ...]],
    top: float,
    measure: Measure,
    lines: int = NAME_LINES,
) -> tuple[float, list[list[Text]], list[Rule]]:
    """The height of the name row, each column's words (placed at x = 0) and any write-in
    rules; ``columns`` is a side's column width and where each starts (``side_columns``)."""
    side_width = columns[0]
    room = side_width - 2 * PADDING
    named = [heading for heading in spec.headings if not heading.caption]
    if len(named) < len(spec.headings):
        return _blank_heads(spec, columns, top)
    most = min(lines, TEAM_NAME_LINES) if spec.partnership else lines
    size, count, whole = _common_size([h.name for h in named], room, NAME_SIZE, most, True, measure)
    names = [
        wrap(h.name, room, size, size, measure, bold=True, lines=count, whole_words=whole)
        for h in named
    ]
    partners = _partners(named, room, size, measure) if spec.partnership else []
    tallest = max(len(name.lines) for name in names)
    block = _block(size, tallest)
    if partners:
        block += 3 + _block(partners[0].size, max(len(p.lines) for p in partners))
    row = max(NAME_ROW, block + 2 * PADDING + 2)
    middle = top - row / 2
    heads: list[list[Text]] = []
    for index, name in enumerate(names):
        own = _block(size, len(name.lines))
        under = partners[index] if partners else None
        if under is not None:
            own += 3 + _block(under.size, len(under.lines))
        upper = middle + own / 2
        texts = [
            Text(line, side_width / 2, baseline, size, True, "center")
            for line, baseline in zip(
                name.lines, _baselines(upper, size, len(name.lines)), strict=True
            )
        ]
        if under is not None:
            below = upper - _block(size, len(name.lines)) - 3
            texts += [
                Text(line, side_width / 2, baseline, under.size, False, "center")
                for line, baseline in zip(
                    under.lines, _baselines(below, under.size, len(under.lines)), strict=True
                )
            ]
        heads.append(texts)
    return row, heads, []


def _partners(named: Sequence[Heading], room: float, size: float, measure: Measure) -> list[Fitted]:
    """The partners under each team's name, at one size no larger than the names: on one
    line ("Ann + Cy") while that stays comfortable, else a line each."""
    joined = [" + ".join(h.members) for h in named]
    one = [fit(text, room, min(PARTNER_SIZE, size), MIN_TEXT, measure) for text in joined]
    small = min(item.size for item in one)
    if small >= NAME_COMFORT - 1 and not any(item.cut for item in one):
        return [fit(text, room, small, small, measure) for text in joined]
    stacked = [[f"{member} +" for member in h.members[:-1]] + [h.members[-1]] for h in named]
    small = min(
        fit(line, room, min(PARTNER_SIZE, size), MIN_TEXT, measure).size
        for lines in stacked
        for line in lines
    )
    return [
        Fitted(tuple(fit(line, room, small, small, measure).line for line in lines), small)
        for lines in stacked
    ]


def _blank_heads(
    spec: SheetSpec, columns: tuple[float, tuple[float, ...]], top: float
) -> tuple[float, list[list[Text]], list[Rule]]:
    """Captions to write by; a team's column has a line for each partner's name."""
    side_width, starts = columns
    row = BLANK_TEAM_ROW if spec.partnership else NAME_ROW
    caption_line = top - 3 - CAPTION_SIZE * ASCENT
    heads: list[list[Text]] = []
    rules: list[Rule] = []
    for index, heading in enumerate(spec.headings):
        texts = [Text(heading.caption, PADDING, caption_line, CAPTION_SIZE)]
        if heading.members:
            x = starts[index]
            line = top - row + 8
            centre = x + side_width / 2
            rules.append(Rule(x + 2 * PADDING, line, centre - 8, line, 0.5))
            rules.append(Rule(centre + 8, line, x + side_width - 2 * PADDING, line, 0.5))
            texts.append(Text("+", side_width / 2, line, 10, False, "center"))
        heads.append(texts)
    return row, heads, rules


def spread(games: int, first: int) -> list[int]:
    """How many games go on each page: as few pages as hold them, and as even as can be.

    The first page holds up to ``first`` games, each later one a game fewer.
    """
    later = max(1, first - 1)
    pages = 1 if games <= first else 1 + -(-(games - first) // later)
    base, extra = divmod(games, pages)
    return [base + (1 if index < extra else 0) for index in range(pages)]


def layout_sheet(
    page: tuple[float, float],
    spec: SheetSpec,
    games: int,
    measure: Measure,
    *,
    whole_pages: bool = False,
) -> list[Layout]:
    """Lay out ``games`` game rows over as many landscape pages as they need, evenly.

    With ``whole_pages`` every page is filled with rows, so a table can go on
    writing games by hand after the last one recorded. Every page after the first
    opens with a row for the totals brought forward; all pages share one row height.
    """
    for tight in range(4):
        plan = _plan(page, spec, measure, tight)
        if plan.room >= HEADER_GAMES * MIN_ROW:
            break
    most = max(2, int(plan.room // MIN_ROW))  # game rows on a first page; later ones hold one fewer
    counts = spread(max(games, 1), most)
    if whole_pages:  # whole pages of rows, 0.4 in tall unless the games need them smaller
        pages = len(counts)
        needed = -(-(max(games, 1) + pages - 1) // pages)
        first_rows = max(needed, min(most, int(plan.room // WRITING_ROW)))
        counts = [first_rows] + [first_rows - 1] * (pages - 1)
        row = plan.room / first_rows
    else:
        bodies = [count + (1 if index else 0) for index, count in enumerate(counts)]
        row = min(MAX_ROW, plan.room / max(bodies))
    layouts: list[Layout] = []
    first = 1
    for index, count in enumerate(counts):
        numbers = tuple(range(first, first + count))
        sheet = (index + 1, len(counts)) if len(counts) > 1 else None
        layouts.append(_layout_page(plan, spec, numbers, index > 0, row, sheet))
        first += count
    return layouts


def _layout_page(
    plan: _Page,
    spec: SheetSpec,
    games: tuple[int, ...],
    forward: bool,
    row: float,
    sheet: tuple[int, int] | None = None,
) -> Layout:
    """One page of ``games`` (their numbers), after a brought-forward row if ``forward``;
    ``sheet`` (this page's number and the count) is set in the corner over the game numbers.

    Everything but the sheet's own words (title, goal, status and the sides' names) is
    the page's frame, worked out once for every page of its shape.
    """
    captions = spec.headings[0].caption != ""
    shared = frame(
        PageShape(
            width=plan.width,
            height=plan.height,
            sides=spec.sides,
            table_top=plan.table_top,
            name_row=plan.name_row,
            games=games,
            forward=forward,
            row=row,
            sheet=sheet,
            labels=spec.labels,
            scored=spec.scored,
            plan_labels=tuple(plan.labels),
            plan_rules=tuple(plan.rules) + tuple(plan.head_rules),
            captions=tuple(tuple(words) for words in plan.heads) if captions else (),
            foot=tuple(plan.foot),
            keys=tuple(plan.keys),
            key_texts=tuple(plan.key_texts),
            total_size=plan.total_size,
        )
    )
    texts = list(plan.texts)
    texts += shared.lead
    if not captions:
        for x, words in zip(shared.columns, plan.heads, strict=True):
            texts.extend(Text(t.text, x + t.x, t.y, t.size, t.bold, t.align) for t in words)
    texts += shared.tail
    return Layout(
        width=plan.width,
        height=plan.height,
        grid=shared.grid,
        texts=tuple(texts),
        games=games,
        points=shared.points,
        totals=shared.totals,
        forward=shared.forward,
        final=shared.final,
        status=plan.status,
        keys=shared.keys,
        names=shared.names,
    )
