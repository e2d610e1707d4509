"""The README's two pictures, made by sheetgen itself: a score sheet and a booklet's first page.

Run from the repository root after a change that alters how either looks::

    .venv/bin/python tests/readme/make_pictures.py          # rewrites tests/readme/*.png
    .venv/bin/python tests/readme/make_pictures.py /tmp/x   # writes them somewhere else

Each picture is a sheetgen command with everything fixed that could vary from one machine
to the next (paper, language, options), its first page drawn by pypdfium2 at a set width.
tests/test_readme.py runs this script into a temporary folder and checks that it makes
the committed pictures' files, at their sizes.
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent


class Picture(NamedTuple):
    """One PNG: the sheetgen command that makes its PDF, and how wide its first page is drawn."""

    name: str
    command: tuple[str, ...]
    width: int  # pixels


# Both pages come out about 465 pixels tall, so the two sit side by side as a pair.
PICTURES = (
    Picture(
        "score-sheet.png",
        ("sheet", "--names", "Ann,Bob,Cy,Di", "--paper", "letter", "--lang", "en"),
        600,
    ),
    Picture("booklet-page.png", ("rules", "--paper", "letter", "--lang", "en"), 360),
)


def run_sheetgen(*args: str) -> None:
    """``sheetgen *args`` in this process, failing loudly with what sheetgen said."""
    from click.testing import CliRunner

    from sheetgen.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"sheetgen {' '.join(args)} failed:\n{result.output}")


def first_page_png(pdf: bytes, width: int) -> bytes:
    """The PDF's first page drawn ``width`` pixels wide, as a compact greyscale-friendly PNG."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0]
        image = page.render(scale=width / page.get_width()).to_pil()
    finally:
        document.close()
    # A page is black, grey and a little colour on white: 64 colours keep it sharp and small.
    small = image.convert("RGB").quantize(colors=64, dither=0)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def make_pictures(folder: Path) -> list[Path]:
    """Write every picture into ``folder``; the paths written, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        for picture in PICTURES:
            pdf = Path(scratch) / picture.name.replace(".png", ".pdf")
            run_sheetgen(*picture.command, "-o", str(pdf))
            target = folder / picture.name
            target.write_bytes(first_page_png(pdf.read_bytes(), picture.width))
            written.append(target)
    return written


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else HERE
    for path in make_pictures(folder):
        print(f"Wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
