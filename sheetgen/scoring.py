"""Score Skip-Bo games and series: the one place points are computed.

Only the winner of a game scores: a bonus (25) plus a value (5) for every
card left in every other side's stock piles. The first side to reach the
target (500) wins the series. Pure functions over plain data; every sheet,
export and booklet example asks this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sheetgen.errors import RuleError
from sheetgen.table import Table

BONUS = 25
PER_CARD = 5
TARGET = 500


@dataclass(frozen=True)
class ScoringRules:
    """How a series is scored; related games reuse the module with their own figures."""

    bonus: int = BONUS
    per_card: int = PER_CARD
    target: int = TARGET

    def __post_init__(self) -> None:
        for name in ("bonus", "per_card", "target"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(f"{name}: {value!r} is not a whole number")
        if self.target <= 0:
            raise RuleError(f"target: {self.target} must be more than 0 points")
        if self.bonus < 0 or self.per_card < 0:
            raise RuleError("bonus and per_card cannot be negative")


@dataclass(frozen=True)
class Game:
    """One recorded game: the side that went out and the cards left in the stock piles."""

    winner: str
    left: Mapping[str, int]


@dataclass(frozen=True)
class Series:
    """A table's run of games toward the target."""

    table: Table
    games: tuple[Game, ...] = ()
    rules: ScoringRules = field(default_factory=ScoringRules)
    title: str | None = None


@dataclass(frozen=True)
class GameResult:
    """A game as the sheet shows it: its points and every side's running total."""

    number: int
    winner: str
    left: Mapping[str, int]
    points: int
    totals: Mapping[str, int]


@dataclass(frozen=True)
class Standing:
    """One side's place in the series."""

    side: str
    total: int
    games_won: int
    needed: int


@dataclass(frozen=True)
class SeriesResult:
    """Everything derived from a series: per-game results, totals and the outcome."""

    series: Series
    games: tuple[GameResult, ...]
    totals: Mapping[str, int]
    winner: str | None
    won_in_game: int | None

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Sides from the highest total down (ties keep seating order)."""
        target = self.series.rules.target
        wins = {side: 0 for side in self.totals}
        for game in self.games:
            wins[game.winner] += 1
        rows = [
            Standing(side, total, wins[side], max(0, target - total))
            for side, total in self.totals.items()
        ]
        return tuple(sorted(rows, key=lambda row: -row.total))

    @property
    def leader(self) -> str | None:
        """The side ahead, or None before any points or when the top is shared."""
        rows = self.standings
        if not rows or rows[0].total == 0:
            return None
        if len(rows) > 1 and rows[1].total == rows[0].total:
            return None
        return rows[0].side


def max_points(table: Table, rules: ScoringRules | None = None) -> int:
    """The most one game can pay: the bonus plus every other side's untouched stock."""
    rules = rules or ScoringRules()
    winners = max(len(table.members(side)) for side in table.sides)
    return rules.bonus + rules.per_card * table.stock * (len(table.players) - winners)


def check_game(table: Table, game: Game, number: int) -> None:
    """Refuse a game the rules of the table cannot produce."""
    where = f"game {number}"
    if game.winner not in table.sides:
        kind = "team" if table.partnership else "player"
        raise RuleError(
            f"{where}: winner {game.winner!r} is not a {kind} of this series "
            f"(choose from {', '.join(table.sides)})"
        )
    for name in game.left:
        if name not in table.players:
            raise RuleError(f"{where}: left names {name!r}, who is not a player of this series")
    winners = table.members(game.winner)
    for player in table.players:
        count = game.left.get(player)
        if count is None:
            if player in winners:
                continue
            raise RuleError(f"{where}: left has no count for {player}")
        if isinstance(count, bool) or not isinstance(count, int):
            raise RuleError(f"{where}: {player} has {count!r} cards left; give a whole number")
        if count < 0 or count > table.stock:
            raise RuleError(
                f"{where}: {player} has {count} cards left, but stock piles hold {table.stock}"
            )
        if player in winners and count != 0:
            raise RuleError(
                f"{where}: {player} won but has {count} cards left; the winner's stock is empty"
            )
    for side in table.sides:
        if side == game.winner:
            continue
        if all(game.left.get(player) == 0 for player in table.members(side)):
            if table.partnership:
                raise RuleError(
                    f"{where}: both stock piles of team {side} are empty too; only one "
                    "team can go out, so one of them must hold cards"
                )
            raise RuleError(
                f"{where}: {side} has 0 cards left too; the game ends when the first "
                "stock pile empties, so only the winner holds 0"
            )


def game_points(table: Table, game: Game, rules: ScoringRules | None = None) -> int:
    """Points for the winner of one game (checks the game first)."""
    rules = rules or ScoringRules()
    check_game(table, game, 1)
    return _points(table, game, rules)


def _points(table: Table, game: Game, rules: ScoringRules) -> int:
    winners = table.members(game.winner)
    cards = sum(count for player, count in game.left.items() if player not in winners)
    return rules.bonus + rules.per_card * cards


def score_series(series: Series) -> SeriesResult:
    """Check every game of a series and derive its points, totals and winner."""
    table, rules = series.table, series.rules
    totals = {side: 0 for side in table.sides}
    results: list[GameResult] = []
    winner: str | None = None
    won_in: int | None = None
    for number, game in enumerate(series.games, start=1):
        if winner is not None:
            raise RuleError(
                f"game {number}: the series was already won by {winner} in game {won_in}; "
                "start a new series file for more games"
            )
        check_game(table, game, number)
        points = _points(table, game, rules)
        totals[game.winner] += points
        results.append(GameResult(number, game.winner, dict(game.left), points, dict(totals)))
        if totals[game.winner] >= rules.target:
            winner, won_in = game.winner, number
    return SeriesResult(series, tuple(results), dict(totals), winner, won_in)
