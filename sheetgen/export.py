"""Exports of a scored series: JSON, CSV and the standings table for a terminal.

Every number comes from ``scoring.score_series``; this module only arranges it.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sheetgen.scoring import Game, SeriesResult

EXPORT_FORMATS = ("json", "csv", "md")


def export_series(result: SeriesResult, fmt: str) -> str:
    """The series in one of ``EXPORT_FORMATS``."""
    if fmt == "json":
        return json.dumps(json_data(result), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return csv_text(result)
    from sheetgen.export_md import markdown_export

    return markdown_export(result)


def json_data(result: SeriesResult) -> dict[str, Any]:
    """The series as the documented JSON object."""
    series = result.series
    return {
        "title": series.title,
        "target": series.rules.target,
        "stock": series.table.stock,
        "sides": list(series.table.sides),
        "games": [
            {
                "number": game.number,
                "winner": game.winner,
                "left": dict(game.left),
                "points": game.points,
                "totals": dict(game.totals),
            }
            for game in result.games
        ],
        "totals": dict(result.totals),
        "winner": result.winner,
        "won_in_game": result.won_in_game,
    }


def csv_text(result: SeriesResult) -> str:
    """One row per game: its number, winner, points and every side's running total."""
    sides = result.series.table.sides
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "winner", "points", *(f"total {side}" for side in sides)])
    for game in result.games:
        writer.writerow([game.number, game.winner, game.points, *(game.totals[s] for s in sides)])
    return out.getvalue()


def game_text(number: int, game: Game) -> str:
    """One game in a line: ``game 3: Ann went out; left Bob 7, Cy 12``."""
    left = ", ".join(f"{name} {count}" for name, count in game.left.items())
    return f"game {number}: {game.winner} went out; left {left or 'nothing'}"


def standings_text(result: SeriesResult) -> str:
    """A plain-text table of the series for a terminal."""
    series = result.series
    table = series.table
    label = {
        side: f"{side} ({' + '.join(table.members(side))})" if table.partnership else side
        for side in table.sides
    }
    rows = [("Side", "Total", "Won", "Needed")] + [
        (label[row.side], str(row.total), str(row.games_won), str(row.needed))
        for row in result.standings
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    heading = series.title or "Series"
    played = len(result.games)
    games = "game" if played == 1 else "games"
    lines.append(f"{heading}: {played} {games} played, first to {series.rules.target}")
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    if result.winner is not None:
        lines.append(f"{label[result.winner]} won the series in game {result.won_in_game}.")
    elif result.leader is not None:
        leader = next(row for row in result.standings if row.side == result.leader)
        lines.append(f"{label[leader.side]} leads and needs {leader.needed} more points.")
    elif result.games:
        lines.append("The lead is shared.")
    else:
        lines.append("No games recorded yet.")
    return "\n".join(lines) + "\n"
