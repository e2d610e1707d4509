"""Pictures in the booklet as a print designer checks them (issue 31, findings 5, 12, 15, 16).

A page is not left part empty because the figure after its text did not fit below it;
a short paragraph after a list stays with the list; the cover has a fan of the game's
cards and still its contents where they fitted; the html page carries its fonts cut down
to its own letters. The PDFs are the flat and folded booklets of the three games on A4 and
Letter in English and German (and Skip-Bo's heavy set), each rendered once per run.
"""

from __future__ import annotations

import base64
import functools
import io
import itertools
import re
import statistics
from collections.abc import Callable
from html import unescape
from typing import Any
from xml.etree import ElementTree

import pypdfium2 as pdfium
import pytest
from conftest import booklet_group
from fontTools.ttLib import TTFont
from pagecheck import Page, body_size, read_pages
from pdfcheck import _drawn

from sheetgen.booklet.build import render_html, rules_document
from sheetgen.booklet.imposition import half_paper
from sheetgen.booklet.mends import LEAD_SAFETY
from sheetgen.booklet.pdf import TAIL_LEAST
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4, LETTER

HEAVY = {
    "players": 6,
    "partnerships": True,
    "stock": "short",
    "deck": "standard",
    "must-play-stock": True,
    "target": 300,
}
SETS = [("skip-bo", "default"), ("spite-and-malice", "default"), ("skip-bo-board", "default")]
SETS.append(("skip-bo", "heavy"))
CASES = [
    (game, toggles, paper, layout, lang)
    for game, toggles in SETS
    for paper in ("a4", "letter")
    for layout in ("pages", "booklet")
    for lang in ("en", "de")
]
IDS = ["-".join(case) for case in CASES]
PAPERS = {"a4": A4, "letter": LETTER}
# A page before one that opens with a figure is at least this full (of the fullest page).
FULL_BEFORE_FIGURE = 0.75
Mark = tuple[float, float]  # top and bottom, down from the page's top


def _options(toggles: str) -> dict[str, Any]:
    return dict(HEAVY) if toggles == "heavy" else {}


@functools.lru_cache(maxsize=8)
def _read(pdf: bytes, folded: bool) -> list[Page]:
    """The booklet's pages read back, once for all the tests of its case (none changes them)."""
    return read_pages(pdf, folded=folded)


@functools.lru_cache(maxsize=8)
def _drawings(pdf: bytes, *, folded: bool) -> list[list[Mark]]:
    """Each page's drawn marks (not text) in reading order, as ``read_pages`` orders pages."""
    document = pdfium.PdfDocument(pdf)
    sides = []
    try:
        for page in document:
            height, width = page.get_height(), page.get_width()
            sides.append(([box for kind, box in _drawn(page) if kind != "text"], width, height))
    finally:
        document.close()

    def marks(boxes: list[Any], height: float, x0: float, x1: float) -> list[Mark]:
        return [
            (height - top, height - bottom)
            for left, bottom, right, top in boxes
            if x0 <= (left + right) / 2 < x1
        ]

    if not folded:
        return [marks(boxes, height, 0, width) for boxes, width, height in sides]
    whole = sides[-1][1] > sides[-1][2] and len(sides) % 2 == 1
    count = len(sides) - (1 if whole else 0)
    halves: dict[int, list[Mark]] = {}
    last = count * 2 - 1
    for k in range(count // 2):
        for (boxes, width, height), (left, right) in (
            (sides[2 * k], (last - 2 * k, 2 * k)),
            (sides[2 * k + 1], (2 * k + 1, last - 2 * k - 1)),
        ):
            halves[left] = marks(boxes, height, 0, width / 2)
            halves[right] = marks(boxes, height, width / 2, width)
    reading = [halves[index] for index in range(count * 2)]
    if whole:
        boxes, width, height = sides[-1]
        reading.append(marks(boxes, height, 0, width))
    return reading


def fill(page: Page, drawn: list[Mark]) -> float:
    """How full the page is from its first mark to its last, drawings included."""
    marks = [(line.top, line.bottom) for line in page.content] + drawn
    if not marks:
        return 0.0
    return (max(b for _, b in marks) - min(t for t, _ in marks)) / page.height


# Where a flat page's text area ends: the style sheet's bottom margin (pt above the edge).
FLAT_FOOT = 0.8 * 72


def white_to_foot(page: Page, drawn: list[Mark]) -> float:
    """The white (pt) under a flat page's last mark, drawings included, down to its text
    area's foot (the style sheet's bottom margin, FLAT_FOOT)."""
    last = max([line.bottom for line in page.content] + [bottom for _, bottom in drawn])
    return page.height - FLAT_FOOT - last


def opens_with_figure(page: Page, drawn: list[Mark], body: float) -> bool:
    """Whether the page's first mark is a drawing with no running text within 40 pt below
    its top (a table's top rule has its first row right under it, a heading its text)."""
    if not drawn or not page.content:
        return False
    top = min(t for t, _ in drawn)
    if min(line.top for line in page.content) < top - 1:
        return False
    running = [line.top for line in page.content if abs(line.size - body) < 0.2]
    return not running or min(running) > top + 40


def chapter_ends(html: str) -> list[str]:
    """The first words of the caption of each figure that closes its chapter."""
    found = re.findall(
        r"<figcaption[^>]*>((?:(?!</figcaption>).)*)</figcaption>\s*</figure>\s*</section>",
        html,
        re.S,
    )
    return [_words(caption)[:25] for caption in found]


# The titles of a folded booklet's pages to write on, in both languages, and the column
# heads that open the record's second page.
PADDING_TITLES = frozenset(
    {
        *("Notes", "More notes", "Games played", "Series played"),
        *("Notizen", "Weitere Notizen", "Gespielte Partien", "Gespielte Serien"),
        *("Date Winner Remarks", "Date Winner Final score"),
        *("Datum Gewinner Bemerkungen", "Datum Gewinner Endstand"),
    }
)


def _pads(page: Page) -> bool:
    """Whether ``page`` is one of a folded booklet's pages to write on."""
    first = min(page.content, key=lambda line: line.top) if page.content else None
    return first is not None and " ".join(first.text.split()) in PADDING_TITLES


def figure_gaps(
    pages: list[Page], drawings: list[list[Mark]], ends: list[str] | None = None
) -> list[str]:
    """Each page (past the cover) left less than FULL_BEFORE_FIGURE full before a page that
    opens with a figure, unless that figure closes its chapter (its caption one of ``ends``):
    such a figure stays in its chapter, and no text of that chapter is left to fill the page."""
    body = body_size(pages)
    # A folded booklet's pages to write on (ruled notes, a record) follow its text by
    # design: its last page of text before them is no page left before a figure.
    portrait = [index for index, page in enumerate(pages) if not page.landscape and not _pads(page)]
    fills = {index: fill(pages[index], drawings[index]) for index in portrait}
    capacity = max(fills.values())
    found = []
    for index in portrait[1:-1]:
        after = index + 1
        gap = after in fills and opens_with_figure(pages[after], drawings[after], body)
        gap = gap and not any(end in _words(pages[after].text) for end in ends or ())
        if gap and fills[index] < FULL_BEFORE_FIGURE * capacity:
            found.append(f"page {index + 1}: {fills[index] / capacity:.0%} full before a figure")
    return found


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(case, id=name, marks=pytest.mark.xdist_group(booklet_group(*case)))
        for case, name in zip(CASES, IDS, strict=True)
    ],
)
def booklet(
    request: pytest.FixtureRequest, booklet_pdf: Callable[..., bytes]
) -> tuple[bytes, bool, str]:
    game, toggles, paper, layout, lang = request.param
    pdf = booklet_pdf(game, PAPERS[paper], layout, lang=lang, **_options(toggles))
    half = half_paper(PAPERS[paper]).portrait if layout == "booklet" else None
    rules = resolve(game=game, options=_options(toggles))
    html = render_html(rules, paper=PAPERS[paper], page_size_override=half, lang=language(lang))
    return pdf, layout == "booklet", html


