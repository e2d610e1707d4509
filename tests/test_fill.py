"""Filled-in sheets, the race chart, batches and the Markdown export, read back from their output."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from sheetgen.batching import Workers
from sheetgen.game.language import language
from sheetgen.game.scoring import score_series
from sheetgen.paper import paper
from sheetgen.series.file import load_series
from sheetgen.series.inputs import series_paths
from sheetgen.series.markdown import markdown_export
from sheetgen.sheet import fill
from sheetgen.sheet.chart import OTHER_GRAY, OTHER_STROKE, OWN_STROKE, TARGET_BAND
from sheetgen.sheet.fill import fill_pdf, filled_pages, load_results, status_line
from tests.test_sheet_fit import heading, inside, paints, panel_lines, plots

# The module's series and sheets are made once: its tests run in one xdist worker.
pytestmark = pytest.mark.xdist_group("test_fill")

PLAYERS = ["Zoë", "Łukasz", "Σοφία", "Дмитрий"]


def long_series() -> dict[str, object]:
    """Twenty games and no winner: more than one page holds, so a continuation page is needed."""
    games = []
    for number in range(20):
        winner = PLAYERS[number % 4]
        games.append(
            {"winner": winner, "left": {p: 1 + number % 3 for p in PLAYERS if p != winner}}
        )
    return {"title": "Long evening", "players": PLAYERS, "games": games}


def won_series() -> dict[str, object]:
    """Ann wins in game 4: 4 x 125 points."""
    games = [{"winner": "Ann", "left": {"Bob": 20}} for _ in range(4)]
    return {"players": ["Ann", "Bob"], "games": games}


TEAMS = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "teams": {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]},
    "games": [{"winner": "Red", "left": {"Bob": 4, "Di": 10}}],
}


def write(folder: Path, name: str, data: object) -> Path:
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def pages_text(pdf: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [page.extract_text() or "" for page in doc.pages]


@pytest.fixture(scope="module")
def series_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("series")
    write(folder, "long.json", long_series())
    write(folder, "won.json", won_series())
    write(folder, "teams.json", TEAMS)
    return folder


@pytest.fixture(scope="module")
def long_pdf(series_dir: Path) -> bytes:
    result = score_series(load_series(series_dir / "long.json"))
    return fill_pdf([result], paper("a4"))


def test_long_series_continues_with_totals_brought_forward(
    long_pdf: bytes, series_dir: Path
) -> None:
    result = score_series(load_series(series_dir / "long.json"))
    first, second, chart = pages_text(long_pdf)
    on_first = len(filled_pages(result, paper("a4"))[0][0].games)
    after_first = result.games[on_first - 1].totals
    assert "Brought" not in first and "Brought" in second
    with pdfplumber.open(io.BytesIO(long_pdf)) as doc:
        page = doc.pages[1]
        label = next(w for w in page.extract_words() if w["text"] == "Brought")
        row = [w["text"] for w in page.extract_words() if abs(w["top"] - label["top"]) < 6]
    assert row[1:] == [str(after_first[side]) for side in PLAYERS]
    # The series goes on: the rows left to write on come before a row of the totals so
    # far (print review 8), not a Total.
    with pdfplumber.open(io.BytesIO(long_pdf)) as doc:
        words = doc.pages[1].extract_words()
    label = max((w for w in words if w["text"] == "So" and w["x0"] < 80), key=lambda w: w["top"])
    row = [w["text"] for w in words if abs(w["top"] - label["top"]) < 6]
    assert row == ["So", "far"] + [str(result.totals[side]) for side in PLAYERS]
    assert not [w for w in words if w["text"] == "Total" and w["x0"] < 80]
    assert "Race" not in first and "race to 500" in chart


def test_the_game_columns_words_are_bold_and_the_key_stands_apart(
    long_pdf: bytes, series_dir: Path
) -> None:
    """Print review 35: "Brought forward" regular while "Carried forward" and the game
    numbers were bold; the key ("Spiel gewonnen") on the first line of a footnote of three
    read as that line's end. Every word of the game column is bold, and beside a footnote
    of more lines than one the key stands between its first two."""
    with pdfplumber.open(io.BytesIO(long_pdf)) as doc:
        for page, word in ((doc.pages[0], "Carried"), (doc.pages[1], "Brought")):
            (found,) = [w for w in page.extract_words() if w["text"] == word]
            chars = [c for c in page.chars if c["x0"] < 80 and abs(c["top"] - found["top"]) < 1]
            assert "".join(c["text"] for c in chars) == word
            assert all("Bold" in c["fontname"] for c in chars), word
    result = score_series(load_series(series_dir / "long.json"))
    german = fill_pdf([result], paper("a4"), lang=language("de"))
    with pdfplumber.open(io.BytesIO(german)) as doc:
        page = doc.pages[0]
        words = page.extract_words()
        (wertung,) = [w for w in words if w["text"] == "Wertung:"]
        foot = sorted({round(w["bottom"], 1) for w in words if w["top"] >= wertung["top"] - 1})
        (won,) = [w for w in words if w["text"] == "gewonnen"]
    assert len(foot) >= 3, foot  # the footnote's lines, and the key's between them
    assert foot[0] < won["bottom"] < foot[2] and round(won["bottom"], 1) not in (foot[0], foot[2])


def test_every_game_row_shows_points_and_all_running_totals(
    long_pdf: bytes, series_dir: Path
) -> None:
    result = score_series(load_series(series_dir / "long.json"))
    with pdfplumber.open(io.BytesIO(long_pdf)) as doc:
        page = doc.pages[0]
        words = page.extract_words()
        head = next(w for w in words if w["text"] == "Game")  # under it, not the sheet's number
        for game in result.games[: len(filled_pages(result, paper("a4"))[0][0].games)]:
            label = next(
                w
                for w in words
                if w["text"] == str(game.number) and w["x0"] < 80 and w["top"] > head["top"]
            )
            row = [w["text"] for w in words if abs(w["top"] - label["top"]) < 4 and w["x0"] > 80]
            expected = []
            for side in PLAYERS:  # a side that lost the game writes 0 points
                expected.append(str(game.points) if side == game.winner else "0")
                expected.append(str(game.totals[side]))
            assert row == expected


def test_no_winner_names_leader_and_points_needed(long_pdf: bytes, series_dir: Path) -> None:
    result = score_series(load_series(series_dir / "long.json"))
    text = " ".join(pages_text(long_pdf)[0].split())
    leader = result.standings[0]
    # After which game, on every sheet of the series (print review 35: the first sheet's
    # line read as if about its own games).
    games = len(result.games)
    assert f"Series winner: none yet; {leader.side} leads after game {games}." in text
    needed = ", ".join(f"{row.side} {row.needed}" for row in result.standings)
    assert f"Still needed to reach 500: {needed}" in text


def test_winner_named_and_winning_game_marked(series_dir: Path) -> None:
    result = score_series(load_series(series_dir / "won.json"))
    pages = filled_pages(result, paper("letter"))
    values = pages[0][1]
    assert values.reached == (3, 0)
    assert values.won == {(0, 0), (1, 0), (2, 0), (3, 0)}
    pdf = fill_pdf([result], paper("letter"))
    text = " ".join(pages_text(pdf)[0].split())
    # Exactly the target: said once (print review 22: "reaching 500 in game 16 (500
    # points)"); past it, with the total.
    assert "Series winner: Ann, reaching 500 in game 4" in text
    assert "(500 points)" not in text
    assert result.totals["Ann"] == 500
    over = result._replace(totals={**result.totals, "Ann": 525})
    assert status_line(over) == "Ann, reaching 500 in game 4 (525 points)"
    assert status_line(result, language("de")) == "Ann, erreicht 500 im 4. Spiel"
    assert "won the game" in text and "reached the target" in text


def test_partnership_sheet_names_both_partners(series_dir: Path) -> None:
    result = score_series(load_series(series_dir / "teams.json"))
    sheet, chart = pages_text(fill_pdf([result], paper("letter")))
    assert "Ann + Cy" in sheet and "Bob + Di" in sheet
    assert "Red (Ann + Cy)" in chart and "Blue (Bob + Di)" in chart


def test_chart_has_a_target_band_in_every_panel_and_each_own_line_on_top(long_pdf: bytes) -> None:
    """The long series comes within reach of the target, so the axis runs past it: each
    panel draws the target as a band across its plot, at one height in every panel,
    named "Target: 500" just above it. In each panel the side's own black line is painted
    after the other sides' grey lines, so no grey line crosses over it; each side's name
    heads its own panel."""
    with pdfplumber.open(io.BytesIO(long_pdf)) as doc:
        page = doc.pages[2]
        found = plots(page)
        names = [heading(page, plot).name for plot in found]
        bands = [line for line in page.lines if abs(line["linewidth"] - TARGET_BAND) < 0.01]
        labels = [w for w in page.extract_words() if w["text"] == "Target:"]
    assert names == PLAYERS
    heights: set[float] = set()
    for plot in found:
        (band,) = [b for b in bands if inside(((b["x0"] + b["x1"]) / 2, b["top"]), plot)]
        # Across the plot, and kept to it.
        assert plot.left - 0.01 <= band["x0"] <= plot.left + TARGET_BAND
        assert plot.right - TARGET_BAND <= band["x1"] <= plot.right + 0.01
        heights.add(round(plot.bottom - band["top"], 2))
        (label,) = [w for w in labels if inside((w["x0"], w["bottom"]), plot)]
        assert 0 < band["top"] - TARGET_BAND / 2 - label["bottom"] < 6  # above it, clear
    assert len(heights) == 1, heights  # one scale for all panels
    drawn = paints(long_pdf, 2)
    for plot in found:
        lines = panel_lines(drawn, plot)
        looks = [(line.width, line.gray) for line in lines]
        others = [(OTHER_STROKE, OTHER_GRAY)] * (len(PLAYERS) - 1)
        assert looks == [*others, (OWN_STROKE, 0.0)]
        # Nothing later in the page strokes a line across this plot but the dots' halos.
        last = drawn.index(lines[-1])
        assert not [
            paint
            for paint in drawn[last + 1 :]
            if paint.op == "S" and paint.gray < 1 and any(inside(p, plot) for p in paint.parts[0])
        ]


def test_filled_sheet_embeds_only_bundled_subsets(long_pdf: bytes) -> None:
    doc = pikepdf.open(io.BytesIO(long_pdf))
    for page in doc.pages:
        resources = [page.Resources]
        resources += [x.Resources for x in page.Resources.get("/XObject", {}).values()]
        for resource in resources:
            for font in resource.get("/Font", {}).values():
                assert str(font.BaseFont).split("+")[1] in {"DejaVuSans", "DejaVuSans-Bold"}
                descendant = font.DescendantFonts[0] if font.Subtype == "/Type0" else font
                assert "/FontFile2" in descendant.FontDescriptor


def test_filled_sheet_is_reproducible(series_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    result = score_series(load_series(series_dir / "won.json"))
    assert fill_pdf([result], paper("a4")) == fill_pdf([result], paper("a4"))


def twins() -> list[dict[str, object]]:
    """Series of one shape (title, sides, games, paper) that differ only in names and values,
    as a batch holds hundreds of: whatever is worked out once for a shape must not carry
    one series' words or numbers into another's pages."""

    def game(winner: str, left: dict[str, int]) -> dict[str, object]:
        return {"winner": winner, "left": left}

    return [
        {
            "title": "Twin",
            "players": ["Ann", "Bob", "Cy"],
            "games": [game("Ann", {"Bob": 3, "Cy": 1})],
        },
        {
            "title": "Twin",
            "players": ["Ann", "Bob", "Cy"],
            "games": [game("Cy", {"Ann": 6, "Bob": 5})],
        },
        {
            "title": "Twin",
            "players": ["Ann", "Bob", "Di"],
            "games": [game("Ann", {"Bob": 3, "Di": 1})],
        },
        {
            "title": "Tween",
            "players": ["Ann", "Bob", "Cy"],
            "games": [game("Bob", {"Ann": 2, "Cy": 4})],
        },
        {"title": "Twin", "players": ["Ann", "Bob", "Cy"], "games": []},
    ]


def page_words(pdf: bytes) -> list[list[tuple[str, float, float, float]]]:
    """Every page's words with where they stand."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [
            [(w["text"], round(w["x0"], 2), round(w["top"], 2), round(w["x1"], 2)) for w in words]
            for words in (page.extract_words() for page in doc.pages)
        ]


