"""How the running text falls on its pages: a layout measured, the flow the next should have."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sheetgen.booklet.markdown import NO_BREAK_SPACE, SHORT_WORDS

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


# The attribute that numbers the chapters' blocks (number_blocks), which a page break names,
# and the one that numbers the references to a heading (Flow.near).
BLOCK = "data-block"
XREF = "data-xref"
# Figures set further on: each the number of a figure and of the block it follows instead.
Moves = tuple[tuple[int, int], ...]


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
    # The quick reference set closer on the back cover, tried before it runs on.
    back_closer: bool = False
    # Ruled lines under the last page of text where it ends short (pdf._ruled_tail).
    tail: int = 0
    # Words never hyphenated, because a layout broke them across a page turn.
    whole: tuple[str, ...] = ()
    # The cover's fan of cards, left off only where the box of choices would not fit on
    # the cover with it.
    motif: bool = True
    # A folded booklet's own suggestions set under its contents, in a box of their own,
    # rather than in the cover's box of choices, which would leave the fan no room.
    suggestions_apart: bool = False
    # The white (in inches) under a folded booklet's cover that its fan is given: the fan
    # grows into it and stands in the middle of the rest (html.motif_size).
    cover_room: float = 0.0
    # References to a heading on their own page (their numbers, ``number_blocks``), each
    # with where the heading stands: "below" or "above" instead of the page.
    near: tuple[tuple[int, str], ...] = ()
    # Figures and tables (their numbers, ``number_blocks``) set free of the block before
    # them, so that it ends its page: a card strip of the list it shows (its last lines,
    # ``mends.held_strips``), an example's drawing or table of its lead-in
    # (``mends.held_examples``).
    free: tuple[int, ...] = ()
    # The pages of the file as last laid out (the score sheet's too), which the printing
    # box names (print review 23); 0 before the first layout.
    pages: int = 0


PLAIN = Flow()


class Block(NamedTuple):
    """A block of a chapter (a heading, paragraph, list, table or figure) that starts on a
    page: where its first line stands, as a share of the page's height."""

    selector: str
    top: float
    heading: bool
    # Whether a page may start here: not after a heading or a lead-in it belongs to, nor
    # inside a chapter kept on one page.
    breakable: bool
    # Its number (``number_blocks``), whether it is a figure (a drawing with its caption, or
    # a table, each kept whole), and where its last line on this page ends (the page's foot
    # if it runs on to the next).
    number: int = 0
    figure: bool = False
    bottom: float = 0.0
    # Whether it may run on to the next page (a paragraph, a list).
    splittable: bool = False
    # The chapter (h2 section) it stands in, counted from the first, and whether it opens
    # that chapter (its heading, which never moves).
    chapter: int = 0
    opens: bool = False
    # Whether it is a card strip kept with the list before it (``_strip``), and whether it
    # is the table picture, which illustrates its whole chapter.
    strip: bool = False
    picture: bool = False
    # Whether it is a table, which the text after it may name: it moves only past whole
    # sections (figures.figure_moves).
    table: bool = False


@dataclass
class Page:
    """One page of the running text as laid out: its lines (as shares of its height, top
    and bottom) and the chapter blocks that start on it."""

    cover: bool
    lines: list[tuple[float, float]] = field(default_factory=list)
    starts: list[Block] = field(default_factory=list)
    # Whether it holds (a part of) the cover's box of choices.
    choices: bool = False
    # Where the page's text area ends, as a share of its height.
    foot: float = 1.0
    # Whether it opens with the printing box: the text ended on the page before, and what
    # follows the box on this page is to write on (a folded booklet's box may open a page).
    closing: bool = False

    @property
    def top(self) -> float:
        return min(start for start, _ in self.lines)

    @property
    def bottom(self) -> float:
        return max(end for _, end in self.lines)

    @property
    def fill(self) -> float:
        return self.bottom - self.top

    @property
    def opens_with_heading(self) -> bool:
        """Whether a heading opens the page (the section before it ended on the page before)."""
        first = min(self.starts, key=lambda block: block.top, default=None)
        return first is not None and first.heading and first.top <= self.top + 1e-6


def _chapter_blocks(root: Any) -> list[tuple[Any, Any]]:
    """Each block of the running text's chapters (the back cover left out), in the order
    of the document, with the chapter it stands in."""
    body = next(child for child in root if child.tag == "body")
    found = []
    for section in body:
        if not isinstance(section.tag, str):
            continue
        classes = _classes(section)
        if "chapter" not in classes or "back-cover" in classes:
            continue
        found += [(child, section) for child in section if isinstance(child.tag, str)]
    return found


