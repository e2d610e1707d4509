"""Mends a layout is set again for, each kept only where it leaves the booklet no worse:
a card strip set free of its list, a heading taken over the page with its lines."""

from __future__ import annotations

import itertools
from typing import Any

from sheetgen.booklet.flow import BLOCK, Page

# A card strip that took its list's last lines over a page is set free of them where the
# page before is less full than this share of the fullest (print review 34: 107 pt, 15 %
# of a flat A4 page, before Spite and Malice's king strip).
HELD_SHARE = 0.9


def held_strips(pages: list[Page], free: tuple[int, ...] = ()) -> tuple[int, ...]:
    """``free`` and the card strips kept with the list before them that took its last lines
    over a page with them, leaving the page before short (under HELD_SHARE): set free of
    the list (Flow.free), they let those lines end their page (print review 34:
    "SKIP-BO-Karten gelten | jeweils als" over a leaf, 104 pt left white before it)."""
    running = [page for page in pages if not page.cover]
    if len(running) < 2:
        return free
    capacity = max(page.fill for page in running)
    found = list(free)
    for before, page in itertools.pairwise(running):
        starts = sorted(page.starts, key=lambda block: block.top)
        if not starts or before.fill >= HELD_SHARE * capacity:
            continue
        first = starts[0]
        if first.strip and first.top > page.top + 1e-6 and first.number not in found:
            found.append(first.number)
    return tuple(found)


def free_strips(root: Any, free: tuple[int, ...]) -> None:
    """Set the card strips numbered ``free`` free of the list before them (the style
    sheet keeps a ``with-list`` strip with its last item)."""
    for figure in root.iter("figure"):
        if int(figure.get(BLOCK, "0")) in free:
            kept = [name for name in (figure.get("class") or "").split() if name != "with-list"]
            figure.set("class", " ".join(kept))


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
