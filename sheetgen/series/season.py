"""A season: every player's record over several series, and every team's.

Players and teams are kept apart. In the players' table a partnership's results (the
series and games it won, its points or cards left) count for each of its two partners;
the teams' table holds the teams, a team being its name and its two players. A player is
known by the name as a reader sees it (``ann`` is Ann). Points come from the series scored
the winner's way and cards left from those scored by cards left: the two never add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sheetgen.game.names import name_key

if TYPE_CHECKING:
    from sheetgen.game.scoring import SeriesResult


@dataclass(frozen=True)
class SeasonRow:
    """A player's or a team's record over a season (a team with its two players)."""

    name: str
    members: tuple[str, ...] = ()
    series: int = 0
    series_won: int = 0
    games: int = 0
    games_won: int = 0
    points: int = 0
    cards_left: int = 0

    @property
    def label(self) -> str:
        """The row as a table names it: ``Red (Ann + Cy)``, or the player."""
        return f"{self.name} ({' + '.join(self.members)})" if self.members else self.name

    def json(self) -> dict[str, object]:
        data: dict[str, object] = {"name": self.name}
        if self.members:
            data["members"] = list(self.members)
        data.update(
            series=self.series,
            series_won=self.series_won,
            games=self.games,
            games_won=self.games_won,
            points=self.points,
            cards_left=self.cards_left,
        )
        return data


def _added(row: SeasonRow, result: SeriesResult, side: str) -> SeasonRow:
    """``row`` with what ``side`` did in ``result`` added."""
    total = result.totals[side]
    cards = result.series.scoring.cards_left
    won = sum(1 for game in result.games if game.winner == side)
    return replace(
        row,
        series=row.series + 1,
        series_won=row.series_won + (result.winner == side),
        games=row.games + len(result.games),
        games_won=row.games_won + won,
        points=row.points + (0 if cards else total),
        cards_left=row.cards_left + (total if cards else 0),
    )


def _ranked(rows: dict[object, SeasonRow]) -> list[SeasonRow]:
    """Most series won first, then games won, then points, then the fewest cards left."""
    return sorted(
        rows.values(),
        key=lambda r: (-r.series_won, -r.games_won, -r.points, r.cards_left, name_key(r.label)),
    )


def player_rows(results: Sequence[SeriesResult]) -> list[SeasonRow]:
    """Every player of every series, a partnership's results counted for each partner."""
    rows: dict[object, SeasonRow] = {}
    for result in results:
        table = result.series.table
        for player in table.players:
            key = name_key(player)
            rows[key] = _added(rows.get(key, SeasonRow(player)), result, table.side_of(player))
    return _ranked(rows)


def team_rows(results: Sequence[SeriesResult]) -> list[SeasonRow]:
    """Every team of every partnership series: one team is one name and its two players."""
    rows: dict[object, SeasonRow] = {}
    for result in results:
        for team in result.series.table.teams:
            key = (name_key(team.name), frozenset(name_key(m) for m in team.members))
            start = SeasonRow(team.name, tuple(team.members))
            rows[key] = _added(rows.get(key, start), result, team.name)
    return _ranked(rows)


def scored_ways(results: Sequence[SeriesResult]) -> tuple[bool, bool]:
    """Whether some series are scored the winner's way (points), and some by cards left."""
    ways = {result.series.scoring.cards_left for result in results}
    return False in ways, True in ways
