"""Fitting text to a width: wrapped, sized and cut short as promised, in O(n log n) measuring."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.fonts import string_width
from sheetgen.sheet.fitting import ELLIPSIS, fit, syllable_breaks, wrap, wrap_whole


class Counting:
    """``string_width``, counting the characters it was asked to measure."""

    def __init__(self) -> None:
        self.characters = 0

    def __call__(self, text: str, size: float, bold: bool = False) -> float:
        self.characters += len(text)
        return string_width(text, size, bold)


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


words = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzWMÄŁΣД-  "), min_size=1, max_size=120
)


@settings(max_examples=150, deadline=None)
@given(
    text=words.filter(lambda t: t.strip()),
    width=st.floats(min_value=20, max_value=400),
    lines=st.integers(min_value=1, max_value=3),
)
def test_wrapped_lines_fit_and_keep_every_letter(text: str, width: float, lines: int) -> None:
    fitted = wrap(text, width, 12, 8, string_width, bold=True, lines=lines)
    assert 8 <= fitted.size <= 12
    assert 1 <= len(fitted.lines) <= lines
    for index, line in enumerate(fitted.lines):
        own = line[:-1] if index in fitted.hyphens else line
        assert string_width(line, fitted.size, True) <= width + 1e-6 or len(own) == 1
    printed = squeezed(
        "".join(line[:-1] if i in fitted.hyphens else line for i, line in enumerate(fitted.lines))
    )
    if fitted.cut:
        assert fitted.size == 8 and printed.endswith(ELLIPSIS)
        assert squeezed(text).startswith(printed[:-1])
    else:
        assert printed == squeezed(text)


def test_the_largest_size_that_fits_is_chosen() -> None:
    text = "Bartholomew Featherstonehaugh"
    wide = string_width(text, 12, True)
    assert fit(text, wide, 12, 8, string_width, True).size == 12
    smaller = fit(text, wide * 0.9, 12, 8, string_width, True)
    assert smaller.size == 10.5 and not smaller.cut  # 12 * 0.9 = 10.8, in half points
    two = wrap(text, wide * 0.6, 12, 8, string_width, bold=True, lines=2)
    assert two.lines == ("Bartholomew", "Featherstonehaugh") and two.size == 12


def test_lines_are_evened_out() -> None:
    text = "Scoring: a game's winner gets 25, and 5 more per card; the rest get 0. Add it up."
    wide = string_width(text, 8, False)
    fitted = wrap(text, wide * 0.8, 8, 7, string_width, lines=2)
    first, second = (string_width(line, 8, False) for line in fitted.lines)
    assert fitted.size == 8 and abs(first - second) < wide * 0.2


def test_a_word_breaks_at_its_hyphen_before_anywhere_else() -> None:
    text = "Wróblewski-Przybyszewski"
    fitted = wrap(
        text, string_width("Przybyszewski", 12, True) + 1, 12, 12, string_width, lines=2, bold=True
    )
    assert fitted.lines == ("Wróblewski-", "Przybyszewski")


def test_fitting_a_huge_text_measures_o_n_log_n() -> None:
    for length in (2_000, 20_000):
        text = " ".join(["Featherstonehaugh"] * (length // 18)) + "W" * (length // 2)
        measure = Counting()
        fitted = wrap(text, 300, 18, 12, measure, bold=True, lines=2)
        assert fitted.cut and fitted.lines[-1].endswith(ELLIPSIS)
        n = len(text)
        assert measure.characters <= 40 * n * math.log2(n), measure.characters


def test_a_word_longer_than_a_line_breaks_into_even_hyphenated_pieces() -> None:
    word = "Wolfeschlegelsteinhausenbergerdorff"
    room = string_width(word, 12, True) / 2.6  # three lines, the last would be a scrap
    fitted = wrap(word, room, 12, 12, string_width, bold=True, lines=3)
    assert not fitted.cut and len(fitted.lines) == 3
    assert fitted.hyphens == (0, 1)
    assert all(line.endswith("-") for line in fitted.lines[:2])
    assert "".join(line.rstrip("-") for line in fitted.lines) == word
    widths = [string_width(line.rstrip("-"), 12, True) for line in fitted.lines]
    assert all(string_width(line, 12, True) <= room + 1e-6 for line in fitted.lines)
    assert min(widths) >= 0.6 * max(widths), widths  # no tiny orphan


def test_whole_words_do_not_fit_where_a_word_would_break() -> None:
    word = "Oberstaatsanwaltsgehilfe"
    room = string_width(word, 8, True) * 0.7
    whole = wrap(f"Hans {word}", room, 10, 8, string_width, bold=True, lines=3, breaks="words")
    assert whole.cut
    # A word that fits whole at a smaller size is set whole at that size.
    shrunk = wrap(word, string_width(word, 9, True), 10, 8, string_width, bold=True, breaks="words")
    assert shrunk.lines == (word,) and shrunk.size == 9


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_word_too_long_for_its_line_breaks_between_syllables(lang: str) -> None:
    word = "Oberstaatsanwaltsgehilfe"
    room = string_width(word, 10, True) * 0.6
    fitted = wrap(
        word, room, 10, 10, string_width, bold=True, lines=3, breaks="syllables", lang=lang
    )
    assert not fitted.cut and len(fitted.lines) >= 2
    assert "".join(line.rstrip("-") for line in fitted.lines) == word
    places = syllable_breaks(word, lang)
    at = 0
    for line in fitted.lines[:-1]:
        at += len(line) - 1
        assert at in places, (fitted.lines, places)  # each break between two syllables
    assert all(string_width(line, 10, True) <= room + 1e-6 for line in fitted.lines)
    # Where no syllable ends early enough, the text does not fit that way.
    tight = string_width("Ob-", 10, True)
    assert wrap(word, tight, 10, 10, string_width, bold=True, lines=30, breaks="syllables").cut


def test_wrap_whole_keeps_words_whole_and_breaks_only_what_must_break() -> None:
    text = "Brünhilde Wolkenkuckucksheimer"
    room = string_width("Wolkenkuckucksheimer", 8, True) + 1
    kept = wrap_whole(text, room, 12, 8, string_width, bold=True, lines=2, lang="de")
    assert kept.lines == ("Brünhilde", "Wolkenkuckucksheimer") and not kept.hyphens
    broken = wrap_whole(text, room * 0.7, 12, 8, string_width, bold=True, lines=3, lang="de")
    assert broken.hyphens and not broken.cut
    assert broken.lines[1].endswith("-")
    assert len(broken.lines[1]) - 1 in syllable_breaks("Wolkenkuckucksheimer", "de")