def number_blocks(root: Any, moves: Moves = ()) -> None:
    """Number the chapters' blocks of a parsed booklet (``data-block``), which the page
    breaks of a Flow name, then set each figure of ``moves`` after its block: the
    numbers stay with the blocks wherever a figure goes."""
    references = (a for a in root.iter("a") if "xref" in _classes(a))
    for number, reference in enumerate(references, start=1):
        reference.set(XREF, str(number))
    blocks = _chapter_blocks(root)
    by_number = {}
    for number, (block, _) in enumerate(blocks, start=1):
        block.set(BLOCK, str(number))
        by_number[number] = block
    parents = {block: section for block, section in blocks}
    for figure, after in moves:
        moved, anchor = by_number[figure], by_number[after]
        parents[moved].remove(moved)
        place = parents[anchor]
        place.insert(list(place).index(anchor) + 1, moved)
        parents[moved] = place


# What weasyprint sets at the end of a line it hyphenated.
HYPHEN = "\N{HYPHEN}"


def split_over_pages(document: Any) -> tuple[str, ...]:
    """The words a laid-out booklet hyphenates at the foot of a page, the rest of the word
    on the next (a reader turns the page mid-word), in the order of the pages."""
    from weasyprint.formatting_structure import boxes

    def lines(box: Any, found: list[tuple[float, str]]) -> list[tuple[float, str]]:
        if isinstance(box, boxes.MarginBox):
            return found
        if isinstance(box, boxes.LineBox):
            found.append((box.position_y, "".join(texts(box))))
            return found
        for child in getattr(box, "children", ()):
            lines(child, found)
        return found

    def texts(box: Any) -> list[str]:
        if isinstance(box, boxes.TextBox):
            return [box.text]
        return [text for child in getattr(box, "children", ()) for text in texts(child)]

    running = [
        sorted(lines(laid._page_box, []))
        for laid in document.pages
        if laid._page_box.page_type.name not in ("back", "sheet")
    ]
    words = []
    for this, after in itertools.pairwise(running):
        if not this or not after or not this[-1][1].endswith(HYPHEN):
            continue
        head = this[-1][1].split()[-1].rstrip(HYPHEN).replace("\xad", "")
        tail = re.match(r"[^\W\d_]*", after[0][1].lstrip().replace("\xad", ""))
        word = head + (tail.group(0) if tail else "")
        if head.isalpha() and word not in words:
            words.append(word)
    return tuple(words)


def nearby(document: Any) -> tuple[tuple[int, str], ...]:
    """The references (numbered by ``number_blocks``) of a laid-out booklet that stand on
    the same page as the heading they name, each with where that heading is: "below" or
    "above"."""
    references: dict[int, tuple[int, float, str]] = {}
    headings: dict[str, tuple[int, float]] = {}

    def walk(box: Any, page: int) -> None:
        element, tag = box.element, box.element_tag
        if tag == "a" and element.get(XREF) is not None:
            target = (element.get("href") or "").removeprefix("#")
            references.setdefault(int(element.get(XREF)), (page, box.position_y, target))
        elif tag in HEADINGS and element.get("id"):
            headings.setdefault(element.get("id"), (page, box.position_y))
        for child in getattr(box, "children", ()):
            walk(child, page)

    for page, laid in enumerate(document.pages):
        walk(laid._page_box, page)
    near = []
    for number, (page, top, target) in sorted(references.items()):
        heading = headings.get(target)
        if heading is not None and heading[0] == page:
            near.append((number, "below" if heading[1] > top else "above"))
    return tuple(near)


def _classes(element: Any) -> list[str]:
    """The classes of an element of the parsed booklet."""
    return (element.get("class") or "").split()


def _led_in(figure: Any, heading: Any) -> bool:
    """Whether a drawing is kept with the paragraph before it (the style sheet's rule):
    where that paragraph opens a subsection, as its lead-in, and the drawing is not the table
    picture (which a layout may set after any paragraph: figures.figure_moves)."""
    if figure.tag != "figure" or "picture" in _classes(figure):
        return False
    return getattr(heading, "tag", None) == "h3"


