"""The words and sentences of the series exports (Markdown and workbooks), in English and
German: table headings, how a series is won, how far it has come, and the season's
tables. Every sentence is whole in each language, each case written out: a count of one
has its own sentence, and German counts after "mit" take the dative.

The German of the exports is kept here, beside the English, by its English text; the
other documents' short strings are the gettext catalogue's (``sheetgen/locale``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sheetgen.series.season import SeasonRow, player_rows, scored_ways, team_rows

if TYPE_CHECKING:
    from sheetgen.game.language import Language
    from sheetgen.game.scoring import SeriesResult

GERMAN = {
    # Headings of tables and sheets.
    "Games": "Spiele",
    "Standings": "Tabelle",
    "Season": "Saison",
    "Players": "Spieler",
    "Teams": "Teams",
    "Player": "Spieler",
    "Team": "Team",
    "Partners": "Partner",
    "Total": "Summe",
    "Cards left": "Restkarten",
    "Games won": "Siege",
    "Games to play": "Noch zu spielen",
    "Still needed to {target}": "Fehlt bis {target}",
    "Series": "Serien",
    "Series won": "Serien gewonnen",
    "Points": "Punkte",
    # How a series is won.
    "The first player to reach {target} points wins the series.": (
        "Wer zuerst {target} Punkte erreicht, gewinnt die Serie."
    ),
    "The first team to reach {target} points wins the series.": (
        "Das Team, das zuerst {target} Punkte erreicht, gewinnt die Serie."
    ),
    "After {count} games, the player with the fewest cards left in all wins the series.": (
        "Nach {count} Spielen gewinnt, wer insgesamt die wenigsten Restkarten hat."
    ),
    "After {count} games, the team with the fewest cards left in all wins the series.": (
        "Nach {count} Spielen gewinnt das Team mit den wenigsten Restkarten."
    ),
    "After one game, the player with the fewest cards left wins the series.": (
        "Nach einem Spiel gewinnt, wer die wenigsten Restkarten hat."
    ),
    "After one game, the team with the fewest cards left wins the series.": (
        "Nach einem Spiel gewinnt das Team mit den wenigsten Restkarten."
    ),
    # How far it has come.
    "No games have been played yet.": "Es wurde noch kein Spiel gespielt.",
    "So far, one game has been played.": "Bisher wurde ein Spiel gespielt.",
    "So far, {count} games have been played.": "Bisher wurden {count} Spiele gespielt.",
    "{winner} won the series in game {game}.": "{winner} hat die Serie im {game}. Spiel gewonnen.",
    "{leader} leads and needs {count} more points.": (
        "{leader} führt und braucht noch {count} Punkte."
    ),
    "{leader} leads and needs one more point.": "{leader} führt und braucht noch einen Punkt.",
    "{leader} leads with {count} games to play.": "{leader} führt; {count} Spiele stehen noch aus.",
    "{leader} leads with one game to play.": "{leader} führt; ein Spiel steht noch aus.",
    "{leader} leads after the last game.": "{leader} führt nach dem letzten Spiel.",
    "{names} are level on {total} points.": "{names} liegen mit {total} Punkten gleichauf.",
    "{names} are level on {total} cards left, with {count} games to play.": (
        "{names} liegen mit {total} Restkarten gleichauf; {count} Spiele stehen noch aus."
    ),
    "{names} are level on {total} cards left, with one game to play.": (
        "{names} liegen mit {total} Restkarten gleichauf; ein Spiel steht noch aus."
    ),
    "The series ended in a tie: {names} have the fewest cards left, {total} each.": (
        "Die Serie endet unentschieden: {names} haben mit je {total} Restkarten die wenigsten."
    ),
    "and": "und",
    # The games table.
    "Under each player's name is the number of cards left in their {stock} after the game; "
    "the total columns show the running totals after it.": (
        "Unter jedem Spielernamen steht, wie viele Karten nach dem Spiel noch im {stock} "
        "lagen; die Summenspalten zeigen den Spielstand nach dem Spiel."
    ),
    # The season.
    "The season has {series} and {games}.": "Die Saison umfasst {series} mit {games}.",
    "one series": "eine Serie",
    "{count} series": "{count} Serien",
    "no games yet": "noch keinem Spiel",
    "one game": "einem Spiel",
    "{count} games": "insgesamt {count} Spielen",
    "A team's results count for each of its two partners.": (
        "Die Ergebnisse eines Teams zählen für jeden seiner beiden Partner."
    ),
    "A team's series, games won, points and cards left count for each of its two partners.": (
        "Serien, Siege, Punkte und Restkarten eines Teams zählen für jeden seiner beiden Partner."
    ),
    "Points come from the series scored by points, cards left from the series scored by "
    "cards left.": (
        "Die Punkte stammen aus den Serien mit Punktwertung, die Restkarten aus den Serien, "
        "die nach Restkarten gewertet werden."
    ),
}


def say(lang: Language, text: str, **fields: Any) -> str:
    """``text`` (English) in ``lang``, its fields filled in."""
    said = GERMAN.get(text, text) if lang.code == "de" else text
    return said.format(**fields) if fields else said


def listing(lang: Language, names: Sequence[str]) -> str:
    """Names as a sentence lists them: ``Ann, Bob and Cy``."""
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} {say(lang, 'and')} {names[-1]}"


def outcome_sentence(result: SeriesResult, lang: Language) -> str:
    """How the series is won, as a sentence."""
    rules = result.series.scoring
    side = "team" if result.series.table.partnership else "player"
    if not rules.cards_left:
        text = f"The first {side} to reach {{target}} points wins the series."
        return say(lang, text, target=lang.number(rules.target))
    if rules.games_to_play == 1:
        return say(lang, f"After one game, the {side} with the fewest cards left wins the series.")
    text = f"After {{count}} games, the {side} with the fewest cards left in all wins the series."
    return say(lang, text, count=lang.number(rules.games_to_play))


def played_sentence(result: SeriesResult, lang: Language) -> str:
    played = len(result.games)
    if played == 0:
        return say(lang, "No games have been played yet.")
    if played == 1:
        return say(lang, "So far, one game has been played.")
    return say(lang, "So far, {count} games have been played.", count=lang.number(played))


def status_sentence(result: SeriesResult, lang: Language, shown: Callable[[str], str] = str) -> str:
    """Who won, who leads or who is level, as a sentence ("" before any game); ``shown``
    makes a side's name what the document shows (in bold, say)."""
    table = result.series.table
    rules = result.series.scoring

    def named(side: str) -> str:
        return shown(table.side_label(side))

    if not result.games:
        return ""
    if result.winner is not None:
        return say(
            lang,
            "{winner} won the series in game {game}.",
            winner=named(result.winner),
            game=result.won_in_game,
        )
    standings = result.standings
    best = standings[0].total
    level = [row.side for row in standings if row.total == best]
    if rules.cards_left:
        return _cards_left_status(result, lang, [named(side) for side in level], best)
    if len(level) > 1 or best == 0:
        names = listing(lang, [named(side) for side in level])
        return say(
            lang, "{names} are level on {total} points.", names=names, total=lang.number(best)
        )
    needed = standings[0].needed
    if needed == 1:
        return say(lang, "{leader} leads and needs one more point.", leader=named(level[0]))
    text = "{leader} leads and needs {count} more points."
    return say(lang, text, leader=named(level[0]), count=lang.number(needed))


