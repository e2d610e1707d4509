"""A heading the rules text refers to ("see "Nothing left to draw"") is followed by the page
it is on in print, the page the booklet really numbers so; on a screen it is a link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from pagecheck import read_pages

from sheetgen.booklet.build import rules_document
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4, LETTER, Paper

# see "Scoring" (page 5), as in „Wertung im Team“ (Seite 9); inside brackets: (siehe „Wertung“, Seite 5); a heading on the
# reference's own page: see "Scoring" (below), (siehe „Wertung“, weiter oben).
REFERENCE = re.compile(
    r"(?:see|siehe|in|unter)\s+[\"\u201c\u201e]([^\"\u201c\u201d]+?)[\"\u201d\u201c]"
    r"(?:\s*\(|,\s*)(?:(?:page|Seite)\u00a0?\s*(\d+)|(below|above|weiter unten|weiter oben))\)"
)
BELOW = ("below", "weiter unten")


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("game", "paper", "layout", "lang", "options", "titles"),
    [
        ("skip-bo", LETTER, "pages", "en", {}, {"Nothing left to draw"}),
        ("skip-bo", A4, "booklet", "de", {}, {"Nichts mehr zu ziehen"}),
        (
            "skip-bo",
            LETTER,
            "booklet",
            "en",
            {"deck": "standard"},
            {"Nothing left to draw", "Reading standard cards"},
        ),
        ("skip-bo-board", A4, "pages", "de", {}, {"Die Spielfiguren bewegen"}),
        ("skip-bo-board", LETTER, "pages", "en", {}, {"Moving the counters"}),
        (
            "skip-bo",
            A4,
            "booklet",
            "de",
            {"players": 6, "partnerships": True, "target": 300},
            # The team chapter's own reference (the rewritten cheating rule no longer
            # sends the reader to "Der stille Partner").
            {"Wertung im Team"},
        ),
    ],
    ids=[
        "en-letter-pages",
        "de-a4-booklet",
        "standard-deck-folded",
        "board-de",
        "board-en",
        "partnership-de-folded",
    ],
)
def test_a_reference_names_the_page_its_heading_is_on(
    booklet_pdf: Callable[..., bytes],
    game: str,
    paper: Paper,
    layout: str,
    lang: str,
    options: dict[str, Any],
    titles: set[str],
) -> None:
    pages = read_pages(
        booklet_pdf(game, paper, layout, lang, **options), folded=layout == "booklet"
    )
    text = _flat(" ".join(line.text for page in pages for line in page.lines))
    found = REFERENCE.findall(text)
    assert {title for title, _, _ in found} >= titles, found
    # A reference already in brackets takes its page after a comma, not in brackets of its own.
    assert "))" not in text
    numbered = {page.number: page for page in pages if page.number}
    for title, number, _ in found:
        if number:
            assert number in numbered, (title, number, sorted(numbered))
            headings = [_flat(line.text) for line in numbered[number].lines]
            assert title in headings, (title, number, headings)
    # A heading on the reference's own page: "below" or "above" it there, never the page
    # the reader is on (print review: "(Seite 8)" on page 8).
    for page in pages:
        lines = [_flat(line.text) for line in sorted(page.lines, key=lambda line: line.top)]
        joined = " ".join(lines)
        for found_at in REFERENCE.finditer(joined):
            title, number, where = found_at.groups()
            assert number != page.number, (title, number)
            if where:
                # The line the reference ends on, and the heading's line.
                at = next(
                    i for i in range(len(lines)) if len(" ".join(lines[: i + 1])) >= found_at.end()
                )
                heading = lines.index(title)
                assert (heading > at) == (where in BELOW), (title, where, lines)


def test_on_a_screen_a_reference_is_a_link_to_its_heading() -> None:
    html = rules_document(
        resolve(game="skip-bo", options={}), paper=LETTER, fmt="html", lang=language("de")
    ).decode("utf-8")
    links = re.findall(r'<a class="xref" href="#([^"]+)">\u201e([^<]+)\u201c</a>', html)
    assert ("s4-nichts-mehr-zu-ziehen", "Nichts mehr zu ziehen") in links
    for target, _ in links:
        assert f'id="{target}"' in html
    # No page numbers on a screen: the reference's page is for paper.
    assert "a.xref::after { content: none; }" in html


def test_a_title_with_an_apostrophe_is_found_as_markdown_writes_it() -> None:
    """markdown-it leaves an apostrophe as it is; the title is looked for the same way."""
    from sheetgen.booklet.html import Chapter, _with_references
    from sheetgen.booklet.markdown import ContentsEntry

    chapter = Chapter("", (ContentsEntry(2, "s5-partners-piles", "Your partner's piles"),))
    html = "<p>see &quot;Your partner's piles&quot;.</p>"
    assert _with_references(html, [chapter]) == (
        '<p>see <a class="xref" href="#s5-partners-piles">'
        "&quot;Your partner's piles&quot;</a>.</p>"
    )


HEAVY = {
    "players": 6,
    "partnerships": True,
    "stock": "short",
    "deck": "standard",
    "must_play_stock": True,
    "target": 300,
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
def test_every_reference_of_the_shipped_games_takes_one_form(game: str, lang: str) -> None:
    """Print review 10, finding 8: a reference was 'see "X" (page 6)' in two games and
    '(siehe „X“, Seite 8)' in the board game, and the heavy cover box had both. No
    reference of a shipped game stands inside brackets, so each reads 'see "X" (page N)'
    (a game folder's own text may still write one in brackets, which then reads
    '(see "X", page N)' rather than brackets inside brackets)."""
    from sheetgen.booklet.build import render_html

    # The heavy set of choices (the cover box's own references) is Skip-Bo's.
    for options in ({}, HEAVY) if game == "skip-bo" else ({},):
        html = render_html(resolve(game=game, options=options), paper=A4, lang=language(lang))
        assert 'class="xref' in html
        assert "xref in-brackets" not in html
