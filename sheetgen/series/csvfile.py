"""CSV series files: optional settings rows, the header ``game,winner,<player>...`` and a
row per game, read as a stream; the CSV export is one too, with points and totals columns."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sheetgen.errors import RuleError, SeriesFileError
from sheetgen.game.definition import DEFAULT_GAME
from sheetgen.game.scoring import Game, Series, check_game_count, game_of
from sheetgen.series.schema import BOM, SCORING_FIELDS

CSV_SETTINGS = ("game", "title", *SCORING_FIELDS, "stock")


def unescape_cell(cell: str) -> str:
    """A CSV cell as written before ``export --excel`` guarded it: a single quote before
    = + - @ tab or return is taken off (it only stops a spreadsheet running a formula)."""
    if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return cell[1:]
    return cell


def read(text: str, path: Path) -> dict[str, Any]:
    """A CSV series: optional settings rows (``title,Friday``, ``team,Red,Ann,Cy``), then
    the header ``game,winner,<player>...`` and a row per game. Columns ``points`` and
    ``total <side>`` after the players, as ``sheetgen export --format csv`` writes them,
    are worked out again from the games, so they are skipped."""
    try:
        return _csv_rows_data(_csv_rows(text), path)
    except csv.Error as exc:
        raise SeriesFileError(file=path, problem=f"not valid CSV ({exc})") from None
    except RuleError as exc:
        raise SeriesFileError(exc.problem, file=path, game=exc.game, field=exc.field) from None


def _csv_rows(text: str) -> Iterator[list[str]]:
    """The rows of a CSV series that hold anything, each read as it is reached."""
    for row in csv.reader(io.StringIO(text)):
        if "".join(row).strip():
            yield [unescape_cell(cell) for cell in row]


def _csv_rows_data(rows: Iterator[list[str]], path: Path) -> dict[str, Any]:
    """The settings rows, the header and the games, taken from ``rows`` as they come: no
    list of every row is made, only the games."""
    row = next(rows, None)
    if row is None:
        raise SeriesFileError(
            file=path, problem="the file is empty; the first row names the columns"
        )
    data: dict[str, Any] = {}
    teams: dict[str, list[str]] = {}
    while row is not None and row[0].strip() in (*CSV_SETTINGS, "team") and not _is_header(row):
        key, *values = [cell.strip() for cell in row]
        values = [value for value in values if value]
        if key == "team" and len(values) >= 2:
            teams[values[0]] = values[1:]
        elif key != "team" and len(values) == 1 and key not in data:
            data[key] = values[0]
        else:
            raise SeriesFileError(
                "a team row names the team and then its players"
                if key == "team"
                else "a settings row holds one value, and each setting is given once",
                file=path,
                field=key,
            )
        row = next(rows, None)
    if teams:
        data["teams"] = teams
    header = [cell.strip() for cell in row] if row is not None else []
    if header[:2] != ["game", "winner"] or len(header) < 3:
        raise SeriesFileError(
            file=path, problem="the first row must be game,winner and then one column per player"
        )
    players = _csv_players(header[2:], list(teams))
    data["players"] = players
    games = []
    for number, row in enumerate(rows, start=1):
        check_game_count(number)
        if len(row) != len(header):
            raise SeriesFileError(
                game=number,
                file=path,
                problem=f"the row has {len(row)} cells, the header {len(header)}",
            )
        if row[0].strip() != str(number):
            raise SeriesFileError(
                game=number,
                file=path,
                problem=f"the game column says {row[0].strip()!r}; "
                f"games are numbered 1, 2, 3 in order, so this row is game {number}",
            )
        winner = row[1].strip()
        winners = teams.get(winner, [winner])
        left = {
            player: cell.strip()
            for player, cell in zip(players, row[2 : 2 + len(players)], strict=True)
            if player not in winners or cell.strip() not in ("", "0")
        }
        games.append({"winner": winner, "left": left})
    data["games"] = games
    return data


def _is_header(row: list[str]) -> bool:
    return [cell.strip() for cell in row[:2]] == ["game", "winner"]


def has_worked_columns(text: str) -> bool:
    """Whether a CSV series carries points and totals columns (an export does); read only
    as far as its header."""
    teams: list[str] = []
    for row in csv.reader(io.StringIO(text.removeprefix(BOM))):
        if _is_header(row):
            columns = [cell.strip() for cell in row[2:]]
            return _csv_players(columns, teams) != columns
        if len(row) > 1 and row[0].strip() == "team":
            teams.append(row[1].strip())
    return False


def _csv_players(columns: list[str], teams: list[str]) -> list[str]:
    """The player columns of a CSV header, without the worked-out points and totals."""
    if "points" in columns:
        at = columns.index("points")
        sides = teams or columns[:at]
        if columns[at + 1 :] == [f"total {side}" for side in sides]:
            return columns[:at]
    return columns


def csv_settings_rows(series: Series) -> list[list[str]]:
    """The rows before a CSV series' header: what differs from the game's own figures."""
    table, rules = series.table, series.scoring
    definition = game_of(series)
    rows = [["game", series.game]] if series.game != DEFAULT_GAME else []
    if series.title:
        rows.append(["title", series.title])
    rows += [
        [key, str(getattr(rules, figure))]
        for key, figure in SCORING_FIELDS.items()
        if getattr(rules, figure) != getattr(definition.scoring, figure)
    ]
    if table.stock != definition.default_stock(len(table.players)):
        rows.append(["stock", str(table.stock)])
    rows += [["team", team.name, *team.members] for team in table.teams]
    return rows


def new_text(series: Series) -> str:
    """The text of a new CSV series file holding ``series`` (no games yet)."""
    return "".join(csv_line(row) for row in csv_settings_rows(series)) + csv_line(
        ["game", "winner", *series.table.players]
    )


def game_row(series: Series, game: Game, number: int, newline: str) -> str:
    """Game ``number`` (from 1) as the line of a CSV series file, ending in ``newline``."""
    counts = [str(game.left.get(player, 0)) for player in series.table.players]
    return csv_line([str(number), game.winner, *counts]).replace("\n", newline)


def append_game(text: str, series: Series, game: Game) -> str:
    """The text with ``game``, the last of ``series``, added as its last row."""
    newline = "\r\n" if "\r\n" in text else "\n"
    ending = "" if text.endswith("\n") or not text else newline
    return text + ending + game_row(series, game, len(series.games), newline)


def row_lines(lines: list[str], index: int) -> tuple[int, int]:
    """The lines holding data row ``index`` (from 0) of a CSV series file: the rows after
    its header, whatever settings rows come before it."""
    header = next(i for i, line in enumerate(lines) if _is_header(next(csv.reader([line]), [])))
    rows = [i for i, line in enumerate(lines) if i > header and line.strip().strip(",")]
    at = rows[index]
    return at, at + 1


def csv_line(cells: Sequence[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()
