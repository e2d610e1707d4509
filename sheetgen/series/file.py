"""Series files: the record of a table's games, in YAML, JSON or CSV.

Reading turns a file into a checked ``Series`` (every rule of the scoring
module applies); writing appends one game under a lock, by an atomic rename,
keeping every byte the user wrote. A player name is text whatever it looks
like: YAML is read from its parser's events, nothing typed, so ``No``, ``007``
or ``2024-05-01`` stay exactly those names.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import io
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from sheetgen import fonts
from sheetgen.atomic import (
    check_replaceable,
    create_bytes,
    hold_lock,
    sweep_stale_temporaries,
    write_bytes,
)
from sheetgen.errors import OutputError, RuleError, SeriesFileError, SheetgenError
from sheetgen.game.definition import DEFAULT_GAME, GameDef, game_of, load_game
from sheetgen.game.names import check_title, find_name, normal
from sheetgen.game.scoring import (
    Game,
    ScoringRules,
    Series,
    SeriesResult,
    check_game_count,
    score_series,
)
from sheetgen.game.seating import make_table
from sheetgen.limits import MAX_SERIES_BYTES, MAX_SERIES_DEPTH, MAX_SERIES_GAMES
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
_SCORING_FIELDS = {
    "scoring": "way",
    "target": "target",
    "games_to_play": "games_to_play",
    "bonus": "bonus",
    "per_card": "per_card",
}
GAME_KEYS = ("winner", "left")
BOM = "\ufeff"
FORMATS = {".yaml": "yaml", ".yml": "yaml", ".json": "json", ".csv": "csv"}
LOCK_TIMEOUT = 30.0
# The tags a value may carry: none, YAML's "!" (none either) or the one it has anyway.
# Every other tag (!!binary, !!float, !foo) would change or drop what the value says.
_YAML_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset({None, "!", _YAML_TAG + "str"})
_SEQUENCE_TAGS = frozenset({None, "!", _YAML_TAG + "seq"})
_MAPPING_TAGS = frozenset({None, "!", _YAML_TAG + "map"})
_YAML11_WORDS = re.compile(r"(?i)y|n|yes|no|on|off|true|false|null|~")
# Characters YAML cannot hold as they are (its "printable" set, inverted).
_YAML_UNPRINTABLE = re.compile(
    "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_PLAIN_SAFE = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#,\[\]{}\n]*")


def series_format(path: Path) -> str:
    """The format of a series file, by its suffix."""
    try:
        return FORMATS[path.suffix.lower()]
    except KeyError:
        raise SeriesFileError(
            file=path,
            problem=f"a series file ends in .yaml, .yml, .json or .csv, "
            f"not {path.suffix or '(no suffix)'!r}",
        ) from None


def series_paths(inputs: Iterable[Path]) -> list[Path]:
    """The series files named, with every series file of a named folder (sorted by name)."""
    paths: list[Path] = []
    for item in inputs:
        if item.is_dir():
            # Hidden names are editors' lock and backup files (.#friday.yaml), not series.
            found = sorted(
                p
                for p in item.iterdir()
                if p.suffix.lower() in FORMATS and not p.name.startswith(".")
            )
            if not found:
                raise SeriesFileError(
                    f"{item}: the folder holds no series files (.yaml, .yml, .json or .csv)"
                )
            paths.extend(found)
        else:
            paths.append(item)
    return paths


class SeriesFiles(NamedTuple):
    """The series files a command reads, each series once, and the files it left out."""

    paths: list[Path]
    left_out: list[tuple[Path, str]]

    @property
    def read(self) -> list[Path]:
        """Every file named or found, left out or not: none may be written over."""
        return [*self.paths, *(path for path, _ in self.left_out)]

    @property
    def notes(self) -> list[str]:
        """One line per file left out, saying why."""
        return [f"{path}: {why}" for path, why in self.left_out]


def distinct_series(inputs: Iterable[Path]) -> SeriesFiles:
    """The series files named or found in named folders, each series read once.

    A file named twice (``a.yaml ./a.yaml``, a folder and a file in it, two links to
    one file) is read once; a CSV export beside the series it was exported from (its
    games are that series' games, or the first of them) is left out, so a season
    counts those games once. Files that cannot be read are kept: reading them reports
    what is wrong.
    """
    paths: list[Path] = []
    left_out: list[tuple[Path, str]] = []
    seen: dict[tuple[int, int], Path] = {}
    for path in series_paths(inputs):
        try:
            info = path.stat()
        except OSError:
            paths.append(path)
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            same = "named twice" if seen[key] == path else f"the same file as {seen[key]}"
            left_out.append((path, f"{same}; read once"))
        else:
            seen[key] = path
            paths.append(path)
    exports = _exports_beside_their_series(paths)
    left_out += exports.items()
    return SeriesFiles([path for path in paths if path not in exports], left_out)


def _is_export(path: Path) -> bool:
    """Whether ``path`` is a CSV export (a series with points and totals columns)."""
    if series_format(path) != "csv":
        return False
    try:
        return _has_worked_columns(_read(path))
    except (csv.Error, SeriesFileError):
        return False


def _exports_beside_their_series(paths: list[Path]) -> dict[Path, str]:
    """Each CSV export whose series another file beside it (or of its name) holds, and why
    it is left out."""
    exports = [path for path in paths if _is_export(path)]
    left_out: dict[Path, str] = {}
    read: dict[Path, Series | None] = {}

    def series_of(path: Path) -> Series | None:
        if path not in read:
            try:
                read[path] = load_series(path)
            except SheetgenError:
                read[path] = None  # reported when the file is read for the command
        return read[path]

    for export in exports:
        exported = series_of(export)
        if exported is None:
            continue
        for other in paths:
            beside = other.parent == export.parent or other.stem == export.stem
            if other == export or other in left_out or not beside:
                continue
            if other in exports and paths.index(other) > paths.index(export):
                continue  # of two copies of one export, the first is kept
            series = series_of(other)
            if series is not None and _holds(series, exported):
                games, played = len(exported.games), len(series.games)
                first = "its games" if games == played else f"{games} of its {played} games"
                left_out[export] = f"an export of {other} ({first}); left out, so they count once"
                break
    return left_out


def _holds(series: Series, exported: Series) -> bool:
    """Whether ``exported`` is ``series`` as it stood after some of its games."""
    count = len(exported.games)
    return count <= len(series.games) and replace(series, games=series.games[:count]) == exported


def refuse_replacing_series(path: Path, text: str, exported: Series | None) -> None:
    """Refuse to write an export over a series file (one the reader takes as a series)
    unless nothing of it would be lost: the file already holds exactly ``text``, or it is
    a CSV series that ``exported`` holds game for game (an earlier CSV export of it, which
    ``text``, a CSV export that reads back as a series, replaces with all its games)."""
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(path.stat().st_mode) or path.read_bytes() == text.encode("utf-8"):
            return
    try:
        there = load_series(path)
    except SheetgenError:
        return  # not a series: the destination check decided whether it may be replaced
    if series_format(path) == "csv" and exported is not None and _holds(exported, there):
        return
    played = len(there.games)
    raise OutputError(
        f"holds a series with {played} recorded game{'' if played == 1 else 's'}; "
        "sheetgen will not replace it without --force",
        file=path,
    )


def load_series(path: Path) -> Series:
    """Read and check a series file."""
    return load_scored(path).series


def load_scored(path: Path) -> SeriesResult:
    """Read and check a series file; its result, from the scoring that checked it."""
    return _scored(_data(_read(path), path), path)


def parse_series(text: str, path: Path) -> Series:
    """Turn a series file's text into a checked Series; ``path`` names it in messages."""
    return _scored(_data(text, path), path).series


def _data(text: str, path: Path) -> Any:
    """A series file's text as plain data, not yet checked."""
    fmt = series_format(path)
    text = text.removeprefix(BOM)  # spreadsheets save UTF-8 with a byte-order mark
    if fmt == "csv":
        return _csv_data(text, path)
    if fmt == "json":
        return _json_data(text, path)
    return _yaml_data(text, path)


def _check_size(path: Path, size: int) -> None:
    if size > MAX_SERIES_BYTES:
        raise SeriesFileError(
            file=path,
            problem=f"is larger than {MAX_SERIES_BYTES // 2**20} MB, the most a series file "
            f"may hold (and a series holds at most {MAX_SERIES_GAMES:,} games)",
        )


def _read(path: Path) -> str:
    """A series file's text, read from the one descriptor it was opened on.

    What was opened is checked, not what the name pointed at a moment before: a FIFO or a
    device would block or never end (opened without waiting for a writer, it is refused),
    and no more than MAX_SERIES_BYTES is read whatever size the file claims (a file that
    grows while it is read, or one under /proc that says 0).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(fd, "rb") as handle:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise SeriesFileError(file=path, problem="is a folder, not a series file")
            if not stat.S_ISREG(info.st_mode):
                raise SeriesFileError(
                    file=path, problem="is not an ordinary file; give a series file"
                )
            _check_size(path, info.st_size)
            # Bytes, not text: line endings must come back exactly as they were.
            data = handle.read(MAX_SERIES_BYTES + 1)
    except FileNotFoundError:
        raise SeriesFileError(file=path, problem="no such series file") from None
    except OSError as exc:
        raise SeriesFileError(
            file=path, problem=f"cannot be read ({exc.strerror or exc})"
        ) from None
    _check_size(path, len(data))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SeriesFileError(file=path, problem=f"is not UTF-8 text (byte {exc.start})") from None


# Reading -----------------------------------------------------------------


def _yaml_data(text: str, path: Path) -> Any:
    """A YAML series file as plain data, made from the parser's events one at a time.

    No tree of nodes is built (a node and its two marks cost a hundred times the bytes it
    was read from), nothing recurses however deep the text nests, and no tag is resolved:
    every scalar is the text written. The parser is libyaml's where PyYAML has it, else
    PyYAML's own, which gives the same events.
    """
    import yaml

    # Many lists and mappings, none of them in a cycle: the garbage collector's passes over
    # them, as they are made, would cost more than making them.
    collecting = gc.isenabled()
    gc.disable()
    loader = None
    try:
        loader = (_text_loader() or yaml.BaseLoader)(text)
        return _YamlReader(path).read(loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if "nesting depth" in problem:
            # libyaml's own bound (a thousand levels), met while it looks ahead for a key.
            raise _too_deep(path) from None
        raise SeriesFileError(file=path, problem=f"{where}not valid YAML ({problem})") from None
    finally:
        if loader is not None:
            loader.dispose()
        if collecting:
            gc.enable()


def _text_loader() -> Any:
    """libyaml's base loader, or None where PyYAML was built without libyaml.

    Only its parser is used: a base loader says that nothing is resolved or constructed.
    """
    import yaml

    return getattr(yaml, "CBaseLoader", None)


# A mapping waiting for its next key (rather than for the value of the key it has).
_KEY = object()


class _YamlReader:
    """Parser events turned into plain data, refusing what no series file needs: an alias,
    a tag, a second document and lists or mappings nested deeper than MAX_SERIES_DEPTH."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Each list or mapping being read: its value so far, for a mapping the key whose
        # value comes next (or _KEY), and the event that started it.
        self.open: list[list[Any]] = []

    def read(self, loader: Any) -> Any:
        from yaml.events import (
            AliasEvent,
            DocumentStartEvent,
            MappingEndEvent,
            MappingStartEvent,
            ScalarEvent,
            SequenceEndEvent,
            SequenceStartEvent,
        )

        path, open_ = self.path, self.open
        documents = 0
        root = None
        while (event := loader.get_event()) is not None:
            kind = type(event)
            if kind is ScalarEvent:  # most events: checked first
                if event.tag not in _SCALAR_TAGS:
                    raise self.tagged(event)
                # Only a plain empty value or ~ is "nothing": a player called Null keeps the
                # name. (libyaml calls the plain style "", the pure-Python parser None.)
                value = None if not event.style and event.value in ("", "~") else event.value
                where = event
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                mapping = kind is MappingStartEvent
                if event.tag not in (_MAPPING_TAGS if mapping else _SEQUENCE_TAGS):
                    raise self.tagged(event)
                if len(open_) == MAX_SERIES_DEPTH:
                    raise _too_deep(path)
                open_.append([{} if mapping else [], _KEY, event])
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                value, _, where = open_.pop()
            elif kind is AliasEvent:
                # Refused, not followed: a few hundred bytes of nested aliases would expand
                # into billions of values.
                raise SeriesFileError(
                    file=path,
                    problem=f"line {event.start_mark.line + 1}: this value is used again "
                    "through an alias (*name); a series file writes every value out in full",
                )
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise SeriesFileError(
                        file=path,
                        problem=f"line {event.start_mark.line + 1}: not valid YAML "
                        "(but found another document)",
                    )
                continue
            else:
                continue
            if not open_:
                root = value
                continue
            top = open_[-1]
            container = top[0]
            if type(container) is list:
                container.append(value)
            elif top[1] is _KEY:
                if type(value) is not str:
                    raise SeriesFileError(
                        file=path,
                        problem=f"line {where.start_mark.line + 1}: a key must be a plain name",
                    )
                if value in container:
                    raise SeriesFileError(
                        file=path,
                        problem=f"line {where.start_mark.line + 1}: {value!r} is given twice",
                    )
                top[1] = value
            else:
                container[top[1]] = value
                top[1] = _KEY
        if not documents:
            raise SeriesFileError(
                file=path, problem="the file is empty; a series needs at least its players"
            )
        return root

    def place(self) -> list[str | int]:
        """The keys and (1-based) positions that lead to the value being read."""
        steps: list[str | int] = []
        for container, key, _ in self.open:
            if type(container) is list:
                steps.append(len(container) + 1)
            elif key is _KEY:
                break  # the value is a key, or inside one
            else:
                steps.append(key)
        return steps

    def tagged(self, event: Any) -> SeriesFileError:
        """The refusal of a value carrying a YAML tag, naming the game and field it is in."""
        tag = str(event.tag)
        shown = "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag
        place = self.place()
        game = None
        field = " ".join(str(step) for step in place) or None
        if len(place) >= 2 and place[0] == "games" and isinstance(place[1], int):
            game, field = place[1], " ".join(str(step) for step in place[2:]) or None
        elif len(place) == 2 and place[0] == "players":
            field = f"players, player {place[1]}"
        return SeriesFileError(
            file=self.path,
            game=game,
            field=field,
            problem=f"line {event.start_mark.line + 1}: a YAML tag ({shown}) is not allowed; "
            "write the value as plain text",
        )


def _too_deep(path: Path) -> SeriesFileError:
    return SeriesFileError(
        file=path, problem="lists or mappings are nested too deeply for a series file"
    )


def _json_data(text: str, path: Path) -> Any:
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
        raise _too_deep(path) from None
    except ValueError:  # Python refuses to read an integer of thousands of digits
        raise SeriesFileError(file=path, problem="a number in the file is far too long") from None


CSV_SETTINGS = ("game", "title", *_SCORING_FIELDS, "stock")


def unescape_cell(cell: str) -> str:
    """A CSV cell as written before ``export --excel`` guarded it: a single quote before
    = + - @ tab or return is taken off (it only stops a spreadsheet running a formula)."""
    if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return cell[1:]
    return cell


def _csv_data(text: str, path: Path) -> dict[str, Any]:
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


def _has_worked_columns(text: str) -> bool:
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


# Checking ----------------------------------------------------------------


def _scored(data: Any, path: Path) -> SeriesResult:
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
    figures = {figure: data.get(key) for key, figure in _SCORING_FIELDS.items()}
    try:
        return ScoringRules.from_mapping(figures, game.scoring)
    except RuleError as exc:
        key = next((k for k, figure in _SCORING_FIELDS.items() if figure == exc.field), None)
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


# Writing -----------------------------------------------------------------


def _head(series: Series) -> dict[str, Any]:
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


def new_series_text(fmt: str, series: Series) -> str:
    """The text of a new series file holding ``series`` (no games yet)."""
    table = series.table
    if fmt == "csv":
        return "".join(_csv_line(row) for row in csv_settings_rows(series)) + _csv_line(
            ["game", "winner", *table.players]
        )
    head = _head(series)
    if fmt == "json":
        data: dict[str, Any] = {**head, "players": list(table.players)}
        if table.teams:
            data["teams"] = {team.name: list(team.members) for team in table.teams}
        data["games"] = []
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    name = game_of(series).name
    lines = [f"# A {name} series kept by sheetgen. Add games with: sheetgen record FILE"]
    lines += [
        f"{key}: {yaml_scalar(value) if isinstance(value, str) else value}"
        for key, value in head.items()
    ]
    lines.append(f"players: [{', '.join(yaml_scalar(name) for name in table.players)}]")
    if table.teams:
        lines.append("teams:")
        lines += [
            f"  {yaml_scalar(team.name)}: [{', '.join(yaml_scalar(m) for m in team.members)}]"
            for team in table.teams
        ]
    lines.append("games:")
    return "\n".join(lines) + "\n"


def csv_settings_rows(series: Series) -> list[list[str]]:
    """The rows before a CSV series' header: what differs from the game's own figures."""
    table, rules = series.table, series.scoring
    definition = game_of(series)
    rows = [["game", series.game]] if series.game != DEFAULT_GAME else []
    if series.title:
        rows.append(["title", series.title])
    rows += [
        [key, str(getattr(rules, figure))]
        for key, figure in _SCORING_FIELDS.items()
        if getattr(rules, figure) != getattr(definition.scoring, figure)
    ]
    if table.stock != definition.default_stock(len(table.players)):
        rows.append(["stock", str(table.stock)])
    rows += [["team", team.name, *team.members] for team in table.teams]
    return rows


def create_series(
    path: Path,
    players: Sequence[str],
    *,
    game: str = DEFAULT_GAME,
    teams: Mapping[str, Sequence[str]] | None = None,
    stock: int | None = None,
    target: int | None = None,
    scoring: str | None = None,
    games_to_play: int | None = None,
    title: str | None = None,
) -> Series:
    """Check a new table and write its series file; refuse to replace one that exists.

    Unset figures are the game's own: its official stock and its way of scoring.
    """
    fmt = series_format(path)
    definition = load_game(game)
    rules = ScoringRules.from_mapping(
        {"way": scoring, "target": target, "games_to_play": games_to_play}, definition.scoring
    )
    table = make_table(players, stock=stock, teams=teams, game=definition)
    if title is not None:
        title = check_title(title, "--title")
    # What fill would refuse later is refused now, while the file is being made.
    fonts.check_printable(table.players, "--players")
    fonts.check_printable([team.name for team in table.teams], "--teams")
    fonts.check_printable([title] if title else [], "--title")
    series = Series(table, (), rules, title or None, game=definition.id, definition=definition)
    create_bytes(path, new_series_text(fmt, series).encode("utf-8"))
    return series


def record_game(path: Path, game: Game, waiting: Callable[[], None] | None = None) -> SeriesResult:
    """Append ``game`` to the series file at ``path``, under a lock, atomically.

    The new game is checked against the whole series first; a rejected game
    leaves the file exactly as it was.
    """

    def append(text: str, series: Series) -> tuple[str, Series]:
        added = settled_game(series, game)
        updated = replace(series, games=(*series.games, added))
        return _append_game(text, series_format(path), updated, added), updated

    return _edit_series(path, append, waiting)[1]


def replace_game(
    path: Path, number: int, game: Game, waiting: Callable[[], None] | None = None
) -> SeriesResult:
    """Put ``game`` in place of game ``number`` (from 1), re-checking the whole series."""

    def swap(text: str, series: Series) -> tuple[str, Series]:
        _game_number_exists(path, series, number)
        games = list(series.games)
        games[number - 1] = settled_game(series, game)
        updated = replace(series, games=tuple(games))
        return _rewrite_game(text, path, updated, number - 1), updated

    return _edit_series(path, swap, waiting)[1]


def undo_game(
    path: Path, expected: Game | None = None, waiting: Callable[[], None] | None = None
) -> tuple[Game, SeriesResult]:
    """Remove the last game; with ``expected`` (the game shown to the user), only if it
    is still the last one when the file is locked."""
    removed: list[Game] = []

    def undo(text: str, series: Series) -> tuple[str, Series]:
        last = last_game(series, path)
        if expected is not None and last != expected:
            raise SeriesFileError(
                file=path,
                problem="another sheetgen changed the last game after it was shown; nothing "
                "was removed, so run undo again to see the last game now",
            )
        removed.append(last)
        updated = replace(series, games=series.games[:-1])
        return _rewrite_game(text, path, updated, len(updated.games)), updated

    result = _edit_series(path, undo, waiting)[1]
    return removed[0], result


def last_game(series: Series, path: Path) -> Game:
    """The series' last game, the one ``undo`` removes."""
    if not series.games:
        raise SeriesFileError(
            file=path, problem="there is no game to undo; the series has no games"
        )
    return series.games[-1]


def settled_game(series: Series, game: Game) -> Game:
    """``game`` as it is stored: names as the series spells them (whatever case or spaces
    were typed), and a winner's own empty piles not written down."""
    table = series.table
    winner = find_name(game.winner, table.sides) or game.winner
    left: dict[str, int] = {}
    for typed, count in game.left.items():
        name = find_name(typed, table.players) or typed
        if name in left:
            raise RuleError(f"{name} is named twice", field="--left")
        left[name] = count
    winners = table.members(winner)
    return Game(winner, {name: n for name, n in left.items() if not (name in winners and n == 0)})


def repeats_last_game(series: Series, game: Game) -> bool:
    """Whether ``game`` is exactly the series' last game again (a likely double entry)."""
    return bool(series.games) and series.games[-1] == settled_game(series, game)


def _game_number_exists(path: Path, series: Series, number: int) -> None:
    played = len(series.games)
    if not 1 <= number <= played:
        games = "game" if played == 1 else "games"
        raise SeriesFileError(
            file=path, problem=f"there is no game {number}; the series has {played} {games}"
        )


def _edit_series(
    path: Path,
    edit: Callable[[str, Series], tuple[str, Series]],
    waiting: Callable[[], None] | None = None,
) -> tuple[Series, SeriesResult]:
    """Change a series file under its lock: read, edit, re-check everything, write atomically.

    ``edit`` gets the file's text and series and gives the new text and the series it
    must hold; the file is written only if the whole series still scores and the new
    text reads back as exactly that series. ``waiting`` is called once if another
    writer holds the lock, before waiting up to LOCK_TIMEOUT seconds for it; a lock
    held longer, or a link or anything but a plain file in the lock's place, is refused.
    """
    series_format(path)
    check_replaceable(path)  # before the lock, which would leave its file behind
    try:
        # The real file's lock, so that two links to one series still wait for each other.
        with hold_lock(path, timeout=LOCK_TIMEOUT, waiting=waiting) as real:
            sweep_stale_temporaries(real)
            read_as = _file_state(path)
            text = _read(path)
            series = parse_series(text, path)
            bom = BOM if text.startswith(BOM) else ""
            try:
                new_text, updated = edit(text.removeprefix(bom), series)
            except SeriesFileError as exc:
                raise exc.within(path) from None
            try:
                result = score_series(updated)
            except RuleError as exc:
                raise SeriesFileError(
                    exc.problem, file=path, game=exc.game, field=exc.field
                ) from None
            if series_format(path) == "csv" and _has_worked_columns(text):
                from sheetgen.series.export import csv_text

                newline = "\r\n" if "\r\n" in text else "\n"
                new_text = csv_text(result).replace("\n", newline)
            new_text = bom + new_text
            if parse_series(new_text, path) != updated:
                raise SeriesFileError(
                    file=path,
                    problem="sheetgen could not change the games without changing what is "
                    "already there; edit the file by hand",
                )
            # An editor that saves in place (truncate, then write) is no sheetgen and takes
            # no lock: if the file is not the one read, writing would drop what it saved.
            if read_as is None or _file_state(path) != read_as:
                raise SeriesFileError(
                    file=path,
                    problem="the file changed while sheetgen was changing it (an editor "
                    "saving it?); nothing was written: check the file and try again",
                )
            write_bytes(path, new_text.encode("utf-8"))
    except OSError as exc:
        raise SeriesFileError(
            file=path,
            problem=f"cannot lock the file to change it ({exc.strerror or exc}); "
            "sheetgen needs to write in its folder",
        ) from None
    return updated, result


def _file_state(path: Path) -> tuple[int, int, int, int, bytes] | None:
    """What tells one state of a file from another: its identity (device and inode), size,
    time of change in nanoseconds and a hash of its bytes; None if it is no ordinary file
    or cannot be read (opened without waiting: a FIFO would block)."""
    import hashlib
    import os

    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                return None
            digest = hashlib.file_digest(handle, "sha256").digest()
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, digest


def _rewrite_game(text: str, path: Path, series: Series, index: int) -> str:
    """The text with game ``index`` (from 0) replaced by ``series.games[index]``, or removed
    when ``series`` ends before it; every other line is left as it was."""
    fmt = series_format(path)
    game = series.games[index] if index < len(series.games) else None
    if fmt == "json":
        data = json.loads(text.removeprefix(BOM))
        games = data["games"]
        if game is None:
            del games[index]
        else:
            games[index] = {"winner": game.winner, "left": dict(game.left)}
        return _json_like(data, text)
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline  # every line ends alike while they are moved; see the end
    if fmt == "csv":
        start, end = _csv_row_lines(lines, index)
        if game is None:
            edited = lines[:start] + lines[end:]
        else:
            counts = [str(game.left.get(player, 0)) for player in series.table.players]
            row = _csv_line([str(index + 1), game.winner, *counts]).replace("\n", newline)
            edited = [*lines[:start], row, *lines[end:]]
    else:
        start, end, indent, comments = _yaml_game_lines_at(text, path, index)
        if game is None:
            # Blank lines that set the game apart go with it: the file ends as it did.
            while start > 0 and not lines[start - 1].strip():
                start -= 1
            edited = lines[:start] + lines[end:]
        else:
            kept = _keep_comments(lines[start:end], comments, _yaml_game_lines(game, indent))
            edited = [*lines[:start], *kept, *lines[end:]]
    result = "".join(edited)
    # The file ends with a line break exactly when it did before.
    if not text.endswith("\n") and result.endswith(newline):
        result = result[: -len(newline)]
    return result


def _keep_comments(old: list[str], comments: dict[int, str], new: list[str]) -> list[str]:
    """A game's new lines in place of its old ones, keeping every comment among them.

    ``comments`` holds the comment at the end of an old line (by its place in ``old``,
    with the spaces before it). Comment and blank lines stay where they are; the new lines
    take the places of the old game's lines, each keeping its comment; an old line left
    over gives its comment a line of its own.
    """
    newline = "\r\n" if old[0].endswith("\r\n") else "\n"
    out: list[str] = []
    waiting = list(new)
    after_content = 0
    for number, line in enumerate(old):
        body = line.strip()
        if not body or body.startswith("#"):
            out.append(line)
            continue
        comment = comments.get(number, "")
        if waiting:
            out.append(waiting.pop(0) + comment + newline)
        elif comment:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + comment.strip() + newline)
        after_content = len(out)
    out[after_content:after_content] = [line + newline for line in waiting]
    return out