def test_a_series_in_a_batch_is_drawn_as_it_is_alone(tmp_path: Path) -> None:
    results = [
        score_series(load_series(write(tmp_path, f"{index}.json", data)))
        for index, data in enumerate(twins())
    ]
    batch = page_words(fill_pdf(results, paper("letter")))
    alone = [page for result in results for page in page_words(fill_pdf([result], paper("letter")))]
    assert len(batch) == len(alone) == 2 * len(results)
    assert batch == alone
    # Each sheet shows its own series: its names, its winner's points, its status.
    words = [[word[0] for word in page] for page in batch[::2]]
    assert "Cy" in words[0] and "Di" not in words[0]
    assert "Di" in words[2] and "Cy" not in words[2]
    assert "45" in words[0] and "45" not in words[1] and "80" in words[1]
    sheets = [" ".join(page) for page in words]
    assert sheets[3].startswith("Tween") and "no games recorded" in sheets[4]
    assert not any("no games recorded" in sheet for sheet in sheets[:4])


def test_cli_one_file_default_output(runner, tmp_path: Path) -> None:
    write(tmp_path, "friday.json", won_series())
    result = runner("fill", "friday.json", "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert f"Wrote {tmp_path / 'output' / 'friday.pdf'}\n" in result.stderr
    with pdfplumber.open(tmp_path / "output" / "friday.pdf") as doc:
        assert len(doc.pages) == 2
        assert doc.pages[0].width > doc.pages[0].height


def test_cli_folder_into_one_pdf_to_stdout_progress_on_stderr(runner, tmp_path: Path) -> None:
    for index in range(4):
        write(tmp_path, f"s{index}.json", won_series())
    result = runner("fill", ".", "-o", "-", "--paper", "a4")
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes.startswith(b"%PDF-")
    assert b"Filling" not in result.stdout_bytes
    assert "Filling sheets" not in result.stderr  # standard error is not a terminal here
    with pdfplumber.open(io.BytesIO(result.stdout_bytes)) as doc:
        assert len(doc.pages) == 8


def test_cli_split_writes_one_file_per_series(runner, tmp_path: Path, series_dir: Path) -> None:
    result = runner("fill", str(series_dir), "--split", "each", "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "each").iterdir()) == [
        "long.pdf",
        "teams.pdf",
        "won.pdf",
    ]


def test_split_in_parallel_matches_serial(
    series_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    loaded, _ = load_results(sorted(series_dir.glob("*.json")))
    serial = list(fill.split_documents(loaded, paper("letter")))
    parallel = fill.split_documents(loaded, paper("letter"), pool=Workers(2))
    assert list(parallel) == serial


MANY = 18


@pytest.fixture(scope="module")
def many_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Series files of every shape, for batches that go to worker processes."""
    folder = tmp_path_factory.mktemp("many")
    shapes = [long_series(), won_series(), TEAMS]
    for index in range(MANY):
        write(folder, f"s{index:02d}.json", shapes[index % 3])
    return folder


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of ``MANY`` go to the workers: what they do is under test, not when."""
    monkeypatch.setattr(fill, "PARALLEL_FROM", MANY - 2)


def test_the_threshold_decides_whether_workers_start(
    many_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    real = fill.Workers

    def counted(size: int) -> Workers:
        started.append(size)
        return real(size)

    monkeypatch.setattr(fill, "Workers", counted)
    paths = series_paths([many_dir])
    options = {"paper": paper("a4"), "output": Path("all.pdf"), "workers": 2}
    monkeypatch.setattr(fill, "PARALLEL_FROM", MANY + 1)
    fill.fill_documents(paths, **options)
    assert started == []
    monkeypatch.setattr(fill, "PARALLEL_FROM", MANY)
    fill.fill_documents(paths, **options)
    assert started == [2]
    fill.fill_documents(paths, **{**options, "workers": 1})
    assert started == [2]


def test_by_default_workers_start_only_on_idle_cores(
    many_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    real = fill.Workers

    def counted(size: int) -> Workers:
        started.append(size)
        return real(size)

    monkeypatch.setattr(fill, "Workers", counted)
    monkeypatch.setattr(fill, "PARALLEL_FROM", MANY)
    paths = series_paths([many_dir])
    options = {"paper": paper("a4"), "output": Path("all.pdf")}
    monkeypatch.setattr(fill, "idle_cores", lambda: 1)  # the other core is busy
    fill.fill_documents(paths, **options)
    assert started == []
    monkeypatch.setattr(fill, "idle_cores", lambda: 2)
    fill.fill_documents(paths, **options)
    assert started == [2]


def test_one_pdf_in_parallel_has_the_serial_pages(many_dir: Path, parallel: None) -> None:
    paths = series_paths([many_dir])
    options = {"paper": paper("a4"), "output": Path("all.pdf")}
    serial, _ = fill.fill_documents(paths, workers=1, **options)
    parallel, _ = fill.fill_documents(paths, workers=2, **options)
    [(_, one)], [(_, two)] = serial, parallel
    assert pages_text(two) == pages_text(one)
    extra = len(fill._chunks(paths, 2)) - 1
    assert len(two) - len(one) < 40_000 * extra  # font subsets once per chunk, not per series
    with pikepdf.open(io.BytesIO(two)) as doc:
        assert str(doc.docinfo.Title) == "Long evening"
        assert str(doc.docinfo.Subject) == f"{len(paths)} Skip-Bo series"


def test_parallel_split_writes_every_file(
    runner, tmp_path: Path, many_dir: Path, parallel: None
) -> None:
    result = runner("fill", str(many_dir), "--split", "each", "--paper", "letter")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "each").iterdir())
    assert names == [f"{p.stem}.pdf" for p in sorted(many_dir.iterdir())]
    assert result.stderr == f"Wrote {len(names)} files to {tmp_path / 'each'}\n"
    with pdfplumber.open(tmp_path / "each" / "s02.pdf") as doc:
        assert "Ann + Cy" in doc.pages[0].extract_text()


@pytest.mark.parametrize("split", [[], ["--split", "out"]])
def test_bad_file_among_many_stops_before_anything_is_written(
    runner, tmp_path: Path, many_dir: Path, snapshot, split: list[str], parallel: None
) -> None:
    for path in many_dir.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    write(tmp_path, "s03.json", {"players": ["Ann"], "games": []})
    write(tmp_path, "s15.json", {"players": ["Bob"], "games": []})
    before = snapshot(tmp_path)
    result = runner("fill", ".", *split)
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: s03.json, players: Skip-Bo is played by 2 to 6 players, not 1"
    )
    assert snapshot(tmp_path) == before


def test_cli_png_preview(runner, tmp_path: Path) -> None:
    write(tmp_path, "friday.json", won_series())
    result = runner("fill", "friday.json", "--format", "png")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "friday.png").read_bytes().startswith(b"\x89PNG")


