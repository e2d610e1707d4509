"""The typeface on every page: the bundled DejaVu Sans, and a system fallback where it has gaps.

reportlab embeds TrueType fonts as subsets, so a PDF carries only the glyphs
it uses. The bundled faces are registered once per process (parsing a TTF is
the slow part); a text the bundled face cannot print is given to a system
font that fontconfig says covers it, or refused before anything is drawn.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sheetgen.errors import FontCoverageError
from sheetgen.resources import fonts_dir

REGULAR = "SheetgenSans"
BOLD = "SheetgenSans-Bold"
FALLBACK_PREFIX = "SheetgenFallback"


def font_files() -> dict[str, Path]:
    """The bundled font files, for anything else that embeds them (the booklet's @font-face)."""
    folder = fonts_dir()
    return {"regular": folder / "DejaVuSans.ttf", "bold": folder / "DejaVuSans-Bold.ttf"}


@dataclass(frozen=True)
class SystemFont:
    """A font file fontconfig found, and the face inside it."""

    path: Path
    index: int = 0


@cache
def register() -> None:
    """Register the bundled faces with reportlab (once per process)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    files = font_files()
    pdfmetrics.registerFont(TTFont(REGULAR, str(files["regular"]), shapable=False))
    pdfmetrics.registerFont(TTFont(BOLD, str(files["bold"]), shapable=False))


@cache
def _charset(name: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    register()
    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


def _missing(text: str, name: str) -> list[str]:
    charset = _charset(name)
    return [char for char in dict.fromkeys(text) if ord(char) not in charset]


def _describe(char: str) -> str:
    code = f"U+{ord(char):04X}"
    category = unicodedata.category(char)
    if category.startswith(("C", "Z")) and char != " ":
        label = unicodedata.name(char, "an unassigned or private character")
        return f"{code} ({label.lower()})"
    return f"{char} ({code})"


def _quote(text: str) -> str:
    return f'"{text}"' if text.isprintable() else repr(text)


def _system_fonts_covering(chars: Iterable[str]) -> list[SystemFont]:
    """Font files fontconfig says hold every one of ``chars``, best match first."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []
    charset = " ".join(f"{ord(char):x}" for char in chars)
    try:
        done = subprocess.run(
            [fc_list, "--format", "%{file}\t%{index}\n", f":charset={charset}"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    found: list[SystemFont] = []
    for line in sorted(done.stdout.splitlines()):
        path, _, index = line.partition("\t")
        if path.lower().endswith((".ttf", ".ttc", ".otf")):
            found.append(SystemFont(Path(path), int(index or 0)))
    return found


_fallbacks: dict[str, str] = {}


def _register_fallback(text: str, bold: bool) -> str | None:
    """Register a system font covering all of ``text``; its reportlab name, or None."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    for candidate in _system_fonts_covering(_missing(text, BOLD if bold else REGULAR)):
        name = f"{FALLBACK_PREFIX}{len(_fallbacks)}"
        key = f"{candidate.path}#{candidate.index}"
        if key in _fallbacks:
            name = _fallbacks[key]
        else:
            try:
                font = TTFont(name, str(candidate.path), subfontIndex=candidate.index)
            except (TTFError, OSError, ValueError):
                # CFF-outline OpenType and damaged files cannot be embedded by reportlab.
                continue
            pdfmetrics.registerFont(font)
            _fallbacks[key] = name
        if not _missing(text, name):
            return name
    return None


_chosen: dict[tuple[str, bool], str] = {}


def font_for(text: str, bold: bool = False) -> str:
    """The registered font that prints ``text``; the bundled face whenever it can.

    Call :func:`check_printable` first: a text it has not accepted is drawn
    in the bundled face, gaps and all.
    """
    return _chosen.get((text, bold), BOLD if bold else REGULAR)


def check_printable(texts: Iterable[str], field: str) -> None:
    """Refuse any text that neither the bundled typeface nor a system font can print.

    A text with characters the bundled face lacks is given, for both weights,
    to a system font that covers all of it; that font is then embedded too.
    """
    register()
    for text in texts:
        _refuse_unprintable_order(text, field)
        for bold in (False, True):
            base = BOLD if bold else REGULAR
            gaps = _missing(text, base)
            if not gaps or (text, bold) in _chosen:
                continue
            fallback = _register_fallback(text, bold)
            if fallback is None:
                raise FontCoverageError(
                    f"{field}: {_quote(text)} has {_describe(gaps[0])}, which the bundled "
                    "typeface cannot print and no font on this system covers; "
                    "spell it in Latin, Greek or Cyrillic letters"
                )
            _chosen[(text, bold)] = fallback


def _refuse_unprintable_order(text: str, field: str) -> None:
    """Refuse what a PDF canvas would print wrongly whatever the font.

    reportlab lays text out left to right without shaping, so Hebrew or Arabic
    would come out backwards and unjoined; and it maps characters beyond the
    Basic Multilingual Plane (emoji) to the wrong text when copied back out.
    """
    for char in text:
        if unicodedata.bidirectional(char) in ("R", "AL"):
            raise FontCoverageError(
                f"{field}: {_quote(text)} is written right to left ({_describe(char)}), "
                "which the score sheet cannot print in the right order; "
                "spell it in Latin, Greek or Cyrillic letters"
            )
        if ord(char) > 0xFFFF:
            raise FontCoverageError(
                f"{field}: {_quote(text)} has {_describe(char)}, which the score sheet "
                "cannot print; leave out emoji and other symbols beyond U+FFFF"
            )


def string_width(text: str, size: float, bold: bool = False) -> float:
    """The width in points of ``text`` set in the font that prints it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register()
    return float(stringWidth(text, font_for(text, bold), size))
