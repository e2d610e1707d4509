"""A games sheet read as a person reads it: the rows of a CSV series file or of a
workbook's games sheet, turned into the plain data the one schema checks.

The sheet holds optional settings rows (``title,Friday``, ``team,Red,Ann,Cy``), a heading
row with a ``game`` and a ``winner`` column and one column per player, and a row per game.
Headings are matched whatever their case and spacing, in English or German as sheetgen
writes them; a column of the club's own (notes, a date) is left as it is and not read.
The ``points`` and ``total <side>`` columns an export adds are worked out again from the
cards left: a cell there that says something else is refused by its row and column.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sheetgen.errors import RuleError, SeriesFileError
from sheetgen.game.names import find_name, name_key
from sheetgen.game.scoring import SeriesResult, check_game_count
from sheetgen.numbers import whole_number
from sheetgen.series.cells import (
    SETTINGS,
    Cell,
    column_kind,
    is_empty,
    is_own_column,
    letter,
    setting_key,
    text_of,
    total_side,
    whole,
)

Row = tuple[int, Sequence[Cell]]  # a row's number as the spreadsheet shows it, its cells
SETTING_NAMES = ", ".join(key.replace("_", " ") for key in SETTINGS)
HEADING_ROW = "the heading row names the columns game and winner, then one per player"


@dataclass(frozen=True)
class Layout:
    """Where a games sheet keeps what: the heading row's number and its columns (from 0)."""

    row: int
    headings: tuple[str, ...]
    game: int
    winner: int
    players: tuple[tuple[int, str], ...]
    points: int | None = None
    totals: tuple[tuple[int, str], ...] = ()
    own: tuple[tuple[int, str], ...] = ()
    # Columns headed like the club's own (Notes, Date) where players' columns stand, in a
    # sheet with no totals or teams to tell: players unless their cells say otherwise.
    tentative: tuple[tuple[int, str], ...] = ()

    @property
    def width(self) -> int:
        return len(self.headings)

    @property
    def worked(self) -> bool:
        """Whether the sheet has the points or totals columns an export adds."""
        return self.points is not None or bool(self.totals)

    def place(self, column: int) -> str:
        """A column as a message names it: ``column H (total Bob)``."""
        shown = self.headings[column] if column < self.width else ""
        return f"column {letter(column)}" + (f" ({shown})" if shown else "")

    def cell(self, row: int, column: int) -> str:
        """A cell as a message names it: ``row 4, column H (total Bob)``."""
        return f"row {row}, {self.place(column)}"


@dataclass(frozen=True)
class Stated:
    """A points or total cell of the file, to be checked against the scoring."""

    row: int
    column: int
    game: int
    side: str | None  # None: the game's points
    value: Cell


@dataclass
class Grid:
    """A games sheet read: its plain data for the schema, its layout, and its stated cells."""

    data: dict[str, Any]
    layout: Layout
    stated: list[Stated] = field(default_factory=list)
    decimal: str | None = "."
    # The cells of each tentative column, as the games are read, and each game's row.
    seen: dict[int, list[Cell]] = field(default_factory=dict)
    rows: list[int] = field(default_factory=list)

    def cell_of(self, game: int | None, name: str | None) -> str | None:
        """Where a recorded game's field (``winner``, ``left Bob``) stands in the sheet, as a
        message names it (``row 4, column C (Bob)``); None for a field of no one cell."""
        if game is None or name is None or not 0 < game <= len(self.rows):
            return None
        columns = {f"left {player}": column for column, player in self.layout.players}
        column = columns.get(name, self.layout.winner if name == "winner" else None)
        return None if column is None else self.layout.cell(self.rows[game - 1], column)

    @property
    def own_columns(self) -> list[str]:
        """The club's own columns, as a note names them: ``column J (notes)``."""
        return [self.layout.place(column) for column, _ in self.layout.own]


def read_grid(
    rows: Iterable[Row],
    path: Path,
    decimal: str | None = ".",
    *,
    games: bool = True,
    pad: bool = False,
) -> Grid:
    """The data, layout and stated cells of a games sheet's rows; without ``games``, only
    as far as the heading row (the games are then an empty list). With ``pad`` a row
    shorter than the heading row has empty cells after its last (a workbook's rows end at
    their last cell); without, it is refused (a CSV row with a cell too few)."""
    try:
        return _read(iter(rows), path, decimal, games, pad)
    except RuleError as exc:
        raise SeriesFileError(exc.problem, file=path, game=exc.game, field=exc.field) from None


