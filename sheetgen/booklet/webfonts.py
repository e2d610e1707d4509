"""The bundled faces cut down to the letters one page for a screen uses, as data URLs.

The html booklet carries its fonts inside itself (its Content-Security-Policy lets the
browser fetch nothing), and the two whole DejaVu Sans faces weigh about 600 KB as
base64. A page needs only its own letters: each face is cut to the characters of the
page (its text, its pictures' words and the style sheet's quotes and leaders alike, so
nothing the browser sets falls back to another font), plus the marks a browser may add
when it breaks a line, and packed as WOFF2 (brotli, which fontTools needs for it, is
installed with weasyprint); without brotli, as a plain subset TrueType font.
"""

from __future__ import annotations

import base64
import io
from functools import lru_cache
from html import unescape
from pathlib import Path

# What a browser may set that the page does not spell: the hyphens of a word it breaks
# (hyphens: auto), a space, the ellipsis of text cut short.
ALWAYS = frozenset(" -\u2010\u00ad\u2026\u00a0")
# A placeholder the page's style sheet holds until its letters are known.
PLACEHOLDER = "sheetgen-font:{face}"


def placeholder(face: str) -> str:
    return PLACEHOLDER.format(face=face)


def embed_subsets(html: str, files: dict[str, Path]) -> str:
    """``html`` with each face's placeholder replaced by that face cut to the page's
    letters, as a data URL."""
    letters = "".join(sorted(set(html) | set(unescape(html)) | ALWAYS))
    for face, path in files.items():
        html = html.replace(placeholder(face), _subset_url(str(path), letters))
    return html


@lru_cache(maxsize=16)
def _subset_url(path: str, letters: str) -> str:
    from fontTools import subset  # type: ignore[import-untyped]
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    font = TTFont(path, recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = ["*"]  # kerning and ligatures as the whole face has them
    options.name_IDs = ["*"]  # the licence and the face's names stay with it
    options.notdef_outline = True
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(letter) for letter in letters])
    subsetter.subset(font)
    kind = "ttf"
    try:
        import brotli  # type: ignore[import-untyped]  # noqa: F401

        font.flavor = kind = "woff2"
    except ImportError:
        pass
    out = io.BytesIO()
    font.save(out)
    return f"data:font/{kind};base64," + base64.b64encode(out.getvalue()).decode("ascii")
