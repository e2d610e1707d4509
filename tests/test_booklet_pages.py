"""Every game's booklet read back page by page, as a typesetter would check the proofs.

Each game with its toggles, on Letter and A4, in both layouts: the official rules in all
four ways, each game's first other set of house rules once flat and once folded, and the
rest one way each, the ways taken in turn across the games. Each booklet is rendered once
per run and shared by the checks.
"""

from __future__ import annotations

import base64
import io
import itertools
import re
import statistics
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from conftest import Once, booklet_group
from pagecheck import (
    COMMAND_LINE,
    ContentsRow,
    Line,
    Page,
    body_lines,
    body_size,
    broken_ends,
    cell_words,
    contents,
    contents_rows,
    dashed_sides,
    early_hyphens,
    example_split,
    halves,
    heading_cells,
    leader_problems,
    lone_first_words,
    pages_with,
    problems,
    ragged_ties,
    read_chars,
    read_pages,
    stranded,
    stranded_short_words,
    strip_wants_room,
    text_lines,
)
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from sheetgen.booklet.build import render_html, rules_document
from sheetgen.booklet.imposition import half_paper
from sheetgen.booklet.pdf import FIGURE_ROUNDS, HEADING_ROUNDS, MAX_LAYOUTS
from sheetgen.game.houserules import resolve
from sheetgen.paper import A4, LETTER, Paper
from sheetgen.resources import fonts_dir

EXTRA = """# After the game

The winner shuffles for the next game, and whoever lost the series clears the table.

## Snacks

No crisps near the cards: greasy cards stick together and show through.
"""

TOGGLES: dict[str, dict[str, dict[str, Any]]] = {
    "skip-bo": {
        "official": {},
        "partnership": {"players": 6, "partnerships": True, "target": 300},
        "short-stock": {"players": 5, "stock": "short"},
        "no-series": {"series": False},
        "standard-deck": {"deck": "standard"},
        "extra": {"extra": "EXTRA"},
        # The benchmark's toggled booklet: a cover box of five house rules.
        "toggled": {
            "players": 4,
            "partnerships": True,
            "stock": "short",
            "must-play-stock": True,
            "no-wild-start": True,
            "target": 300,
        },
        "cards-left": {"scoring": "cards-left"},
        "partnership-4": {"players": 4, "partnerships": True},
        # The print designer's heavy set: a long house-rules box and a long quick reference.
        "heavy": {
            "players": 6,
            "partnerships": True,
            "stock": "short",
            "deck": "standard",
            "must-play-stock": True,
            "target": 300,
        },
        # A table's house-rules file that changes nearly everything, with its own chapter.
        "house-rules-file": {
            "players": 4,
            "partnerships": True,
            "stock": 12,
            "first-player": "youngest",
            "must-play-stock": True,
            "no-wild-start": True,
            "target": 400,
            "bonus": 50,
            "extra": "EXTRA",
        },
    },
    "spite-and-malice": {
        "official": {},
        "short-stock": {"stock": "15", "building-piles": 4, "series": True, "target": 300},
        "no-series": {"series": False},
        "extra": {"extra": "EXTRA"},
    },
    "skip-bo-board": {
        "official": {},
        "short-stock": {"players": 4, "stock": "8"},
        "extra": {"extra": "EXTRA"},
    },
}
PAPERS = {"letter": LETTER, "a4": A4}
WAYS = [("letter", "pages"), ("a4", "booklet"), ("a4", "pages"), ("letter", "booklet")]


# The other sets of house rules also set folded where their turn falls on a folded way: a
# partnership, a house-rules file with its own chapter, a game without the points game
# (its record is of games played) and the board game's short stock. The others are set
# flat on that paper instead (a folded booklet takes two to four times the layouts).
FOLDED_TOO = {
    ("skip-bo", "partnership"),
    ("skip-bo", "house-rules-file"),
    ("spite-and-malice", "no-series"),
    ("skip-bo-board", "short-stock"),
}


def _cases() -> list[tuple[str, str, str, str]]:
    """Each game's official booklet (and Skip-Bo's heavy set) every way; Skip-Bo's first
    other set of house rules flat and folded (two ways in a row of WAYS are one of each);
    every other set one way, folded only if FOLDED_TOO. The ways are taken in turn across
    the games, so that each is set with several sets of rules."""
    cases = []
    turn = 0
    for game, toggles in TOGGLES.items():
        for number, name in enumerate(toggles):
            if name in ("official", "heavy"):
                ways = WAYS
            else:
                count = 2 if number == 1 and game == "skip-bo" else 1
                ways = [WAYS[(turn + step) % len(WAYS)] for step in range(count)]
                turn += count
                if (game, name) not in FOLDED_TOO:
                    ways = [(paper, "pages") for paper, _ in ways]
            cases += [(game, name, paper, layout) for paper, layout in ways]
    return cases


CASES = _cases()
IDS = ["-".join(case) for case in CASES]


class Booklet:
    """One rendered booklet: its pages in reading order, and the HTML they were set from."""

    def __init__(self, pdf: bytes, layout: str, html: str) -> None:
        self.folded = layout == "booklet"
        self.pages: list[Page] = read_pages(pdf, folded=self.folded)
        self.html = html
        self.pdf = pdf

    @property
    def text(self) -> str:
        return "\n".join(page.text for page in self.pages)


@pytest.fixture(scope="session")
def extra_file(once: Once) -> Path:
    """The table's own chapter, at one path for every worker (it is part of the key)."""
    return once(("test_booklet_pages", "extra"), lambda out: out.write_text(EXTRA, "utf-8"), ".md")


def _options(game: str, toggles: str, extra: Path) -> dict[str, Any]:
    return {
        name: extra if value == "EXTRA" else value for name, value in TOGGLES[game][toggles].items()
    }


@pytest.fixture(scope="session")
def booklet_of(
    once: Once, booklet_pdf: Callable[..., bytes], extra_file: Path
) -> Callable[..., Booklet]:
    """Each booklet rendered and read back once a run, whichever case asks first."""
    made: dict[tuple[str, ...], Booklet] = {}

    def get(game: str, toggles: str, paper: str, layout: str) -> Booklet:
        key = (game, toggles, paper, layout)
        if key not in made:

            def make() -> Booklet:
                options = _options(game, toggles, extra_file)
                sheet: Paper = PAPERS[paper]
                pdf = booklet_pdf(game, sheet, layout, **options)
                half = half_paper(sheet).portrait if layout == "booklet" else None
                rules = resolve(game=game, options=options)
                html = render_html(rules, paper=sheet, page_size_override=half)
                return Booklet(pdf, layout, html)

            made[key] = once.value(("test_booklet_pages", *key), make)
        return made[key]

    return get


