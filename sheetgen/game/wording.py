"""The sentences score sheets and exports say, in the document's language.

Every string here is English source text marked for translation (``lang._``);
the catalogues under ``sheetgen/locale/`` hold the other languages.
"""

from __future__ import annotations

from typing import NamedTuple

from sheetgen.game.definition import GameDef
from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoringrules import ScoringRules


class Labels(NamedTuple):
    """The sheet's own words, in the sheet's language (English unless told)."""

    date: str = "Date"
    place: str = "Place"
    status: str = "Series winner:"
    game: str = "Game"
    points: str = "Points"
    cards_left: str = "Cards left"
    total: str = "Total"
    brought_forward: str = "Brought forward"  # its first word on a line of its own
    won: str = "won the game"
    reached: str = "reached the target"
    won_series: str = "won the series"
    sheet: str = "Sheet {number} of {count}"  # its first word on a line of its own


def labels(lang: Language = ENGLISH) -> Labels:
    """The sheet's own words in ``lang``."""
    _ = lang._
    return Labels(
        date=_("Date"),
        place=_("Place"),
        status=_("Series winner:"),
        game=_("Game"),
        points=_("Points"),
        cards_left=_("Cards left"),
        total=_("Total"),
        brought_forward=_("Brought forward"),
        won=_("won the game"),
        reached=_("reached the target"),
        won_series=_("won the series"),
        sheet=_("Sheet {number} of {count}"),
    )


def title_for(game: GameDef, lang: Language = ENGLISH) -> str:
    """The default heading of a game's sheet."""
    return lang._("{game} score sheet").format(game=lang.words(game).name)


def series_name(game: GameDef, lang: Language = ENGLISH) -> str:
    """What a series of this game is called when it has no title of its own."""
    return lang._("{game} series").format(game=lang.words(game).name)


def caption(teams: bool, number: int, lang: Language = ENGLISH) -> str:
    """The caption of a blank column to write a name by: "Player 1", and "Team A" as the
    booklets' examples letter their teams."""
    if teams:
        return lang._("Team {letter}").format(letter=chr(ord("A") + number - 1))
    return lang._("Player {number}").format(number=number)


def games_count(rules: ScoringRules, lang: Language, *, in_words: bool = False) -> str:
    """How many games a cards-left series has, as a sheet writes it: in figures, or with
    ``in_words`` in the booklet's style (words up to twelve), as the language's sheets
    always do when it says so."""
    if in_words or lang.counting.sheet_games_in_words:
        return lang.counting.spell(rules.games_to_play)
    return lang.number(rules.games_to_play)


def goal(rules: ScoringRules, lang: Language = ENGLISH, *, in_words: bool = False) -> str:
    """The sentence boxed at the top of a sheet: how the series is won."""
    if rules.cards_left and rules.games_to_play == 1:
        return lang._("One game: the lowest total after it wins the series.")
    if rules.cards_left:
        sentence = lang._("{games} games: the lowest total after the last one wins the series.")
        games = games_count(rules, lang, in_words=in_words)
        return sentence.format(games=games[:1].upper() + games[1:])
    return lang._("Target: {target} points. The first to reach {target} wins the series.").format(
        target=lang.number(rules.target)
    )


def outcome(rules: ScoringRules, lang: Language = ENGLISH) -> str:
    """How the series is won, in a few words: "first to 500", "lowest total after 10 games"."""
    if rules.cards_left and rules.games_to_play == 1:
        return lang._("lowest total after one game")
    if rules.cards_left:
        return lang._("lowest total after {games} games").format(games=games_count(rules, lang))
    return lang._("first to {target}").format(target=lang.number(rules.target))


def reminder(
    rules: ScoringRules,
    partnership: bool,
    piles: str,
    lang: Language = ENGLISH,
    *,
    sides: int = 3,
    pile: str | None = None,
    in_words: bool = False,
) -> str:
    """The one-line reminder at a sheet's foot of how this table scores (``piles`` and
    ``pile``: the game's words for the players' own piles and for one of them, in ``lang``;
    ``sides``: how many players or teams the sheet has; ``in_words``: see ``games_count``)."""
    _ = lang._
    one = piles if pile is None else pile
    if rules.cards_left:
        if rules.games_to_play == 1:
            sentence = (
                _(
                    "Scoring: after the game every team writes down the cards still in its "
                    "partners' {piles}; the lowest total wins."
                )
                if partnership
                else _(
                    "Scoring: after the game every player writes down the cards still in their "
                    "own {piles}; the lowest total wins."
                )
            )
            return sentence.format(piles=piles if partnership else one)
        sentence = (
            _(
                "Scoring: after each game every team writes down the cards still in their own "
                "{piles}; after {games} games the lowest total wins."
            )
            if partnership
            else _(
                "Scoring: after each game every player writes down the cards still in their own "
                "{piles}; after {games} games the lowest total wins."
            )
        )
        return sentence.format(
            piles=piles if partnership else one,
            games=games_count(rules, lang, in_words=in_words),
        )
    if sides == 2:
        sentence = (
            _(
                "Scoring: the team that wins a game gets {bonus}, and {per_card} more per card "
                "still in the other team's {piles}; the losing team gets 0. Add it to the running "
                "total."
            )
            if partnership
            else _(
                "Scoring: a game's winner gets {bonus}, and {per_card} more per card still in the "
                "other player's {piles}; the loser gets 0. Add it to the running total."
            )
        )
        return sentence.format(
            bonus=lang.number(rules.bonus),
            per_card=lang.number(rules.per_card),
            piles=piles if partnership else one,
        )
    sentence = (
        _(
            "Scoring: the team that wins a game gets {bonus}, and {per_card} more per card "
            "still in the other teams' {piles}; the rest get 0. Add it to the running total."
        )
        if partnership
        else _(
            "Scoring: a game's winner gets {bonus}, and {per_card} more per card still in the "
            "other players' {piles}; the rest get 0. Add it to the running total."
        )
    )
    return sentence.format(
        bonus=lang.number(rules.bonus), per_card=lang.number(rules.per_card), piles=piles
    )
