"""A print designer's review of the score sheets, each finding read back from the PDF."""

from __future__ import annotations

import itertools
import json
import re
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
from sheetgen.sheet.chart import DOT_HALO, Chart, Panel, race_chart
from sheetgen.sheet.fill import fill_pdf, filled_pages
from sheetgen.sheet.fitting import syllable_breaks
from sheetgen.sheet.grid import GAME_COLUMN, MARGIN
from sheetgen.sheet.layout import MAX_ROW, MIN_ROW, OPEN_ROWS, WRITING_ROW
from tests.test_sheet_fit import (
    LONG_NAMES,
    Words,
    assert_one_size_per_row,
    assert_readable,
    centre,
    chart_page,
    dots,
    game_rows,
    inside,
    name_row,
    pages_of,
    paints,
    panel_lines,
    plots,
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


def _chart(folder: Path, data: dict[str, Any]) -> tuple[Any, Chart]:
    result = scored(folder, data, "chart")
    return result, race_chart(result, paper("letter").landscape, "Chart", string_width)


def _axis(chart: Chart, panel: Panel) -> tuple[float, float]:
    """A panel's zero line and its height per point, read off its y axis: each figure left
    of the plot names the grid line just under it (the figures agree on one scale)."""
    box = panel.box
    grid = sorted(
        rule.y1
        for rule in chart.background.rules
        if rule.y1 == rule.y2 and (rule.x1, rule.x2) == (box.x, box.right) and rule.gray > 0
    )
    figures = [
        text
        for text in chart.background.labels
        if text.align == "right" and box.x - 12 < text.x <= box.x and box.y - 5 < text.y < box.top
    ]
    named = {
        int(text.text.replace(",", "")): min(y for y in grid if y >= text.y - 0.01)
        for text in figures
    }
    zero, top = named[0], max(named)
    per_point = (named[top] - zero) / top
    for value, y in named.items():
        assert y == pytest.approx(zero + value * per_point, abs=0.01), (value, y)
    return zero, per_point


def _sides_drawn(result: Any, panel: Panel) -> dict[str, Any]:
    """A panel's lines by side: the other sides' in the order of the sides, and its own."""
    sides = result.series.table.sides
    others = [side for index, side in enumerate(sides) if index != panel.side]
    return {**dict(zip(others, panel.others, strict=True)), sides[panel.side]: panel.line}


def _lines_follow_their_totals(result: Any, chart: Chart) -> None:
    """One panel per side in the order of the sides; in each, every side's line passes
    through its running totals at their true values, on the panel's own y axis."""
    sides = result.series.table.sides
    assert [panel.side for panel in chart.panels] == list(range(len(sides)))
    for panel in chart.panels:
        zero, per_point = _axis(chart, panel)
        for side, trace in _sides_drawn(result, panel).items():
            totals = [0, *(game.totals[side] for game in result.games)]
            ys = [y for _, y in trace.points]
            assert len(ys) == len(totals)
            for value, y in zip(totals, ys, strict=True):
                assert y == pytest.approx(zero + value * per_point, abs=0.01), (side, value, y)


def test_chart_lines_follow_their_totals(tmp_path: Path) -> None:
    """A higher total is drawn higher, level totals level, in every panel: a reader
    compares sides across panels by height alone."""
    result, chart = _chart(tmp_path, TIED)
    _lines_follow_their_totals(result, chart)
    result, chart = _chart(tmp_path, FRIDAY)
    _lines_follow_their_totals(result, chart)


def test_a_side_that_never_scores_stays_flat_on_the_zero_line(tmp_path: Path) -> None:
    """The print reviewer's series: four sides win in turn (so they keep drawing level) and
    Eve never wins; drawn with a lift per tie, Ann's flat 65 fell and Eve's 0 rose and fell.
    Eve's line lies on the zero line in every panel, her own and the others'."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve"]
    games = [
        {"winner": names[i % 4], "left": {n: 8 for n in names if n != names[i % 4]}}
        for i in range(16)
    ]
    result, chart = _chart(
        tmp_path, {"players": names, "stock": 20, "target": 2200, "games": games}
    )
    _lines_follow_their_totals(result, chart)
    for panel in chart.panels:
        eve = _sides_drawn(result, panel)["Eve"]
        assert {round(y, 3) for _, y in eve.points} == {round(_axis(chart, panel)[0], 3)}


def test_tied_lines_share_one_height_and_the_winners_dot_alone_marks_the_game(
    tmp_path: Path,
) -> None:
    """Tied sides stand at one height in every panel; the game's only dot is its winner's,
    on the game's point, in the winner's own panel (print review 26: markers of the others
    set beside it showed some ties and not others). Six sides level at once end at one
    point in every panel, each panel headed by the same total."""
    result, chart = _chart(tmp_path, TIED)
    second = result.games[1]
    assert second.totals["Ann"] == second.totals["Bob"] and second.winner == "Bob"
    for panel in chart.panels:
        lines = _sides_drawn(result, panel)
        shared = lines["Ann"].points[2]
        assert lines["Bob"].points[2] == shared
        assert (shared in panel.line.wins) == (panel.side == 1), panel.side
        assert not any(trace.wins for trace in panel.others)
    names = SIX
    games = [{"winner": n, "left": {m: 4 for m in names if m != n}} for n in names]
    result, chart = _chart(tmp_path, {"players": names, "stock": 20, "target": 500, "games": games})
    assert len(set(result.totals.values())) == 1
    for panel in chart.panels:
        ends = {trace.points[-1] for trace in (panel.line, *panel.others)}
        assert len(ends) == 1
        assert (ends <= set(panel.line.wins)) == (names[panel.side] == games[-1]["winner"])
        box = panel.box
        totals = [
            t.text
            for t in chart.texts
            if (t.align, t.x, t.bold) == ("right", box.right, True) and 0 < t.y - box.top < 20
        ]
        assert totals == [str(result.totals[names[0]])]
    pdf = fill_pdf([result], paper("letter"))
    assert len(dots(paints(pdf))) == len(games)  # a dot per game: its winner's, no other


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


def test_only_the_winners_dots_stand_on_the_chart(tmp_path: Path) -> None:
    """Print reviews 22, 24 and 26: marks of lines that meet, set beside a game's point,
    stood off their lines and marked some ties and not others. In its own panel a side's
    only dots are those of the games it won, each on its line's point for that game; the
    other sides' lines carry none. Printed: those dots and no others."""
    result, chart = _chart(tmp_path, FRIDAY)
    sides = result.series.table.sides
    assert any(
        len(set(game.totals.values())) < len(sides) for game in result.games
    )  # the series has ties
    for panel in chart.panels:
        side, line = sides[panel.side], panel.line
        won = tuple(line.points[game.number] for game in result.games if game.winner == side)
        assert line.wins == won, side
        assert not any(trace.wins for trace in panel.others)
    pdf = fill_pdf([result], paper("letter"))
    drawn, page = paints(pdf), chart_page(pdf)
    marked = dots(drawn)
    found = plots(page)
    assert len(marked) == len(result.games) and len(found) == len(sides)
    for side, plot in zip(sides, found, strict=True):
        *_, own = panel_lines(drawn, plot)
        (points,) = own.parts
        here = [dot for dot in marked if inside(dot, plot)]
        ended = [points[game.number] for game in result.games if game.winner == side]
        assert sorted(here) == pytest.approx(sorted(ended), abs=0.05), side


@pytest.mark.parametrize("name", ["letter", "a4"])
def test_every_game_has_a_tick_and_a_cards_left_axis_runs_to_the_last_agreed_game(
    tmp_path: Path, name: str
) -> None:
    """Print review 26: every game has its tick under each panel, a named one longer, each
    game's number centred under its tick; a cards-left series' axis runs to its last agreed
    game, played or not."""
    forty = scored(tmp_path, series(SIX[:3], 40), "forty")
    cards = dict(series(SIX[:3], 3), scoring="cards-left", games_to_play=8)
    del cards["target"]
    for result, games in ((forty, 40), (scored(tmp_path, cards, "cards"), 8)):
        *_, page = pages_of(fill_pdf([result], paper(name)))
        found = plots(page)
        assert len(found) == 3
        words = page.extract_words()
        for plot in found:
            ticks = sorted(
                (
                    line
                    for line in page.lines
                    if abs(line["linewidth"] - 0.6) < 0.01
                    and abs(line["x0"] - line["x1"]) < 0.01
                    and abs(line["top"] - plot.bottom) < 0.01
                ),
                key=lambda line: line["x0"],
            )
            ticks = [t for t in ticks if plot.left - 0.01 <= t["x0"] <= plot.right + 0.01]
            assert len(ticks) == games + 1, (name, games, len(ticks))
            xs = [t["x0"] for t in ticks]
            assert xs[0] == pytest.approx(plot.left, abs=0.01)
            assert xs[-1] == pytest.approx(plot.right, abs=0.01)
            gaps = [b - a for a, b in itertools.pairwise(xs)]
            assert max(gaps) - min(gaps) < 0.01
            long = max(t["bottom"] - t["top"] for t in ticks)
            numbers = [
                w
                for w in words
                if w["text"].isdigit()
                and plot.bottom < w["top"] < plot.bottom + 15
                and plot.left - 8 < w["x0"] < plot.right
            ]
            assert len(numbers) >= 2
            for word in numbers:
                tick = ticks[int(word["text"])]
                assert (word["x0"] + word["x1"]) / 2 == pytest.approx(tick["x0"], abs=0.3)
                assert tick["bottom"] - tick["top"] == pytest.approx(long)
            if games == 40:
                assert min(t["bottom"] - t["top"] for t in ticks) < long  # unnamed, shorter


WORDY_TITLE = "The Anderson-Featherstonehaugh family Skip-Bo championship, back room, 2026 edition"
WORDY_TEAMS = {
    "The Featherstonehaugh-Cholmondeley Irregulars": LONG_NAMES[:2],
    "Σοφία and friends": LONG_NAMES[2:4],
    "Дмитрий's table": LONG_NAMES[4:],
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("teams", [False, True], ids=["players", "teams"])
def test_no_word_on_a_chart_is_under_8_pt(tmp_path: Path, lang: str, teams: bool) -> None:
    """Six long names (or three long teams), a long title and forty games, in English and
    German, on Letter, A4 and the web page's narrow drawing: every word on the chart is
    8 pt or more (the note, the headings, the figures, the games' numbers)."""
    from sheetgen.game.language import language
    from sheetgen.sheet.chart import web_height
    from sheetgen.sheet.svg import chart_svg

    words = language(lang)
    data = series(LONG_NAMES, 40, WORDY_TITLE)
    if teams:
        data["teams"] = WORDY_TEAMS
        data["games"] = [
            {"winner": team, "left": {member: 1 for member in LONG_NAMES if member not in mine}}
            for team, mine in itertools.islice(itertools.cycle(WORDY_TEAMS.items()), 40)
        ]
    result = scored(tmp_path, data, f"wordy-{lang}-{teams}")
    for name in ("letter", "a4"):
        page = list(pages_of(fill_pdf([result], paper(name), lang=words)))[-1]
        sizes = [c["size"] for c in page.chars if not c["text"].isspace()]
        assert len(sizes) > 100 and min(sizes) >= 8 - 0.01, (name, min(sizes))
    sides = len(result.series.table.sides)
    drawn = chart_svg(result, words, 248, web_height(248, sides, 1), headed=False)
    sizes = [float(size) for size in re.findall(r'font-size="([0-9.]+)"', drawn)]
    assert len(sizes) > 50 and min(sizes) >= 8, min(sizes)


def test_the_charts_title_is_no_larger_than_the_sheets(tmp_path: Path) -> None:
    """Print review 27: the chart's title was set at 18 pt after the sheets' 16.5. Its
    title is the sheets' size, or smaller where a long title must be; never larger."""
    data = series(["Ann", "Bob"], 3)
    result = scored(tmp_path, data, "short-title")
    sheet, drawn = pages_of(fill_pdf([result], paper("letter")))
    sizes = [
        max(c["size"] for c in page.chars if c["text"] == "F") for page in (sheet, drawn)
    ]  # the "F" of "Friday nights", the largest text on each page
    assert sizes[1] == pytest.approx(sizes[0], abs=0.01)
    assert sizes[0] >= 16
    for name in ("letter", "a4"):
        long = scored(tmp_path, series(LONG_NAMES[:4], 3, WORDY_TITLE), "long-title")
        *sheets, drawn = pages_of(fill_pdf([long], paper(name)))
        largest = [max(c["size"] for c in page.chars) for page in (*sheets, drawn)]
        assert largest[-1] <= min(largest[:-1]) + 0.01, largest
        assert largest[-1] >= 12


def test_each_dot_stands_on_a_white_halo_under_its_black_line(tmp_path: Path) -> None:
    """In each panel a white halo round each dot is painted over the grey lines, so a grey
    line that crosses a dot stops short of it, but under the panel's own black line (print
    review 32: halos painted over it broke a winning streak into dashes); then the dots. On
    the page and the web page alike."""
    from sheetgen.game.language import ENGLISH
    from sheetgen.sheet.svg import chart_svg

    result, chart = _chart(tmp_path, FRIDAY)
    sides = result.series.table.sides
    pdf = fill_pdf([result], paper("letter"))
    drawn = paints(pdf)
    for side, plot in zip(sides, plots(chart_page(pdf)), strict=True):
        lines = [drawn.index(paint) for paint in panel_lines(drawn, plot)]
        fills = [
            index
            for index, paint in enumerate(drawn)
            if paint.op.startswith("f") and all(inside(centre(part), plot) for part in paint.parts)
        ]
        halo, dot = (drawn[index] for index in fills)
        wins = sum(game.winner == side for game in result.games)
        assert (halo.gray, dot.gray) == (1.0, 0.0)
        assert len(halo.parts) == len(dot.parts) == wins
        assert max(lines[:-1]) < fills[0] < lines[-1] < fills[1], (side, lines, fills)
        for ring, disc in zip(halo.parts, dot.parts, strict=True):
            assert max(x for x, _ in ring) - max(x for x, _ in disc) == pytest.approx(DOT_HALO)
    svg = chart_svg(result, ENGLISH, 792.0, 612.0)
    panels = svg.split('<g class="panel"')[1:]
    assert len(panels) == len(chart.panels)
    for panel in panels:
        order = re.findall(r'class="(other|halos|line|wins)"', panel)
        assert order == ["other"] * (len(sides) - 1) + ["halos", "line", "wins"], order


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
    # Ten games, the blank sheet's, take the page's room (print reviews 27 and 34: rows
    # 0.45 in tall left 21.7 mm white at the foot): rows over half an inch tall, the sheet
    # ending 0.5 in from the paper's foot.
    assert 0.5 * 72 < heights[10] <= MAX_ROW + 0.5
    (ten,) = sheet_pages(blank_sheet(paper=paper(name), players=4, games=10).pdf)
    assert ten.height - max(char["bottom"] for char in ten.chars) < 0.5 * 72
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
