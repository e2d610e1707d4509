"""The Markdown export of a scored series (the standings and every game, as two tables)
and of a season (its table, then every series)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sheetgen.series.season import SeasonRow, season_rows

if TYPE_CHECKING:
    from sheetgen.game.language import Language
    from sheetgen.game.scoring import SeriesResult

MARKUP = frozenset("\\`*_[]<>|~#")


def _cell(text: object) -> str:
    """Names as plain text in Markdown: markup characters escaped, one line."""
    flat = " ".join(str(text).split())
    return "".join("\\" + char if char in MARKUP else char for char in flat)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


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
    """The series as Markdown in ``lang`` (English when None): heading, outcome, standings
    table and game-by-game table; ``source`` (the series file) is named in the heading."""
    from sheetgen.game.scoring import game_of
    from sheetgen.game.wording import outcome, series_name

    lang = lang or english()
    _, number = lang._, lang.number

    series = result.series
    table = series.table
    rules = series.scoring
    label = {side: table.side_label(side) for side in table.sides}
    heading = _cell(series.title or series_name(game_of(series), lang))
    lines = [f"# {heading} ({_cell(source)})" if source else f"# {heading}", ""]
    played = len(result.games)
    games = lang.ngettext("{count} game played", "{count} games played", played).format(
        count=played
    )
    way = outcome(rules, lang)
    lines.append(f"{way[0].upper()}{way[1:]}; {games}.")
    if result.winner is not None:
        said = _("**{winner}** won the series in game {game}.").format(
            winner=_cell(label[result.winner]), game=result.won_in_game
        )
    elif result.leader is not None:
        said = _("No winner yet; **{leader}** leads.").format(leader=_cell(label[result.leader]))
    else:
        said = _("No winner yet; nobody leads.")
    lines += [said, "", "## " + _("Standings"), ""]
    if rules.cards_left:
        lines.append(_row([_("Side"), _("Cards left"), _("Games won"), _("Games to play")]))
    else:
        still = _("Still needed to {target}").format(target=number(rules.target))
        lines.append(_row([_("Side"), _("Total"), _("Games won"), still]))
    lines.append("| --- | ---: | ---: | ---: |")
    for row in result.standings:
        lines.append(
            _row(
                [
                    _cell(label[row.side]),
                    *(number(n) for n in (row.total, row.games_won, row.needed)),
                ]
            )
        )
    lines += ["", "## " + _("Games"), ""]
    scored = _("Cards left") if rules.cards_left else _("Points")
    lines.append(_row([_("Game"), _("Winner"), scored, *(_cell(side) for side in table.sides)]))
    lines.append("| ---: | --- | ---: |" + " ---: |" * len(table.sides))
    for game in result.games:
        totals = [number(game.totals[side]) for side in table.sides]
        points = sum(game.scores.values()) if rules.cards_left else game.points
        lines.append(_row([str(game.number), _cell(game.winner), number(points), *totals]))
    if not result.games:
        lines.append(_row(["", _("no games recorded"), "", *([""] * len(table.sides))]))
    return "\n".join(lines) + "\n"


def markdown_season(rows: Sequence[SeasonRow], lang: Language | None = None) -> str:
    """The season table in Markdown, in ``lang`` (English when None): every side's series,
    games and points added up."""
    lang = lang or english()
    _ = lang._
    lines = ["# " + _("Season"), ""]
    heads = [_("Side"), _("Series"), _("Series won"), _("Games"), _("Games won"), _("Points")]
    lines.append(_row(heads))
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        numbers = (row.series, row.series_won, row.games, row.games_won, row.points)
        lines.append(_row([_cell(row.side), *(lang.number(n) for n in numbers)]))
    return "\n".join(lines) + "\n"


def markdown_season_export(named: Sequence[tuple[Path, SeriesResult]], lang: Language) -> str:
    """Several series as Markdown in ``lang``: the season table, then every series under a
    heading naming its file."""
    parts = [markdown_season(season_rows([result for _, result in named]), lang)]
    for path, result in named:  # each series' headings one level below the season's
        lines = markdown_export(result, str(path), lang).split("\n")
        parts.append("\n".join("#" + line if line.startswith("#") else line for line in lines))
    return "\n".join(parts)
