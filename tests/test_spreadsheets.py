"""The spreadsheet round trip (issue 32, items 1 to 4): a club keeps its season in a
spreadsheet, and sheetgen meets it there.

CSV files as spreadsheets write them (commas or semicolons, decimal commas, a byte-order
mark, CRLF, quoted cells, a title row above the heading row, a column of notes, headings
typed as a person types them) read back, and ``record`` writes into them in their own way;
Points and Total cells that disagree with the cards left are refused by row and column;
``export`` writes real workbooks that read back; the season keeps players and teams apart.
Files that LibreOffice Calc saved are in tests/data/spreadsheets (see its README.md).
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pdfplumber
import pytest

from sheetgen.series.file import load_series

DATA = Path(__file__).parent / "data" / "spreadsheets"
SOURCES = {"friday": "friday.yaml", "pairs": "pairs.yaml", "cards": "cards.yaml"}
HAND = "column A (Date) and column G (Notes); they are left as they are"
GERMAN = "column J (Bemerkung); it is left as it is"
# Every committed file that reads back, with the series file it holds the games of, and
# the columns of the club's own that a note names.
READABLE = {
    "friday.csv": ("friday", ""),
    "pairs.csv": ("pairs", ""),
    "cards.csv": ("cards", ""),
    "friday.xlsx": ("friday", ""),
    "pairs.xlsx": ("pairs", ""),
    "cards.xlsx": ("cards", ""),
    "lo-friday.xlsx": ("friday", ""),
    "lo-pairs.xlsx": ("pairs", ""),
    "lo-cards.xlsx": ("cards", ""),
    "lo-friday-comma.csv": ("friday", ""),
    "lo-pairs-comma.csv": ("pairs", ""),
    "lo-cards-comma.csv": ("cards", ""),
    "lo-friday-de-semicolon.csv": ("friday", ""),
    "lo-pairs-de-semicolon.csv": ("pairs", ""),
    "lo-cards-de-semicolon.csv": ("cards", ""),
    "lo-friday-csv-comma.csv": ("friday", ""),
    "lo-friday-csv-semicolon.csv": ("friday", ""),
    "excel-hand.xlsx": ("friday", HAND),
    "lo-hand.xlsx": ("friday", HAND),
    "lo-hand-comma.csv": ("friday", HAND),
    "lo-hand-semicolon.csv": ("friday", HAND),
    "excel-german.xlsx": ("friday", GERMAN),
    "lo-german.xlsx": ("friday", GERMAN),
    "lo-german-semicolon.csv": ("friday", GERMAN),
}
WRONG_TOTAL = (
    "game 2, row 5, column H (Total Bob): the cell says '100', but by the cards left, Bob's "
    "total after game 2 is 95 (sheetgen works points and totals out itself); correct the "
    "cell or empty it"
)
RENAMED_POINTS = (
    "row 3, column F (pts): this column stands where the points go, before the running "
    "totals; head it 'points' (or 'Punkte'), or, if it is a player's, give it a total "
    "('total pts')"
)
REFUSED = {
    "excel-wrong-total.xlsx": WRONG_TOTAL,
    "lo-wrong-total.xlsx": WRONG_TOTAL,
    "lo-wrong-total-semicolon.csv": WRONG_TOTAL,
    "excel-renamed.xlsx": RENAMED_POINTS,
    "lo-renamed-comma.csv": RENAMED_POINTS,
}


def copy(names: list[str], folder: Path) -> None:
    for name in names:
        shutil.copy(DATA / name, folder / name)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` but a series' lock (which a refused change leaves, empty)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith(".lock")
    }


def pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)


def test_every_committed_file_is_listed() -> None:
    """A file added to the data is read by these tests, as readable or as refused."""
    made = {p.name for p in DATA.iterdir() if p.suffix in (".csv", ".xlsx")}
    assert made == set(READABLE) | set(REFUSED)


# What LibreOffice and Excel-like workbooks hold, read back --------------------------------


@pytest.mark.parametrize("name", sorted(READABLE))
def test_a_saved_spreadsheet_reads_back_as_its_series(runner: Any, name: str) -> None:
    """standings reads the file as the series it was made from; a column of the club's own
    is named in one note; fill draws its sheet."""
    source, own = READABLE[name]
    copy([name, SOURCES[source]], runner.cwd)
    series = load_series(runner.cwd / name)
    expected = load_series(runner.cwd / SOURCES[source])
    assert (series.table, series.games, series.scoring) == (
        expected.table,
        expected.games,
        expected.scoring,
    )
    result = runner("standings", name)
    assert result.exit_code == 0, result.output
    assert (
        result.stdout.split("\n", 1)[1]
        == runner("standings", SOURCES[source]).stdout.split("\n", 1)[1]
    )
    assert result.stderr == (f"Note: {name}: sheetgen does not read {own}\n" if own else "")


def test_fill_draws_a_sheet_of_every_saved_spreadsheet(runner: Any) -> None:
    """fill reads each file as standings does (each alone: two exports of one series side
    by side would count once)."""
    for name in sorted(READABLE):
        folder = runner.cwd / Path(name).stem / Path(name).suffix[1:]
        folder.mkdir(parents=True)
        copy([name], folder)
        filled = runner("fill", str(folder / name), "-o", str(folder / "sheet.pdf"))
        assert filled.exit_code == 0, filled.output
        series = load_series(folder / name)
        text = pdf_text(folder / "sheet.pdf")
        assert series.title is not None and series.title in text, name
        assert all(player in text for player in series.table.players), name


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("command", ["standings", "fill", "record"])
def test_a_hand_typed_total_or_renamed_heading_is_refused_by_row_and_column(
    runner: Any, name: str, command: str
) -> None:
    copy([name], runner.cwd)
    before = snapshot(runner.cwd)
    extra = {
        "fill": ["-o", "sheet.pdf"],
        "record": ["--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1"],
    }.get(command, [])
    result = runner(command, name, *extra)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1 if command == "fill" else 0] in (
        f"Error: {name}, {REFUSED[name]}",
        "Error: 1 of 1 series files were not filled",
    )
    assert f"{name}, {REFUSED[name]}" in result.output
    assert "Traceback" not in result.output and "players, not" not in result.output
    assert snapshot(runner.cwd) == before


# record writes into a CSV file the way the spreadsheet wrote it -----------------------------

FOURTH = ["--winner", "Zoë", "--left", "Bob=1", "--left", "Cy=1"]  # 35 points: 110, 95, 90
RECORDED = {
    "lo-friday-comma.csv": (FOURTH, "4,Zoë,0,1,1,35,110,95,90\n"),
    "lo-friday-csv-comma.csv": (FOURTH, "4,Zoë,0,1,1,35,110,95,90\n"),
    "lo-friday-de-semicolon.csv": (FOURTH, '4;"Zoë";0;1;1;35;110;95;90\n'),
    "lo-friday-csv-semicolon.csv": (FOURTH, '4;"Zoë";0;1;1;35;110;95;90\n'),
    "lo-hand-comma.csv": (FOURTH, ",4,Zoë,0,1,1,\n"),
    "lo-hand-semicolon.csv": (FOURTH, ';4;"Zoë";0;1;1;\n'),
    "lo-german-semicolon.csv": (FOURTH, '4;"Zoë";0;1;1;35;110;95;90;\n'),
    "lo-pairs-de-semicolon.csv": (
        ["--winner", "Red", "--left", "Bob=2", "--left", "Di=2"],
        '3;"Red";0;2;0;2;45;140;60\n',
    ),
    "lo-cards-de-semicolon.csv": (
        ["--winner", "Bob", "--left", "Ann=1", "--left", "Cy=2"],
        '3;"Bob";1;0;2;4;7;10\n',
    ),
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_record_and_undo_keep_the_spreadsheets_own_csv(runner: Any, name: str) -> None:
    """The new row comes in the file's delimiter, quoting and width (empty cells for the
    club's own columns), after the last game; every other byte stays; undo gives the file
    back byte for byte."""
    args, row = RECORDED[name]
    copy([name], runner.cwd)
    path = runner.cwd / name
    before = path.read_bytes()
    result = runner("record", name, *args)
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == before + row.encode("utf-8")
    assert runner("standings", name).exit_code == 0
    undone = runner("undo", name, "--yes")
    assert undone.exit_code == 0, undone.output
    assert path.read_bytes() == before


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
@pytest.mark.parametrize("bom", [True, False])
@pytest.mark.parametrize("final", [True, False])
def test_a_byte_order_mark_line_ends_and_the_last_line_break_are_kept(
    runner: Any, newline: str, bom: bool, final: bool
) -> None:
    text = (DATA / "lo-friday-csv-semicolon.csv").read_text(encoding="utf-8")
    text = text.replace("\n", newline)
    text = ("\ufeff" if bom else "") + (text if final else text.removesuffix(newline))
    path = runner.cwd / "s.csv"
    path.write_bytes(text.encode("utf-8"))
    assert runner("record", "s.csv", *FOURTH).exit_code == 0
    row = f'4;"Zoë";0;1;1;35;110;95;90{newline}'
    expected = text + row if final else text + newline + row.removesuffix(newline)
    assert path.read_bytes() == expected.encode("utf-8")
    assert runner("undo", "s.csv", "--yes").exit_code == 0
    assert path.read_bytes() == text.encode("utf-8")


def test_replacing_a_game_works_out_the_later_totals_and_keeps_the_other_cells(
    runner: Any,
) -> None:
    """Game 1 replaced: its row and the later totals change; the notes, the decimal commas
    of numbers that stay the same and every other row stay as Calc wrote them."""
    name = "lo-german-semicolon.csv"
    copy([name], runner.cwd)
    path = runner.cwd / name
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    result = runner("record", name, "--replace", "1", *FOURTH)
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8").splitlines(keepends=True) == [
        *lines[:3],
        '1;"Zoë";0,00;1;1;35;35;0,00;0,00;"gut gespielt"\n',
        '2;"Bob";2,00;0,00;12,00;95,00;35;95,00;0,00;\n',
        '3;"Cy";4,00;9,00;0,00;90,00;35;95,00;90,00;\n',
    ]
    assert "Zoë      35    1     265" in runner("standings", name).stdout.splitlines()


def test_an_own_column_is_noted_once_after_record(runner: Any) -> None:
    copy(["lo-hand-comma.csv"], runner.cwd)
    result = runner("record", "lo-hand-comma.csv", *FOURTH)
    assert result.exit_code == 0
    assert result.stderr == f"Note: lo-hand-comma.csv: sheetgen does not read {HAND}\n"


# export writes the CSV dialect asked for, or the locale's ---------------------------------

FRIDAY = (DATA / "friday.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "env", "start", "newline"),
    [
        ([], {}, "title,Friday nights", "\n"),
        (["--lang", "de"], {}, "\ufeffTitel;Friday nights", "\r\n"),
        (
            [],
            {"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""},
            "\ufeffTitel;Friday nights",
            "\r\n",
        ),
        (["--excel"], {}, "\ufefftitle,Friday nights", "\r\n"),
        (["--excel", "--lang", "de"], {}, "\ufeffTitel;Friday nights", "\r\n"),
        (["--csv-dialect", "excel-de"], {}, "\ufefftitle;Friday nights", "\r\n"),
        (["--csv-dialect", "excel"], {}, "\ufefftitle,Friday nights", "\r\n"),
        (["--csv-dialect", "plain", "--lang", "de"], {}, "Titel,Friday nights", "\n"),
        (["--csv-dialect", "plain"], {}, "title,Friday nights", "\n"),
    ],
    ids=[
        "plain",
        "de",
        "de-system",
        "excel",
        "excel-de",
        "dialect-de",
        "dialect-excel",
        "plain-de",
        "dialect-plain",
    ],
)
def test_export_csv_in_a_dialect_reads_back_as_the_same_series(
    runner: Any, args: list[str], env: dict[str, str], start: str, newline: str
) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    result = runner("export", "friday.yaml", "--format", "csv", *args, "-o", "f.csv", env=env)
    assert result.exit_code == 0, result.output
    text = (runner.cwd / "f.csv").read_bytes().decode("utf-8")
    assert text.startswith(start + newline)
    assert text.endswith(newline) and newline + newline not in text
    if newline == "\r\n":
        assert "\n" not in text.replace("\r\n", "")
    german = "Titel" in start
    heading = "Spiel;Sieger" if ";" in start and german else "game;winner" if ";" in start else ""
    assert heading in text
    assert ("Summe Zoë" in text) == german and ("total Zoë" in text) == (not german)
    back, source = load_series(runner.cwd / "f.csv"), load_series(runner.cwd / "friday.yaml")
    assert (back.title, back.table, back.games, back.scoring) == (
        source.title,
        source.table,
        source.games,
        source.scoring,
    )
    assert runner("standings", "f.csv").stdout == runner("standings", "friday.yaml").stdout


@pytest.mark.parametrize("fmt", ["md", "json", "xlsx"])
def test_a_csv_dialect_is_for_csv_only(runner: Any, fmt: str) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    result = runner("export", "friday.yaml", "--format", fmt, "--csv-dialect", "excel-de")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for --csv-dialect: --csv-dialect makes a CSV file, not {fmt}"
    )


def test_a_guarded_name_round_trips_in_the_semicolon_dialect(runner: Any) -> None:
    names = "=cmd|' /C calc'!A0,+Bob,@Cy,-Di"
    assert runner("new", "s.yaml", "--players", names).exit_code == 0
    left = ["--left", "=cmd|' /C calc'!A0=3", "--left", "@Cy=2", "--left", "-Di=1"]
    assert runner("record", "s.yaml", "--winner", "+Bob", *left).exit_code == 0
    done = runner("export", "s.yaml", "--csv-dialect", "excel-de", "-o", "s.csv")
    assert done.exit_code == 0, done.output
    text = (runner.cwd / "s.csv").read_bytes().decode("utf-8")
    assert text.startswith("\ufeffgame;winner;'=cmd|' /C calc'!A0;'+Bob;'@Cy;'-Di;points;")
    assert load_series(runner.cwd / "s.csv").table.players == tuple(names.split(","))
    record = ["--winner", "-Di", "--left", "+Bob=2", *left[:4]]
    assert runner("record", "s.csv", *record).exit_code == 0
    after = (runner.cwd / "s.csv").read_bytes().decode("utf-8")
    assert after == text + "2;'-Di;3;2;2;0;60;0;55;0;60\r\n"


# Headings as a person reads them --------------------------------------------------------

GAMES = "1,Ann,0,3,5\n2,Bob,2,0,4\n"


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("game,winner,Ann,Bob,Cy\n" + GAMES, ""),
        ("  Game , WINNER ,Ann, Bob ,Cy\n" + GAMES, ""),
        ("SPIEL;Sieger;Ann;Bob;Cy\n" + GAMES.replace(",", ";"), ""),
        ("Spiel;Gewinner;Ann;Bob;Cy\n" + GAMES.replace(",", ";"), ""),
        ("game\twinner\tAnn\tBob\tCy\n" + GAMES.replace(",", "\t"), ""),
        ('"game","winner","Ann","Bob","Cy"\n' + GAMES, ""),
        (
            "notes,game,winner,Ann,Bob,Cy\nfirst,1,Ann,0,3,5\n,2,Bob,2,0,4\n",
            "column A (notes); it is",
        ),
        ("game,winner,Ann,Notes,Bob,Cy\n1,Ann,0,x,3,5\n2,Bob,2,,0,4\n", "column D (Notes); it is"),
        (
            "game,winner,Ann,Bob,Cy,Datum\n1,Ann,0,3,5,3.5.\n2,Bob,2,0,4,\n",
            "column F (Datum); it is",
        ),
        ("game,winner,Ann,Bob,Cy,,\n1,Ann,0,3,5,,\n2,Bob,2,0,4,,\n", ""),
        ("game;winner;Ann;Bob;Cy\n1;Ann;0,0;3,00;5\n2;Bob;2;0;4,0\n", ""),
        ("game,winner,Ann,Bob,Cy\n1,ann,0,3,5\n2, BOB ,2,0,4\n", ""),
    ],
    ids=[
        "plain",
        "case-and-spaces",
        "german",
        "gewinner",
        "tabs",
        "quoted",
        "notes-first",
        "notes-among-players",
        "date-last",
        "empty-columns",
        "decimal-commas",
        "winner-case",
    ],
)
def test_headings_and_cells_are_read_as_a_person_reads_them(
    runner: Any, text: str, note: str
) -> None:
    (runner.cwd / "s.csv").write_text(text, encoding="utf-8")
    result = runner("standings", "s.csv")
    assert result.exit_code == 0, result.output
    series = load_series(runner.cwd / "s.csv")
    assert series.table.players == ("Ann", "Bob", "Cy")
    assert [game.winner for game in series.games] == ["Ann", "Bob"]
    assert series.games[0].left == {"Bob": 3, "Cy": 5}
    shown = f"{note} left as it is" if note else ""
    assert result.stderr == (f"Note: s.csv: sheetgen does not read {shown}\n" if note else "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "title,Friday\nround,winner,Ann,Bob\n1,Ann,0,3\n",
            "row 2: no column is headed game or Spiel (the games' numbers); the heading row "
            "names the columns game and winner, then one per player (found: round, winner, "
            "Ann, Bob)",
        ),
        (
            "Spiel;Gewonnen;Ann;Bob\n1;Ann;0;3\n",
            "row 1: no column is headed winner or Sieger (who went out); the heading row "
            "names the columns game and winner, then one per player (found: Spiel, "
            "Gewonnen, Ann, Bob)",
        ),
        (
            "colour,red\ngame,winner,Ann,Bob\n",
            "row 1: 'colour' is not a setting (game, title, scoring, target, games to play, "
            "bonus, per card, stock, team) and the row is not the heading row; the heading "
            "row names the columns game and winner, then one per player (found: colour, red)",
        ),
        (
            "game,winner,Ann,Robert,points,total Ann,total Bob\n1,Ann,0,3,40,40,0\n",
            "row 1, column G (total Bob): the total of Bob, but no column is headed Bob (the "
            "player columns: Ann, Robert); head a player's column and its total alike",
        ),
        (
            "game,winner,Ann,Bob,pts,total Ann,total Bob\n1,Ann,0,3,40,40,0\n",
            "row 1, column E (pts): this column stands where the points go, before the "
            "running totals; head it 'points' (or 'Punkte'), or, if it is a player's, give "
            "it a total ('total pts')",
        ),
        (
            "team,Red,Ann,Cy\nteam,Blue,Bob,Dan\ngame,winner,Ann,Bob,Cy,Di\n",
            "team: team Blue names Dan, but no column is headed Dan (the player columns: "
            "Ann, Bob, Cy, Di)",
        ),
        (
            "game,winner,Ann,Bob\n1,Ann,0,3,7\n",
            "game 1, row 2, column E: the cell holds '7', but its column has no heading; head "
            "the column (a player's name, or notes for notes) or clear the cell",
        ),
        ("game,winner,Ann,Bob\n1,Ann,0,\n", "game 1, left: no count for Bob"),
        (
            "game;winner;Ann;Bob\n1;Ann;0;3,5\n",
            "game 1, row 2, column D (Bob): '3,5' is not a whole number",
        ),
    ],
    ids=[
        "round",
        "gewonnen",
        "unknown-setting",
        "renamed-player",
        "renamed-points",
        "team-member",
        "cell-without-heading",
        "empty-count",
        "half-a-card",
    ],
)
def test_a_heading_sheetgen_does_not_know_is_named_with_what_was_expected(
    runner: Any, text: str, message: str
) -> None:
    (runner.cwd / "s.csv").write_text(text, encoding="utf-8")
    before = snapshot(runner.cwd)
    for command in (["standings"], ["record", "--winner", "Ann", "--left", "Bob=1"]):
        result = runner(command[0], "s.csv", *command[1:])
        assert result.exit_code == 1
        assert result.output == f"Error: s.csv, {message}\n"
    assert snapshot(runner.cwd) == before


# Points and Total cells typed by hand -------------------------------------------------------

EXPORT = (
    "title,Friday nights\ntarget,300\n"
    "game,winner,Zoë,Bob,Cy,points,total Zoë,total Bob,total Cy,notes\n"
    "1,Zoë,0,7,3,75,75,0,0,\n"
    "2,Bob,2,0,12,95,75,95,0,close\n"
)


@pytest.mark.parametrize(
    ("old", "new", "place"),
    [
        ("1,Zoë,0,7,3,75,", "1,Zoë,0,7,3,70,", "game 1, row 4, column F (points)"),
        ("95,75,95,0,close", "95,75,90,0,close", "game 2, row 5, column H (total Bob)"),
        ("1,Zoë,0,7,3,75,75,", "1,Zoë,0,7,3,75,80,", "game 1, row 4, column G (total Zoë)"),
        ("2,Bob,2,0,12,95", "2,Bob,2,0,11,95", "game 2, row 5, column F (points)"),
        ("95,75,95,0,close", "95,75,lots,0,close", "game 2, row 5, column H (total Bob)"),
    ],
    ids=["points", "total", "first-total", "cards-changed", "not-a-number"],
)
def test_a_points_or_total_cell_that_disagrees_is_refused_and_nothing_is_written(
    runner: Any, old: str, new: str, place: str
) -> None:
    (runner.cwd / "s.csv").write_text(EXPORT.replace(old, new), encoding="utf-8")
    before = snapshot(runner.cwd)
    for command in (
        ["standings"],
        ["record", "--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1"],
        ["undo", "--yes"],
        ["export", "--format", "json", "-o", "s.json"],
        ["fill", "-o", "s.pdf"],
    ):
        result = runner(command[0], "s.csv", *command[1:])
        assert result.exit_code == 1
        assert f"Error: s.csv, {place}: the cell says " in result.output
        assert "correct the cell or empty it" in result.output
    assert snapshot(runner.cwd) == before


@pytest.mark.parametrize(
    "edit",
    [
        ("1,Zoë,0,7,3,75,75,0,0,", "1,Zoë,0,7,3,,,,,"),
        ("2,Bob,2,0,12,95,75,95,0,close", '2,Bob,2,0,12,"95.00",75,95.0,,close'),
    ],
    ids=["emptied", "decimals"],
)
def test_an_empty_or_equal_points_cell_is_fine(runner: Any, edit: tuple[str, str]) -> None:
    (runner.cwd / "s.csv").write_text(EXPORT.replace(*edit), encoding="utf-8")
    result = runner("standings", "s.csv")
    assert result.exit_code == 0, result.output
    assert "Bob      95" in result.stdout


# Workbooks: export writes a real one, and every command reads it back ---------------------

HOSTILE = "=cmd|' /C calc'!A0,+Bob,@Cy,-Di"


def workbook(path: Path) -> Any:
    return openpyxl.load_workbook(path)


def cells(sheet: Any) -> list[list[Any]]:
    return [[cell.value for cell in row] for row in sheet.iter_rows()]


def test_export_xlsx_is_a_real_workbook_with_numbers_frozen_headings_and_widths(
    runner: Any,
) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    result = runner("export", "friday.yaml", "-o", "season.xlsx")
    assert result.exit_code == 0, result.output
    data = (runner.cwd / "season.xlsx").read_bytes()
    assert zipfile.is_zipfile(io.BytesIO(data)) and not data.lstrip().startswith(b"{")
    book = workbook(runner.cwd / "season.xlsx")
    assert book.sheetnames == ["Games", "Standings"]
    games, standings = book["Games"], book["Standings"]
    assert cells(games) == [
        ["Title", "Friday nights", None, None, None, None, None, None, None],
        ["Target", 300, None, None, None, None, None, None, None],
        ["Game", "Winner", "Zoë", "Bob", "Cy", "Points", "Total Zoë", "Total Bob", "Total Cy"],
        [1, "Zoë", 0, 7, 3, 75, 75, 0, 0],
        [2, "Bob", 2, 0, 12, 95, 75, 95, 0],
        [3, "Cy", 4, 9, 0, 90, 75, 95, 90],
    ]
    # Numbers are numbers, the totals values (no formulas), the heading row frozen and bold.
    assert all(cell.data_type == "n" for row in games.iter_rows(min_row=4) for cell in row[2:])
    assert not any(cell.data_type == "f" for sheet in book for row in sheet for cell in row)
    assert games.freeze_panes == "A4" and standings.freeze_panes == "A2"
    assert all(cell.font.bold for cell in games[3]) and all(cell.font.bold for cell in standings[1])
    assert games.column_dimensions["B"].width >= len("Winner") + 2
    assert games.column_dimensions["I"].width >= len("Total Cy")
    assert cells(standings) == [
        ["Player", "Total", "Games won", "Still needed to 300"],
        ["Bob", 95, 1, 205],
        ["Cy", 90, 1, 210],
        ["Zoë", 75, 1, 225],
    ]


def test_names_in_a_workbook_are_text_never_formulas(runner: Any) -> None:
    assert runner("new", "s.yaml", "--players", HOSTILE).exit_code == 0
    left = ["--left", "=cmd|' /C calc'!A0=3", "--left", "@Cy=2", "--left", "-Di=1"]
    assert runner("record", "s.yaml", "--winner", "+Bob", *left).exit_code == 0
    assert runner("export", "s.yaml", "-o", "s.xlsx").exit_code == 0
    book = workbook(runner.cwd / "s.xlsx")
    named = [
        cell
        for sheet in book
        for row in sheet
        for cell in row
        if isinstance(cell.value, str) and cell.value[:1] in "=+-@"
    ]
    assert {cell.value for cell in named} >= set(HOSTILE.split(","))
    assert all(cell.data_type == "s" and cell.quotePrefix for cell in named)
    raw = zipfile.ZipFile(runner.cwd / "s.xlsx").read("xl/worksheets/sheet1.xml")
    assert b"<f>" not in raw
    assert load_series(runner.cwd / "s.xlsx").table.players == tuple(HOSTILE.split(","))


@pytest.mark.parametrize("source", ["friday", "pairs", "cards"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_workbook_reads_back_in_every_command(runner: Any, source: str, lang: str) -> None:
    copy([SOURCES[source]], runner.cwd)
    name = f"{source}-{lang}.xlsx"
    assert runner("export", SOURCES[source], "--lang", lang, "-o", name).exit_code == 0
    book = workbook(runner.cwd / name)
    assert book.sheetnames == (["Games", "Standings"] if lang == "en" else ["Spiele", "Tabelle"])
    back, series = load_series(runner.cwd / name), load_series(runner.cwd / SOURCES[source])
    assert (back.title, back.table, back.games, back.scoring) == (
        series.title,
        series.table,
        series.games,
        series.scoring,
    )
    assert runner("standings", name).stdout == runner("standings", SOURCES[source]).stdout
    exported = runner("export", name, "--format", "json")
    assert json.loads(exported.stdout) == json.loads(runner("export", SOURCES[source]).stdout)
    (runner.cwd / SOURCES[source]).unlink()  # else fill leaves out the export beside it
    filled = runner("fill", ".", "-o", "sheet.pdf")
    assert filled.exit_code == 0, filled.output
    assert series.title is not None and series.title in pdf_text(runner.cwd / "sheet.pdf")


@pytest.mark.parametrize(
    ("command", "doing"),
    [
        (["record", "--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1"], "change"),
        (["undo", "--yes"], "change"),
    ],
)
def test_record_and_undo_read_a_workbook_but_do_not_change_it(
    runner: Any, command: list[str], doing: str
) -> None:
    copy(["lo-friday.xlsx"], runner.cwd)
    before = snapshot(runner.cwd)
    result = runner(command[0], "lo-friday.xlsx", *command[1:])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: lo-friday.xlsx: sheetgen reads a workbook but does not {doing} one (a "
        "spreadsheet keeps more in it than sheetgen could write back); type the game into "
        "its games sheet, or keep the series in a .yaml, .json or .csv file and export the "
        "workbook from it\n"
    )
    assert snapshot(runner.cwd) == before


def test_new_does_not_start_a_workbook(runner: Any) -> None:
    result = runner("new", "s.xlsx", "--players", "Ann,Bob")
    assert result.exit_code == 1
    assert result.output == (
        "Error: s.xlsx: new starts a .yaml, .json or .csv series; a workbook is made from a "
        "series with: sheetgen export FILE --format xlsx\n"
    )
    assert not (runner.cwd / "s.xlsx").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-o", "season.ods"],
            "season.ods: sheetgen writes workbooks as .xlsx, not .ods; name it .xlsx "
            "(LibreOffice opens it) or choose another format: .json, .csv, .md or .xlsx",
        ),
        (
            ["--format", "xlsx", "-o", "season.ods"],
            "season.ods: sheetgen writes workbooks as .xlsx, not .ods; name it .xlsx "
            "(LibreOffice opens it) or choose another format: .json, .csv, .md or .xlsx",
        ),
        (
            ["-o", "noext"],
            "noext: the name has no extension, so it says nothing of the format; end the "
            "name in .json, .csv, .md or .xlsx, or give --format",
        ),
        (
            ["-o", "season.dat"],
            "season.dat: a .dat file says nothing of the format; end the name in .json, "
            ".csv, .md or .xlsx, or give --format",
        ),
    ],
    ids=["ods", "ods-format", "no-extension", "unknown"],
)
def test_a_name_that_leaves_the_format_unclear_is_refused(
    runner: Any, args: list[str], message: str
) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    before = snapshot(runner.cwd)
    result = runner("export", "friday.yaml", *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: {message}"
    assert snapshot(runner.cwd) == before


@pytest.mark.parametrize("fmt", ["json", "xlsx", "csv"])
def test_a_name_without_extension_takes_the_format_asked_for(runner: Any, fmt: str) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    result = runner("export", "friday.yaml", "--format", fmt, "-o", "noext")
    assert result.exit_code == 0, result.output
    data = (runner.cwd / "noext").read_bytes()
    assert data.startswith({"json": b"{", "xlsx": b"PK\x03\x04", "csv": b"title,"}[fmt])


def test_a_workbook_goes_to_standard_output_only_when_piped(runner: Any) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    result = runner("export", "friday.yaml", "--format", "xlsx")
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes.startswith(b"PK\x03\x04")


def test_export_replaces_its_own_workbook_but_not_a_spreadsheets(runner: Any) -> None:
    (runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    assert runner("export", "friday.yaml", "-o", "f.xlsx").exit_code == 0
    again = runner("export", "friday.yaml", "-o", "f.xlsx")
    assert again.exit_code == 0, again.output
    copy(["lo-friday.xlsx"], runner.cwd)  # saved by Calc: the club's file now
    before = snapshot(runner.cwd)
    result = runner("export", "friday.yaml", "-o", "lo-friday.xlsx")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: lo-friday.xlsx: is not a XLSX file sheetgen wrote, and writing would replace "
        "it; choose another name, or add --force to replace it"
    )
    assert snapshot(runner.cwd) == before


def test_a_workbook_beside_its_series_is_left_out_of_a_season(runner: Any) -> None:
    copy(["friday.yaml", "pairs.yaml"], runner.cwd)
    assert runner("export", "friday.yaml", "-o", "friday.xlsx").exit_code == 0
    result = runner("standings", ".")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("friday.yaml\n")
    assert "Season: 2 series, 5 games" in result.stdout
    assert result.stderr == (
        "Note: friday.xlsx: an export of friday.yaml (its games); left out, so they count once\n"
    )


# A season: one workbook, players and teams apart ---------------------------------------


def test_a_season_exports_to_one_workbook_of_tables_and_games_sheets(runner: Any) -> None:
    copy(["friday.yaml", "pairs.yaml", "cards.yaml"], runner.cwd)
    result = runner("export", "friday.yaml", "pairs.yaml", "cards.yaml", "-o", "season.xlsx")
    assert result.exit_code == 0, result.output
    book = workbook(runner.cwd / "season.xlsx")
    assert book.sheetnames == ["Players", "Teams", "friday", "pairs", "cards"]
    assert cells(book["Players"])[0] == [
        "Player",
        "Series",
        "Series won",
        "Games",
        "Games won",
        "Points",
        "Cards left",
    ]
    players = {row[0]: row[1:] for row in cells(book["Players"])[1:]}
    # Ann: pairs (Red, with Cy: one game won, 95 points) and cards (3 cards left, one win).
    assert players["Ann"] == [2, 0, 4, 2, 95, 3]
    assert players["Zoë"] == [1, 0, 3, 1, 75, 0]
    assert cells(book["Teams"]) == [
        ["Team", "Partners", "Series", "Series won", "Games", "Games won", "Points", "Cards left"],
        ["Red", "Ann + Cy", 1, 0, 2, 1, 95, 0],
        ["Blue", "Bob + Di", 1, 0, 2, 1, 60, 0],
    ]
    assert cells(book["pairs"])[4][:3] == ["Game", "Winner", "Ann"]
    # Named, the season's workbook is refused as a series; in a folder it is left out.
    named = runner("standings", "season.xlsx")
    assert named.exit_code == 1
    assert named.output == (
        "Error: season.xlsx: the sheets 'friday', 'pairs', 'cards' each hold games; sheetgen "
        "reads a workbook of one series (a season's workbook is for reading in a "
        "spreadsheet: give the series files themselves)\n"
    )
    folder = runner("standings", ".")
    assert folder.exit_code == 0, folder.output
    assert folder.stderr == (
        "Note: season.xlsx: a season's workbook that sheetgen exported; left out, as its "
        "series are files\n"
    )


def test_players_are_one_person_whatever_the_case_and_teams_are_their_two_players(
    runner: Any,
) -> None:
    """ "ann" in one series is Ann of another; a team is its name and its partners: Red of
    Ann and Cy is not Red of Bob and Di."""
    (runner.cwd / "a.yaml").write_text(
        "players: [Ann, Bob, Cy, Di]\nteams: {Red: [Ann, Cy], Blue: [Bob, Di]}\n"
        "games:\n  - winner: Red\n    left: {Bob: 1, Di: 1}\n",
        encoding="utf-8",
    )
    (runner.cwd / "b.yaml").write_text(
        "players: [ann, bob, cy, di]\nteams: {Red: [bob, di], Blue: [ann, cy]}\n"
        "games:\n  - winner: Red\n    left: {ann: 2, cy: 2}\n",
        encoding="utf-8",
    )
    data = json.loads(runner("export", "a.yaml", "b.yaml").stdout)["season"]
    # Each partner gets the team's win and points: Bob and Di won b.yaml as Red, Ann and Cy
    # a.yaml as Red; a name is shown as it was first written.
    assert [
        (row["name"], row["games"], row["games_won"], row["points"]) for row in data["players"]
    ] == [
        ("Bob", 2, 1, 45),
        ("Di", 2, 1, 45),
        ("Ann", 2, 1, 35),
        ("Cy", 2, 1, 35),
    ]
    assert [(row["name"], row["members"], row["points"]) for row in data["teams"]] == [
        ("Red", ["bob", "di"], 45),
        ("Red", ["Ann", "Cy"], 35),
        ("Blue", ["ann", "cy"], 0),
        ("Blue", ["Bob", "Di"], 0),
    ]


def bare_name_columns(fmt: str, folder: Path) -> dict[str, list[int]]:
    """Each column headed by a player's bare name in an export, by player: its numbers."""
    players = ["Zoë", "Bob", "Cy"]
    if fmt == "xlsx":
        rows = cells(workbook(folder / "f.xlsx")["Games"])[2:]
    elif fmt == "csv":
        rows = [line.split(",") for line in (folder / "f.csv").read_text("utf-8").splitlines()][2:]
    else:
        text = (folder / "f.md").read_text("utf-8")
        table = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
        rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table[4:]]
    heading = [str(cell) for cell in rows[0]]
    return {p: [int(row[heading.index(p)]) for row in rows[1:]] for p in players}