@pytest.fixture(
    params=[
        pytest.param(case, id=name, marks=pytest.mark.xdist_group(booklet_group(*case)))
        for case, name in zip(CASES, IDS, strict=True)
    ]
)
def booklet(request: pytest.FixtureRequest, booklet_of: Callable[..., Booklet]) -> Booklet:
    return booklet_of(*request.param)


def test_no_page_is_nearly_empty_or_ends_on_a_heading(booklet: Booklet) -> None:
    """At least a quarter full, no heading or lead-in at a page's foot, no text under 7 pt,
    no blank page, and a folded booklet's back cover starting with a heading."""
    assert problems(booklet.pages, folded=booklet.folded) == []


FLAT = [
    pytest.param(case, id=name, marks=pytest.mark.xdist_group(booklet_group(*case)))
    for case, name in zip(CASES, IDS, strict=True)
    if case[3] == "pages"
]


@pytest.mark.parametrize("case", FLAT)
def test_every_page_starts_as_high_as_the_others(
    case: tuple[str, str, str, str], booklet_of: Callable[..., Booklet]
) -> None:
    """Print review 44: page 2 of a flat booklet began 9 to 21 pt lower than every other
    page, so the top lines of pages 2 and 3 did not line up; review 45: so did a page that
    a heading taken over the page opens (9 to 14 pt). The heading that opens a page by a
    break of its own (the cover's, or a layout's) kept its top margin, where a page that
    the text runs on to sets none. The first line of each page that opens with text (not
    a drawing, whose labels and card faces are no line of text) now stands within 4 pt of
    the median of them all."""
    pages = [page for page in booklet_of(*case).pages[1:] if page.content and not page.landscape]
    body = body_size(pages)
    tops = []
    for page in pages:
        first = min(page.content, key=lambda line: line.top)
        if first.size >= body - 0.1 and re.search(r"[^\W\d]{3}", first.text):
            tops.append(round(first.top, 1))
    middle = statistics.median(tops)
    assert len(tops) >= 4 and all(top <= middle + 4 for top in tops), tops


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_each_booklet_is_set_in_at_most_two_layouts(
    case: tuple[str, str, str, str], booklet_layouts: Callable[..., list[int]], extra_file: Path
) -> None:
    """A booklet whose first layout leaves a page too empty is set right the second time,
    from the first one's measurements (not by trying every spacing); a folded one is set
    a few times more, as planned to fill its last sheet with as few notes pages as can be.

    One layout more (issue 31) where a figure is set past the text that fills the page
    before it, or where the cover's fan is left off to keep the box of choices whole on
    the cover: three at most for a flat booklet, five where the contents
    set apart leave the last page short and a closer or looser spacing fills it (the heavy
    set on Letter: the balancing break found before the contents moved no longer fits);
    for a folded one the figure's layouts beyond the plan's. One more where a reference
    names a heading on its own page ("below" instead of the page), and one more where a word
    was hyphenated over a page turn (set whole). A flat booklet may be set HEADING_ROUNDS
    times more where a stranded heading is taken over the page (print review 38)."""
    game, toggles, paper, layout = case
    options = _options(game, toggles, extra_file)
    (layouts,) = booklet_layouts(game, PAPERS[paper], layout, **options)
    flat = 5 if (game, toggles, paper) == ("skip-bo", "heavy", "letter") else 3
    flat += HEADING_ROUNDS
    assert 1 <= layouts <= (MAX_LAYOUTS + FIGURE_ROUNDS if layout == "booklet" else flat) + 2


def test_the_printing_box_names_the_files_own_pages(booklet: Booklet) -> None:
    """Print review 23: the folded booklet's box named no pages ("every page but the
    last", "odd pages (1, 3, 5 and so on)"), and a print dialog's odd pages took the score
    sheet too. It names the file's pages as this booklet came out: the sides to print both
    ways (by hand, their odd and then their even pages), the score sheet's page after
    them. A booklet of whole pages prints all but the last, the score sheet."""
    count = len(pdfplumber.open(io.BytesIO(booklet.pdf)).pages)
    sheet = booklet.pages[-1].landscape
    own = count - sheet
    text = " ".join(booklet.text.replace("\N{NO-BREAK SPACE}", " ").replace("-\n", "-").split())
    if booklet.folded:
        assert f"Print pages 1–{own} of this file on both sides, flipped on the short" in text
        assert f"print the odd pages of 1–{own}, put the stack back in turned over" in text
        assert (f"Page {count}, the score sheet, is a landscape sheet of its own" in text) == sheet
    elif sheet:
        assert "Print every page of this file but the last one-sided, or both sides" in text
        assert "The last page, the score sheet, is a landscape sheet of its own" in text
    else:
        assert "Print one-sided, or both sides flipped on the long edge" in text
        assert "score sheet, is" not in text


def test_contents_name_pages_that_carry_their_heading(booklet: Booklet) -> None:
    pages = booklet.pages
    entries = contents(pages)
    assert len(entries) >= 5
    portrait = [page for page in pages if not page.landscape]
    for title, where in entries:
        if where.isdigit():
            page = pages[int(where) - 1]
            assert title in " ".join(page.text.split()), (title, where)
            assert page.number == where
        elif where == "back cover":
            assert booklet.folded
            assert title in portrait[-1].text
        else:
            assert where == "its own sheet"
            assert title == "Score sheet"
            assert pages[-1].landscape and "score sheet" in pages[-1].text
    assert [title for title, _ in entries][-1] in ("Quick reference", "Score sheet")


def test_printed_page_numbers_match_the_folded_order(booklet: Booklet) -> None:
    for index, page in enumerate(booklet.pages, start=1):
        assert page.number in (None, str(index))
    numbered = [page for page in booklet.pages if page.number is not None]
    assert len(numbered) >= len([page for page in booklet.pages if not page.blank]) - 3


def test_every_page_with_text_has_a_folio_a_printer_keeps(booklet: Booklet) -> None:
    """Page numbers on every page of text but the cover (and a folded booklet's back
    cover), each 0.5 in above the trim, where a home printer still prints though it shifts
    the paper a little (print review 7: 0.41 in), and clear of the text above it."""
    portrait = [page for page in booklet.pages if not page.landscape]
    inside = portrait[1:-1] if booklet.folded else portrait[1:]
    for index, page in enumerate(inside, start=2):
        assert page.number == str(index), (index, page.text[:60])
        folio = next(line for line in page.lines if line.text.strip() == page.number)
        assert page.height - folio.bottom >= 0.49 * 72, (index, page.height - folio.bottom)
        text = [line.bottom for line in page.lines if line is not folio]
        assert folio.top - max(text) >= 0.1 * 72, (index, folio.top - max(text))


