"""Exports that read back: the CSV export is a series file, --excel, and season tables."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from sheetgen.errors import ChoiceError
from sheetgen.series.file import load_series
from sheetgen.series.markdown import english

FRIDAY = """\
title: Friday nights
target: 300
players: [Zoë, Bob, Cy]
games:
  - winner: Zoë
    left: {Bob: 7, Cy: 3}
  - winner: Bob
    left: {Zoë: 2, Cy: 12}
"""
PAIRS = """\
players: [Ann, Bob, Cy, Di]
teams:
  Red: [Ann, Cy]
  Blue: [Bob, Di]
stock: 20
games:
  - winner: Red
    left: {Bob: 4, Di: 10}
"""


@pytest.fixture
def season(tmp_path: Path) -> Path:
    (tmp_path / "friday.yaml").write_text(FRIDAY, encoding="utf-8")
    (tmp_path / "pairs.yaml").write_text(PAIRS, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name", ["friday.yaml", "pairs.yaml"])
def test_csv_export_reads_back_as_the_same_series(runner, season: Path, name: str) -> None:
    result = runner("export", name, "--format", "csv", "-o", "back.csv")
    assert result.exit_code == 0, result.output
    assert load_series(season / "back.csv") == load_series(season / name)
    assert runner("standings", "back.csv").output == runner("standings", name).output


def test_csv_export_keeps_the_cards_left(runner, season: Path) -> None:
    result = runner("export", "friday.yaml", "--format", "csv")
    assert result.exit_code == 0
    assert result.stdout == (
        "title,Friday nights\n"
        "target,300\n"
        "game,winner,Zoë,Bob,Cy,points,total Zoë,total Bob,total Cy\n"
        "1,Zoë,0,7,3,75,75,0,0\n"
        "2,Bob,2,0,12,95,75,95,0\n"
    )


def test_recording_into_an_export_works_out_its_totals(runner, season: Path) -> None:
    runner("export", "friday.yaml", "--format", "csv", "-o", "back.csv")
    result = runner("record", "back.csv", "--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1")
    assert result.exit_code == 0, result.output
    assert (season / "back.csv").read_text(encoding="utf-8").splitlines()[-1] == (
        "3,Cy,1,1,0,35,75,95,35"
    )
    assert runner("undo", "back.csv", "--yes").exit_code == 0
    assert load_series(season / "back.csv") == load_series(season / "friday.yaml")


def test_excel_writes_utf8_with_a_byte_order_mark(runner, season: Path) -> None:
    result = runner("export", "friday.yaml", "--excel", "-o", "friday.csv")
    assert result.exit_code == 0, result.output
    data = (season / "friday.csv").read_bytes()
    # Excel's own way: a byte-order mark and CRLF line ends.
    assert data.startswith(b"\xef\xbb\xbftitle,Friday nights\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert "Zoë".encode() in data
    assert runner("standings", "friday.csv").output == runner("standings", "friday.yaml").output
    recorded = runner(
        "record", "friday.csv", "--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1"
    )
    assert recorded.exit_code == 0, recorded.output
    assert (season / "friday.csv").read_bytes().startswith(b"\xef\xbb\xbftitle,")
    assert (season / "friday.csv").read_bytes().endswith(b"\r\n3,Cy,1,1,0,35,75,95,35\r\n")


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_a_byte_order_mark_is_read_and_kept(runner, tmp_path: Path, suffix: str) -> None:
    runner("new", f"s{suffix}", "--players", "Ann,Bob")
    path = tmp_path / f"s{suffix}"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    result = runner("record", f"s{suffix}", "--winner", "Ann", "--left", "Bob=3")
    assert result.exit_code == 0, result.output
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert len(load_series(path).games) == 1


def test_excel_is_for_csv_only(runner, season: Path) -> None:
    result = runner("export", "friday.yaml", "--excel", "--format", "md")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for --excel: --excel makes a CSV file, not md"
    )


@pytest.mark.parametrize("split", [["-o", "all.pdf"], ["--split", "sheets"]])
def test_fill_a_folder_holding_an_export(runner, season: Path, split: list[str]) -> None:
    """An export in a folder without its series is a series of its own; beside its series
    it is left out with a note (see test_a_season_counts_each_series_once)."""
    assert runner("export", "friday.yaml", "--excel", "-o", "friday-export.csv").exit_code == 0
    (season / "friday.yaml").unlink()
    result = runner("fill", ".", *split)
    assert result.exit_code == 0, result.output
    pdf = season / ("sheets/friday-export.pdf" if "--split" in split else "all.pdf")
    with pdfplumber.open(pdf) as doc:
        assert "Friday nights" in doc.pages[0].extract_text()


# Players and teams apart: Ann, Bob, Cy and Di play in pairs as Red and Blue too, and each
# partner is credited with the team's games, wins and points.
SEASON = """\
Season: 2 series, 3 games
A team's results count for each of its two partners.

