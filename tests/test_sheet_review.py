"""A print designer's review of the score sheets, each finding read back from the PDF."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from sheetgen.fonts import string_width
from sheetgen.game.definition import load_game
from sheetgen.game.scoring import score_series
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.paper import paper
from sheetgen.series.file import load_series
from sheetgen.sheet.blank import blank_sheet
from sheetgen.sheet.chart import race_chart
from sheetgen.sheet.fill import fill_pdf, filled_pages
from sheetgen.sheet.fitting import syllable_breaks
from sheetgen.sheet.grid import GAME_COLUMN, MARGIN
from sheetgen.sheet.layout import MAX_ROW, MIN_ROW, OPEN_ROWS, WRITING_ROW
from sheetgen.sheet.shapes import MARKER_HALO
from tests.test_sheet_fit import (
    LONG_NAMES,
    Words,
    assert_one_size_per_row,
    assert_readable,
    game_rows,
    name_row,
    pages_of,
    series,
    sheet_pages,
)

SIX = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]


def scored(folder: Path, data: dict[str, Any], name: str) -> Any:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return score_series(load_series(path))


@pytest.mark.parametrize("agreed", [8, 14])
def test_a_blank_cards_left_sheet_has_a_row_for_each_game_agreed(agreed: int) -> None:
    rules = ScoringRules.from_mapping(
        {"way": "cards-left", "games_to_play": agreed}, load_game().scoring
    )
    pdf = blank_sheet(scoring=rules, players=3).pdf
    pages = sheet_pages(pdf, Words(points="Cards"))
    numbers = [number for page in pages for number, _ in game_rows(page)]
    assert numbers == list(range(1, agreed + 1))
    text = "".join(page.extract_text() or "" for page in pages_of(pdf))
    assert f"{agreed} games" in text


def test_a_blank_cards_left_sheet_refuses_another_row_count() -> None:
    from sheetgen.errors import RuleError

    rules = ScoringRules.from_mapping(
        {"way": "cards-left", "games_to_play": 8}, load_game().scoring
    )
    with pytest.raises(RuleError, match="8 games"):
        blank_sheet(scoring=rules, players=3, games=10)


@pytest.mark.parametrize("sides", range(2, 7))
def test_the_won_the_game_ring_keeps_its_shape(tmp_path: Path, sides: int) -> None:
    result = scored(tmp_path, series(SIX[:sides], 4), "ring")
    (page,) = sheet_pages(fill_pdf([result], paper("letter")))
    rings = [c for c in page.curves if c["width"] > 5]
    assert len(rings) >= 4  # one per game, and the one in the key
    for ring in rings:
        assert ring["width"] / ring["height"] <= 2.0, (ring["width"], ring["height"])


# The race chart ---------------------------------------------------------------

TIED = {
    "players": ["Ann", "Bob", "Cy"],
    "stock": 20,
    "target": 500,
    "games": [
        {"winner": "Ann", "left": {"Bob": 20, "Cy": 5}},
        {"winner": "Bob", "left": {"Ann": 5, "Cy": 20}},
        {"winner": "Ann", "left": {"Bob": 3, "Cy": 4}},
    ],
}


def _chart(folder: Path, data: dict[str, Any]) -> tuple[Any, Any]:
    result = scored(folder, data, "chart")
    return result, race_chart(result, paper("letter").landscape, "Chart", string_width)


def _axis(chart: Any) -> tuple[float, float]:
    """The y of the 0 and of the first grid line above it, with that line's value."""
    grid = sorted({rule.y1 for rule in chart.background.rules if rule.gray == 0.75})
    ticks = {t.text: t for t in chart.background.labels if t.align == "right"}
    step = int(sorted(ticks, key=lambda t: ticks[t].y)[1].replace(",", ""))
    return grid[0], (grid[1] - grid[0]) / step


