"""The booklet's typography: the language's quotation marks and apostrophes, brands whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.booklet.typography import typeset, untied
from sheetgen.game.houserules import resolve
from sheetgen.game.language import ENGLISH, language
from sheetgen.paper import A4, LETTER

GERMAN = language("de")


@pytest.mark.parametrize(
    ("html", "english", "german"),
    [
        ('<p>see "Winning".</p>', "<p>see “Winning”.</p>", "<p>see „Winning“.</p>"),
        (
            '<p>see <a href="#w">"Winning"</a>, it\'s</p>',
            '<p>see <a href="#w">“Winning”</a>, it’s</p>',
            '<p>see <a href="#w">„Winning“</a>, it’s</p>',
        ),
        ("<p>&quot;Go&quot; &#39;up&#39;</p>", "<p>“Go” ‘up’</p>", "<p>„Go“ ‚up’</p>"),
        ('<p>a.</p><p>"b"</p>', "<p>a.</p><p>“b”</p>", "<p>a.</p><p>„b“</p>"),
        (
            '<p>x</p><svg><title>owner\'s pile</title><text>"S"</text></svg>',
            "<p>x</p><svg><title>owner’s pile</title><text>“S”</text></svg>",
            "<p>x</p><svg><title>owner’s pile</title><text>„S“</text></svg>",
        ),
        ("<style>a::after { content: '\"'; }</style>", None, None),
        ('<p>&lt;img src="x"&gt; {% include "y" %}</p>', None, None),
        ('<code>"raw"</code>', None, None),
    ],
)
def test_marks_open_and_close_as_a_reader_expects(
    html: str, english: str | None, german: str | None
) -> None:
    assert typeset(html, ENGLISH) == (english or html)
    assert typeset(html, GERMAN) == (german or html)


def test_a_brand_is_kept_whole_in_running_text_only() -> None:
    html = "<p>Skip-Bo and SKIP-BO-Karten</p><svg><text>Skip-Bo</text></svg>"
    assert typeset(html, ENGLISH) == (
        '<p><span class="brand">Skip-Bo</span> and <span class="brand">SKIP-BO</span>-Karten'
        "</p><svg><text>Skip-Bo</text></svg>"
    )


def _running_text(html: str) -> str:
    html = re.sub(r"<(svg|style|head|title)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_no_straight_mark_reaches_the_reader(game: str, lang: str, paper: object) -> None:
    options = {} if game == "skip-bo-board" else {"series": True}
    html = render_html(resolve(game=game, options=options), paper=paper, lang=language(lang))
    text = _running_text(html)
    assert not re.search(r"\"|&quot;|&#34;|'|&#39;", text), re.findall(r".{30}['\"].{10}", text)
    # English sets "100%" solid; German sets "100 %" with a space.
    if lang == "en":
        assert "100%" in text and "100&nbsp;%" not in text
    # Every brand name in running text is kept on one line.
    assert not re.search(
        r"(?<!\">)\b(Skip-Bo|SKIP-BO)\b(?!</span>)", html.split("<body", 1)[1].split("<svg")[0]
    )


@pytest.mark.parametrize("game", ["skip-bo-board", "spite-and-malice"])
def test_letter_documents_are_spelled_american_and_a4_british(game: str) -> None:
    """The rules are written in British spelling; on Letter paper every word a reader sees,
    in the text and in the pictures, is spelled the American way."""
    options = {} if game == "skip-bo-board" else {"series": True}
    british = render_html(resolve(game=game, options=options), paper=A4)
    us = render_html(resolve(game=game, options=options), paper=LETTER)
    words = r"\b(colou?r\w*|cent(?:re|er)\w*|gr[ae]y)\b"
    found_gb = {w.lower() for w in re.findall(words, _running_text(british), re.I)}
    found_us = {
        w.lower()
        for w in re.findall(
            words, re.sub(r"<style\b.*?</style>|<[^>]+>", " ", us, flags=re.S), re.I
        )
    }
    assert found_gb & {"colour", "centre", "colours", "coloured", "centres"}
    assert not found_us & {"colour", "centre", "colours", "coloured", "centres", "grey"}, found_us
    assert found_us & {"color", "center", "colors", "colored", "centers"}
    german = render_html(resolve(game=game, options=options), paper=LETTER, lang=GERMAN)
    assert "Center" not in german


def test_the_day_the_rules_were_agreed_is_written_as_the_paper_reads_it(
    tmp_path: Path,
) -> None:
    """The cover's day: "March 14, 2026" on Letter, "14 March 2026" on A4 (print review 34:
    the British order on an American cover), "14. März 2026" in German on either."""
    ours = tmp_path / "ours.toml"
    ours.write_text('table = "The Okafors"\ndate = 2026-03-14\n', encoding="utf-8")
    rules = resolve(house_rules=ours)
    said = {
        (paper.name, lang): re.search(
            r'class="table-line">([^<]*)<', render_html(rules, paper=paper, lang=language(lang))
        )
        for paper in (LETTER, A4)
        for lang in ("en", "de")
    }
    lines = {key: found.group(1) if found else "" for key, found in said.items()}
    # Never broken over a line (print review 35: "14." / "März 2026"): no-break spaces.
    assert all(" " not in line.split(" on ")[-1].split(" am ")[-1] for line in lines.values())
    lines = {key: line.replace("\N{NO-BREAK SPACE}", " ") for key, line in lines.items()}
    assert "March 14, 2026" in lines[LETTER.name, "en"], lines
    assert "14 March 2026" in lines[A4.name, "en"], lines
    assert all("14. März 2026" in lines[paper.name, "de"] for paper in (LETTER, A4)), lines


def test_a_compound_after_a_short_word_is_not_broken_after_it() -> None:
    """Print review 35: "print every page but the last one- / sided" read as "the last
    one". A hyphen after a word of three letters or fewer is joined to what follows; a
    longer head keeps its break ("stock-pile"), and the number rule still holds."""
    from sheetgen.booklet.typography import whole_last_words

    joiner = "\N{WORD JOINER}"
    html = whole_last_words("<p>Print it one-sided, a re-deal, the 54-card stock-pile row now.</p>")
    assert f"one-{joiner}sided" in html and f"re-{joiner}deal" in html
    assert f"54-{joiner}card" in html and "stock-pile" in html


def test_american_spelling_keeps_capitals() -> None:
    from sheetgen.booklet.typography import american

    assert american("<p>Centre colours, GREY</p><style>.colour{}</style>") == (
        "<p>Center colors, GRAY</p><style>.colour{}</style>"
    )
    # Print review 35: decks, solitaire, and the comma inside the quote on Letter.
    assert american("<p>Two packs, a kind of patience: choose “fit to page”, then</p>") == (
        "<p>Two decks, a kind of solitaire: choose “fit to page,” then</p>"
    )
    assert american('<p>see <a href="#s">“Scoring”</a>.</p>') == (
        '<p>see <a href="#s">“Scoring”</a>.</p>'
    )


ENGLISH_RULES = "# After the game\n\nThe winner shuffles for the next game, and the loser of the series clears the table. It is not a race.\n"
GERMAN_RULES = "# Nach dem Spiel\n\nWer gewonnen hat, mischt für das nächste Spiel, und wer die Serie verloren hat, räumt den Tisch ab.\n"


@pytest.mark.parametrize(
    ("booklet", "extra", "marked"),
    [("de", ENGLISH_RULES, "en"), ("en", GERMAN_RULES, "de"), ("de", GERMAN_RULES, None),
     ("en", ENGLISH_RULES, None), ("de", "# 42\n\nOK.\n", None)],
)  # fmt: skip
def test_a_tables_own_rules_in_another_language_are_marked_with_it(
    booklet: str, extra: str, marked: str | None, tmp_path: Path
) -> None:
    """Own rules written in another language than the booklet's are set (hyphenated, read
    aloud) as that language; text that does not tell keeps the booklet's."""
    ours = tmp_path / "ours.md"
    ours.write_text(extra, encoding="utf-8")
    rules = resolve(game="skip-bo", options={"extra": ours})
    html = render_html(rules, paper=A4, lang=language(booklet))
    found = re.search(r'<h\d id="extra"', html)
    assert found is not None
    chapter = html[found.start() :].split("</section>")[0]
    if marked is None:
        assert not re.match(r'<h\d id="extra" lang=', chapter)
        assert '<div lang="' not in chapter
    else:
        assert re.match(rf'<h\d id="extra" lang="{marked}">', chapter)
        assert f'<div lang="{marked}">' in chapter


