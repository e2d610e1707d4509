"""Score sheets that fit the table, read back from the PDF: a column per side, pages filled with
rows and spread evenly, nothing smaller than 8 pt, a centred race chart."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pdfplumber
import pikepdf
import pytest

from sheetgen.booklet.build import build_booklet
from sheetgen.fonts import string_width
from sheetgen.game.definition import load_game
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.game.scoring import score_series
from sheetgen.paper import paper
from sheetgen.series.file import load_series
from sheetgen.sheet.blank import blank_sheet
from sheetgen.sheet.chart import OTHER_GRAY, OTHER_STROKE, OWN_STROKE
from sheetgen.sheet.fill import fill_pdf, filled_pages
from sheetgen.sheet.grid import GAME_COLUMN, MARGIN
from sheetgen.sheet.layout import MIN_ROW, OPEN_ROWS
from sheetgen.sheet.shapes import as_printed

PAPERS = ("letter", "a4")
SIX = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
LONG_NAMES = [
    "Maximilian-Alexander von Habsburg-Lothringen",
    "Bartholomew Featherstonehaugh",
    "Zoë",
    "Łukasz Wróblewski-Przybyszewski",
    "Σοφία Παπαδοπούλου",
    "Дмитрий Александрович Карамазов",
]
LONG_TITLE = (
    "The Friday night Skip-Bo championship of the Anderson-Featherstonehaugh household, "
    "held in the back room of the Three Horseshoes, season 2026"
)

# The module's sheets are drawn once: its tests run in one xdist worker.
pytestmark = pytest.mark.xdist_group("test_sheet_fit")


@dataclass(frozen=True)
class Words:
    """The words a sheet is read back by, in the sheet's language."""

    points: str = "Points"
    total: str = "Total"
    footnote: str = "Scoring:"
    key: tuple[str, ...] = ("won the game", "reached the target")


ENGLISH = Words()
EN = language("en")  # the language the sheets are set in by default


# Reading a sheet back ---------------------------------------------------------


def pages_of(pdf: bytes) -> Iterator[Any]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        yield from document.pages


def is_sheet(page: Any, said: Words = ENGLISH) -> bool:
    """A sheet heads each side's columns with "Points" (the chart names its axis once)."""
    return sum(word["text"] == said.points for word in page.extract_words()) >= 2


def sheet_pages(pdf: bytes, said: Words = ENGLISH) -> list[Any]:
    return [page for page in pages_of(pdf) if is_sheet(page, said)]


def columns(page: Any, said: Words = ENGLISH) -> int:
    """Sides on a sheet page: each has a "Points" and a "Total" column under its name."""
    words = page.extract_words()
    heads = [w for w in words if w["text"] in (said.points, said.total)]
    row = min(w["top"] for w in heads if w["text"] == said.total)  # the sub-headings, not the foot
    points = [w for w in heads if w["text"] == said.points and abs(w["top"] - row) < 2]
    totals = [w for w in heads if w["text"] == said.total and abs(w["top"] - row) < 2]
    assert len(points) == len(totals)
    return len(points)


def game_rows(page: Any) -> list[tuple[int, float]]:
    """Each game row's number and the top of its number, down the game column (under its
    "Game" head, so not the sheet's number over it)."""
    words = page.extract_words()
    head = min((w["top"] for w in words if w["text"] == "Game"), default=0)
    return [
        (int(w["text"]), w["top"])
        for w in words
        if w["text"].isdigit() and w["x1"] < MARGIN + GAME_COLUMN and w["top"] > head
    ]


def table_bottom(page: Any) -> float:
    """The bottom edge of the table (top-down coordinates): its lowest heavy rule."""
    return max(line["top"] for line in page.lines if line["linewidth"] >= 1.3)


def footnote_chars(page: Any, said: Words = ENGLISH) -> list[dict[str, Any]]:
    """The characters of the footnote: everything under the table but the key to the marks."""
    lines: dict[int, list[dict[str, Any]]] = {}
    for char in page.chars:
        if char["top"] > table_bottom(page):
            lines.setdefault(round(char["top"]), []).append(char)
    found: list[dict[str, Any]] = []
    for line in lines.values():
        line.sort(key=lambda c: c["x0"])
        text = "".join(c["text"] for c in line)
        key = min([text.find(words) for words in said.key if words in text] or [len(text)])
        found.extend(line[:key])
    return found


