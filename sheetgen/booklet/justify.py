"""Pages set to their foot: a page of running text that ends a little short, because what
follows is kept together overleaf (a table, a picture, a heading with its first lines, a
paragraph's last lines), has its white shared out between its blocks, as a book is set
(vertical justification), where they can take it all at up to half a line each; a page
that would need more keeps its spacing."""

from __future__ import annotations

from typing import Any

from sheetgen.booklet.flow import block_kinds

# How much the white over a block may grow, in lines of the text: half a line between
# blocks, a quarter between a list's items and between blocks the style sheet keeps
# together (a lead-in and its list), never between a heading and its text (print review 37:
# up to two lines over a heading made pages look loose beside tight ones).
GROWTH_BLOCK = 0.5
GROWTH_KEPT = 0.25
GROWTH_ITEM = 0.25
# A page ending less than this short (in lines) is left as it is: its last line is where
# a full page's would be, give or take a line's rounding.
LEAST_SHORT = 0.6
# Room left under the last line for rounding (CSS px).
SAFETY = 1.0


def justify(document: Any) -> list[float]:
    """Share out the white at the foot of each page of ``document`` (a laid-out booklet)
    whose running text goes on overleaf, between its blocks; the page's links, anchors and
    bookmarks are gathered again where its blocks moved. Returns the white (CSS px) each
    page was given, in the order of the pages (0 where it was left as it is)."""
    from weasyprint.anchors import gather_anchors

    pages = document.pages
    if not pages:
        return []
    kinds = block_kinds(pages[0]._page_box.children[0].element)
    given = []
    for page, after in zip(pages, [*pages[1:], None], strict=True):
        units = _units(page._page_box, kinds)
        shared = 0.0
        if units and after is not None and _units(after._page_box, kinds) and _running(page):
            shared = _share(page._page_box, units)
        if shared:
            page.anchors, page.links, page.bookmarks = {}, [], []
            page.forms = {None: []}
            gather_anchors(page._page_box, page.anchors, page.links, page.bookmarks, page.forms)
        given.append(shared)
    return given


def _running(page: Any) -> bool:
    """Whether ``page`` is one of running text: not a back cover, a page to
    write on, the score sheet, nor the page that ends the text with the printing box."""
    if page._page_box.page_type.name in ("back", "sheet"):
        return False
    stack = [page._page_box]
    while stack:
        box = stack.pop()
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        if {"notes-page", "colophon", "notes-tail"} & set(classes):
            return False
        stack.extend(getattr(box, "children", ()))
    return True


# A block of the page that may move down: its box, and how much the white over it may grow
# (in lines).
Unit = tuple[Any, float]


def _units(page_box: Any, kinds: dict[Any, Any]) -> list[Unit]:
    """The blocks of a chapter on a page, in order, a list taken item by item, each with how
    much the white over it may grow."""
    found: list[Unit] = []

    def walk(box: Any) -> None:
        kind = kinds.get(box.element)
        if kind is None:
            for child in getattr(box, "children", ()):
                walk(child)
            return
        growth = 0.0 if kind.after_heading else GROWTH_BLOCK if kind.breakable else GROWTH_KEPT
        if box.element_tag in ("ul", "ol"):
            items = [child for child in box.children if child.element_tag == "li"]
            found.extend((item, growth if i == 0 else GROWTH_ITEM) for i, item in enumerate(items))
        else:
            found.append((box, growth))

    walk(page_box)
    return found


def _share(page_box: Any, units: list[Unit]) -> float:
    """Move the blocks of a page down, sharing out the white at its foot between them, where
    they can take it all (a page they cannot fill keeps its spacing: print review 37 found
    pages both loosened and short the oddest of all); the white shared (CSS px)."""
    foot = page_box.content_box_y() + page_box.height
    bottom = max(box.position_y + box.margin_top + box.border_height() for box, _ in units)
    white = foot - bottom - SAFETY
    line = _line_height(page_box)
    growths = [growth for _, growth in units[1:]]
    if white < LEAST_SHORT * line or white > sum(growths) * line:
        return 0.0
    shift = 0.0
    for (box, _), growth in zip(units[1:], growths, strict=True):
        shift += white * growth / sum(growths)
        box.translate(0, shift)
    return shift


def _line_height(page_box: Any) -> float:
    """The height of the first line of text on a page (CSS px)."""
    from weasyprint.formatting_structure import boxes

    stack = [page_box]
    while stack:
        box = stack.pop(0)
        if isinstance(box, boxes.LineBox) and box.element_tag == "p":
            return float(box.height)
        stack.extend(getattr(box, "children", ()))
    return 18.0
