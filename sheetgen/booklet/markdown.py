"""Markdown to HTML for the booklet: the game's sections and the table's --extra rules.

CommonMark plus tables, with raw HTML, images and links switched off: raw
HTML shows as text, and nothing in the Markdown can make the renderer fetch a
file or a URL. Headings get ids (for the table of contents) and can be moved
down, so a table's own headings nest under the title of their chapter. The booklet's
title is its one ``<h1>``, so a heading of contents level 1 (a chapter, ``#``) is set as
an ``<h2>``, level 2 as ``<h3>`` and so on. Every table has header cells: a table whose
header row is empty ("| | |") loses that row, and the first cell of each of its rows
heads the row.
``tie_short_words_in_html`` ties an article or a number to the word after it with a
no-break space, so that no printed line ends on "the", "Eine" or the "25" of "25 points"
(the HTML the booklet is set from, and the page for a screen, keep plain spaces).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from sheetgen.errors import HouseRulesError
from sheetgen.limits import check_markdown_size

if TYPE_CHECKING:  # markdown-it loads when the first text is rendered
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

# The deepest level of the contents: its heading is an <h6>.
MAX_HEADING = 5
# A heading of contents level 1 is an <h2>: the booklet's title is the one <h1>.
TAG_BELOW_TITLE = 1
# Deeper nesting than any rules text needs; past a few hundred levels the
# HTML renderer runs out of stack, so refuse it with a message instead.
MAX_DEPTH = 32
NO_BREAK_SPACE = "\u00a0"
# Words a line should not end on: the articles and the small numbers of the booklet's
# languages (English and German; none of them is a word of the other that could stand
# at a line's end), German "je" before its number ("je 30 Karten"), and any number in
# figures ("25 points", "5 Karten").
SHORT_WORDS = (
    *("a", "an", "the", "one", "two", "three", "four", "five", "six", "seven", "eight"),
    *("nine", "ten", "eleven", "twelve"),
    *("der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer"),
    *("eines", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"),
    *("elf", "zwölf", "je"),
)
_TIED = re.compile(
    r"(?<![\w\-])(\d+|" + "|".join(SHORT_WORDS) + r")[ \n](?=[\w(„“‚‘\"'])",
    re.IGNORECASE,
)
# A letter that names a player or team ("player B", "Spieler A") stays with its word.
_NAMED_BY_LETTER = re.compile(r"(?<=[^\W\d_]) (?=[A-Z]\b(?![-\u2019']))")


class ContentsEntry(NamedTuple):
    """A heading as the table of contents lists it."""

    level: int
    id: str
    title: str


class RenderedMarkdown(NamedTuple):
    """HTML and the headings found in it."""

    html: str
    headings: tuple[ContentsEntry, ...]


def tie_short_words(text: str) -> str:
    """``text`` with a no-break space after each article and number (see SHORT_WORDS), and
    before a letter that names a player or team."""
    tied = _TIED.sub(lambda found: found.group(1) + NO_BREAK_SPACE, text)
    return _NAMED_BY_LETTER.sub(NO_BREAK_SPACE, tied)


# Text inside these elements is left as written: headings (short, and the PDF's bookmarks
# and the contents quote them) and what is not running text.
_UNTIED = ("head", "svg", "style", "title", "h1", "h2", "h3", "h4", "h5", "h6")


def tie_short_words_in_html(html: str) -> str:
    """The printed booklet's HTML with ``tie_short_words`` applied to its running text."""
    return in_text_of_html(html, tie_short_words, skip=_UNTIED)


def in_text_of_html(html: str, change: Callable[[str], str], *, skip: tuple[str, ...]) -> str:
    """``html`` with ``change`` applied to the text between its tags, except inside the
    elements named in ``skip``."""
    parts = re.split(r"(<[^>]*>)", html)
    inside = 0
    for index, part in enumerate(parts):
        tag = re.match(r"<(/?)(\w+)", part)
        if tag and tag.group(2).lower() in skip and not part.endswith("/>"):
            inside += -1 if tag.group(1) else 1
        elif not tag and not inside and part:
            parts[index] = change(part)
    return "".join(parts)


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False})
    md.enable("table")
    md.disable(["image", "link", "autolink", "reference", "html_inline", "html_block"])
    return md


