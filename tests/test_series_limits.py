"""How much a series file may hold, and how many games a series may agree to play (issue 28).

Each attack of the review is a case here: a file just over the byte limit (sparse, so it
costs nothing), a series one game too long, ``games_to_play`` past what a sheet holds in
every way a number enters. Each is refused with one line naming the file and the field,
changes nothing and writes nothing. What the limits cost is measured by
``tests/perf/bench.py``, not here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile import snapshot, temporaries

from sheetgen.errors import RuleError, SeriesFileError
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.limits import MAX_GAMES, MAX_SERIES_BYTES, MAX_SERIES_DEPTH, MAX_SERIES_GAMES
from sheetgen.series import file as seriesfile
from sheetgen.series import yamlfile

TOO_BIG = (
    "is larger than 10 MB, the most a series file may hold "
    "(and a series holds at most 10,000 games)"
)
TOO_LONG = "game 10001: a series holds at most 10,000 games; start a new series file for more games"
# Every command that reads a series file, with what it would write.
READERS: dict[str, list[str]] = {
    "standings": [],
    "fill": ["-o", "out.pdf"],
    "export": ["-o", "out.json"],
    "record": ["--winner", "Ann", "--left", "Bob=1"],
    "undo": ["--yes"],
}


def test_the_readme_states_the_limits() -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert (
        f"A series file may be up to {MAX_SERIES_BYTES // 2**20} MB and hold up to "
        f"{MAX_SERIES_GAMES:,} games" in readme
    )


def series_text(fmt: str, games: int) -> str:
    """A two-player series of ``games`` games, 30 points each, that never reaches its target."""
    if fmt == "yaml":
        return "target: 1000000\nplayers: [Ann, Bob]\ngames:\n" + (
            "  - {winner: Ann, left: {Bob: 1}}\n" * games
        )
    if fmt == "json":
        played = [{"winner": "Ann", "left": {"Bob": 1}}] * games
        return json.dumps({"target": 1000000, "players": ["Ann", "Bob"], "games": played})
    rows = "".join(f"{number},Ann,0,1\n" for number in range(1, games + 1))
    return "target,1000000\ngame,winner,Ann,Bob\n" + rows


# Finding 6: the size of a series file ------------------------------------------------


@pytest.mark.parametrize("command", sorted(READERS))
@pytest.mark.parametrize("name", ["huge.yaml", "huge.json", "huge.csv"])
def test_a_file_one_byte_over_the_limit_is_refused_by_every_command(
    runner: Any, name: str, command: str
) -> None:
    with (runner.cwd / name).open("wb") as huge:
        huge.truncate(MAX_SERIES_BYTES + 1)  # sparse: no block is written
    before = snapshot(runner.cwd)
    result = runner(command, name, *READERS[command])
    assert result.exit_code == 1
    assert result.output == f"Error: {name}: {TOO_BIG}\n"
    assert snapshot(runner.cwd) == before
    assert temporaries(runner.cwd) == []


@pytest.mark.parametrize("fmt", ["yaml", "json", "csv"])
def test_a_file_of_exactly_the_limit_is_read(runner: Any, fmt: str) -> None:
    text = series_text(fmt, 2)
    # What fills a file to the limit without adding a game: a comment, spaces, blank lines.
    padding = {"yaml": "#" + " " * MAX_SERIES_BYTES, "json": " " * MAX_SERIES_BYTES}
    filler = padding.get(fmt, "\n" * MAX_SERIES_BYTES)
    (runner.cwd / f"s.{fmt}").write_text(text + filler[: MAX_SERIES_BYTES - len(text)], "utf-8")
    assert (runner.cwd / f"s.{fmt}").stat().st_size == MAX_SERIES_BYTES
    result = runner("standings", f"s.{fmt}")
    assert result.exit_code == 0, result.output
    assert "Ann" in result.output


def test_a_file_is_read_no_further_than_the_limit_whatever_size_it_claims(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size the file claims is checked first, but a file may grow after that, and one
    under /proc claims 0: what is read is bounded, and checked too."""
    status = Path("/proc/self/status")
    if not status.exists() or status.stat().st_size != 0:
        pytest.skip("no /proc whose files claim to be empty")
    path = tmp_path / "status.yaml"
    path.symlink_to(status)
    monkeypatch.setattr(seriesfile, "MAX_SERIES_BYTES", 2**20 // 16)  # /proc/self/status is less
    with pytest.raises(SeriesFileError) as refused:
        seriesfile.load_series(path)
    assert "larger than" not in str(refused.value)  # read whole: it is below the limit
    monkeypatch.setattr(seriesfile, "MAX_SERIES_BYTES", 20)
    with pytest.raises(SeriesFileError) as refused:
        seriesfile.load_series(path)
    assert str(refused.value).startswith(f"{path}: is larger than 0 MB, the most")


# Finding 6: the number of games ------------------------------------------------------


@pytest.mark.parametrize("command", sorted(READERS))
@pytest.mark.parametrize("fmt", ["yaml", "json", "csv"])
def test_a_series_one_game_too_long_is_refused_by_every_command(
    runner: Any, fmt: str, command: str
) -> None:
    (runner.cwd / f"s.{fmt}").write_text(series_text(fmt, MAX_SERIES_GAMES + 1))
    before = snapshot(runner.cwd)
    result = runner(command, f"s.{fmt}", *READERS[command])
    assert result.exit_code == 1
    assert result.output == f"Error: s.{fmt}, {TOO_LONG}\n"
    assert snapshot(runner.cwd) == before
    assert temporaries(runner.cwd) == []


@pytest.mark.parametrize("fmt", ["yaml", "json", "csv"])
def test_record_refuses_the_game_after_the_last_a_series_may_hold(runner: Any, fmt: str) -> None:
    (runner.cwd / f"s.{fmt}").write_text(series_text(fmt, MAX_SERIES_GAMES))
    assert runner("standings", f"s.{fmt}").exit_code == 0
    before = snapshot(runner.cwd)
    result = runner("record", f"s.{fmt}", "--winner", "Bob", "--left", "Ann=2")
    assert result.exit_code == 1
    assert result.output == f"Error: s.{fmt}, {TOO_LONG}\n"
    assert snapshot(runner.cwd) == before
    assert temporaries(runner.cwd) == []


def test_a_csv_series_is_read_no_further_than_its_last_allowed_game(tmp_path: Path) -> None:
    """Read as a stream, a CSV file stops at the first game too many: what follows it (here
    a row that is no game at all) is never reached."""
    path = tmp_path / "s.csv"
    path.write_text(series_text("csv", MAX_SERIES_GAMES + 1) + "not,a,game\n" * 1000)
    with pytest.raises(SeriesFileError) as refused:
        seriesfile.load_series(path)
    assert str(refused.value) == f"{path}, {TOO_LONG}"


def test_too_many_games_are_refused_before_any_of_them_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    # Each game would be refused for its unknown key, if the games were read one by one.
    path.write_text("players: [Ann, Bob]\ngames:\n" + "  - {colour: red}\n" * 10_001)
    with pytest.raises(SeriesFileError) as refused:
        seriesfile.load_series(path)
    assert str(refused.value) == f"{path}, {TOO_LONG}"


# The YAML reader: the same checks with libyaml's parser and PyYAML's own ------------


@pytest.fixture
def parser_in_use(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> str:
    import yaml

    parser = str(request.param)
    if parser == "libyaml" and not hasattr(yaml, "CBaseLoader"):
        pytest.skip("PyYAML was built without libyaml")
    if parser == "python":
        monkeypatch.setattr(yamlfile, "_text_loader", lambda: None)
    return parser


# With the mapping around them, this many lists nest one level deeper than a series may.
DEEP = MAX_SERIES_DEPTH


ALIAS = "this value is used again through an alias (*name); a series file writes every value out in full"
TAG = "is not allowed; write the value as plain text"
DEEPLY = "t.yaml: lists or mappings are nested too deeply for a series file"


@pytest.mark.parametrize("parser_in_use", ["libyaml", "python"], indirect=True)
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "t.yaml: the file is empty; a series needs at least its players"),
        ("# only a comment\n", "t.yaml: the file is empty; a series needs at least its players"),
        (
            "players: [Ann, &b Bob]\ngames:\n  - winner: *b\n    left: {Ann: 3}\n",
            f"t.yaml: line 3: {ALIAS}",
        ),
        ("players: &a [Ann, *a]\n", f"t.yaml: line 1: {ALIAS}"),
        (
            "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: !!int 3}\n",
            f"t.yaml, game 1, left Bob: line 4: a YAML tag (!!int) {TAG}",
        ),
        ("players: !!set {Ann, Bob}\n", f"t.yaml, players: line 1: a YAML tag (!!set) {TAG}"),
        ("players: [Ann, !x Cy]\n", f"t.yaml, players, player 2: line 1: a YAML tag (!x) {TAG}"),
        ("players: [Ann, Bob]\nplayers: [Cy]\n", "t.yaml: line 2: 'players' is given twice"),
        ("players: [Ann, Bob]\n[a]: 1\n", "t.yaml: line 2: a key must be a plain name"),
        (
            "players: [Ann, Bob]\n---\nplayers: [Cy]\n",
            "t.yaml: line 2: not valid YAML (but found another document)",
        ),
        ("players: " + "[" * DEEP + "]" * DEEP + "\n", DEEPLY),
        ("players:\n" + "".join("  " * i + "-\n" for i in range(DEEP)), DEEPLY),
        # Deep enough for libyaml's own bound, met while it looks ahead.
        ("players: " + "[" * 5000 + "]" * 5000 + "\n", DEEPLY),
    ],
    ids=[
        "empty",
        "only-a-comment",
        "alias",
        "recursive-alias",
        "tag-in-a-game",
        "tag-on-a-mapping",
        "local-tag",
        "key-twice",
        "list-as-key",
        "two-documents",
        "deep-flow",
        "deep-block",
        "past-libyaml-bound",
    ],
)
def test_both_yaml_parsers_refuse_alike(parser_in_use: str, text: str, message: str) -> None:
    with pytest.raises(SeriesFileError) as refused:
        seriesfile.parse_series(text, Path("t.yaml"))
    assert str(refused.value) == message