def test_no_page_is_left_part_empty_before_a_figure(booklet: tuple[bytes, bool, str]) -> None:
    """Finding 5: the text after a figure that did not fit fills the page before it."""
    pdf, folded, html = booklet
    pages = _read(pdf, folded)
    assert figure_gaps(pages, _drawings(pdf, folded=folded), chapter_ends(html)) == []


# A page before one that a table picture opens is at least this full (of the fullest page):
# a fifth of it white at most.
FULL_BEFORE_PICTURE = 0.8


def test_no_hole_is_left_before_the_table_picture(booklet: tuple[bytes, bool, str]) -> None:
    """Print review 38: the heavy set's six-seat picture closes its chapter ("Setting up"),
    so no text of the chapter was left to fill the flat A4 page before it, and 177 pt of
    that page stood white. A table picture that opens a page is set where the page before
    it is full: after the text that follows it, or earlier in its chapter."""
    pdf, folded, html = booklet
    pages = _read(pdf, folded)
    drawings = _drawings(pdf, folded=folded)
    found = re.search(r'<figure class="picture">.*?<figcaption[^>]*>(.*?)</figcaption>', html, re.S)
    assert found, "no table picture"
    page, _ = _where(pages, _words(found.group(1))[:25], whole=False)
    if not opens_with_figure(pages[page], drawings[page], body_size(pages)) or page < 2:
        return
    portrait = [i for i, each in enumerate(pages) if not each.landscape and not _pads(each)]
    capacity = max(fill(pages[index], drawings[index]) for index in portrait)
    share = fill(pages[page - 1], drawings[page - 1]) / capacity
    assert share >= FULL_BEFORE_PICTURE, (page, round(share, 2))


def test_an_examples_lead_in_stands_on_its_page(booklet: tuple[bytes, bool, str]) -> None:
    """Issue 31 (third print review): the sentence that leads into a drawing under its
    subsection's heading ("An example") is never cut from it, its last lines at the foot of
    a page and the drawing overleaf. It may end the page before whole where the drawing
    opens the next (print review 40: 130 pt left white before "An example" where the two
    moved on together), in a folded booklet only on the page facing it. A table picture has
    no lead-in (print review 12: a lead-in and the caption both described the board), so a
    layout may set it after any paragraph, at the head of a page."""
    pdf, folded, html = booklet
    pages = _read(pdf, folded)
    drawings, body = _drawings(pdf, folded=folded), body_size(pages)
    pairs = re.findall(
        r"</h3>\s*<p>((?:(?!<p>).)*?)</p>\s*<figure class=\"(?!picture)[^\"]*\">.*?"
        r"<figcaption[^>]*>(.*?)</figcaption>",
        html,
        re.S,
    )
    for lead_in, caption in pairs:
        last = re.findall(r"\w+", unescape(re.sub(r"<[^>]+>", "", lead_in)))[-1]
        page, top = _where(pages, _words(caption)[:25], whole=False)
        above = [line for line in pages[page].content if line.top < top]
        if any(_words(line.text).endswith(last) for line in above):
            continue
        # Set free of its lead-in (mends.held_examples): the drawing opens its page, the
        # lead-in whole at the foot of the page before, on the same spread if folded.
        opens = opens_with_figure(pages[page], drawings[page], body)
        assert opens and page and not (folded and page % 2), (page + 1, last)
        lines = [_words(line.text) for line in pages[page - 1].content]
        assert lines[-1].endswith(last) and _words(lead_in) in "".join(lines), (page, last)
    # The paragraph before a table picture is no lead-in: it does not point at the picture.
    for before in re.findall(r"<p>((?:(?!<p>).)*?)</p>\s*<figure class=\"picture\">", html, re.S):
        said = unescape(re.sub(r"<[^>]+>", "", before))
        assert not re.search(r"(?i)\bhere is\b|from above|von oben|\bhier (der|die|das)\b", said)


