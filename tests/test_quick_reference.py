"""The quick reference (a folded booklet's back cover) follows one policy in every game and
language: it says how this table plays, the booklet's own suggestions where the rules say
nothing included, each marked as this booklet's (print review 10, finding 9: the board
game's marked four suggestions, while Skip-Bo's and Spite and Malice's left theirs out), and
marked one way: a dagger after each, and one key line at the end (print review 12, finding
10: "(this booklet's suggestion)", "(both are ...)" and "(all of this is ...)" in turn)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

# The key line that ends every quick reference, once.
KEY = {
    "en": "† This booklet's suggestion, where the rulebook says nothing.",
    "de": "† Vorschlag dieses Hefts, wo die Spielregel nichts sagt.",
}
# What each game's quick reference must now say of the booklet's suggestions, each a
# sentence that ends in the dagger: the empty draw pile with no finished pile, and a game at
# a standstill (and Spite and Malice's turned-up king).
COVERED = {
    ("skip-bo", "en"): ("If none is finished, shuffle all but the top card", "without a winner"),
    ("skip-bo", "de"): ("Ist keiner fertig, mischt ihr", "ohne Sieger"),
    ("spite-and-malice", "en"): ("king beats every other card", "without a winner"),
    ("spite-and-malice", "de"): ("König schlägt jede andere Karte", "ohne Sieger"),
    ("skip-bo-board", "en"): ("play on without drawing", "without a winner"),
    ("skip-bo-board", "de"): ("ohne Nachziehen weiter", "ohne Sieger"),
}
# This table's players, not the game's range (finding 10: "Two to six play; four or six
# may play as teams of two" beside "Each stock pile gets ten cards").
PLAYERS = {
    ("skip-bo", "en", False): "Players. Four at this table; the game takes two to six.",
    ("skip-bo", "en", True): "Players. Six at this table, in three teams of two.",
    ("skip-bo", "de", False): "Spieler. An diesem Tisch spielen vier; das Spiel ist für zwei bis",
    ("skip-bo", "de", True): "Spieler. An diesem Tisch spielen sechs in drei Zweierteams.",
}


def _quick_reference(game: str, lang: str, **options: object) -> str:
    html = render_html(resolve(game=game, options=options), paper=A4, lang=language(lang))
    found = re.search(r'<section class="[^"]*back-cover[^"]*".*?</section>', html, re.S)
    assert found is not None
    text = unescape(re.sub(r"<[^>]+>", " ", found.group(0))).replace("\N{SOFT HYPHEN}", "")
    return " ".join(text.replace("’", "'").split())


@pytest.mark.parametrize(("game", "lang"), sorted(COVERED))
def test_every_quick_reference_marks_the_booklets_suggestions_one_way(game: str, lang: str) -> None:
    text = _quick_reference(game, lang)
    key = KEY[lang].replace("’", "'")
    assert text.endswith(key) and text.count(key) == 1
    marked = text[: -len(key)]
    for said in COVERED[game, lang]:
        at = marked.index(said)
        # The sentence that says it ends in the dagger.
        assert marked[at:].split(".", 1)[1].startswith("†"), said
    # No suggestion is marked in words any more, in brackets or otherwise.
    assert "suggestion" not in marked and "Vorschl" not in marked
    assert "(" + ("this" if lang == "en" else "Vorschl") not in marked


@pytest.mark.parametrize(("game", "lang", "teams"), sorted(PLAYERS))
def test_the_players_line_is_this_tables(game: str, lang: str, teams: bool) -> None:
    options = {"players": 6, "partnerships": True} if teams else {}
    assert PLAYERS[game, lang, teams] in _quick_reference(game, lang, **options)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_team_scoring_is_marked_as_a_suggestion_and_no_choice_is_labelled(lang: str) -> None:
    """Print review 13: the heavy set's "Points" line gave team scoring, which the booklet
    itself suggests, without a dagger; and one of its five choices alone was labelled
    "House rule:" inline (the cover's box says which are house rules)."""
    heavy = {"players": 6, "partnerships": True, "must_play_stock": True, "target": 300}
    text = _quick_reference("skip-bo", lang, **heavy)
    # The dagger follows the team scoring, not the target the table chose (print review 14).
    points = text.split("Points." if lang == "en" else "Punkte.")[1]
    scoring, target = points.split("†", 1)
    assert ("per card left" if lang == "en" else "je Karte") in scoring
    assert ("300 points wins the series. " if lang == "en" else "gewinnt die Serie. ") in target
    # Only the closing list of this table's choices names them, as the cover's box does.
    rules = text.split(
        "This table's choices." if lang == "en" else "Was dieser Tisch gewählt hat."
    )[0]
    assert "House rule" not in rules and "Hausregel" not in rules
    single = _quick_reference("skip-bo", lang, must_play_stock=True)
    assert ("wins the series. " if lang == "en" else "gewinnt die Serie. ") in single