def test_bad_file_stops_the_run_and_nothing_is_written(runner, tmp_path: Path, snapshot) -> None:
    write(tmp_path, "a.json", won_series())
    write(tmp_path, "b.json", {"players": ["Ann"], "games": []})
    before = snapshot(tmp_path)
    result = runner("fill", "a.json", "b.json")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: b.json, players: Skip-Bo is played by 2 to 6 players, not 1"
    )
    assert snapshot(tmp_path) == before


def test_keep_going_writes_good_lists_bad_and_fails(runner, tmp_path: Path) -> None:
    write(tmp_path, "a.json", won_series())
    write(tmp_path, "b.json", {"players": ["Ann"], "games": []})
    result = runner("fill", "a.json", "b.json", "--keep-going", "--split", "out")
    assert result.exit_code == 1
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["a.pdf"]
    lines = result.stderr.strip().splitlines()
    assert "b.json, players: Skip-Bo is played by 2 to 6 players, not 1" in lines
    assert lines[-1] == "Error: 1 of 2 series files were not filled"


def test_unprintable_name_is_refused(runner, tmp_path: Path, snapshot, monkeypatch) -> None:
    monkeypatch.setattr("sheetgen.fonts._system_fonts_covering", lambda chars: [])
    write(tmp_path, "c.json", {"players": ["Ann", "王芳"], "games": []})
    before = snapshot(tmp_path)
    result = runner("fill", "c.json")
    assert result.exit_code == 1
    assert 'c.json, players: "王芳" has 王 (U+738B)' in result.stderr
    assert snapshot(tmp_path) == before