def test_a_paragraphs_last_word_and_a_range_are_kept_whole_in_print() -> None:
    """Word joiners (which no line breaks at and the hyphenation patterns do not read)
    between the letters of each paragraph's and list item's last word, its compound's soft
    hyphens dropped, and round a range's dash; a folded booklet's back cover as set."""
    from sheetgen.booklet.typography import whole_last_words

    joiner = "\u2060"
    html = (
        '<body class="folded"><p>Sets 1\u201312 and <b>bold</b> loszuwerden.</p>'
        "<ul><li>Hilfs\xadstapel.</li></ul>"
        '<section class="chapter back-cover"><p>Kartenstock.</p></section><p>Ende.</p>'
    )
    printed = whole_last_words(html)
    assert f"1{joiner}\u2013{joiner}12" in printed
    assert joiner.join("loszuwerden") + ".</p>" in printed
    assert joiner.join("Hilfsstapel") + ".</li>" in printed
    assert "<p>Kartenstock.</p>" in printed
    assert joiner.join("Ende") + ".</p>" in printed
    assert printed.replace(joiner, "").replace("Hilfsstapel", "Hilfs\xadstapel") == html
    # A tag is never taken for a word (print review: "</strong>" joined, the rest bold).
    tagged = (
        "<p><strong>Each turn.</strong></p><li><em>Kartenstock</em></li><p>a <b>Spielplan</b>.</p>"
    )
    assert whole_last_words(tagged) == tagged
    # A flat booklet's quick reference is a page of its own like the others.
    flat = whole_last_words(html.replace(' class="folded"', ""))
    assert joiner.join("Kartenstock") + ".</p>" in flat
    # A back cover set closer is a back cover too (it was taken for running text).
    closer = html.replace("back-cover", "back-cover closer")
    assert '<section class="chapter back-cover closer"><p>Kartenstock.</p>' in (
        whole_last_words(closer)
    )