def test_body_lines_hold_45_to_75_characters(booklet: Booklet) -> None:
    lengths = [len(line) for line in body_lines(booklet.pages)]
    assert 45 <= statistics.median(lengths) <= 75


def test_no_command_line_in_the_booklet(booklet: Booklet) -> None:
    assert COMMAND_LINE.search(booklet.text) is None


def test_contents_leaders_are_even_and_page_numbers_in_one_column(booklet: Booklet) -> None:
    rows = contents_rows(booklet.pdf, folded=booklet.folded)
    assert len(rows) >= 5
    assert leader_problems(rows) == []


def colophon_and_back_cover(pages: list[Page], heading: str) -> list[Line]:
    """The lines of the box that says how to print (its heading and what follows it on its
    page) and of the back cover (the last portrait page)."""
    (box,) = [page for page in pages if any(line.text.strip() == heading for line in page.lines)]
    top = next(line.top for line in box.lines if line.text.strip() == heading)
    portrait = [page for page in pages if not page.landscape]
    return [line for line in box.content if line.top >= top] + portrait[-1].content


def test_the_printing_box_and_back_cover_are_set_at_reading_size(booklet: Booklet) -> None:
    """Both were 8.5 pt with room to spare: now the body's size, and never under 9.5 pt."""
    lines = colophon_and_back_cover(booklet.pages, "Printing these rules")
    floor = min(body_size(booklet.pages), 9.5) - 0.05
    assert min(line.size for line in lines) >= floor, [
        (line.text, line.size) for line in lines if line.size < floor
    ]


def test_no_line_ends_on_an_article_or_a_number(booklet: Booklet) -> None:
    assert stranded_short_words(booklet.pages) == []


def column_headings(html: str) -> set[str]:
    """The text of every table's column headings in the booklet's HTML (not a row's)."""
    cells = re.findall(r'<th(?! scope="row")[^>]*>(.*?)</th>', html, flags=re.DOTALL)
    plain = (
        unescape(re.sub(r"<[^>]+>", "", cell)).replace("\N{SOFT HYPHEN}", "") for cell in cells
    )
    return {" ".join(cell.split()) for cell in plain if cell.strip()}


def test_column_headings_break_only_between_words(booklet: Booklet) -> None:
    headings = column_headings(booklet.html)
    cells = heading_cells(booklet.pdf, headings)
    assert {cell_words(cell) for cell in cells} == headings
    assert [cell for cell in cells if re.search(r"[\u2010\u00ad-]\n", cell)] == []


def test_the_worked_example_stays_on_the_page_of_its_sum(booklet: Booklet) -> None:
    """The example's table and the sentence that sums it up are read on one page."""
    assert example_split(booklet.pages, booklet.html) is None