def assert_readable(page: Any, said: Words = ENGLISH) -> None:
    """A footnote, and nothing on the page under 8 pt, the footnote neither."""
    text = "".join(c["text"] for c in footnote_chars(page, said))
    assert said.footnote in text
    for char in page.chars:
        if char["text"].isspace():
            continue
        assert char["size"] >= 8.0 - 0.01, f"{char['text']!r} at {char['size']:.2f} pt"


def name_row(page: Any, said: Words = ENGLISH) -> list[dict[str, Any]]:
    """The characters between the table's top rule and its sub-headings."""
    # The sub-headings: the highest "Total" (the other closes the game column).
    heads = sorted(
        (w for w in page.extract_words() if w["text"] == said.total), key=lambda w: w["top"]
    )
    table_top = max(
        line["top"]
        for line in page.lines
        if line["linewidth"] >= 1.3
        and line["top"] == line["bottom"]
        and line["top"] < heads[0]["top"]
    )
    return [
        c
        for c in page.chars
        if table_top < c["top"] < heads[0]["top"] - 1 and c["x0"] > MARGIN + GAME_COLUMN
    ]


def assert_one_size_per_row(page: Any, said: Words = ENGLISH) -> None:
    """Every name in the header row at one size (partners, in the regular face, at another)."""
    chars = [c for c in name_row(page, said) if c["text"].isalnum()]  # the words, not a "+"
    assert chars
    for bold in (True, False):
        sizes = {round(c["size"], 2) for c in chars if ("Bold" in c["fontname"]) == bold}
        assert len(sizes) <= 1, sizes


def assert_balanced(pages: list[Any]) -> None:
    counts = [len(game_rows(page)) for page in pages]
    assert min(counts) * 3 >= max(counts), counts
    for page in pages:
        tops = [top for _, top in game_rows(page)]
        gaps = [b - a for a, b in itertools.pairwise(tops)]
        assert not gaps or min(gaps) >= MIN_ROW - 0.5, f"rows {min(gaps):.1f} pt tall"


# Blank sheets -----------------------------------------------------------------


BLANKS: dict[str, tuple[dict[str, Any], int]] = {
    **{f"{n} players": ({"players": n}, n) for n in range(2, 7)},
    "four names": ({"names": SIX[:4]}, 4),
    "no players named": ({}, 6),
    "2 teams": ({"teams": 2}, 2),
    "3 teams": ({"teams": 3}, 3),
    "2 named teams": ({"teams": {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]}}, 2),
    "3 named teams": (
        {"teams": {"Red": ["Ann", "Di"], "Blue": ["Bob", "Eve"], "Gold": ["Cy", "Fay"]}},
        3,
    ),
    "spite and malice": ({"game": load_game("spite-and-malice")}, 2),
    "long names": ({"names": LONG_NAMES, "title": LONG_TITLE}, 6),
    "long teams": (
        {
            "teams": {
                "The Featherstonehaugh-Cholmondeley Irregulars": LONG_NAMES[:2],
                "Σοφία and friends": LONG_NAMES[2:4],
                "Дмитрий's table": LONG_NAMES[4:],
            },
            "title": LONG_TITLE,
        },
        3,
    ),
}


@pytest.fixture(
    scope="module", params=[(case, name) for case in BLANKS for name in PAPERS], ids=str
)
def blank(request: pytest.FixtureRequest) -> tuple[bytes, int]:
    case, name = request.param
    options, sides = BLANKS[case]
    return blank_sheet(paper=paper(name), **options).pdf, sides


def test_a_column_for_each_side(blank: tuple[bytes, int]) -> None:
    pdf, sides = blank
    (page,) = sheet_pages(pdf)
    assert columns(page) == sides


def test_blank_sheet_text_is_readable(blank: tuple[bytes, int]) -> None:
    pdf, _ = blank
    (page,) = sheet_pages(pdf)
    assert_readable(page)


def test_a_header_row_sets_its_names_at_one_size(blank: tuple[bytes, int]) -> None:
    pdf, _ = blank
    (page,) = sheet_pages(pdf)
    assert_one_size_per_row(page)


@pytest.mark.parametrize("teams", [2, 3])
def test_blank_team_columns_have_a_line_for_each_partner(teams: int) -> None:
    (page,) = sheet_pages(blank_sheet(paper=paper("letter"), teams=teams).pdf)
    heads = [w for w in page.extract_words() if w["text"] == "Points"]
    captions = [w for w in page.extract_words() if w["text"] == "Team"]
    assert len(captions) == teams
    # Short write-in rules in the name row: two per team, either side of a "+".
    partner_lines = [
        line
        for line in page.lines
        if line["top"] < heads[0]["top"]
        and line["top"] == line["bottom"]
        and line["x1"] - line["x0"] < page.width / (2 * teams)
        and line["top"] > captions[0]["bottom"]
    ]
    assert len(partner_lines) == 2 * teams
    pluses = [c for c in page.chars if c["text"] == "+" and c["top"] < heads[0]["top"]]
    assert len(pluses) == teams
    assert min(c["size"] for c in page.chars if c["top"] < heads[0]["top"]) >= 8 - 0.01