def test_a_short_last_word_keeps_the_word_before_it() -> None:
    """Print review 6: "from.", "it.", "gewinnt." stood alone on a paragraph's, list item's
    or caption's last line. A last word of up to ten letters is joined to the one before
    by a no-break space; a longer one may stand alone (it fills a line of its own)."""
    from sheetgen.booklet.typography import whole_last_words

    out = whole_last_words(
        "<p>Play every card you hold from.</p><li>Take it now</li>"
        "<figcaption>a king stands in for any card.</figcaption>"
        "<p>Ende mit allen Spielerstapeln.</p><p>One</p>"
    )
    joiner = "\N{WORD JOINER}"
    assert "hold\N{NO-BREAK SPACE}f" in out and "it\N{NO-BREAK SPACE}now</li>" in out
    assert "any\N{NO-BREAK SPACE}card.</figcaption>" in out.replace(joiner, "")
    assert "allen S" in out and "<p>One</p>" in out  # 14 letters: free; one word: nothing
    # Print review 13: "…300 points instead of / 500." A number ends a line with its word.
    out = whole_last_words("<li>The series is played to 300 points instead of 500.</li>")
    assert "of\N{NO-BREAK SPACE}500.</li>" in out


def test_a_letter_that_names_a_player_stays_with_its_word() -> None:
    """Print review 6: a caption broke "player / B" and "Spieler / B"."""
    from sheetgen.booklet.markdown import tie_short_words

    tied = tie_short_words("player B across, Spieler B. Team A wins. Skip-Bo A-Z")
    assert "player\N{NO-BREAK SPACE}B" in tied and "Spieler\N{NO-BREAK SPACE}B." in tied
    assert "Team\N{NO-BREAK SPACE}A" in tied and "Skip-Bo A-Z" in tied


