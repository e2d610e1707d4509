"""Series of other games (``game:``) and the "cards left" way of scoring, end to end."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pagecheck import page_texts

from sheetgen.errors import RuleError
from sheetgen.game.definition import load_game
from sheetgen.game.scoring import Game, Series, score_series
from sheetgen.game.scoringrules import CARDS_LEFT, ScoringRules
from sheetgen.game.seating import make_table


def first_page(pdf: bytes) -> tuple[str, list[dict[str, Any]]]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[0]
        return re.sub(r"\s+", " ", page.extract_text()), page.extract_words()


# Spite and Malice ---------------------------------------------------------------


def test_a_spite_and_malice_series_is_recorded_filled_and_exported(
    runner: Any, tmp_path: Path
) -> None:
    result = runner("new", "duel.yaml", "--game", "spite-and-malice", "--players", "Ann,Bob,Cy")
    assert result.exit_code == 1
    assert result.output == "Error: players: Spite and Malice is played by 2 players, not 3\n"
    result = runner("new", "duel.yaml", "--game", "spite-and-malice", "--players", "Ann,Bob")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "duel.yaml").read_text(encoding="utf-8")
    assert "game: spite-and-malice\n" in text and "stock: 20\n" in text
    result = runner("record", "duel.yaml", "--winner", "Ann", "--left", "Bob=21")
    assert result.output == (
        "Error: duel.yaml, game 1: Bob has 21 cards left, but stock piles hold 20\n"
    )
    result = runner("record", "duel.yaml", "--winner", "Ann", "--left", "Bob=8")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Game 1: Ann scores 65."
    assert runner("record", "duel.yaml", "--winner", "Bob", "--left", "Ann=2").exit_code == 0

    result = runner("fill", "duel.yaml", "-o", "duel.pdf")
    assert result.exit_code == 0, result.output
    text, words = first_page((tmp_path / "duel.pdf").read_bytes())
    assert text.startswith("Spite and Malice score sheet")
    assert [w["text"] for w in words].count("Points") == 2  # two columns: Ann and Bob
    assert "the other player’s pay-off pile" in text

    data = json.loads(runner("export", "duel.yaml").output)
    assert (data["game"], data["stock"], data["sides"]) == ("spite-and-malice", 20, ["Ann", "Bob"])
    assert [g["points"] for g in data["games"]] == [65, 35]
    markdown = runner("export", "duel.yaml", "--format", "md").output
    assert markdown.startswith("# Spite and Malice series\n")


def test_a_blank_spite_and_malice_sheet_has_two_columns(runner: Any, tmp_path: Path) -> None:
    result = runner("sheet", "--game", "spite-and-malice", "-o", "sm.pdf")
    assert result.exit_code == 0, result.output
    text, words = first_page((tmp_path / "sm.pdf").read_bytes())
    assert [w["text"] for w in words].count("Points") == 2
    assert "Player 3" not in text
    result = runner("sheet", "--game", "spite-and-malice", "--players", "3")
    assert result.output == "Error: players: Spite and Malice is played by 2 players, not 3\n"


def test_a_file_without_game_stays_skip_bo(tmp_path: Path) -> None:
    from sheetgen.series.file import load_series

    path = tmp_path / "old.yaml"
    path.write_text("players: [Ann, Bob]\ngames:\n", encoding="utf-8")
    series = load_series(path)
    assert (series.game, series.table.stock, series.scoring) == ("skip-bo", 30, ScoringRules())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("game: chess\nplayers: [Ann, Bob]\n", "no rules for 'chess'; choose "),
        ("game: [x]\nplayers: [Ann, Bob]\n", "['x'] is not the name of a game"),
        ("scoring: most\nplayers: [Ann, Bob]\n", "'most' is not a way of scoring"),
        ("games_to_play: 0\nscoring: cards-left\nplayers: [Ann, Bob]\n", "a series of 0 games"),
    ],
)
def test_bad_game_and_scoring_keys_are_named(tmp_path: Path, text: str, message: str) -> None:
    from sheetgen.errors import SeriesFileError
    from sheetgen.series.file import load_series

    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SeriesFileError) as error:
        load_series(path)
    key = text.split(":", 1)[0]
    assert error.value.file == str(path)
    assert error.value.field == key
    assert error.value.problem.startswith(message)


# Cards left ---------------------------------------------------------------------


def test_a_cards_left_series_from_new_to_export(runner: Any, tmp_path: Path) -> None:
    result = runner(
        "new",
        "c.json",
        "--players",
        "Ann,Bob,Cy",
        "--scoring",
        "cards-left",
        "--games-to-play",
        "3",
    )
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert (saved["scoring"], saved["games_to_play"]) == ("cards-left", 3)
    for args in (
        ["--winner", "Ann", "--left", "Bob=4", "--left", "Cy=9"],
        ["--winner", "Cy", "--left", "Ann=6", "--left", "Bob=2"],
    ):
        assert runner("record", "c.json", *args).exit_code == 0
    result = runner("record", "c.json", "--winner", "Bob", "--left", "Ann=1", "--left", "Cy=3")
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Game 3: Bob went out; Ann 1, Cy 3 cards left count against them.\n"
        "Series: 3 games played, lowest total after 3 games\n"
        "Side  Cards  Won\n"
        "----  -----  ---\n"
        "Bob       6    1\n"
        "Ann       7    1\n"
        "Cy       12    1\n"
        "Bob won the series in game 3.\n"
    )
    result = runner("record", "c.json", "--winner", "Ann", "--left", "Bob=1", "--left", "Cy=1")
    assert result.exit_code == 1
    assert result.output == (
        "Error: c.json, game 4: the series ended after its 3 games; "
        "start a new series file for more games\n"
    )
    rows = list(csv.reader(io.StringIO(runner("export", "c.json", "--format", "csv").output)))
    assert rows[:3] == [
        ["scoring", "cards-left"],
        ["games_to_play", "3"],
        # No points column: a cards-left series has none; the totals are cards.
        ["game", "winner", "Ann", "Bob", "Cy", "total Ann", "total Bob", "total Cy"],
    ]
    assert rows[5] == ["3", "Bob", "1", "0", "3", "7", "6", "12"]
    data = json.loads(runner("export", "c.json").output)
    assert (data["scoring"], data["games_to_play"], data["winner"]) == ("cards-left", 3, "Bob")
    assert "target" not in data
    markdown = runner("export", "c.json", "--format", "md").output
    assert (
        "After 3 games, the player with the fewest cards left in all wins the series. "
        "So far, 3 games have been played. **Bob** won the series in game 3.\n"
    ) in markdown
    assert "| Player | Cards left | Games won | Games to play |" in markdown
    assert "| Game | Winner | Ann | Bob | Cy | Total Ann | Total Bob | Total Cy |" in markdown

    result = runner("fill", "c.json", "-o", "c.pdf")
    assert result.exit_code == 0, result.output
    text, _ = first_page((tmp_path / "c.pdf").read_bytes())
    assert "3 games: the lowest total after the last one wins the series." in text
    assert "Series winner: Bob, lowest after 3 games (6 cards)" in text
    assert text.count("Cards left Total") == 3 and "Points" not in text


def test_a_blank_cards_left_sheet_says_how_the_table_scores(runner: Any, tmp_path: Path) -> None:
    result = runner("sheet", "--names", "Ann,Bob", "--scoring", "cards-left", "-o", "c.pdf")
    assert result.exit_code == 0, result.output
    text, _ = first_page((tmp_path / "c.pdf").read_bytes())
    assert "10 games: the lowest total after the last one wins the series." in text
    assert (
        "Scoring: after each game every player writes down the cards still in their own "
        "stock pile; after 10 games the lowest total wins." in text
    )
    assert "Target:" not in text


def test_a_csv_series_keeps_its_way_of_scoring(runner: Any) -> None:
    result = runner("new", "c.csv", "--players", "Ann,Bob", "--scoring", "cards-left")
    assert result.exit_code == 0, result.output
    result = runner("record", "c.csv", "--winner", "Ann", "--left", "Bob=4")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == [
        "Game 1: Ann went out; Bob 4 cards left count against them.",
        "Series: 1 game played, lowest total after 10 games",
    ]


@st.composite
def cards_left_series(draw: st.DrawFn) -> Series:
    players = draw(st.integers(2, 6))
    names = [f"P{n}" for n in range(players)]
    table = make_table(names, game=load_game())
    agreed = draw(st.integers(1, 6))
    games = []
    for _ in range(draw(st.integers(0, agreed))):
        winner = draw(st.sampled_from(names))
        left = {name: draw(st.integers(1, table.stock)) for name in names if name != winner}
        games.append(Game(winner, left))
    rules = ScoringRules(way=CARDS_LEFT, games_to_play=agreed)
    return Series(table, tuple(games), rules)


@given(cards_left_series())
def test_cards_left_totals_are_the_cards_each_side_kept(series: Series) -> None:
    result = score_series(series)
    for side in series.table.sides:
        assert result.totals[side] == sum(game.left.get(side, 0) for game in series.games)
    assert all(game.points == 0 for game in result.games)
    lowest = min(result.totals.values())
    bottom = [side for side, total in result.totals.items() if total == lowest]
    if len(series.games) == series.scoring.games_to_play and len(bottom) == 1:
        assert (result.winner, result.won_in_game) == (bottom[0], len(series.games))
    else:
        assert result.winner is None
    assert [row.total for row in result.standings] == sorted(result.totals.values())


@pytest.mark.parametrize(
    ("figures", "message"),
    [
        ({"target": 0}, "target: 0 points cannot win a series; give 1 or more"),
        ({"bonus": -1}, "bonus: -1 is below 0; give 0 or more points"),
        ({"per_card": -2}, "per_card: -2 is below 0; give 0 or more points"),
        ({"way": "most"}, "way: 'most' is not a way of scoring; choose winner or cards-left"),
        (
            {"games_to_play": 0},
            "games_to_play: a series of 0 games cannot be played; give 1 or more",
        ),
        ({"target": "lots"}, "target: 'lots' is not a whole number"),
    ],
)
def test_scoring_figures_are_checked_in_one_place(figures: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError) as error:
        ScoringRules.from_mapping(figures)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("left", "message"),
    [
        ("Bob=-3", "Error: x.yaml, game 1: Bob cannot have -3 cards left; give 0 to 30\n"),
        ("Bob=3.5", "Usage:"),
        ("Bob=seven", "Usage:"),
    ],
)
def test_cards_left_on_the_command_line_are_read_as_whole_numbers(
    runner: Any, tmp_path: Path, left: str, message: str
) -> None:
    assert runner("new", "x.yaml", "--players", "Ann,Bob").exit_code == 0
    before = (tmp_path / "x.yaml").read_bytes()
    result = runner("record", "x.yaml", "--winner", "Ann", "--left", left)
    assert result.exit_code in (1, 2)
    assert result.output.startswith(message)
    if message == "Usage:":
        count = left.split("=")[1]
        assert f"Invalid value for '--left': Bob: '{count}' is not a whole number" in result.output
    assert (tmp_path / "x.yaml").read_bytes() == before
    result = runner("record", "x.yaml", "--winner", "Ann", "--left", "Bob=+3")
    assert result.output.splitlines()[0] == "Game 1: Ann scores 40."


def test_a_cards_left_booklet_scores_every_page_that_way(runner: Any, tmp_path: Path) -> None:
    result = runner(
        "rules", "--players", "3", "--scoring", "cards-left", "--games-to-play", "6", "-o", "c.pdf"
    )
    assert result.exit_code == 0, result.output
    pages = [re.sub(r"\s+", " ", text) for text in page_texts((tmp_path / "c.pdf").read_bytes())]
    text = " ".join(pages)
    assert (
        "House rule: nobody scores points. After each game every player adds up the cards left "
        "in their own stock pile, and after six games the lowest total wins." in pages[0]
    )
    assert "At this table nobody scores points: counting the cards left is a house rule" in text
    assert "After six games the lowest total wins the series." in text
    assert "Only the winner of a game scores" not in text
    assert "Six games: the lowest total after the last one wins the series." in pages[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--scoring", "cards-left", "--target", "300"],
            "--target: a cards-left series has no points, so --target changes nothing: "
            "the lowest total after 10 games wins",
        ),
        (
            ["--set", "scoring=cards-left", "--set", "bonus=10"],
            "--set bonus: a cards-left series has no points, so --set bonus changes nothing: "
            "the lowest total after 10 games wins",
        ),
        (
            ["--games-to-play", "6"],
            "--games-to-play: only a cards-left series is played for an agreed number of games, "
            "so --games-to-play changes nothing; choose cards-left scoring or leave "
            "--games-to-play out",
        ),
        (
            ["--scoring", "cards-left", "--games-to-play", "0"],
            "--games-to-play: a series of 0 games cannot be played; give 1 or more",
        ),
        (
            ["--game", "spite-and-malice", "--scoring", "cards-left"],
            "--scoring: does not apply to Spite and Malice; its settings are bonus, "
            "building-piles, extra, per-card, players, series, stock, target",
        ),
    ],
)
def test_figures_the_way_of_scoring_never_uses_are_refused(
    runner: Any, tmp_path: Path, args: list[str], message: str
) -> None:
    result = runner("rules", *args)
    assert result.exit_code == 1
    assert result.output == f"Error: {message}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_shared_lead_names_who_is_level_and_on_what(tmp_path: Path) -> None:
    """Not "the lead is shared": who is level, on how many points (or cards left)."""
    from click.testing import CliRunner

    from sheetgen.cli import cli

    file = tmp_path / "tie.yaml"
    run = CliRunner().invoke
    assert run(cli, ["new", str(file), "--players", "Ann,Bob,Cy"]).exit_code == 0
    assert (
        run(
            cli, ["record", str(file), "--winner", "Ann", "--left", "Bob=2", "--left", "Cy=2"]
        ).exit_code
        == 0
    )
    assert (
        run(
            cli, ["record", str(file), "--winner", "Bob", "--left", "Ann=2", "--left", "Cy=2"]
        ).exit_code
        == 0
    )
    result = run(cli, ["standings", str(file)])
    assert result.output.splitlines()[-1] == "Ann and Bob are level on 45 points."
    cards = tmp_path / "cards.yaml"
    assert (
        run(
            cli,
            [
                "new",
                str(cards),
                "--players",
                "Ann,Bob",
                "--scoring",
                "cards-left",
                "--games-to-play",
                "4",
            ],
        ).exit_code
        == 0
    )
    assert run(cli, ["record", str(cards), "--winner", "Ann", "--left", "Bob=3"]).exit_code == 0
    assert run(cli, ["record", str(cards), "--winner", "Bob", "--left", "Ann=3"]).exit_code == 0
    result = run(cli, ["standings", str(cards)])
    assert (
        result.output.splitlines()[-1]
        == "Ann and Bob are level on 3 cards left, with 2 games to play."
    )
