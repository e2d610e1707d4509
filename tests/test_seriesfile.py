"""Series files: reading, writing and recording games, through the core and the CLI."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from hostile import start

from sheetgen.errors import SeriesFileError
from sheetgen.game.scoring import score_series
from sheetgen.series.file import load_scored, load_series, parse_series

EXAMPLE = """\
title: Friday nights        # optional
target: 500                 # optional
stock: 30                   # optional; default from the player count
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann             # a player, or a team in partnership play
    left: {Bob: 7, Cy: 12, Di: 3}   # cards left in every other stock pile
"""

TEAMS = """\
players: [Ann, Bob, Cy, Di]
teams:
  Red: [Ann, Cy]
  Blue: [Bob, Di]
games:
  - winner: Red
    left: {Bob: 4, Di: 10}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_example_file_loads(tmp_path: Path) -> None:
    series = load_series(write(tmp_path, "friday.yaml", EXAMPLE))
    assert series.title == "Friday nights"
    assert series.table.players == ("Ann", "Bob", "Cy", "Di")
    assert score_series(series).totals["Ann"] == 135


def test_a_file_read_and_scored_at_once_is_the_series_and_its_result(tmp_path: Path) -> None:
    path = write(
        tmp_path, "friday.yaml", EXAMPLE + "  - winner: Bob\n    left: {Ann: 2, Cy: 1, Di: 1}\n"
    )
    result = load_scored(path)
    assert result == score_series(load_series(path))
    assert [game.points for game in result.games] == [135, 45]
    assert result.totals == {"Ann": 135, "Bob": 45, "Cy": 0, "Di": 0}
    # Scoring is one of the checks: a game the rules cannot produce is refused, by file and game.
    write(tmp_path, "friday.yaml", EXAMPLE + "  - winner: Bob\n    left: {Ann: 2, Cy: 0, Di: 1}\n")
    with pytest.raises(SeriesFileError) as caught:
        load_scored(path)
    assert str(caught.value).startswith(f"{path}, game 2: Cy has 0 cards left too")


def test_reading_a_series_leaves_no_garbage_for_the_collector(tmp_path: Path) -> None:
    """A batch reads hundreds of files: whatever one leaves in a reference cycle (every
    node of its YAML, once) the garbage collector walks again and again before it frees it."""
    path = write(tmp_path, "friday.yaml", EXAMPLE)
    load_series(path)
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            load_series(path)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_json_and_csv_read_the_same_series(tmp_path: Path) -> None:
    data = {
        "players": ["Ann", "Bob", "Cy", "Di"],
        "games": [
            {"winner": "Ann", "left": {"Bob": 7, "Cy": 12, "Di": 3}},
            {"winner": "Bob", "left": {"Ann": 4, "Cy": 9, "Di": 15}},
        ],
    }
    from_json = load_series(write(tmp_path, "s.json", json.dumps(data)))
    from_csv = load_series(
        write(tmp_path, "s.csv", "game,winner,Ann,Bob,Cy,Di\n1,Ann,0,7,12,3\n2,Bob,4,,9,15\n")
    )
    assert from_json.games == from_csv.games
    assert score_series(from_csv).totals == {"Ann": 135, "Bob": 165, "Cy": 0, "Di": 0}


@pytest.mark.parametrize("names", [["No", "On", "007", "2024-05-01"], ["Yes", "null", "1e3", "~x"]])
def test_names_are_text_whatever_they_look_like(tmp_path: Path, names: list[str]) -> None:
    text = (
        f"players: [{', '.join(names)}]\ngames:\n  - winner: {names[1]}\n    left: {{"
        + ", ".join(f"{n}: 2" for n in names if n != names[1])
        + "}\n"
    )
    series = load_series(write(tmp_path, "s.yaml", text))
    assert series.table.players == tuple(names)
    assert series.games[0].winner == names[1]


# Names the bundled typeface prints: new refuses what fill could not print.
UNICODE = ["Zoë", "Łukasz", "Σοφία", "Дмитрий", "Ōkubo"]


