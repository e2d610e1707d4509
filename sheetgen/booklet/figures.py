"""Where a booklet's figures go: a figure too tall for the foot of its page is set where
the text around it fills that page instead (a layout is set again with the moves, see
``pdf._set_pages``)."""

from __future__ import annotations

import itertools

from sheetgen.booklet.flow import HOLE_SHARE, Block, Moves, Page
from sheetgen.booklet.mends import LINES_UNDER_HEADING

# What the measurements of a block moved up may be short of, as a share of the page.
MOVE_SAFETY = 0.015
# The white above a heading (its top margin, 9 pt, with a little to spare: 12 pt of a
# 792 pt page), which a page's first heading does not set.
HEADING_TOP = 0.015


def figure_moves(pages: list[Page], moves: Moves = ()) -> Moves:
    """``moves`` and, for each page of running text that is a hole (less than HOLE_SHARE
    full) because the figure opening the next did not fit below its text, that figure
    (with the heading and lead-in kept with it) set after the blocks that follow it which
    fill that page: a picture keeps its caption and its own lead-in only, and the text
    flows on past it. A table picture that no text of its chapter follows, and that left
    its page before a hole (under HOLE_SHARE full), is set earlier in its chapter instead,
    where it fills that page (print review 38: 177 pt left before the six-seat picture).
    Nothing new if no page needs it."""
    running = [page for page in pages if not page.cover]
    if len(running) < 2:
        return moves
    capacity = max(page.fill for page in running)
    moved = dict(moves)
    for index in range(1, len(running)):
        before, page = running[index - 1], running[index]
        group = _figure_group(before, page)
        if not group:
            continue
        # Where the page before ends once the group's part of it leaves too.
        left = [block.top for block in before.starts if block in group]
        end = min(left, default=before.bottom)
        # A page before one that opens with a figure (a drawing or a table, with the heading
        # and lead-in kept with it) is filled up by the text after the figure where it is a
        # hole (print review 39: 110 to 133 pt left before "The numbers for this table" and
        # "Ein Rechenbeispiel für diesen Tisch", the text after them in their chapter).
        if end - before.top >= HOLE_SHARE * capacity:
            continue
        figure, after = group[-1], None
        following = _following(running[index:], figure)
        # A table moves only past whole sections: the text after it may name it (a worked
        # example's sum).
        if not figure.table or (bool(following) and following[0][0].heading):
            room = before.top + capacity - end - MOVE_SAFETY
            # A heading that opened its page set no white above it; moved up over a group
            # under its own heading, it does.
            opened = bool(following) and following[0][0].heading
            room -= HEADING_TOP if group[0].heading and opened else 0.0
            pitch = _pitch(before)
            after = _fitting(following, room, figure.chapter, whole=group[0].heading, pitch=pitch)
        if after is None and group == [figure] and figure.picture:
            after = _earlier(before, figure, before.top + capacity - MOVE_SAFETY)
        if after is not None:
            # The group's blocks go after that block one after another, in their order.
            for block in group:
                moved[block.number] = after
                after = block.number
    return tuple(moved.items())


def _earlier(before: Page, picture: Block, foot: float) -> int | None:
    """The block of ``before`` (the page the table ``picture`` did not fit at the foot of)
    that the picture is best set after instead, so that it ends that page above ``foot``
    and the text of its chapter after that block goes on to the next page: the last block
    of its chapter, not a heading, before whose next a page may start and below which the
    picture fits. None if none does, or the page would still be a hole (short of
    HOLE_SHARE of the room from its top to ``foot``)."""
    starts = sorted(before.starts, key=lambda block: block.top)
    height = picture.bottom - picture.top
    least = before.top + HOLE_SHARE * (foot - before.top)
    for block, nxt in reversed(list(itertools.pairwise(starts))):
        if block.chapter != picture.chapter or block.opens:
            break
        end = nxt.top + height  # the picture takes the next block's place
        if block.heading or not nxt.breakable or end > foot:
            continue
        return block.number if end >= least else None
    return None


