"""CSV series files as spreadsheets write them: comma, semicolon or tab between the cells
(found in the file), a byte-order mark, CRLF line ends, quoted cells, settings rows above
the heading row; read as a stream through ``grid``. A game recorded, replaced or undone is
written in the file's own way: its delimiter, line ends, quoting and every other cell (a
column of notes, say) as they were; the points and totals an export shows are worked out
again. The CSV export is a series file too, in the dialect asked for.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from sheetgen.errors import RuleError, SeriesFileError
from sheetgen.game.definition import DEFAULT_GAME
from sheetgen.game.names import find_name
from sheetgen.game.scoring import Series, SeriesResult, game_of, score_series
from sheetgen.series.cells import whole, written
from sheetgen.series.grid import Grid, Layout, Row, is_heading_row, read_grid
from sheetgen.series.schema import BOM, SCORING_FIELDS

# The delimiters a spreadsheet writes between cells, in the order they are tried.
DELIMITERS = (",", ";", "\t")
# How much of a file is looked at to tell its delimiter and quoting.
SNIFF_CHARS = 1 << 16
# Cells a spreadsheet would take for a formula (OWASP's CSV injection advice).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


@dataclass(frozen=True)
class Dialect:
    """How a CSV file is written: the delimiter, the line end, which cells are quoted
    (``minimal``: only those that must be; ``text``: every text cell; ``all``), a
    byte-order mark, and whether a cell that a spreadsheet would run as a formula is
    guarded by a single quote."""

    delimiter: str = ","
    newline: str = "\n"
    quoting: str = "minimal"
    bom: bool = False
    guard: bool = False

    @property
    def decimal(self) -> str | None:
        """The decimal mark beside this delimiter: German spreadsheets write 12,5 and
        separate cells by semicolons; None where either may be meant."""
        return {",": ".", ";": ","}.get(self.delimiter)


# The dialects ``export --csv-dialect`` writes.
DIALECTS = {
    "plain": Dialect(),
    "excel": Dialect(",", "\r\n", bom=True, guard=True),
    "excel-de": Dialect(";", "\r\n", bom=True, guard=True),
}


def unescape_cell(cell: str) -> str:
    """A CSV cell as written before it was guarded: a single quote before = + - @ tab,
    return or another such quote is taken off (it only stops a spreadsheet running a
    formula)."""
    if cell.startswith("'") and cell[1:2] in (*FORMULA_STARTS, "'"):
        return cell[1:]
    return cell


def guarded(text: str) -> str:
    """A text cell a spreadsheet shows as that text: one it would run as a formula
    (``=cmd|...``) gets a single quote before it, which ``unescape_cell`` takes off again.
    Plain negative numbers stay as they are."""
    if text.startswith(FORMULA_STARTS) and not text.lstrip("-").isdigit():
        return "'" + text
    if unescape_cell(text) != text:
        return "'" + text
    return text


# Reading ---------------------------------------------------------------------------


def _records(text: str, delimiter: str) -> Iterator[list[str]]:
    return csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)


def sniff(text: str) -> Dialect:
    """The dialect a CSV file is written in, from its first part."""
    head = text[:SNIFF_CHARS]
    if "\r\n" in head:
        newline = "\r\n"
    elif "\r" in head and "\n" not in head:
        newline = "\r"
    else:
        newline = "\n"
    delimiter = _delimiter(head)
    return Dialect(delimiter, newline, _quoting(head, delimiter), bom=text.startswith(BOM))


def _delimiter(head: str) -> str:
    """The delimiter under which the file has a heading row (the widest such row wins),
    else the one its first line holds most of."""
    widest: tuple[int, str] | None = None
    for delimiter in DELIMITERS:
        try:
            for row in _records(head, delimiter):
                if is_heading_row([cell.strip() for cell in row]):
                    if widest is None or len(row) > widest[0]:
                        widest = (len(row), delimiter)
                    break
        except csv.Error:
            continue
    if widest is not None:
        return widest[1]
    first = next((line for line in head.splitlines() if line.strip()), "")
    return max(DELIMITERS, key=lambda delimiter: (first.count(delimiter), delimiter == ","))


def _quoting(head: str, delimiter: str) -> str:
    """Which cells the file quotes, from its first lines: all, every text cell, or only
    those that must be."""
    number_quoted = text_quoted = text_bare = False
    for line in head.splitlines()[:40]:
        for raw in raw_cells(line, delimiter):
            quoted = raw.startswith('"')
            value = raw[1:-1].replace('""', '"') if quoted else raw
            if not value:
                continue
            number = bool(_NUMBER.fullmatch(value.strip()))
            number_quoted |= quoted and number
            text_quoted |= quoted and not number
            text_bare |= not quoted and not number
    if text_bare:
        return "minimal"
    if number_quoted:
        return "all"
    return "text" if text_quoted else "minimal"


def raw_cells(record: str, delimiter: str) -> list[str]:
    """The cells of one record as they are written, quotes and all."""
    cells = []
    at, end = 0, len(record)
    while True:
        start = at
        if at < end and record[at] == '"':
            at += 1
            while at < end:
                if record[at] == '"':
                    if record[at + 1 : at + 2] == '"':
                        at += 2
                        continue
                    at += 1
                    break
                at += 1
        while at < end and record[at] != delimiter:
            at += 1
        cells.append(record[start:at])
        if at >= end:
            return cells
        at += 1


def rows(text: str, dialect: Dialect) -> Iterator[Row]:
    """Every record of the file with its number (as a spreadsheet numbers its rows), each
    cell without the quote that guarded it."""
    for number, record in enumerate(_records(text, dialect.delimiter), start=1):
        yield number, [unescape_cell(cell) for cell in record]


def read_csv(text: str, path: Path, *, games: bool = True) -> Grid:
    """A CSV series file's games sheet (the text without its byte-order mark)."""
    dialect = sniff(text)
    try:
        return read_grid(rows(text, dialect), path, dialect.decimal, games=games)
    except csv.Error as exc:
        raise SeriesFileError(file=path, problem=f"not valid CSV ({exc})") from None


