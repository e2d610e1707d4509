"""Exports of a scored series, from one registry of formats (JSON, CSV, Markdown), and
the standings for a terminal.

Every number comes from ``scoring.score_series``; this module only arranges it. The
command line reads the registry as it starts (for ``--format``'s choices), so the writers
that need the games' definitions import them when they write.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetgen.errors import ChoiceError
from sheetgen.series.markdown import english, markdown_season_export, markdown_series
from sheetgen.series.season import season_rows

if TYPE_CHECKING:
    from sheetgen.game.language import Language
    from sheetgen.game.scoring import Game, SeriesResult


@dataclass(frozen=True)
class ExportFormat:
    """One export format: its name (the suffix of its files), what a document of it that
    sheetgen wrote holds near its start, and its writers for one series and for a season
    (None for a format that holds one series only, with the reason in ``no_season``)."""

    name: str
    signs: tuple[bytes, ...]
    series: Callable[[SeriesResult, Language], str]
    season: Callable[[Sequence[tuple[Path, SeriesResult]], Language], str] | None
    no_season: str = ""

    @property
    def suffix(self) -> str:
        """The suffix of a file in this format."""
        return f".{self.name}"

    def wrote(self, head: bytes) -> bool:
        """Whether ``head``, the first bytes of a file, is a document sheetgen wrote in this
        format (and so may be written over)."""
        return any(sign in head for sign in self.signs)


def json_series(result: SeriesResult, lang: Language) -> str:
    """The series as the documented JSON object (numbers and names need no language)."""
    return json.dumps(json_data(result), indent=2, ensure_ascii=False) + "\n"


def json_season(named: Sequence[tuple[Path, SeriesResult]], lang: Language) -> str:
    """Several series, each with its file, and their season table, as one JSON object."""
    data = {
        "series": [{"file": str(path), **json_data(result)} for path, result in named],
        "season": [vars(row) for row in season_rows([result for _, result in named])],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def csv_series(result: SeriesResult, lang: Language) -> str:
    """The series as a CSV series file with points and totals (see ``csv_text``)."""
    return csv_text(result)


# Every export format, the first the default: the command line's --format, the check
# before a file is written over and the season export all read this table.
EXPORTS = {
    export.name: export
    for export in (
        ExportFormat("json", (b'"sides"',), json_series, json_season),
        ExportFormat(
            "csv",
            (b",points,total ",),
            csv_series,
            None,
            no_season="a CSV export holds one series (it reads back as a series file)",
        ),
        ExportFormat(
            "md", (b"\n| Side | Total | Games won |",), markdown_series, markdown_season_export
        ),
    )
}
EXPORT_FORMATS = tuple(EXPORTS)


def export_format(name: str) -> ExportFormat:
    """The export format called ``name``; refused, naming the others, if there is none."""
    try:
        return EXPORTS[name]
    except KeyError:
        known = f"{', '.join(EXPORT_FORMATS[:-1])} or {EXPORT_FORMATS[-1]}"
        raise ChoiceError(
            f"{name!r} is not an export format; choose {known}", field="--format"
        ) from None


def export_series(result: SeriesResult, fmt: str, lang: Language | None = None) -> str:
    """The series in the export format ``fmt``, written in ``lang`` (English when None)."""
    return export_format(fmt).series(result, lang or english())


def export_season(
    named: Sequence[tuple[Path, SeriesResult]], fmt: str, lang: Language | None = None
) -> str:
    """Several series and their season table in ``fmt``, written in ``lang`` (English when
    None); refused in a format that holds one series only."""
    export = export_format(fmt)
    if export.season is None:
        holding = " or ".join(name for name, other in EXPORTS.items() if other.season)
        raise ChoiceError(
            f"{export.no_season}; for {len(named)} series use --format {holding}",
            field=f"--format {fmt}",
        )
    return export.season(named, lang or english())


SEASON_HEADINGS = ("Side", "Series", "Won", "Games", "Games won", "Points")


def season_text(results: Sequence[SeriesResult]) -> str:
    """The season table for a terminal."""
    played = sum(len(result.games) for result in results)
    rows = [SEASON_HEADINGS] + [
        (r.side, *(str(n) for n in (r.series, r.series_won, r.games, r.games_won, r.points)))
        for r in season_rows(results)
    ]
    lines = [f"Season: {len(results)} series, {played} game{'s' if played != 1 else ''}"]
    lines += _columns(rows)
    return "\n".join(lines) + "\n"


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """A table for a terminal: the first column left-aligned, the numbers right-aligned,
    the heading row underlined."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def json_data(result: SeriesResult) -> dict[str, Any]:
    """The series as the documented JSON object."""
    series = result.series
    rules = series.scoring
    how: dict[str, Any] = {"scoring": rules.way}
    if rules.cards_left:
        how["games_to_play"] = rules.games_to_play
    else:
        how.update({"target": rules.target, "bonus": rules.bonus, "per_card": rules.per_card})
    return {
        "game": series.game,
        "title": series.title,
        **how,
        "stock": series.table.stock,
        "sides": list(series.table.sides),
        "games": [
            {
                "number": game.number,
                "winner": game.winner,
                "left": dict(game.left),
                "points": game.points,
                "scores": dict(game.scores),
                "totals": dict(game.totals),
            }
            for game in result.games
        ],
        "totals": dict(result.totals),
        "winner": result.winner,
        "won_in_game": result.won_in_game,
    }