@pytest.mark.parametrize("fmt", ["csv", "md", "xlsx"])
def test_a_bare_name_column_means_cards_left_in_every_format(runner: Any, fmt: str) -> None:
    copy(["friday.yaml"], runner.cwd)
    assert runner("export", "friday.yaml", "-o", f"f.{fmt}").exit_code == 0
    games = json.loads(runner("export", "friday.yaml").stdout)["games"]
    assert bare_name_columns(fmt, runner.cwd) == {
        player: [game["left"].get(player, 0) for game in games] for player in ("Zoë", "Bob", "Cy")
    }


# Whole sentences in both languages --------------------------------------------------------


def series_text(players: str, games: str, **head: object) -> str:
    lines = [f"{key}: {value}" for key, value in head.items()]
    return "\n".join([*lines, f"players: {players}", "games:", games]) + "\n"


PAIRS_HEAD = {"teams": "{Red: [Ann, Cy], Blue: [Bob, Di]}"}
SENTENCES = {
    "no-games": (
        series_text("[Ann, Bob]", ""),
        "The first player to reach 500 points wins the series. No games have been played yet.",
        "Wer zuerst 500 Punkte erreicht, gewinnt die Serie. Es wurde noch kein Spiel gespielt.",
    ),
    "leader": (
        series_text("[Ann, Bob]", "  - {winner: Ann, left: {Bob: 2}}"),
        "The first player to reach 500 points wins the series. So far, one game has been "
        "played. **Ann** leads and needs 465 more points.",
        "Wer zuerst 500 Punkte erreicht, gewinnt die Serie. Bisher wurde ein Spiel gespielt. "
        "**Ann** führt und braucht noch 465 Punkte.",
    ),
    "one-more-point": (
        series_text("[Ann, Bob]", "  - {winner: Ann, left: {Bob: 2}}", target=36),
        "The first player to reach 36 points wins the series. So far, one game has been "
        "played. **Ann** leads and needs one more point.",
        "Wer zuerst 36 Punkte erreicht, gewinnt die Serie. Bisher wurde ein Spiel gespielt. "
        "**Ann** führt und braucht noch einen Punkt.",
    ),
    "level": (
        series_text(
            "[Ann, Bob, Cy]",
            "  - {winner: Ann, left: {Bob: 1, Cy: 1}}\n  - {winner: Bob, left: {Ann: 1, Cy: 1}}",
            target=2000,
        ),
        "The first player to reach 2000 points wins the series. So far, 2 games have been "
        "played. **Ann** and **Bob** are level on 35 points.",
        "Wer zuerst 2.000 Punkte erreicht, gewinnt die Serie. Bisher wurden 2 Spiele "
        "gespielt. **Ann** und **Bob** liegen mit 35 Punkten gleichauf.",
    ),
    "won": (
        series_text("[Ann, Bob]", "  - {winner: Bob, left: {Ann: 30}}", target=100),
        "The first player to reach 100 points wins the series. So far, one game has been "
        "played. **Bob** won the series in game 1.",
        "Wer zuerst 100 Punkte erreicht, gewinnt die Serie. Bisher wurde ein Spiel gespielt. "
        "**Bob** hat die Serie im 1. Spiel gewonnen.",
    ),
    "teams": (
        series_text("[Ann, Bob, Cy, Di]", "  - {winner: Red, left: {Bob: 1, Di: 1}}", **PAIRS_HEAD),
        "The first team to reach 500 points wins the series. So far, one game has been "
        "played. **Red (Ann + Cy)** leads and needs 465 more points.",
        "Das Team, das zuerst 500 Punkte erreicht, gewinnt die Serie. Bisher wurde ein Spiel "
        "gespielt. **Red (Ann + Cy)** führt und braucht noch 465 Punkte.",
    ),
    "cards-one-game": (
        series_text("[Ann, Bob]", "", scoring="cards-left", games_to_play=1),
        "After one game, the player with the fewest cards left wins the series. No games "
        "have been played yet.",
        "Nach einem Spiel gewinnt, wer die wenigsten Restkarten hat. Es wurde noch kein Spiel "
        "gespielt.",
    ),
    "cards-leader": (
        series_text(
            "[Ann, Bob]", "  - {winner: Ann, left: {Bob: 4}}", scoring="cards-left", games_to_play=3
        ),
        "After 3 games, the player with the fewest cards left in all wins the series. So far, "
        "one game has been played. **Ann** leads with 2 games to play.",
        "Nach 3 Spielen gewinnt, wer insgesamt die wenigsten Restkarten hat. Bisher wurde ein "
        "Spiel gespielt. **Ann** führt; 2 Spiele stehen noch aus.",
    ),
    "cards-level": (
        series_text(
            "[Ann, Bob]",
            "  - {winner: Ann, left: {Bob: 4}}\n  - {winner: Bob, left: {Ann: 4}}",
            scoring="cards-left",
            games_to_play=3,
        ),
        "After 3 games, the player with the fewest cards left in all wins the series. So far, "
        "2 games have been played. **Ann** and **Bob** are level on 4 cards left, with one "
        "game to play.",
        "Nach 3 Spielen gewinnt, wer insgesamt die wenigsten Restkarten hat. Bisher wurden 2 "
        "Spiele gespielt. **Ann** und **Bob** liegen mit 4 Restkarten gleichauf; ein Spiel "
        "steht noch aus.",
    ),
    "cards-tie": (
        series_text(
            "[Ann, Bob]",
            "  - {winner: Ann, left: {Bob: 4}}\n  - {winner: Bob, left: {Ann: 4}}",
            scoring="cards-left",
            games_to_play=2,
        ),
        "After 2 games, the player with the fewest cards left in all wins the series. So far, "
        "2 games have been played. The series ended in a tie: **Ann** and **Bob** have the "
        "fewest cards left, 4 each.",
        "Nach 2 Spielen gewinnt, wer insgesamt die wenigsten Restkarten hat. Bisher wurden 2 "
        "Spiele gespielt. Die Serie endet unentschieden: **Ann** und **Bob** haben mit je 4 "
        "Restkarten die wenigsten.",
    ),
    "cards-teams": (
        series_text(
            "[Ann, Bob, Cy, Di]",
            "  - {winner: Red, left: {Bob: 1, Di: 2}}",
            scoring="cards-left",
            games_to_play=4,
            **PAIRS_HEAD,
        ),
        "After 4 games, the team with the fewest cards left in all wins the series. So far, "
        "one game has been played. **Red (Ann + Cy)** leads with 3 games to play.",
        "Nach 4 Spielen gewinnt das Team mit den wenigsten Restkarten. Bisher wurde ein Spiel "
        "gespielt. **Red (Ann + Cy)** führt; 3 Spiele stehen noch aus.",
    ),
}


