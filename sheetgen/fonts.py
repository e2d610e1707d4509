"""The typeface on every page: the bundled DejaVu Sans, and a system fallback where it has gaps.

reportlab embeds TrueType fonts as subsets, so a PDF carries only the glyphs
it uses. The bundled faces are registered once per process (parsing a TTF is
the slow part); a text the bundled face cannot print is given to a system
font that fontconfig says covers it, or refused before anything is drawn.
:func:`check_printable` returns that choice as a :class:`Typeface`, which the
document is then laid out and drawn with: no choice is kept behind the scenes.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

from sheetgen.errors import FontCoverageError
from sheetgen.resources import fonts_dir

REGULAR = "SheetgenSans"
BOLD = "SheetgenSans-Bold"
FALLBACK_PREFIX = "SheetgenFallback"


def font_files() -> dict[str, Path]:
    """The bundled font files, for anything else that embeds them (the booklet's @font-face)."""
    folder = fonts_dir()
    return {"regular": folder / "DejaVuSans.ttf", "bold": folder / "DejaVuSans-Bold.ttf"}


class SystemFont(NamedTuple):
    """A font file fontconfig found, and the face inside it."""

    path: Path
    face: int = 0  # which face of a collection (.ttc)


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
    if category == "Cc":
        return f"{code} (a control character)"
    if category.startswith(("C", "Z")) and char != " ":
        label = unicodedata.name(char, "an unassigned or private character")
        return f"{code} ({label.lower()})"
    return f"{char} ({code})"


def _quote(text: str) -> str:
    return f'"{text}"' if text.isprintable() else repr(text)


def _system_fonts_covering(chars: Iterable[str]) -> list[SystemFont]:
    """Font files fontconfig says hold every one of ``chars``, best match first."""
    import shutil  # with subprocess, only for the rare text the bundled face lacks
    import subprocess

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


# reportlab's font registry is per process: which system fonts it holds here, by file and face
# (None: the file cannot be embedded). The choice of font for a text is not kept here.
_loaded: dict[SystemFont, str | None] = {}


def _load(font: SystemFont) -> str | None:
    """Register a system font with reportlab in this process; its name, or None if unusable."""
    if font not in _loaded:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFError, TTFont

        digest = hashlib.sha1(f"{font.path}#{font.face}".encode()).hexdigest()[:12]
        name = f"{FALLBACK_PREFIX}-{digest}"
        try:
            face = TTFont(name, str(font.path), subfontIndex=font.face)
        except (TTFError, OSError, ValueError):
            # CFF-outline OpenType and damaged files cannot be embedded by reportlab.
            _loaded[font] = None
        else:
            pdfmetrics.registerFont(face)
            _loaded[font] = name
    return _loaded[font]


def clear_caches() -> None:
    """Forget what was learnt of the system's fonts, so the next check asks fontconfig again."""
    _loaded.clear()
    _width.cache_clear()


class Typeface(NamedTuple):
    """The fonts one document prints with: the bundled faces, and a system font for each
    text (and weight) they cannot print, as :func:`check_printable` chose it.

    A document is drawn with the Typeface its checks returned; it pickles, so a worker
    process registers the same system fonts before drawing.
    """

    chosen: tuple[tuple[str, bool, SystemFont], ...] = ()

    def __or__(self, other: Typeface) -> Typeface:
        """Both choices together."""
        return Typeface(tuple(dict.fromkeys(self.chosen + other.chosen)))

    def register(self) -> None:
        """Register every face this typeface uses with reportlab, in this process."""
        register()
        for _, _, font in self.chosen:
            _load(font)

    def font_for(self, text: str, bold: bool = False) -> str:
        """The registered font that prints ``text``: the bundled face whenever it can, else
        the system font chosen for it (or, for a text made of checked ones, one that covers it).
        """
        base = BOLD if bold else REGULAR
        if not self.chosen or not _missing(text, base):
            return base
        for chosen_text, chosen_bold, font in self.chosen:
            if (chosen_text, chosen_bold) == (text, bold):
                return _load(font) or base
        for _, chosen_bold, font in self.chosen:
            name = _load(font)
            if chosen_bold == bold and name is not None and not _missing(text, name):
                return name
        return base

    def string_width(self, text: str, size: float, bold: bool = False) -> float:
        """The width in points of ``text`` set in the font that prints it."""
        return _width(self, text, size, bold)


BUNDLED = Typeface()


# A batch of sheets measures the same names, numbers and words at the same sizes over and
# over (laying out, fitting, centring): each is measured once.
@lru_cache(maxsize=1 << 16)
def _width(typeface: Typeface, text: str, size: float, bold: bool) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    typeface.register()
    return float(stringWidth(text, typeface.font_for(text, bold), size))


def _covering(text: str, bold: bool) -> SystemFont | None:
    """A system font that prints all of ``text``, registered here; None if there is none."""
    for candidate in _system_fonts_covering(_missing(text, BOLD if bold else REGULAR)):
        name = _load(candidate)
        if name is not None and not _missing(text, name):
            return candidate
    return None


def check_printable(texts: Iterable[str], field: str) -> Typeface:
    """Refuse any text that neither the bundled typeface nor a system font can print.

    A text with characters the bundled face lacks is given, for both weights,
    to a system font that covers all of it; the Typeface returned says which, and
    a document drawn with it embeds that font too.
    """
    register()
    chosen: list[tuple[str, bool, SystemFont]] = []
    for text in texts:
        if _bundled_prints(text):
            continue
        _refuse_unprintable_order(text, field)
        for bold in (False, True):
            gaps = _missing(text, BOLD if bold else REGULAR)
            if not gaps:
                continue
            fallback = _covering(text, bold)
            if fallback is None:
                raise FontCoverageError(
                    f"{_quote(text)} has {_describe(gaps[0])}, which the bundled "
                    "typeface cannot print and no font on this system covers; "
                    "spell it in Latin, Greek or Cyrillic letters",
                    field=field,
                )
            chosen.append((text, bold, fallback))
    return Typeface(tuple(chosen))


@lru_cache(maxsize=4096)  # a batch checks the same names file after file
def _bundled_prints(text: str) -> bool:
    """Whether the bundled faces print all of ``text``, in both weights and in order."""
    try:
        _refuse_unprintable_order(text, "")
    except FontCoverageError:
        return False
    return not (_missing(text, REGULAR) or _missing(text, BOLD))


def _refuse_unprintable_order(text: str, field: str) -> None:
    """Refuse what a PDF canvas would print wrongly whatever the font.

    reportlab lays text out left to right without shaping, so Hebrew or Arabic
    would come out backwards and unjoined; and it maps characters beyond the
    Basic Multilingual Plane (emoji) to the wrong text when copied back out.
    """
    for char in text:
        if unicodedata.bidirectional(char) in ("R", "AL"):
            raise FontCoverageError(
                f"{_quote(text)} is written right to left ({_describe(char)}), "
                "which the score sheet cannot print in the right order; "
                "spell it in Latin, Greek or Cyrillic letters",
                field=field,
            )
        if ord(char) > 0xFFFF:
            raise FontCoverageError(
                f"{_quote(text)} has {_describe(char)}, which the score sheet "
                "cannot print; leave out emoji and other symbols beyond U+FFFF",
                field=field,
            )


def string_width(text: str, size: float, bold: bool = False) -> float:
    """The width in points of ``text`` in the bundled face (for the sheet's own words)."""
    return BUNDLED.string_width(text, size, bold)


_SUBSET_TAG = re.compile(rb"/([A-Z]{6})\+([^\s/\[\]<>()]+)")


def _subset_tag(seed: bytes, name: bytes) -> bytes:
    """A subset's new tag: six capitals drawn from its document (``seed``) and its name."""
    digest = hashlib.sha256(seed + name).digest()
    return bytes(65 + byte % 26 for byte in digest[:6])


def unique_subset_tags(pdf: bytes) -> bytes:
    """Give each font subset a tag of its own document's, not reportlab's AAAAAA+ for all.

    A print shop that merges several PDFs takes two subsets under one name for one font.
    The tag is drawn from the document and the subset, so the same document keeps its
    tags; it has the old tag's length, so every object keeps its offset (the font
    dictionaries of a score sheet are not compressed).
    """
    seed = hashlib.sha256(pdf).digest()

    def tag(match: re.Match[bytes]) -> bytes:
        return b"/" + _subset_tag(seed, match.group(0)) + b"+" + match.group(2)

    return _SUBSET_TAG.sub(tag, pdf)


def retagged(pdf: bytes) -> bytes:
    """The PDF with a subset tag of its own for each font subset, as ``unique_subset_tags``
    gives, read and written with pikepdf, for a PDF whose fonts lie in compressed object
    streams (print review 24: every booklet gave a face's subsets one tag, RWLKBI+, whatever
    they held)."""
    import io

    import pikepdf

    seed = hashlib.sha256(pdf).digest()
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for item in document.objects:
            if not isinstance(item, pikepdf.Dictionary):
                continue
            for key in ("/BaseFont", "/FontName"):
                name = item.get(key)
                if isinstance(name, pikepdf.Name) and re.fullmatch(r"/[A-Z]{6}\+.+", str(name)):
                    tag = _subset_tag(seed, str(name).encode()).decode()
                    item[key] = pikepdf.Name(f"/{tag}{str(name)[7:]}")
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
        return out.getvalue()