def test_spite_and_malice_series_sheet_in_the_booklet_has_two_columns() -> None:
    rules = resolve(game="spite-and-malice", options={"series": True})
    pdf = build_booklet(rules, paper=paper("letter"))
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        last = document.pages[-1]
        assert is_sheet(last)
        assert columns(last) == 2
        assert "Spite and Malice score sheet" in (last.extract_text() or "")


@pytest.mark.parametrize("name", PAPERS)
@pytest.mark.parametrize(("games", "pages"), [(10, 1), (11, 1), (17, 1), (20, 2), (33, 2)])
def test_rows_fill_the_page_and_pages_share_them_evenly(
    runner: Any, name: str, games: int, pages: int
) -> None:
    result = runner("sheet", "--games", str(games), "--paper", name, "-o", "s.pdf")
    assert result.exit_code == 0, result.output
    sheets = sheet_pages((runner.cwd / "s.pdf").read_bytes())
    assert len(sheets) == pages
    numbers = [number for page in sheets for number, _ in game_rows(page)]
    assert numbers == list(range(1, games + 1))
    assert_balanced(sheets)
    for page in sheets:
        assert_readable(page)
        assert columns(page) == 6


@pytest.mark.parametrize("name", PAPERS)
def test_a_long_title_wraps_and_keeps_clear_of_the_date(name: str) -> None:
    (page,) = sheet_pages(blank_sheet(paper=paper(name), title=LONG_TITLE).pdf)
    date = next(w for w in page.extract_words() if w["text"] == "Date")
    title = [c for c in page.chars if c["top"] < date["top"] and not c["text"].isspace()]
    assert "".join(c["text"] for c in title) == LONG_TITLE.replace(" ", "")
    assert min(c["size"] for c in title) >= 12
    assert len({round(c["top"]) for c in title}) == 2  # on two lines of its own
    assert max(c["x1"] for c in title) <= page.width - MARGIN + 0.5


# Filled sheets ----------------------------------------------------------------


def series(names: list[str], games: int, title: str = "Friday nights") -> dict[str, Any]:
    """``games`` games, each side winning in turn, with few cards left: nobody reaches 500."""
    played = []
    for number in range(games):
        winner = names[number % len(names)]
        played.append({"winner": winner, "left": {n: 1 for n in names if n != winner}})
    return {"title": title, "players": names, "stock": 20, "target": 5000, "games": played}


FILLED = {3: 1, 12: 1, 13: 1, 16: 2, 24: 2, 40: 3}


@pytest.fixture(scope="module")
def series_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("filled")


def filled(folder: Path, names: list[str], games: int, title: str = "Friday nights") -> Any:
    path = folder / f"s{len(names)}-{games}-{len(title)}.json"
    path.write_text(json.dumps(series(names, games, title), ensure_ascii=False), encoding="utf-8")
    return score_series(load_series(path))


@pytest.mark.parametrize("name", PAPERS)
@pytest.mark.parametrize("games", FILLED)
def test_filled_series_use_the_same_capacity(series_folder: Path, name: str, games: int) -> None:
    result = filled(series_folder, SIX[:4], games)
    pdf = fill_pdf([result], paper(name))
    sheets = sheet_pages(pdf)
    if name == "letter":
        assert len(sheets) == FILLED[games]
    layouts = [layout for layout, _ in filled_pages(result, paper(name))]
    assert len(sheets) == len(layouts)
    numbers = [number for page in sheets for number, _ in game_rows(page)]
    assert numbers[:games] == list(range(1, games + 1))
    assert_balanced(sheets)
    for page in sheets:
        assert columns(page) == 4
        assert_readable(page)
        assert_one_size_per_row(page)


def test_an_open_series_and_its_rows_to_go_on_fit_one_letter_page_up_to_sixteen(
    series_folder: Path,
) -> None:
    for sides in (2, 4, 6):
        pdf = fill_pdf([filled(series_folder, SIX[:sides], 16 - OPEN_ROWS)], paper("letter"))
        sheets = sheet_pages(pdf)
        assert len(sheets) == 1
        assert columns(sheets[0]) == sides
        assert [n for n, _ in game_rows(sheets[0])] == list(range(1, 17))