def test_split_names_must_not_clash(runner, tmp_path: Path, snapshot) -> None:
    write(tmp_path, "a.json", won_series())
    (tmp_path / "a.csv").write_text("game,winner,Ann,Bob\n1,Ann,0,3\n", encoding="utf-8")
    before = snapshot(tmp_path)
    result = runner("fill", "a.csv", "a.json", "--split", "out")
    assert result.exit_code == 1
    assert "a.csv and a.json would both be written to out/a.pdf" in result.stderr
    assert snapshot(tmp_path) == before


def test_help_has_an_example(runner) -> None:
    result = runner("fill", "--help")
    assert result.exit_code == 0
    assert "Example:" in result.output and "sheetgen fill friday.yaml" in result.output


def test_markdown_export(series_dir: Path) -> None:
    result = score_series(load_series(series_dir / "won.json"))
    text = markdown_export(result)
    lines = text.splitlines()
    assert lines[0] == "# Skip-Bo series"
    assert lines[2].endswith(" **Ann** won the series in game 4.")
    assert "| Ann | 500 | 4 | 0 |" in lines
    # Under a player's name the cards left, as in the CSV export; then points and totals.
    assert "| Game | Winner | Ann | Bob | Points | Total Ann | Total Bob |" in lines
    assert "| 4 | Ann | 0 | 20 | 125 | 500 | 0 |" in lines
    assert lines.count("| ---: | --- | ---: | ---: | ---: | ---: | ---: |") == 1


