"""Score games and series: the one place points are computed.

The two ways of scoring and their figures are ``sheetgen.game.scoringrules``'s. Pure
functions over plain data; every sheet, export and booklet example asks this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from sheetgen.errors import RuleError
from sheetgen.game.definition import GameDef, load_game
from sheetgen.game.names import choices
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import Table
from sheetgen.limits import MAX_SERIES_GAMES


class Game(NamedTuple):
    """One recorded game: the side that went out and the cards left in the stock piles."""

    winner: str
    left: Mapping[str, int]


@dataclass(frozen=True)
class Series:
    """A table's run of games: which game it is, who plays, how it scores."""

    table: Table
    games: tuple[Game, ...] = ()
    scoring: ScoringRules = field(default_factory=ScoringRules)
    title: str | None = None
    game: str = "skip-bo"
    # The game's definition the series was read with, so that nothing looks it up again.
    definition: GameDef | None = field(default=None, compare=False, repr=False)


def game_of(series: Series) -> GameDef:
    """The game a series is of: the definition it was read with, else looked up by its id."""
    return series.definition if series.definition is not None else load_game(series.game)


class GameResult(NamedTuple):
    """A game as the sheet shows it: what each side scored and every side's running total.

    ``scores`` holds every side: the winner's points and 0 for the rest, or with
    ``cards-left`` scoring the cards each side is charged. ``points`` is the
    winner's points (0 with ``cards-left``).
    """

    number: int
    winner: str
    left: Mapping[str, int]
    points: int
    totals: Mapping[str, int]
    scores: Mapping[str, int]


class Standing(NamedTuple):
    """One side's place in the series; ``needed`` is the points still needed to win
    (with ``cards-left`` scoring: the games still to play)."""

    side: str
    total: int
    games_won: int
    needed: int


