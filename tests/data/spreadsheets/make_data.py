"""Make the spreadsheet test data: sheetgen's own exports, workbooks laid out by hand as a
club secretary would in Excel (written with openpyxl), and what LibreOffice Calc saves of
both. Run it from the repository's root (needs LibreOffice: ``soffice`` on the PATH):

    .venv/bin/python tests/data/spreadsheets/make_data.py

It writes into tests/data/spreadsheets/ and prints every command it runs; README.md
there lists them. Not run by the tests, nor in CI: the files it made are committed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import openpyxl
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent
SHEETGEN = str(Path(sys.executable).with_name("sheetgen"))
# LibreOffice's CSV filter: field separator, text delimiter ("), UTF-8 (76), first line,
# cell format, language, "quote all text cells", "detect special numbers", "save cell
# contents as shown", "export formulas", "remove spaces", and the sheet to write (the
# games sheet: the first of sheetgen's workbooks, the second of the hand-made ones).
FILTER = "csv:Text - txt - csv (StarCalc):{sep},34,76,1,,0,{quote},true,true,false,false,{sheet}"
COMMA = FILTER.format(sep=44, quote="false", sheet=1)
SEMICOLON = FILTER.format(sep=59, quote="true", sheet=1)
HAND_COMMA = FILTER.format(sep=44, quote="false", sheet=2)
HAND_SEMICOLON = FILTER.format(sep=59, quote="true", sheet=2)
XLSX = "xlsx:Calc MS Excel 2007 XML"
GERMAN = {"LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"}

FRIDAY = """\
title: Friday nights
target: 300
players: [Zoë, Bob, Cy]
games:
  - winner: Zoë
    left: {Bob: 7, Cy: 3}
  - winner: Bob
    left: {Zoë: 2, Cy: 12}
  - winner: Cy
    left: {Zoë: 4, Bob: 9}
"""
PAIRS = """\
title: Pairs
players: [Ann, Bob, Cy, Di]
teams:
  Red: [Ann, Cy]
  Blue: [Bob, Di]
stock: 20
games:
  - winner: Red
    left: {Bob: 4, Di: 10}
  - winner: Blue
    left: {Ann: 6, Cy: 1}
"""
CARDS = """\
title: Short evenings
scoring: cards-left
games_to_play: 4
players: [Ann, Bob, Cy]
games:
  - winner: Ann
    left: {Bob: 5, Cy: 8}
  - winner: Cy
    left: {Ann: 3, Bob: 2}
