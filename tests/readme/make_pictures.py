"""The README's pictures, made by sheetgen itself: a score sheet, a booklet's first page, and
the page ``sheetgen serve`` shows on a phone (taken by Debian's Chromium through Playwright,
the browser the test run uses).

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
import os
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
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


SCREENSHOT = "serve-phone.png"
PHONE = {"width": 390, "height": 760}
SERVED = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 4, Cy: 7, Di: 2}
  - winner: Cy
    left: {Ann: 3, Bob: 9, Di: 1}
  - winner: Ann
    left: {Bob: 2, Cy: 5, Di: 6}
"""


def serve_screenshot(target: Path) -> Path:
    """The served page of a three-game series at a phone's width, in English, light."""
    import threading
    import time

    import uvicorn
    from playwright.sync_api import sync_playwright

    from sheetgen.paper import LETTER
    from sheetgen.resources import fonts_dir
    from sheetgen.serve.access import Access, local_hosts
    from sheetgen.serve.app import make_app
    from sheetgen.serve.run import bind
    from sheetgen.serve.served import Served
    from sheetgen.serve.state import ServedSeries
    from tests.test_screen_booklet import ARGS, CHROMIUM

    with tempfile.TemporaryDirectory() as scratch:
        # The browser sets the page in sheetgen's own DejaVu, whatever this machine has.
        config = Path(scratch) / "fonts.conf"
        config.write_text(
            f"<fontconfig><dir>{fonts_dir()}</dir><cachedir>{scratch}/cache</cachedir>"
            "</fontconfig>\n",
            encoding="utf-8",
        )
        series = Path(scratch) / "friday.yaml"
        series.write_text(SERVED, encoding="utf-8")
        sock = bind("127.0.0.1", 0)
        port = sock.getsockname()[1]
        served = Served(ServedSeries(series), Access(local_hosts(port), None), LETTER, lang="en")
        server = uvicorn.Server(uvicorn.Config(make_app(served), log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM,
                    args=ARGS,
                    env={**os.environ, "FONTCONFIG_FILE": str(config)},
                )
                page = browser.new_page(viewport=PHONE, color_scheme="light")
                page.goto(f"http://127.0.0.1:{port}/?key={served.access.token}")
                page.wait_for_function("document.querySelector('#status').textContent")
                page.screenshot(path=str(target))
                browser.close()
        finally:
            server.should_exit = True
            thread.join(10)
            sock.close()
    return target


def make_pictures(folder: Path, *, browser: bool = True) -> list[Path]:
    """Write every picture into ``folder`` (the browser's only if ``browser``); the paths
    written, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        for picture in PICTURES:
            pdf = Path(scratch) / picture.name.replace(".png", ".pdf")
            run_sheetgen(*picture.command, "-o", str(pdf))
            target = folder / picture.name
            target.write_bytes(first_page_png(pdf.read_bytes(), picture.width))
            written.append(target)
    if browser:
        written.append(serve_screenshot(folder / SCREENSHOT))
    return written


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else HERE
    for path in make_pictures(folder):
        print(f"Wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
