"""Drawn cards: the worked examples follow the deck toggle and say what they show."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.game.examples import POINTS_PER_UNIT, Face, face, lay_out
from sheetgen.game.houserules import resolve
from sheetgen.paper import A4, LETTER


def drawn_cards(game: str, **options: Any) -> list[str]:
    html = render_html(resolve(game=game, options=options), paper=LETTER)
    return re.findall(r'<figure class="cards[^"]*">.*?</figure>', html, flags=re.S)


def faces(figure: str) -> set[str]:
    return set(re.findall(r'<text class="face"[^>]*>([^<]+)</text>', figure))


def test_skip_bo_cards_show_numbers_and_skip_bo_wilds() -> None:
    figures = drawn_cards("skip-bo")
    assert len(figures) == 3
    shown = set().union(*(faces(figure) for figure in figures))
    assert {"SKIP", "BO", "9", "4", "10"} <= shown
    assert not shown & {"A", "K", "JOKER", "Q"}
    # The brand stacked on the face, never broken at its hyphen (print review 14: "SKIP-/BO"
    # is the "Skip-|Bo" break a German reader is never shown).
    assert not [word for word in shown if word.endswith("-")]


def test_standard_deck_cards_show_kings_and_jokers() -> None:
    figures = drawn_cards("skip-bo", deck="standard")
    shown = set().union(*(faces(figure) for figure in figures))
    assert {"K", "JOKER"} <= shown
    assert "SKIP" not in shown
    assert "A king opens this pile, and later a joker fills its gap" in figures[1]


def test_spite_and_malice_cards_use_its_own_ranks() -> None:
    figures = drawn_cards("spite-and-malice")
    assert len(figures) == 3
    shown = set().union(*(faces(figure) for figure in figures))
    assert {"A", "K", "Q", "J"} <= shown
    assert not shown & {"SKIP", "12", "1", "11"}


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice"])
def test_every_drawn_example_has_a_text_alternative_and_a_caption(game: str) -> None:
    for figure in drawn_cards(game):
        title = re.search(r"<title>([^<]+)</title>", figure)
        assert title and title.group(1).startswith("Cards: ")
        caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S)
        assert caption is not None
        # Words only (a brand kept whole on its line is the one markup a caption holds).
        words = caption.group(1).replace('<span class="brand">', "").replace("</span>", "")
        assert "<" not in words and len(words) >= 30, caption.group(1)


def test_examples_fit_the_narrowest_column_at_full_size() -> None:
    """Set at half a point a unit, labels print at 7.5 pt; every example fits 4.5 in."""
    for game in ("skip-bo", "spite-and-malice"):
        for figure in drawn_cards(game):
            width = float(re.search(r'width="([\d.]+)pt"', figure).group(1))  # type: ignore[union-attr]
            assert width <= 4.5 * 72
            assert (
                min(float(size) for size in re.findall(r'font-size="([\d.]+)"', figure))
                * (POINTS_PER_UNIT)
                >= 7
            )


def test_a_covered_card_still_shows_its_corner() -> None:
    drawn = lay_out(
        [{"cards": [1, "wild", 3], "label": ["a pile"]}],
        {"names": {"1": "A"}, "wild": {"face": ["K"], "corner": "K"}},
        after="x",
        alt="alt",
        caption="caption",
    )
    (pile,) = drawn.piles
    assert [card.corner for card in pile.cards] == ["A", "K", "3"]
    assert [card.top for card in pile.cards] == [False, False, True]
    assert face("wild", {"wild": {"face": ["SKIP-", "BO"], "corner": "SB"}}) == Face(
        ("SKIP-", "BO"), "SB", True
    )


def test_a4_and_letter_draw_the_same_cards() -> None:
    a4 = render_html(resolve(), paper=A4)
    letter = render_html(resolve(), paper=LETTER)
    assert re.findall(r'<figure class="cards[^"]*">.*?</figure>', a4, flags=re.S) == drawn_cards(
        "skip-bo"
    )
    assert "<figure" in letter