def _figure_group(before: Page, page: Page) -> list[Block]:
    """The figure that opens ``page``, with the blocks kept with it (its section's heading
    and lead-in, which may begin on the page ``before``); empty if no figure opens it."""
    starts = sorted(page.starts, key=lambda block: block.top)
    figure = next((block for block in starts if block.figure), None)
    if figure is None:
        return []
    known = {block.number: block for block in (*before.starts, *page.starts)}
    group = [figure]
    while not group[0].breakable and group[0].number - 1 in known:
        group.insert(0, known[group[0].number - 1])
    first = group[0]
    if not first.breakable or first.opens or first.chapter != figure.chapter:
        return []
    # A figure kept with a list's last items is not moved past text (the list would go
    # with it, out of its order): only one alone or under its own heading moves.
    if not (first.heading or first.figure):
        return []
    # Nothing but the group opens the page: no other block starts before the figure, and
    # where the group begins on this page, nothing runs on above it from the page before.
    if any(block not in group for block in starts[: starts.index(figure)]):
        return []
    if first in page.starts and first.top > page.top + 1e-6:
        return []
    return group


def _following(pages: list[Page], figure: Block) -> list[tuple[Block, float, float]]:
    """The blocks after ``figure`` on its page and the next, each with where it starts and
    ends below the first of them, as if the pages ran on without a break."""
    found: list[tuple[Block, float, float]] = []
    shift: float | None = None
    for page in pages[:2]:
        starts = sorted(page.starts, key=lambda b: b.top)
        if found and starts and starts[0].top > page.top + 1e-6:
            # The last block of the page before runs on to this one, up to its first start.
            block, top, _ = found[-1]
            assert shift is not None
            found[-1] = (block, top, starts[0].top - shift)
        for block in starts:
            if page is pages[0] and block.top <= figure.top:
                continue
            if shift is None:
                shift = block.top
            found.append((block, block.top - shift, block.bottom - shift))
        if shift is not None:
            shift -= page.bottom - (pages[1].top if len(pages) > 1 else 0.0)
    return found


# A block split at a page's foot leaves at least this much of it there (three lines).
SPLIT_LEAST = 0.05


# The fewest lines of a paragraph that open a page after a break inside it (the style
# sheet's widows).
WIDOWS = 2


def _pitch(page: Page) -> float:
    """The distance from one line of ``page``'s running text to the next (the most common
    one), as a share of its height."""
    tops = sorted({round(start, 4) for start, _ in page.lines})
    steps = [round(b - a, 3) for a, b in itertools.pairwise(tops)]
    return max(sorted(set(steps)), key=steps.count) if steps else SPLIT_LEAST / 3


def _fitting(
    following: list[tuple[Block, float, float]],
    room: float,
    chapter: int,
    *,
    whole: bool = False,
    pitch: float = SPLIT_LEAST / 3,
) -> int | None:
    """The block of ``following`` that a figure is best set after, in its ``chapter``, so that what
    comes between fills ``room`` (the foot of the page before): the last one that fits there
    whole, or that starts there and may run on to the next page, before whose next
    block a page may start; or, where a page may not start after that one (a short
    paragraph kept with the list it follows), the first block after it that a page may
    start after, the blocks between going on to the next page with its end. None if
    none does. A figure stays in its chapter: it is set no further than the chapter's last
    block (where that is the page's last, the figure opens the next page still in its
    chapter), and where no block of its chapter follows it, it stays where it is. A group
    under its own heading (``whole``) is set between sections only, or just before the
    chapter's table picture; a paragraph split right under a heading leaves four of its
    lines there (mends.LINES_UNDER_HEADING, each ``pitch`` high) and two at least for the
    next page (its widows), so the heading is not stranded."""
    found = None
    split = False  # whether the page breaks inside a block already passed
    under = False  # whether the block follows a heading
    for (block, top, bottom), (nxt, _, _) in itertools.pairwise(following):
        if block.figure or (block.heading and split) or block.chapter != chapter:
            break
        if not split:
            least = max(LINES_UNDER_HEADING * pitch, SPLIT_LEAST) if under else SPLIT_LEAST
            if top > room - least:
                break
            split = bottom > room
            if split and not block.splittable:
                break
            if split and under and bottom - top < least + WIDOWS * pitch:
                break
        under = block.heading
        # A group under its own heading (``whole``) goes between sections only, never
        # inside one (the rest of that section would stand under its heading), and may be
        # set just before the chapter's table picture, which closes the chapter.
        between = nxt.heading or nxt.chapter != chapter or nxt.picture
        ok = (between or not whole) and (not nxt.figure or (whole and nxt.picture))
        if nxt.breakable and not block.heading and ok:
            found = block.number
            if split:
                break
        elif split and nxt.breakable:
            break
    return found