class SeriesResult(NamedTuple):
    """Everything derived from a series: per-game results, totals and the outcome."""

    series: Series
    games: tuple[GameResult, ...]
    totals: Mapping[str, int]
    winner: str | None
    won_in_game: int | None

    @property
    def finished(self) -> bool:
        """Whether the series is over: won, or (cards left) all its games played."""
        rules = self.series.scoring
        if rules.cards_left:
            return len(self.games) >= rules.games_to_play
        return self.winner is not None

    @property
    def games_left(self) -> int:
        """Games still to play in a ``cards-left`` series (0 for the winner's way)."""
        rules = self.series.scoring
        return max(0, rules.games_to_play - len(self.games)) if rules.cards_left else 0

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Sides from the best total down (lowest first with cards left; ties keep seating)."""
        rules = self.series.scoring
        wins = {side: 0 for side in self.totals}
        for game in self.games:
            wins[game.winner] += 1
        if rules.cards_left:
            rows = [
                Standing(side, total, wins[side], self.games_left)
                for side, total in self.totals.items()
            ]
            return tuple(sorted(rows, key=lambda row: row.total))
        rows = [
            Standing(side, total, wins[side], max(0, rules.target - total))
            for side, total in self.totals.items()
        ]
        return tuple(sorted(rows, key=lambda row: -row.total))

    @property
    def leader(self) -> str | None:
        """The side ahead, or None before any game or when the best total is shared."""
        rows = self.standings
        if not rows or not self.games:
            return None
        if not self.series.scoring.cards_left and rows[0].total == 0:
            return None
        if len(rows) > 1 and rows[1].total == rows[0].total:
            return None
        return rows[0].side


def result_line(game: GameResult, rules: ScoringRules) -> str:
    """One scored game in words: ``Ann scores 65`` or ``Ann went out; Bob 7, Cy 12 cards left``."""
    if not rules.cards_left:
        return f"{game.winner} scores {game.points}"
    charged = ", ".join(f"{side} {cards}" for side, cards in game.scores.items() if cards)
    return f"{game.winner} went out; {charged} cards left count against them"


def max_points(table: Table, rules: ScoringRules | None = None) -> int:
    """The most one game can put on one side's line.

    The winner's way: the bonus plus every other side's untouched stock; cards
    left: a side's own untouched stock piles.
    """
    rules = rules or ScoringRules()
    most = max(len(table.members(side)) for side in table.sides)
    if rules.cards_left:
        return table.stock * most
    return rules.bonus + rules.per_card * table.stock * (len(table.players) - most)


def check_game(table: Table, game: Game, number: int) -> None:
    """Refuse a game the rules of the table cannot produce."""

    def fail(problem: str, field: str | None = None) -> RuleError:
        return RuleError(problem, game=number, field=field)

    if game.winner not in table.sides:
        kind = "team" if table.partnership else "player"
        raise fail(
            f"{game.winner!r} is not a {kind} of this series ({choices(game.winner, table.sides)})",
            "winner",
        )
    for name in game.left:
        if name not in table.players:
            raise fail(
                f"{name!r} is not a player of this series ({choices(name, table.players)})", "left"
            )
    winners = table.members(game.winner)
    for player in table.players:
        count = game.left.get(player)
        if count is None:
            if player in winners:
                continue
            raise fail(f"no count for {player}", "left")
        if isinstance(count, bool) or not isinstance(count, int):
            raise fail(f"{count!r} is not a whole number", f"left {player}")
        if count < 0:
            raise fail(f"{player} cannot have {count} cards left; give 0 to {table.stock}")
        if count > table.stock:
            raise fail(f"{player} has {count} cards left, but stock piles hold {table.stock}")
        if player in winners and count != 0:
            raise fail(f"{player} won but has {count} cards left; the winner's stock is empty")
    for side in table.sides:
        if side == game.winner:
            continue
        if all(game.left.get(player) == 0 for player in table.members(side)):
            if table.partnership:
                raise fail(
                    f"both stock piles of team {side} are empty too; only one "
                    "team can go out, so one of them must hold cards"
                )
            raise fail(
                f"{side} has 0 cards left too; the game ends when the first "
                "stock pile empties, so only the winner holds 0"
            )


def game_points(table: Table, game: Game, rules: ScoringRules | None = None) -> int:
    """Points for the winner of one game (checks the game first)."""
    rules = rules or ScoringRules()
    check_game(table, game, 1)
    return _scores(table, game, rules)[game.winner]


def _scores(table: Table, game: Game, rules: ScoringRules) -> dict[str, int]:
    """What one game puts on each side's line."""
    left = {
        side: sum(game.left.get(player, 0) for player in table.members(side))
        for side in table.sides
    }
    if rules.cards_left:
        return left
    cards = sum(count for side, count in left.items() if side != game.winner)
    scores = dict.fromkeys(table.sides, 0)
    scores[game.winner] = rules.bonus + rules.per_card * cards
    return scores


def check_game_count(count: int) -> None:
    """Refuse ``count`` games if a series may not hold that many; readers ask as the games
    come in, before they are checked one by one."""
    if count > MAX_SERIES_GAMES:
        raise RuleError(
            f"a series holds at most {MAX_SERIES_GAMES:,} games; "
            "start a new series file for more games",
            game=MAX_SERIES_GAMES + 1,
        )


def score_series(series: Series) -> SeriesResult:
    """Check every game of a series and derive its points, totals and winner."""
    table, rules = series.table, series.scoring
    check_game_count(len(series.games))
    totals = dict.fromkeys(table.sides, 0)
    results: list[GameResult] = []
    winner: str | None = None
    won_in: int | None = None
    for number, game in enumerate(series.games, start=1):
        if winner is not None or (rules.cards_left and number > rules.games_to_play):
            ended = (
                f"the series was already won by {winner} in game {won_in}"
                if winner is not None
                else f"the series ended after its {rules.games_to_play} games"
            )
            raise RuleError(f"{ended}; start a new series file for more games", game=number)
        check_game(table, game, number)
        scores = _scores(table, game, rules)
        for side, score in scores.items():
            totals[side] += score
        points = 0 if rules.cards_left else scores[game.winner]
        results.append(
            GameResult(number, game.winner, dict(game.left), points, dict(totals), scores)
        )
        if not rules.cards_left and totals[game.winner] >= rules.target:
            winner, won_in = game.winner, number
    if rules.cards_left and len(results) >= rules.games_to_play:
        best = min(totals.values())
        lowest = [side for side, total in totals.items() if total == best]
        if len(lowest) == 1:
            winner, won_in = lowest[0], len(results)
    return SeriesResult(series, tuple(results), dict(totals), winner, won_in)
