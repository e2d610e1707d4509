"""Exports of a scored series, from one registry of formats (JSON, CSV, Markdown and
workbooks), and the standings for a terminal.

Every number comes from ``scoring.score_series``; this module only arranges it. The
command line reads the registry as it starts (for ``--format``'s choices), so the writers
that need the games' definitions import them when they write.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetgen.errors import ChoiceError
from sheetgen.series.markdown import english, markdown_season_export, markdown_series
from sheetgen.series.season import player_rows, team_rows

if TYPE_CHECKING:
    from sheetgen.game.language import Language
    from sheetgen.game.scoring import Game, SeriesResult
    from sheetgen.series.csvfile import Dialect


# A document of an export: text, or a workbook's bytes.
Document = str | bytes


@dataclass(frozen=True)
class ExportFormat:
    """One export format: its name (the suffix of its files), what a document of it that
    sheetgen wrote holds near its start, and its writers for one series and for a season
    (None for a format that holds one series only, with the reason in ``no_season``).
    A writer is given the series, the language and, for CSV, the dialect to write."""

    name: str
    signs: tuple[bytes, ...]
    series: Callable[[SeriesResult, Language, Dialect | None], Document]
    season: Callable[[Sequence[tuple[Path, SeriesResult]], Language], Document] | None
    no_season: str = ""
    binary: bool = False

    @property
    def suffix(self) -> str:
        """The suffix of a file in this format."""
        return f".{self.name}"

    def wrote(self, head: bytes) -> bool:
        """Whether ``head``, the first bytes of a file, is a document sheetgen wrote in this
        format (and so may be written over)."""
        return any(sign in head for sign in self.signs)


def json_series(result: SeriesResult, lang: Language, dialect: Dialect | None = None) -> str:
    """The series as the documented JSON object (numbers and names need no language)."""
    return json.dumps(json_data(result), indent=2, ensure_ascii=False) + "\n"


def json_season(named: Sequence[tuple[Path, SeriesResult]], lang: Language) -> str:
    """Several series, each with its file, and the season's players and teams, as one
    JSON object."""
    results = [result for _, result in named]
    data = {
        "series": [{"file": str(path), **json_data(result)} for path, result in named],
        "season": {
            "players": [row.json() for row in player_rows(results)],
            "teams": [row.json() for row in team_rows(results)],
        },
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def csv_series(result: SeriesResult, lang: Language, dialect: Dialect | None = None) -> str:
    """The series as a CSV series file with points and totals, headed in ``lang`` and
    written in ``dialect`` (see ``csvfile.export_text``)."""
    from sheetgen.series.csvfile import export_text

    return export_text(result, lang.code, dialect)


def markdown_writer(result: SeriesResult, lang: Language, dialect: Dialect | None = None) -> str:
    return markdown_series(result, lang)


def xlsx_series(result: SeriesResult, lang: Language, dialect: Dialect | None = None) -> bytes:
    from sheetgen.series.xlsxfile import series_xlsx

    return series_xlsx(result, lang)


def xlsx_season(named: Sequence[tuple[Path, SeriesResult]], lang: Language) -> bytes:
    from sheetgen.series.xlsxfile import season_xlsx

    return season_xlsx(named, lang)


# Every export format, the first the default: the command line's --format, the check
# before a file is written over and the season export all read this table.
EXPORTS = {
    export.name: export
    for export in (
        ExportFormat("json", (b'"sides"',), json_series, json_season),
        ExportFormat(
            "csv",
            tuple(
                f"{delimiter}{word} ".encode()
                for delimiter in (",", ";", "\t")
                for word in ("total", "Summe", "Total")
            ),
            csv_series,
            None,
            no_season="a CSV export holds one series (it reads back as a series file)",
        ),
        ExportFormat(
            "md", (b"\n## Standings\n", b"\n## Tabelle\n"), markdown_writer, markdown_season_export
        ),
        # A workbook sheetgen wrote has its properties, naming sheetgen, first and unpacked.
        ExportFormat("xlsx", (b">sheetgen</dc:creator>",), xlsx_series, xlsx_season, binary=True),
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


def export_series(
    result: SeriesResult,
    fmt: str,
    lang: Language | None = None,
    dialect: Dialect | None = None,
) -> Document:
    """The series in the export format ``fmt``, written in ``lang`` (English when None);
    a CSV export in ``dialect`` (sheetgen's plain one when None)."""
    return export_format(fmt).series(result, lang or english(), dialect)


def export_season(
    named: Sequence[tuple[Path, SeriesResult]], fmt: str, lang: Language | None = None
) -> Document:
    """Several series and their season's tables in ``fmt``, written in ``lang`` (English
    when None); refused in a format that holds one series only."""
    export = export_format(fmt)
    if export.season is None:
        holding = " or ".join(name for name, other in EXPORTS.items() if other.season)
        raise ChoiceError(
            f"{export.no_season}; for {len(named)} series use --format {holding}",
            field=f"--format {fmt}",
        )
    return export.season(named, lang or english())


def season_text(results: Sequence[SeriesResult]) -> str:
    """The season's tables for a terminal: the players, then the teams (if any)."""
    from sheetgen.series.words import season_intro, season_tables

    played = sum(len(result.games) for result in results)
    lines = [f"Season: {len(results)} series, {played} game{'s' if played != 1 else ''}"]
    lines += season_intro(results, english())[1:]
    for title, rows in season_tables(results, english()):
        shown = [["" if cell is None else str(cell) for cell in row] for row in rows]
        lines += ["", f"{title}:", *_columns(shown)]
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


def game_text(number: int, game: Game) -> str:
    """One game in a line: ``game 3: Ann went out; left Bob 7, Cy 12``."""
    left = ", ".join(f"{name} {count}" for name, count in game.left.items())
    return f"game {number}: {game.winner} went out; left {left or 'nothing'}"


def _level(result: SeriesResult, label: Mapping[str, str]) -> str:
    """Who shares the lead, and on what: "Ann and Bob are level on 45 points."."""
    rules = result.series.scoring
    totals = [row.total for row in result.standings]
    best = min(totals) if rules.cards_left else max(totals)
    level = [label[row.side] for row in result.standings if row.total == best]
    names = ", ".join(level[:-1]) + f" and {level[-1]}"
    if rules.cards_left:
        left = result.games_left
        return (
            f"{names} are level on {best} {'card' if best == 1 else 'cards'} left, "
            f"with {left} {'game' if left == 1 else 'games'} to play."
        )
    return f"{names} are level on {best} {'point' if best == 1 else 'points'}."


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
        lines.append(_level(result, label))
    else:
        lines.append("No games recorded yet.")
    return "\n".join(lines) + "\n"