@pytest.mark.parametrize("name", PAPERS)
def test_long_names_and_status_wrap_rather_than_shrink(series_folder: Path, name: str) -> None:
    result = filled(series_folder, LONG_NAMES[:5], 12, LONG_TITLE)
    pages = filled_pages(result, paper(name))
    pdf = fill_pdf([result], paper(name))
    for page, (layout, _) in zip(sheet_pages(pdf), pages, strict=True):
        assert_readable(page)
        assert_one_size_per_row(page)
        assert columns(page) == 5
        # The status line: on two lines, each descender above the write-in rule.
        status = layout.status
        top, bottom = page.height - status.top, page.height - status.y
        chars = [c for c in page.chars if top <= c["top"] and c["bottom"] <= bottom + 2]
        chars = [c for c in chars if c["x0"] >= status.x - 0.5]
        assert len({round(c["top"]) for c in chars}) == 2
        rule = page.height - (status.y + 1)
        assert max(c["bottom"] for c in chars) <= rule - 0.3
        assert min(c["size"] for c in chars) >= 8 - 0.01


def test_the_key_and_the_footnote_share_one_size(series_folder: Path) -> None:
    (page,) = sheet_pages(fill_pdf([filled(series_folder, SIX[:4], 3)], paper("letter")))
    text = page.extract_text() or ""
    # The series is open: its key names the ring, and not yet the heavy box no one has
    # (print review 10).
    won, reached = ENGLISH.key
    assert won in text and reached not in text
    below = [c for c in page.chars if c["top"] > table_bottom(page) and not c["text"].isspace()]
    assert {round(c["size"], 2) for c in below} == {8.0}


# The race chart ---------------------------------------------------------------


def chart_page(pdf: bytes) -> Any:
    return next(page for page in pages_of(pdf) if "race" in (page.extract_text() or ""))


def ink(page: Any) -> tuple[float, float]:
    """The left and right margins of everything drawn on ``page``."""
    marks = page.chars + page.lines + page.curves + page.rects
    return min(m["x0"] for m in marks), page.width - max(m["x1"] for m in marks)


@pytest.mark.parametrize("name", PAPERS)
@pytest.mark.parametrize("names", [SIX[:2], SIX, LONG_NAMES[:4]], ids=["two", "six", "long names"])
def test_chart_is_centred_and_readable(series_folder: Path, name: str, names: list[str]) -> None:
    result = filled(series_folder, names, 12)
    page = chart_page(fill_pdf([result], paper(name)))
    left, right = ink(page)
    assert abs(left - right) < 0.25 * 72, (left, right)
    assert min(c["size"] for c in page.chars if not c["text"].isspace()) >= 8 - 0.01


class Plot(NamedTuple):
    """A panel's plot as printed, in pdfplumber's top-down points: inside its axes."""

    left: float
    top: float
    right: float
    bottom: float


class Paint(NamedTuple):
    """A path painted on a page, in the order the page paints it, in top-down points: its
    painting operator (``S`` strokes, ``f``/``f*`` fill), its width and its grey (the
    stroke's, or the fill's for a fill), and each part's points (a curve by its ends)."""

    op: str
    width: float
    gray: float
    parts: tuple[tuple[tuple[float, float], ...], ...]


def level(color: Any) -> float:
    """A pdfplumber colour as a grey level (a grey is one number, or a tuple of one)."""
    return float(color[0]) if isinstance(color, (tuple, list)) else float(color)


def plots(page: Any) -> list[Plot]:
    """Every panel's plot on a chart page, by its axes (black, 0.8 pt: the x axis and the
    y axis meet at its bottom left), in reading order: row by row, left to right."""
    axes = [
        line
        for line in page.lines
        if abs(line["linewidth"] - 0.8) < 0.01 and level(line["stroking_color"]) == 0
    ]
    across = [a for a in axes if abs(a["top"] - a["bottom"]) < 0.01]
    up = [a for a in axes if abs(a["x0"] - a["x1"]) < 0.01]
    found = [
        Plot(x["x0"], y["top"], x["x1"], x["bottom"])
        for x in across
        for y in up
        if abs(y["x0"] - x["x0"]) < 0.01 and abs(y["bottom"] - x["bottom"]) < 0.01
    ]
    return sorted(found, key=lambda plot: (round(plot.top), plot.left))