Players:
Player  Series  Series won  Games  Games won  Points
------  ------  ----------  -----  ---------  ------
Ann          1           0      1          1      95
Bob          2           0      3          1      95
Cy           2           0      3          1      95
Zoë          1           0      2          1      75
Di           1           0      1          0       0

Teams:
Team  Partners  Series  Series won  Games  Games won  Points
----  --------  ------  ----------  -----  ---------  ------
Red   Ann + Cy       1           0      1          1      95
Blue  Bob + Di       1           0      1          0       0
"""


@pytest.mark.parametrize("args", [["."], ["friday.yaml", "pairs.yaml"]])
def test_standings_of_a_season(runner, season: Path, args: list[str]) -> None:
    result = runner("standings", *args)
    assert result.exit_code == 0, result.output
    friday = runner("standings", "friday.yaml").output
    pairs = runner("standings", "pairs.yaml").output
    prefix = "./" if args == ["."] else ""
    assert result.output == (
        f"{prefix}friday.yaml\n{friday}\n{prefix}pairs.yaml\n{pairs}\n{SEASON}"
    ).replace("./", "")


def test_season_counts_series_won(runner, tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(
            "players: [Ann, Bob]\ntarget: 50\ngames:\n  - winner: Ann\n    left: {Bob: 9}\n",
            encoding="utf-8",
        )
    result = runner("standings", ".")
    assert result.output.endswith(
        "Season: 2 series, 2 games\n"
        "\n"
        "Players:\n"
        "Player  Series  Series won  Games  Games won  Points\n"
        "------  ------  ----------  -----  ---------  ------\n"
        "Ann          2           2      2          2     140\n"
        "Bob          2           0      2          0       0\n"
    )


def test_export_a_season_as_json_and_markdown(runner, season: Path) -> None:
    data = json.loads(runner("export", ".").stdout)
    assert [entry["file"] for entry in data["series"]] == ["friday.yaml", "pairs.yaml"]
    assert data["series"][1]["totals"] == {"Red": 95, "Blue": 0}
    assert data["season"]["players"][1] == {
        "name": "Bob",
        "series": 2,
        "series_won": 0,
        "games": 3,
        "games_won": 1,
        "points": 95,
        "cards_left": 0,
    }
    assert data["season"]["teams"] == [
        {
            "name": "Red",
            "members": ["Ann", "Cy"],
            "series": 1,
            "series_won": 0,
            "games": 1,
            "games_won": 1,
            "points": 95,
            "cards_left": 0,
        },
        {
            "name": "Blue",
            "members": ["Bob", "Di"],
            "series": 1,
            "series_won": 0,
            "games": 1,
            "games_won": 0,
            "points": 0,
            "cards_left": 0,
        },
    ]
    markdown = runner("export", "friday.yaml", "pairs.yaml", "--format", "md").stdout
    assert markdown.startswith(
        "# Season\n\nThe season has 2 series and 3 games. A team's results count for each "
        "of its two partners.\n\n## Players\n\n"
        "| Player | Series | Series won | Games | Games won | Points |\n"
    )
    assert "\n## Teams\n\n| Team | Partners | Series |" in markdown
    assert "| Red | Ann + Cy | 1 | 0 | 1 | 1 | 95 |" in markdown
    assert "\n## Friday nights (friday.yaml)\n" in markdown
    assert "\n### Standings\n" in markdown


def test_a_season_is_not_one_csv(runner, season: Path) -> None:
    result = runner("export", ".", "--format", "csv", "-o", "season.csv")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: --format csv: a CSV export holds one series (it reads back as a series file); "
        "for 2 series use --format json or md or xlsx\n"
    )
    assert not (season / "season.csv").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "target,300,400\ngame,winner,Ann,Bob\n",
            "Error: s.csv, target: a settings row holds one value, and each setting is given once",
        ),
        (
            "team,Red\ngame,winner,Ann,Bob\n",
            "Error: s.csv, team: a team row names the team and then its players",
        ),
    ],
)
def test_bad_settings_rows(runner, tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "s.csv").write_text(text, encoding="utf-8")
    result = runner("standings", "s.csv")
    assert result.exit_code == 1
    assert result.stderr == message + "\n"


def test_a_cards_left_series_of_another_game_round_trips(runner, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "game: spite-and-malice\nplayers: [Ann, Bob]\nstock: 15\n"
        "games:\n  - winner: Ann\n    left: {Bob: 4}\n",
        encoding="utf-8",
    )
    result = runner("export", "s.yaml", "--format", "csv", "-o", "s.csv")
    assert result.exit_code == 0, result.output
    assert (
        (tmp_path / "s.csv")
        .read_text(encoding="utf-8")
        .startswith("game,spite-and-malice\nstock,15\ngame,winner,Ann,Bob,points,")
    )
    assert load_series(tmp_path / "s.csv") == load_series(tmp_path / "s.yaml")


def _season_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("Season:"))


EXPORT_NOTE = "an export of friday.yaml ({}); left out, so they count once"


@pytest.mark.parametrize(
    ("make", "args", "note"),
    [
        (None, ["friday.yaml", "./friday.yaml", "pairs.yaml"], "friday.yaml: named twice"),
        (None, [".", "friday.yaml"], "friday.yaml: named twice"),
        (
            "symlink",
            ["friday.yaml", "link.yaml", "pairs.yaml"],
            "link.yaml: the same file as friday.yaml",
        ),
        (
            "hard-link",
            ["friday.yaml", "link.yaml", "pairs.yaml"],
            "link.yaml: the same file as friday.yaml",
        ),
        ("export", ["."], f"friday.csv: {EXPORT_NOTE.format('its games')}"),
        ("excel", ["."], f"club.csv: {EXPORT_NOTE.format('its games')}"),
        ("stale", ["."], f"friday.csv: {EXPORT_NOTE.format('2 of its 3 games')}"),
        (
            "export",
            ["friday.csv", "friday.yaml", "pairs.yaml"],
            f"friday.csv: {EXPORT_NOTE.format('its games')}",
        ),
    ],
    ids=[
        "named-twice",
        "folder-and-file",
        "symlink",
        "hard-link",
        "export",
        "excel",
        "stale",
        "named",
    ],
)
def test_a_season_counts_each_series_once(
    runner, season: Path, snapshot, make: str | None, args: list[str], note: str
) -> None:
    """standings, export and fill read each series once: the same file named twice (or
    through a link), and a CSV export beside its series, are left out with a note."""
    if make == "symlink":
        (season / "link.yaml").symlink_to("friday.yaml")
    elif make == "hard-link":
        (season / "link.yaml").hardlink_to(season / "friday.yaml")
    elif make is not None:
        name, excel = ("club.csv", ["--excel"]) if make == "excel" else ("friday.csv", [])
        assert runner("export", "friday.yaml", "--format", "csv", *excel, "-o", name).exit_code == 0
    games = 3
    if make == "stale":
        record = ["friday.yaml", "--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1"]
        assert runner("record", *record).exit_code == 0
        games = 4
    before = snapshot(season)
    shown = note if "export" in note else f"{note}; read once"
    result = runner("standings", *args)
    assert result.exit_code == 0, result.output
    assert _season_line(result.stdout) == f"Season: 2 series, {games} games"
    assert result.stderr == f"Note: {shown}\n"
    exported = runner("export", *args, "--format", "json")
    assert exported.exit_code == 0, exported.output
    assert (
        json.loads(exported.stdout)["season"]
        == json.loads(runner("export", "friday.yaml", "pairs.yaml", "--format", "json").stdout)[
            "season"
        ]
    )
    filled = runner("fill", *args, "--split", "sheets")
    assert filled.exit_code == 0, filled.output
    assert filled.stderr.splitlines()[0] == f"Note: {shown}"
    assert sorted(path.name for path in (season / "sheets").iterdir()) == [
        "friday.pdf",
        "pairs.pdf",
    ]
    after = {name: data for name, data in snapshot(season).items() if not name.startswith("sheets")}
    assert after == before


def test_one_file_named_twice_is_one_series(runner, season: Path) -> None:
    result = runner("standings", "friday.yaml", "./friday.yaml")
    assert result.exit_code == 0
    assert result.stdout == runner("standings", "friday.yaml").stdout
    assert result.stderr == "Note: friday.yaml: named twice; read once\n"


def test_an_export_with_other_games_is_a_series_of_its_own(runner, season: Path) -> None:
    """Games recorded into an export after it was made: no longer the series' own."""
    assert runner("export", "friday.yaml", "--format", "csv", "-o", "friday.csv").exit_code == 0
    record = ["--winner", "Cy", "--left", "Zoë=1", "--left", "Bob=1"]
    assert runner("record", "friday.csv", *record).exit_code == 0
    result = runner("standings", ".")
    assert result.exit_code == 0 and result.stderr == ""
    assert _season_line(result.stdout) == "Season: 3 series, 6 games"