def _lines_follow_their_totals(result: Any, chart: Any) -> None:
    """Each side's line passes through its running totals at their true values."""
    zero, per_point = _axis(chart)
    sides = result.series.table.sides
    traces = chart.traces[len(sides) :]
    for side, trace in zip(sides, traces, strict=True):
        totals = [0, *(game.totals[side] for game in result.games)]
        ys = [y for _, y in trace.points]
        for value, y in zip(totals, ys, strict=True):
            assert y == pytest.approx(zero + value * per_point, abs=0.01), (side, value, y)


def test_chart_lines_follow_their_totals(tmp_path: Path) -> None:
    result, chart = _chart(tmp_path, TIED)
    _lines_follow_their_totals(result, chart)


def test_a_side_that_never_scores_stays_flat_on_the_zero_line(tmp_path: Path) -> None:
    """The print reviewer's series: four sides win in turn (so they keep drawing level) and
    Eve never wins; drawn with a lift per tie, Ann's flat 65 fell and Eve's 0 rose and fell."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve"]
    games = [
        {"winner": names[i % 4], "left": {n: 8 for n in names if n != names[i % 4]}}
        for i in range(16)
    ]
    result, chart = _chart(
        tmp_path, {"players": names, "stock": 20, "target": 2200, "games": games}
    )
    _lines_follow_their_totals(result, chart)
    eve = chart.traces[len(names) :][4]
    assert {round(y, 3) for _, y in eve.points} == {round(_axis(chart)[0], 3)}


def test_tied_lines_share_one_height_and_the_winners_ring_alone_marks_the_game(
    tmp_path: Path,
) -> None:
    """Tied sides stand at one height; the game's only marker is its winner's, ringed, on the
    game's point (print review 26: markers of the others, set beside it where there was
    room, showed some ties and not others, and on climbing lines stood at totals nobody
    scored). Six sides level at once end at one point under one name."""
    result, chart = _chart(tmp_path, TIED)
    sides = result.series.table.sides
    ann, bob = chart.traces[len(sides) :][:2]
    second = result.games[1]
    assert second.totals["Ann"] == second.totals["Bob"] and second.winner == "Bob"
    (x, y), (bob_x, bob_y) = ann.points[2], bob.points[2]
    assert (x, y) == (bob_x, bob_y)
    room = ann.points[2][0] - ann.points[1][0]
    here = [mark for trace in chart.traces[len(sides) :] for mark in trace.marks]
    assert [mark for mark in here if abs(mark[0] - x) < room / 2] == [(x, y)]
    assert (x, y) in bob.wins
    names = SIX
    games = [{"winner": n, "left": {m: 4 for m in names if m != n}} for n in names]
    result, chart = _chart(tmp_path, {"players": names, "stock": 20, "target": 500, "games": games})
    assert len(set(result.totals.values())) == 1
    lines = chart.traces[len(names) :]
    assert len({trace.points[-1] for trace in lines}) == 1
    last = lines[0].points[-1]
    assert [mark for trace in lines for mark in trace.marks if mark[0] == last[0]] == [last]
    right = [t.text for t in sorted(chart.texts, key=lambda t: -t.y) if t.x > last[0]]
    assert " ".join(right) == f"{', '.join(names)} {result.totals[names[0]]}"


FRIDAY = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "stock": 30,
    "target": 500,
    "games": [
        {
            "winner": winner,
            "left": dict(
                zip([n for n in ["Ann", "Bob", "Cy", "Di"] if n != winner], left, strict=True)
            ),
        }
        for winner, left in [
            ("Ann", (7, 12, 3)),
            ("Bob", (5, 10, 8)),
            ("Cy", (4, 3, 9)),
            ("Di", (6, 6, 2)),
            ("Ann", (2, 4, 5)),
            ("Bob", (3, 5, 1)),
            ("Cy", (2, 4, 3)),
            ("Di", (5, 5, 4)),
            ("Cy", (1, 1, 1)),
            ("Di", (1, 1, 1)),
            ("Ann", (3, 2, 1)),
            ("Bob", (5, 1, 6)),
            ("Cy", (1, 1, 1)),
            ("Di", (1, 1, 1)),
            ("Cy", (1, 1, 1)),
            ("Bob", (12, 12, 12)),
        ]
    ],
}


def test_only_the_winners_markers_stand_on_the_chart(tmp_path: Path) -> None:
    """Print reviews 22, 24 and 26: markers of lines that meet, set beside a game's point,
    stood off their lines, seemed to start another side's rising line, and (set where there
    was room) marked some ties and not others. A side's only markers are those of the games
    it won, each on its line's point for that game, ringed."""
    result, chart = _chart(tmp_path, FRIDAY)
    sides = result.series.table.sides
    lines = dict(zip(sides, chart.traces[len(sides) :], strict=True))
    assert any(
        len(set(game.totals.values())) < len(sides) for game in result.games
    )  # the series has ties
    for side, line in lines.items():
        won = tuple(line.points[game.number] for game in result.games if game.winner == side)
        assert line.marks == line.wins == won, side