def inside(point: tuple[float, float], plot: Plot) -> bool:
    """Whether ``point`` (top-down) lies in ``plot``, its edges too."""
    x, y = point
    return plot.left - 0.01 <= x <= plot.right + 0.01 and plot.top - 0.01 <= y <= plot.bottom + 0.01


class Heading(NamedTuple):
    """A panel's heading as printed: its name's lines (each a line's words, left to right)
    and its total (the word at the plot's right on the heading's first line)."""

    lines: list[list[dict[str, Any]]]
    total: dict[str, Any]

    @property
    def name(self) -> str:
        """The name as printed, its lines run together (a line broken at a space)."""
        return " ".join(" ".join(w["text"] for w in line) for line in self.lines)

    @property
    def words(self) -> list[dict[str, Any]]:
        return [*(w for line in self.lines for w in line), self.total]


def heading(page: Any, plot: Plot) -> Heading:
    """The bold words over ``plot``: from its total's line (the lowest bold word ending at
    the plot's right, above it) down to the plot."""
    words = [
        w
        for w in page.extract_words(extra_attrs=["fontname", "size"])
        if w["fontname"].endswith("Bold")
        and w["bottom"] <= plot.top
        and plot.left - 1 <= w["x0"] < plot.right + 1
    ]
    total = max(
        (w for w in words if abs(w["x1"] - plot.right) < 1 and w["bottom"] > plot.top - 40),
        key=lambda w: w["bottom"],
    )
    rows: dict[int, list[dict[str, Any]]] = {}
    for w in words:
        if w is not total and w["top"] > total["top"] - 1:
            rows.setdefault(round(w["top"]), []).append(w)
    lines = [sorted(rows[top], key=lambda w: w["x0"]) for top in sorted(rows)]
    return Heading(lines, total)


def paints(pdf: bytes, index: int = -1) -> list[Paint]:
    """The paths painted on a page's own content (not its forms: the chart's grid), in order."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        page = document.pages[index]
        height = float(page.mediabox[3])
        operations = pikepdf.parse_content_stream(page)
    width, stroke, fill = 1.0, 0.0, 0.0
    parts: list[list[tuple[float, float]]] = []
    found: list[Paint] = []
    for instruction in operations:
        operands, op = instruction.operands, str(instruction.operator)
        if op == "cm":
            assert [float(x) for x in operands] == [1, 0, 0, 1, 0, 0]
        elif op == "w":
            width = float(operands[0])
        elif op in ("G", "g"):
            stroke, fill = (float(operands[0]), fill) if op == "G" else (stroke, float(operands[0]))
        elif op == "m":
            parts.append([(float(operands[0]), height - float(operands[1]))])
        elif op in ("l", "c"):
            parts[-1].append((float(operands[-2]), height - float(operands[-1])))
        elif op in ("S", "s", "f", "f*", "F", "B", "B*", "b", "b*"):
            shade = fill if op.lower().startswith("f") else stroke
            found.append(Paint(op, width, shade, tuple(tuple(part) for part in parts)))
            parts = []
        elif op == "n":
            parts = []
    return found


def dashes(pdf: bytes, index: int = -1) -> set[tuple[float, ...]]:
    """Every dash pattern a page sets, in its own content and in its forms."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        page = document.pages[index]
        forms: list[pikepdf.Object] = list(page.Resources.get("/XObject", {}).values())
        streams: list[pikepdf.Object | pikepdf.Page] = [page, *forms]
        return {
            tuple(float(x) for x in instruction.operands[0])
            for stream in streams
            for instruction in pikepdf.parse_content_stream(stream)
            if str(instruction.operator) == "d"
        }


def panel_lines(drawn: list[Paint], plot: Plot) -> list[Paint]:
    """The sides' lines drawn in ``plot`` (each starts at game 0, on its y axis), in order."""
    return [
        paint
        for paint in drawn
        if paint.op == "S"
        and paint.gray in (0.0, OTHER_GRAY)
        and len(paint.parts) == 1
        and abs(paint.parts[0][0][0] - plot.left) < 0.01
        and plot.top - 0.01 <= paint.parts[0][0][1] <= plot.bottom + 0.01
    ]


