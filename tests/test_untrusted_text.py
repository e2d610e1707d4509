"""Untrusted text: player names, titles and a table's Markdown carrying HTML, templates and scripts.

What a user types is printed literally or refused with a clear message; nothing
in it is fetched, run or expanded; no name leaves its cell; and every document
sheetgen makes is structurally sound, embeds every font and extracts back to
what was asked.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pikepdf
import pytest
from conftest import Runner
from pagecheck import page_texts, pages_with
from pdfcheck import check_pdf_structure, marks_near_edge

from sheetgen.fonts import string_width
from sheetgen.paper import paper
from sheetgen.sheet.layout import MIN_TEXT, Layout
from sheetgen.sheet.shapes import Box

# The module's documents are made once: its tests run in one xdist worker.
pytestmark = pytest.mark.xdist_group("test_untrusted_text")

LETTER = paper("letter")
TOLERANCE = 0.5  # points: glyph boxes may graze a cell's edge by rounding, no more

HOSTILE = [
    '<img src="file:///etc/passwd">',
    "<script>alert(1)</script>",
    "<link rel=stylesheet href=http://127.0.0.1:9/x.css>",
    "{{ 7*7 }}",
    "Zoe\u0308 \u0141a\u0301ska",  # combining diaeresis and acute
    "Maximiliane Alexandra von Hohenzollern-Sigmaringen",
]
LONG = ["W" * 120, "Ann", "Bartholomew-Christopherson the Third of Little Snoring", "{% raw %}"]
EXTRA = """\
# Our table

<img src="file:///etc/passwd">

<script>document.write("scripted")</script>

<link rel="stylesheet" href="file:///etc/passwd">

