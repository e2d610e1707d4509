"""Where everything on a score sheet goes, in points: one layout for blank and filled sheets.

The layout knows nothing of reportlab: it takes the page size, what the sheet
says and a ``measure(text, size, bold)`` function for text widths, and returns
boxes, rules and texts. The painter draws them; the filled sheet writes its
values into the slots the layout names. Origin bottom left, as in PDF.

A sheet has one column per side at the table, as wide as the page allows. Rows
are 0.3 to 0.55 in tall: the games share the fewest pages that hold them at
0.3 in (evenly), at the height that fills the page but no taller than 0.55 in;
rows left empty to go on by hand are 0.4 in unless the games need them smaller,
and a sheet to go on by hand always ends with at least OPEN_ROWS of them. Where
rows at their tallest leave room over, the sheet sits in the middle of the
printable area, as much white above as below. The header gives way (a one-line
title, tighter bands, fewer name lines) until 16 games fit on one page, but never
so far that a name has to be cut short. Nothing
is set below 8 pt: a name goes onto more lines, then shrinks, and only a word
too long for its column even at 8 pt breaks, between syllables. A page the sheet
goes on from ends in a "Carried forward" row, the next opens with "Brought forward".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from sheetgen.game.wording import Labels
from sheetgen.sheet.fitting import Breaks, Fitted, Measure, fit, wrap
from sheetgen.sheet.grid import (
    ASCENT,
    FOOT_LINE,
    FOOT_SIZE,
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
MAX_ROW = 0.55 * 72  # and no row is taller, however few the games (print reviews 27 and
# 34: ten rows 0.45 in tall left 21.7 mm white at the foot of a blank Letter sheet)
OPEN_ROWS = 3  # a sheet to go on by hand leaves at least this many rows after its last game
HEADER_GAMES = 16  # the header gives way until this many games fit on one page
PADDING = 4.0
MIN_TEXT = 8.0  # nothing on a sheet is smaller
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
FOOT_LINES = 2  # the footnote's lines, but for one too long for them at 8 pt
# The footnote's longest line: about 110 characters at 8 pt, a measure a reader keeps his
# place in (at the grid's full width the German one ran to 210 characters a line).
FOOT_MEASURE = 60 * FOOT_SIZE
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
    # The foot row of a page the sheet goes on from, in the sheet's language.
    carried: str = "Carried forward"
    # The foot row of a filled sheet's last page while its series is still open, which
    # holds the totals so far ("So far"); empty: its Total.
    so_far: str = ""
    # Whether the key names the heavy box (drawn only once the series is won).
    boxed_key: bool = True
    # The language whose hyphenation patterns may break a name too long for its column.
    lang: str = "en"

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
    title_size: float = TITLE_SIZE  # the size its title was fitted at


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
    drop: float = 0.0  # how far the sheet sits below the top margin, to centre it on the page
    cut: bool = False  # whether a name had to be cut short
    tight: int = 0  # how far the header gave way (see ``_plan``)
    title_size: float = TITLE_SIZE

    @property
    def top(self) -> float:
        return self.height - MARGIN - self.drop

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


def _plan(
    page: tuple[float, float], spec: SheetSpec, measure: Measure, tight: int = 0, drop: float = 0
) -> _Page:
    """The page's fixed parts; ``tight`` (0 to 3) asks for a shorter header: 1 sets a long
    title on one line, 2 also narrows the gaps, 3 also keeps names to two lines. ``drop``
    moves everything down from the top margin."""
    width, height = page
    left, right = MARGIN, width - MARGIN
    plan = _Page(width, height, tight=tight, drop=drop)
    gap = GAP if tight < 2 else GAP / 2
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
    plan.name_row, plan.heads, plan.head_rules, plan.cut = _heads(
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
    left, right, top = MARGIN, plan.width - MARGIN, plan.top
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
    plan.title_size = title.size
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
            # Each line full but the last, as the chart's verdict (print review 36: English
            # evened into two half lines, "Still needed to reach" / "1000:", German full).
            balance=False,
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
        legend = 4 + KEY_WIDTH + 3 + won
        legend += 10 + KEY_WIDTH + 3 + reached if spec.boxed_key else 0
        room -= legend + 12
    # Set as a footnote is, each line full but the last; a reminder too long for two
    # lines takes a third rather than shrink.
    for most in (FOOT_LINES, FOOT_LINES + 1):
        reminder = wrap(
            spec.reminder, room, FOOT_SIZE, MIN_TEXT, measure, lines=most, balance=False
        )
        if not reminder.cut:
            break
    # On as many lines, at a measure one reads at a glance where it fits so.
    if len(reminder.lines) > 1 and room > FOOT_MEASURE:
        lines = len(reminder.lines)
        kept = wrap(
            spec.reminder, FOOT_MEASURE, FOOT_SIZE, FOOT_SIZE, measure, lines=lines, balance=False
        )
        reminder = reminder if kept.cut else kept
    plan.foot = [(line, reminder.size) for line in reminder.lines]
    if spec.legend:
        plan.keys.append(Box(right - legend + 4, 0, KEY_WIDTH, FOOT_LINE))
        plan.key_texts.append(Text(labels.won, plan.keys[0].right + 3, 0, FOOT_SIZE))
        if spec.boxed_key:
            plan.keys.append(Box(plan.keys[0].right + 3 + won + 10, 0, KEY_WIDTH, FOOT_LINE))
            plan.key_texts.append(Text(spec.boxed, plan.keys[1].right + 3, 0, FOOT_SIZE))


def _common_size(
    texts: Sequence[str],
    room: float,
    size: float,
    most: int,
    bold: bool,
    measure: Measure,
    lang: str,
) -> tuple[float, int, Breaks] | None:
    """One size and line count for every text of a header row, and where its words may break
    (None if they do not fit on ``most`` lines even at 8 pt and broken anywhere).

    A name is never broken while it fits whole: whole words at a comfortable size on the
    fewest lines, else whole words at the largest size down to the 8 pt floor. Only a word
    too long for the column even at 8 pt breaks: between syllables if it can (by ``lang``'s
    patterns), else into even pieces; at a comfortable size if it can, else the largest.
    """
    breaks: Breaks
    for breaks in ("words", "syllables", "anywhere"):
        best: tuple[float, int, Breaks] | None = None
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
                    breaks=breaks,
                    lang=lang,
                )
                for text in texts
            ]
            if any(item.cut for item in fitted):
                continue
            common = min(item.size for item in fitted)
            if common >= NAME_COMFORT:
                return common, count, breaks
            if best is None or common > best[0]:
                best = (common, count, breaks)
        if best is not None:
            return best
    return None


def _name_lines(
    name: str, room: float, size: float, count: int, breaks: Breaks, measure: Measure, lang: str
) -> Fitted:
    """One name on the row's lines at the row's size, broken no more than it must be: whole
    words, else between syllables, and only else as the row allows (another name may need
    even pieces; this one keeps its syllables)."""
    ways: tuple[Breaks, ...] = ("words", "syllables", breaks)
    for way in ways[: ways.index(breaks) + 1]:
        fitted = wrap(
            name, room, size, size, measure, bold=True, lines=count, breaks=way, lang=lang
        )
        if not fitted.cut or way == breaks:
            return fitted
    raise AssertionError("unreachable: the row's own way is tried last")


def _heads(
    spec: SheetSpec,
    columns: tuple[float, tuple[float, ...]],
    top: float,
    measure: Measure,
    lines: int = NAME_LINES,
) -> tuple[float, list[list[Text]], list[Rule], bool]:
    """The height of the name row, each column's words (placed at x = 0) and any write-in
    rules; ``columns`` is a side's column width and where each starts (``side_columns``)."""
    side_width = columns[0]
    room = side_width - 2 * PADDING
    named = [heading for heading in spec.headings if not heading.caption]
    if len(named) < len(spec.headings):
        return _blank_heads(spec, columns, top)
    most = min(lines, TEAM_NAME_LINES) if spec.partnership else lines
    said = [h.name for h in named]
    common = _common_size(said, room, NAME_SIZE, most, True, measure, spec.lang)
    if common is None:  # a name too long for its lines however broken: a line more, then cut
        common = _common_size(said, room, NAME_SIZE, most + 1, True, measure, spec.lang)
    size, count, breaks = common or (MIN_TEXT, most + 1, "anywhere")
    names = [_name_lines(h.name, room, size, count, breaks, measure, spec.lang) for h in named]
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
    return row, heads, [], any(name.cut for name in names)


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
) -> tuple[float, list[list[Text]], list[Rule], bool]:
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
    return row, heads, rules, False


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

    With ``whole_pages`` (a series still open) every page is filled with rows and the last
    leaves at least OPEN_ROWS after the games, so the table can go on writing games by hand.
    Every page after the first opens with a row for the totals brought forward, every page
    before the last ends with a row carrying them forward; all pages share one row height.
    """
    # The header gives way until HEADER_GAMES rows fit, but never so far that a name is cut.
    plan = _plan(page, spec, measure)
    for tight in range(1, 4):
        if plan.room >= HEADER_GAMES * MIN_ROW:
            break
        tighter = _plan(page, spec, measure, tight)
        if not tighter.cut or plan.cut:
            plan = tighter
    most = max(2, int(plan.room // MIN_ROW))  # game rows on a first page; later ones hold one fewer
    counts, row = (
        _open_rows(games, most, int(plan.room // WRITING_ROW), plan.room)
        if whole_pages
        else _rows(games, most, plan.room)
    )
    # Rows that leave room over (at their tallest, or a row fewer than the next page's)
    # move the sheet down to the middle of the page: the fullest page's, and every page by
    # as much, so the title stands at one place on every sheet of a series (print review
    # 27: it moved 4.2 mm between the first sheet and the second).
    drop = min(
        round(max(0.0, plan.room - (count + (1 if index else 0)) * row) / 2, 2)
        for index, count in enumerate(counts)
    )
    if drop:
        plan = _plan(page, spec, measure, plan.tight, drop=drop)
    layouts: list[Layout] = []
    first = 1
    for index, count in enumerate(counts):
        numbers = tuple(range(first, first + count))
        sheet = (index + 1, len(counts)) if len(counts) > 1 else None
        last = index == len(counts) - 1
        layouts.append(_layout_page(plan, spec, numbers, index > 0, row, sheet, last))
        first += count
    return layouts


def _rows(games: int, most: int, room: float) -> tuple[list[int], float]:
    """The game rows on each page and their height, for ``games`` games and no more: the
    fewest pages, evenly, rows as tall as fill them up to MAX_ROW."""
    counts = spread(max(games, 1), most)
    bodies = [count + (1 if index else 0) for index, count in enumerate(counts)]
    return counts, min(MAX_ROW, room / max(bodies))


def _open_rows(games: int, most: int, writing: int, room: float) -> tuple[list[int], float]:
    """The game rows on each page and their height for a series still open: whole pages of
    rows, the fewest that hold the ``games`` and OPEN_ROWS more, each row WRITING_ROW tall
    (``writing`` to a page) unless the rows need to be smaller (``most`` to a page at the
    least height)."""
    wanted = games + OPEN_ROWS
    pages = 1 if wanted <= most else 1 + -(-(wanted - most) // (most - 1))
    needed = -(-(wanted + pages - 1) // pages)  # rows on a first page, later ones one fewer
    first_rows = max(needed, min(most, writing))
    return [first_rows] + [first_rows - 1] * (pages - 1), room / first_rows


def _layout_page(
    plan: _Page,
    spec: SheetSpec,
    games: tuple[int, ...],
    forward: bool,
    row: float,
    sheet: tuple[int, int] | None = None,
    last: bool = True,
) -> Layout:
    """One page of ``games`` (their numbers), after a brought-forward row if ``forward``;
    ``sheet`` (this page's number and the count) is set in the corner over the game numbers.
    A page before the ``last`` ends in a row that carries the totals forward.

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
            carried="" if last else spec.carried,
            total=spec.so_far if last else "",
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
        title_size=plan.title_size,
    )