def centre(part: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    """The centre of a round part of a path (a dot, a halo)."""
    xs, ys = [x for x, _ in part], [y for _, y in part]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def dots(drawn: list[Paint]) -> list[tuple[float, float]]:
    """The centres of the black dots filled on a page (the games each panel's side won)."""
    return [
        centre(part)
        for paint in drawn
        if paint.op.startswith("f") and paint.gray == 0
        for part in paint.parts
    ]


def write_series(folder: Path, name: str, data: dict[str, Any]) -> Any:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return score_series(load_series(path))


@pytest.mark.parametrize("name", PAPERS)
def test_chart_gives_six_sides_six_panels_headed_by_name_and_total(
    series_folder: Path, name: str
) -> None:
    """Six sides, six panels, in the order of the sides: each headed by its side's name at
    its plot's left and its total at its right, its own line black over the other five in
    grey. No line is dashed: a reader tells the sides apart by panel, not by pattern."""
    games = [
        {"winner": winner, "left": {n: number + 1 for n in SIX if n != winner}}
        for number, winner in enumerate(SIX)
    ]
    data = {"players": SIX, "stock": 20, "target": 500, "games": games}
    result = write_series(series_folder, "six-panels", data)
    assert len(set(result.totals.values())) == 6
    pdf = fill_pdf([result], paper(name))
    page = chart_page(pdf)
    found = plots(page)
    assert len(found) == 6, found
    drawn = paints(pdf)
    for side, plot in zip(SIX, found, strict=True):
        head = heading(page, plot)
        assert head.name == side
        assert head.total["text"] == EN.number(result.totals[side])
        assert head.lines[0][0]["x0"] == pytest.approx(plot.left, abs=0.5)
        assert head.total["x1"] == pytest.approx(plot.right, abs=0.5)
        lines = panel_lines(drawn, plot)
        assert [(p.width, p.gray) for p in lines] == [(OTHER_STROKE, OTHER_GRAY)] * 5 + [
            (OWN_STROKE, 0.0)
        ]
    assert dashes(pdf) <= {()}, dashes(pdf)


@pytest.mark.parametrize("name", PAPERS)
@pytest.mark.parametrize("teams", [False, True], ids=["players", "teams"])
def test_a_long_name_is_fitted_in_its_panel_heading_clear_of_the_total(
    series_folder: Path, name: str, teams: bool
) -> None:
    """A name too long for its panel's heading is set smaller, then on two lines, then cut
    short (with "…"), but never under 8 pt; every line keeps to the panel, and the line
    beside the total at the plot's right never runs into it: a reader reads
    "Maximilian-Alexander 100", not the two run together."""
    data = series(LONG_NAMES, 12)
    if teams:
        data["teams"] = {
            "The Featherstonehaugh-Cholmondeley Irregulars": LONG_NAMES[:2],
            "Σοφία and friends": LONG_NAMES[2:4],
            "Дмитрий's table": LONG_NAMES[4:],
        }
        data["games"] = [
            {"winner": team, "left": {member: 2 for member in LONG_NAMES if member not in mine}}
            for team, mine in itertools.islice(itertools.cycle(data["teams"].items()), 9)
        ]
    result = write_series(series_folder, f"long-heads-{teams}", data)
    table = result.series.table
    page = chart_page(fill_pdf([result], paper(name)))
    found = plots(page)
    assert len(found) == len(table.sides)
    sizes: set[float] = set()
    squeezed = False
    for side, plot in zip(table.sides, found, strict=True):
        head = heading(page, plot)
        total = head.total
        label = as_printed(table.side_label(side))
        assert total["text"] == EN.number(result.totals[side])
        assert total["x1"] <= plot.right + 0.5
        # Every line of the name starts at the plot's left and stays in the panel; the
        # line beside the total ends clear of it.
        for line in head.lines:
            assert line[0]["x0"] == pytest.approx(plot.left, abs=0.5)
            assert line[-1]["x1"] <= plot.right + 0.5
        beside = [w for w in head.words[:-1] if abs(w["top"] - total["top"]) < 1]
        assert beside and total["x0"] - max(w["x1"] for w in beside) >= 6, (head.name, total)
        # The name whole (broken between lines at a space or after a hyphen), or cut short.
        printed, whole = head.name.replace(" ", ""), label.replace(" ", "")
        assert printed == whole or (printed.endswith("…") and whole.startswith(printed[:-1])), (
            head.name,
            label,
        )
        room = plot.right - plot.left - (total["x1"] - total["x0"])
        squeezed |= string_width(label, 9, True) > room
        sizes |= {round(w["size"], 2) for w in head.words}
    assert squeezed  # the case needs a name fitted: one is wider than its heading at 9 pt
    assert len(sizes) == 1 and min(sizes) >= 8 - 0.01, sizes


def test_ties_stay_visible_and_lines_at_zero_clear_the_axis(series_folder: Path) -> None:
    """Ann and Bob each win once, by the same margin; Cy never scores. In every panel Ann's
    and Bob's lines stand at one height after game 2 (drawn apart, a tie would read as a
    lead); the game's winner's dot sits on that shared point in Bob's own panel only; and
    Cy's line lies on the zero line, which stands clear of the x axis (on the axis, a 0
    would read as no line)."""
    data = {
        "players": ["Ann", "Bob", "Cy"],
        "stock": 20,
        "games": [
            {"winner": "Ann", "left": {"Bob": 2, "Cy": 2}},
            {"winner": "Bob", "left": {"Ann": 2, "Cy": 2}},
        ],
    }
    result = write_series(series_folder, "tie", data)
    sides = ["Ann", "Bob", "Cy"]
    assert result.totals["Ann"] == result.totals["Bob"] and result.totals["Cy"] == 0
    pdf = fill_pdf([result], paper("letter"))
    page = chart_page(pdf)
    drawn = paints(pdf)
    marked = dots(drawn)
    found = plots(page)
    assert len(found) == 3
    heights: set[float] = set()
    for own, plot in zip(sides, found, strict=True):
        # The other sides' lines in the order of the sides, then the panel's own.
        order = [side for side in sides if side != own] + [own]
        lines = {
            side: paint.parts[0]
            for side, paint in zip(order, panel_lines(drawn, plot), strict=True)
        }
        (x, y) = lines["Ann"][2]
        assert lines["Bob"][2] == pytest.approx((x, y), abs=0.01)
        heights.add(round(plot.bottom - y, 2))
        here = [dot for dot in marked if inside(dot, plot)]
        wins = [lines[own][game.number] for game in result.games if game.winner == own]
        assert sorted(here) == pytest.approx(sorted(wins), abs=0.05), own
        assert (own == "Bob") == any(dot == pytest.approx((x, y), abs=0.05) for dot in here)
        zero = max(
            line["top"]
            for line in page.lines
            if abs(line["linewidth"] - 0.4) < 0.01
            and level(line["stroking_color"]) == pytest.approx(0.8)
            and abs(line["x0"] - plot.left) < 0.01
        )
        assert {round(point[1], 2) for point in lines["Cy"]} == {round(zero, 2)}
        assert plot.bottom - zero >= 4
    assert len(heights) == 1, heights  # one scale: the tie at one height in every panel


def test_a_cards_left_series_says_how_it_is_won_and_boxes_the_lowest_total(
    series_folder: Path,
) -> None:
    # Ann wins game 1; Bob wins game 2 but ends with the higher total: Ann wins the series.
    data = {
        "players": ["Ann", "Bob"],
        "scoring": "cards-left",
        "games_to_play": 2,
        "stock": 20,
        "games": [
            {"winner": "Ann", "left": {"Bob": 20}},
            {"winner": "Bob", "left": {"Ann": 5}},
        ],
    }
    path = series_folder / "cards-left.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = score_series(load_series(path))
    assert result.winner == "Ann" and result.won_in_game == 2
    ((layout, values),) = filled_pages(result, paper("letter"))
    assert layout.games == (1, 2)  # a row for each game agreed on
    assert values.reached == (1, 0)  # Ann's total in game 2, not the game's winner's
    pdf = fill_pdf([result], paper("letter"))
    sheet, chart = (page.extract_text() or "" for page in pages_of(pdf))
    assert "2 games: the lowest total after the last one wins the series." in sheet
    assert "won the series" in sheet and "reached the target" not in sheet
    assert "Target" not in chart and "the lowest after 2 games wins" in chart


REVIEWED_NAMES = (
    "Maximiliane Hohenstaufen-Wittelsbach",
    "Hans-Joachim Oberstaatsanwalt",
    "Friederike Schwarzenberger",
    "Bartholomäus Langenscheidt",
    "Kunigunde Zwirnermeister",
    "Wolfgang Schnellenkamp-Brückner",
)


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_names_break_at_spaces_and_hyphens_never_inside_a_word(name: str) -> None:
    """A print designer's finding: six long names came out as "Oberstaa-tsanwalt" and
    "Schwarz-enberger" at 12 pt. A header row now takes a size a step smaller before it
    breaks anybody's name inside a word; it stays at a comfortable size and one size."""
    import pypdfium2

    pdf = blank_sheet(paper=paper(name), names=REVIEWED_NAMES).pdf
    text = pypdfium2.PdfDocument(pdf)[0].get_textpage().get_text_range()
    # pdfium marks a hyphen that ends a line with U+FFFE; a real hyphen may end a line.
    words = set(text.replace("\ufffe", " ").replace("-", " ").split())
    for full in REVIEWED_NAMES:
        for word in full.replace("-", " ").split():
            assert word in words, word
    (page,) = sheet_pages(pdf)
    assert_readable(page)
    sizes = {
        round(char["size"], 1)
        for char in page.chars
        if char["text"].strip() and char["top"] < table_bottom(page) and char["size"] > 10.5
    }
    assert sizes and min(sizes) >= 10.0


def test_pages_of_one_shape_share_their_frame_and_keep_their_own_words() -> None:
    """The grid and slots of a page are worked out once per shape; the title, status
    and names are each sheet's own."""
    from sheetgen.sheet.layout import Heading, SheetSpec, layout_sheet

    def spec(title: str, names: list[str], status: str) -> SheetSpec:
        return SheetSpec(
            headings=tuple(Heading(name) for name in names),
            goal="Target: 500 points.",
            title=title,
            reminder="Scoring: the winner scores 25 plus 5 per card.",
            status=status,
            legend=True,
        )

    page = paper("letter").landscape
    one = layout_sheet(page, spec("Friday", ["Ann", "Bob"], "Ann leads"), 12, string_width)
    two = layout_sheet(page, spec("Monday", ["Cy", "Di"], "Di leads"), 12, string_width)
    assert [layout.grid for layout in one] == [layout.grid for layout in two]
    assert all(a.grid is b.grid for a, b in zip(one, two, strict=True))
    assert (one[0].points, one[0].totals, one[0].final) == (
        two[0].points,
        two[0].totals,
        two[0].final,
    )
    words = [{text.text for text in layout.texts} for layout in (one[0], two[0])]
    assert {"Friday", "Ann", "Bob", "Ann leads"} <= words[0]
    assert {"Monday", "Cy", "Di", "Di leads"} <= words[1]
    assert not words[0] & {"Monday", "Cy", "Di", "Di leads"}
    assert not words[1] & {"Friday", "Ann", "Bob", "Ann leads"}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["letter", "a4"])