def _csv_row_lines(lines: list[str], index: int) -> tuple[int, int]:
    """The lines holding data row ``index`` (from 0) of a CSV series file."""
    rows = [i for i, line in enumerate(lines) if line.strip().strip(",")]
    at = rows[index + 1]  # the first non-blank row is the header
    return at, at + 1


def _yaml_game_lines_at(text: str, path: Path, index: int) -> tuple[int, int, str, dict[int, str]]:
    """The lines of game ``index`` in a YAML block list: first, one past the last, the
    indent of its dash and the comments at the ends of its lines (by line from the first,
    with the spaces before them)."""
    import yaml
    from yaml.nodes import MappingNode, SequenceNode

    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    games = None
    if isinstance(root, MappingNode):
        games = next((value for key, value in root.value if key.value == "games"), None)
    if not isinstance(games, SequenceNode) or games.flow_style:
        raise SeriesFileError(
            "the list is written in flow style; sheetgen edits only a block list",
            file=path,
            field="games",
        )
    items = games.value
    lines = text.splitlines()
    start = items[index].start_mark.line
    if index + 1 < len(items):
        end = items[index + 1].start_mark.line
    else:
        mark = items[index].end_mark
        end = mark.line if mark.column == 0 else mark.line + 1
    # Comments and blank lines after a game belong to what follows it.
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip()[0] == "#"):
        end -= 1
    line = lines[start]
    dash = line[: len(line) - len(line.lstrip())]
    if not line.lstrip().startswith("-") or end <= start:
        raise SeriesFileError(
            "it is not on lines of its own; edit the file by hand", file=path, game=index + 1
        )
    return start, end, dash, _end_comments(items[index], lines, start, end)