@pytest.mark.parametrize("case", sorted(SENTENCES))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_markdown_export_says_where_the_series_stands_in_whole_sentences(
    runner: Any, case: str, lang: str
) -> None:
    text, english, german = SENTENCES[case]
    (runner.cwd / "s.yaml").write_text(text, encoding="utf-8")
    result = runner("export", "s.yaml", "--format", "md", "--lang", lang)
    assert result.exit_code == 0, result.output
    prose = result.stdout.split("\n\n")[1]
    assert prose == (english if lang == "en" else german)
    # The fragments the German export once had, and no other language's words.
    for wrong in ("erreicht;", "Spiele gespielt.\n", "Partei", "Noch kein Sieger"):
        assert wrong not in result.stdout
    other = ("Punkte", "Spiele", "Serie") if lang == "en" else (" the ", "games", "wins", "Total")
    assert not any(word in result.stdout for word in other), result.stdout


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seasons_sentences_and_tables_in_both_languages(runner: Any, lang: str) -> None:
    copy(["friday.yaml", "pairs.yaml", "cards.yaml"], runner.cwd)
    result = runner("export", ".", "--format", "md", "--lang", lang)
    assert result.exit_code == 0, result.output
    intro = result.stdout.split("\n\n")[1]
    assert (
        intro
        == {
            "en": "The season has 3 series and 7 games. A team's results count for each of its "
            "two partners. Points come from the series scored by points, cards left from the "
            "series scored by cards left.",
            "de": "Die Saison umfasst 3 Serien mit insgesamt 7 Spielen. Die Ergebnisse eines "
            "Teams zählen für jeden seiner beiden Partner. Die Punkte stammen aus den Serien mit "
            "Punktwertung, die Restkarten aus den Serien, die nach Restkarten gewertet werden.",
        }[lang]
    )
    heads = {
        "en": (
            "## Players",
            "| Player | Series | Series won | Games | Games won | Points | Cards left |",
            "## Teams",
            "| Team | Partners |",
        ),
        "de": (
            "## Spieler",
            "| Spieler | Serien | Serien gewonnen | Spiele | Siege | Punkte | Restkarten |",
            "## Teams",
            "| Team | Partner |",
        ),
    }[lang]
    assert all(head in result.stdout for head in heads)
    assert "Partei" not in result.stdout and "| Side |" not in result.stdout