@pytest.mark.parametrize("parser_in_use", ["libyaml", "python"], indirect=True)
def test_nesting_up_to_the_limit_is_read(parser_in_use: str) -> None:
    """One level less than the refused cases above reaches the checks of the series."""
    text = "players: " + "[" * (DEEP - 1) + "]" * (DEEP - 1) + "\n"
    with pytest.raises(SeriesFileError) as refused:
        seriesfile.parse_series(text, Path("t.yaml"))
    assert "nested too deeply" not in str(refused.value)


@pytest.mark.parametrize("parser_in_use", ["libyaml", "python"], indirect=True)
def test_both_yaml_parsers_read_a_long_series_alike(parser_in_use: str) -> None:
    text = (
        'title: "No"\ntarget: 1000000\nplayers: [No, "007", 2024-05-01, Null, !!str yes]\n'
        "games:\n"
        + "  - winner: No  # comment\n    left: {'007': 3, 2024-05-01: 4, Null: 1, yes: 2}\n"
        * 2000
    )
    series = seriesfile.parse_series(text, Path("t.yaml"))
    assert series.title == "No"
    assert series.table.players == ("No", "007", "2024-05-01", "Null", "yes")
    assert len(series.games) == 2000
    assert series.games[-1].left == {"007": 3, "2024-05-01": 4, "Null": 1, "yes": 2}