def test_moved_end_labels_have_leaders_from_their_lines_ends(tmp_path: Path) -> None:
    # Six sides ending 5 points apart near 500 (a few points of height even on an axis
    # zoomed to 600, far below a target of 5,000) push their labels apart.
    names = SIX
    games = [
        {
            "winner": winner,
            "left": {n: (20 - i if n == names[i - 1] else 20) for n in names if n != winner},
        }
        for i, winner in enumerate(names)
    ]
    result, chart = _chart(
        tmp_path, {"players": names, "stock": 20, "target": 5000, "games": games}
    )
    assert len(set(result.totals.values())) == 6
    ends = {trace.points[-1] for trace in chart.traces[len(names) :]}
    assert chart.leaders, "labels that had to move have leaders"
    for leader in chart.leaders:
        assert (leader.x1, leader.y1) in ends
    labels = [t for t in chart.texts if t.x > max(x for x, _ in ends)]
    for leader in chart.leaders:
        assert any(abs(leader.y2 - (t.y + t.size * 0.35)) < t.size for t in labels)
    # Labels moved apart stand further apart than a label's own lines (print review 28:
    # "Cy" read as the third line of the label above it).
    baselines = sorted({round(t.y, 3) for t in labels})
    lead = labels[0].size * 1.15
    assert all(b - a >= lead * 1.3 for a, b in itertools.pairwise(baselines)), baselines
    # And one leader from each line's end, not one per side ending there (review 28: drawn
    # three or four times over itself).
    games[1]["left"] = dict.fromkeys((n for n in names if n != names[1]), 20)
    level, tied = _chart(tmp_path, {"players": names, "stock": 20, "target": 5000, "games": games})
    assert level.totals[names[0]] == level.totals[names[1]]
    assert tied.traces[len(names)].points[-1] in {(r.x1, r.y1) for r in tied.leaders}
    assert len(set(tied.leaders)) == len(tied.leaders)
    # And they are drawn: thin lines reaching into the labels' margin.
    pdf = fill_pdf([result], paper("letter"))
    page = next(p for p in pages_of(pdf) if "race" in (p.extract_text() or ""))
    thin = [line for line in page.lines if abs(line["linewidth"] - 0.4) < 0.05]
    assert len(thin) >= len(chart.leaders)


# Rows, pages and the header ---------------------------------------------------


def row_height(page: Any) -> float:
    tops = [top for _, top in game_rows(page)]
    gaps = [b - a for a, b in itertools.pairwise(tops)]
    assert max(gaps) - min(gaps) < 0.5
    return sum(gaps) / len(gaps)


def total_row(page: Any, said: str = "Total") -> list[str]:
    """The words of the Total row at the foot of the table (its label ``said``), but that."""
    words = page.extract_words()
    label = max(
        (w for w in words if w["text"] == said and w["x1"] < MARGIN + GAME_COLUMN),
        key=lambda w: w["top"],
    )
    return [w["text"] for w in words if abs(w["top"] - label["top"]) < 6 and w is not label]