def _texts(cells: Sequence[Cell]) -> list[str]:
    return [text_of(cell).strip() for cell in cells]


def is_heading_row(texts: Sequence[str]) -> bool:
    kinds = {column_kind(text) for text in texts}
    return "game" in kinds and "winner" in kinds


def _read(rows: Iterator[Row], path: Path, decimal: str | None, games: bool, pad: bool) -> Grid:
    data: dict[str, Any] = {}
    teams: dict[str, list[str]] = {}
    seen_any = False
    for number, cells in rows:
        texts = _texts(cells)
        if not any(texts):
            continue
        seen_any = True
        if is_heading_row(texts):
            layout = _layout(number, texts, teams)
            grid = Grid(data, layout, decimal=decimal)
            _setting_teams(data, teams, layout)
            data["games"] = list(_games(rows, grid, pad)) if games else []
            if games:
                _settle(grid)
            return grid
        _setting(number, texts, data, teams, decimal)
    if not seen_any:
        raise SeriesFileError(
            file=path, problem="the file is empty; the first row names the columns"
        )
    raise RuleError(f"no heading row; {HEADING_ROW}")


def _setting(
    number: int,
    texts: list[str],
    data: dict[str, Any],
    teams: dict[str, list[str]],
    decimal: str | None,
) -> None:
    """A settings row before the heading row: ``title,Friday`` or ``team,Red,Ann,Cy``."""
    key = setting_key(texts[0])
    if key is None:
        raise RuleError(_not_a_setting(texts), field=f"row {number}")
    values = [text for text in texts[1:] if text]
    heading = key == "game" or {column_kind(text) for text in texts[1:]} != {None}
    if len(values) > 1 and key != "team" and heading:
        raise RuleError(_not_a_setting(texts), field=f"row {number}")  # a heading row, amiss
    if key == "team":
        if len(values) < 2 or values[0] in teams:
            raise RuleError("a team row names the team and then its players", field="team")
        teams[values[0]] = values[1:]
    elif len(values) == 1 and key not in data:
        data[key] = values[0] if key in ("game", "title", "scoring") else whole(values[0], decimal)
    else:
        raise RuleError("a settings row holds one value, and each setting is given once", field=key)


def _not_a_setting(texts: list[str]) -> str:
    """Why a row before the heading row is neither a setting nor the heading row."""
    kinds = {column_kind(text) for text in texts}
    # Said on one line: a cell's line breaks and other control characters are escaped.
    found = ", ".join(
        "".join(c if c.isprintable() else repr(c)[1:-1] for c in text) for text in texts if text
    )
    if "winner" in kinds or "game" in kinds:
        missing = "game" if "game" not in kinds else "winner"
        what = "the games' numbers" if missing == "game" else "who went out"
        german = "Spiel" if missing == "game" else "Sieger"
        return f"no column is headed {missing} or {german} ({what}); {HEADING_ROW} (found: {found})"
    return (
        f"{texts[0]!r} is not a setting ({SETTING_NAMES}) and the row is not the heading "
        f"row; {HEADING_ROW} (found: {found})"
    )


def _layout(number: int, texts: list[str], teams: dict[str, list[str]]) -> Layout:
    """The heading row's columns: which is which, and which are players."""
    found: dict[str, int] = {}
    totals: list[tuple[int, str]] = []
    named: list[tuple[int, str]] = []  # every other column with a heading
    for column, text in enumerate(texts):
        kind = column_kind(text) if text else None
        if kind is not None and kind not in found:
            found[kind] = column
        elif text and (side := total_side(text)) is not None:
            totals.append((column, side))
        elif text:
            named.append((column, text))
    while texts and not texts[-1]:
        texts = texts[:-1]
    layout = Layout(
        row=number,
        headings=tuple(texts),
        game=found["game"],
        winner=found["winner"],
        players=(),
        points=found.get("points"),
    )
    players, placed = _players(layout, named, totals, teams)
    own = tuple(item for item in named if item not in players)
    after = max(layout.game, layout.winner)
    tentative = tuple(
        item
        for item in own
        if not teams and not totals and layout.points is None and item[0] > after
    )
    return Layout(
        number,
        tuple(texts),
        found["game"],
        found["winner"],
        tuple(sorted(players + tentative)),
        layout.points,
        placed,
        tuple(item for item in own if item not in tentative),
        tentative,
    )