class _Blocks(HTMLParser):
    """The booklet's lists and tables in reading order: each with the text of its items
    (a list's items, a table's rows). The contents (its entries end in leaders on paper)
    and the pictures' labels are left out."""

    SKIP = ("style", "svg", "title", "nav")

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[str, list[str]]] = []
        self.open: list[tuple[str, list[str]]] = []
        # A list inside another's item: (the outer block's index, that item's index).
        self.inside: dict[int, tuple[int, int]] = {}
        # The lists whose first item is marked long (html.LONG_FIRST_ITEM), by index.
        self.long: set[int] = set()
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        elif self.skipping:
            return
        elif tag in ("ul", "ol", "table"):
            block: tuple[str, list[str]] = (tag, [])
            if self.open:
                outer = self.open[-1]
                self.inside[len(self.blocks)] = (self.blocks.index(outer), len(outer[1]) - 1)
            self.blocks.append(block)
            self.open.append(block)
        elif self.open and tag == ("tr" if self.open[-1][0] == "table" else "li"):
            if tag == "li" and not self.open[-1][1] and "long" in (dict(attrs).get("class") or ""):
                self.long.add(self.blocks.index(self.open[-1]))
            self.open[-1][1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping -= 1
        elif not self.skipping and tag in ("ul", "ol", "table") and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            for _, items in self.open:
                if items:
                    items[-1] += data


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _where_items_fall(booklet: Booklet) -> list[tuple[str, list[tuple[int, int]]]]:
    """Each list and table of the booklet with the pages (in reading order) on which each
    of its items starts and ends, found by reading the pages' text in order."""
    stream = ""
    starts = []
    for page in booklet.pages:
        starts.append(len(stream))
        # The page a cross-reference names ("(page 4)", in brackets ", page 4"; "(below)" on
        # the heading's own page) is made by the style sheet: the HTML's items do not hold it.
        where = r"(?:(?:page|Seite)\d+|below|above|weiterunten|weiteroben)"
        stream += re.sub(
            rf"\({where}\)|,{where}(?=\))",
            "",
            _squeezed("".join(line.text for line in page.content)),
        )

    def page_at(offset: int) -> int:
        return max(index for index, start in enumerate(starts) if start <= offset) + 1

    parser = _Blocks()
    parser.feed(booklet.html)
    found = []
    found_at: dict[tuple[int, int], int] = {}
    cursor = furthest = 0
    for number, (kind, texts) in enumerate(parser.blocks):
        cursor = found_at[parser.inside[number]] if number in parser.inside else furthest
        spans = []
        for index, item in enumerate(texts):
            if not item.strip():
                continue
            # A table's cells may share lines on paper: a row that does not read as one
            # piece is found by its first and last word.
            squeezed, words = _squeezed(item), item.split()
            start = stream.find(squeezed[:30], cursor)
            if start < 0 and kind == "table":
                start = stream.find(words[0], cursor)
            assert start >= 0, f"{item!r} is not where it should be"
            last = squeezed[-30:] if stream.find(squeezed[-30:], start) >= 0 else words[-1]
            end = stream.find(last, start) + len(last)
            spans.append((page_at(start), page_at(end - 1)))
            found_at[number, index] = start
            cursor = end
            furthest = max(furthest, end)
        # (a list whose first item may end a page alone is named with a star: "ul*")
        star = "*" if number in parser.long else ""
        found.append((f"{kind}{star} {' '.join(texts[-1].split())[:40]!r}", spans))
    return found


def test_lists_and_tables_break_only_where_a_reader_can_follow(booklet: Booklet) -> None:
    """A table of up to six rows under its header stays on one page (print reviews 13 and
    14: "The numbers for this table" cut 4 + 2 over a page turn); a longer one breaks
    only between rows, with two rows at least on either side (print review 11: the board
    game's six-row "Die Sonderfelder" table, kept whole, left a page a third empty). A list
    breaks at most once: between items, or inside a long item (its lines two and two at
    least, the style sheet's orphans and widows: print review 6 found pages left short
    where a seven-line step went over whole); a bulleted list of three items or more keeps
    its first two together (print review 13: a lead-in and one item at a page's foot)
    unless the first is three lines or more (review 42: a long first bullet broke two lines
    before its end, 42 pt short, rather than end the page), its
    last may open a page alone (print review 39: lists that kept their last two together
    left 55 to 75 pt white), and a two-item list may break between them (print review 11:
    a heading, its lead-in and a two-item list kept whole). A numbered step is a paragraph
    of its own: the first may end a page alone (print review 9: a page ended 1.5 in short
    before "Your turn, step by step")."""
    checked = 0
    # A list whose last items a card strip shows may leave its last item to go over the
    # page with the strip (examples.toml's with_list).
    shown = [
        _squeezed(unescape(re.sub(r"<[^>]+>", "", item)))
        for item in re.findall(
            r"<li>((?:(?!<li>).)*?)</li>\s*</ul>\s*<figure class=\"cards with-list\">",
            booklet.html,
            re.S,
        )
    ]
    for name, spans in _where_items_fall(booklet):
        pages = [page for span in spans for page in span]
        breaks = [n for n in range(1, len(spans)) if spans[n][0] != spans[n - 1][1]]
        last = _squeezed(name.split(" ", 1)[1].strip("'\""))
        if any(item.startswith(last) for item in shown):
            breaks = [n for n in breaks if n != len(spans) - 1]
        if name.startswith("table"):
            # spans: its rows, the header row first where it has one.
            if len(spans) <= 7:
                assert min(pages) == max(pages), (name, spans)
            assert all(first == last for first, last in spans), (name, spans)
            assert all(2 <= n <= len(spans) - 2 for n in breaks), (name, spans)
        else:
            if name.startswith("ul") and len(spans) >= 3:
                assert all(n >= 2 or name.startswith("ul*") for n in breaks), (name, spans)
            assert sum(first != last for first, last in spans) + len(breaks) <= 1, (name, spans)
        checked += 1
    assert checked >= 4


def test_the_list_check_sees_a_list_cut_after_its_first_item() -> None:
    """The reader finds a list whose first item was left at the foot of a page."""
    html = "<ul><li>A lone first item at the foot</li><li>Second</li><li>Third</li></ul>"
    booklet = Booklet.__new__(Booklet)
    booklet.html = html
    booklet.pages = [
        Page([Line("Running text. • A lone first item at the foot", 10, 20, 10)], 100),
        Page([Line("• Second • Third", 10, 20, 10)], 100),
    ]
    assert _where_items_fall(booklet) == [("ul 'Third'", [(1, 1), (2, 2), (2, 2)])]


def test_the_typesetting_checks_find_what_they_look_for() -> None:
    """A stranded article, uneven leaders and an example cut from its sum are all seen."""
    lines = [
        Line("Running text that goes on until the article Eine", 100, 110, 10, 72, 500),
        Line("Karte ends a sentence, and 25 points stay together.", 114, 124, 10, 72, 480),
        Line("A last short line.", 128, 138, 10, 72, 200),
    ]
    assert stranded_short_words([Page(lines, 800)]) == [
        "page 1: 'Running text that goes on until the article Eine' / "
        "'Karte ends a sentence, and 25 points stay together.'"
    ]
    assert stranded_short_words([Page(lines[1:], 800)]) == []
    even = ContentsRow("Setting up", 100.0, [110.0, 116.0, 122.0], "2", 130.0, 135.0, 10.0)
    rows = [
        even,
        ContentsRow("Winning", 108.0, [110.0, 116.0, 122.0], "5", 130.0, 135.0, 10.0),
        ContentsRow("Strategy", 80.0, [93.0, 99.0], "12", 125.0, 135.0, 10.0),
        ContentsRow("Scoring", 80.0, [92.0, 98.0, 104.0, 110.0, 116.0], "3", 130.0, 133.0, 10.0),
    ]
    assert leader_problems(rows) == [
        "Winning: the first dot touches the title",
        "Strategy: dots off the grid",
        "the rows of dots end at different places",
        "the page numbers are not right-aligned in one column",
    ]
    assert leader_problems([even, even]) == []
    html = (
        "<table><tr><th>Player</th><th>Cards left</th></tr><tr><td>Bob</td><td>8</td></tr>"
        "</table>\n<p>That is 8 cards. At that rate it takes four wins.</p>"
    )
    table = Page([Line("Player Cards left", 10, 20, 10), Line("Bob 8", 30, 40, 10)], 800)
    summed = Page([Line("That is 8 cards. At that rate it", 10, 20, 10)], 800)
    assert example_split([table, summed], html) == "'Bob 8' on [1], 'That is 8 cards.' on [2]"
    table.lines += summed.lines
    assert example_split([table], html) is None


def test_the_heading_check_sees_a_heading_broken_inside_a_word() -> None:
    """A column heading hyphenated across two lines is read with its hyphen and break; one
    that wraps between its words, without."""
    from weasyprint import HTML

    font = (fonts_dir() / "DejaVuSans.ttf").as_uri()
    html = (
        f'<html lang="de"><style>@font-face {{ font-family: T; src: url("{font}") }}'
        "body { font: 10pt T } th { width: 3.5em; hyphens: auto; font-weight: normal }</style>"
        "<table><tr><th>Nachziehstapel</th><th>Karten übrig</th><th>Zur Summe</th></tr>"
        "<tr><td>Stapel</td><td>4</td><td>20</td></tr></table>"
    )
    pdf = HTML(string=html).write_pdf()
    cells = heading_cells(pdf, {"Nachziehstapel", "Karten übrig", "Zur Summe"})
    assert len(cells) == 3
    broken = [cell for cell in cells if re.search(r"[\u2010\u00ad-]\n", cell)]
    assert {cell_words(cell) for cell in broken} == {"Nachziehstapel", "Zur Summe"}
    assert "Karten\nübrig" in cells
    # A heading broken at a hyphen of its own still belongs to its row, and shows the break.
    hard = html.replace("Nachziehstapel", "Skip-Bo-Karten").replace("hyphens: auto", "")
    cells = heading_cells(HTML(string=hard).write_pdf(), {"Skip-Bo-Karten", "Karten übrig"})
    assert {cell_words(cell) for cell in cells} == {"Skip-Bo-Karten", "Karten übrig"}
    assert [cell for cell in cells if "-\n" in cell and cell_words(cell) == "Skip-Bo-Karten"]


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The reader flags a nearly empty page, a heading at a page's foot and small text."""
    path = tmp_path / "bad.pdf"
    pdfmetrics.registerFont(TTFont("DejaVuSansCheck", str(fonts_dir() / "DejaVuSans.ttf")))
    page = canvas.Canvas(str(path), pagesize=LETTER.portrait)
    for top in range(0, 20):
        page.setFont("DejaVuSansCheck", 10)
        page.drawString(72, 720 - top * 14, "Running text of the body, long enough to count.")
    page.setFont("DejaVuSansCheck", 16)
    page.drawString(72, 420, "A heading")
    page.showPage()
    page.setFont("DejaVuSansCheck", 10)
    page.drawString(72, 720, "Two lines, then the lead-in:")
    page.setFont("DejaVuSansCheck", 6)
    page.drawString(72, 700, "tiny print")
    page.showPage()
    page.setFont("DejaVuSansCheck", 10)
    page.drawString(72, 720, "The last page may be short.")
    page.showPage()
    page.save()
    found = problems(read_pages(path.read_bytes(), folded=False), folded=False)
    assert found == [
        "page 1: ends with a heading: 'A heading'",
        "page 2: text at 6.0 pt",
        "page 2: only 4% full",
    ]


# ---------------------------------------------------------------- the page for a phone

HTML_CASES = [(game, name) for game, toggles in TOGGLES.items() for name in toggles]


@pytest.fixture(params=HTML_CASES, ids=["-".join(case) for case in HTML_CASES])
def page(request: pytest.FixtureRequest, once: Once, extra_file: Path) -> tuple[str, str]:
    """The --format html page and the PDF booklet's HTML, for the same table."""
    game, toggles = request.param

    def make() -> tuple[str, str]:
        rules = resolve(game=game, options=_options(game, toggles, extra_file))
        html = rules_document(rules, paper=A4, fmt="html").decode("utf-8")
        return html, render_html(rules, paper=A4)

    return once.value(("test_booklet_pages", "html", game, toggles), make)  # type: ignore[no-any-return]


def _words(html: str) -> str:
    html = re.sub(r"<(style|svg|title)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_html_refers_to_nothing_outside_itself(page: tuple[str, str]) -> None:
    html, _ = page
    for link in re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html):
        if link.startswith("data:image/svg+xml;base64,"):
            # The cover's motif, drawn by sheetgen: a picture that itself names nothing.
            svg = base64.b64decode(link.split(",", 1)[1]).decode("utf-8")
            assert "href" not in svg and "url(" not in svg and "<image" not in svg
            continue
        assert link.startswith("#"), link
    for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", html):
        assert url.startswith(("#", "data:")), url
    assert "file:" not in html and "@import" not in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_html_has_the_same_text_and_pictures_as_the_booklet(page: tuple[str, str]) -> None:
    html, printed = page
    # On a screen a worked example is a row of piles, each drawn alone (hidden from a
    # screen reader), the row one image: one drawing, as printed.
    drawings = re.findall(r'<svg\b(?![^>]*aria-hidden="true")|<div class="piles" role="img"', html)
    # The table picture redrawn for a phone stands in for the wide one there (issue 31).
    narrow = len(re.findall(r'<div class="narrow">\s*<svg', html))
    assert narrow <= 1
    assert len(drawings) - narrow == printed.count("<svg") >= 1
    printed_words = _words(printed)
    words = _words(html)
    for heading in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", printed):
        title = " ".join(unescape(re.sub(r"<[^>]+>", "", heading)).split())
        if title not in ("Printing these rules", "Score sheet"):
            assert title in words
    # Everything but the advice for paper reads the same.
    assert words.replace(" ", "") in printed_words.replace(" ", "") or len(words) > 0.9 * len(
        printed_words
    )


def test_html_passes_the_text_checks(page: tuple[str, str]) -> None:
    html, _ = page
    assert COMMAND_LINE.search(_words(html)) is None
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    for target, title in re.findall(r'<a href="#([^"]+)">([^<]+)</a>', html):
        assert target in ids
        found = re.search(rf'id="{re.escape(target)}"[^>]*>(.*?)</h\d>', html, flags=re.S)
        assert found and _words(found.group(1)) == unescape(title).strip()
    screen = html[html.index("@media screen") :]
    measure = float(re.search(r"max-width: ([\d.]+)em", screen).group(1))  # type: ignore[union-attr]
    # DejaVu Sans averages a little over half an em a letter: 45-75 letters a line.
    assert 45 <= measure / 0.55 <= 75
    # The reader's own font size (the browser's, 100%) and the text a little larger.
    assert "html { font-size: 100%;" in screen
    assert float(re.search(r"body \{ font-size: ([\d.]+)rem", screen).group(1)) >= 1  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--format", "html", "--print"],
            "--print sends the PDF to the printer; leave out --format html",
        ),
        (
            ["--format", "html", "--printer", "office"],
            "--print sends the PDF to the printer; leave out --format html",
        ),
        (
            ["-o", "rules.html", "--print"],
            "--print sends the PDF to the printer, but rules.html names a .html file; "
            "write a .pdf or leave out --print",
        ),
        (
            ["-o", "rules.png", "--manual-duplex"],
            "--print sends the PDF to the printer, but rules.png names a .png file; "
            "write a .pdf or leave out --print",
        ),
        (
            ["--format", "html", "--layout", "booklet"],
            "layout: a folded booklet is for paper, and an html page is read on a screen; "
            "leave out --layout booklet, or write a pdf to fold",
        ),
        (
            ["-o", "rules.html", "--layout", "booklet"],
            "layout: a folded booklet is for paper, and an html page is read on a screen; "
            "leave out --layout booklet, or write a pdf to fold",
        ),
    ],
)
def test_a_page_for_a_screen_is_neither_printed_nor_folded(
    runner: Any, snapshot: Callable[[Path], dict[str, bytes]], args: list[str], message: str
) -> None:
    """The html page is for a phone: sending it to a printer or folding it is refused with
    one line, before anything is written (not even the output folder)."""
    before = snapshot(runner.cwd)
    result = runner("rules", *args)
    assert result.exit_code in (1, 2)
    assert result.stderr.splitlines()[-1] == f"Error: {message}"
    assert "Traceback" not in result.output
    assert snapshot(runner.cwd) == before
    assert not (runner.cwd / "output").exists()