def test_an_unfinished_series_leaves_rows_to_write_on_and_ends_in_its_totals_so_far(
    tmp_path: Path,
) -> None:
    """An open series leaves rows to go on by hand, and its foot row is "So far" with the
    current totals (print review 8: a blank Total under known totals read as unfinished);
    "Total" is said only at a series' end."""
    result = scored(tmp_path, series(SIX[:2], 3), "open")
    assert result.winner is None
    for name in ("letter", "a4"):
        (page,) = sheet_pages(fill_pdf([result], paper(name)))
        numbers = [number for number, _ in game_rows(page)]
        assert numbers[:3] == [1, 2, 3] and len(numbers) > 3  # rows to go on by hand
        assert row_height(page) >= WRITING_ROW - 0.5
        assert total_row(page, "So") == ["far"] + [str(result.totals[s]) for s in SIX[:2]]
        assert not [w for w in page.extract_words() if w["text"] == "Total" and w["x0"] < 80]


def test_a_won_series_ends_at_its_last_game_with_its_total(tmp_path: Path) -> None:
    data = series(SIX[:4], 9)
    data["target"] = 100  # Ann's third win, in game 9, takes her past 100
    result = scored(tmp_path, data, "won")
    assert result.winner == "Ann" and result.won_in_game == 9
    for name in ("letter", "a4"):
        (page,) = sheet_pages(fill_pdf([result], paper(name)))
        assert [number for number, _ in game_rows(page)] == list(range(1, 10))
        assert total_row(page) == [str(result.totals[side]) for side in SIX[:4]]
        # Won: the key names the heavy box round Ann's winning total too.
        assert "reached the target" in (page.extract_text() or "")


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_sixteen_games_fit_one_page_under_the_longest_header(tmp_path: Path, name: str) -> None:
    title = "The Anderson-Featherstonehaugh family Skip-Bo championship, back room, 2026 edition"
    assert len(title) >= 80
    # An open series: its games and the rows left to go on by hand make sixteen.
    result = scored(tmp_path, series(LONG_NAMES, 16 - OPEN_ROWS, title), "long")
    assert result.winner is None
    pdf = fill_pdf([result], paper(name))
    (page,) = sheet_pages(pdf)
    assert [number for number, _ in game_rows(page)] == list(range(1, 17))
    assert row_height(page) >= MIN_ROW - 0.5
    assert_readable(page)
    assert_one_size_per_row(page)
    # The status is on two lines, and every name is there.
    ((layout, _),) = filled_pages(result, paper(name))
    assert layout.status.height > 20
    text = page.extract_text() or ""
    assert "…" not in "".join(c["text"] for c in name_row(page))  # no name cut short
    assert all(part in text for part in ("Zoë", "Habsburg-Lothringen", "Wróblewski-"))


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_rows_are_a_comfortable_height_and_pages_as_few_as_hold_them(name: str) -> None:
    heights: dict[int, float] = {}
    pages: dict[int, int] = {}
    for games in (1, 5, 10, 16, 17, 18, 19, 30, 33, 34, 35, 50):
        sheets = sheet_pages(blank_sheet(paper=paper(name), players=4, games=games).pdf)
        numbers = [number for page in sheets for number, _ in game_rows(page)]
        assert numbers == list(range(1, games + 1))
        pages[games] = len(sheets)
        if games > 1:
            heights[games] = min(row_height(page) for page in sheets)
            assert MIN_ROW - 0.5 <= heights[games] <= MAX_ROW + 0.5, (games, heights[games])
        # As few pages as hold the games at 0.3 in.
        if len(sheets) > 1:
            most = max(len(game_rows(page)) for page in sheets)
            assert games > most
    assert pages[16] == 1 and pages[18] == 2
    assert heights[10] == pytest.approx(MAX_ROW, abs=0.5)
    # No extreme jump where a second page is needed.
    assert heights[18] / heights[17] <= MAX_ROW / MIN_ROW + 0.01
    assert list(pages.values()) == sorted(pages.values())