def test_the_totals_label_keeps_clear_of_the_game_column_s_rules(lang: str, name: str) -> None:
    """The print reviewer measured German "Summe" 0.33 pt from each rule of the game column."""
    from sheetgen.game.language import language

    words = language(lang)
    label = words._("Total")
    (page,) = list(pages_of(blank_sheet(paper=paper(name), lang=words).pdf))
    chars = page.chars
    found = [
        chars[i : i + len(label)]
        for i in range(len(chars) - len(label) + 1)
        if "".join(c["text"] for c in chars[i : i + len(label)]) == label
        and chars[i]["x0"] < MARGIN + GAME_COLUMN
    ]
    assert found, label
    (word,) = found
    assert word[0]["x0"] >= MARGIN + 2 and word[-1]["x1"] <= MARGIN + GAME_COLUMN - 2
    assert min(c["size"] for c in word) >= 8


@pytest.mark.parametrize("width", [160.0, 200.0, 260.0, 400.0])
def test_a_verdict_keeps_each_side_with_its_figure(width: float, tmp_path: Path) -> None:
    """Print reviews 33 and 36: the verdict set "Dörte Müller-Lüdenscheidt" on one line and
    "410" on the next, then "Dörte Müller-" and "Lüdenscheidt 410". Each side's name and
    the points it still needs are joined by no-break spaces (status_line), which a line
    breaks at neither there nor at the name's own hyphen; lines break between sides."""
    from sheetgen.sheet.fill import NO_BREAK_SPACE, status_line
    from sheetgen.sheet.fitting import wrap_whole

    def measure(text: str, size: float, bold: bool) -> float:
        return string_width(text, size, bold)

    names = ["Dörte Müller-Lüdenscheidt", "Bo", "Ann-Kathrin Lee"]
    data = {
        "players": names,
        "games": [{"winner": "Bo", "left": {names[0]: 4, names[2]: 6}}],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    said = status_line(score_series(load_series(path)))
    fitted = wrap_whole(said, width, 10, 8, measure, bold=True, lines=4, balance=False)
    assert not fitted.cut
    lines = [line.replace(NO_BREAK_SPACE, " ") for line in fitted.lines]
    for name in names:
        assert [line for line in lines if name in line], (name, lines)
    for line in lines[1:]:
        assert not line.split(" ")[0].rstrip(",").isdigit(), lines
