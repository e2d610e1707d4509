"""How the running text falls on its pages: a layout measured, the flow the next should have."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

# Every page of running text is at least a quarter full, measured on the glyphs; lines as
# laid out stand a little taller than their glyphs, hence 0.28 of the page's height here.
# When the first layout leaves a page emptier, the second is set from its measurements
# (see refit); only if that fails too is the booklet set tighter or looser, in this
# order, and the result whose emptiest page is fullest kept.
MIN_FILL = 0.28
SPACINGS = ("", "tight", "loose", "tighter", "looser")
# A page moved by refit is planned this much fuller than MIN_FILL, for what the
# measurements cannot see (the margin above a heading that now starts a page).
FILL_SAFETY = 0.05
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


class Flow(NamedTuple):
    """How the running text is set on its pages, beyond the style sheet."""

    # One of SPACINGS: how tightly the running text is set.
    spacing: str = ""
    # CSS selectors of elements that start a page.
    breaks: tuple[str, ...] = ()
    # A folded booklet's plan: ruled notes pages before the back cover, so that its pages
    # fill whole sheets without a blank one, and whether its last chapter (the quick
    # reference) runs on in the text because it does not fit on the back cover.
    notes: int = 0
    back_in_flow: bool = False


PLAIN = Flow()


class _Block(NamedTuple):
    """A block of a chapter (a heading, paragraph, list, table or figure) that starts on a
    page: where its first line stands, as a share of the page's height."""

    selector: str
    top: float
    heading: bool
    # Whether a page may start here: not after a heading or a lead-in it belongs to, nor
    # inside a chapter kept on one page.
    breakable: bool


@dataclass
class Page:
    """One page of the running text as laid out: its lines (as shares of its height, top
    and bottom) and the chapter blocks that start on it."""

    cover: bool
    lines: list[tuple[float, float]] = field(default_factory=list)
    starts: list[_Block] = field(default_factory=list)

    @property
    def top(self) -> float:
        return min(start for start, _ in self.lines)

    @property
    def bottom(self) -> float:
        return max(end for _, end in self.lines)

    @property
    def fill(self) -> float:
        return self.bottom - self.top


def measure(html: Any, document: Any) -> list[Page]:
    """The pages of running text of a laid-out booklet, in order (the back cover and the
    score sheet, which stand alone by design, are left out, as are page numbers)."""
    from weasyprint.formatting_structure import boxes

    body = next(child for child in html.etree_element if child.tag == "body")
    sections = [child for child in body if isinstance(child.tag, str)]
    # Each block of a chapter: its selector, and whether a page may start before it.
    blocks: dict[Any, tuple[str, bool]] = {}
    for number, section in enumerate(sections, start=1):
        classes = (section.get("class") or "").split()
        if "chapter" not in classes or "back-cover" in classes:
            continue
        children = [child for child in section if isinstance(child.tag, str)]
        for index, child in enumerate(children):
            before = children[index - 1].tag if index else None
            lead_in = before == "p" and child.tag in ("ul", "ol", "table")
            breakable = "keep-together" not in classes and before not in HEADINGS and not lead_in
            selector = f"body > :nth-child({number}) > :nth-child({index + 1})"
            blocks[child] = (selector, breakable)
    cover = sections[0] if sections and "cover" in (sections[0].get("class") or "") else None

    def walk(box: Any, block: Any, page: Page, tops: dict[Any, float], height: float) -> None:
        """Record the lines of ``box`` on ``page``, and where each chapter block's first
        line stands."""
        if isinstance(box, boxes.MarginBox):
            return
        if cover is not None and box.element is cover:
            page.cover = True
        if box.element in blocks:
            block = box.element
        if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)) or box.element_tag == "svg":
            start = box.position_y / height
            page.lines.append((start, start + box.margin_height() / height))
            if block is not None:
                tops[block] = min(tops.get(block, start), start)
            return
        for child in getattr(box, "children", ()):
            walk(child, block, page, tops, height)

    seen: set[Any] = set()
    pages = []
    for laid in document.pages:
        if laid._page_box.page_type.name in ("back", "sheet"):
            continue
        page = Page(cover=False)
        tops: dict[Any, float] = {}
        walk(laid._page_box, None, page, tops, laid.height)
        if not page.lines:
            continue
        for element, top in tops.items():
            if element not in seen:  # a block that began on an earlier page goes on here
                selector, breakable = blocks[element]
                page.starts.append(_Block(selector, top, element.tag in HEADINGS, breakable))
        seen.update(tops)
        pages.append(page)
    return pages


def refit(pages: list[Page], flow: Flow) -> Flow:
    """The flow a second layout should have, from the measurements of ``pages`` set in
    ``flow``: the same if nothing can be done.

    Contents that ran over from the cover (a long list of house rules) start a page of
    their own. A last page of running text emptier than MIN_FILL takes over the end of
    the page before it: a page break
    before one of that page's blocks (a heading if one fits), chosen so that both pages
    are well over MIN_FILL and the moved lines fit on the last page. The pages before
    stay exactly as they were, so what the measurements promise holds.
    """
    breaks = flow.breaks
    if sum(page.cover for page in pages) > 1 and CONTENTS_APART not in breaks:
        breaks = (*breaks, CONTENTS_APART)
    running = [page for page in pages if not page.cover]
    if len(running) > 1 and running[-1].fill < MIN_FILL:
        chosen = _balance(running[-2], running[-1], max(page.fill for page in running))
        if chosen is not None:
            breaks = (*breaks, chosen)
    return flow._replace(breaks=breaks)


# The contents' heading on the cover, which refit may start a page with.
CONTENTS_APART = "body > .cover > .toc-title"
# A heading that starts the moved part is preferred to a fuller page by up to this share.
HEADING_PREFERENCE = 0.1


def _balance(before: Page, last: Page, capacity: float) -> str | None:
    """The block of ``before`` to start a page with, so that ``last`` is full enough."""
    best: tuple[float, str] | None = None
    for block in before.starts:
        if not block.breakable:
            continue
        kept = [end for start, end in before.lines if end <= block.top + 1e-6]
        if not kept:
            continue
        stays = max(kept) - before.top
        moves = before.bottom - block.top + last.fill
        if min(stays, moves) < MIN_FILL + FILL_SAFETY or moves > capacity - FILL_SAFETY:
            continue
        score = min(stays, moves) + (HEADING_PREFERENCE if block.heading else 0.0)
        if best is None or score > best[0]:
            best = (score, block.selector)
    return None if best is None else best[1]


def fills(pages: list[Page]) -> list[float]:
    return [page.fill for page in pages]