# ---------------------------------------------------------------- numbers as the prose writes them


def test_the_attached_sheet_counts_games_in_words_as_the_booklet_does(
    booklet_of: Callable[..., Booklet],
) -> None:
    """The booklet writes "ten games"; so does the score sheet printed at its end (a sheet
    on its own keeps its figures)."""
    (case,) = [case for case in CASES if case[:2] == ("skip-bo", "cards-left")]
    booklet = booklet_of(*case)
    sheet = booklet.pages[-1]
    assert sheet.landscape
    words = " ".join(sheet.text.split())
    assert "Ten games: the lowest total after the last one wins the series." in words
    assert "stock pile; after ten games the lowest total wins." in words
    prose = " ".join(page.text for page in booklet.pages[:-1])
    assert "after ten games" in " ".join(prose.split()).lower()
    assert not re.search(r"\b10\s+games", booklet.text)


@pytest.mark.parametrize(
    ("options", "rows"),
    [
        (
            {"bonus": 0},
            ["Winning a game nothing", "Every card left in another player’s stock pile 5"],
        ),
        (
            {"per-card": 0, "partnerships": True},
            ["Winning a game 25", "Every card left in the other team’s stock piles nothing"],
        ),
    ],
)
def test_a_figure_of_zero_reads_nothing_in_the_numbers_table(
    options: dict[str, Any], rows: list[str]
) -> None:
    """Read from the booklet's HTML: what the table says, not how it is set, which the
    booklets above are read back for."""
    from html import unescape

    html = render_html(resolve(game="skip-bo", options=options), paper=LETTER)
    lines = [
        " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split())
        for row in re.findall(r"<tr>.*?</tr>", html, flags=re.DOTALL)
    ]
    for row in rows:
        assert row in lines
    assert not [
        line for line in lines if re.fullmatch(r"(Winning a game|Every card left.*) 0", line)
    ]


