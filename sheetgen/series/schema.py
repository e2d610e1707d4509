"""The one schema of a series file: every format's reader (YAML, JSON, CSV, a workbook's
games sheet) hands its plain data here, and every field is checked against one table of
types (``FIELDS``, ``GAME_FIELDS``) before anything uses it, then against the rules of the
game; a wrong field gets the same one-line message (file, game, field, what was expected)
whatever the format."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

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


class Field(NamedTuple):
    """One field of a series file: whether a value is of its type, and what the message
    says when it is not (the value given fills ``{value}``)."""

    fits: Callable[[Any], bool]
    expected: str


def _whole(value: Any) -> bool:
    """A whole number, or text (whose digits ``whole_number`` then reads)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _teams_type(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(m, list) for m in value.values())


NUMBER = "{value!r} is not a whole number"
# Every field of every format, each checked here before anything uses it: a YAML, JSON,
# CSV or workbook series that gives a field of the wrong type is refused by this table,
# with the file, the field and what it should hold in one line.
FIELDS = {
    "game": Field(lambda v: isinstance(v, str), "{value!r} is not the name of a game"),
    "title": Field(lambda v: isinstance(v, str), "{value!r} is not text"),
    "scoring": Field(
        lambda v: isinstance(v, str), "{value!r} is not a way of scoring; give winner or cards-left"
    ),
    "target": Field(_whole, NUMBER),
    "games_to_play": Field(_whole, NUMBER),
    "stock": Field(_whole, NUMBER),
    "bonus": Field(_whole, NUMBER),
    "per_card": Field(_whole, NUMBER),
    "players": Field(
        lambda v: isinstance(v, list), "give the list of players, for example [Ann, Bob, Cy]"
    ),
    "teams": Field(_teams_type, "give each team's two partners, for example Red: [Ann, Cy]"),
    "games": Field(
        lambda v: isinstance(v, list), "give a list of games, each with winner and left"
    ),
}
GAME_FIELDS = {
    "winner": Field(
        lambda v: isinstance(v, str) and bool(v), "name the player or team who went out"
    ),
    "left": Field(
        lambda v: isinstance(v, dict),
        "give the cards left per player, for example {{Bob: 7, Cy: 12}}",
    ),
}


def _typed(data: Mapping[str, Any], fields: Mapping[str, Field], required: Sequence[str]) -> None:
    """Refuse a field of the wrong type (a field left empty is not given)."""
    for key, field in fields.items():
        value = data.get(key)
        if (value is None and key not in required) or field.fits(value):
            continue
        raise RuleError(field.expected.format(value=value), field=key)


def scored(data: Any, path: Path) -> SeriesResult:
    """The checked series ``data`` holds, scored (scoring is the last of its checks)."""
    if not isinstance(data, dict):
        raise SeriesFileError("the file must hold a mapping with players and games", file=path)
    try:
        data = _as_written(data)
        _no_unknown_keys(data, SERIES_KEYS, "a series")
        _typed(data, FIELDS, ("players",))
        game = _game(data.get("game"))
        table = make_table(
            data["players"],
            stock=_optional_whole(data.get("stock"), "stock"),
            teams=data.get("teams"),
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


def _game(value: str | None) -> GameDef:
    return load_game(DEFAULT_GAME if value is None else value)


def _scoring(data: Mapping[str, Any], game: GameDef) -> ScoringRules:
    """The game's scoring with the figures the file sets, checked by the scoring module."""
    figures = {figure: data.get(key) for key, figure in SCORING_FIELDS.items()}
    try:
        return ScoringRules.from_mapping(figures, game.scoring)
    except RuleError as exc:
        key = next((k for k, figure in SCORING_FIELDS.items() if figure == exc.field), None)
        raise exc.at(field=key) from None


def _as_written(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with its keys as series files write them: ``per-card``, as options and
    house-rules files spell it, is ``per_card``; both in one file is refused."""
    found: dict[str, Any] = {}
    for key, value in data.items():
        written = key.replace("-", "_") if isinstance(key, str) else key
        name = written if written in SERIES_KEYS else key
        if name in found:
            raise RuleError("is given twice, spelt two ways", field=name)
        found[name] = value
    return found


def _no_unknown_keys(data: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    for key in data:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.8)
            guess = f"did you mean {near[0]!r}? " if near else ""
            raise RuleError(f"unknown key {key!r}; {guess}{what} has the keys {', '.join(known)}")


def _shown(name: str) -> str:
    """A name as a one-line message shows it: as it is, or quoted if it breaks the line."""
    return name if name.isprintable() else repr(name)


def _optional_whole(value: Any, field: str) -> int | None:
    return None if value is None else whole_number(value, field)


def _games(value: list[Any] | None) -> tuple[Game, ...]:
    if value is None:
        return ()
    check_game_count(len(value))
    games = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise RuleError("a game has the keys winner and left", game=number)
        try:
            _no_unknown_keys(item, GAME_KEYS, "a game")
            _typed(item, GAME_FIELDS, ("winner",))
        except RuleError as exc:
            raise exc.at(game=number) from None
        left = item.get("left") or {}
        try:
            counts = {
                str(name): whole_number(count, f"left {_shown(str(name))}")
                for name, count in left.items()
            }
        except RuleError as exc:
            raise exc.at(game=number) from None
        winner = normal(item["winner"])
        games.append(Game(winner=winner, left={normal(n): c for n, c in counts.items()}))
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
