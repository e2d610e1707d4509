"""Paper sizes, and which one this system prints on by default.

The default follows Debian's paper tools: the PAPERSIZE variable, then the
file named by PAPERCONF or /etc/papersize, then the territory of the LC_PAPER
locale, else Letter.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from sheetgen.errors import ChoiceError

POINTS_PER_INCH = 72.0
POINTS_PER_MM = 72.0 / 25.4


class Paper(NamedTuple):
    """A sheet of paper in portrait, measured in PostScript points."""

    name: str
    width: float
    height: float

    @property
    def landscape(self) -> tuple[float, float]:
        return (self.height, self.width)

    @property
    def portrait(self) -> tuple[float, float]:
        return (self.width, self.height)


LETTER = Paper("letter", 8.5 * POINTS_PER_INCH, 11 * POINTS_PER_INCH)
A4 = Paper("a4", 210 * POINTS_PER_MM, 297 * POINTS_PER_MM)
PAPERS: dict[str, Paper] = {paper.name: paper for paper in (LETTER, A4)}

# Territories whose locales print on Letter, as glibc's LC_PAPER data has it.
LETTER_TERRITORIES = frozenset(
    {"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PA", "SV", "DO", "PR", "NI"}
)
SYSTEM_PAPERSIZE = Path("/etc/papersize")


def paper(name: str) -> Paper:
    """The paper called ``name`` (letter or a4, any case)."""
    try:
        return PAPERS[name.strip().lower()]
    except KeyError:
        raise ChoiceError(
            f"{name!r} is not a paper size sheetgen lays out; choose letter or a4", field="paper"
        ) from None


def default_paper(
    environ: Mapping[str, str] | None = None, papersize_file: Path = SYSTEM_PAPERSIZE
) -> Paper:
    """The system's paper, found as Debian's paperconf finds it; Letter if nothing says."""
    env = os.environ if environ is None else environ
    for candidate in (
        env.get("PAPERSIZE"),
        _read_papersize(Path(env["PAPERCONF"])) if env.get("PAPERCONF") else None,
        _read_papersize(papersize_file),
        _locale_paper(env),
    ):
        if candidate and candidate.strip().lower() in PAPERS:
            return PAPERS[candidate.strip().lower()]
    return LETTER


def _read_papersize(path: Path) -> str | None:
    try:
        if not path.is_file():  # a FIFO or a device would block or never end
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            return line
    return None


def _locale_paper(env: Mapping[str, str]) -> str | None:
    for variable in ("LC_ALL", "LC_PAPER", "LANG"):
        value = env.get(variable)
        if not value:
            continue
        language = value.split(".", 1)[0].split("@", 1)[0]
        if "_" not in language:
            return None
        territory = language.split("_", 1)[1].upper()
        return "letter" if territory in LETTER_TERRITORIES else "a4"
    return None