def test_unicode_names_round_trip_through_the_commands(runner, tmp_path: Path) -> None:
    result = runner("new", "u.yaml", "--players", ",".join(UNICODE))
    assert result.exit_code == 0, result.output
    args = ["record", "u.yaml", "--winner", "Ōkubo"]
    for name in UNICODE[:-1]:
        args += ["--left", f"{name}=2"]
    assert runner(*args).exit_code == 0
    exported = json.loads(runner("export", "u.yaml").output)
    assert exported["sides"] == UNICODE
    assert exported["games"][0]["left"] == {name: 2 for name in UNICODE[:-1]}
    assert exported["totals"]["Ōkubo"] == 25 + 5 * 8


BAD_FILES = [
    ("s.yaml", "players: [Ann, Bob\n", "s.yaml: line 2: not valid YAML"),
    ("s.yaml", "", "s.yaml: the file is empty"),
    ("s.yaml", "- Ann\n", "s.yaml: the file must hold a mapping with players and games"),
    ("s.yaml", "players: [Ann, Bob]\nplayers: [Cy]\n", "s.yaml: line 2: 'players' is given twice"),
    ("s.yaml", "players: [Ann, Bob]\ncolour: red\n", "s.yaml: unknown key 'colour'"),
    ("s.yaml", "players: Ann\n", "s.yaml, players: give the list of players"),
    (
        "s.yaml",
        "players: [Ann, Bob]\ntarget: lots\n",
        "s.yaml, target: 'lots' is not a whole number",
    ),
    (
        "s.yaml",
        "players: [Ann, Bob]\ntarget: -5\n",
        "s.yaml, target: -5 points cannot win a series; give 1 or more",
    ),
    (
        "s.yaml",
        "players: [Ann, Bob]\ntarget: 0\n",
        "s.yaml, target: 0 points cannot win a series; give 1 or more",
    ),
    (
        "s.yaml",
        "players: [Ann, Bob]\nstock: 77\n",
        "s.yaml, stock: 2 players cannot each be dealt a 77-card stock pile",
    ),
    (
        "s.yaml",
        "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: seven}\n",
        "s.yaml, game 1, left Bob: 'seven' is not a whole number",
    ),
    (
        "s.yaml",
        "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    lft: {Bob: 3}\n",
        "s.yaml, game 1: unknown key 'lft'; did you mean 'left'? a game has the keys winner, left",
    ),
    (
        "s.yaml",
        "players: [Ann, Bob, Cy]\ngames:\n  - {winner: Ann, left: {Bob: 3, Cy: 2}}\n"
        "  - {winner: Cy, left: {Ann: 3, Bob: 31}}\n",
        "s.yaml, game 2: Bob has 31 cards left, but stock piles hold 30",
    ),
    ("s.json", '{"players": ["Ann", "Bob"],}', "s.json: line 1, column 28: not valid JSON"),
    ("s.json", '{"players": ["Ann", 7]}', "s.json, players, player 2: a name must be text, not 7"),
    ("s.json", '{"players": ["Ann", "Bob"], "target": 5.5}', "s.json, target: 5.5 is not"),
    (
        "s.csv",
        "round,winner,Ann,Bob\n",
        "s.csv, row 1: no column is headed game or Spiel (the games' numbers); "
        "the heading row names the columns game and winner, then one per player "
        "(found: round, winner, Ann, Bob)",
    ),
    (
        "s.csv",
        "game,winner,Ann,Bob\n1,Ann,0,3\n3,Bob,2,0\n",
        "s.csv, game 2: the game column says '3'",
    ),
    ("s.csv", "game,winner,Ann,Bob\n1,Ann,0\n", "s.csv, game 1: the row has 3 cells, the header 4"),
    (
        "s.txt",
        "players: [Ann, Bob]\n",
        "s.txt: a series file ends in .yaml, .yml, .json, .csv or .xlsx, not '.txt'",
    ),
    ("s.ods", "", "s.ods: sheetgen reads .xlsx workbooks, not .ods: save it in LibreOffice"),
    ("s.json", '{"players": ["Ann", "Bob"], "games": ""}', "s.json, games: give a list of games"),
    (
        "s.json",
        '{"players": ["Ann", "Bob"], "games": [{"winner": "Ann", "left": []}]}',
        "s.json, game 1, left: give the cards left per player, for example {Bob: 7, Cy: 12}",
    ),
    ("s.json", '{"players": ["Ann", "Bob"], "stock": true}', "s.json, stock: True is not a whole"),
    ("s.json", '{"players": ["Ann", "Bob"], "scoring": 5}', "s.json, scoring: 5 is not a way of"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_FILES)
def test_bad_files_get_one_clear_message(
    runner, tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = write(tmp_path, name, text)
    with pytest.raises(SeriesFileError) as caught:
        parse_series(text, Path(name))
    assert str(caught.value).startswith(message)
    result = runner("standings", name)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {message}")
    assert "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == text


def test_missing_file(runner) -> None:
    result = runner("standings", "gone.yaml")
    assert result.exit_code == 1
    assert result.output == "Error: gone.yaml: no such series file\n"


def test_new_writes_a_file_that_loads_and_refuses_to_overwrite(runner, tmp_path: Path) -> None:
    result = runner(
        "new",
        "f.yaml",
        "--players",
        "Ann,Bob,Cy,Di",
        "--teams",
        "Red=Ann+Cy,Blue=Bob+Di",
        "--target",
        "300",
        "--title",
        "Friday nights",
    )
    assert result.exit_code == 0, result.output
    series = load_series(tmp_path / "f.yaml")
    assert series.table.sides == ("Red", "Blue")
    assert series.scoring.target == 300
    before = (tmp_path / "f.yaml").read_bytes()
    again = runner("new", "f.yaml", "--players", "X,Y")
    assert again.exit_code == 1
    assert again.output == "Error: f.yaml: already exists; sheetgen will not overwrite it\n"
    assert (tmp_path / "f.yaml").read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "Ann,Bob,Ann"], "players: Ann is listed twice"),
        (
            ["--players", "Ann,Bob,Cy", "--teams", "R=Ann+Bob,B=Cy"],
            "teams: teams of two need 4 or 6 players, not 3",
        ),
        (["--players", "Ann,Bob", "--teams", "Red"], "teams: 'Red' is not a team"),
        (
            ["--players", "Ann,Bob", "--target", "0"],
            "target: 0 points cannot win a series; give 1 or more",
        ),
    ],
)
def test_new_refuses_impossible_tables(
    runner, tmp_path: Path, args: list[str], message: str
) -> None:
    result = runner("new", "f.yaml", *args)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {message}")
    assert not (tmp_path / "f.yaml").exists()