def _players(
    layout: Layout,
    named: list[tuple[int, str]],
    totals: list[tuple[int, str]],
    teams: dict[str, list[str]],
) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...]]:
    """The player columns among ``named``, and the totals with the sides they name."""
    worked = [col for col in (layout.points, *(c for c, _ in totals)) if col is not None]
    first_worked = min(worked, default=len(layout.headings))
    if teams:
        members = {name_key(member) for names in teams.values() for member in names}
        players = [
            item
            for item in named
            if name_key(item[1]) in members
            or (item[0] < first_worked and not is_own_column(item[1]))
        ]
        sides = list(teams)
    elif totals:
        totalled = {name_key(side) for _, side in totals}
        players = [
            item
            for item in named
            if name_key(item[1]) in totalled
            or (item[0] < first_worked and not is_own_column(item[1]))
        ]
        sides = [text for _, text in players]
    else:
        players = [item for item in named if not is_own_column(item[1])]
        sides = []
    _no_renamed_points(layout, named, players, totals, first_worked, teams)
    placed = []
    for column, side in totals:
        name = find_name(side, sides)
        if name is None:
            have = ", ".join(sides) or "none"
            if teams:
                problem = f"the total of {side}, but no team is called {side} (teams: {have})"
            else:
                problem = (
                    f"the total of {side}, but no column is headed {side} (the player "
                    f"columns: {have}); head a player's column and its total alike"
                )
            raise RuleError(problem, field=layout.cell(layout.row, column))
        placed.append((column, name))
    return tuple(players), tuple(placed)


def _no_renamed_points(
    layout: Layout,
    named: list[tuple[int, str]],
    players: list[tuple[int, str]],
    totals: list[tuple[int, str]],
    first_worked: int,
    teams: dict[str, list[str]],
) -> None:
    """Refuse a column standing where an export writes the points (just before the running
    totals) but headed otherwise, as ``pts``: no player's column, nor one of the club's."""
    if layout.points is not None or not totals:
        return
    before = next((item for item in named if item[0] == first_worked - 1), None)
    if before is None or is_own_column(before[1]):
        return
    totalled = {name_key(side) for _, side in totals}
    if teams:
        members = {name_key(member) for names in teams.values() for member in names}
        renamed = name_key(before[1]) not in members
    else:
        others = [name_key(text) for column, text in players if column != before[0]]
        renamed = name_key(before[1]) not in totalled and all(key in totalled for key in others)
    if renamed:
        raise RuleError(
            f"this column stands where the points go, before the running totals; head it "
            f"'points' (or 'Punkte'), or, if it is a player's, give it a total "
            f"('total {before[1]}')",
            field=layout.cell(layout.row, before[0]),
        )


def _setting_teams(data: dict[str, Any], teams: dict[str, list[str]], layout: Layout) -> None:
    """The players from the heading row, and the teams with their members as headed."""
    players = [text for _, text in layout.players]
    data["players"] = players
    if not teams:
        return
    placed: dict[str, list[str]] = {}
    for team, members in teams.items():
        named = []
        for member in members:
            name = find_name(member, players)
            if name is None:
                raise RuleError(
                    f"team {team} names {member}, but no column is headed {member} "
                    f"(the player columns: {', '.join(players) or 'none'})",
                    field="team",
                )
            named.append(name)
        placed[team] = named
    data["teams"] = placed