def test_a_filled_sheet_uses_the_blank_sheets_row_height(tmp_path: Path) -> None:
    data = series(SIX[:4], 9)
    data["target"] = 100
    result = scored(tmp_path, data, "won9")
    for name in ("letter", "a4"):
        (filled,) = sheet_pages(fill_pdf([result], paper(name)))
        (blank,) = sheet_pages(blank_sheet(paper=paper(name), names=SIX[:4], games=9).pdf)
        assert row_height(filled) == pytest.approx(row_height(blank), abs=0.5)


# Sheet numbers and the chart's heading -------------------------------------------


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_pages_of_a_long_sheet_are_numbered_over_the_game_column(name: str) -> None:
    sheets = sheet_pages(blank_sheet(paper=paper(name), players=4, games=40).pdf)
    assert len(sheets) >= 2
    for number, page in enumerate(sheets, 1):
        words = page.extract_words()
        game = next(w for w in words if w["text"] == "Game")
        said = [w for w in words if w["text"] in ("Sheet", f"{number}", "of", f"{len(sheets)}")]
        corner = [w for w in said if w["x1"] < MARGIN + GAME_COLUMN and w["bottom"] < game["top"]]
        assert " ".join(w["text"] for w in corner) == f"Sheet {number} of {len(sheets)}"
        assert min(c["size"] for c in page.chars if c["text"] == "S") >= 8 - 0.01
    (single,) = sheet_pages(blank_sheet(paper=paper(name), players=4, games=10).pdf)
    assert "Sheet" not in (single.extract_text() or "")


def test_an_untitled_series_chart_is_headed_as_a_chart(tmp_path: Path) -> None:
    data = series(SIX[:3], 4)
    del data["title"]
    result = scored(tmp_path, data, "untitled")
    pdf = fill_pdf([result], paper("letter"))
    *sheets, chart = pages_of(pdf)
    first = min(chart.extract_words(), key=lambda w: w["top"])
    line = [w["text"] for w in chart.extract_words() if abs(w["top"] - first["top"]) < 2]
    # Headed by the series' name; the race to the target is named once, below it.
    assert line == ["Skip-Bo", "series"]
    assert (chart.extract_text() or "").count("race to 5000") == 1
    assert "score sheet" in (sheets[0].extract_text() or "")
    assert "score sheet" not in (chart.extract_text() or "")
    cards = dict(data, scoring="cards-left", games_to_play=6)
    result = scored(tmp_path, cards, "untitled-cards")
    chart = list(pages_of(fill_pdf([result], paper("letter"))))[-1]
    # Read across the page (the y axis's name runs up it).
    across = chart.filter(lambda shown: shown.get("upright", True))
    assert (across.extract_text() or "").startswith("Lowest total after 6 games")


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_a_long_name_without_spaces_breaks_between_syllables_leaving_no_scrap(name: str) -> None:
    word = "Wolfeschlegelsteinhausenbergerdorff"
    pdf = blank_sheet(paper=paper(name), names=[word, *SIX[1:]]).pdf
    (page,) = sheet_pages(pdf)
    lines: dict[int, list[dict[str, Any]]] = {}
    for char in name_row(page):
        if char["x0"] < MARGIN + GAME_COLUMN + (page.width - 2 * MARGIN - GAME_COLUMN) / 6:
            lines.setdefault(round(char["top"]), []).append(char)
    texts = [
        "".join(c["text"] for c in sorted(line, key=lambda c: c["x0"]))
        for line in (lines[top] for top in sorted(lines))
    ]
    assert len(texts) >= 2
    assert all(text.endswith("-") for text in texts[:-1]), texts
    assert "".join(text.rstrip("-") for text in texts) == word
    # Each break falls between two syllables, by the English patterns.
    breaks = list(itertools.accumulate(len(text) - 1 for text in texts[:-1]))
    assert set(breaks) <= set(syllable_breaks(word, "en")), (texts, syllable_breaks(word, "en"))
    widths = [sum(c["width"] for c in lines[top] if c["text"] != "-") for top in sorted(lines)]
    assert min(widths) >= 0.6 * max(widths), (texts, widths)