def test_record_keeps_comments_and_layout(runner, tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", EXAMPLE + "  # more to come\n")
    result = runner(
        "record",
        "f.yaml",
        "--winner",
        "Bob",
        "--left",
        "Ann=4",
        "--left",
        "Cy=9",
        "--left",
        "Di=15",
    )
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert text.startswith(EXAMPLE)
    assert (
        text == EXAMPLE + "  - winner: Bob\n    left: {Ann: 4, Cy: 9, Di: 15}\n  # more to come\n"
    )
    assert "Game 2: Bob scores 165." in result.output
    assert "Bob leads and needs 335 more points." in result.output


@pytest.mark.parametrize("name", ["f.yaml", "f.json", "f.csv"])
def test_rejected_game_leaves_the_file_byte_for_byte(runner, tmp_path: Path, name: str) -> None:
    assert runner("new", name, "--players", "Ann,Bob,Cy").exit_code == 0
    assert (
        runner("record", name, "--winner", "Ann", "--left", "Bob=3", "--left", "Cy=4").exit_code
        == 0
    )
    before = (tmp_path / name).read_bytes()
    result = runner("record", name, "--winner", "Cy", "--left", "Ann=3", "--left", "Bob=40")
    assert result.exit_code == 1
    assert (
        result.output == f"Error: {name}, game 2: Bob has 40 cards left, but stock piles hold 30\n"
    )
    assert (tmp_path / name).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == [name]


def test_record_refuses_a_game_after_the_series_is_won(runner, tmp_path: Path) -> None:
    runner("new", "f.yaml", "--players", "Ann,Bob", "--target", "100")
    assert runner("record", "f.yaml", "--winner", "Ann", "--left", "Bob=30").exit_code == 0
    result = runner("record", "f.yaml", "--winner", "Bob", "--left", "Ann=3")
    assert result.exit_code == 1
    assert "game 2: the series was already won by Ann in game 1" in result.output
    assert "Ann won the series in game 1." in runner("standings", "f.yaml").output


def test_concurrent_records_are_serialised(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("# keep me\nplayers: [Ann, Bob]\ntarget: 100000\ngames:\n", encoding="utf-8")
    command = ["record", str(path), "--winner", "Ann", "--left", "Bob=1"]
    processes = [start(command, tmp_path) for _ in range(8)]  # eight processes at once
    errors = [p.communicate(timeout=120)[1] for p in processes]
    assert [p.returncode for p in processes] == [0] * 8, errors
    series = load_series(path)
    assert len(series.games) == 8
    assert path.read_text(encoding="utf-8").startswith("# keep me\n")


def test_export_json_has_exactly_the_documented_keys(runner, tmp_path: Path) -> None:
    write(tmp_path, "f.yaml", EXAMPLE)
    result = runner("export", "f.yaml", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.output) == {
        "game": "skip-bo",
        "title": "Friday nights",
        "scoring": "winner",
        "target": 500,
        "bonus": 25,
        "per_card": 5,
        "stock": 30,
        "sides": ["Ann", "Bob", "Cy", "Di"],
        "games": [
            {
                "number": 1,
                "winner": "Ann",
                "left": {"Bob": 7, "Cy": 12, "Di": 3},
                "points": 135,
                "scores": {"Ann": 135, "Bob": 0, "Cy": 0, "Di": 0},
                "totals": {"Ann": 135, "Bob": 0, "Cy": 0, "Di": 0},
            }
        ],
        "totals": {"Ann": 135, "Bob": 0, "Cy": 0, "Di": 0},
        "winner": None,
        "won_in_game": None,
    }


def test_export_partnership_json_and_csv(runner, tmp_path: Path) -> None:
    write(tmp_path, "t.yaml", TEAMS)
    data = json.loads(runner("export", "t.yaml").output)
    assert data["sides"] == ["Red", "Blue"]
    assert data["games"][0]["left"] == {"Bob": 4, "Di": 10}
    assert data["totals"] == {"Red": 95, "Blue": 0}
    result = runner("export", "t.yaml", "--format", "csv", "-o", "t.csv")
    assert result.exit_code == 0
    assert (tmp_path / "t.csv").read_text() == (
        "team,Red,Ann,Cy\nteam,Blue,Bob,Di\n"
        "game,winner,Ann,Bob,Cy,Di,points,total Red,total Blue\n1,Red,0,4,0,10,95,95,0\n"
    )
    assert load_series(tmp_path / "t.csv") == load_series(tmp_path / "t.yaml")


def test_standings_table(runner, tmp_path: Path) -> None:
    write(tmp_path, "t.yaml", TEAMS)
    output = runner("standings", "t.yaml").output
    assert output.splitlines() == [
        "Series: 1 game played, first to 500",
        "Side             Total  Won  Needed",
        "---------------  -----  ---  ------",
        "Red (Ann + Cy)      95    1     405",
        "Blue (Bob + Di)      0    0     500",
        "Red (Ann + Cy) leads and needs 405 more points.",
    ]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--players", "2"],
            "2 players, 30 cards in each stock pile: 60 dealt from the "
            "162-card deck, 102 left in the draw pile.",
        ),
        (
            ["--players", "4"],
            "4 players, 30 cards in each stock pile: 120 dealt from the "
            "162-card deck, 42 left in the draw pile.",
        ),
        (
            ["--players", "6"],
            "6 players, 20 cards in each stock pile: 120 dealt from the "
            "162-card deck, 42 left in the draw pile.",
        ),
    ],
)
def test_deal(runner, args: list[str], line: str) -> None:
    result = runner("deal", *args)
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == line