def _led_to(children: list[Any], index: int) -> bool:
    """Whether ``children[index]`` is a lead-in that the style sheet keeps with the one
    paragraph between it and its heading."""
    if index < 2:
        return False
    lead, paragraph, heading = children[index], children[index - 1], children[index - 2]
    return "lead-in" in _classes(lead) and paragraph.tag == "p" and heading.tag in ("h2", "h3")


# The class of a figure or table set free of the block before it (Flow.free).
FREE = "free"


def _strip(figure: Any) -> bool:
    """Whether ``figure`` is a card strip the style sheet keeps with the list before it."""
    return figure.tag == "figure" and "with-list" in _classes(figure)


class Kind(NamedTuple):
    """What the layout knows of one block of a chapter."""

    number: int  # its number (number_blocks)
    breakable: bool  # whether a page may start before it
    chapter: int  # its chapter: the section's place in the body
    opens: bool  # whether it opens its chapter
    after_heading: bool  # whether it follows a heading


def block_kinds(root: Any) -> dict[Any, Kind]:
    """Each block of the chapters of a parsed booklet, with its Kind."""
    body = next(child for child in root if child.tag == "body")
    sections = [child for child in body if isinstance(child.tag, str)]
    blocks: dict[Any, Kind] = {}
    for chapter, section in enumerate(sections):
        classes = _classes(section)
        if "chapter" not in classes or "back-cover" in classes:
            continue
        children = [child for child in section if isinstance(child.tag, str)]
        for index, child in enumerate(children):
            before = children[index - 1].tag if index else None
            previous = _classes(children[index - 1]) if index else []
            lead_in = "lead-in" in previous and child.tag in ("ul", "ol", "table")
            lead_in |= before == "p" and _led_in(child, children[index - 2] if index > 1 else None)
            lead_in &= FREE not in _classes(child)
            lead_in |= "follows-list" in _classes(child)
            lead_in |= before in ("ul", "ol") and _strip(child)
            lead_in |= _led_to(children, index)
            after_heading = before in HEADINGS
            breakable = "keep-together" not in classes and not after_heading and not lead_in
            number = int(child.get(BLOCK, "0"))
            blocks[child] = Kind(number, breakable, chapter, index == 0, after_heading)
    return blocks


def measure(html: Any, document: Any) -> list[Page]:  # long: one walk records every measure
    """The pages of running text of a laid-out booklet, in order (the back cover, a folded
    booklet's notes pages and the score sheet, which stand alone by design, are left out,
    as are page numbers); its blocks numbered by ``number_blocks``."""
    from weasyprint.formatting_structure import boxes

    body = next(child for child in html.etree_element if child.tag == "body")
    sections = [child for child in body if isinstance(child.tag, str)]
    blocks = block_kinds(html.etree_element)
    cover = sections[0] if sections and "cover" in (sections[0].get("class") or "") else None
    choices = None if cover is None else cover.find("section")
    notes = {section for section in sections if "notes-page" in (section.get("class") or "")}
    colophon = next((section for section in sections if "colophon" in _classes(section)), None)
    box_tops: dict[int, float] = {}  # where the printing box begins, by page

    Spans = dict[Any, tuple[float, float]]

    def walk(box: Any, block: Any, page: Page, spans: Spans, height: float) -> None:
        """Record the lines of ``box`` on ``page``, and where each chapter block's first
        line stands and its last ends."""
        if isinstance(box, boxes.MarginBox) or box.element in notes:
            return
        if cover is not None and box.element is cover:
            page.cover = True
        if choices is not None and box.element is choices:
            page.choices = True
        if colophon is not None and box.element is colophon:
            box_tops.setdefault(id(page), box.position_y / height)
        if box.element in blocks:
            block = box.element
        if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)) or box.element_tag == "svg":
            start = box.position_y / height
            end = start + box.margin_height() / height
            page.lines.append((start, end))
            if block is not None:
                top, bottom = spans.get(block, (start, end))
                spans[block] = (min(top, start), max(bottom, end))
            return
        for child in getattr(box, "children", ()):
            walk(child, block, page, spans, height)

    seen: set[Any] = set()
    pages = []
    for laid in document.pages:
        if laid._page_box.page_type.name in ("back", "sheet"):
            continue
        box = laid._page_box
        page = Page(cover=False, foot=(box.content_box_y() + box.height) / laid.height)
        spans: Spans = {}
        walk(laid._page_box, None, page, spans, laid.height)
        if not page.lines:
            continue
        for element, (top, bottom) in spans.items():
            if element not in seen:  # a block that began on an earlier page goes on here
                number, breakable, chapter, opens, _ = blocks[element]
                page.starts.append(
                    Block(
                        f'[{BLOCK}="{number}"]',
                        top,
                        element.tag in HEADINGS,
                        breakable,
                        number,
                        element.tag in ("figure", "table"),
                        bottom,
                        element.tag in SPLITTABLE,
                        chapter,
                        opens,
                        _strip(element),
                        "picture" in _classes(element),
                        element.tag == "table",
                    )
                )
        seen.update(spans)
        # The page of contents set apart, the text following them, is one of running text.
        page.cover = page.cover and not page.starts
        box = box_tops.get(id(page))
        page.closing = box is not None and all(start >= box - 1e-6 for start, _ in page.lines)
        pages.append(page)
    return pages


