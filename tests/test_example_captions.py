"""A worked example's caption says once what its picture is an example of.

A print review found every drawn example told three times over: the section's lead-in
walked through the plays, the labels under the cards said them again, and the caption a
third time. The caption is now one short line giving the point of the picture: at most 80
characters, one sentence with no colon, and no run of four words taken from its section's
text or from its own labels. The long text alternative (the drawing's title) stays
complete and is not held to this.
"""

from __future__ import annotations

import html as html_lib
import re
from functools import cache
from typing import Any

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.booklet.context import build_context
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

RUN = 4  # words in a row a caption may not share with its section or its labels
LONGEST = 80

# Each deck, a one-card stock, partnerships of four and six, and heavy combinations.
MATRIX: dict[str, dict[str, dict[str, Any]]] = {
    "skip-bo": {
        "official": {},
        "players-2": {"players": 2},
        "standard": {"deck": "standard"},
        "stock-1": {"stock": 1},
        "largest-2": {"players": 2, "stock": 76},
        "teams-4": {"partnerships": True},
        "teams-6-stock-1": {"players": 6, "partnerships": True, "stock": 1},
        "must-play-teams": {"partnerships": True, "must-play-stock": True},
        "heavy-standard": {
            "players": 6,
            "partnerships": True,
            "stock": 1,
            "deck": "standard",
            "must-play-stock": True,
            "no-wild-start": True,
            "series": False,
        },
    },
    "spite-and-malice": {
        "official": {},
        "stock-1": {"stock": 1},
        "stock-46": {"stock": 46},
        "four-stacks-series": {"building-piles": 4, "series": True},
        "heavy": {"stock": 1, "building-piles": 4, "series": True, "bonus": 0, "target": 3},
    },
}
CASES = [
    (game, toggles, lang) for game in MATRIX for toggles in MATRIX[game] for lang in ("en", "de")
]
IDS = ["-".join(case) for case in CASES]


def plain(html: str) -> str:
    """The words of some HTML as a reader meets them, one space between them (a mark
    inside a line, such as the brand's span, joins what it stands between)."""
    html = re.sub(r"</?(?:a|span|em|strong|q|b|i)\b[^>]*>", "", html)
    html = re.sub(r"<[^>]+>", " ", html)
    text = html_lib.unescape(html).replace("\N{SOFT HYPHEN}", "")
    return re.sub(r"\s+", " ", text).strip()


def words(text: str, terms: tuple[str, ...] = ()) -> list[str]:
    """The words of ``text``; each of the game's own names for a thing (``terms``, such as
    "pay-off pile" or "king or joker") counts as one word."""
    text = text.lower()
    for number, term in enumerate(terms):
        text = re.sub(rf"(?<!\w){re.escape(term)}(?!\w)", f" term{number} ", text)
    return re.findall(r"\w+", text)


def shared_runs(caption: str, other: str, terms: tuple[str, ...] = ()) -> set[str]:
    """Every run of RUN words the caption has in common with ``other``."""

    def runs(text: str) -> set[str]:
        found = words(text, terms)
        return {" ".join(found[i : i + RUN]) for i in range(len(found) - RUN + 1)}

    return runs(caption) & runs(other)


class Example:
    """One drawn example as printed: its caption, its labels (one text per pile) and the
    running text of the chapter it stands in (its pictures left out)."""

    def __init__(self, figure: str, chapter: str, terms: tuple[str, ...]) -> None:
        self.terms = terms
        found = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S)
        assert found is not None, figure[:200]
        self.caption = plain(found.group(1))
        piles: dict[str, list[str]] = {}
        for x, line in re.findall(r'<text class="label" x="([^"]+)"[^>]*>(.*?)</text>', figure):
            piles.setdefault(x, []).append(line)
        self.labels = [plain(" ".join(lines)) for lines in piles.values()]
        self.section = plain(re.sub(r"<figure\b.*?</figure>", " ", chapter, flags=re.S))


@cache
def examples(game: str, toggles: str, lang: str) -> list[Example]:
    rules = resolve(game=game, options=dict(MATRIX[game][toggles]))
    html = render_html(rules, paper=A4, lang=language(lang))
    named = build_context(rules, lang=language(lang))["words"].values()
    # Longest first, so that "stock piles" is taken whole before "stock pile".
    terms = tuple(sorted({term.lower() for term in named}, key=len, reverse=True))
    found = []
    for chapter in re.findall(r'<section class="chapter[^"]*">(.*?)</section>', html, re.S):
        for figure in re.findall(r'<figure class="cards[^"]*">.*?</figure>', chapter, re.S):
            found.append(Example(figure, chapter, terms))
    return found


@pytest.mark.parametrize(("game", "toggles", "lang"), CASES, ids=IDS)
def test_a_caption_is_one_short_sentence(game: str, toggles: str, lang: str) -> None:
    drawn = examples(game, toggles, lang)
    assert len(drawn) == 3
    for example in drawn:
        caption = example.caption
        assert 30 <= len(caption) <= LONGEST, caption
        assert caption.endswith(".") and ":" not in caption, caption
        assert not re.search(r"[.!?] ", caption), caption  # one sentence


@pytest.mark.parametrize(("game", "toggles", "lang"), CASES, ids=IDS)
def test_a_caption_repeats_neither_its_section_nor_its_labels(
    game: str, toggles: str, lang: str
) -> None:
    for example in examples(game, toggles, lang):
        assert example.labels, example.caption
        terms = example.terms
        assert not shared_runs(example.caption, example.section, terms), example.caption
        for label in example.labels:
            assert not shared_runs(example.caption, label, terms), (example.caption, label)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_old_walk_through_caption_would_fail(lang: str) -> None:
    """The check finds what the review found: the caption that retold the plays shares
    its words with the labels under the cards and with the section's lead-in."""
    first = examples("skip-bo", "official", lang)[0]
    old = {
        "en": "Three plays onto one building pile: the 4 from the hand, the 5 from a discard "
        "pile, then the 6 from the stock pile.",
        "de": "Drei Karten auf einen Ablagestapel: die 4 aus der Hand, die 5 von einem "
        "Hilfsstapel, dann die 6 vom Spielerstapel.",
    }[lang]
    assert any(shared_runs(old, label, first.terms) for label in first.labels)
    assert shared_runs(old, first.section, first.terms)
    assert len(old) > LONGEST and ":" in old
    assert not shared_runs(first.caption, " ".join(first.labels), first.terms)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_wild_card_caption_names_the_decks_own_wild(lang: str) -> None:
    skip_bo = examples("skip-bo", "official", lang)[1].caption
    standard = examples("skip-bo", "standard", lang)[1].caption
    # Print review 11: the caption says what the picture shows (a wild opens the pile,
    # another fills its gap), not the rule the bullet above it gives.
    if lang == "en":
        assert skip_bo.startswith("One Skip-Bo card opens this pile")
        assert standard.startswith("A king opens this pile, and later a joker")
    else:
        assert skip_bo.startswith("Eine SKIP-BO-Karte eröffnet diesen Stapel")
        assert standard.startswith("Ein König eröffnet diesen Stapel, ein Joker schließt")
    assert "joker" not in skip_bo.lower() and "SKIP-BO" not in standard.upper()