def test_a_table_without_column_headings_prints_no_empty_header_row(
    booklet_of: Callable[..., Booklet],
) -> None:
    """ "The numbers for this table" has no column headings: its first ruled row is Players,
    with no empty band (and no heavy rule under it) above."""
    booklet = booklet_of("skip-bo", "official", "letter", "pages")
    with pdfplumber.open(io.BytesIO(booklet.pdf)) as document:
        for page in document.pages[1:]:  # past the contents
            heading = page.search("The numbers for this table")
            first = page.search(r"Players\s+4")
            if heading and first:
                break
        assert heading and first
        top, bottom = heading[0]["bottom"], first[0]["top"]
        rules = [
            edge for edge in page.edges if edge["orientation"] == "h" and top < edge["top"] < bottom
        ]
    assert rules, "the table has a top rule"
    assert max(edge["top"] for edge in rules) - min(edge["top"] for edge in rules) < 1.0
    assert bottom - max(edge["top"] for edge in rules) < 6


@pytest.mark.parametrize(
    "case",
    [
        ("skip-bo-board", "official", "letter", "pages"),
        ("skip-bo-board", "official", "a4", "booklet"),
        ("skip-bo-board", "official", "a4", "pages"),
        ("skip-bo-board", "official", "letter", "booklet"),
    ],
    ids="-".join,
)
def test_the_words_in_the_boards_white_areas_stay_inside_them(
    booklet_of: Callable[..., Booklet], case: tuple[str, str, str, str]
) -> None:
    """The board's white areas (its dashed boxes) hold their words with room to spare:
    "number is the move" ran over the auxiliary pile's border."""
    booklet = booklet_of(*case)
    boxes_with_words = 0
    # pdfplumber reads only the sides pdfium finds a dashed line on.
    sides = [index + 1 for index in dashed_sides(booklet.pdf)]
    with pdfplumber.open(io.BytesIO(booklet.pdf), pages=sides) as document:
        for page in document.pages:
            for box in page.curves + page.rects:
                if not box.get("dash") or not box["dash"][0]:
                    continue
                words = [
                    char
                    for char in page.chars
                    if box["top"] < char["top"] < box["bottom"]
                    and box["x0"] - 12 < (char["x0"] + char["x1"]) / 2 < box["x1"] + 12
                ]
                if words:
                    boxes_with_words += 1
                    assert min(char["x0"] for char in words) > box["x0"] + 1.5, case
                    assert max(char["x1"] for char in words) < box["x1"] - 1.5, case
    assert boxes_with_words == 2


FOLDED = [case for case in CASES if case[3] == "booklet"]


@pytest.mark.parametrize("case", FOLDED, ids=["-".join(case) for case in FOLDED])
def test_a_folded_booklet_pads_its_last_sheet_with_pages_to_write_on(
    case: tuple[str, str, str, str], booklet_of: Callable[..., Booklet]
) -> None:
    """What the text leaves of the last sheet is at most three pages to write on, just
    before the back cover: ruled notes, and with two or more a record to fill in (print
    review 5: two identical ruled pages read as filler): of the series played with the
    points game on, else of the games played (its column heads printed). Where three are
    left over (ruled lines under the text counting as one), the record is one log across
    the last two, which face each other: one title, the column heads on both, its rows
    level (print reviews 12 and 13: "More notes" and "More games played" repeated a title).
    The heavy set's page of text before them is at least half full or ruled (print review:
    35 % full, then two notes pages)."""
    booklet = booklet_of(*case)
    portrait = [page for page in booklet.pages if not page.landscape]
    series = booklet.pages[-1].landscape  # the points game's sheet ends the booklet
    record = "Series played" if series else "Games played"
    heads = "Date Winner Final score" if series else "Date Winner Remarks"

    def title(page: Page) -> str:
        return " ".join(page.content[0].text.split()) if page.content else ""

    pads = ("Notes", "More notes", record, heads)
    padding = [i for i, page in enumerate(portrait) if title(page) in pads]
    assert len(padding) <= 3, [title(page) for page in portrait]
    assert padding == list(range(len(portrait) - 1 - len(padding), len(portrait) - 1))
    titles = [title(portrait[index]) for index in padding]
    assert len(set(titles)) == len(titles), titles
    last_text = [
        line.text.strip() for line in portrait[(padding or [len(portrait) - 1])[0] - 1].content
    ]
    tail = "Notes" in last_text
    # With the points game on and no page after the text, its ruled foot is the log.
    tail_record = series and not padding and record in last_text
    if tail_record:
        assert " ".join(last_text[last_text.index(record) + 1].split()) == heads
    # Each padding page says what it is for under its lines, at its foot (print reviews 10
    # and 11: a foot line naming the booklet read as a stray running foot).
    for index in padding:
        first, foot = portrait[index].content[0], portrait[index].content[-1]
        # (the record's second page opens with its column heads, set in from the rule)
        assert abs(foot.x0 - first.x0) < (5 if title(portrait[index]) == heads else 1), (
            index + 1,
            foot.text,
        )
        assert "as this table plays it" not in foot.text
        assert foot.top > 0.75 * portrait[index].height, (index + 1, foot.text)
    if case[1] == "heavy" and padding and not tail:  # (without either, its text ends there)
        last_text = portrait[padding[0] - 1]
        fullest = max(page.fill for page in portrait[1:-1])
        assert last_text.fill >= 0.5 * fullest, (last_text.fill, fullest)
    # "Notes" stand once: the last of two padding pages, or the only one after a last page
    # of text ruled under "Notes" (print review 11), is a record to fill in; with the points
    # game on, so is a lone page, or a last page's ruled foot with no page after it (print
    # review 16: a points game's booklet without its log).
    assert titles.count("Notes") + tail <= 1, titles
    places = len(padding) + (tail or tail_record)
    if series:
        kept = 2 if places >= 3 else 1 if padding else 0
        assert tail_record or bool(padding) or not places
    else:
        kept = 2 if places >= 3 else 1 if (tail and padding) or len(padding) == 2 else 0
    assert titles[len(titles) - kept :] == [record, heads][:kept], titles
    for index in padding[len(padding) - kept :]:
        lines = portrait[index].content
        assert " ".join(lines[0 if title(portrait[index]) == heads else 1].text.split()) == heads
    if kept == 2:  # the two pages' column heads stand level
        left, right = (portrait[index] for index in padding[-2:])
        assert abs(left.content[1].top - right.content[0].top) < 0.5


