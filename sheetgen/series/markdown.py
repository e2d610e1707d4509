"""The Markdown export of a scored series (how it is won and where it stands, in whole
sentences; the standings; every game) and of a season (its players' and teams' tables,
then every series).

The games table is laid out as the CSV export and the workbook are: under a player's own
name, the cards left in that player's stock pile; then the game's points and every side's
running total, each headed as such.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sheetgen.series.words import (
    outcome_sentence,
    played_sentence,
    say,
    season_intro,
    season_tables,
    standings_rows,
    status_sentence,
)

if TYPE_CHECKING:
    from sheetgen.game.language import Language
    from sheetgen.game.scoring import SeriesResult

MARKUP = frozenset("\\`*_[]<>|~#")


def _cell(text: object) -> str:
    """Names as plain text in Markdown: markup characters escaped, one line."""
    flat = " ".join(str(text).split())
    return "".join("\\" + char if char in MARKUP else char for char in flat)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(rows: Sequence[Sequence[str | int | None]], number: Callable[[int], str]) -> list[str]:
    """A Markdown table: the first row its heading, columns of numbers aligned right."""
    heading, body = rows[0], rows[1:]
    numeric = [
        bool(body) and all(isinstance(row[i], int) for row in body) for i in range(len(heading))
    ]
    lines = [_row([_cell(cell) for cell in heading])]
    lines.append("|" + "|".join(" ---: " if right else " --- " for right in numeric) + "|")
    for row in body:
        shown = [number(c) if isinstance(c, int) else _cell("" if c is None else c) for c in row]
        lines.append(_row(shown))
    return lines


def english() -> Language:
    """English, the language of an export when none is asked for."""
    # Imported when used: the export registry, read as the command line starts, imports
    # this module, and the languages bring in the games' definitions.
    from sheetgen.game.language import ENGLISH

    return ENGLISH


def markdown_series(result: SeriesResult, lang: Language) -> str:
    """The Markdown export of one series, in ``lang``."""
    return markdown_export(result, lang=lang)


def markdown_export(
    result: SeriesResult, source: str | None = None, lang: Language | None = None
) -> str:
    """The series as Markdown in ``lang`` (English when None): heading, how it is won and
    where it stands, the standings and the games; ``source`` (the series file) is named in
    the heading."""
    from sheetgen.game.scoring import game_of
    from sheetgen.game.wording import series_name
    from sheetgen.series.csvfile import game_rows, heading_row

    lang = lang or english()
    series = result.series
    heading = _cell(series.title or series_name(game_of(series), lang))
    lines = [f"# {heading} ({_cell(source)})" if source else f"# {heading}", ""]
    sentences = [
        outcome_sentence(result, lang),
        played_sentence(result, lang),
        status_sentence(result, lang, shown=lambda name: f"**{_cell(name)}**"),
    ]
    lines += [" ".join(sentence for sentence in sentences if sentence), ""]
    lines += ["## " + say(lang, "Standings"), ""]
    lines += _table(standings_rows(result, lang), lang.number)
    if result.games:
        stock = lang.words(game_of(series)).stock
        lines += ["", "## " + say(lang, "Games"), ""]
        lines.append(
            say(
                lang,
                "Under each player's name is the number of cards left in their {stock} after "
                "the game; the total columns show the running totals after it.",
                stock=stock,
            )
        )
        lines.append("")
        header = heading_row(series, lang.code, "xlsx")
        lines += _table([header, *game_rows(result)], lang.number)
    return "\n".join(lines) + "\n"


def markdown_season(results: Sequence[SeriesResult], lang: Language | None = None) -> str:
    """The season in Markdown, in ``lang`` (English when None): what it holds, then the
    players' table and the teams' (if a series had teams)."""
    lang = lang or english()
    lines = ["# " + say(lang, "Season"), "", " ".join(season_intro(results, lang))]
    for title, rows in season_tables(results, lang):
        lines += ["", "## " + title, "", *_table(rows, lang.number)]
    return "\n".join(lines) + "\n"


def markdown_season_export(named: Sequence[tuple[Path, SeriesResult]], lang: Language) -> str:
    """Several series as Markdown in ``lang``: the season's tables, then every series under
    a heading naming its file."""
    parts = [markdown_season([result for _, result in named], lang)]
    for path, result in named:  # each series' headings one level below the season's
        lines = markdown_export(result, str(path), lang).split("\n")
        parts.append("\n".join("#" + line if line.startswith("#") else line for line in lines))
    return "\n".join(parts)