def _games(rows: Iterator[Row], grid: Grid, pad: bool) -> Iterator[dict[str, Any]]:
    """The games of the rows after the heading row, each read as it is reached."""
    layout = grid.layout
    data = grid.data
    teams: dict[str, list[str]] = data.get("teams", {})
    sides = list(teams) or list(data["players"])
    number = 0
    for row, cells in rows:
        if all(is_empty(cell) for cell in cells):
            continue
        number += 1
        check_game_count(number)
        grid.rows.append(row)
        if pad and len(cells) < layout.width:
            cells = [*cells, *([None] * (layout.width - len(cells)))]
        _check_cells(row, cells, layout, number)
        game = _game_number(cells[layout.game], grid.decimal)
        if game != str(number):
            raise RuleError(
                f"the game column says {game!r}; games are numbered 1, 2, 3 in order, "
                f"so this row is game {number}",
                game=number,
            )
        typed = text_of(cells[layout.winner]).strip()
        winner = find_name(typed, sides) or typed
        winners = {name_key(name) for name in teams.get(winner, [winner])}
        left: dict[str, Cell] = {}
        for column, player in layout.players:
            cell = cells[column]
            count = whole(cell, grid.decimal)
            if name_key(player) in winners and (is_empty(cell) or count in (0, "0")):
                continue
            if not is_empty(cell):
                left[player] = count
        grid.stated += _stated(row, cells, layout, number)
        for column, _ in layout.tentative:
            grid.seen.setdefault(column, []).append(cells[column] if column < len(cells) else None)
        yield {"winner": winner, "left": left}


def _settle(grid: Grid) -> None:
    """Decide each tentative column: the club's own if the games give it no counts (every
    cell empty) or a cell that is no count (a note, a date); else a player's."""
    layout = grid.layout
    own = []
    for column, heading in layout.tentative:
        cells = grid.seen.get(column, [])
        counts = [whole(cell, grid.decimal) for cell in cells if not is_empty(cell)]
        numbers = all(isinstance(c, int) or str(c).lstrip("+-").isdigit() for c in counts)
        if cells and (not counts or not numbers):
            own.append((column, heading))
    if not own:
        return
    names = {heading for _, heading in own}
    grid.layout = replace(
        layout,
        players=tuple(item for item in layout.players if item not in own),
        own=tuple(sorted(layout.own + tuple(own))),
        tentative=(),
    )
    grid.data["players"] = [name for name in grid.data["players"] if name not in names]
    for game in grid.data["games"]:
        game["left"] = {name: n for name, n in game["left"].items() if name not in names}


def _game_number(cell: Cell, decimal: str | None) -> str:
    return text_of(whole(cell, decimal)).strip().lstrip("+")


def _check_cells(row: int, cells: Sequence[Cell], layout: Layout, number: int) -> None:
    """Refuse a row too short for its players, or a cell the heading row does not name."""
    last_player = max((column for column, _ in layout.players), default=layout.winner)
    if len(cells) <= max(last_player, layout.game, layout.winner):
        raise RuleError(f"the row has {len(cells)} cells, the header {layout.width}", game=number)
    for column, cell in enumerate(cells):
        if (column >= layout.width or not layout.headings[column]) and not is_empty(cell):
            raise RuleError(
                f"the cell holds {text_of(cell).strip()!r}, but its column has no heading; "
                "head the column (a player's name, or notes for notes) or clear the cell",
                game=number,
                field=layout.cell(row, column),  # a column with no heading
            )


def _stated(row: int, cells: Sequence[Cell], layout: Layout, number: int) -> list[Stated]:
    stated = []
    points = layout.points
    if points is not None and points < len(cells) and not is_empty(cells[points]):
        stated.append(Stated(row, points, number, None, cells[points]))
    for column, side in layout.totals:
        if column < len(cells) and not is_empty(cells[column]):
            stated.append(Stated(row, column, number, side, cells[column]))
    return stated


def check_stated(grid: Grid, result: SeriesResult, path: Path) -> None:
    """Refuse a points or total cell that says other than the cards left make it."""
    layout = grid.layout
    for cell in grid.stated:
        game = result.games[cell.game - 1]
        if cell.side is None:
            expected = game.points
            what = (
                f"game {cell.game} scores {expected}"
                if not result.series.scoring.cards_left
                else "a game scores no points in a series scored by cards left"
            )
        else:
            expected = game.totals[cell.side]
            what = f"{cell.side}'s total after game {cell.game} is {expected}"
        try:
            said: int | None = whole_number(whole(cell.value, grid.decimal))
        except RuleError:
            said = None
        if said != expected:
            raise SeriesFileError(
                f"the cell says {text_of(cell.value).strip()!r}, but by the cards left, {what} "
                "(sheetgen works points and totals out itself); correct the cell or empty it",
                file=path,
                game=cell.game,
                field=layout.cell(cell.row, cell.column),
            )