def _cards_left_status(result: SeriesResult, lang: Language, level: list[str], best: int) -> str:
    left = result.games_left
    total = lang.number(best)
    if len(level) > 1 and result.finished:
        text = "The series ended in a tie: {names} have the fewest cards left, {total} each."
        return say(lang, text, names=listing(lang, level), total=total)
    if len(level) > 1:
        text = "{names} are level on {total} cards left, with {count} games to play."
        if left == 1:
            text = "{names} are level on {total} cards left, with one game to play."
        return say(lang, text, names=listing(lang, level), total=total, count=lang.number(left))
    if left == 0:
        return say(lang, "{leader} leads after the last game.", leader=level[0])
    if left == 1:
        return say(lang, "{leader} leads with one game to play.", leader=level[0])
    text = "{leader} leads with {count} games to play."
    return say(lang, text, leader=level[0], count=lang.number(left))


def standings_rows(result: SeriesResult, lang: Language) -> list[list[str | int | None]]:
    """The standings as a table: a heading row, then each side from the best down."""
    table = result.series.table
    rules = result.series.scoring
    first = (
        [say(lang, "Team"), say(lang, "Partners")] if table.partnership else [say(lang, "Player")]
    )
    if rules.cards_left:
        heads = [say(lang, "Cards left"), say(lang, "Games won"), say(lang, "Games to play")]
    else:
        target = lang.number(rules.target)
        heads = [
            say(lang, "Total"),
            say(lang, "Games won"),
            say(lang, "Still needed to {target}", target=target),
        ]
    rows: list[list[str | int | None]] = [[*first, *heads]]
    for row in result.standings:
        name: list[str | int | None] = [row.side]
        if table.partnership:
            name.append(" + ".join(table.members(row.side)))
        rows.append([*name, row.total, row.games_won, row.needed])
    return rows


def season_intro(results: Sequence[SeriesResult], lang: Language) -> list[str]:
    """The sentences above a season's tables: its size, and how its tables count."""
    played = sum(len(result.games) for result in results)
    series = (
        say(lang, "one series")
        if len(results) == 1
        else say(lang, "{count} series", count=lang.number(len(results)))
    )
    if played == 0:
        games = say(lang, "no games yet")
    elif played == 1:
        games = say(lang, "one game")
    else:
        games = say(lang, "{count} games", count=lang.number(played))
    sentences = [say(lang, "The season has {series} and {games}.", series=series, games=games)]
    if any(result.series.table.partnership for result in results):
        sentences.append(say(lang, "A team's results count for each of its two partners."))
    if all(scored_ways(results)):
        sentences.append(
            say(
                lang,
                "Points come from the series scored by points, cards left from the series "
                "scored by cards left.",
            )
        )
    return sentences


def season_table(
    rows: Sequence[SeasonRow], results: Sequence[SeriesResult], lang: Language, teams: bool
) -> list[list[str | int | None]]:
    """A season's table of players or of teams: a heading row, then a row each."""
    points, cards = scored_ways(results)
    first = [say(lang, "Team"), say(lang, "Partners")] if teams else [say(lang, "Player")]
    heads = [
        say(lang, "Series"),
        say(lang, "Series won"),
        say(lang, "Games"),
        say(lang, "Games won"),
    ]
    heads += [say(lang, "Points")] * points + [say(lang, "Cards left")] * cards
    out: list[list[str | int | None]] = [[*first, *heads]]
    for row in rows:
        name: list[str | int | None] = [row.name, " + ".join(row.members)] if teams else [row.name]
        figures: list[str | int | None] = [row.series, row.series_won, row.games, row.games_won]
        figures += [row.points] * points + [row.cards_left] * cards
        out.append([*name, *figures])
    return out


def season_tables(
    results: Sequence[SeriesResult], lang: Language
) -> list[tuple[str, list[list[str | int | None]]]]:
    """The players' table and (if a series had teams) the teams', each with its title."""
    tables = [(say(lang, "Players"), season_table(player_rows(results), results, lang, False))]
    teams = team_rows(results)
    if teams:
        tables.append((say(lang, "Teams"), season_table(teams, results, lang, True)))
    return tables