def test_an_example_leaves_no_room_for_its_head_on_the_page_before(
    booklet: tuple[bytes, bool, str],
) -> None:
    """Print review 40: 130 pt stood white at the foot of a page before "An example", whose
    subheading, lead-in and drawing had moved on together. An example whose lead-in has
    four lines or more (fewer would leave the subheading stranded) and whose subheading
    opens a page finds no room for its subheading and lead-in on the page before (in a
    folded booklet, where that page faces it): they end that page, the drawing overleaf."""
    pdf, folded, html = booklet
    pages = _read(pdf, folded)
    drawings, body = _drawings(pdf, folded=folded), body_size(pages)
    portrait = [i for i, each in enumerate(pages) if not each.landscape and not _pads(each)]
    capacity = max(fill(pages[index], drawings[index]) for index in portrait)
    headings = re.findall(
        r"<h3[^>]*>((?:(?!</h3>).)*)</h3>\s*<p>(?:(?!</p>).)*</p>\s*<figure class=\"(?!picture)",
        html,
        re.S,
    )
    assert headings or '<figure class="cards' not in html, "no example"
    for heading in headings:
        name = _words(heading)
        for index, page in enumerate(pages[1:], start=1):
            first = min(page.content, key=lambda line: line.top, default=None)
            if first is None or _words(first.text) != name or (folded and index % 2):
                continue
            below = [t for t, _ in drawings[index] if t > first.bottom]
            if not below:
                continue
            lead = {
                round(line.top)
                for line in page.content
                if first.bottom < line.top < min(below) and abs(line.size - body) < 0.2
            }
            needed = (min(below) - first.top) / page.height
            white = capacity - fill(pages[index - 1], drawings[index - 1])
            if len(lead) >= 4:
                assert white < needed + LEAD_SAFETY, (index, heading, round(white * page.height))


# The most white (pt) left at the foot of the page before a list's last item that its
# strip took over the page.
KING_WHITE = 50


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_kings_bullet_opens_a_page_only_after_a_full_one(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str
) -> None:
    """Print review 41: Spite and Malice's last bullet ("A king may be played on any centre
    stack"), kept with the strip that shows it, went over the page with it and left 72 pt
    (a tenth of a Letter page) white mid-list; review 41, 57 pt on the German Letter
    booklet, whose fullest page ends short of its text area's foot. Where it opens a page,
    the page before ends within KING_WHITE of the fullest page's foot and of its own
    (mends.HELD_SHARE); otherwise the strip is set free of it."""
    pdf = booklet_pdf("spite-and-malice", PAPERS[paper], "pages", lang=lang)
    pages = read_pages(pdf, folded=False)
    drawings = _drawings(pdf, folded=False)
    portrait = [i for i, each in enumerate(pages) if not each.landscape]
    capacity = max(fill(pages[index], drawings[index]) for index in portrait)
    words = _words("A king may be played" if lang == "en" else "Ein König darf")
    (index,) = [i for i in portrait if words in _words(pages[i].text)]
    first = min(pages[index].content, key=lambda line: line.top)
    if words in _words(first.text):
        before = pages[index - 1]
        white = (capacity - fill(before, drawings[index - 1])) * before.height
        white = max(white, white_to_foot(before, drawings[index - 1]))
        assert white < KING_WHITE, (index, round(white))


# The most white (pt) at the foot of a flat page before one that a subheading and its list
# open (the rule a print reviewer reads: 40 pt).
SHORT_BEFORE = 40


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_long_first_bullet_ends_a_page_rather_than_leave_the_page_before_short(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str
) -> None:
    """Print review 41: the board game's German Letter booklet left 100 pt white under its
    board picture before "Inhalt der Schachtel", because the style sheet kept the list's
    five-line first bullet with the second (html.LONG_FIRST_ITEM). Where the heading opens
    a page, the page before ends within SHORT_BEFORE of its text area's foot."""
    pdf = booklet_pdf("skip-bo-board", PAPERS[paper], "pages", lang=lang)
    pages = read_pages(pdf, folded=False)
    drawings = _drawings(pdf, folded=False)
    heading = "Inhalt der Schachtel" if lang == "de" else "What is in the box"
    (index,) = [
        i for i, page in enumerate(pages) if any(line.text == heading for line in page.content)
    ]
    if min(pages[index].content, key=lambda line: line.top).text == heading:
        white = white_to_foot(pages[index - 1], drawings[index - 1])
        assert white < SHORT_BEFORE, (index, paper, lang, round(white))


@pytest.mark.parametrize("layout", ["pages", "booklet"])
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_list_inside_an_item_sets_no_white_of_its_own(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str, layout: str
) -> None:
    """Print review 42: the list inside Spite and Malice's second step ("your hand; the top
    card of any of your own side stacks; ...") kept a list's own margins, and the white
    they set pushed the next step over the page, 45 pt short; review 43: a looser spacing
    set 0.3 em between its items again. Each of its lines stands one line below the line
    above it, as the item's own lines do, in every spacing."""
    pdf = booklet_pdf("spite-and-malice", PAPERS[paper], layout, lang=lang)
    checked = 0
    for page in read_pages(pdf, folded=layout == "booklet"):
        lines = sorted(page.content, key=lambda line: line.top)
        steps = [round(b.top - a.top, 2) for a, b in itertools.pairwise(lines)]
        for (above, line), step in zip(itertools.pairwise(lines), steps, strict=True):
            if line.text.startswith("\u25e6"):
                pitch = statistics.mode(steps)
                assert step < pitch + 1.0, (line.text, step, pitch)
                checked += not above.text.startswith("\u25e6")
    assert checked == 1


def _words(text: str) -> str:
    return re.sub(r"\W+", "", unescape(re.sub(r"<[^>]+>", "", text)).replace("\u00ad", ""))