def test_deal_refuses_what_the_deck_cannot_deal(runner) -> None:
    result = runner("deal", "--players", "6", "--stock", "23")
    assert result.exit_code == 1
    assert result.output == (
        "Error: --stock: 6 players cannot each be dealt a 23-card stock pile from a 162-card deck: "
        "every player must still draw a first hand of 5; choose 1 to 22\n"
    )


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "players: [Ann, Bob]\ngames: []   # none yet\n",
            "players: [Ann, Bob]\ngames:   # none yet\n  - winner: Ann\n    left: {Bob: 3}\n",
        ),
        (
            "players: [Ann, Bob]\n",
            "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 3}\n",
        ),
        (
            "players: [Ann, Bob]\r\ngames:\r\n- winner: Bob\r\n  left: {Ann: 1}\r\ntitle: T\r\n",
            "players: [Ann, Bob]\r\ngames:\r\n- winner: Bob\r\n  left: {Ann: 1}\r\n"
            "- winner: Ann\r\n  left: {Bob: 3}\r\ntitle: T\r\n",
        ),
    ],
)
def test_record_appends_in_the_file_own_style(
    runner, tmp_path: Path, before: str, after: str
) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(before.encode())
    result = runner("record", "f.yaml", "--winner", "Ann", "--left", "Bob=3")
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == after.encode()


