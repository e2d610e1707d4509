"""The booklet's context: every value its text needs, as plain data, built once."""

from __future__ import annotations

import math
from datetime import date
from typing import Any

from sheetgen.booklet.markdown import first_heading
from sheetgen.game.definition import TEAM_SIZE, GameDef
from sheetgen.game.houserules import HouseRules, differences, official_of
from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoring import Game, game_points, max_points
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import Table, deal, make_table
from sheetgen.game.wording import caption, outcome

# Share of a full stock pile each loser still holds in the worked example.
EXAMPLE_SHARES = (0.25, 0.4, 0.1, 0.5, 0.3)


def _example_table(rules: HouseRules, lang: Language) -> Table:
    known = lang.counting.example_names or ENGLISH.counting.example_names
    names = [known[n] if n < len(known) else f"Player {n + 1}" for n in range(rules.players)]
    teams = None
    if rules.partnerships:
        count = rules.players // TEAM_SIZE
        # Lettered as the score sheet heads its team columns.
        teams = {caption(True, k + 1, lang): [names[k], names[k + count]] for k in range(count)}
    return make_table(names, stock=rules.stock, teams=teams, game=rules.definition, deck=rules.deck)


def _example(table: Table, scoring: ScoringRules) -> dict[str, Any]:
    winner = table.sides[0]
    winners = table.members(winner)
    losers = [player for player in table.players if player not in winners]
    left = {player: 0 for player in winners}
    for index, player in enumerate(losers):
        share = EXAMPLE_SHARES[index % len(EXAMPLE_SHARES)]
        left[player] = min(table.stock, max(1, round(table.stock * share)))
    points = game_points(table, Game(winner=winner, left=left), scoring)
    rows = [
        {
            "player": player,
            "side": table.side_of(player),
            "left": left[player],
            "points": left[player] if scoring.cards_left else left[player] * scoring.per_card,
        }
        for player in losers
    ]
    return {
        "winner": winner,
        "rows": rows,
        "cards": sum(left[player] for player in losers),
        "card_points": points - scoring.bonus,
        "points": points,
        "games_to_target": math.ceil(scoring.target / points) if points else 0,
    }


# The table picture: seats along the near and far edges, each seat SEAT_WIDTH wide.
SEAT_WIDTH = 262
SEAT_GAP = 24
PICTURE_WIDTH = 880


def _seats(table: Table) -> list[dict[str, Any]]:
    """Where each player sits in the table picture, clockwise from the near edge.

    Half the players (rounded up) sit along the near edge, the rest along the far
    edge; seen from above, clockwise runs right to left along the near edge and
    left to right along the far one. ``x`` is the left end of the seat's row of piles.
    """
    count = len(table.players)
    near = (count + 1) // 2
    rows = (("near", table.players[:near][::-1]), ("far", table.players[near:]))
    seats = []
    for row, players in rows:
        span = len(players) * SEAT_WIDTH + (len(players) - 1) * SEAT_GAP
        start = (PICTURE_WIDTH - span) / 2
        for index, player in enumerate(players):
            seats.append(
                {
                    "name": player,
                    "team": table.side_of(player) if table.partnership else "",
                    "row": row,
                    "x": start + index * (SEAT_WIDTH + SEAT_GAP),
                }
            )
    return seats


def _others_piles(rules: HouseRules, teams: int, lang: Language) -> str:
    """Whose piles the winner counts: "the other team's stock piles", "the other player's ..."."""
    _ = lang._
    words = lang.game(rules.definition).words
    stock, stocks = words.get("stock", "stock pile"), words.get("stocks", "stock piles")
    if teams:
        other = _("the other team's {stocks}") if teams == 2 else _("the other teams' {stocks}")
    elif rules.players == 2:
        other = _("the other player's {stock}")
    else:
        other = _("the other players' {stocks}")
    return other.format(stock=stock, stocks=stocks)


def extra_title(markdown: str | None, lang: Language = ENGLISH) -> str:
    """The title of the table's own rules: their first heading, else "Our own rules"."""
    first = first_heading(markdown) if markdown is not None else None
    return first.title if first is not None else lang._("Our own rules")


