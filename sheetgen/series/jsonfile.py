"""JSON series files: read with every key given once, written and edited the way the file
is already written (indentation, line endings, escapes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sheetgen.errors import SeriesFileError
from sheetgen.game.scoring import Game, Series
from sheetgen.series.schema import BOM, new_head, too_deep


def read(text: str, path: Path) -> Any:
    """A JSON series file's text as plain data, not yet checked; a key given twice is refused."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise SeriesFileError(file=path, problem=f"{key!r} is given twice")
            result[key] = value
        return result

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise SeriesFileError(
            file=path, problem=f"line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    except RecursionError:
        raise too_deep(path) from None
    except ValueError:  # Python refuses to read an integer of thousands of digits
        raise SeriesFileError(file=path, problem="a number in the file is far too long") from None


def new_text(series: Series) -> str:
    """The text of a new JSON series file holding ``series`` (no games yet)."""
    table = series.table
    data: dict[str, Any] = {**new_head(series), "players": list(table.players)}
    if table.teams:
        data["teams"] = {team.name: list(team.members) for team in table.teams}
    data["games"] = []
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def append_game(text: str, game: Game) -> str:
    """The text with ``game`` added at the end of its games."""
    data = json.loads(text.removeprefix(BOM))
    data.setdefault("games", [])
    if data["games"] is None:
        data["games"] = []
    data["games"].append({"winner": game.winner, "left": dict(game.left)})
    return json_like(data, text)


def rewrite_game(text: str, game: Game | None, index: int) -> str:
    """The text with game ``index`` (from 0) replaced by ``game``, or removed when None."""
    data = json.loads(text.removeprefix(BOM))
    games = data["games"]
    if game is None:
        del games[index]
    else:
        games[index] = {"winner": game.winner, "left": dict(game.left)}
    return json_like(data, text)


def json_like(data: Any, text: str) -> str:
    """``data`` as JSON written the way ``text`` is: its byte-order mark, indentation (spaces,
    tabs or one line), line endings and, for a file of plain ASCII, its \\u escapes."""
    body = text.removeprefix(BOM)
    match = re.search(r"\n([ \t]+)\"", body)
    indent: int | str | None = None
    if match:
        indent = match.group(1) if "\t" in match.group(1) else len(match.group(1))
    elif "\n" in body.strip():
        indent = 2
    compact = "," in body and ", " not in body and ": " not in body
    out = json.dumps(
        data,
        indent=indent,
        ensure_ascii=body.isascii(),
        separators=(",", ":") if compact and indent is None else None,
    )
    newline = "\r\n" if "\r\n" in body else "\n"
    ending = newline if body.endswith("\n") or indent is not None else ""
    # json.dumps escapes line breaks inside strings, so every newline here is layout.
    return text[: len(text) - len(body)] + out.replace("\n", newline) + ending