def test_the_key_marks_only_sides_whose_lines_carry_markers_and_titles_share_one_size(
    tmp_path: Path,
) -> None:
    # Bob never wins, and his 0 never meets Ann's line: his line is in the key, but not a
    # marker it never carries.
    data = series(["Ann", "Bob"], 3)
    data["games"] = [{"winner": "Ann", "left": {"Bob": 3}}] * 3
    result = scored(tmp_path, data, "no-wins")
    chart = race_chart(result, paper("letter").landscape, "Friday nights", string_width)
    keys = dict(zip(["Ann", "Bob"], chart.traces[:2], strict=True))
    lines = dict(zip(["Ann", "Bob"], chart.traces[2:], strict=True))
    assert len(lines["Ann"].marks) == 3 and not lines["Bob"].marks
    assert keys["Ann"].marks and not keys["Bob"].marks
    pdf = fill_pdf([result], paper("letter"))
    sheet, drawn = pages_of(pdf)
    sizes = [
        max(c["size"] for c in page.chars if c["text"] == "F") for page in (sheet, drawn)
    ]  # the "F" of "Friday nights", the largest text on each page
    assert sizes[0] == pytest.approx(sizes[1], abs=0.01)
    assert sizes[0] >= 16
    # The key's markers in the PDF: one, not two (the lines' own markers stand higher; each
    # marker's white halo, MARKER_HALO wide, is not one).
    key_top = max(w["top"] for w in drawn.extract_words() if w["text"] in ("Ann", "Bob"))
    marks = [
        shape
        for shape in drawn.curves + drawn.rects
        if abs((shape["top"] + shape["bottom"]) / 2 - key_top - 4) < 8
        and shape["height"] < 10
        and abs(shape["linewidth"] - MARKER_HALO) > 0.01
    ]
    assert len(marks) == 1, marks


def test_an_unfinished_cards_left_series_matches_the_blank_and_ends_in_its_totals_so_far(
    tmp_path: Path,
) -> None:
    data = {
        "players": ["Ann", "Bob", "Cy"],
        "scoring": "cards-left",
        "games_to_play": 8,
        "stock": 20,
        "games": [
            {"winner": "Ann", "left": {"Bob": 4, "Cy": 6}},
            {"winner": "Bob", "left": {"Ann": 2, "Cy": 5}},
        ],
    }
    result = scored(tmp_path, data, "cards-open")
    said = Words(points="Cards")
    (filled,) = sheet_pages(fill_pdf([result], paper("letter")), said)
    rules = ScoringRules.from_mapping(
        {"way": "cards-left", "games_to_play": 8}, load_game().scoring
    )
    (blank,) = sheet_pages(blank_sheet(scoring=rules, names=["Ann", "Bob", "Cy"]).pdf, said)
    assert (
        [n for n, _ in game_rows(filled)] == [n for n, _ in game_rows(blank)] == list(range(1, 9))
    )
    assert row_height(filled) == pytest.approx(row_height(blank), abs=0.5)
    # Its Total waits for the last agreed game: the foot row holds the totals so far.
    assert total_row(filled, "So") == ["far"] + [
        str(result.totals[s]) for s in ("Ann", "Bob", "Cy")
    ]


def test_a_games_points_are_bold_but_a_zero_no_one_won_with(tmp_path: Path) -> None:
    """Print review 9: each non-winner's 0 in the Points columns was set bold, heavier than
    the running totals beside it. The winner's points stay bold; a 0 is set as the totals
    are."""
    import io

    import pdfplumber

    result = scored(tmp_path, series(SIX[:3], 2), "bold")
    with pdfplumber.open(io.BytesIO(fill_pdf([result], paper("letter")))) as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["fontname"])
    rows = {w["top"] for w in words if w["text"] == "1" and w["x1"] < MARGIN + GAME_COLUMN}
    (top,) = rows
    row = sorted(
        (w for w in words if abs(w["top"] - top) < 3 and w["x0"] > 90), key=lambda w: w["x0"]
    )
    points = row[0::2]  # Points, Total, Points, Total, ...
    winner = str(result.games[0].scores["Ann"])
    assert [w["text"] for w in points] == [winner, "0", "0"]
    assert [w["fontname"].endswith("Bold") for w in points] == [True, False, False]
    assert not any(w["fontname"].endswith("Bold") for w in row[1::2])