def _end_comments(item: Any, lines: list[str], start: int, end: int) -> dict[int, str]:
    """The comment after the last value on each line of ``item`` (lines start to end)."""
    from yaml.nodes import MappingNode, SequenceNode

    ends: dict[int, int] = {}
    stack = [item]
    while stack:
        node = stack.pop()
        line = node.end_mark.line
        if start <= line < end and node.end_mark.column:
            ends[line] = max(ends.get(line, 0), node.end_mark.column)
        if isinstance(node, MappingNode):
            stack += [part for pair in node.value for part in pair]
        elif isinstance(node, SequenceNode):
            stack += node.value
    comments = {}
    for line, column in ends.items():
        rest = lines[line][column:]
        if rest.lstrip().startswith("#"):
            comments[line - start] = rest.rstrip("\r\n")
    return comments


def _append_game(text: str, fmt: str, series: Series, game: Game) -> str:
    if fmt == "csv":
        counts = [str(game.left.get(player, 0)) for player in series.table.players]
        newline = "\r\n" if "\r\n" in text else "\n"
        ending = "" if text.endswith("\n") or not text else newline
        row = _csv_line([str(len(series.games)), game.winner, *counts]).replace("\n", newline)
        return text + ending + row
    if fmt == "json":
        data = json.loads(text.removeprefix(BOM))
        data.setdefault("games", [])
        if data["games"] is None:
            data["games"] = []
        data["games"].append({"winner": game.winner, "left": dict(game.left)})
        return _json_like(data, text)
    return _yaml_append(text, game)