def test_a_folder_of_one_series_and_its_export_exports_that_series_as_csv(
    runner, season: Path
) -> None:
    (season / "pairs.yaml").unlink()
    assert runner("export", "friday.yaml", "--format", "csv", "-o", "friday.csv").exit_code == 0
    result = runner("export", ".", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout == (season / "friday.csv").read_text(encoding="utf-8")
    assert result.stderr == f"Note: friday.csv: {EXPORT_NOTE.format('its games')}\n"


@pytest.mark.parametrize("command", [["fill"], ["export", "--format", "json"]])
def test_a_file_left_out_is_still_never_written_over(runner, season: Path, command) -> None:
    (season / "link.yaml").symlink_to("friday.yaml")
    before = (season / "friday.yaml").read_bytes()
    result = runner(command[0], "friday.yaml", "link.yaml", *command[1:], "-o", "link.yaml")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Note: link.yaml: the same file as friday.yaml; read once",
        "Error: link.yaml: is a file this command reads (the same file as friday.yaml); "
        "write the result somewhere else",
    ]
    assert (season / "friday.yaml").read_bytes() == before
    result = runner(command[0], "friday.yaml", "./friday.yaml", *command[1:])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("fmt", ["json", "csv", "md", "xlsx"])
def test_every_export_format_knows_its_own_documents(
    season: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One registry: a series and (where the format holds one) a season written in a
    format are what that format later recognises as its own and may write over."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # a workbook is dated
    from sheetgen.series.export import EXPORT_FORMATS, EXPORTS, export_season, export_series
    from sheetgen.series.file import load_scored

    assert EXPORT_FORMATS == ("json", "csv", "md", "xlsx")
    export = EXPORTS[fmt]
    assert export.suffix == f".{fmt}"
    result = load_scored(season / "friday.yaml")
    document = export_series(result, fmt)
    head = (document.encode("utf-8") if isinstance(document, str) else document)[:4096]
    assert export.wrote(head)
    assert not export.wrote(FRIDAY.encode("utf-8"))
    named = [(season / "friday.yaml", result), (season / "pairs.yaml", result)]
    if export.season is not None:
        assert export_season(named, fmt) == export.season(named, english())
    else:
        with pytest.raises(ChoiceError) as refused:
            export_season(named, fmt)
        assert str(refused.value) == (
            "--format csv: a CSV export holds one series (it reads back as a series file); "
            "for 2 series use --format json or md or xlsx"
        )


def test_an_unknown_export_format_is_refused_not_written_as_markdown(season: Path) -> None:
    from sheetgen.series.export import export_season, export_series
    from sheetgen.series.file import load_scored

    result = load_scored(season / "friday.yaml")
    for write in (
        lambda: export_series(result, "tsv"),
        lambda: export_season([(season / "friday.yaml", result)], "tsv"),
    ):
        with pytest.raises(ChoiceError) as refused:
            write()
        assert (
            str(refused.value)
            == "--format: 'tsv' is not an export format; choose json, csv, md or xlsx"
        )