def slug(text: str) -> str:
    """A lower-case, hyphenated id for a heading."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _depth(tokens: list[Token], base: int = 0) -> int:
    deepest = base
    for token in tokens:
        level = base + token.level
        deepest = max(deepest, level)
        if token.children:
            deepest = max(deepest, _depth(token.children, level + 1))
    return deepest


class Opening(NamedTuple):
    """A heading that opens a Markdown text, and the text after it."""

    title: str
    level: int
    rest: str


def _title(inline: Token) -> str:
    return "".join(child.content for child in inline.children or [] if child.type != "softbreak")


def first_heading(text: str) -> Opening | None:
    """The heading the text opens with (any level), or None when it opens with anything else."""
    tokens = _parser().parse(text)
    if not tokens or tokens[0].type != "heading_open" or tokens[0].map is None:
        return None
    rest = "".join(text.splitlines(keepends=True)[tokens[0].map[1] :])
    return Opening(_title(tokens[1]), int(tokens[0].tag[1:]), rest)


def render_markdown(
    text: str,
    *,
    id_prefix: str,
    shift: int | None = 0,
    floor: int = 1,
    source: str = "Markdown",
) -> RenderedMarkdown:
    """Render Markdown safely; headings get ids ``<id_prefix>-<slug>``.

    Headings move down ``shift`` levels (None: as far as puts the shallowest at
    ``floor``), and none rises above ``floor``, so a text can nest under a
    heading of its caller's. ``source`` names the text in the message when it
    nests too deeply to set.
    """
    check_markdown_size(text, source)
    md = _parser()
    tokens = md.parse(text)
    depth = _depth(tokens)
    if depth > MAX_DEPTH:
        raise HouseRulesError(
            f"{source}: lists, quotes or emphasis are nested {depth} levels deep; "
            f"a booklet sets at most {MAX_DEPTH}"
        )
    if shift is None:
        levels = [int(token.tag[1:]) for token in tokens if token.type == "heading_open"]
        shift = floor - min(levels, default=floor)
    headings: list[ContentsEntry] = []
    seen: set[str] = set()
    repeats: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.type not in ("heading_open", "heading_close"):
            continue
        level = max(floor, min(MAX_HEADING, int(token.tag[1:]) + shift))
        token.tag = f"h{level + TAG_BELOW_TITLE}"
        if token.type == "heading_open":
            title = _title(tokens[index + 1])
            base = anchor = f"{id_prefix}-{slug(title)}"
            # Numbered from where the last repeat of this heading stopped: linear, however
            # many times a heading repeats.
            while anchor in seen:
                repeats[base] = repeats.get(base, 1) + 1
                anchor = f"{base}-{repeats[base]}"
            seen.add(anchor)
            token.attrSet("id", anchor)
            headings.append(ContentsEntry(level, anchor, title))
    html = md.renderer.render(_with_header_cells(tokens), md.options, {})
    return RenderedMarkdown(html, tuple(headings))


def _with_header_cells(tokens: list[Token]) -> list[Token]:
    """``tokens`` with each table's empty header row left out and, in such a table, the
    first cell of every row made its row's header (``<th scope="row">``), so that every
    table read aloud or tagged in the PDF has header cells."""
    kept: list[Token] = []
    header: list[Token] | None = None
    row_headers = False
    first_cell = False
    for token in tokens:
        if token.type == "thead_open":
            header = [token]
            continue
        if header is not None:
            header.append(token)
            if token.type == "thead_close":
                cells = [part for part in header if part.type == "inline"]
                row_headers = all(not cell.content.strip() for cell in cells)
                if not row_headers:
                    kept.extend(header)
                header = None
            continue
        if token.type == "table_close":
            row_headers = False
        elif row_headers and token.type == "tr_open":
            first_cell = True
        elif row_headers and first_cell and token.type in ("td_open", "td_close"):
            token.tag = "th"
            if token.type == "td_open":
                token.attrSet("scope", "row")
            else:
                first_cell = False
        kept.append(token)
    return kept
