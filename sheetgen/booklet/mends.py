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