def test_a_short_paragraph_after_a_list_is_not_left_alone_at_a_page_head(
    booklet: tuple[bytes, bool, str],
) -> None:
    """Finding 16: a line or two that closes a list never opens the next page."""
    pdf, folded, html = booklet
    closing = [_words(p)[:25] for p in re.findall(r'<p class="follows-list">(.*?)</p>', html, re.S)]
    pages = _read(pdf, folded)
    for page in pages[1:]:
        if page.content:
            first = _words(min(page.content, key=lambda line: line.top).text)
            assert not any(first.startswith(words[: len(first)]) for words in closing if first), (
                first
            )


def test_short_paragraphs_after_lists_are_marked_and_long_ones_not() -> None:
    html = render_html(resolve(game="skip-bo", options={}), paper=A4)
    marked = re.findall(r'<p class="follows-list">(.*?)</p>', html, re.S)
    plain = [" ".join(unescape(re.sub(r"<[^>]+>", "", p)).split()) for p in marked]
    assert plain and all(len(p) <= 160 for p in plain)
    after = re.findall(r"</[uo]l>\s*<p>(.*?)</p>", html, re.S)
    assert all(len(unescape(re.sub(r"<[^>]+>", "", p))) > 160 for p in after)


def _cover_drawn(pdf: bytes, *, folded: bool) -> list[tuple[float, float, float, float]]:
    """The cover's drawn marks (left, top, right, bottom), top down: a folded booklet's
    cover is the right half of its first side."""
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        width, height = page.get_width(), page.get_height()
        boxes = [box for kind, box in _drawn(page) if kind != "text"]
    finally:
        document.close()
    if folded:
        boxes = [box for box in boxes if (box[0] + box[2]) / 2 >= width / 2]
    return [(left, height - top, right, height - bottom) for left, bottom, right, top in boxes]


def _html_has_no_suggestions(html: str) -> bool:
    return 'class="notes"' not in html


def test_every_cover_has_its_fan_centred_under_its_lines(booklet: tuple[bytes, bool, str]) -> None:
    """Print review 7, finding 1: one cover for every game, paper and language. The fan of
    cards stands centred under the title and its lines (never beside them); in a flat
    booklet the contents follow the box of choices where they fit, else, and in every
    folded booklet, they open page 2 and the text follows them there (not a page of
    contents alone)."""
    pdf, folded, _ = booklet
    pages = _read(pdf, folded)
    cover = pages[0]
    box = next(line for line in cover.content if "choices" in line.text or "gewählt" in line.text)
    # The title and its lines (the cards' own indices and faces, a letter or two, left out).
    above = [
        line
        for line in cover.content
        if line.bottom <= box.top and line.size > 10 and re.search(r"[^\W\d_]{3}", line.text)
    ]
    drawn = _cover_drawn(pdf, folded=folded)
    # The cards: each about 50 pt tall (86 of the fan's 119 units, turned), up to twice
    # that on a folded cover with room, between the title's lines and the box of choices.
    fan = [mark for mark in drawn if mark[3] <= box.top and 40 < mark[3] - mark[1] < 120]
    # Left off only where the box of choices would not fit with it: the box then fills
    # the cover (the heavy set in German on a folded booklet's half page).
    foot = max(line.bottom for line in cover.content) / cover.height
    assert len(fan) >= 3 or foot > 0.8, foot
    # Print review 10, finding 15: a folded cover has no empty lower third; its fan grows
    # into the white, and the box of choices ends near the foot of the page.
    if folded:
        assert foot > 0.8, foot
        # Print review 12: the heavy set's long box left its fan 1.3 in tall (English) or
        # none (German); the booklet's suggestions then go under the contents on page 2,
        # and every folded cover has its fan grown to at least 70 pt a card.
        cards = [mark for mark in drawn if mark[3] <= box.top and mark[3] - mark[1] > 40]
        assert len(cards) >= 3 and max(mark[3] - mark[1] for mark in cards) >= 70, cards
        suggests = ("thisbookletsuggests", "schlägtdiesesHeftvor")
        if not any(words in _words(cover.text) for words in suggests):
            assert not _html_has_no_suggestions(booklet[2])
            # On page 2 under a heading of their own, as the cover's box has (print review
            # 13: a box with a lead-in only).
            titled = ("Thisbookletssuggestions", "VorschlägediesesHefts")
            assert any(words in _words(pages[1].text) for words in titled)
    if not fan:
        return
    # Print reviews 13 and 14: the flat cover's fan was an inch tall (1.2 in wide) over
    # 2.5 in of white at the foot; it is now half as tall again.
    assert max(mark[3] - mark[1] for mark in fan) >= 68, fan
    assert min(mark[1] for mark in fan) >= max(line.bottom for line in above) - 1  # under
    frame = max(drawn, key=lambda mark: mark[2] - mark[0])  # the box of choices
    middle = (min(mark[0] for mark in fan) + max(mark[2] for mark in fan)) / 2
    assert abs(middle - (frame[0] + frame[2]) / 2) < 4
    named = ("Contents", "Inhalt")
    on_cover = any(line.text.strip() in named for line in cover.lines)
    # A folded booklet's contents always open page 2 (print review 8: on the cover or not
    # as the box of choices left room was two designs).
    assert not (folded and on_cover)
    if not on_cover:
        second = pages[1]
        first = min(second.content, key=lambda line: line.top)
        assert first.text.strip() in named
        # The first chapter's heading, larger than the text, stands under the contents.
        assert any(line.size > body_size(pages) + 2 for line in second.content if line is not first)


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
def test_each_games_cover_has_its_fan_of_cards(
    booklet_pdf: Callable[..., bytes], game: str
) -> None:
    pages_drawn = _drawings(booklet_pdf(game, LETTER, "pages"), folded=False)
    assert [mark for mark in pages_drawn[0] if mark[1] - mark[0] > 30]
    html = render_html(resolve(game=game, options={}), paper=LETTER)
    assert html.count('<div class="motif') == 1 and "A fan of five playing cards" in html


