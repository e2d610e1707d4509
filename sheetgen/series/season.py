"""A season: every side's record over several series, added up by the side's name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sheetgen.game.scoring import SeriesResult


@dataclass(frozen=True)
class SeasonRow:
    """One side's record over a season of series (a side is known by its name)."""

    side: str
    series: int
    series_won: int
    games: int
    games_won: int
    points: int


def season_rows(results: Sequence[SeriesResult]) -> list[SeasonRow]:
    """Every side of every series, added up by name: most series won first, then games
    won, then points."""
    rows: dict[str, SeasonRow] = {}
    for result in results:
        won = {row.side: row.games_won for row in result.standings}
        for side in result.series.table.sides:
            old = rows.get(side, SeasonRow(side, 0, 0, 0, 0, 0))
            rows[side] = SeasonRow(
                side,
                old.series + 1,
                old.series_won + (result.winner == side),
                old.games + len(result.games),
                old.games_won + won[side],
                old.points + result.totals[side],
            )
    return sorted(rows.values(), key=lambda r: (-r.series_won, -r.games_won, -r.points, r.side))
