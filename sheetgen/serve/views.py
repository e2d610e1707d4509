"""What the pages and the HTTP interface show of a series, as plain data, and what a
recorded game is read from: a form's fields or a JSON object.

A game reaches the file only through the same checks as ``sheetgen record``; a game
shown before saving is scored by the same module (``sheetgen.game.scoring``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sheetgen.errors import RuleError
from sheetgen.game.language import Language, language, languages
from sheetgen.game.scoring import Game, GameResult, Series, SeriesResult, game_of, score_series
from sheetgen.series.export import json_data
from sheetgen.series.record import settled_game
from sheetgen.serve.state import Snapshot

MAX_COUNT_DIGITS = 4  # more digits than any stock pile holds is refused before int()


def chosen_language(asked: str | None, accept: str | None, fixed: str | None) -> Language:
    """The page's language: the server's ``--lang``, else the one the browser chose on the
    page (``asked``), else the first of its Accept-Language that sheetgen writes."""
    known = languages()
    if fixed:
        return language(fixed)
    if asked in known:
        return language(asked)
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in known:
            return language(code)
    return language("en")


def _count(text: str, player: str) -> int:
    value = text.strip()
    if not value:
        raise RuleError(f"no count for {player}", field="left")
    if not value.isdigit() or len(value) > MAX_COUNT_DIGITS:
        raise RuleError(f"{value[:20]!r} is not a whole number of cards", field=f"left {player}")
    return int(value)


def game_from_form(series: Series, form: Mapping[str, str]) -> Game:
    """The game a form records: ``winner`` names a side, ``left-N`` the cards left in the
    stock pile of the Nth player (counted from 0, in seating order). A winner's own pile
    may be left empty or given as 0."""
    table = series.table
    winner = form.get("winner", "").strip()
    if not winner:
        raise RuleError("choose who went out", field="winner")
    winners = table.members(winner) if winner in table.sides else ()
    left: dict[str, int] = {}
    for index, player in enumerate(table.players):
        if player in winners:
            continue  # a winner's pile is empty, whatever a greyed-out field still held
        left[player] = _count(form.get(f"left-{index}", ""), player)
    return Game(winner, left)


def form_problem(series: Series, form: Mapping[str, str], lang: Language) -> str | None:
    """What is wrong with a game as a player entered it, in the page's language and the
    words of the table (None if nothing is): the page says this before the checks of
    ``sheetgen record``, which stay behind it for anything else."""
    _ = lang._
    table = series.table
    winner = form.get("winner", "").strip()
    if winner not in table.sides:
        return _("Choose who won the game.")
    winners = table.members(winner)
    counts: dict[str, int] = {}
    for index, player in enumerate(table.players):
        text = form.get(f"left-{index}", "").strip()
        if player in winners:
            if text not in ("", "0"):
                return _(
                    "{name} won, but has {count} cards written down: check who won, or "
                    "clear {name}’s cards."
                ).format(name=player, count=text[:6])
            continue
        if not text:
            return _("Enter how many cards {name} has left.").format(name=player)
        if not text.isdigit() or len(text) > MAX_COUNT_DIGITS:
            return _("Enter the cards {name} has left: a number from 0 to {stock}.").format(
                name=player, stock=table.stock
            )
        counts[player] = int(text)
        if counts[player] > table.stock:
            return _("{name} cannot have {count} cards left: a pile holds {stock}.").format(
                name=player, count=counts[player], stock=table.stock
            )
    for side in table.sides:
        if side != winner and all(counts.get(name) == 0 for name in table.members(side)):
            return _(
                "Only the winner’s pile is empty at the end of a game: {name} must have cards left."
            ).format(name=table.side_label(side))
    return None


def form_of(series: Series, data: Mapping[str, Any]) -> dict[str, str]:
    """A JSON game (``{"winner": ..., "left": {NAME: COUNT}}``) as the form's fields, so that
    the page's own checks speak of it as of a game typed into the form."""
    table = series.table
    left = data.get("left")
    counts = left if isinstance(left, dict) else {}
    values = {"winner": str(data.get("winner", ""))[:200]}
    for index, name in enumerate(table.players):
        if name in counts:
            values[f"left-{index}"] = str(counts[name])[:20]
    return values


def game_from_json(series: Series, data: object) -> tuple[Game, int, int | None]:
    """The game, ``expected_games`` and ``replace`` (a game's number, or None) of a JSON
    request: ``{"winner": "Ann", "left": {"Bob": 7}, "expected_games": 3}``."""
    if not isinstance(data, dict):
        raise RuleError("the request must be a JSON object", field="body")
    winner = data.get("winner")
    if not isinstance(winner, str) or not winner.strip():
        raise RuleError("give the side that went out as text", field="winner")
    left = data.get("left", {})
    if not isinstance(left, dict) or not all(isinstance(name, str) for name in left):
        raise RuleError('give the cards left as {"NAME": COUNT, ...}', field="left")
    for name, count in left.items():
        if isinstance(count, bool) or not isinstance(count, int):
            raise RuleError(f"{str(count)[:20]!r} is not a whole number", field=f"left {name}")
    return Game(winner.strip(), left), expected_games(data), _replace_number(data)


def expected_games(data: Mapping[str, Any]) -> int:
    value = data.get("expected_games")
    if isinstance(value, str) and value.isdigit() and len(value) <= 6:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(
            "give the number of games the page last saw, a whole number", field="expected_games"
        )
    return value


def _replace_number(data: Mapping[str, Any]) -> int | None:
    value = data.get("replace")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleError("give the number of the game to replace, from 1", field="replace")
    return value


def scored_game(series: Series, game: Game, number: int | None = None) -> GameResult:
    """How ``game`` would score as game ``number`` (a new last game when None), checked
    against the whole series as recording it would be; nothing is written."""
    settled = settled_game(series, game)
    games = list(series.games)
    if number is None:
        games.append(settled)
        number = len(games)
    elif 1 <= number <= len(games):
        games[number - 1] = settled
    else:
        raise RuleError(f"there is no game {number}", field="replace")
    return score_series(replace(series, games=tuple(games))).games[number - 1]


def series_json(snapshot: Snapshot) -> dict[str, Any]:
    """The HTTP interface's view of the series: everything the JSON export holds, the
    players and teams, the standings, and the state a change must be made against."""
    result = snapshot.result
    table = result.series.table
    return {
        **json_data(result),
        "players": list(table.players),
        "teams": [{"name": team.name, "members": list(team.members)} for team in table.teams],
        "standings": [row._asdict() for row in result.standings],
        "leader": result.leader,
        "finished": result.finished,
        "expected_games": snapshot.played,
        "revision": snapshot.revision,
        "problem": snapshot.problem,
    }


def game_words(result: SeriesResult, lang: Language) -> dict[str, str]:
    """The game's own words the page uses, in ``lang``."""
    game = game_of(result.series)
    words = lang.words(game)
    return {"name": words.name, "stock": words.stock, "stocks": words.stocks}