@pytest.mark.parametrize(
    ("games", "english", "german"),
    [
        ("", "one series and no games yet", "eine Serie mit noch keinem Spiel"),
        (
            "  - {winner: Ann, left: {Bob: 3}}",
            "one series and one game",
            "eine Serie mit einem Spiel",
        ),
    ],
)
def test_a_season_of_one_series_counts_in_words(
    runner: Any, games: str, english: str, german: str
) -> None:
    (runner.cwd / "club").mkdir()
    (runner.cwd / "club" / "s.yaml").write_text(series_text("[Ann, Bob]", games), "utf-8")
    result = runner("export", "club", "--format", "md")
    assert result.exit_code == 0, result.output
    assert result.stdout.split("\n\n")[1] == f"The season has {english}."
    result = runner("export", "club", "--format", "md", "--lang", "de")
    assert result.stdout.split("\n\n")[1] == f"Die Saison umfasst {german}."


def test_every_sentence_the_exports_say_has_its_german() -> None:
    """Each text handed to ``say`` as it is written in the code has a German entry, and
    each entry is said somewhere (the f-strings' cases are in SENTENCES above)."""
    import ast

    from sheetgen.series import markdown, words, xlsxfile

    said = set()
    for module in (words, markdown, xlsxfile):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "say":
                text = node.args[1]
                if isinstance(text, ast.Constant):
                    said.add(text.value)
                elif isinstance(text, ast.Name):  # text = "..." just before
                    said |= {
                        n.value.value
                        for n in ast.walk(tree)
                        if isinstance(n, ast.Assign)
                        and getattr(n.targets[0], "id", None) == text.id
                        and isinstance(n.value, ast.Constant)
                    }
    assert said - set(words.GERMAN) == set()
    assert all(
        german.strip() and german != english
        for english, german in words.GERMAN.items()
        if english not in ("Teams", "Team", "Bonus")
    )


