"""Read a rules booklet back as a reader meets it: pages in reading order, how full each is.

The measures follow the project's page-check tool (../shared/tools/page-check): a page's
fill is the share of its height from its first to its last mark, page numbers left out;
the body size is the commonest glyph size; a heading is a line set well above it. A folded
booklet's sides are cut into their half pages and put back in reading order with the
saddle-stitch order, so its blank pages and page numbers can be checked where they fall.
"""

from __future__ import annotations

import ctypes
import itertools
import re
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pdfplumber.utils.text import chars_to_textmap

from sheetgen.booklet.mends import LINES_UNDER_HEADING

# A page at least this full, from its first mark to its last, is worth its sheet.
MIN_FILL = 0.25
MIN_GLYPH = 6.95
HEADING_OVER_BODY = 1.2
# A line from the command line's world: "sheetgen rules", "--layout", "-o file".
COMMAND_LINE = re.compile(r"\bsheetgen\s+[a-z]|(?<![\w-])--[a-z]|(?<![\w-])-o\s")
LEADER = re.compile(r"(\.\s?){4,}")


@dataclass
class Line:
    text: str
    top: float
    bottom: float
    size: float
    x0: float = 0.0
    x1: float = 0.0
    # The widest space between two of its letters: wide where the line crosses table cells.
    widest_gap: float = 0.0


@dataclass
class Page:
    """One page as printed: its lines (page number included) and its height."""

    lines: list[Line]
    height: float
    landscape: bool = False
    number: str | None = field(default=None)

    @property
    def content(self) -> list[Line]:
        return [line for line in self.lines if not line.text.strip().isdigit()]

    @property
    def blank(self) -> bool:
        return not self.lines

    @property
    def fill(self) -> float:
        content = self.content
        if not content:
            return 0.0
        return (max(line.bottom for line in content) - min(line.top for line in content)) / (
            self.height
        )

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    @property
    def last_line(self) -> Line | None:
        content = self.content
        return max(content, key=lambda line: line.bottom) if content else None


Char = dict[str, Any]


def page_chars(page: pdfium.PdfPage, *, fonts: bool = False) -> list[Char]:
    """The page's characters as pdfplumber (pdfminer) describes them, read with pdfium
    (several times quicker): text, x0 and x1 from the glyph's advance, bottom from the
    font's descent, top one font size above it, size the effective font size; a ligature
    is one character with all its letters, and pdfium's own spaces and line ends are left
    out. pdfium reports a hyphen that ends a line as U+0002 and a character beyond the BMP
    as its two UTF-16 halves. With ``fonts``, each character's ``fontname`` too (its font's
    PostScript name, "ABCDEF+DejaVu-Sans-Bundled-Bold" say)."""
    height = page.get_height()
    name = ctypes.create_string_buffer(256)
    textpage = page.get_textpage()
    box = pdfium_c.FS_RECTF()
    matrix = pdfium_c.FS_MATRIX()
    chars: list[Char] = []
    try:
        handle = textpage.raw
        for index in range(textpage.count_chars()):
            if pdfium_c.FPDFText_IsGenerated(handle, index):
                continue
            code = pdfium_c.FPDFText_GetUnicode(handle, index)
            if 0xDC00 <= code <= 0xDFFF and chars and "\ud800" <= chars[-1]["text"][-1] <= "\udbff":
                # The second half of a character beyond the BMP (an emoji), as UTF-16 has it.
                high = ord(chars[-1]["text"][-1])
                chars[-1]["text"] = chars[-1]["text"][:-1] + chr(
                    0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                )
                continue
            text = "-" if code == 2 else chr(code)
            pdfium_c.FPDFText_GetLooseCharBox(handle, index, ctypes.byref(box))
            pdfium_c.FPDFText_GetMatrix(handle, index, ctypes.byref(matrix))
            size = pdfium_c.FPDFText_GetFontSize(handle, index) * abs(matrix.d)
            bottom = height - box.bottom
            if chars and (chars[-1]["x0"], chars[-1]["x1"], chars[-1]["bottom"]) == (
                box.left,
                box.right,
                bottom,
            ):
                chars[-1]["text"] += text  # the next letter of a ligature
                continue
            chars.append(
                {
                    "text": text,
                    "x0": box.left,
                    "x1": box.right,
                    "top": bottom - size,
                    "bottom": bottom,
                    "doctop": bottom - size,
                    "size": size,
                    "upright": True,
                }
            )
            if fonts:
                pdfium_c.FPDFText_GetFontInfo(handle, index, name, len(name), None)
                chars[-1]["fontname"] = name.value.decode("latin-1")
    finally:
        textpage.close()
    return chars