def test_a_line_running_past_a_ring_shows_through_it(tmp_path: Path) -> None:
    """Print reviews 26 and 28: Friday's game 9, Cy's ring at 215 hid Bob's line at 210,
    3.76 pt below its centre, which then seemed to end in it as a tie. Bob's line is drawn
    again over the ring's white, at his own height, right across it."""
    result, chart = _chart(tmp_path, FRIDAY)
    sides = result.series.table.sides
    lines = dict(zip(sides, chart.traces[len(sides) :], strict=True))
    ninth = result.games[8]
    assert ninth.winner == "Cy" and (ninth.totals["Cy"], ninth.totals["Bob"]) == (215, 210)
    (x, ring_y), (_, bob_y) = lines["Cy"].points[9], lines["Bob"].points[9]
    assert 0 < ring_y - bob_y < 5
    bob = [p for p in chart.over if (p.dash, p.gray) == (lines["Bob"].dash, lines["Bob"].gray)]
    across = [p for p in bob if p.points[0][0] < x < p.points[-1][0]]
    assert across and all(abs(y - bob_y) < 1e-6 for p in across for _, y in p.points)
    assert (
        min(p.points[0][0] for p in across) < x - 6 and max(p.points[-1][0] for p in across) > x + 6
    )


def test_a_label_of_level_sides_breaks_only_between_names(tmp_path: Path) -> None:
    """Print review 28: the label of four level sides broke "Dörte / Müller-Lüdenscheidt"
    over two lines. Its lines break after a comma only, every name whole on one."""
    names = ["Ann", "Bartholomew", "Dörte Müller-Lüdenscheidt", "Eve", "Fitzgerald"]
    games = [{"winner": n, "left": {m: 4 for m in names if m != n}} for n in names[:4]]
    games.append({"winner": names[4], "left": {m: 9 for m in names[:4]}})
    result, chart = _chart(tmp_path, {"players": names, "stock": 20, "target": 500, "games": games})
    assert len({result.totals[n] for n in names[:4]}) == 1
    right = max(trace.points[-1][0] for trace in chart.traces[len(names) :])
    label = [t.text for t in sorted(chart.texts, key=lambda t: -t.y) if t.x > right]
    joined = " ".join(label)
    assert joined.startswith("Fitzgerald") or "Ann, Bartholomew" in joined
    tied = [line for line in label if not line.startswith("Fitzgerald")]
    assert len(tied) >= 2 and all(line.endswith(",") for line in tied[:-1]), tied
    level = result.totals["Ann"]
    assert " ".join(tied) == f"Ann, Bartholomew, Dörte Müller-Lüdenscheidt, Eve {level}"


def test_a_line_shown_through_a_ring_stops_short_of_the_marker(tmp_path: Path) -> None:
    """Print review 30: drawn again over the marker's halo as well as the ring's white, a
    climbing line ran through the winner's marker. It is drawn before the markers' halos,
    so it stops short of a marker as every line does; on the page and the web page alike."""
    from sheetgen.game.language import ENGLISH
    from sheetgen.sheet.svg import chart_svg

    result, chart = _chart(tmp_path, FRIDAY)
    assert chart.over
    drawn = chart_svg(result, ENGLISH, 792.0, 612.0)
    assert drawn.index('class="ring-halo"') < drawn.index('class="over"')
    assert drawn.rindex('class="over"') < drawn.index('class="marker-halo"')
    curves = list(pages_of(fill_pdf([result], paper("letter"))))[-1].curves
    widths = [round(curve["linewidth"], 2) for curve in curves]
    disc = max(i for i, w in enumerate(widths) if w == 2.0)  # the rings' white, RING_HALO
    halo = min(i for i, w in enumerate(widths) if w == 2.5)  # the markers' halos
    assert disc < halo and sum(w == 1.4 for w in widths[disc:halo]) >= len(chart.over)
