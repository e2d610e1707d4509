"""Mends a layout is set again for, each kept only where it leaves the booklet no worse:
a card strip set free of its list, an example's drawing or table of its lead-in, a heading
taken over the page with its lines."""

from __future__ import annotations

import itertools
from typing import Any

from sheetgen.booklet.flow import BLOCK, FREE, Page

# A card strip that took its list's last lines over a page is set free of them where the
# page before is less full than this share of the fullest (print review 34: 107 pt, 15 %
# of a flat A4 page, before Spite and Malice's king strip; review 41: 72 pt, 10 % of a
# Letter page, before the same strip): 40 pt white or more on a flat page. A page is held
# to its own text area too, where even the fullest page ends short of that (review 41: 57
# pt before the same strip in German, the page 0.95 as full as the fullest).
HELD_SHARE = 0.94


def _after_short(pages: list[Page]) -> list[tuple[int, Page, Page, float]]:
    """Each page of running text after one left short (``_short``), with the number of the
    page before it, that page, and the fullest page's fill."""
    running = [page for page in pages if not page.cover]
    if len(running) < 2:
        return []
    capacity = max(page.fill for page in running)
    return [
        (number, before, page, capacity)
        for number, (before, page) in enumerate(itertools.pairwise(pages), start=1)
        if not before.cover and not page.cover and _short(before, capacity)
    ]


def _short(page: Page, capacity: float) -> bool:
    """Whether ``page`` ends short: under HELD_SHARE of the fullest page (``capacity``), or
    of its own text area down to its foot."""
    return page.fill < HELD_SHARE * max(capacity, page.foot - page.top)


def held_strips(pages: list[Page], free: tuple[int, ...] = ()) -> tuple[int, ...]:
    """``free`` and the card strips kept with the list before them that took its last lines
    over a page with them, leaving the page before short (under HELD_SHARE): set free of
    the list (Flow.free), they let those lines end their page (print review 34:
    "SKIP-BO-Karten gelten | jeweils als" over a leaf, 104 pt left white before it)."""
    found = list(free)
    for _, _, page, _ in _after_short(pages):
        starts = sorted(page.starts, key=lambda block: block.top)
        if not starts:
            continue
        first = starts[0]
        if first.strip and first.top > page.top + 1e-6 and first.number not in found:
            found.append(first.number)
    return tuple(found)


def held_examples(
    pages: list[Page], free: tuple[int, ...] = (), *, folded: bool = False
) -> tuple[int, ...]:
    """``free`` and the drawings and tables of examples (a subheading, its lead-in of
    LINES_UNDER_HEADING lines or more, the drawing or table) that open a page whole where
    the page before is short (under HELD_SHARE) by more than the subheading and lead-in
    take: set free of the lead-in (Flow.free), the subheading and lead-in end that page
    and the drawing opens the next (print review 40: 130 pt left white before "An
    example"). In a folded booklet, only where the two pages face each other (the page
    before is a left-hand page, an even one), so the lead-in and its drawing are read
    together."""
    found = list(free)
    for number, before, page, capacity in _after_short(pages):
        starts = sorted(page.starts, key=lambda block: block.top)
        if len(starts) < 3 or (folded and number % 2):
            continue
        heading, lead, figure = starts[:3]
        if not (heading.heading and not heading.opens and heading.top <= page.top + 1e-6):
            continue
        if lead.breakable or lead.heading or lead.figure or figure.breakable:
            continue
        if not figure.figure or figure.picture or figure.strip or figure.number in found:
            continue
        lines = {
            round(start, 3) for start, _ in page.lines if lead.top - 1e-6 <= start < figure.top
        }
        room = capacity - before.fill
        if len(lines) >= LINES_UNDER_HEADING and figure.top - heading.top + LEAD_SAFETY <= room:
            found.append(figure.number)
    return tuple(found)


# What a subheading's white above it and the measurements may take beyond its lines.
LEAD_SAFETY = 0.02


def set_free(root: Any, free: tuple[int, ...]) -> None:
    """Set the figures and tables numbered ``free`` free of the block before them (the style
    sheet keeps a ``with-list`` strip with its list's last item, an example's drawing or
    table with its lead-in)."""
    if not free:
        return
    for element in (e for e in root.iter() if e.tag in ("figure", "table")):
        if int(element.get(BLOCK, "0")) in free:
            kept = [name for name in (element.get("class") or "").split() if name != "with-list"]
            element.set("class", " ".join([*kept, FREE]))


# A heading with fewer lines of its section than this under it at a page's foot, the
# section running on to the next page, goes over with them (print review 34: "Vorbereitung"
# and two lines at the foot of page 3, its sentence over the leaf; review 35: three lines
# under a heading before a leaf turn read as stranded too).
LINES_UNDER_HEADING = 4


def stranded_headings(pages: list[Page]) -> tuple[str, ...]:
    """The headings (their page breaks' selectors) that stand at a page's foot with fewer
    than LINES_UNDER_HEADING lines under them, their section running on to the next page;
    a heading that may not start a page (one under another) is left as it is."""
    running = [page for page in pages if not page.cover]
    found = []
    for page, after in itertools.pairwise(running):
        heading = max(
            (block for block in page.starts if block.heading), key=lambda b: b.top, default=None
        )
        if heading is None or not heading.breakable or heading.top <= page.top + 1e-6:
            continue
        # Lines as the reader counts them: a list's bullet and its item's line are one.
        under = {round(start, 3) for start, _ in page.lines if start >= heading.bottom - 1e-6}
        if len(under) < LINES_UNDER_HEADING and not after.opens_with_heading:
            found.append(heading.selector)
    return tuple(found)