def refit(pages: list[Page], flow: Flow, *, thin: bool = False) -> Flow:
    """The flow a second layout should have, from the measurements of ``pages`` set in
    ``flow``: the same if nothing can be done.

    Contents that ran over from the cover (a long list of house rules) start a page of
    their own. A last page of running text emptier than MIN_FILL takes over the end of
    the page before it: a page break
    before one of that page's blocks (a heading if one fits), chosen so that both pages
    are well over MIN_FILL and the moved lines fit on the last page, as late as that
    allows: the page before keeps all the last page does not need. The pages before
    stay exactly as they were, so what the measurements promise holds. A break that
    would leave the page before less than FULL_BEFORE_LAST full is made only if ``thin``
    (where no other spacing helped): a spacing that pulls the last page back, or gives
    it more of its own, is tried first.
    """
    breaks = flow.breaks
    if sum(page.cover for page in pages) > 1 and CONTENTS_APART not in breaks:
        breaks = (*breaks, CONTENTS_APART)
    running = [page for page in pages if not page.cover]
    if len(running) > 1 and running[-1].fill < MIN_FILL and not running[-1].closing:
        capacity = max(page.fill for page in running)
        least = 0.0 if thin else FULL_BEFORE_LAST * capacity
        chosen = _balance(running[-2], running[-1], capacity, least)
        if chosen is not None:
            breaks = (*breaks, chosen)
    return flow._replace(breaks=breaks)


# The contents' heading on the cover, which refit may start a page with.
CONTENTS_APART = "body > .cover > .toc-title"


def contents_apart(breaks: tuple[str, ...]) -> tuple[str, ...]:
    """Of a flow's ``breaks``, the one that sets the contents apart (if it is there), not
    the balancing breaks, which belong to the spacing they were found in."""
    return tuple(selector for selector in breaks if selector == CONTENTS_APART)


# A heading that starts the moved part is preferred to a fuller page by up to this share.
HEADING_PREFERENCE = 0.1


def _balance(before: Page, last: Page, capacity: float, least: float) -> str | None:
    """The block of ``before`` to start a page with, so that ``last`` is full enough and
    ``before`` keeps at least ``least``."""
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
        if stays < least:
            continue
        # The page before keeps all it can: only what the last page needs moves on.
        score = stays + (HEADING_PREFERENCE if block.heading else 0.0)
        if best is None or score > best[0]:
            best = (score, block.selector)
    return None if best is None else best[1]


# The page before the last of the running text is at least this full, as a share of the
# fullest page, where a looser or tighter spacing allows it: a balancing break (refit) that
# leaves it emptier is kept only where no spacing does better (print review 27: at 0.7, a
# page left 74% as full, a quarter of it white, tried no other spacing).
FULL_BEFORE_LAST = 0.8


def thin_before_last(pages: list[Page]) -> bool:
    """Whether the page before the last of the running text is less than FULL_BEFORE_LAST
    full."""
    running = [page for page in pages if not page.cover]
    if len(running) < 2 or running[-1].closing:  # the text ends on the page before the box
        return False
    return running[-2].fill < FULL_BEFORE_LAST * max(page.fill for page in running)


def fills(pages: list[Page]) -> list[float]:
    """How full each page is; a page opening with the printing box counts as full (the rest
    of it is to write on)."""
    return [1.0 if page.closing else page.fill for page in pages]


# A page of running text less full than this share of the fullest is left part empty: a
# hole (print review 27: 105 to 119 pt, a fifth of the page, at the foot of three pages of
# the German booklet on Letter).
HOLE_SHARE = 0.85
# The blocks that may run on to the next page.
SPLITTABLE = frozenset({"p", "ul", "ol"})