# ---------------------------------------------------------------- the page for a phone


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_html_page_carries_only_the_letters_it_uses(lang: str) -> None:
    """Finding 15: under 150 KB (638 KB with the whole faces), and every character of the
    page is in the cut-down faces."""
    html = rules_document(
        resolve(game="skip-bo", options={}), paper=A4, fmt="html", lang=language(lang)
    ).decode("utf-8")
    assert len(html.encode("utf-8")) < 150_000
    fonts = re.findall(r'url\("data:font/(woff2|ttf);base64,([^"]+)"\)', html)
    assert len(fonts) == 2
    text = unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style\b.*?</style>", " ", html, flags=re.S)))
    letters = {ord(char) for char in text if not char.isspace()}
    letters |= {ord(char) for char in "0123456789.,:;()"}
    for _, data in fonts:
        cmap = TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()
        assert letters - set(cmap) == set(), sorted(chr(c) for c in letters - set(cmap))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(
    ("game", "options", "widest"),
    [
        # Skip-Bo's and Spite and Malice's smallest words are 14.5 to 20 units, the board
        # game's 14: each 12 px or more at 286 px (a 320 px screen's text width).
        ("skip-bo", {}, 440),
        ("skip-bo", {"players": 6, "stock": 1}, 440),
        ("skip-bo", {"players": 4, "partnerships": True}, 440),
        ("skip-bo", {"players": 6, "partnerships": True, "stock": 1}, 440),
        ("spite-and-malice", {}, 440),
        ("spite-and-malice", {"stock": "1", "building-piles": 4}, 440),
        ("skip-bo-board", {}, 333),
    ],
)
def test_the_table_picture_has_a_phones_drawing_with_its_own_ids(
    game: str, options: dict[str, Any], widest: float, lang: str
) -> None:
    """Issue 31 item 5: on a screen the table picture comes a second time, redrawn for a
    phone (test_screen_booklet shows which is seen where), its ids its own; printed, once."""
    rules = resolve(game=game, options=options)
    html = render_html(rules, paper=A4, lang=language(lang), screen=True)
    narrow = re.findall(r'<div class="narrow">\s*(<svg.*?</svg>)', html, re.S)
    assert len(narrow) == 1
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    for svg in narrow:
        own = re.findall(r'\bid="([^"]+)"', svg)
        assert own and all(name.startswith("narrow-") for name in own)
        named = re.findall(r'url\(#([^)]+)\)|aria-labelledby="([^"]+)"', svg)
        assert all((a or b).startswith("narrow-") for a, b in named)
        width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
        assert width <= widest
        # Every word of the wide drawing is in the phone's (there, perhaps, in its key).
        (wide,) = re.findall(r'<div class="drawing wide"[^>]*>\s*(<svg.*?</svg>)', html, re.S)
        assert _drawn_words(wide) <= _drawn_words(svg)
        assert min(map(float, re.findall(r'font-size="([\d.]+)"', svg))) >= 14
    printed = render_html(rules, paper=A4, lang=language(lang))
    assert 'class="narrow"' not in printed