def test_record_refuses_a_flow_style_games_list(runner, tmp_path: Path) -> None:
    text = "players: [Ann, Bob]\ngames: [{winner: Bob, left: {Ann: 1}}]\n"
    path = write(tmp_path, "f.yaml", text)
    result = runner("record", "f.yaml", "--winner", "Ann", "--left", "Bob=3")
    assert result.exit_code == 1
    assert result.output == (
        "Error: f.yaml, games: the list is written in flow style; sheetgen appends only to a block list\n"
    )
    assert path.read_text() == text


def test_new_csv_holds_title_teams_stock_and_target(runner, tmp_path: Path) -> None:
    result = runner(
        "new",
        "f.csv",
        "--players",
        "Ann,Bob,Cy,Di",
        "--teams",
        "Red=Ann+Cy,Blue=Bob+Di",
        "--title",
        "Friday",
        "--stock",
        "12",
        "--target",
        "300",
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "f.csv").read_text(encoding="utf-8") == (
        "title,Friday\ntarget,300\nstock,12\nteam,Red,Ann,Cy\nteam,Blue,Bob,Di\n"
        "game,winner,Ann,Bob,Cy,Di\n"
    )
    assert (
        runner("record", "f.csv", "--winner", "Red", "--left", "Bob=2", "--left", "Di=5").exit_code
        == 0
    )
    series = load_series(tmp_path / "f.csv")
    assert (series.title, series.table.stock, series.scoring.target) == ("Friday", 12, 300)
    assert series.table.sides == ("Red", "Blue")
    assert series.games[0].left == {"Bob": 2, "Di": 5}


def test_record_rejects_unknown_winner_and_repeated_player(runner, tmp_path: Path) -> None:
    runner("new", "f.yaml", "--players", "Ann,Bob")
    result = runner("record", "f.yaml", "--winner", "Zed", "--left", "Bob=3")
    assert result.exit_code == 1
    assert result.output == (
        "Error: f.yaml, game 1, winner: 'Zed' is not a player of this series (choose from Ann, Bob)\n"
    )
    result = runner("record", "f.yaml", "--winner", "Ann", "--left", "Bob=3", "--left", "Bob=4")
    assert result.exit_code == 2
    assert "a player is named twice" in result.output


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sheetgen.game.names import is_ignorable, normal, skeleton  # noqa: E402