def read_chars(
    pdf: bytes, sides: list[int] | None = None, *, fonts: bool = False
) -> list[tuple[list[Char], float, float]]:
    """Each page's characters (``page_chars``, with their fonts if ``fonts``), width and
    height; only the pages numbered ``sides`` (from 1, as ``pages_with`` gives them) where
    given."""
    document = pdfium.PdfDocument(pdf)
    try:
        pages = []
        for number in sides or range(1, len(document) + 1):
            page = document[number - 1]
            pages.append((page_chars(page, fonts=fonts), page.get_width(), page.get_height()))
            page.close()
    finally:
        document.close()
    return pages


def chars_text(chars: list[Char]) -> str:
    """The text pdfplumber's ``Page.extract_text()`` makes of these characters."""
    return chars_to_textmap(chars).as_string if chars else ""


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text as pdfplumber's ``extract_text()`` reads it, read with pdfium."""
    return [chars_text(chars) for chars, _, _ in read_chars(pdf)]


def _cropped(chars: list[Char], x0: float, x1: float) -> list[Char]:
    """The characters that reach into the band from ``x0`` to ``x1``, cut to it."""
    kept = []
    for char in chars:
        left, right = max(char["x0"], x0), min(char["x1"], x1)
        if left < right:
            kept.append({**char, "x0": left, "x1": right})
    return kept


def text_lines(chars: list[Char], width: float, height: float) -> list[dict[str, Any]]:
    """The lines pdfplumber's ``extract_text_lines`` finds among ``chars`` (each with its
    ``text`` and ``chars``)."""
    if not chars:
        return []
    textmap = chars_to_textmap(
        chars, layout_bbox=(0, 0, width, height), layout_width=width, layout_height=height
    )
    lines: list[dict[str, Any]] = textmap.extract_text_lines(strip=True, return_chars=True)
    return lines


def halves(
    pages: list[tuple[list[Char], float, float]], *, folded: bool
) -> list[tuple[list[Char], float, float]]:
    """The pages as read (``read_chars``), each side of a folded booklet as its two halves."""
    if not folded:
        return pages
    return [
        (_cropped(chars, x0, x0 + width / 2), width / 2, height)
        for chars, width, height in pages
        for x0 in (0.0, width / 2)
    ]


def _lines(chars: list[Char], width: float, height: float) -> list[Line]:
    """The lines pdfplumber's ``extract_text_lines`` finds among ``chars``."""
    found = []
    for line in text_lines(chars, width, height):
        inked = [c for c in line["chars"] if c["text"].strip()]
        if inked:
            size = max(c["size"] for c in inked)
            gaps = [b["x0"] - a["x1"] for a, b in itertools.pairwise(inked)]
            found.append(
                Line(
                    line["text"],
                    line["top"],
                    line["bottom"],
                    size,
                    line["x0"],
                    line["x1"],
                    max(gaps, default=0.0),
                )
            )
    return found


def _foot_number(lines: list[Line], height: float) -> str | None:
    low = [line for line in lines if line.top > height * 0.9 and line.text.strip().isdigit()]
    return low[0].text.strip() if low else None