def test_a_colon_inside_a_sentence_keeps_the_word_after_it() -> None:
    """Print review 7's follow-up: a page of German Spite and Malice ended on "Dieses Heft
    schlägt vor:", a line that reads as a lead-in to the next page (page-check flags it).
    The space after a colon inside a sentence is a no-break space; one before a line break
    or a tag is left alone, as are times and scores ("2:1")."""
    from sheetgen.booklet.typography import whole_last_words

    out = whole_last_words(
        "<p>Dieses Heft schlägt vor: Ein König schlägt jede Karte.</p>"
        "<p>So wird gespielt:<br> vier Spieler</p><p>Stand 2: 1 nach Spiel 3</p>"
    )
    assert "vor:\N{NO-BREAK SPACE}Ein" in out
    assert "gespielt:<br> vier" in out and "2: 1" in out


def test_a_number_keeps_the_word_it_is_hyphenated_to() -> None:
    """Print review 7: "54-|card" was broken at its hyphen at a line's end. A word joiner
    after a hyphen between a number and a word keeps them on one line; a range (1–12)
    keeps its joiners, and a hyphen between words ("Skip-Bo", "stock-pile") is left alone."""
    from sheetgen.booklet.typography import whole_last_words

    joiner = "\N{WORD JOINER}"
    out = whole_last_words("<p>three standard 54-card decks, a 3-Spieler game, stock-pile them</p>")
    assert f"54-{joiner}card" in out and f"3-{joiner}Spieler" in out
    assert "stock-pile" in out


def test_a_word_listed_whole_is_never_hyphenated() -> None:
    """A word a layout split over a page turn is set again with word joiners between its
    letters (its soft hyphens dropped) wherever it stands in the running text; other
    words, and words that merely contain it, are left as they are."""
    from sheetgen.booklet.typography import unbroken

    joiner = "\N{WORD JOINER}"
    html = "<p>den Spieler\xadstapeln und Spielerstapeln, nicht Spielerstapelnde</p>"
    out = unbroken(html, ("Spielerstapeln",))
    assert out.count(joiner.join("Spielerstapeln")) == 2
    assert "Spielerstapelnde" in out and unbroken(html, ()) == html


def test_a_loosened_tie_is_the_one_at_its_place() -> None:
    """A tie loosened for the rag (flow.ragged_ties) is named by the words before it, so the
    same article and noun tied elsewhere in the text stay tied; tags, word joiners and soft
    hyphens inside or between the words do not hide it; a chain of ties loosens one at a
    time."""
    nbsp = "\N{NO-BREAK SPACE}"
    text = f"<p>Er sagt nur die{nbsp}oberste Karte; nur die{nbsp}oberste.</p>"
    assert untied(text, (("Er", "sagt", "nur", "die", "oberste"),)) == text.replace(
        f"die{nbsp}oberste Karte", "die oberste Karte"
    )
    link = f'<li>see “<a class="xref" href="#x">After the{nbsp}game</a>”.</li>'
    assert untied(link, (("see", "“After", "the", "game”"),)) == link.replace(nbsp, " ")
    chain = f"<p><b>Each{nbsp}turn.</b> does not count:{nbsp}the{nbsp}dis\u2060card</p>"
    once = untied(chain, (("does", "not", "count:", "the"),))
    assert once == chain.replace(f"count:{nbsp}", "count: ")
    both = untied(chain, (("does", "not", "count:", "the"), ("not", "count:", "the", "discard")))
    assert both == once.replace(f"the{nbsp}dis", "the dis")
    # Nothing else: a tie whose words are not there changes nothing.
    assert untied(chain, (("does", "not", "count:", "a"),)) == chain
    # Nor on a folded booklet's back cover, fitted to its page (its quick reference may
    # repeat a sentence of the text).
    back = f'<section class="chapter back-cover closer"><p>see “After the{nbsp}game”</p></section>'
    folded = f'<body class="folded">{link}{back}'
    assert untied(folded, (("see", "“After", "the", "game”"),)) == folded.replace(
        link, link.replace(nbsp, " ")
    )