NAME = st.text(
    # Latin, Greek and Cyrillic, as the bundled typeface prints them (new refuses the rest).
    alphabet=st.characters(max_codepoint=0x4FF, exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=12,
).filter(
    lambda s: (
        s == s.strip()
        and "," not in s
        and "+" not in s
        and "=" not in s
        and s == normal(s)
        and not any(is_ignorable(c) for c in s)
    )
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
@given(
    names=st.lists(NAME, min_size=2, max_size=6, unique_by=skeleton),
    suffix=st.sampled_from([".yaml", ".json", ".csv"]),
    data=st.data(),
)
def test_any_names_and_games_round_trip(
    tmp_path_factory: pytest.TempPathFactory, names: list[str], suffix: str, data: st.DataObject
) -> None:
    from hypothesis import assume

    from sheetgen.errors import FontCoverageError
    from sheetgen.game.scoring import Game
    from sheetgen.series.file import create_series
    from sheetgen.series.record import record_game

    folder = tmp_path_factory.mktemp("rt")
    path = folder / f"s{suffix}"
    try:
        create_series(path, names, target=None if suffix == ".csv" else 100000)
    except FontCoverageError:  # refused where it enters: the sheet could not print it
        assume(False)
    stock = 30 if len(names) <= 4 else 20
    games = []
    for _ in range(data.draw(st.integers(0, 1 if suffix == ".csv" else 3))):
        winner = data.draw(st.sampled_from(names))
        left = {n: data.draw(st.integers(1, stock)) for n in names if n != winner}
        games.append(Game(winner, left))
        record_game(path, games[-1])
    series = load_series(path)
    assert series.table.players == tuple(names)
    assert series.games == tuple(games)


def test_a_fifo_or_device_is_refused_without_blocking(runner, tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    for name in ("pipe.yaml", "zero.yaml"):
        result = runner("standings", name)
        assert result.exit_code == 1
        assert result.output == f"Error: {name}: is not an ordinary file; give a series file\n"


@pytest.mark.parametrize(
    "text",
    [
        "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 4}\n",
        'title: ""\nplayers: [Null, ~, "~", !!null "", !!str 7, 007, yes]\nstock:\n',
        "players:\n  - Ann\n  - 'Bob'\n? complex\n: [1, {a: [b, c]}]\nempty: {}\n",
    ],
)
def test_libyaml_reader_sees_the_tags_and_values_of_the_base_loader(text: str) -> None:
    # The fast reader answers libyaml's tag questions from a table instead of the base
    # resolver: every node must come out with the same tag, style and text.
    import yaml

    from sheetgen.series.yamlfile import _text_loader

    def tree(node: yaml.Node) -> object:
        if isinstance(node, yaml.MappingNode):
            return (node.tag, [(tree(key), tree(value)) for key, value in node.value])
        if isinstance(node, yaml.SequenceNode):
            return (node.tag, [tree(item) for item in node.value])
        return (node.tag, node.style, node.value)

    fast = _text_loader()
    assert fast is not None
    assert tree(yaml.compose(text, Loader=fast)) == tree(
        yaml.compose(text, Loader=yaml.CBaseLoader)
    )


@pytest.mark.parametrize(
    ("name", "wrong_target", "wrong_count"),
    [
        (
            "s.yaml",
            "players: [Ann, Bob]\ntarget: lots\n",
            "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: x}\n",
        ),
        (
            "s.json",
            '{"players": ["Ann", "Bob"], "target": "lots"}',
            '{"players": ["Ann", "Bob"], "games": [{"winner": "Ann", "left": {"Bob": "x"}}]}',
        ),
        ("s.csv", "target,lots\ngame,winner,Ann,Bob\n", "game,winner,Ann,Bob\n1,Ann,0,x\n"),
    ],
)
def test_a_wrong_typed_field_reads_alike_in_every_format(
    name: str, wrong_target: str, wrong_count: str
) -> None:
    """Every format's reader hands its data to the one schema: one message, naming the
    file, the game and the field (in a spreadsheet, the field's cell)."""
    with pytest.raises(SeriesFileError) as refused:
        parse_series(wrong_target, Path(name))
    assert str(refused.value) == f"{name}, target: 'lots' is not a whole number"
    with pytest.raises(SeriesFileError) as refused:
        parse_series(wrong_count, Path(name))
    field = "row 2, column D (Bob)" if name == "s.csv" else "left Bob"
    assert str(refused.value) == f"{name}, game 1, {field}: 'x' is not a whole number"


# One schema for every field of every format (issue 32, item 10) --------------------------

GOOD = {
    "title": "T",
    "target": 300,
    "stock": 20,
    "players": ["Ann", "Bob"],
    "games": [{"winner": "Ann", "left": {"Bob": 3}}],
}
# A field of the wrong type, and the message's place and what it says was expected.
WRONG_JSON = [
    ({"title": 5}, "title: 5 is not text"),
    ({"title": ["x"]}, "title: ['x'] is not text"),
    ({"game": 7}, "game: 7 is not the name of a game"),
    ({"scoring": ["winner"]}, "scoring: ['winner'] is not a way of scoring; give winner or"),
    ({"target": 2.5}, "target: 2.5 is not a whole number"),
    ({"target": True}, "target: True is not a whole number"),
    ({"games_to_play": {}}, "games_to_play: {} is not a whole number"),
    ({"stock": [20]}, "stock: [20] is not a whole number"),
    ({"bonus": "lots"}, "bonus: 'lots' is not a whole number"),
    ({"per_card": False}, "per_card: False is not a whole number"),
    ({"players": "Ann"}, "players: give the list of players, for example [Ann, Bob, Cy]"),
    ({"players": None}, "players: give the list of players, for example [Ann, Bob, Cy]"),
    ({"players": ["Ann", 7]}, "players, player 2: a name must be text, not 7"),
    ({"teams": ["Red"]}, "teams: give each team's two partners, for example Red: [Ann, Cy]"),
    ({"games": ""}, "games: give a list of games, each with winner and left"),
    ({"games": {"winner": "Ann"}}, "games: give a list of games, each with winner and left"),
    ({"games": [5]}, "game 1: a game has the keys winner and left"),
    ({"games": [{"winner": 7, "left": {"Bob": 3}}]}, "game 1, winner: name the player or team"),
    ({"games": [{"winner": "Ann", "left": []}]}, "game 1, left: give the cards left per player"),
    ({"games": [{"winner": "Ann", "left": 0}]}, "game 1, left: give the cards left per player"),
    (
        {"games": [{"winner": "Ann", "left": {"Bob": True}}]},
        "game 1, left Bob: True is not a whole",
    ),
    ({"games": [{"winner": "Ann", "left": {"Bob": 2.5}}]}, "game 1, left Bob: 2.5 is not a whole"),
    # A name that would break the message's line is shown quoted.
    ({"games": [{"winner": "Ann", "left": {"\r": None}}]}, "game 1, left '\\r': None is not"),
]
WRONG_CSV = [
    ("target,lots\ngame,winner,Ann,Bob\n1,Ann,0,3\n", "target: 'lots' is not a whole number"),
    ("stock,2.5\ngame,winner,Ann,Bob\n1,Ann,0,3\n", "stock: '2.5' is not a whole number"),
    ("per card,x\ngame,winner,Ann,Bob\n1,Ann,0,3\n", "per_card: 'x' is not a whole number"),
    # A spreadsheet's reader looks for a cell: a game's field is named by its row and column.
    (
        "game,winner,Ann,Bob\n1,,0,3\n",
        "game 1, row 2, column B (winner): name the player or team who went out",
    ),
    (
        "game,winner,Ann,Bob\n1,Ann,0,three\n",
        "game 1, row 2, column D (Bob): 'three' is not a whole number",
    ),
    ("game,winner,Ann,Bob\none,Ann,0,3\n", "game 1: the game column says 'one'"),
]
COMMANDS = [
    ["standings"],
    ["record", "--winner", "Bob", "--left", "Ann=2"],
    ["record", "--replace", "1", "--winner", "Bob", "--left", "Ann=2"],
    ["undo", "--yes"],
    ["export", "--format", "csv", "-o", "out.csv"],
    ["fill", "-o", "out.pdf"],
]


# In YAML every value is text: a title 5 or a player 7 is the text "5" or "7", and right.
YAML_TEXT = ({"title": 5}, {"players": ["Ann", 7]})


def wrong_cases() -> list[tuple[str, int]]:
    cases = [
        (suffix, n)
        for n, (change, _) in enumerate(WRONG_JSON)
        for suffix in ("json", "yaml")
        if suffix == "json" or change not in YAML_TEXT
    ]
    return cases + [(suffix, n) for n in range(len(WRONG_CSV)) for suffix in ("csv", "xlsx")]


def wrong_file(suffix: str, number: int) -> tuple[bytes, str]:
    """A series in format ``suffix`` with one field of the wrong type, and the message."""
    import io as _io

    import openpyxl
    import yaml

    if suffix in ("json", "yaml"):
        change, message = WRONG_JSON[number]
        data = {**GOOD, **change}
        if suffix == "json":
            return json.dumps(data).encode(), message
        return yaml.safe_dump(data, allow_unicode=True).encode(), message
    text, message = WRONG_CSV[number]
    if suffix == "csv":
        return text.encode(), message
    book = openpyxl.Workbook()
    for line in text.splitlines():
        book.active.append([int(c) if c.isdigit() else c or None for c in line.split(",")])
    out = _io.BytesIO()
    book.save(out)
    return out.getvalue(), message


@pytest.mark.parametrize(("suffix", "number"), wrong_cases())
def test_a_wrong_typed_field_is_refused_by_every_command_in_one_line(
    runner, suffix: str, number: int
) -> None:
    """Before any command uses a series, every field is checked: one line naming the file,
    the field and what was expected; exit 1, no traceback, nothing written."""
    name = f"s.{suffix}"
    data, message = wrong_file(suffix, number)
    path = runner.cwd / name
    path.write_bytes(data)
    for command in COMMANDS:
        result = runner(command[0], name, *command[1:])
        assert result.exit_code == 1, (command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), command
        if suffix == "xlsx" and command[0] in ("record", "undo"):
            # Refused for the wrong field, or (undo, before it reads) for being a workbook.
            assert result.output.startswith((f"Error: {name}, {message}", f"Error: {name}: "))
            assert len(result.output.splitlines()) == 1, result.output
        elif suffix == "yaml":
            # YAML types nothing: the text 2.5 or true is refused as such, at the same place.
            place = message.split(": ", 1)[0]
            assert result.output.startswith(f"Error: {name}, {place}: "), result.output
            assert len(result.output.splitlines()) == 1, result.output
        else:
            assert result.output.startswith(f"Error: {name}, {message}"), (command, result.output)
            assert len(result.output.splitlines()) == 1, result.output
        assert path.read_bytes() == data
        assert sorted(p.name for p in runner.cwd.iterdir() if not p.name.endswith(".lock")) == [
            name
        ]


def test_the_schema_has_a_type_for_every_key() -> None:
    from sheetgen.series.schema import FIELDS, GAME_FIELDS, GAME_KEYS, SERIES_KEYS

    assert tuple(FIELDS) == SERIES_KEYS
    assert tuple(GAME_FIELDS) == GAME_KEYS


def test_a_series_file_may_spell_its_keys_as_options_do(tmp_path: Path) -> None:
    """per-card (as options and house-rules files spell it) is per_card; both is refused;
    a misspelt key gets the nearest one."""
    from sheetgen.errors import SheetgenError
    from sheetgen.series.file import load_series

    path = tmp_path / "s.yaml"
    path.write_text(
        "players: [Ann, Bob]\ngames-to-play: 4\nscoring: cards-left\ngames: []\n", encoding="utf-8"
    )
    assert load_series(path).scoring.games_to_play == 4
    path.write_text("players: [Ann, Bob]\nper-card: 2\ngames: []\n", encoding="utf-8")
    assert load_series(path).scoring.per_card == 2
    path.write_text("players: [Ann, Bob]\nper_card: 2\nper-card: 3\ngames: []\n", encoding="utf-8")
    with pytest.raises(SheetgenError, match="given twice, spelt two ways"):
        load_series(path)
    path.write_text("players: [Ann, Bob]\nper_crad: 2\ngames: []\n", encoding="utf-8")
    with pytest.raises(SheetgenError, match="did you mean 'per_card'"):
        load_series(path)
