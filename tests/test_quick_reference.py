"""The quick reference (a folded booklet's back cover) follows one policy in every game and
language: it says how this table plays, the booklet's own suggestions where the rules say
nothing included, each marked as this booklet's (print review 10, finding 9: the board
game's marked four suggestions, while Skip-Bo's and Spite and Malice's left theirs out)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

MARK = {"en": "this booklet's suggestion", "de": "Vorschl"}
# What each game's quick reference must now say of the booklet's suggestions: the empty
# draw pile with no finished pile, and a game at a standstill (and Spite and Malice's
# turned-up king).
COVERED = {
    ("skip-bo", "en"): ("if none is finished, shuffle all but the top card", "without a winner"),
    ("skip-bo", "de"): ("ist keiner fertig, mischt ihr", "ohne Sieger"),
    ("spite-and-malice", "en"): ("A king beats every other card", "without a winner"),
    ("spite-and-malice", "de"): ("Ein König schlägt jede andere Karte", "ohne Sieger"),
    ("skip-bo-board", "en"): ("play on without drawing", "without a winner"),
    ("skip-bo-board", "de"): ("ohne Nachziehen weiter", "ohne Sieger"),
}


def _quick_reference(game: str, lang: str) -> str:
    html = render_html(resolve(game=game, options={}), paper=A4, lang=language(lang))
    found = re.search(r'<section class="[^"]*back-cover[^"]*".*?</section>', html, re.S)
    assert found is not None
    text = unescape(re.sub(r"<[^>]+>", " ", found.group(0))).replace("\N{SOFT HYPHEN}", "")
    return " ".join(text.replace("’", "'").split())


@pytest.mark.parametrize(("game", "lang"), sorted(COVERED))
def test_every_quick_reference_gives_the_booklets_suggestions_marked(game: str, lang: str) -> None:
    text = _quick_reference(game, lang)
    assert MARK[lang] in text
    for said in COVERED[game, lang]:
        assert said in text, said
