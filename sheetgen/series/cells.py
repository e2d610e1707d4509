"""Cells as a spreadsheet holds them: the words of a games sheet's headings and settings
(English and German, as sheetgen writes them and as a person reads them), column letters,
and whole numbers written with a decimal comma or point.

A CSV file and a workbook's games sheet share these: ``grid`` reads either through them.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from typing import Any

# What a cell of a games sheet may hold: text from a CSV file; from a workbook also
# numbers, truth values and dates (openpyxl's types), or nothing.
Cell = Any

# The columns a games sheet has besides one per player, and the words that head them
# (compared as ``heading`` makes them): English and German, as sheetgen writes them.
COLUMNS = {
    "game": ("game", "spiel"),
    "winner": ("winner", "sieger", "gewinner"),
    "points": ("points", "punkte"),
}
# A running total's heading is one of these words and then the side's name: "total Ann".
TOTAL_WORDS = ("total", "summe")
# Settings rows before the heading row: the series file's key and the words for it.
SETTINGS = {
    "game": ("game", "spiel"),
    "title": ("title", "titel"),
    "scoring": ("scoring", "wertung"),
    "target": ("target", "ziel"),
    "games_to_play": ("games to play", "anzahl spiele"),
    "bonus": ("bonus",),
    "per_card": ("per card", "pro karte"),
    "stock": ("stock", "karten im spielerstapel", "spielerstapel"),
    "team": ("team",),
}
# Columns a club adds for itself; sheetgen leaves them as they are and does not read them.
OWN_COLUMNS = frozenset(
    {
        "notes",
        "note",
        "comment",
        "comments",
        "remarks",
        "remark",
        "date",
        "place",
        "notizen",
        "notiz",
        "bemerkung",
        "bemerkungen",
        "kommentar",
        "kommentare",
        "anmerkung",
        "anmerkungen",
        "datum",
        "ort",
    }
)

# How sheetgen heads the columns and settings it writes, by language and by kind of file:
# a CSV file in English keeps the lower-case keys it always had.
_WRITTEN = {
    ("en", "csv"): {
        "game": "game",
        "winner": "winner",
        "points": "points",
        "total": "total {side}",
        "title": "title",
        "scoring": "scoring",
        "target": "target",
        "games_to_play": "games_to_play",
        "bonus": "bonus",
        "per_card": "per_card",
        "stock": "stock",
        "team": "team",
    },
    ("en", "xlsx"): {
        "game": "Game",
        "winner": "Winner",
        "points": "Points",
        "total": "Total {side}",
        "title": "Title",
        "scoring": "Scoring",
        "target": "Target",
        "games_to_play": "Games to play",
        "bonus": "Bonus",
        "per_card": "Per card",
        "stock": "Stock",
        "team": "Team",
    },
    ("de", "csv"): {
        "game": "Spiel",
        "winner": "Sieger",
        "points": "Punkte",
        "total": "Summe {side}",
        "title": "Titel",
        "scoring": "Wertung",
        "target": "Ziel",
        "games_to_play": "Anzahl Spiele",
        "bonus": "Bonus",
        "per_card": "Pro Karte",
        "stock": "Karten im Spielerstapel",
        "team": "Team",
    },
}
_WRITTEN["de", "xlsx"] = _WRITTEN["de", "csv"]


def written(key: str, code: str = "en", kind: str = "csv", side: str = "") -> str:
    """How sheetgen heads column or setting ``key`` in language ``code`` in a ``kind`` file."""
    words = _WRITTEN.get((code, kind), _WRITTEN["en", kind])
    return words[key].format(side=side)


def heading(text: str) -> str:
    """A heading or key as a person reads it: no case, single spaces, ``_`` and ``-`` as
    spaces, no colon at the end, composed Unicode and no invisible characters."""
    visible = "".join(
        char for char in unicodedata.normalize("NFC", text) if unicodedata.category(char) != "Cf"
    )
    return " ".join(visible.replace("_", " ").replace("-", " ").rstrip(":").split()).casefold()


def column_kind(text: str) -> str | None:
    """``game``, ``winner`` or ``points`` if a heading names that column, else None."""
    said = heading(text)
    return next((key for key, words in COLUMNS.items() if said in words), None)


def total_side(text: str) -> str | None:
    """The side a running total's heading names (``total Ann`` -> ``Ann``), else None."""
    parts = " ".join(text.split()).split(" ", 1)
    if len(parts) == 2 and heading(parts[0]) in TOTAL_WORDS and parts[1].strip():
        return parts[1].strip()
    return None


def setting_key(text: str) -> str | None:
    """The series file's key that a settings row's first cell names, else None."""
    said = heading(text)
    return next((key for key, words in SETTINGS.items() if said in words), None)


def is_own_column(text: str) -> bool:
    """Whether a heading names a column of the club's own (notes, a date)."""
    return heading(text) in OWN_COLUMNS


def letter(index: int) -> str:
    """A spreadsheet's name for column ``index`` (from 0): A, B, ... Z, AA, AB ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def text_of(value: Cell) -> str:
    """A cell as the text it shows: a whole number without ``.0``, a date as 2024-05-01,
    nothing as empty text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def is_empty(value: Cell) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


# A whole number as a spreadsheet may write it: a sign, digits grouped in thousands, and
# a fraction of zeros (12,00 with a decimal comma, 12.00 with a point).
_GROUPED = {
    ",": re.compile(r"[+-]?[0-9]{1,3}(?:[.\s\u00a0\u202f][0-9]{3})+(?:,0+)?|[+-]?[0-9]+,0+"),
    ".": re.compile(r"[+-]?[0-9]{1,3}(?:[,\s\u00a0\u202f][0-9]{3})+(?:\.0+)?|[+-]?[0-9]+\.0+"),
}


def whole(value: Cell, decimal: str | None = ".") -> Cell:
    """A cell holding a whole number, as the number (or its digits); any other cell as it
    is, for the schema to refuse. ``decimal`` is the file's decimal mark (``,`` in a
    semicolon CSV file, as German spreadsheets write them; None: either)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        for mark in (".", ",") if decimal is None else (decimal,):
            if _GROUPED[mark].fullmatch(text):
                return re.sub(r"[^0-9+-]", "", text.split(mark)[0])
        return text
    return value