# Finding 7: games_to_play, however it enters -----------------------------------------

GAMES_FIELD = f"give 1 to {MAX_GAMES}"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # The attacker's 129 bytes: fill took 50 s, 2.3 GB and wrote a 67 MB PDF.
        ("g.yaml", "scoring: cards-left\ngames_to_play: 1000000\nplayers: [Ann, Bob]\n"),
        (
            "g.json",
            '{"scoring": "cards-left", "games_to_play": 1000000, "players": ["Ann", "Bob"]}',
        ),
        ("g.csv", "scoring,cards-left\ngames_to_play,1000000\ngame,winner,Ann,Bob\n"),
    ],
    ids=["yaml", "json", "csv"],
)
@pytest.mark.parametrize("command", sorted(READERS))
def test_games_to_play_past_a_sheet_is_refused_in_a_series_file(
    runner: Any,
    name: str,
    text: str,
    command: str,
) -> None:
    (runner.cwd / name).write_text(text, encoding="utf-8")
    before = snapshot(runner.cwd)
    result = runner(command, name, *READERS[command])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {name}, games_to_play: a series of 1000000 games is more than a score "
        f"sheet holds; {GAMES_FIELD}\n"
    )
    assert snapshot(runner.cwd) == before
    assert temporaries(runner.cwd) == []