# A folded booklet's house leading (9.5 pt type on 1.38), in every booklet (print review
# 12: 12.4 pt in one booklet, 14.7 pt in another; review 13: 12.6 to 13.6 pt).
HOUSE_LEADING = 9.5 * 1.38
# A flat booklet's (10.5 pt type on 1.38).
FLAT_LEADING = 10.5 * 1.38
LEADING_LEEWAY = 0.15


def _leading(booklet: Booklet) -> float:
    """The commonest distance between two lines of body type one above the other on a page
    of running text (the lines of a paragraph), in points."""
    body = body_size(booklet.pages)
    steps = []
    for page in booklet.pages[1:]:
        lines = sorted(
            (line for line in page.content if abs(line.size - body) < 0.2),
            key=lambda line: line.top,
        )
        steps += [
            round(b.top - a.top, 1) for a, b in itertools.pairwise(lines) if b.top > a.top + 1
        ]
    return float(statistics.mode(steps))


def test_a_chapter_heading_is_taken_over_where_white_ends_its_section(
    booklet_of: Callable[..., Booklet],
) -> None:
    """Print review 38: "Setting up" and two lines at the foot of page 2 of Spite and
    Malice's folded A4 booklet. Taking the heading over left that page 15 % short, which
    the mend refused as a hole; white before a heading that opens the next page ends a
    section (pdf.SECTION_END), so the heading now opens page 3."""
    booklet = booklet_of("spite-and-malice", "official", "a4", "booklet")
    assert stranded(booklet.pages) == []
    opening = [page for page in booklet.pages if page.content[0].text.strip() == "Setting up"]
    assert len(opening) == 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_booklet_keeps_the_house_leading(
    case: tuple[str, str, str, str], booklet_of: Callable[..., Booklet]
) -> None:
    """Every booklet sets its text on the house leading: one that does not fill its sheets,
    or its last page, is set with more or less space between its blocks (a folded one
    padded with pages to write on), never with looser or closer lines (print reviews 12
    and 13; review 38: flat German A4 booklets on 13.8 and 15.3 pt against 14.5)."""
    leading = _leading(booklet_of(*case))
    house = HOUSE_LEADING if case[3] == "booklet" else FLAT_LEADING
    assert abs(leading - house) <= LEADING_LEEWAY, leading


# The white over a heading that follows text, from the last line's foot to the heading's
# top, as a share of the booklet's leading: a chapter's heading (15 pt) at least 1.1 lines,
# a section's (11.5 pt) at least 0.8 (print review 19: a folded Spite and Malice set closer
# had 12.6 pt over a chapter and 9.3 pt over a section, less than the space between two
# lines; a flat booklet set closer had 13.2 and 10.4 pt).
HEADING_WHITE = {15.0: 1.1, 11.5: 0.8}


def _heading_white(booklet: Booklet) -> dict[float, list[tuple[float, str]]]:
    """Each heading size's white above it (points) and text, on the pages of running text."""
    found: dict[float, list[tuple[float, str]]] = {size: [] for size in HEADING_WHITE}
    body = body_size(booklet.pages)
    for page in booklet.pages[1:]:
        lines = sorted(page.content, key=lambda line: line.top)
        for above, line in itertools.pairwise(lines):
            size = next((size for size in HEADING_WHITE if abs(line.size - size) < 0.3), None)
            if size is not None and abs(above.size - body) < 0.2:
                found[size].append((line.top - above.bottom, line.text))
    return found


def test_a_booklet_keeps_room_over_its_headings(booklet: Booklet) -> None:
    """A booklet set closer to fit its pages takes the room from between its paragraphs
    more than from over its headings: a heading still stands well clear of the text above
    it, in every spacing."""
    found = _heading_white(booklet)
    leading = _leading(booklet)
    assert found[15.0], "no chapter heading after text"
    for size, share in HEADING_WHITE.items():
        cramped = [(round(white, 1), text) for white, text in found[size]]
        cramped = [(white, text) for white, text in cramped if white < share * leading]
        assert not cramped, (size, leading, cramped)


@pytest.mark.parametrize("case", FOLDED, ids=["-".join(case) for case in FOLDED])
def test_a_tie_leaves_no_hole_in_the_rag(
    case: tuple[str, str, str, str], booklet_of: Callable[..., Booklet]
) -> None:
    """No line of a folded booklet's half-page measure ends far short because the article
    or number that would have fitted after it is tied to the next line's first word (print
    reviews 16 to 19: "... nicht einig: Nach" 29 % short, "den einen beginnt" on the next
    line): that tie is loosened. The back cover's quick reference, fitted to its page, is
    left out."""
    portrait = [page for page in booklet_of(*case).pages if not page.landscape]
    assert ragged_ties(portrait[:-1], last_words=False) == []


def test_words_are_never_set_under_7_5_pt(booklet: Booklet) -> None:
    """Only a drawn card's corner index (a rank, a suit, SKIP-BO or JOKER in capitals) is
    smaller than 7.5 pt; every word (a picture's label, a caption) is 7.5 pt or more. The
    print review measured the table pictures' labels at 7.1 pt on a folded Letter booklet;
    there the picture now reaches into the side margins."""
    small = {
        char["text"]
        for chars, _, _ in read_chars(booklet.pdf)  # pdfium: several times pdfplumber's pace
        for char in chars
        if char["size"] < 7.45 and char["text"].isalpha() and char["text"].islower()
    }
    assert not small, small