# Cells a spreadsheet would take for a formula (OWASP's CSV injection advice).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A CSV text with every cell that a spreadsheet would run as a formula (``=cmd|...``)
    opened by a single quote, which spreadsheets show as text. Plain numbers stay as they
    are. The series reader takes that one quote off again (see csvfile.unescape_cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in csv.reader(io.StringIO(text)):
        writer.writerow([_safe_cell(cell) for cell in row])
    return out.getvalue()


def _safe_cell(cell: str) -> str:
    if cell.startswith(FORMULA_STARTS) and not cell.lstrip("-").isdigit():
        return "'" + cell
    return cell


def csv_text(result: SeriesResult) -> str:
    """The series as a CSV series file that also shows each game's points and totals.

    Settings rows (title, target, teams...) come first, then a row per game: its
    number, winner, the cards left in every player's stock pile, the points and
    every side's running total. ``sheetgen`` reads it back as the same series.
    """
    # Imported when a CSV is written: the series' settings rows need the games' definitions.
    from sheetgen.series.csvfile import csv_settings_rows

    series = result.series
    players, sides = series.table.players, series.table.sides
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(csv_settings_rows(series))
    writer.writerow(["game", "winner", *players, "points", *(f"total {side}" for side in sides)])
    for game in result.games:
        left = [game.left.get(player, 0) for player in players]
        writer.writerow(
            [game.number, game.winner, *left, game.points, *(game.totals[s] for s in sides)]
        )
    return out.getvalue()


def game_text(number: int, game: Game) -> str:
    """One game in a line: ``game 3: Ann went out; left Bob 7, Cy 12``."""
    left = ", ".join(f"{name} {count}" for name, count in game.left.items())
    return f"game {number}: {game.winner} went out; left {left or 'nothing'}"


def standings_text(result: SeriesResult) -> str:
    """A plain-text table of the series for a terminal."""
    series = result.series
    table = series.table
    rules = series.scoring
    label = {side: table.side_label(side) for side in table.sides}
    rows: list[list[str]]
    if rules.cards_left:
        rows = [["Side", "Cards", "Won"]] + [
            [label[row.side], str(row.total), str(row.games_won)] for row in result.standings
        ]
    else:
        rows = [["Side", "Total", "Won", "Needed"]] + [
            [label[row.side], str(row.total), str(row.games_won), str(row.needed)]
            for row in result.standings
        ]
    heading = series.title or "Series"
    played = len(result.games)
    games = "game" if played == 1 else "games"
    lines = [f"{heading}: {played} {games} played, {rules.outcome}", *_columns(rows)]
    if result.winner is not None:
        lines.append(f"{label[result.winner]} won the series in game {result.won_in_game}.")
    elif rules.cards_left and result.finished:
        lines.append("The lowest total is shared: the series is tied.")
    elif result.leader is not None and rules.cards_left:
        left = result.games_left
        lines.append(
            f"{label[result.leader]} leads with {left} {'game' if left == 1 else 'games'} to play."
        )
    elif result.leader is not None:
        leader = next(row for row in result.standings if row.side == result.leader)
        lines.append(f"{label[leader.side]} leads and needs {leader.needed} more points.")
    elif result.games:
        lines.append("The lead is shared.")
    else:
        lines.append("No games recorded yet.")
    return "\n".join(lines) + "\n"