# A line of running text that ends this much short of its measure (a share of it), because
# the words tied to the next line's first would not fit after it, is a hole in the rag: the
# tie is loosened (print review 19: "Hier sind sich die Regelblätter nicht einig: Nach" 29 %
# short, "den einen beginnt" tied on the next line).
RAGGED = 0.15
_SHORT = frozenset(SHORT_WORDS)
# A paragraph's last word of this many letters or more may stand alone on its last line.
ALONE = 8


def _text(box: Any) -> str:
    """The text a laid-out box holds, its children's in order."""
    from weasyprint.formatting_structure import boxes

    if isinstance(box, boxes.TextBox):
        return str(box.text)
    return "".join(_text(child) for child in getattr(box, "children", ()))


def _right(line: Any) -> float:
    """Where a laid-out line's ink ends on the right."""
    ends = (child.position_x + child.margin_width() for child in line.children)
    return float(max(ends, default=line.position_x))


def ragged_ties(document: Any) -> tuple[tuple[str, ...], ...]:
    """The ties (``typography.untied``) that leave a line of running text of ``document``
    more than RAGGED short: where the next line opens with words tied together (an article
    or a number to its word, a word to the one after its colon), the ties after those of
    them that would have fitted at the line's end, each named by the words before it and
    the word after it; the first such line of a paragraph only, and the tie of a
    paragraph's last two words only where the last is ALONE letters or more. Table cells,
    centred lines and the pages that are no running text (the back cover, the score
    sheet) are left out."""
    from weasyprint.formatting_structure import boxes

    Ties = list[tuple[str, ...]]
    found: Ties = []

    def short(word: str) -> bool:
        plain = word.replace("\xad", "").replace("\u2060", "")
        return plain.lower() in _SHORT or plain.isdigit() or plain.endswith(":")

    def ties(
        ending: str, opening: str, gap: float, size: float, measure: float, last: bool
    ) -> Ties:
        words = opening.split(" ", 1)[0].split(NO_BREAK_SPACE)
        # A paragraph's last two words are kept together (typography.whole_last_words): so
        # they stay, unless the last is long enough to stand alone on the last line (print
        # review 21: "für / alle gemeinsam." 22 % short).
        final = last and NO_BREAK_SPACE.join(words) == opening
        ends = final and len(re.sub(r"\W", "", words[-1])) < ALONE
        if len(words) < 2 + ends or not ending or ending.endswith(("-", "\xad")):
            return []
        # Each short word of the group that fits in the gap (at least 0.62 em a letter, and
        # a space) may end the line, while the line without it would still be more than
        # RAGGED short: its tie to the next is loosened, named by the words before it (the
        # line's, then the group's own: a sentence may stand twice in a booklet, on the
        # cover and in the text). The line's first word may be the end of a word hyphenated
        # on the line before: it names nothing.
        found: Ties = []
        before = re.split(f"[ {NO_BREAK_SPACE}]+", ending)[1:]
        if not before:
            return []
        for index, word in enumerate(words[: len(words) - 1 - ends]):
            width = (len(word) + 1) * size * 0.62
            runt = final and index == len(words) - 2  # the last word's tie
            if not (short(word) or runt) or gap <= RAGGED * measure or width > gap:
                break
            gap -= width
            found.append((*before, *words[: index + 2]))
        return found

    def walk(box: Any) -> None:
        if isinstance(box, (boxes.TableBox, boxes.MarginBox)):
            return
        children = getattr(box, "children", ())
        lines = [child for child in children if isinstance(child, boxes.LineBox)]
        if lines and box.style["text_align_all"] in ("start", "left", "justify"):
            # The first such line of a paragraph only: the lines after it are set anew once
            # its ties are loosened. Each line's text is read once.
            texts = [_text(line) for line in lines]
            end = box.content_box_x() + box.width
            for index, line in enumerate(lines[:-1]):
                gap, size = end - _right(line), lines[index + 1].style["font_size"]
                last = index == len(lines) - 2
                ending, opening = texts[index].rstrip(), texts[index + 1].strip()
                loose = ties(ending, opening, gap, size, box.width, last)
                if loose:
                    found.extend(loose)
                    break
        for child in children:
            if not isinstance(child, boxes.LineBox):
                walk(child)

    for laid in document.pages:
        if laid._page_box.page_type.name not in ("back", "sheet"):
            walk(laid._page_box)
    return tuple(dict.fromkeys(found))