"""


def run(command: list[str], env: dict[str, str] | None = None) -> None:
    shown = " ".join(f"{key}={value}" for key, value in (env or {}).items())
    print("$", shown, " ".join(f"'{part}'" if " " in part else part for part in command))
    import os

    subprocess.run(command, check=True, env={**os.environ, **(env or {})}, capture_output=True)


def libreoffice(source: Path, to: str, name: str, env: dict[str, str] | None = None) -> None:
    """What LibreOffice Calc saves of ``source`` (headless), kept as ``name``."""
    with tempfile.TemporaryDirectory() as out:
        run(["soffice", "--headless", "--convert-to", to, "--outdir", out, str(source)], env)
        made = next(Path(out).iterdir())
        shutil.move(made, HERE / name)


def libreoffice_csv(source: Path, to: str, name: str, env: dict[str, str] | None = None) -> None:
    """What LibreOffice Calc saves of a CSV file it opened with commas between cells."""
    with tempfile.TemporaryDirectory() as out:
        copy = Path(out) / "in" / source.name
        copy.parent.mkdir()
        shutil.copy(source, copy)
        command = ["soffice", "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", to]
        run([*command, "--outdir", out, str(copy)], env)
        made = next(path for path in Path(out).iterdir() if path.is_file())
        shutil.move(made, HERE / name)


def by_hand(name: str, rows: list[list[object]], heading: int, decimals: bool = False) -> Path:
    """A workbook as a club keeps its season in Excel: a notes sheet first, then the games
    sheet with a bold, frozen heading row; cards in a number format with two decimals
    where ``decimals`` (shown 7,00 in German)."""
    book = openpyxl.Workbook()
    notes = book.active
    notes.title = "Notes"
    notes["A1"] = "Our club's Skip-Bo season. The games are on the next sheet."
    sheet = book.create_sheet("Games")
    for row in rows:
        sheet.append(row)
    for cell in sheet[heading]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = f"A{heading + 1}"
    if decimals:
        for row in sheet.iter_rows(min_row=heading + 1):
            for cell in row:
                if isinstance(cell.value, int) and cell.column > 2:
                    cell.number_format = "0.00"
    path = HERE / name
    book.save(path)
    return path


def main() -> None:
    for old in HERE.iterdir():
        if old.suffix in (".csv", ".xlsx", ".yaml"):
            old.unlink()
    for name, text in (("friday.yaml", FRIDAY), ("pairs.yaml", PAIRS), ("cards.yaml", CARDS)):
        (HERE / name).write_text(text, encoding="utf-8")
    with tempfile.TemporaryDirectory() as work:
        for stem in ("friday", "pairs", "cards"):
            source = str(HERE / f"{stem}.yaml")
            run([SHEETGEN, "export", source, "--lang", "en", "-o", str(HERE / f"{stem}.csv")])
            run([SHEETGEN, "export", source, "--lang", "en", "-o", str(HERE / f"{stem}.xlsx")])
            german = Path(work) / f"{stem}-de.xlsx"
            run([SHEETGEN, "export", source, "--lang", "de", "-o", str(german)])
            libreoffice(HERE / f"{stem}.xlsx", XLSX, f"lo-{stem}.xlsx")
            libreoffice(HERE / f"{stem}.xlsx", COMMA, f"lo-{stem}-comma.csv")
            libreoffice(german, SEMICOLON, f"lo-{stem}-de-semicolon.csv", GERMAN)
        libreoffice_csv(HERE / "friday.csv", SEMICOLON, "lo-friday-csv-semicolon.csv", GERMAN)
        libreoffice_csv(HERE / "friday.csv", COMMA, "lo-friday-csv-comma.csv")
    hand = by_hand(
        "excel-hand.xlsx",
        [
            ["Title", "Friday nights"],
            ["Target", 300],
            [],
            ["Date", "Game", "Winner", "Zoë", "Bob", "Cy", "Notes"],
            ["2024-05-03", 1, "Zoë", 0, 7, 3, "Zoë's first win"],
            ["2024-05-10", 2, "bob", 2, 0, 12, None],
            ["2024-05-17", 3, "Cy", 4, 9, 0, "late night, 11 pm"],
        ],
        heading=4,
    )
    libreoffice(hand, XLSX, "lo-hand.xlsx")
    libreoffice(hand, HAND_COMMA, "lo-hand-comma.csv")
    libreoffice(hand, HAND_SEMICOLON, "lo-hand-semicolon.csv", GERMAN)
    german = by_hand(
        "excel-german.xlsx",
        [
            ["Titel", "Freitagsrunde"],
            ["Ziel", 300],
            [
                "SPIEL",
                "Sieger",
                "Zoë",
                "Bob",
                "Cy",
                "Punkte",
                "Summe Zoë",
                "Summe Bob",
                "Summe Cy",
                "Bemerkung",
            ],
            [1, "Zoë", 0, 7, 3, 75, 75, 0, 0, "gut gespielt"],
            [2, "Bob", 2, 0, 12, 95, 75, 95, 0, None],
            [3, "Cy", 4, 9, 0, 90, 75, 95, 90, None],
        ],
        heading=3,
        decimals=True,
    )
    libreoffice(german, XLSX, "lo-german.xlsx", GERMAN)
    libreoffice(german, HAND_SEMICOLON, "lo-german-semicolon.csv", GERMAN)
    wrong = by_hand(
        "excel-wrong-total.xlsx",
        [
            ["Title", "Friday nights"],
            ["Target", 300],
            ["Game", "Winner", "Zoë", "Bob", "Cy", "Points", "Total Zoë", "Total Bob", "Total Cy"],
            [1, "Zoë", 0, 7, 3, 75, 75, 0, 0],
            [2, "Bob", 2, 0, 12, 95, 75, 100, 0],
        ],
        heading=3,
    )
    libreoffice(wrong, XLSX, "lo-wrong-total.xlsx")
    libreoffice(wrong, HAND_SEMICOLON, "lo-wrong-total-semicolon.csv", GERMAN)
    renamed = by_hand(
        "excel-renamed.xlsx",
        [
            ["Title", "Friday nights"],
            ["Target", 300],
            ["Game", "Winner", "Zoë", "Bob", "Cy", "pts", "Total Zoë", "Total Bob", "Total Cy"],
            [1, "Zoë", 0, 7, 3, 75, 75, 0, 0],
        ],
        heading=3,
    )
    libreoffice(renamed, HAND_COMMA, "lo-renamed-comma.csv")


if __name__ == "__main__":
    main()