def _drawn_words(svg: str) -> set[str]:
    """The words a drawing shows (its title, the long description, left out), a word
    broken over two lines of a square ("Karten-", "stock") read whole."""
    svg = re.sub(r"<title.*?</title>", "", svg, flags=re.S)
    drawn = " ".join(unescape(t).strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    drawn = re.sub(r"(?<=\w)- (?=[a-zäöüß])", "", drawn)  # "Karten- stock" is one word
    return set(re.sub(r"(?<=\w-) (?=[A-ZÄÖÜ])", "", drawn).split())  # "Kartenstock-Feld"


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice"])
def test_the_cover_fan_on_a_screen_falls_back_to_a_sans_face(game: str) -> None:
    """The fan is an image: the page's embedded fonts do not reach it, so its card indices
    name a sans-serif fallback rather than meeting the browser's serif (print review)."""
    import base64
    import re as regex

    from sheetgen.booklet.html import MOTIF_URL, render_html
    from sheetgen.game.houserules import resolve
    from sheetgen.paper import A4

    html = render_html(resolve(game=game), paper=A4, screen=True)
    found = regex.search(regex.escape(MOTIF_URL) + r"([A-Za-z0-9+/=]+)", html)
    assert found, "no fan on the cover"
    drawing = base64.b64decode(found.group(1)).decode("utf-8")
    assert "sans-serif" in regex.search(r'font-family="([^"]+)"', drawing).group(1)


def test_a_drawings_words_leave_no_word_alone_on_the_last_line() -> None:
    """The phone key's "pile" stood alone on its line (print review): the line before
    gives it a word when it can."""
    from sheetgen.booklet.templating import drawn_lines
    from sheetgen.game.examples import text_width

    text = "S = stock pile, its top card face up, on its owner's right; D = discard pile"
    for width in range(180, 420, 10):
        lines = drawn_lines(text, width, 14)
        assert " ".join(lines) == text
        assert all(text_width(line, 14) <= width or " " not in line for line in lines)
        if len(lines) > 1 and lines[-2].count(" ") > 1:
            assert (
                " " in lines[-1]
                or text_width(f"{lines[-2].rsplit(' ', 1)[1]} {lines[-1]}", 14) > width
            ), (width, lines)


# The booklets the print review (issue 31) named: Spite and Malice on Letter, folded and
# flat, whose table picture went into the next chapter; Skip-Bo flat on Letter and the
# board game flat on A4 in German, whose page before the last was left about half empty.
PICTURE_CASES = [
    ("spite-and-malice", "letter", "booklet", "en"),
    ("spite-and-malice", "letter", "pages", "en"),
    ("skip-bo-board", "a4", "pages", "de"),
]
FILL_CASES = [("skip-bo", "letter", "pages", "en"), ("skip-bo-board", "a4", "pages", "de")]
# A page of running text (not the last) is at least this full, of the fullest page.
FULL_PAGE = 0.7


def _chapters(html: str) -> list[tuple[str, list[str]]]:
    """Each chapter's heading and the first words of its figures' captions, in order."""
    found = []
    for body in re.findall(r'<section class="chapter[^"]*">(.*?)</section>', html, re.S):
        heading = re.search(r"<h2[^>]*>(.*?)</h2>", body, re.S)
        if heading:
            captions = re.findall(r"<figcaption[^>]*>(.*?)</figcaption>", body, re.S)
            found.append((_words(heading.group(1)), [_words(c)[:25] for c in captions]))
    return found


def _where(pages: list[Page], words: str, *, whole: bool) -> tuple[int, float]:
    """The page and height of the first line past the cover that is ``words`` (``whole``)
    or starts with them (a caption's first line, which holds its first 25 letters)."""
    for index, page in enumerate(pages[1:], start=1):
        for line in sorted(page.content, key=lambda line: line.top):
            text = _words(line.text)
            if text and (text == words if whole else text.startswith(words)):
                return index, line.top
    raise AssertionError(f"{words!r} is not in the booklet")


@pytest.mark.parametrize("case", PICTURE_CASES, ids=["-".join(c) for c in PICTURE_CASES])
def test_a_figure_stays_within_its_chapter(
    case: tuple[str, str, str, str], booklet_pdf: Callable[..., bytes]
) -> None:
    """Issue 31, 1: a figure moved past the text that fills its page goes no further than
    its chapter's end: its caption stands after its chapter's heading and before the
    next chapter's."""
    game, paper, layout, lang = case
    folded = layout == "booklet"
    pdf = booklet_pdf(game, PAPERS[paper], layout, lang=lang)
    half = half_paper(PAPERS[paper]).portrait if folded else None
    rules = resolve(game=game, options={})
    html = render_html(rules, paper=PAPERS[paper], page_size_override=half, lang=language(lang))
    pages = _read(pdf, folded)
    chapters = _chapters(html)
    checked = 0
    for (heading, captions), (following, _) in itertools.pairwise(chapters):
        start = _where(pages, heading, whole=True)
        end = _where(pages, following, whole=True)
        for caption in captions:
            assert start < _where(pages, caption, whole=False) < end, (heading, caption)
            checked += 1
    assert checked


@pytest.mark.parametrize("case", FILL_CASES, ids=["-".join(c) for c in FILL_CASES])
def test_no_page_before_the_last_is_left_half_empty(
    case: tuple[str, str, str, str], booklet_pdf: Callable[..., bytes]
) -> None:
    """Issue 31, 2: the balancing break that gives a short last page more to carry takes
    no more than it needs, and where that would still leave the page before it part empty
    a tighter or looser spacing is set instead: Skip-Bo's p. 7 (Common questions) and the
    board game's p. 6 (before "Volle Ablagestapel") were about half empty. Every page of
    running text but the last is at least FULL_PAGE full, unless a figure that closes its
    chapter (which may not move past the chapter's end) opens the next."""
    game, paper, layout, lang = case
    pdf = booklet_pdf(game, PAPERS[paper], layout, lang=lang)
    rules = resolve(game=game, options={})
    html = render_html(rules, paper=PAPERS[paper], lang=language(lang))
    pages = read_pages(pdf, folded=False)
    drawings = _drawings(pdf, folded=False)
    back = next(
        index
        for index, page in enumerate(pages[1:], start=1)
        if _words(min(page.content, key=lambda line: line.top).text)
        in ("Quickreference", "Kurzübersicht")
    )
    fills = [fill(page, drawn) for page, drawn in zip(pages, drawings, strict=True)]
    capacity = max(fills[1:back])
    ends = chapter_ends(html)
    body = body_size(pages)
    # The named pages are running text: Skip-Bo's p. 7 is now its last page, holding the
    # end of Common questions, the pages before it full; the board game's text (a lead-in
    # kept with its list or table only where it ends in a colon) now ends on p. 6.
    assert back >= 6
    for index in range(1, back - 1):
        after = pages[index + 1]
        closing = opens_with_figure(after, drawings[index + 1], body) and any(
            end in _words(after.text) for end in ends
        )
        assert closing or fills[index] >= FULL_PAGE * capacity, (index + 1, fills[index])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
def test_a_table_pictures_caption_is_short_and_not_its_description(game: str, lang: str) -> None:
    """Third print review: the board game's and Spite and Malice's pictures were described
    three times over (lead-in, legend, a five-line caption that repeated the picture's
    text alternative). The printed caption is a line or two; the long description stays
    the picture's own title, which a screen reader and the tagged PDF's /Alt read."""
    rules = resolve(game=game, options={})
    html = render_html(rules, paper=A4, lang=language(lang))
    figure = re.search(r'<figure class="picture">(.*?)</figure>', html, re.S)
    assert figure is not None
    caption = _words(re.search(r"<figcaption[^>]*>(.*?)</figcaption>", figure.group(1), re.S)[1])
    title = re.search(r"<title[^>]*>(.*?)</title>", figure.group(1), re.S)
    assert title is not None and len(_words(title.group(1))) > 2 * len(caption)
    assert len(caption) <= 100, caption


def test_printed_contents_name_the_chapters_and_a_screen_also_the_sections() -> None:
    """Print review 7: the contents stay on the cover with the fan above them, so printed
    they name the chapters only (a short booklet's sections are found by their headings);
    on a screen, where the contents are the page's navigation, the sections too."""
    rules = resolve(game="skip-bo", options={})
    printed = render_html(rules, paper=LETTER)
    screen = render_html(rules, paper=LETTER, screen=True)
    assert printed.count('<li class="toc-1') >= 8 and 'class="toc-2' not in printed
    assert screen.count('<li class="toc-2') >= 5
    # Each chapter's sections are a list inside its entry, not entries of their own beside
    # it (print review 12: the screen's contents read as one flat list).
    nav = re.search(r'<nav class="toc".*?</nav>', screen, re.S)
    assert nav is not None
    tree = ElementTree.fromstring(nav.group(0))
    chapters = tree.findall("./ul/li")
    assert chapters and all(li.get("class") == "toc-1" for li in chapters)
    nested = [li for chapter in chapters for li in chapter.findall("./ul/li")]
    assert len(nested) == screen.count('<li class="toc-2') >= 5


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_short_last_page_of_text_is_ruled_to_write_on(
    booklet_pdf: Callable[..., bytes], paper: str
) -> None:
    """Print review 8: German Skip-Bo folded ended its text on a page 37 % full before the
    back cover. Where no notes page follows, the rest of that page is ruled (its lines
    drawn down towards the foot), and the booklet keeps its sheets: with the points game on,
    as the log of the series played (print review 16: a points game's booklet had none),
    in four rows or more (review 16: two ruled lines looked like an accident)."""
    pdf = booklet_pdf("skip-bo", PAPERS[paper], "booklet", lang="de")
    pages = read_pages(pdf, folded=True)
    drawn = _drawings(pdf, folded=True)
    portrait = [index for index, page in enumerate(pages) if not page.landscape]
    last = portrait[-2]  # the page before the back cover
    assert "Gespielte Serien" in pages[last].text and "Notizen" not in pages[last].text
    assert "Datum Gewinner Endstand" in " ".join(pages[last].text.split())
    # The ruled lines: each drawn as its row, 22 pt high, its rule at the foot.
    rules = [bottom for top, bottom in drawn[last] if 20 < bottom - top < 25]
    assert len(rules) >= TAIL_LEAST - 1
    page = pages[last]
    assert max(rules) > 0.75 * page.height, max(rules) / page.height
    assert len(portrait) % 4 == 0


@pytest.mark.parametrize(
    ("game", "paper"),
    [("skip-bo", "a4"), ("skip-bo-board", "a4"), ("spite-and-malice", "letter")],
)
def test_no_word_is_hyphenated_over_a_page_turn(
    booklet_pdf: Callable[..., bytes], game: str, paper: str
) -> None:
    """Print review 9: "Spieler-|stapeln", "nach-|ziehen" and "Hilfs-|stapel" were broken
    between the foot of one page and the head of the next in the German folded booklets.
    No page of text ends in a hyphenated word."""
    pdf = booklet_pdf(game, PAPERS[paper], "booklet", lang="de")
    pages = [page for page in read_pages(pdf, folded=True) if not page.landscape]
    for index, (page, after) in enumerate(itertools.pairwise(pages[:-1]), start=1):
        text = [line for line in page.content if line.text.strip() != page.number]
        if not text or not after.content:
            continue
        last = max(text, key=lambda line: line.bottom).text.rstrip()
        first = min(after.content, key=lambda line: line.top).text.lstrip()
        split = re.search(r"[^\W\d_][\u2010-]$", last) and first[:1].islower()
        assert not split, (index, last[-30:], first[:30])


@pytest.mark.parametrize(("lang", "rule"), [("en", ("queen", "wild")), ("de", ("Dame", "König"))])
def test_the_spite_and_malice_picture_names_the_centre_stacks_without_their_rule(
    lang: str, rule: tuple[str, ...]
) -> None:
    """Print review 10, finding 6: the centre-stack label ran to three lines and said again
    the rule the text and the next caption say (ace to queen, kings wild). It names the
    stacks and how many there may be, on one line."""
    html = render_html(resolve(game="spite-and-malice", options={}), paper=A4, lang=language(lang))
    svg = re.search(r'<figure class="picture">.*?(<svg\b.*?</svg>)', html, re.S)
    assert svg is not None
    drawn = " ".join(re.findall(r"<text\b[^>]*>([^<]*)</text>", svg.group(1)))
    assert not any(word in drawn for word in rule), drawn
    label = "center stacks: at most three at once" if lang == "en" else "höchstens drei zugleich"
    assert label in drawn.replace("centre", "center")


# The heavy set's folded booklet on both papers in both languages.
EVERY_PAPER_AND_LANGUAGE = pytest.mark.parametrize(
    ("paper", "lang"),
    [("a4", "en"), ("letter", "en"), ("a4", "de"), ("letter", "de")],
    ids=["a4-en", "letter-en", "a4-de", "letter-de"],
)


@EVERY_PAPER_AND_LANGUAGE
def test_the_heavy_sets_quick_reference_with_its_suggestions_is_still_the_back_cover(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str
) -> None:
    """Print review 10, finding 9: Skip-Bo's quick reference now gives the booklet's
    suggestion for an empty draw pile and a standstill, as the other games' do; set a
    little closer, it still fits the back cover of the heavy set. German on Letter ran on
    from the foot of a page of text, its back cover a page of notes with a folio (print
    review 15); it is set closer still there, at the same size, and stands on the back cover too."""
    pdf = booklet_pdf("skip-bo", PAPERS[paper], "booklet", lang=lang, **HEAVY)
    pages = [page for page in read_pages(pdf, folded=True) if not page.landscape]
    first = min(pages[-1].content, key=lambda line: line.top).text.strip()
    assert first in ("Quick reference", "Kurzübersicht"), first
    assert pages[-1].number is None  # the outside of the booklet has no folio
    assert all(
        "Quick reference" not in page.text and "Kurzübersicht" not in page.text
        for page in pages[2:-1]
    )


@pytest.mark.parametrize(
    ("paper", "lang"), [("letter", "de"), ("a4", "en")], ids=["letter-de", "a4-en"]
)
def test_the_board_games_folded_pages_are_full_before_its_last_page_of_text(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str
) -> None:
    """Print review 11, findings 1 and 2 (both reviewers): the folded board game's pages 6
    and 7 ended a third short, before "Moving the counters" (a heading, a lead-in and a
    two-item list kept whole) and "The special spaces" (a heading, a paragraph tied to its
    six-row table). Every page of running text between the contents and the last page of
    text is now at least three quarters as full as the fullest."""
    pdf = booklet_pdf("skip-bo-board", PAPERS[paper], "booklet", lang=lang)
    pages = [page for page in read_pages(pdf, folded=True) if not page.landscape]
    _assert_full_but_the_last(_running_text(pages), 0.75)


# The printing box, which on a folded booklet may open the page after the text's last.
CLOSING_TITLES = ("Printing these rules", "Diese Regeln drucken")


def _running_text(pages: list[Page]) -> list[Page]:
    """A folded booklet's pages of running text: past the cover and the contents, before
    the back cover, and not a page to write on nor one the printing box opens."""
    return [
        page
        for page in pages[2:-1]
        if page.content and not _pads(page) and page.content[0].text not in CLOSING_TITLES
    ]


def _assert_full_but_the_last(text: list[Page], share: float) -> None:
    """Every page of ``text`` but the last is at least ``share`` as full as the fullest."""
    fullest = max(page.fill for page in text)
    assert all(page.fill >= share * fullest for page in text[:-1]), [
        round(page.fill / fullest, 2) for page in text
    ]


@EVERY_PAPER_AND_LANGUAGE
def test_the_heavy_sets_folded_pages_end_full(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str
) -> None:
    """Print reviews 15 and 16: the German heavy set on Letter was the weakest booklet,
    its pages 4 to 11 ending a sixth to a quarter short: "The numbers for this table" (a
    heading and six rows kept whole) did not fit after "Who starts", and the strips, the
    scoring table and its heading each moved on. With the numbers set before "Who starts",
    the building piles' strip kept with its list and the scoring's lead-in one sentence,
    every page of running text but the last is at least four fifths as full as the
    fullest, in both languages on both papers."""
    pdf = booklet_pdf("skip-bo", PAPERS[paper], "booklet", lang=lang, **HEAVY)
    pages = [page for page in read_pages(pdf, folded=True) if not page.landscape]
    text = _running_text(pages)
    first = min(text[-1].content, key=lambda line: line.top).text.strip()
    if first in ("Printing these rules", "Diese Regeln drucken"):
        text.pop()  # the box opens the page after the text's end
    _assert_full_but_the_last(text, 0.8)
    # The scoring's heading stands on the page of its table (print reviews 16 and 17:
    # "Wertung" and three lines at a page's foot, the table overleaf).
    heading, head = ("Scoring", "For Points") if lang == "en" else ("Wertung", "Wofür Punkte")
    (page,) = [page for page in pages if any(line.text.strip() == heading for line in page.content)]
    assert head in " ".join(" ".join(line.text.split()) for line in page.content)


@pytest.mark.parametrize(("paper", "lang"), [("a4", "en"), ("a4", "de")], ids=["a4-en", "a4-de"])
def test_a_heading_keeps_more_than_its_first_step(
    booklet_pdf: Callable[..., bytes], paper: str, lang: str
) -> None:
    """Print review 11 (both reviewers): "Your turn, step by step" stood at a page's foot
    with step 1 only under it. The first step under a heading keeps the next with it."""
    pdf = booklet_pdf("skip-bo", PAPERS[paper], "booklet", lang=lang, **HEAVY)
    heading = "Your turn, step by step" if lang == "en" else "Dein Zug, Schritt für Schritt"
    for page in read_pages(pdf, folded=True):
        texts = [line.text.strip() for line in sorted(page.content, key=lambda line: line.top)]
        if heading in texts:
            after = texts[texts.index(heading) + 1 :]
            assert any(text.startswith("2.") for text in after), after[:4]
            return
    raise AssertionError(f"{heading!r} is not in the booklet")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_spite_and_malice_pictures_two_line_labels_have_leading(lang: str) -> None:
    """Print review 11: the picture's two-line labels (a pile's name, then a note under it)
    stood 14 units apart at 15 units, with no leading, the second line on the frame's foot.
    They stand 17 apart, the second line's descenders 8 units or more above the frame."""
    html = render_html(resolve(game="spite-and-malice", options={}), paper=A4, lang=language(lang))
    svg = re.search(r'<figure class="picture">.*?(<svg\b.*?</svg>)', html, re.S)
    assert svg is not None
    texts = [
        (cls, float(x), float(y))
        for cls, x, y in re.findall(
            r'<text class="(label|small)" x="([\d.]+)" y="([\d.]+)"', svg.group(1)
        )
    ]
    zones = [
        (float(y), float(y) + float(h))
        for y, h in re.findall(
            r'<rect class="zone" x="4" y="([\d.]+)" width="632" height="([\d.]+)"', svg.group(1)
        )
    ]
    pairs = 0
    for cls, x, y in texts:
        if cls != "label":
            continue
        under = [b for kind, a, b in texts if kind == "small" and a == x and 0 < b - y < 30]
        if under:
            pairs += 1
            assert under[0] - y >= 17, (x, y, under)
            foot = next((bottom for top, bottom in zones if top < y < bottom), None)
            assert foot is None or foot - (under[0] + 4) >= 8, (x, under, foot)
    assert pairs >= 6


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
def test_a_table_pictures_caption_is_centred_as_its_legend_is(
    booklet_pdf: Callable[..., bytes], game: str
) -> None:
    """Print review 13: the legend drawn under the board stood centred, its caption flush
    left. A table picture's caption is centred on the text's measure (the flat Letter page's
    middle)."""
    pdf = booklet_pdf(game, LETTER, "pages")
    caption = _words(
        render_html(resolve(game=game, options={}), paper=LETTER)
        .split('<figure class="picture">', 1)[1]
        .split("<figcaption>", 1)[1]
        .split("</figcaption>", 1)[0]
    )[:20]
    lines = [
        line
        for page in read_pages(pdf, folded=False)
        for line in page.lines
        if _words(line.text).startswith(caption)
    ]
    assert len(lines) == 1, caption
    assert abs((lines[0].x0 + lines[0].x1) / 2 - LETTER.width / 2) < 3, lines[0]