<style>@import url("file:///etc/passwd"); body { background: url(http://127.0.0.1:9/x.png) }</style>

![a picture](file:///etc/passwd)

[a link](http://127.0.0.1:9/) and <http://127.0.0.1:9/auto>

Template {{ 7*7 }} and {% include "/etc/passwd" %} stay as written.

Hebrew: \u05e9\u05dc\u05d5\u05dd. Accents: Zoe\u0308. Emoji: \U0001f600.
"""


def flat(text: str) -> str:
    """Text compared as a reader sees it: NFC, without white space."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFC", text))


def chars_in(page: Any, box: Box) -> list[dict[str, Any]]:
    """The characters whose centre lies in ``box`` (PDF coordinates, origin bottom left)."""
    top, bottom = page.height - box.top, page.height - box.y
    return [
        char
        for char in page.chars
        if box.x <= (char["x0"] + char["x1"]) / 2 <= box.right
        and top <= (char["top"] + char["bottom"]) / 2 <= bottom
    ]


def assert_inside(page: Any, box: Box, chars: list[dict[str, Any]], what: str) -> None:
    top, bottom = page.height - box.top, page.height - box.y
    for char in chars:
        assert char["x0"] >= box.x - TOLERANCE and char["x1"] <= box.right + TOLERANCE, (
            f"{what}: {char['text']!r} runs out of its cell sideways"
        )
        assert char["top"] >= top - TOLERANCE and char["bottom"] <= bottom + TOLERANCE, (
            f"{what}: {char['text']!r} runs out of its cell up or down"
        )


def read_back(chars: list[dict[str, Any]], wanted: str) -> str:
    """The characters line by line, as a reader joins them: a hyphen that ends a line where
    the text has none only marks a word broken there."""
    lines: dict[int, list[dict[str, Any]]] = {}
    for char in chars:
        lines.setdefault(round(char["top"]), []).append(char)
    printed = ""
    ordered = [lines[top] for top in sorted(lines)]
    for index, line in enumerate(ordered):
        text = flat("".join(c["text"] for c in line))  # characters in drawing order
        last = index == len(ordered) - 1
        if not last and text.endswith("-") and not wanted[len(printed) :].startswith(text):
            text = text[:-1]
        printed += text
    return printed


def assert_name_in_cell(page: Any, box: Box, name: str) -> None:
    """The name sits wholly in its cell and reads back as typed (or cut short with an ellipsis)."""
    chars = chars_in(page, box)
    assert_inside(page, box, chars, name)
    wanted = flat(name)
    printed = read_back(chars, wanted)
    if printed.endswith("\u2026"):
        assert wanted.startswith(printed[:-1]) and len(printed) > 3, (printed, wanted)
    else:
        assert printed == wanted


def assert_sound(pdf: bytes) -> None:
    """A structurally valid PDF, every font embedded, no mark off the printable area."""
    check_pdf_structure(pdf)
    with pikepdf.open(io.BytesIO(pdf)) as document:
        assert document.check_pdf_syntax() == []
    assert marks_near_edge(pdf) == []


def all_text(pdf: bytes) -> str:
    return "\n".join(page_texts(pdf))


@pytest.fixture(scope="module")
def module_runner(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    return Runner(tmp_path_factory.mktemp("untrusted"))


# Blank sheets ---------------------------------------------------------------


def blank_layouts(names: list[str]) -> list[Layout]:
    from sheetgen.game.scoringrules import ScoringRules
    from sheetgen.sheet.blank import page_layouts, sheet_table, spec_for

    table, count, teams = sheet_table(None, names, None)
    spec = spec_for(table, ScoringRules(), "Skip-Bo score sheet", count=count, teams=teams)
    return page_layouts(LETTER, spec, 10)


@pytest.fixture(scope="module", params=[HOSTILE, LONG], ids=["markup", "long"])
def blank(
    request: pytest.FixtureRequest, module_runner: Runner
) -> Iterator[tuple[list[str], bytes]]:
    names: list[str] = request.param
    out = module_runner.cwd / f"blank-{request.param_index}.pdf"
    result = module_runner("sheet", "--names", ",".join(names), "--paper", "letter", "-o", str(out))
    assert result.exit_code == 0, result.output
    yield names, out.read_bytes()


def test_blank_sheet_names_stay_in_their_cells(blank: tuple[list[str], bytes]) -> None:
    names, pdf = blank
    layout = blank_layouts(names)[0]
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[0]
        assert not page.images
        for box, name in zip(layout.names, names, strict=False):
            assert_name_in_cell(page, box, name)


def test_blank_sheet_is_sound_and_literal(blank: tuple[list[str], bytes]) -> None:
    names, pdf = blank
    assert_sound(pdf)
    text = all_text(pdf)
    assert "root:" not in text
    one_line = {piece.text for piece in blank_layouts(names)[0].texts}
    for name in names:
        if name in one_line:  # a name on two lines or cut short: the cell test reads it
            assert flat(name) in flat(text)
    if "{{ 7*7 }}" in names:
        assert "49" not in text


def test_a_title_with_markup_prints_literally(runner: Any) -> None:
    title = "<b>{{ 7*7 }}</b> & <script>x</script>"
    result = runner("sheet", "--title", title, "-o", "t.pdf")
    assert result.exit_code == 0, result.output
    pdf = (runner.cwd / "t.pdf").read_bytes()
    assert_sound(pdf)
    with pikepdf.open(io.BytesIO(pdf)) as document:
        assert str(document.docinfo["/Title"]) == title
    assert title in all_text(pdf)


# Names from series files ---------------------------------------------------


def series_json(names: list[str], games: int) -> str:
    played = []
    for number in range(games):
        winner = names[number % len(names)]
        played.append({"winner": winner, "left": {n: 1 for n in names if n != winner}})
    title = "<script>alert(1)</script> {{ 7*7 }}"
    return json.dumps(
        {"title": title, "players": names, "stock": 20, "games": played}, ensure_ascii=False
    )


@pytest.fixture(scope="module")
def filled(module_runner: Runner) -> tuple[Path, bytes]:
    if module_runner("fill", "--help").exit_code != 0:
        pytest.skip("sheetgen fill is not built yet")
    path = module_runner.cwd / "hostile.json"
    path.write_text(series_json(HOSTILE, 20), encoding="utf-8")
    out = module_runner.cwd / "hostile.pdf"
    result = module_runner("fill", str(path), "--paper", "letter", "-o", str(out))
    assert result.exit_code == 0, result.output
    return path, out.read_bytes()


def test_filled_sheet_names_and_status_stay_in_their_boxes(filled: tuple[Path, bytes]) -> None:
    from sheetgen.game.scoring import score_series
    from sheetgen.series.file import load_series
    from sheetgen.sheet.fill import filled_pages, status_line

    path, pdf = filled
    result = score_series(load_series(path))
    pages = filled_pages(result, LETTER)
    assert len(pages) == 2
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        assert len(document.pages) == 3  # two pages of games and the race chart
        for number, (layout, _) in enumerate(pages):
            page = document.pages[number]
            assert not page.images
            for box, name in zip(layout.names, HOSTILE, strict=True):
                assert_name_in_cell(page, box, name)
            status = chars_in(page, layout.status)
            assert_inside(page, layout.status, status, "the status line")
            wanted = flat(status_line(result))
            printed = read_back(status, wanted)
            assert wanted.startswith(printed[:-1])


def test_filled_sheet_is_sound_and_literal(filled: tuple[Path, bytes]) -> None:
    _, pdf = filled
    assert_sound(pdf)
    text = all_text(pdf)
    assert flat("<script>alert(1)</script> {{ 7*7 }}") in flat(text)
    assert "root:" not in text
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        last = document.pages[2]
        chart = last.extract_text()
        # Each panel's x axis: a level black rule 0.8 pt wide, as wide as its plot.
        plots = [
            line["x1"] - line["x0"]
            for line in last.lines
            if line["linewidth"] == 0.8 and line["top"] == line["bottom"]
        ]
    # Each panel is headed by its side's name, printed literally: in full, or, where the
    # name is wider than the panel's plot even at the smallest size, its start cut short.
    assert len(plots) == len(HOSTILE)
    for name in HOSTILE:
        if flat(name) in flat(chart):
            continue
        assert string_width(name, MIN_TEXT, bold=True) > max(plots), f"{name} cut, yet it fits"
        start = flat(name)[:20]
        assert re.search(re.escape(start) + r"[^…]*…", flat(chart)), f"the chart lacks {name}"
    for name in HOSTILE[:2] + HOSTILE[3:5]:  # markup, a template, combining marks: short
        assert flat(name) in flat(chart), f"the race chart does not label {name}"


@pytest.mark.parametrize(
    "name",
    ["Ann\nBob", "Ann\x1b[2J", "Ann\x00", "Ann\u202eevil", "Ann\tBob"],
    ids=["newline", "escape", "nul", "bidi-override", "tab"],
)
def test_control_characters_in_names_are_refused(runner: Any, name: str) -> None:
    """A name that would break a terminal's table or reorder its neighbours is refused."""
    path = runner.cwd / "s.json"
    path.write_text(json.dumps({"players": [name, "Cy"], "games": []}), encoding="utf-8")
    result = runner("standings", str(path))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}, players, player 1: ")
    sheet = runner("sheet", "--names", f"{name},Cy", "-o", "c.pdf")
    assert sheet.exit_code in (1, 2) and len(sheet.output.strip().splitlines()) == 1
    assert not (runner.cwd / "c.pdf").exists()


@pytest.mark.parametrize("names", [HOSTILE, [*LONG, "דוד כהן", 'Łukasz, "Ł"']])
def test_exports_carry_names_exactly(runner: Any, names: list[str]) -> None:
    """Exactly, in their composed (NFC) form: a name typed either way is one name."""
    import unicodedata

    path = runner.cwd / "names.json"
    path.write_text(series_json(names, 3), encoding="utf-8")
    names = [unicodedata.normalize("NFC", name) for name in names]
    exported = runner("export", str(path), "--format", "json")
    assert exported.exit_code == 0, exported.output
    assert json.loads(exported.output)["sides"] == names
    table = runner("export", str(path), "--format", "csv")
    assert table.exit_code == 0, table.output
    import csv

    rows = list(csv.reader(io.StringIO(table.output)))
    header = next(index for index, row in enumerate(rows) if row[:2] == ["game", "winner"])
    assert rows[header][2:] == [*names, "points", *(f"total {name}" for name in names)]
    assert [row[1] for row in rows[header + 1 :]] == names[:3]


# Right-to-left and astral text on reportlab pages ----------------------------

RTL = ["דוד כהן", "مريم"]


@pytest.mark.parametrize("name", RTL, ids=["hebrew", "arabic"])
def test_right_to_left_names_print_right_to_left_or_are_refused(runner: Any, name: str) -> None:
    result = runner("sheet", "--names", f"{name},Ann", "--paper", "letter", "-o", "rtl.pdf")
    if result.exit_code == 1:
        assert result.output.startswith("Error: names: ")
        return
    assert result.exit_code == 0, result.output
    box = blank_layouts([name, "Ann"])[0].names[0]
    with pdfplumber.open(runner.cwd / "rtl.pdf") as document:
        page = document.pages[0]
        word = name.split()[0]
        chars = [c for c in chars_in(page, box) if c["text"] in word]
        first = next(c for c in chars if c["text"] == word[0])
        last = next(c for c in chars if c["text"] == word[-1])
        assert first["x0"] > last["x0"], "the first letter should stand rightmost"


def test_an_emoji_name_extracts_back_or_is_refused(runner: Any) -> None:
    result = runner("sheet", "--names", "Jo \U0001f600,Ann", "-o", "emoji.pdf")
    if result.exit_code == 1:
        assert result.output.startswith("Error: names: ")
        return
    assert result.exit_code == 0, result.output
    assert "Jo \U0001f600" in all_text((runner.cwd / "emoji.pdf").read_bytes())


# The booklet and a table's own Markdown --------------------------------------


@pytest.fixture(scope="module")
def booklet(module_runner: Runner) -> Iterator[tuple[bytes, list[str]]]:
    import sheetgen.booklet.pdf

    fetched: list[str] = []
    real = sheetgen.booklet.pdf.asset_path

    def spy(url: str) -> Path:
        fetched.append(url)
        return real(url)

    extra = module_runner.cwd / "ours.md"
    extra.write_text(EXTRA, encoding="utf-8")
    out = module_runner.cwd / "rules.pdf"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sheetgen.booklet.pdf, "asset_path", spy)
        result = module_runner("rules", "--no-series", "--extra", str(extra), "-o", str(out))
    assert result.exit_code == 0, result.output
    yield out.read_bytes(), fetched


def test_booklet_fetches_only_its_own_assets(booklet: tuple[bytes, list[str]]) -> None:
    from sheetgen.resources import fonts_dir, templates_dir

    _, fetched = booklet
    assert fetched, "the spy saw no fetch at all: the booklet's fetcher is no longer used"
    roots = (fonts_dir().resolve().as_uri(), templates_dir().resolve().as_uri())
    for url in fetched:
        assert url.startswith(roots), f"the booklet fetched {url}"


def test_booklet_prints_markup_and_templates_literally(booklet: tuple[bytes, list[str]]) -> None:
    pdf, _ = booklet
    assert_sound(pdf)
    text = flat(all_text(pdf))
    for literal in (
        '<img src="file:///etc/passwd">',
        '<script>document.write("scripted")</script>',
        '<link rel="stylesheet" href="file:///etc/passwd">',
        "![a picture](file:///etc/passwd)",
        "[a link](http://127.0.0.1:9/)",
        'Template {{ 7*7 }} and {% include "/etc/passwd" %} stay as written.',
        "Zoe\u0308",
        "\U0001f600",
    ):
        assert flat(literal) in text, literal
    assert "root:" not in text
    # Hebrew is set right to left, so extraction in visual order may reverse it.
    assert "\u05e9\u05dc\u05d5\u05dd" in text or "\u05dd\u05d5\u05dc\u05e9" in text
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            for annot in page.get("/Annots", []):
                uri = annot.get("/A", {}).get("/URI")
                assert uri is None or "127.0.0.1" not in str(uri), uri
    # pdfplumber reads only the pages pdfium finds the chapter's title on.
    with pdfplumber.open(io.BytesIO(pdf), pages=pages_with(pdf, "Our table")) as document:
        for page in document.pages:
            if "Our table" in (page.extract_text() or ""):
                assert not page.images


def test_deeply_nested_markdown_is_set_or_refused_cleanly(runner: Any) -> None:
    (runner.cwd / "deep.md").write_text("*" * 600 + "deep" + "*" * 600 + "\n", encoding="utf-8")
    result = runner("rules", "--no-series", "--extra", "deep.md", "-o", "deep.pdf")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    if result.exit_code == 0:
        assert "deep" in all_text((runner.cwd / "deep.pdf").read_bytes())
    else:
        assert result.output.startswith("Error: ") and len(result.output.splitlines()) == 1
        assert not (runner.cwd / "deep.pdf").exists()


# Every kind of document ----------------------------------------------------------

DOCUMENTS = {
    "sheet-a4-teams": (["sheet", "--paper", "a4", "--teams", "Red=Ann+Cy,Blue=Bob+Di"], "Red"),
    "sheet-copies": (["sheet", "--names", "Zoë,Łukasz,Σοφία,Дмитрий", "--copies", "2"], "Σοφία"),
    "fill": (["fill", "friday.yaml"], "Friday nights"),
    "rules-folded": (["rules", "--layout", "booklet", "--paper", "a4"], "Skip-Bo"),
    "spite-and-malice": (["rules", "--game", "spite-and-malice", "--no-series"], "Spite"),
    "skip-bo-board": (["rules", "--game", "skip-bo-board"], "Skip-Bo"),
}
FRIDAY = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
"""


@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
def test_every_kind_of_document_is_sound(
    module_runner: Runner, kind: str, rules_made_once: None
) -> None:
    """Structure, embedded fonts, nothing off the printable area, and the text reads back.
    A rules booklet is the run's shared copy (``rules_made_once``)."""
    args, expected = DOCUMENTS[kind]
    (module_runner.cwd / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    out = module_runner.cwd / f"{kind}.pdf"
    result = module_runner(*args, "-o", str(out))
    assert result.exit_code == 0, result.output
    pdf = out.read_bytes()
    assert_sound(pdf)
    assert expected in all_text(pdf)