def _csv_line(cells: Sequence[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


def _json_like(data: Any, text: str) -> str:
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


def yaml_scalar(text: str) -> str:
    """A name as YAML: plain when every reader takes it as that text, else quoted."""
    from yaml.nodes import ScalarNode
    from yaml.resolver import Resolver

    resolver = Resolver()
    plain = (
        _PLAIN_SAFE.fullmatch(text) and not text.endswith(" ") and not _YAML11_WORDS.fullmatch(text)
    )
    if plain and resolver.resolve(ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str":
        return text
    # YAML may not hold some characters (U+FFFF, lone controls) as they are: escape those.
    return json.dumps(text, ensure_ascii=_YAML_UNPRINTABLE.search(text) is not None)


def _yaml_game_lines(game: Game, dash_indent: str) -> list[str]:
    left = ", ".join(f"{yaml_scalar(name)}: {count}" for name, count in game.left.items())
    return [
        f"{dash_indent}- winner: {yaml_scalar(game.winner)}",
        f"{dash_indent}  left: {{{left}}}",
    ]


def _yaml_append(text: str, game: Game) -> str:
    """Add a game after the last line of the games list, leaving every other line alone."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    games_at = next(
        (i for i, line in enumerate(lines) if re.match(r"""(["']?)games\1\s*:""", line)),
        None,
    )
    if games_at is None:
        return "".join([*lines, f"games:{newline}", *_lines(_yaml_game_lines(game, "  "), newline)])
    head = lines[games_at]
    rest = re.sub(r"\s#.*$", "", " " + head.split(":", 1)[1].strip()).strip()
    if rest == "[]":
        comment = head[head.index("[]") + 2 :].rstrip("\n")
        lines[games_at] = "games:" + comment.rstrip("\r") + newline
    elif rest:
        raise SeriesFileError(
            "the list is written in flow style; sheetgen appends only to a block list",
            field="games",
        )
    end = games_at + 1
    dash_indent: str | None = None
    last_content = games_at
    while end < len(lines):
        line = lines[end]
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            if not line[0].isspace() and not line.startswith("-"):
                break
            if dash_indent is None and stripped.startswith("-"):
                dash_indent = line[: len(line) - len(line.lstrip())]
            last_content = end
        end += 1
    indent = "  " if dash_indent is None else dash_indent
    insert = _lines(_yaml_game_lines(game, indent), newline)
    return "".join([*lines[: last_content + 1], *insert, *lines[last_content + 1 :]])


def _lines(items: list[str], newline: str) -> list[str]:
    return [item + newline for item in items]
