"""Pages set to their foot: a page of running text that ends a little short, because what
follows is kept together overleaf (a table, a picture, a heading with its first lines, a
paragraph's last lines), has its white shared out between its blocks, as a book is set
(vertical justification), where they can take it all at a tenth of a line each; a page
that would need more keeps its spacing, and so does a page whose facing page ends short."""

from __future__ import annotations

from typing import Any, NamedTuple

from sheetgen.booklet.flow import block_kinds

# How much the white over a block may grow, in lines of the text: a tenth of a line (1.5 pt)
# between blocks, half that between a list's items and between blocks the style sheet
# keeps together (a lead-in and its list), never between a heading and its text (print
# review 37: up to two lines over a heading made pages look loose beside tight ones;
# review 38: half a line still showed; review 39: 3.4 pt still did, and asked for 1.5).
GROWTH_BLOCK = 0.1
GROWTH_KEPT = 0.05
GROWTH_ITEM = 0.05
# A page ending less than this short (in lines) is left as it is: its last line is where
# a full page's would be, give or take a line's rounding.
LEAST_SHORT = 0.6
# Room left under the last line for rounding (CSS px).
SAFETY = 1.0


def justify(document: Any, *, spreads: bool = False) -> list[float]:
    """Share out the white at the foot of each page of ``document`` (a laid-out booklet)
    whose running text goes on overleaf, between its blocks, where they can take it all;
    with ``spreads`` (a booklet read two pages at a time: 2 and 3, 4 and 5...) only where
    the facing page ends at its foot too, or is set to it (print review 38: a page set to
    its foot beside one ending 40 to 133 pt short; review 39 found the same on flat ones).
    The page's links, anchors and bookmarks are gathered again where its blocks moved.
    Returns the white (CSS px) each page was given, in the order of the pages (0 where it
    was left as it is)."""
    from weasyprint.anchors import gather_anchors

    pages = document.pages
    if not pages:
        return []
    kinds = block_kinds(pages[0]._page_box.children[0].element)
    units = [_units(page._page_box, kinds) for page in pages]
    plans = [
        _plan(page, found, bool(after))
        for page, found, after in zip(pages, units, [*units[1:], []], strict=True)
    ]
    given = []
    for index, (page, plan) in enumerate(zip(pages, plans, strict=True)):
        facing = index + 1 if index % 2 else index - 1  # page 2 (index 1) faces page 3
        shared = 0.0
        if plan.fits and (not spreads or index == 0 or _level(plans, facing)):
            shared = _share(plan)
        if shared:
            page.anchors, page.links, page.bookmarks = {}, [], []
            page.forms = {None: []}
            gather_anchors(page._page_box, page.anchors, page.links, page.bookmarks, page.forms)
        given.append(shared)
    return given


# A block of the page that may move down: its box, and how much the white over it may grow
# (in lines).
Unit = tuple[Any, float]


class _Plan(NamedTuple):
    """A page as justify finds it: its blocks, the white at its foot (CSS px), and the white
    its blocks may take between them; ``running`` where it is a page of text that goes on."""

    units: list[Unit]
    white: float
    room: float
    line: float
    running: bool

    @property
    def at_foot(self) -> bool:
        return self.white < LEAST_SHORT * self.line

    @property
    def fits(self) -> bool:
        return self.running and not self.at_foot and self.white <= self.room


def _plan(page: Any, units: list[Unit], followed: bool) -> _Plan:
    """How ``page`` ends, and what its blocks (``units``) may take; ``followed`` where the
    next page holds running text too."""
    if not units:
        return _Plan([], 0.0, 0.0, 1.0, False)
    box = page._page_box
    foot = box.content_box_y() + box.height
    bottom = max(unit.position_y + unit.margin_top + unit.border_height() for unit, _ in units)
    line = _line_height(box)
    room = sum(growth for _, growth in units[1:]) * line
    return _Plan(units, foot - bottom - SAFETY, room, line, followed and _running(page))


def _level(plans: list[_Plan], index: int) -> bool:
    """Whether the page at ``index`` ends level with a page set to its foot: it ends there
    too, is set there, or is no page of text (a page to write on, the back cover)."""
    if index >= len(plans) or not plans[index].units:
        return True
    plan = plans[index]
    return plan.at_foot or plan.fits


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


def _share(plan: _Plan) -> float:
    """Move the blocks of a page down, sharing out the white at its foot between them; the
    white shared (CSS px)."""
    growths = [growth for _, growth in plan.units[1:]]
    shift = 0.0
    for (box, _), growth in zip(plan.units[1:], growths, strict=True):
        shift += plan.white * growth / sum(growths)
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
