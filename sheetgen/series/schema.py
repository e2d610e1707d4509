"""The one schema of a series file: every format's reader hands its plain data here, so a
wrong-typed field gets the same one-line message (file, game, field) in YAML, JSON or CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sheetgen.errors import RuleError, SeriesFileError, SheetgenError
from sheetgen.game.definition import DEFAULT_GAME, GameDef, load_game
from sheetgen.game.names import check_title, normal
from sheetgen.game.scoring import (
    Game,
    Series,
    SeriesResult,
    check_game_count,
    score_series,
)
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import make_table
from sheetgen.numbers import whole_number

SERIES_KEYS = (
    "game",
    "title",
    "scoring",
    "target",
    "games_to_play",
    "stock",
    "bonus",
    "per_card",
    "players",
    "teams",
    "games",
)
# A series file's scoring keys and the ScoringRules figures they set.
SCORING_FIELDS = {
    "scoring": "way",
    "target": "target",
    "games_to_play": "games_to_play",
    "bonus": "bonus",
    "per_card": "per_card",
}
GAME_KEYS = ("winner", "left")
# Spreadsheets save UTF-8 with a byte-order mark; every format reads past it.
BOM = "\ufeff"


def too_deep(path: Path) -> SeriesFileError:
    return SeriesFileError(
        file=path, problem="lists or mappings are nested too deeply for a series file"
    )


def scored(data: Any, path: Path) -> SeriesResult:
    """The checked series ``data`` holds, scored (scoring is the last of its checks)."""
    if not isinstance(data, dict):
        raise SeriesFileError("the file must hold a mapping with players and games", file=path)
    try:
        _no_unknown_keys(data, SERIES_KEYS, "a series")
        game = _game(data.get("game"))
        players = data.get("players")
        if not isinstance(players, list):
            raise RuleError("give the list of players, for example [Ann, Bob, Cy]", field="players")
        table = make_table(
            players,
            stock=_optional_whole(data.get("stock"), "stock"),
            teams=_teams(data.get("teams")),
            game=game,
        )
        rules = _scoring(data, game)
        title = data.get("title")
        if title is not None and title != "":
            title = check_title(title, "title")
        games = _games(data.get("games"))
        series = Series(
            table=table,
            games=games,
            scoring=rules,
            title=title or None,
            game=game.id,
            definition=game,
        )
        return score_series(series)
    except SheetgenError as exc:
        raise SeriesFileError(exc.problem, file=path, game=exc.game, field=exc.field) from None


def _game(value: Any) -> GameDef:
    if value is None:
        return load_game(DEFAULT_GAME)
    if not isinstance(value, str):
        raise RuleError(f"{value!r} is not the name of a game", field="game")
    return load_game(value)


def _scoring(data: Mapping[str, Any], game: GameDef) -> ScoringRules:
    """The game's scoring with the figures the file sets, checked by the scoring module."""
    figures = {figure: data.get(key) for key, figure in SCORING_FIELDS.items()}
    try:
        return ScoringRules.from_mapping(figures, game.scoring)
    except RuleError as exc:
        key = next((k for k, figure in SCORING_FIELDS.items() if figure == exc.field), None)
        raise exc.at(field=key) from None


def _no_unknown_keys(data: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    for key in data:
        if key not in known:
            raise RuleError(f"unknown key {key!r}; {what} has the keys {', '.join(known)}")


def _teams(value: Any) -> dict[str, list[Any]] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(m, list) for m in value.values()):
        raise RuleError("give each team's two partners, for example Red: [Ann, Cy]", field="teams")
    return value


def _optional_whole(value: Any, field: str) -> int | None:
    return None if value is None else whole_number(value, field)


def _games(value: Any) -> tuple[Game, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list):
        raise RuleError("give a list of games, each with winner and left", field="games")
    check_game_count(len(value))
    games = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise RuleError("a game has the keys winner and left", game=number)
        try:
            _no_unknown_keys(item, GAME_KEYS, "a game")
        except RuleError as exc:
            raise exc.at(game=number) from None
        winner = item.get("winner")
        if not isinstance(winner, str) or not winner:
            raise RuleError("name the player or team who went out", game=number, field="winner")
        left = item.get("left") or {}
        if not isinstance(left, dict):
            raise RuleError(
                "give the cards left per player, for example {Bob: 7, Cy: 12}",
                game=number,
                field="left",
            )
        try:
            counts = {
                str(name): whole_number(count, f"left {name}") for name, count in left.items()
            }
        except RuleError as exc:
            raise exc.at(game=number) from None
        games.append(Game(winner=normal(winner), left={normal(n): c for n, c in counts.items()}))
    return tuple(games)


def new_head(series: Series) -> dict[str, Any]:
    """What a new file says before its players: the game, title and how it scores."""
    rules = series.scoring
    head: dict[str, Any] = {}
    if series.game != DEFAULT_GAME:
        head["game"] = series.game
    if series.title:
        head["title"] = series.title
    if rules.cards_left:
        head.update({"scoring": rules.way, "games_to_play": rules.games_to_play})
    else:
        head["target"] = rules.target
    head["stock"] = series.table.stock
    return head