def test_markdown_export_escapes_names(tmp_path: Path) -> None:
    data = {"title": "A|B *night*", "players": ["Ann|x", "Bo_b"], "games": []}
    result = score_series(load_series(write(tmp_path, "m.json", data)))
    text = markdown_export(result)
    assert text.startswith("# A\\|B \\*night\\*\n")
    assert "| Ann\\|x | 0 | 0 | 500 |" in text
    assert "No games have been played yet." in text


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("en", "none yet; Ann and Di share the lead; 5 games to play; lowest total wins"),
        ("de", "noch offen; Ann und Di führen gemeinsam; 5 Spiele stehen noch aus;"),
    ],
)
def test_a_shared_cards_left_lead_names_the_level_leaders(
    tmp_path: Path, code: str, said: str
) -> None:
    """Print review 33: "the lead is shared with 5 games to play" named nobody, and read as
    if the lead were shared with the games. The sheet and the chart's verdict name the
    sides level at the lowest total."""
    data = {
        "players": ["Ann", "Bob", "Cy", "Di", "Eve"],
        "stock": 20,
        "scoring": "cards-left",
        "games_to_play": 8,
        "games": [
            {"winner": "Ann", "left": {"Bob": 7, "Cy": 12, "Di": 3, "Eve": 5}},
            {"winner": "Bob", "left": {"Ann": 5, "Cy": 10, "Di": 8, "Eve": 2}},
            {"winner": "Di", "left": {"Ann": 6, "Bob": 6, "Cy": 2, "Eve": 9}},
        ],
    }
    result = score_series(load_series(write(tmp_path, "cards.json", data)))
    lang = language(code)
    assert status_line(result, lang).startswith(said)
    sheet, chart = (
        " ".join(text.split())
        for text in pages_text(fill_pdf([result], paper("letter"), lang=lang))
    )
    assert said in sheet and said in chart