def test_no_word_is_hyphenated_on_a_line_far_from_full(booklet: Booklet) -> None:
    """A word is broken at a line's end only where the line is full (print review: "Sie
    ent-" alone on a line of the German board game's quick reference)."""
    assert early_hyphens(booklet.pages) == []
    assert lone_first_words(booklet.pages) == []  # print review: "• Nichts" alone
    # Nor is a paragraph's last word or a range of numbers (print review: "Kar-" / "tenstock.",
    # "9–" / "12."), the back cover's quick reference left out (it is fitted to its page).
    assert broken_ends(booklet.pages, folded=booklet.folded) == []


def test_the_quick_references_steps_are_set_in_the_body_face(booklet: Booklet) -> None:
    """Only the run-in heads of the quick reference are bold: its numbered steps and the
    entries after them are not (print review: a tag taken for a word left the rest of a
    flat quick reference bold)."""
    # Only the sides the quick reference is on are read, with their fonts.
    sides = read_chars(booklet.pdf, pages_with(booklet.pdf, "Quick reference"), fonts=True)
    found = 0
    for chars, width, height in halves(sides, folded=booklet.folded):
        lines = text_lines(chars, width, height)
        if not lines or lines[0]["text"] != "Quick reference":
            continue
        found += 1
        steps = [line for line in lines if re.match(r"[1-4]\. [A-Z]", line["text"])]
        assert steps, [line["text"] for line in lines][:5]
        for line in steps + lines[-3:]:
            bold = [c for c in line["chars"] if "Bold" in c["fontname"]]
            assert len(bold) < len(line["chars"]) / 2, line["text"]
    assert found == 1


def test_a_card_strip_stays_with_the_list_items_it_shows(booklet: Booklet) -> None:
    """A strip that shows the last items of the list before it (examples.toml's
    ``with_list``) stands on the page of the list's last item (print review 15: Spite and
    Malice's king strip opened page 6, its bullet on page 5), unless keeping it there would
    take the item's last lines over the page and leave a hole: then the item ends its
    page, full, and the strip opens the next (print review 34: "A Skip-Bo card counts as |
    the number" over a leaf, 82 pt left white)."""
    found = re.findall(
        r"<li>((?:(?!<li>).)*?)</li>\s*</ul>\s*<figure class=\"cards with-list\">.*?"
        r"<figcaption>(.*?)</figcaption>",
        booklet.html,
        re.S,
    )
    squeezed = [_squeezed(page.text) for page in booklet.pages]

    def page_of(html: str, end: bool) -> int:
        words = _squeezed(unescape(re.sub(r"<[^>]+>", "", html)).replace("\xad", ""))
        piece = words[-25:] if end else words[:25]
        (page,) = [number for number, text in enumerate(squeezed) if piece in text]
        return page

    for item, caption in found:
        ends, strip = page_of(item, end=True), page_of(caption, end=False)
        if strip != ends:
            # The strip opens the next page, because it and its caption could not stand
            # in the white the item's page leaves.
            assert strip == ends + 1, caption
            head = _squeezed(unescape(re.sub(r"<[^>]+>", "", caption)))[:12]
            assert strip_wants_room(booklet.pages, ends, strip, head), caption
    assert bool(found) == ('with-list"' in booklet.html)


@pytest.mark.parametrize(
    "case",
    [("skip-bo", "official", "a4", "booklet"), ("skip-bo", "no-series", "letter", "booklet")],
    ids=["official-a4", "no-series-letter"],
)
def test_a_strip_set_free_lets_its_item_end_the_page(
    case: tuple[str, str, str, str], booklet_of: Callable[..., Booklet]
) -> None:
    """Two folded booklets whose building-pile strip, kept with its list's last item, took
    that item's last two lines over the page and left a fifth of the page before it white
    (print review 34: "A Skip-Bo card counts as | the number the pile needs next" over a
    leaf, 82 pt white): the strip is set free, and the item ends on its own page; or, where
    the booklet is set so that the list and its strip stand on one page (the A4 booklet
    since a stranded heading before them is taken over: print review 38), they do."""
    booklet = booklet_of(*case)
    squeezed = [_squeezed(page.text) for page in booklet.pages]
    item = _squeezed("A Skip-Bo card counts as the number the pile needs next")
    (page,) = [number for number, text in enumerate(squeezed) if item in text]
    caption = _squeezed("One Skip-Bo card opens this pile")
    if caption in squeezed[page]:
        assert squeezed[page].index(item) < squeezed[page].index(caption)
        return
    assert caption in squeezed[page + 1]
    assert squeezed[page + 1].startswith(_squeezed("SB"))


# What the printing box takes beyond its text's lines, in points: 1 em of margin over it
# (9.5 pt), its rules (1 pt each) and padding (2 pt), its title's margin (0.3 em of 11.5 pt)
# and its last paragraph's margin under it (0.55 em).
BOX_FRAME = 9.5 + 2 + 2 + 0.3 * 11.5 + 0.55 * 9.5


@pytest.mark.parametrize("case", FOLDED, ids=["-".join(case) for case in FOLDED])
def test_a_folded_booklets_printing_box_takes_no_text_with_it(
    case: tuple[str, str, str, str], booklet_of: Callable[..., Booklet]
) -> None:
    """The printing box stands under the text's last lines where it fits there; where it
    does not, it opens the next page, over the pages to write on, and the text's end stays
    on its page (print review 16: "Winning" went over with the box and left its page a
    third empty; review 15: the last question did the same)."""
    portrait = [page for page in booklet_of(*case).pages if not page.landscape]
    (index,) = [
        number
        for number, page in enumerate(portrait)
        if any(line.text.strip() == "Printing these rules" for line in page.content)
    ]
    page = portrait[index]
    box = min(line.top for line in page.content if line.text.strip() == "Printing these rules")
    above = [line for line in page.content if line.bottom < box and line.text.strip()]
    fullest = max(p.fill for p in portrait[1:-1])
    if above:  # the text ends on the box's page: the page before it is full
        assert portrait[index - 1].fill >= 0.8 * fullest, (index, portrait[index - 1].fill)
    else:  # the box opens its page: it would not have fitted under the text's end
        notes = min(line.top for line in page.content if line.top > box + 20 and line.size > 12)
        # From its title's top to its last line's foot, and its frame: the margin over it,
        # its rule and padding, the white under its last line (BOX_FRAME).
        height = max(line.bottom for line in page.content if line.bottom < notes) - box
        height += BOX_FRAME
        before = portrait[index - 1]
        white = (fullest - before.fill) * before.height
        assert height > white, (index, round(height), round(white))
