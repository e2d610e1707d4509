"""The typeface on every page: the bundled DejaVu Sans, and a system fallback where it has gaps.

reportlab embeds TrueType fonts as subsets, so a PDF carries only the glyphs
it uses. The bundled faces are registered once per process (parsing a TTF is
the slow part); a text the bundled face cannot print is given to a system
font that fontconfig says covers it, or refused before anything is drawn.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import operator
import os
import pickle
import shutil
import subprocess
import sys
import unicodedata
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

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

    files = font_files()
    pdfmetrics.registerFont(_bundled_font(REGULAR, files["regular"]))
    pdfmetrics.registerFont(_bundled_font(BOLD, files["bold"]))


def _cache_file(path: Path) -> Path:
    import reportlab

    stat = path.stat()
    key = (
        f"{path.name}-{stat.st_size}-{stat.st_mtime_ns}-{reportlab.Version}-{sys.version_info[:2]}"
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "sheetgen" / f"{path.stem}-{digest}.pickle"


def _bundled_font(name: str, path: Path) -> Any:
    """A bundled face, parsed once per machine: parsing takes a fifth of a short command's time.

    The parsed face is kept in the user's own cache folder, keyed by the font
    file, the reportlab version and the Python version; any trouble with the
    cache falls back to parsing the file.
    """
    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, TTFontFace

    try:
        cached: Path | None = _cache_file(path)
    except (OSError, RuntimeError):
        cached = None
    try:
        if cached is None:
            raise FileNotFoundError(path)
        state = pickle.loads(cached.read_bytes())
        face = TTFontFace.__new__(TTFontFace)
        face.__dict__.update(state)
        face._pdfScale = functools.partial(operator.mul, 1000 / face.unitsPerEm)
        font = TTFont.__new__(TTFont)
        font.fontName, font.face, font.encoding = name, face, TTEncoding()
        font.state = weakref.WeakKeyDictionary()
        font._asciiReadable = rl_config.ttfAsciiReadable
        font.shapable = False
        return font
    except (OSError, pickle.PickleError, EOFError, AttributeError, TypeError, ValueError):
        pass
    font = TTFont(name, str(path), shapable=False)
    state = {key: value for key, value in vars(font.face).items() if key != "_pdfScale"}
    if cached is None:
        return font
    with contextlib.suppress(OSError, pickle.PickleError):
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, cached)
    return font


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


def string_width(text: str, size: float, bold: bool = False) -> float:
    """The width in points of ``text`` set in the font that prints it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register()
    return float(stringWidth(text, font_for(text, bold), size))