# Writing ---------------------------------------------------------------------------


def field(value: str | int, dialect: Dialect) -> str:
    """One cell as the dialect writes it."""
    text = str(value)
    number = isinstance(value, int)
    must = any(char in text for char in (dialect.delimiter, '"', "\r", "\n"))
    quote = must or (
        bool(text) and (dialect.quoting == "all" or (dialect.quoting == "text" and not number))
    )
    return '"' + text.replace('"', '""') + '"' if quote else text


def line(cells: Sequence[str | int], dialect: Dialect) -> str:
    """A row as the dialect writes it, without its line end; text cells guarded if the
    dialect guards them."""
    shown = [guarded(cell) if dialect.guard and isinstance(cell, str) else cell for cell in cells]
    return dialect.delimiter.join(field(cell, dialect) for cell in shown)


def settings_rows(series: Series, code: str = "en", kind: str = "csv") -> list[list[str | int]]:
    """The rows before a games sheet's heading row: what differs from the game's own
    figures, and the teams; the keys as sheetgen writes them in language ``code``."""
    table, rules = series.table, series.scoring
    definition = game_of(series)
    rows: list[list[str | int]] = []
    if series.game != DEFAULT_GAME:
        rows.append([written("game", code, kind), series.game])
    if series.title:
        rows.append([written("title", code, kind), series.title])
    for key, figure in SCORING_FIELDS.items():
        value = getattr(rules, figure)
        if value != getattr(definition.scoring, figure):
            rows.append([written(key, code, kind), value])
    if table.stock != definition.default_stock(len(table.players)):
        rows.append([written("stock", code, kind), table.stock])
    team = written("team", code, kind)
    rows += [[team, side.name, *side.members] for side in table.teams]
    return rows


def heading_row(series: Series, code: str = "en", kind: str = "csv") -> list[str | int]:
    """The heading row of an export: game, winner, the players' cards left, the game's
    points (with the winner's way of scoring) and every side's running total."""
    points = [] if series.scoring.cards_left else [written("points", code, kind)]
    totals = [written("total", code, kind, side) for side in series.table.sides]
    return [
        written("game", code, kind),
        written("winner", code, kind),
        *series.table.players,
        *points,
        *totals,
    ]


def game_rows(result: SeriesResult) -> list[list[str | int]]:
    """A row per game of an export, under ``heading_row``."""
    series = result.series
    players, sides = series.table.players, series.table.sides
    rows: list[list[str | int]] = []
    for game in result.games:
        points: list[str | int] = [] if series.scoring.cards_left else [game.points]
        left = [game.left.get(player, 0) for player in players]
        rows.append([game.number, game.winner, *left, *points, *(game.totals[s] for s in sides)])
    return rows


def export_text(result: SeriesResult, code: str = "en", dialect: Dialect | None = None) -> str:
    """The series as a CSV series file that also shows each game's points and every
    side's running total, headed in language ``code`` and written in ``dialect``;
    sheetgen reads it back as the same series."""
    dialect = dialect or DIALECTS["plain"]
    series = result.series
    table: list[list[str | int]] = [
        *settings_rows(series, code),
        heading_row(series, code),
        *game_rows(result),
    ]
    text = "".join(line(row, dialect) + dialect.newline for row in table)
    return (BOM if dialect.bom else "") + text


def new_text(series: Series) -> str:
    """The text of a new CSV series file holding ``series`` (no games yet)."""
    dialect = DIALECTS["plain"]
    rows: list[list[str | int]] = [
        *settings_rows(series),
        ["game", "winner", *series.table.players],
    ]
    return "".join(line(row, dialect) + "\n" for row in rows)


# Changing a file -------------------------------------------------------------------


