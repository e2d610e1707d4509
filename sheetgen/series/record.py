"""Changing a series file: a game recorded, replaced or undone under the file's lock, the
whole series checked again and written by an atomic rename, every other byte (and every
comment) kept as the user wrote it."""

from __future__ import annotations

import stat
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from sheetgen.atomic import check_replaceable, sweep_stale_temporaries, write_bytes
from sheetgen.errors import RuleError, SeriesFileError, StaleSeriesError
from sheetgen.game.names import find_name
from sheetgen.game.scoring import Game, Series, SeriesResult, score_series
from sheetgen.lock import hold_lock
from sheetgen.series import csvfile, jsonfile, yamlfile
from sheetgen.series.file import parse_series, read_text, refuse_workbook, series_format
from sheetgen.series.schema import BOM

LOCK_TIMEOUT = 30.0


def record_game(
    path: Path,
    game: Game,
    waiting: Callable[[], None] | None = None,
    expected_games: int | None = None,
) -> SeriesResult:
    """Append ``game`` to the series file at ``path``, under a lock, atomically.

    The new game is checked against the whole series first; a rejected game
    leaves the file exactly as it was. With ``expected_games`` (the number of games the
    caller last saw), the game is added only if the file still holds that many.
    """

    def append(text: str, series: Series) -> tuple[str, Series]:
        _still(path, series, expected_games)
        added = settled_game(series, game)
        updated = replace(series, games=(*series.games, added))
        return _append_game(text, path, updated, added), updated

    return _edit_series(path, append, waiting)[1]


def replace_game(
    path: Path,
    number: int,
    game: Game,
    waiting: Callable[[], None] | None = None,
    expected_games: int | None = None,
) -> SeriesResult:
    """Put ``game`` in place of game ``number`` (from 1), re-checking the whole series."""

    def swap(text: str, series: Series) -> tuple[str, Series]:
        _still(path, series, expected_games)
        _game_number_exists(path, series, number)
        games = list(series.games)
        games[number - 1] = settled_game(series, game)
        updated = replace(series, games=tuple(games))
        return _rewrite_game(text, path, updated, number - 1), updated

    return _edit_series(path, swap, waiting)[1]


def undo_game(
    path: Path,
    expected: Game | None = None,
    waiting: Callable[[], None] | None = None,
    expected_games: int | None = None,
) -> tuple[Game, SeriesResult]:
    """Remove the last game; with ``expected`` (the game shown to the user), only if it
    is still the last one when the file is locked, and with ``expected_games`` only if
    the file still holds that many games."""
    removed: list[Game] = []

    def undo(text: str, series: Series) -> tuple[str, Series]:
        _still(path, series, expected_games)
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


def _still(path: Path, series: Series, expected_games: int | None) -> None:
    """Refuse a change made against another state of the file than the one it holds now."""
    played = len(series.games)
    if expected_games is not None and played != expected_games:
        seen = "game" if expected_games == 1 else "games"
        now = "game" if played == 1 else "games"
        raise StaleSeriesError(
            file=path,
            problem=f"the series changed after it was shown: it was shown with "
            f"{expected_games} {seen} and now holds {played} {now}; nothing was changed",
        )


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
    refuse_workbook(path, "change")
    check_replaceable(path)  # before the lock, which would leave its file behind
    try:
        # The real file's lock, so that two links to one series still wait for each other.
        with hold_lock(path, timeout=LOCK_TIMEOUT, waiting=waiting) as real:
            sweep_stale_temporaries(real)
            read_as = file_state(path)
            text = read_text(path)
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
            new_text = bom + new_text
            if parse_series(new_text, path) != updated:
                raise SeriesFileError(
                    file=path,
                    problem="sheetgen could not change the games without changing what is "
                    "already there; edit the file by hand",
                )
            # An editor that saves in place (truncate, then write) is no sheetgen and takes
            # no lock: if the file is not the one read, writing would drop what it saved.
            if read_as is None or file_state(path) != read_as:
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


def file_state(path: Path) -> tuple[int, int, int, int, bytes] | None:
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
        return jsonfile.rewrite_game(text, game, index)
    if fmt == "csv":
        return csvfile.rewrite_game(text, series, index, path)
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline  # every line ends alike while they are moved; see the end
    start, end, indent, comments = yamlfile.game_lines_at(text, path, index)
    if game is None:
        # Blank lines that set the game apart go with it: the file ends as it did.
        while start > 0 and not lines[start - 1].strip():
            start -= 1
        edited = lines[:start] + lines[end:]
    else:
        kept = yamlfile.keep_comments(lines[start:end], comments, yamlfile.game_lines(game, indent))
        edited = [*lines[:start], *kept, *lines[end:]]
    result = "".join(edited)
    # The file ends with a line break exactly when it did before.
    if not text.endswith("\n") and result.endswith(newline):
        result = result[: -len(newline)]
    return result


def _append_game(text: str, path: Path, series: Series, game: Game) -> str:
    fmt = series_format(path)
    if fmt == "csv":
        return csvfile.append_game(text, series, path)
    if fmt == "json":
        return jsonfile.append_game(text, game)
    return yamlfile.append_game(text, game)
