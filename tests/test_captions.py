"""A picture's caption reads at a comfortable measure too: set smaller than the body, a
caption as wide as the column ran to about 87 characters a line."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pagecheck import body_size, read_pages

from sheetgen.paper import A4, LETTER, Paper

CAPTION_SIZE = 8.5


@pytest.mark.parametrize("paper", [LETTER, A4], ids=["letter", "a4"])
@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
@pytest.mark.parametrize("layout", ["pages", "booklet"])
def test_caption_lines_hold_at_most_75_characters(
    booklet_pdf: Callable[..., bytes], game: str, paper: Paper, layout: str
) -> None:
    pages = read_pages(booklet_pdf(game, paper, layout), folded=layout == "booklet")
    assert body_size(pages) >= CAPTION_SIZE + 1  # captions are told apart by their size
    captions = [
        line.text
        for page in pages
        if not page.landscape
        for line in page.lines
        if abs(line.size - CAPTION_SIZE) < 0.3
    ]
    assert len(captions) >= 3, captions  # every game's booklet has captioned pictures
    assert max(len(text) for text in captions) <= 75, max(captions, key=len)
