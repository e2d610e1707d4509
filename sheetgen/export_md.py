"""The Markdown export of a scored series: the standings and every game, as two tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sheetgen.scoring import SeriesResult

if TYPE_CHECKING:
    from sheetgen.export import SeasonRow

MARKUP = frozenset("\\`*_[]<>|~#")


def _cell(text: object) -> str:
    """Names as plain text in Markdown: markup characters escaped, one line."""
    flat = " ".join(str(text).split())
    return "".join("\\" + char if char in MARKUP else char for char in flat)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown_export(result: SeriesResult, source: str | None = None) -> str:
    """The series as Markdown: heading, outcome, standings table and game-by-game table;
    ``source`` (the series file) is named in the heading when given."""
    from sheetgen.games import game_of

    series = result.series
    table = series.table
    rules = series.scoring
    label = {side: table.side_label(side) for side in table.sides}
    heading = _cell(series.title or f"{game_of(series).name} series")
    lines = [f"# {heading} ({_cell(source)})" if source else f"# {heading}", ""]
    played = len(result.games)
    games = f"{played} game{'s' if played != 1 else ''} played"
    lines.append(f"{rules.outcome[0].upper()}{rules.outcome[1:]}; {games}.")
    if result.winner is not None:
        outcome = f"**{_cell(label[result.winner])}** won the series in game {result.won_in_game}."
    elif result.leader is not None:
        outcome = f"No winner yet; **{_cell(label[result.leader])}** leads."
    else:
        outcome = "No winner yet; nobody leads."
    lines += [outcome, "", "## Standings", ""]
    if rules.cards_left:
        lines.append(_row(["Side", "Cards left", "Games won", "Games to play"]))
    else:
        lines.append(_row(["Side", "Total", "Games won", f"Still needed to {rules.target}"]))
    lines.append("| --- | ---: | ---: | ---: |")
    for row in result.standings:
        lines.append(
            _row([_cell(label[row.side]), str(row.total), str(row.games_won), str(row.needed)])
        )
    lines += ["", "## Games", ""]
    scored = "Cards left" if rules.cards_left else "Points"
    lines.append(_row(["Game", "Winner", scored, *(_cell(side) for side in table.sides)]))
    lines.append("| ---: | --- | ---: |" + " ---: |" * len(table.sides))
    for game in result.games:
        totals = [str(game.totals[side]) for side in table.sides]
        points = sum(game.scores.values()) if rules.cards_left else game.points
        lines.append(_row([str(game.number), _cell(game.winner), str(points), *totals]))
    if not result.games:
        lines.append(_row(["", "no games recorded", "", *([""] * len(table.sides))]))
    return "\n".join(lines) + "\n"


def markdown_season(rows: Sequence[SeasonRow]) -> str:
    """The season table in Markdown: every side's series, games and points added up."""
    lines = ["# Season", ""]
    lines.append(_row(["Side", "Series", "Series won", "Games", "Games won", "Points"]))
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        numbers = (row.series, row.series_won, row.games, row.games_won, row.points)
        lines.append(_row([_cell(row.side), *(str(n) for n in numbers)]))
    return "\n".join(lines) + "\n"
