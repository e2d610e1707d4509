"""Score sheets that fit the table, read back from the PDF: a column per side, pages filled with
rows and spread evenly, nothing smaller than 8 pt, a centred race chart."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pikepdf
import pytest

from sheetgen.booklet.build import build_booklet
from sheetgen.fonts import string_width
from sheetgen.game.definition import load_game
from sheetgen.game.houserules import resolve
from sheetgen.game.scoring import score_series
from sheetgen.paper import paper
from sheetgen.series.file import load_series
from sheetgen.sheet.blank import blank_sheet
from sheetgen.sheet.chart import race_chart
from sheetgen.sheet.fill import fill_pdf, filled_pages
from sheetgen.sheet.grid import GAME_COLUMN, MARGIN
from sheetgen.sheet.layout import MIN_ROW, OPEN_ROWS

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


def test_chart_gives_six_sides_six_looks(series_folder: Path) -> None:
    result = filled(series_folder, SIX, 12)
    chart = race_chart(result, paper("letter").landscape, "Friday", string_width)
    sides = chart.traces[len(SIX) :]
    assert len({trace.dash for trace in sides}) == 6
    assert len({trace.marker for trace in sides}) == 6
    pdf = fill_pdf([result], paper("letter"))
    with pikepdf.open(io.BytesIO(pdf)) as document:
        page = document.pages[-1]
        dashes = {
            tuple(float(x) for x in operands[0])
            for operands, operator in pikepdf.parse_content_stream(page)
            if str(operator) == "d"
        }
    assert len(dashes) >= 6


def test_chart_key_is_compact(series_folder: Path) -> None:
    for names in (SIX[:4], SIX[:5]):
        page = chart_page(fill_pdf([filled(series_folder, names, 6)], paper("letter")))
        words = page.extract_words()
        game = next(w for w in words if w["text"] == "Game")
        key = [w for w in words if w["text"] in names and w["top"] > game["bottom"]]
        assert len(key) == len(names)
        assert len({round(w["top"]) for w in key}) == 1  # one row, no entry left alone


def test_ties_stay_visible_and_lines_at_zero_clear_the_axis(series_folder: Path) -> None:
    # Ann and Bob each win once, by the same margin; Cy never scores.
    data = {
        "players": ["Ann", "Bob", "Cy"],
        "stock": 20,
        "games": [
            {"winner": "Ann", "left": {"Bob": 2, "Cy": 2}},
            {"winner": "Bob", "left": {"Ann": 2, "Cy": 2}},
        ],
    }
    path = series_folder / "tie.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = score_series(load_series(path))
    assert result.totals["Ann"] == result.totals["Bob"]
    chart = race_chart(result, paper("letter").landscape, "Tie", string_width)
    lines = {
        side: trace for side, trace in zip(["Ann", "Bob", "Cy"], chart.traces[3:], strict=True)
    }
    # Tied lines share their height; the winner's (Bob's) marker, ringed, stands on the
    # game's point, and Ann's line runs level into it (print review 26: a marker of hers set
    # beside it read as another total).
    (x, y) = lines["Ann"].points[-1]
    assert lines["Bob"].points[-1] == (x, y)
    assert lines["Bob"].marks == lines["Bob"].wins == ((x, y),)
    assert lines["Ann"].points[-2][1] == y and lines["Ann"].marks == (lines["Ann"].points[1],)
    # One joint label at the end of the tied lines, closed by their total (print review 29).
    assert any(text.text == f"Ann, Bob {result.totals['Bob']}" for text in chart.texts)
    # Cy's line at 0 lies on the zero line, which is clear of the x axis.
    axis = min(
        rule.y1 for rule in chart.background.rules if rule.y1 == rule.y2 and rule.width >= 0.9
    )
    zero = min(rule.y1 for rule in chart.background.rules if rule.gray == 0.75)
    assert {y for _, y in lines["Cy"].points} == {zero}
    assert zero >= axis + 4


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