def test_new_refuses_games_to_play_past_a_sheet_on_the_command_line(runner: Any) -> None:
    args = ["new", "c.yaml", "--players", "Ann,Bob", "--scoring", "cards-left"]
    result = runner(*args, "--games-to-play", "1000000000")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: Invalid value for '--games-to-play': 1000000000 is not in the range 1<=x<=200."
    )
    assert list(runner.cwd.iterdir()) == []
    result = runner(*args, "--games-to-play", str(MAX_GAMES))
    assert result.exit_code == 0, result.output
    assert "games_to_play: 200\n" in (runner.cwd / "c.yaml").read_text(encoding="utf-8")


def test_sheet_refuses_games_to_play_past_a_sheet_on_the_command_line(runner: Any) -> None:
    result = runner("sheet", "--scoring", "cards-left", "--games-to-play", "201", "-o", "s.pdf")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: Invalid value for '--games-to-play': 201 is not in the range 1<=x<=200."
    )
    assert list(runner.cwd.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "house_rules", "message"),
    [
        (["--scoring", "cards-left", "--games-to-play", "201"], None, "--games-to-play"),
        (
            ["--set", "scoring=cards-left", "--set", "games-to-play=201"],
            None,
            "--set games-to-play",
        ),
        (
            ["--house-rules", "house.toml"],
            'scoring = "cards-left"\ngames-to-play = 201\n',
            "house.toml, games-to-play",
        ),
    ],
)
def test_rules_refuses_games_to_play_past_a_sheet_from_options_and_house_rules(
    runner: Any,
    args: list[str],
    house_rules: str | None,
    message: str,
) -> None:
    if house_rules is not None:
        (runner.cwd / "house.toml").write_text(house_rules, encoding="utf-8")
    before = snapshot(runner.cwd)
    result = runner("rules", *args, "-o", "r.pdf")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {message}: a series of 201 games is more than a score sheet holds; {GAMES_FIELD}\n"
    )
    assert snapshot(runner.cwd) == before
    assert temporaries(runner.cwd) == []


def test_a_game_folder_may_not_agree_on_more_games_than_a_sheet_holds(
    runner: Any, tmp_path: Path
) -> None:
    import shutil

    games = tmp_path / "games"
    shutil.copytree(Path(__file__).parent / "games" / "pocket-bo", games / "pocket-bo")
    toml = games / "pocket-bo" / "game.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace("games_to_play = 5\n", "games_to_play = 500\n"),
        encoding="utf-8",
    )
    result = runner("--rules-dir", str(games), "sheet", "--game", "pocket-bo", "-o", "s.pdf")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {toml.resolve()}, scoring.games_to_play: a series of 500 games is more than "
        f"a score sheet holds; {GAMES_FIELD}\n"
    )
    assert not (tmp_path / "s.pdf").exists()


@pytest.mark.parametrize(
    ("games", "message"),
    [
        (0, "games_to_play: a series of 0 games cannot be played; give 1 or more"),
        (
            201,
            f"games_to_play: a series of 201 games is more than a score sheet holds; {GAMES_FIELD}",
        ),
        (
            10**9,
            "games_to_play: a series of 1000000000 games is more than a score sheet holds; "
            f"{GAMES_FIELD}",
        ),
    ],
)
def test_the_scoring_module_holds_games_to_play_to_what_a_sheet_holds(
    games: int, message: str
) -> None:
    assert ScoringRules(way="cards-left", games_to_play=MAX_GAMES).games_to_play == MAX_GAMES
    with pytest.raises(RuleError) as refused:
        ScoringRules.from_mapping({"way": "cards-left", "games_to_play": games})
    assert str(refused.value) == message