def read_pages(pdf: bytes, *, folded: bool) -> list[Page]:
    """The booklet's pages in reading order; in a folded booklet blanks are empty pages."""
    pages = read_chars(pdf)
    if not folded:
        return [_page(chars, width, height, width > height) for chars, width, height in pages]
    # The sides come first, then the score sheet (landscape, whole) if there is one.
    sides = len(pages) - (1 if _is_whole_sheet(*pages[-1]) else 0)
    halves: dict[int, Page] = {}
    last = sides * 2 - 1
    for k in range(sides // 2):
        front, back = pages[2 * k], pages[2 * k + 1]
        for (chars, width, height), (left, right) in (
            (front, (last - 2 * k, 2 * k)),
            (back, (2 * k + 1, last - 2 * k - 1)),
        ):
            halves[left] = _page(_cropped(chars, 0, width / 2), width / 2, height, False)
            halves[right] = _page(_cropped(chars, width / 2, width), width / 2, height, False)
    reading = [halves[index] for index in range(sides * 2)]
    if sides < len(pages):
        chars, width, height = pages[-1]
        reading.append(_page(chars, width, height, True))
    return reading


def _is_whole_sheet(chars: list[Char], width: float, height: float) -> bool:
    """The score sheet after a folded booklet: text crosses the middle of the sheet."""
    middle = width / 2
    return any(c["x0"] < middle < c["x1"] for c in chars)


def _page(chars: list[Char], width: float, height: float, landscape: bool) -> Page:
    lines = _lines(chars, width, height)
    return Page(lines, height, landscape, _foot_number(lines, height))


def body_size(pages: list[Page]) -> float:
    sizes = [round(line.size, 1) for page in pages for line in page.lines]
    return float(statistics.mode(sizes))


def stranded(pages: list[Page]) -> list[str]:
    """Headings at a page's foot with fewer than LINES_UNDER_HEADING lines under them,
    their section running on to the next page (its first line no heading)."""
    body = body_size(pages)
    found = []
    for page, after in itertools.pairwise(pages):
        lines, next_lines = page.content, after.content
        heads = [line for line in lines if line.size > body + HEADING_OVER_BODY]
        if not heads or not next_lines or next_lines[0].size > body + HEADING_OVER_BODY:
            continue
        under = [line for line in lines if line.top > heads[-1].bottom - 1]
        if under and len(under) < LINES_UNDER_HEADING:
            found.append(f"{page.number}: {heads[-1].text} + {len(under)}")
    return found


def problems(pages: list[Page], *, folded: bool) -> list[str]:
    """What a typesetter would send back: near-empty pages, headings and lead-ins left
    at the foot of a page, a blank page, small text, and in a folded booklet a back cover
    that does not start with a heading."""
    found: list[str] = []
    body = body_size(pages)
    portrait = [index for index, page in enumerate(pages) if not page.landscape]
    last_portrait = portrait[-1]
    for index, page in enumerate(pages, start=1):
        name = f"page {index}"
        if page.blank:
            continue
        small = min(line.size for line in page.lines)
        if small < MIN_GLYPH:
            found.append(f"{name}: text at {small:.1f} pt")
        if index - 1 >= last_portrait:
            continue
        if page.fill < MIN_FILL:
            found.append(f"{name}: only {page.fill:.0%} full")
        last = page.last_line
        assert last is not None
        if last.size > body + HEADING_OVER_BODY:
            found.append(f"{name}: ends with a heading: {last.text!r}")
        if last.text.rstrip().endswith(":"):
            found.append(f"{name}: ends with a lead-in: {last.text!r}")
    blanks = [index + 1 for index, page in enumerate(pages) if page.blank]
    if blanks:
        # A reader takes a blank page for a printing fault: the folded booklet fills its
        # last sheet with ruled notes pages instead.
        found.append(f"blank pages {blanks}")
    if folded:
        back = pages[last_portrait]
        first = back.lines[0] if back.lines else None
        if first is None or first.size < body + HEADING_OVER_BODY:
            found.append(f"the back cover starts mid-text: {first.text if first else ''!r}")
    return found


def body_lines(pages: list[Page]) -> list[str]:
    """Lines of running text: body size, not a contents line, longer than a short tail."""
    body = body_size(pages)
    return [
        line.text
        for page in pages
        if not page.landscape
        for line in page.lines
        if abs(line.size - body) < 0.3 and not LEADER.search(line.text) and len(line.text) > 30
    ]


def contents(pages: list[Page]) -> list[tuple[str, str]]:
    """The contents: (title, where) for each entry. They stand on the cover, or where a long
    list of house rules leaves the cover no room, whole on the page after it (the callers
    check that the last entry is the booklet's last part, so contents cut in two fail)."""
    for page in pages[:2]:
        entries = []
        for line in page.lines:
            # "where" is a page number or words: "back cover", "its own sheet", "Rückseite".
            found = re.match(
                r"^(.+?)\s*(?:\.\s?){2,}\s*(\d+|[A-Za-zÄÖÜäöüß][a-zäöüß ]+)$", line.text.strip()
            )
            if found:
                entries.append((found.group(1).strip(" ."), found.group(2)))
        if entries:
            return entries
    return []


# Words no line should end on when the sentence goes on: the articles and small numbers of
# the booklet's languages, and numbers in figures ("25 | points", "5 | Karten").
SHORT_WORD = re.compile(
    r"(?:\d+|a|an|the|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines"
    r"|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf)",
    re.IGNORECASE,
)


# A line may end on a short word where the word tied to it would leave the line more than
# this share of its measure short (sheetgen.booklet.flow.RAGGED, 0.15, read from the layout
# against the text block's edge; less here, where the edge is the page's longest line and a
# word's width is guessed from its letters: print review 19), and a letter of body type is
# taken as this many ems wide at the least.
RAGGED = 0.1
NARROWEST = 0.5


def _sentences_going_on(pages: list[Page]) -> Iterator[tuple[int, Line, Line, float]]:
    """Each line of running text whose sentence goes on at the next line, with its page's
    number, the next line, and where the page's lines end on the right. The next line goes
    on with the sentence when it follows at the page's usual line pitch and opens with a
    word (a new list item opens with a bullet or a figure). A line across a table's cells,
    or of the contents' leaders, is left out."""
    for number, page in enumerate(pages, start=1):
        lines = [line for line in page.lines if line.text.strip()]
        if len(lines) < 2:
            continue
        usual = statistics.mode(round(b.top - a.top, 1) for a, b in itertools.pairwise(lines))
        right = max(line.x1 for line in lines)
        for line, after in itertools.pairwise(lines):
            if (
                not LEADER.search(line.text)
                and line.widest_gap < line.size
                and abs(after.top - line.top - usual) < 0.6
                and abs(after.size - line.size) < 0.3
                and re.match(r"[^\W\d_]", after.text.split()[0])
            ):
                yield number, line, after, right


def stranded_short_words(pages: list[Page]) -> list[str]:
    """Lines of running text that end on an article or a number while their sentence goes
    on at the next line, e.g. "... Eine" / "Karte ..." or "... 25" / "Punkte". A line was
    broken there when the next line's first word would not have fitted after it; it may be
    where that word kept with it would leave the line more than RAGGED short (the tie
    loosened)."""
    found = []
    for number, line, after, right in _sentences_going_on(pages):
        words, opening = line.text.split(), after.text.split()[0]
        fits = line.x1 + (len(opening) + 1) * 0.6 * line.size < right
        without = line.x1 - (len(words[-1]) + 1) * NARROWEST * line.size
        loosened = right - without > RAGGED * (right - line.x0)
        if SHORT_WORD.fullmatch(words[-1]) and not fits and not loosened:
            found.append(f"page {number}: {line.text!r} / {after.text!r}")
    return found


# A line of running text this much short of its measure where the word that opens the
# next would have fitted is a hole in the rag (the layout's own RAGGED, 0.15, read exactly;
# a little more here, where a word's width is guessed from its letters).
HOLE = 0.18


# A paragraph's last word this long or longer may stand alone on its last line
# (sheetgen.booklet.flow.ALONE).
ALONE = 8


def ragged_ties(pages: list[Page], *, last_words: bool = True) -> list[str]:
    """Lines of running text that end more than HOLE short of the measure where the next
    line opens with an article or a number that would have fitted after them: a tie that
    took its word over to the next line left a hole in the rag. A paragraph's last two
    words, kept together, count only where the last is ALONE letters or more (print review
    21: "für / alle gemeinsam."), and only if ``last_words``: the layout loosens them only
    on the first short line of a paragraph, and a paragraph set anew may end so."""
    found = []
    for number, line, after, right in _sentences_going_on(pages):
        words = after.text.split()
        gap = right - line.x1
        last = len(words) == 2 and words[-1][-1] in ".!?:"
        if (
            (SHORT_WORD.fullmatch(words[0]) or (last and last_words))
            and not (last and len(re.sub(r"\W", "", words[-1])) < ALONE)
            and gap > HOLE * (right - line.x0)
            and gap > (len(words[0]) + 1) * 0.62 * line.size  # as the layout guesses a width
        ):
            found.append(f"page {number}: {line.text!r} / {after.text!r}")
    return found


def early_hyphens(pages: list[Page]) -> list[str]:
    """Lines of running text (the page's usual size: a caption keeps a narrower measure)
    that end in a hyphen the hyphenation made (U+2010) short of the measure: a word is
    broken only where the line is full. Weasyprint once set "Schachtel. Sie ent-" alone on
    a line of the German board game's quick reference, a third as wide as the rest."""
    found = []
    for number, page in enumerate(pages, start=1):
        lines = [line for line in page.lines if line.text.strip()]
        if not lines:
            continue
        size = statistics.mode(round(line.size, 1) for line in lines)
        running = [line for line in lines if abs(line.size - size) < 0.3]
        left = min(line.x0 for line in running)
        right = max(line.x1 for line in running)
        found += [
            f"page {number}: {line.text!r}"
            for line in running
            if line.text.rstrip().endswith("\u2010")
            and line.x1 < left + 0.75 * (right - left)
            and line.widest_gap < line.size  # not a table's narrow cell
        ]
    return found


def lone_first_words(pages: list[Page]) -> list[str]:
    """A line of one word (a list item's bullet aside) whose sentence goes on, lower case,
    on the next line of the same size: weasyprint once left "• Nichts" so on a cover, the
    rest of the item on the next line, where it had room."""
    found = []
    for number, page in enumerate(pages, start=1):
        lines = [line for line in page.content if line.text.strip()]
        for line, after in itertools.pairwise(lines):
            words = [word for word in line.text.split() if word not in ("•", "◦", "-")]
            if (
                len(words) == 1
                and abs(after.size - line.size) < 0.3
                and after.text[:1].islower()
                and line.x1 - line.x0 < 0.4 * (after.x1 - after.x0)
                and abs(after.x0 - line.x0) < 15  # the same block, not a picture's labels
                and max(line.widest_gap, after.widest_gap) < line.size  # nor a table's cells
            ):
                found.append(f"page {number}: {line.text!r} / {after.text!r}")
    return found


def broken_ends(pages: list[Page], *, folded: bool) -> list[str]:
    """A paragraph's last word hyphenated, its tail alone on the last line ("loszuwer-" /
    "den."), and a range of numbers broken at its dash ("9–" / "12"); a folded booklet's
    back cover left out (its quick reference is fitted to that one page as it is set)."""
    found = []
    portrait = [page for page in pages if not page.landscape]
    for number, page in enumerate(portrait[:-1] if folded else portrait, start=1):
        lines = [line.text.strip() for line in page.content if line.text.strip()]
        for line, after in itertools.pairwise(lines):
            if line.endswith("\u2010") and re.fullmatch(r"\w+[.!?:;)\u201c\u201d]*", after):
                found.append(f"page {number}: {line!r} / {after!r}")
            if re.search(r"\d[\u2013-]$", line) and after[:1].isdigit():
                found.append(f"page {number}: {line!r} / {after!r}")
    return found


@dataclass
class ContentsRow:
    """One entry of the contents as printed: where its title ends, the left edges of its
    leader dots, and where its page number (or "back cover") starts and ends."""

    title: str
    title_end: float
    dots: list[float]
    where: str
    where_start: float
    where_end: float
    size: float


def contents_rows(pdf: bytes, *, folded: bool) -> list[ContentsRow]:
    """The contents entries as printed: on the cover, or whole on the page after it (the
    cover is the right half of a folded booklet's first side, the page after it the left
    half of its second)."""
    document = pdfium.PdfDocument(pdf)
    try:
        for index in (0, 1):
            side = document[index]
            width, height = side.get_width(), side.get_height()
            chars = page_chars(side)
            if folded:
                chars = _cropped(chars, *((width / 2, width) if index == 0 else (0, width / 2)))
            rows = _contents_rows(chars, width, height)
            if rows:
                return rows
    finally:
        document.close()
    return []


def _contents_rows(chars: list[Char], width: float, height: float) -> list[ContentsRow]:
    rows = []
    if not chars:
        return rows
    textmap = chars_to_textmap(
        chars, layout_bbox=(0, 0, width, height), layout_width=width, layout_height=height
    )
    for line in textmap.extract_text_lines(strip=True, return_chars=True):
        inked = [c for c in line["chars"] if c["text"].strip()]
        # From the right: the page number or words, then the run of leader dots.
        end = len(inked)
        while end and inked[end - 1]["text"] != ".":
            end -= 1
        start = end
        while start and inked[start - 1]["text"] == ".":
            start -= 1
        if end - start < 4 or start == 0 or end == len(inked):
            continue
        rows.append(
            ContentsRow(
                "".join(c["text"] for c in inked[:start]),
                float(inked[start - 1]["x1"]),
                [float(c["x0"]) for c in inked[start:end]],
                "".join(c["text"] for c in inked[end:]),
                float(inked[end]["x0"]),
                float(inked[-1]["x1"]),
                float(inked[start]["size"]),
            )
        )
    return rows


def side_texts(pdf: bytes) -> list[str]:
    """Each side's text as pdfium reads it (quickly), in the order it is drawn: lines end
    with CR LF, and a hyphen of the text that ends a line is U+FFFE, with no line end."""
    document = pdfium.PdfDocument(pdf)
    try:
        texts = []
        for side in document:
            textpage = side.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
        return texts
    finally:
        document.close()


def pages_with(pdf: bytes, *words: str) -> list[int]:
    """The numbers (from 1, as pdfplumber's ``pages=`` takes them) of the pages whose text,
    read quickly with pdfium, holds one of ``words``: pdfplumber reads a page slowly, and a
    check that looks only at such pages need not have it read the others."""
    return [
        number
        for number, text in enumerate(side_texts(pdf), start=1)
        if any(word in text for word in words)
    ]


def dashed_sides(pdf: bytes) -> list[int]:
    """The sides (numbered from 0) that draw a dashed line anywhere, inside the forms a
    folded booklet's pages are too: read quickly with pdfium, so that pdfplumber, which
    reads a page slowly, need read only these."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [
            index
            for index, side in enumerate(document)
            if any(
                pdfium_c.FPDFPageObj_GetDashCount(path.raw) > 0
                for path in side.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH])
            )
        ]
    finally:
        document.close()


def heading_cells(pdf: bytes, headings: set[str]) -> list[str]:
    """The text of each table's column headings as printed, line breaks kept: every run of
    two or more of ``headings`` printed one after another with nothing but white space
    between them, as a header row is (a drawing or a sentence that names one heading is
    left out). Read with pdfium: a table is drawn cell by cell, so a heading's lines
    follow each other in the page's text however the row wraps, and a heading broken
    inside a word shows a hyphen before its line break."""

    def pattern(heading: str) -> str:
        # Between two letters of a word a line may break after a hyphen (or without one);
        # between two words, at any white space.
        breaks = r"(?:[\u2010\u00ad-]?\n)?"
        words = [breaks.join(re.escape(letter) for letter in word) for word in heading.split()]
        return r"\s+".join(words)

    longest_first = sorted(headings, key=len, reverse=True)
    any_heading = re.compile(
        r"(?<!\w)(?:" + "|".join(f"({pattern(h)})" for h in longest_first) + r")(?!\w)"
    )
    found = []
    for side in side_texts(pdf):
        text = side.replace("\r\n", "\n").replace("\ufffe", "-\n")
        row: list[re.Match[str]] = []
        for match in [*any_heading.finditer(text), None]:
            if match is not None and row and not text[row[-1].end() : match.start()].strip():
                row.append(match)
                continue
            if len({cell.lastindex for cell in row}) >= 2:
                found += [cell.group() for cell in row]
            row = [] if match is None else [match]
    return found


def cell_words(cell: str) -> str:
    """A heading cell's words as written: a hyphen the line break added is dropped, one
    the word has is kept."""
    return " ".join(re.sub(r"[\u2010\u00ad]\n", "", cell).replace("-\n", "-").split())


def leader_problems(rows: list[ContentsRow]) -> list[str]:
    """What is uneven about the contents' leaders: dots off the one grid they share, a dot
    that touches its title, rows of dots that end at different places before their page
    numbers, page numbers not right-aligned in one column."""
    found = []
    pitch = statistics.median(b - a for row in rows for a, b in itertools.pairwise(row.dots))
    origin = rows[0].dots[-1]
    for row in rows:
        if row.dots[0] - row.title_end < 0.4 * row.size:
            found.append(f"{row.title}: the first dot touches the title")
        steps = [(x - origin) / pitch for x in row.dots]
        if any(abs(step - round(step)) * pitch > 0.3 for step in steps):
            found.append(f"{row.title}: dots off the grid")
    numbered = [row for row in rows if row.where.isdigit()]
    if max(r.dots[-1] for r in numbered) - min(r.dots[-1] for r in numbered) > 0.3:
        found.append("the rows of dots end at different places")
    if max(r.where_end for r in rows) - min(r.where_end for r in rows) > 0.3:
        found.append("the page numbers are not right-aligned in one column")
    return found


def _squeezed(text: str) -> str:
    """Text without its white space or hyphens (a line break may add one: U+2010, a soft
    hyphen, or "-" as pdfium reads it)."""
    return re.sub(r"[\s\u2010\u00ad-]", "", text)


def example_and_sum(html: str) -> tuple[str, str] | None:
    """The worked example's table (its last row) and the sentence after it that sums it up,
    as the booklet's HTML has them; None when the booklet has no such table."""
    from html import unescape

    found = re.search(
        r"<table>((?:(?!</table>).)*(?:Cards left|Karten übrig)(?:(?!</table>).)*)</table>"
        r"\s*<p>(.*?)</p>",
        html,
        flags=re.DOTALL,
    )
    if found is None:
        return None

    def text(part: str) -> str:
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", part)).split())

    last_row = text(found.group(1).rsplit("<tr>", 1)[1])
    sentence = re.match(r"(.+?[.!?])(?:\s|$)", text(found.group(2)))
    assert sentence is not None
    return last_row, sentence.group(1)


def pages_holding(pages: list[Page], text: str) -> list[int]:
    """The pages (1-based, reading order) whose text holds ``text`` whole."""
    wanted = _squeezed(text)
    return [
        number
        for number, page in enumerate(pages, start=1)
        if wanted in _squeezed("".join(line.text for line in page.content))
    ]


def example_split(pages: list[Page], html: str) -> str | None:
    """The worked example's table and its summing sentence when they are not on one page."""
    example = example_and_sum(html)
    if example is None:
        return None
    row, sentence = example
    row_pages, sentence_pages = pages_holding(pages, row), pages_holding(pages, sentence)
    if not row_pages or row_pages[-1:] != sentence_pages[:1]:
        return f"{row!r} on {row_pages}, {sentence!r} on {sentence_pages}"
    return None


def strip_wants_room(pages: list[Page], ends: int, strip: int, caption: str) -> bool:
    """Whether the card strip opening page ``strip`` (its caption's first line starting with
    ``caption``, spaces left out) is taller, down to that line, than the white page ``ends``
    leaves under its text, measured against the fullest page: why it went over."""
    text = [page.content for page in pages if page.content and not page.landscape]
    fullest = max(lines[-1].bottom - lines[0].top for lines in text)
    lines, opened = pages[ends].content, pages[strip].content
    white = fullest - (lines[-1].bottom - lines[0].top)
    under = next(line for line in opened if re.sub(r"\s+", "", line.text).startswith(caption))
    return white < under.bottom - opened[0].top