class Document:
    """A CSV series file to change: its lines, dialect, records and games sheet layout.

    Every record keeps the lines it was read from, so a change rewrites only the records
    it must and leaves every other byte as it was."""

    def __init__(self, text: str, path: Path) -> None:
        self.text = text
        self.dialect = sniff(text)
        self.lines = list(io.StringIO(text, newline=""))
        self.spans: list[tuple[int, int, list[str]]] = []
        reader = csv.reader(iter(self.lines), delimiter=self.dialect.delimiter)
        done = 0
        for record in reader:
            self.spans.append((done, reader.line_num, record))
            done = reader.line_num
        numbered = ((n, [unescape_cell(c) for c in r]) for n, (_, _, r) in enumerate(self.spans, 1))
        self.layout: Layout = read_grid(numbered, path, self.dialect.decimal).layout
        self.games = [
            index
            for index in range(self.layout.row, len(self.spans))
            if any(cell.strip() for cell in self.spans[index][2])
        ]

    def values(self, result: SeriesResult, number: int) -> dict[int, str | int]:
        """The cells of game ``number`` (from 1) that sheetgen writes, by column."""
        series = result.series
        game = result.games[number - 1]
        layout = self.layout
        cells: dict[int, str | int] = {layout.game: number, layout.winner: guarded(game.winner)}
        for column, player in layout.players:
            name = find_name(player, series.table.players) or player
            cells[column] = game.left.get(name, 0)
        cells.update(self.worked(result, number))
        return cells

    def worked(self, result: SeriesResult, number: int) -> dict[int, str | int]:
        """The points and totals cells of game ``number``, as the scoring works them out."""
        game = result.games[number - 1]
        cells: dict[int, str | int] = {}
        if self.layout.points is not None:
            cells[self.layout.points] = game.points
        for column, side in self.layout.totals:
            name = find_name(side, result.series.table.sides) or side
            cells[column] = game.totals[name]
        return cells

    def record_text(self, index: int, cells: dict[int, str | int]) -> str:
        """Record ``index`` with ``cells`` put in; its other cells as they were written."""
        start, end, values = self.spans[index]
        raw = "".join(self.lines[start:end])
        body = raw.rstrip("\r\n")
        ending = raw[len(body) :]
        tokens = raw_cells(body, self.dialect.delimiter)
        if len(tokens) != len(values):
            tokens = [field(value, self.dialect) for value in values]
        tokens += [""] * (max(cells, default=0) + 1 - len(tokens))
        for column, value in cells.items():
            was = unescape_cell(values[column]) if column < len(values) else ""
            if isinstance(value, int) and whole(was, self.dialect.decimal) in (value, str(value)):
                continue  # the same number as written (75,00 stays 75,00)
            tokens[column] = field(value, self.dialect)
        return self.dialect.delimiter.join(tokens) + ending

    def new_record(self, cells: dict[int, str | int]) -> str:
        width = max(self.layout.width, len(self.spans[self.layout.row - 1][2]))
        tokens = [""] * max(width, max(cells) + 1)
        for column, value in cells.items():
            tokens[column] = field(value, self.dialect)
        return self.dialect.delimiter.join(tokens) + self.dialect.newline

    def append(self, result: SeriesResult) -> str:
        """The text with the last game of ``result`` added after the last game's row (a
        file without a line break after its last row still has none after the new one)."""
        last = self.games[-1] if self.games else self.layout.row - 1
        at = self.spans[last][1]
        before = self.lines[:at]
        row = self.new_record(self.values(result, len(result.games)))
        if before and not before[-1].endswith(("\n", "\r")):
            before[-1] += self.dialect.newline
            if at == len(self.lines):
                row = row.removesuffix(self.dialect.newline)
        return "".join([*before, row, *self.lines[at:]])

    def rewrite(self, result: SeriesResult, index: int) -> str:
        """The text with game ``index`` (from 0) as ``result`` has it, or without it when
        ``result`` ends before it; the later games' points and totals worked out again."""
        out = list(self.lines)
        removed = index >= len(result.games)
        for position in range(len(self.games) - 1, index - 1, -1):
            record = self.games[position]
            start, end, _ = self.spans[record]
            if position == index and removed:
                text = ""
            elif position == index:
                text = self.record_text(record, self.values(result, index + 1))
            else:
                number = position + (0 if removed else 1)
                cells = self.worked(result, number)
                if removed:
                    cells[self.layout.game] = number
                text = self.record_text(record, cells) if cells else "".join(out[start:end])
            out[start:end] = [text]
        changed = "".join(out)
        # The file ends with a line break exactly when it did before.
        if not self.text.endswith(("\n", "\r")):
            changed = changed.rstrip("\r\n") if changed.strip() else changed
        return changed


def _result(series: Series, path: Path) -> SeriesResult:
    """The series scored (its points and totals go into an export's columns)."""
    try:
        return score_series(series)
    except RuleError as exc:
        raise SeriesFileError(exc.problem, file=path, game=exc.game, field=exc.field) from None


def append_game(text: str, series: Series, path: Path) -> str:
    """The text with the last game of ``series`` added, in the file's own dialect."""
    return Document(text, path).append(_result(series, path))


def rewrite_game(text: str, series: Series, index: int, path: Path) -> str:
    """The text with game ``index`` (from 0) replaced by the one ``series`` has there, or
    removed when ``series`` ends before it."""
    return Document(text, path).rewrite(_result(series, path), index)


def worked_columns(text: str, path: Path) -> bool:
    """Whether a CSV series carries points or totals columns (an export does); read only
    as far as its heading row."""
    return read_csv(text, path, games=False).layout.worked