def test_a_workbook_carries_the_documents_one_time(runner: Any) -> None:
    """Under SOURCE_DATE_EPOCH a workbook is the same bytes however often it is made: its
    properties (openpyxl would date the save) and every part carry that time."""
    copy(["friday.yaml"], runner.cwd)
    env = {"SOURCE_DATE_EPOCH": "1700000000"}
    assert runner("export", "friday.yaml", "-o", "a.xlsx", env=env).exit_code == 0
    archive = zipfile.ZipFile(runner.cwd / "a.xlsx")
    core = archive.read("docProps/core.xml").decode()
    assert core.count("2023-11-14T22:13:20Z") == 2  # created and modified
    assert {part.date_time for part in archive.infolist()} == {(2023, 11, 14, 22, 13, 20)}
    assert archive.namelist()[0] == "docProps/core.xml"
    assert archive.getinfo("docProps/core.xml").compress_type == zipfile.ZIP_STORED


# Any dialect, any names: record writes the row the dialect would ---------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

NAMES = st.lists(
    st.text(alphabet="AbcÄßé ,;\"'=+@-\t", min_size=1, max_size=6).filter(
        lambda s: s == s.strip() and any(c.isalpha() for c in s) and "\t" not in s
    ),
    min_size=2,
    max_size=4,
    unique_by=lambda s: " ".join(s.split()).casefold(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=NAMES,
    delimiter=st.sampled_from([",", ";", "\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    quoting=st.sampled_from(["minimal", "text", "all"]),
    bom=st.booleans(),
    data=st.data(),
)
def test_record_writes_in_the_files_own_dialect_whatever_it_is(
    tmp_path_factory: pytest.TempPathFactory,
    names: list[str],
    delimiter: str,
    newline: str,
    quoting: str,
    bom: bool,
    data: st.DataObject,
) -> None:
    from dataclasses import replace

    from sheetgen.game.scoring import Game, Series, score_series
    from sheetgen.game.seating import make_table
    from sheetgen.series.csvfile import Dialect, export_text, line
    from sheetgen.series.record import record_game

    dialect = Dialect(delimiter, newline, quoting, bom=bom, guard=True)
    table = make_table(names)
    games = []
    for _ in range(data.draw(st.integers(0, 2))):
        winner = data.draw(st.sampled_from(names))
        games.append(Game(winner, {n: data.draw(st.integers(1, 9)) for n in names if n != winner}))
    series = Series(table, tuple(games), title="Club")
    path = tmp_path_factory.mktemp("dialect") / "s.csv"
    text = export_text(score_series(series), "en", dialect)
    path.write_bytes(text.encode("utf-8"))
    winner = data.draw(st.sampled_from(names))
    new = Game(winner, {n: data.draw(st.integers(1, 9)) for n in names if n != winner})
    result = record_game(path, new)
    last = result.games[-1]
    row = [
        last.number,
        winner,
        *(new.left.get(n, 0) for n in names),
        last.points,
        *(last.totals[n] for n in names),
    ]
    # A file of no games shows no number: quoted or not, its numbers are then taken to be
    # as a spreadsheet writes them with every text cell quoted.
    shown = dialect if games or quoting != "all" else replace(dialect, quoting="text")
    assert path.read_bytes().decode("utf-8") == text + line(row, shown) + newline
    assert load_series(path).games == (*games, new)


def test_a_csv_file_in_the_windows_code_page_is_refused_with_how_to_save_it(runner: Any) -> None:
    """Excel's plain "CSV" is Windows-1252; its "CSV UTF-8" reads."""
    (runner.cwd / "s.csv").write_bytes("game;winner;Zoë;Bob\n1;Zoë;0;3\n".encode("cp1252"))
    result = runner("standings", "s.csv")
    assert result.exit_code == 1
    assert result.output == (
        "Error: s.csv, line 1: is not UTF-8 text: character 15 is the byte 0xEB ('ë' in the "
        'Windows code page); save it from the spreadsheet as "CSV UTF-8" '
        "(LibreOffice: Text CSV with the character set Unicode (UTF-8))\n"
    )
    # The line and the character are counted as a reader counts them, past what decodes.
    (runner.cwd / "t.csv").write_bytes("game;winner;Zoë;Bob\n1;Bob;0;3\n2;Zoë;".encode() + b"\x81")
    result = runner("standings", "t.csv")
    assert result.output.startswith(
        "Error: t.csv, line 3: is not UTF-8 text: character 7 is the byte 0x81; save it"
    )


def test_a_heading_cell_with_a_line_break_is_named_on_one_line(runner: Any, tmp_path: Path) -> None:
    """Found by the hostile test's generator: a cell's line break or NUL is escaped in the
    message, which stays one line."""
    path = tmp_path / "odd.csv"
    path.write_bytes(b'"na\nme",winner,Ann\n\x00x,Ann,0\n')
    result = runner("standings", str(path))
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "na\\nme" in result.output, result.output