def game_view(game: GameDef) -> dict[str, Any]:
    """What a template may read of a game: its facts and words, nothing of its folder."""
    return {
        "id": game.id,
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "player_span": game.player_span,
        "hand": game.hand,
        "words": game.words,
        "official_stock": game.official_stock,
        "short_stock": game.short_stock,
        "decks": game.decks,
        "partnership_players": game.partnership_players,
        "laid_out": game.laid_out,
        "draw_left": game.draw_left,
        "standard_rules": game.standard_rules,
        "subtitle": game.subtitle,
        "bonus": game.bonus,
        "per_card": game.per_card,
        "target": game.target,
        "toggles": sorted(game.toggles),
        "lang": game.lang,
    }


def rules_view(rules: HouseRules) -> dict[str, Any]:
    """What a template may read of a table's rules: the values, and every toggle the game
    declares by its name with ``_`` for ``-`` (``rules.first_player``)."""
    return {
        **{key.replace("-", "_"): value for key, value in rules.toggles.items()},
        "game": rules.game,
        "players": rules.players,
        "stock": rules.stock,
        "deck": rules.deck,
        "partnerships": rules.partnerships,
        "series": rules.series,
        "scoring": rules.scoring,
        "target": rules.target,
        "bonus": rules.bonus,
        "per_card": rules.per_card,
        "games_to_play": rules.games_to_play,
        "extra": rules.extra is not None,
    }


def build_context(
    rules: HouseRules, extra_markdown: str | None = None, lang: Language = ENGLISH
) -> dict[str, Any]:
    """Every value the templates may use, derived from the validated house rules, with the
    game's prose in ``lang``.

    ``extra_markdown`` is the table's own rules (``rules.extra_text`` when not
    given); only their title is used here, so the house-rules box can point to it.
    """
    game = lang.game(rules.definition)
    if extra_markdown is None:
        extra_markdown = rules.extra_text
    deck = game.deck(rules.deck)
    dealt = deal(rules.players, rules.stock, game=game, deck=deck.id)
    table = _example_table(rules, lang)
    scoring = rules.scoring
    context: dict[str, Any] = {
        "game": game_view(game),
        "words": {**game.words, **deck.words},
        "rules": rules_view(rules),
        "official": rules_view(official_of(rules)),
        "deck": deck,
        "deal": {
            "players": rules.players,
            "stock": dealt.stock,
            "dealt": dealt.dealt,
            "draw_pile": dealt.draw_pile,
            "after_hands": dealt.after_hands,
            "laid_out": dealt.laid_out,
        },
        "teams": len(table.teams),
        "side": lang._("team") if table.teams else lang._("player"),
        "others_piles": _others_piles(rules, len(table.teams), lang),
        "extra_title": extra_title(extra_markdown, lang),
        "lang": lang.code,
        "quotes": lang.counting.quotes,
        "screen": False,
        "scoring": {
            "way": scoring.way,
            "cards_left": scoring.cards_left,
            "bonus": scoring.bonus,
            "per_card": scoring.per_card,
            "target": scoring.target,
            "games_to_play": scoring.games_to_play,
            "outcome": outcome(scoring, lang),
            "max_points": max_points(table, scoring),
        },
        "example": _example(table, scoring) if rules.series else None,
        "seats": _seats(table),
        "changed": differences(rules),
        # The cover's line for the table: its name and the day it agreed its rules.
        "table_name": rules.table_name,
        "agreed": None if rules.agreed is None else day_words(rules.agreed, lang),
    }
    # The box lists own rules handed in directly (not through the house rules) with the
    # house rules; where the sources disagree and the table kept the official choice,
    # it says so as a note.
    listed = set(context["changed"])
    if extra_markdown is not None:
        listed.add("extra")
    context["changed"] = [toggle for toggle in game.house_rules if toggle in listed]
    context["noted"] = [
        toggle for toggle in game.house_rules if toggle in game.disputed and toggle not in listed
    ]
    return context


def day_words(day: date, lang: Language, american: bool = False) -> str:
    """A day as the language writes it in a sentence: 6 December 2026, 6. Dezember 2026;
    in ``american`` English (a Letter booklet) December 6, 2026 (print review 34)."""
    from babel.dates import format_date

    english = "en_US" if american else "en_GB"
    said = format_date(day, format="long", locale=english if lang == ENGLISH else lang.code)
    # A day is read at once: never broken over a line (print review 35: "14." / "März 2026").
    return str(said).replace(" ", "\N{NO-BREAK SPACE}")
