"""A table's own game from a folder outside the package, its own toggle, and other series.

tests/games/pocket-bo is data only (game.toml, a preset, three sections): it
changes the player range (2-3), the hand (4), the deck (60 cards), the stock
sizes and the way of scoring, and declares a toggle of its own
(``discard-piles``) that no Python knows.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pagecheck import page_texts

from sheetgen.game.definition import RULES_PATH_ENV

GAMES = Path(__file__).parent / "games"
POCKET = ["--rules-dir", str(GAMES)]


def pdf_pages(pdf: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", text) for text in page_texts(pdf)]


def words_on_sheet(pdf: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [word["text"] for word in document.pages[0].extract_words()]


def test_the_fixture_game_is_data_only() -> None:
    files = sorted(p.relative_to(GAMES) for p in GAMES.rglob("*") if p.is_file())
    assert all(path.suffix in (".toml", ".md") for path in files), files


def test_the_outside_game_is_offered_and_dealt(runner: Any) -> None:
    result = runner("deal", *POCKET, "--game", "pocket-bo", "--players", "3")
    assert result.exit_code == 0, result.output
    assert result.output == (
        "3 players, 10 cards in each pocket pile: 30 dealt from the 60-card deck, "
        "30 left in the draw stack.\n"
        "The largest pocket pile for 3 players is 16 cards.\n\n"
    )
    result = runner("deal", *POCKET, "--game", "pocket-bo", "--players", "4")
    assert result.exit_code == 1
    assert result.output == "Error: --players: Pocket Bo is played by 2 to 3 players, not 4\n"
    result = runner("deal", *POCKET, "--game", "pocket-bo", "--players", "2", "--stock", "27")
    assert result.output == (
        "Error: --stock: 2 players cannot each be dealt a 27-card pocket pile from a 60-card "
        "deck: every player must still draw a first hand of 4; choose 1 to 26\n"
    )


def test_without_the_folder_the_game_is_unknown(runner: Any) -> None:
    result = runner("deal", "--game", "pocket-bo", "--players", "2")
    assert result.exit_code == 2
    assert "'pocket-bo' is not one of 'skip-bo'" in result.output.replace("\n", " ")


def test_the_environment_offers_the_same_folder(
    runner: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(RULES_PATH_ENV, os.pathsep.join([str(tmp_path / "none"), str(GAMES)]))
    result = runner("deal", "--game", "pocket-bo", "--players", "2")
    assert result.exit_code == 1
    assert (
        result.output == f"Error: {RULES_PATH_ENV}: {tmp_path / 'none'} is not a folder of games\n"
    )
    monkeypatch.setenv(RULES_PATH_ENV, str(GAMES))
    result = runner("deal", "--game", "pocket-bo", "--players", "2")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("2 players, 12 cards in each pocket pile")


@pytest.fixture(scope="module")
def pocket_booklet(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from click.testing import CliRunner

    from sheetgen.cli import cli

    out = tmp_path_factory.mktemp("pocket") / "pocket.pdf"
    result = CliRunner().invoke(
        cli,
        [*POCKET, "rules", "--game", "pocket-bo", "--set", "discard-piles=3", "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_set_changes_the_games_own_toggle_in_the_booklet(pocket_booklet: bytes) -> None:
    pages = pdf_pages(pocket_booklet)
    text = " ".join(pages)
    assert "Each player keeps three discard piles, not two." in text  # the house-rules box
    assert "end the turn on one of your three discard piles" in text
    assert "a hand of four cards; the other 28 cards make the draw stack" in text
    assert "Shuffle the 60-card pocket deck" in text
    # The game scores by cards left: the booklet and its score sheet say so.
    assert "After five games the lowest total wins" in text
    # The attached sheet counts games in words, as the booklet does.
    assert "Five games: the lowest total after the last one wins the series." in pages[-1]


def test_a_house_rules_file_sets_the_same_toggle(runner: Any, tmp_path: Path) -> None:
    from sheetgen.game.definition import use_rules_dirs
    from sheetgen.game.houserules import differences, resolve

    (tmp_path / "ours.toml").write_text(
        'game = "pocket-bo"\ndiscard-piles = 3\nplayers = 3\n', encoding="utf-8"
    )
    use_rules_dirs([GAMES])
    try:
        rules = resolve(house_rules=tmp_path / "ours.toml")
        by_set = resolve(game="pocket-bo", settings={"discard-piles": "3", "players": "3"})
    finally:
        use_rules_dirs([])
    assert rules == by_set
    assert (rules.discard_piles, rules.value("discard-piles"), rules.stock) == (3, 3, 10)
    assert differences(rules) == ["discard-piles"]
    (tmp_path / "bad.toml").write_text('game = "pocket-bo"\ndiscard-piles = "x"\n', "utf-8")
    result = runner("rules", *POCKET, "--house-rules", "bad.toml")
    assert result.exit_code == 1
    assert (
        result.output
        == "Error: bad.toml, discard-piles: Pocket Bo's discard-piles is a whole number, not 'x'\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--set", "discard-piles=0"],
            "--set discard-piles: Pocket Bo's discard-piles is 1 or more, not 0",
        ),
        (
            ["--set", "discard-piles=many"],
            "--set discard-piles: Pocket Bo's discard-piles is a whole number, not 'many'",
        ),
        (
            ["--set", "colour=red"],
            "--set colour: does not apply to Pocket Bo; its settings are discard-piles, "
            "games-to-play, players, scoring, series, stock",
        ),
        (
            ["--set", "discard-piles"],
            "--set: 'discard-piles' is not NAME=VALUE; for example --set first-player=youngest",
        ),
        (["--set", "players=4"], "--set players: Pocket Bo is played by 2 to 3 players, not 4"),
        (
            ["--set", "scoring=most"],
            "--set scoring: 'most' is not a way of scoring; choose winner or cards-left",
        ),
        (
            ["--set", "series=maybe"],
            "--set series: Pocket Bo's series is true or false, not 'maybe'",
        ),
        (
            ["--first-player", "youngest"],
            "--first-player: does not apply to Pocket Bo; its settings are discard-piles, games-to-play, players, scoring, series, stock",
        ),
    ],
)
def test_bad_settings_name_the_game_and_the_toggle(
    runner: Any, tmp_path: Path, args: list[str], message: str
) -> None:
    result = runner("rules", *POCKET, "--game", "pocket-bo", *args)
    assert result.exit_code == 1
    assert result.output == f"Error: {message}\n"
    assert list(tmp_path.iterdir()) == []


def test_set_reaches_skip_bos_own_toggles(runner: Any) -> None:
    from sheetgen.game.houserules import resolve

    rules = resolve(
        settings={"first-player": "youngest", "must-play-stock": "yes", "target": "300"}
    )
    assert (rules.first_player, rules.must_play_stock, rules.target) == ("youngest", True, 300)
    result = runner("rules", "--set", "first-player=oldest")
    assert result.output == (
        "Error: --set first-player: 'oldest' is not a choice for Skip-Bo; "
        "choose left-of-dealer, youngest\n"
    )


def test_a_series_of_the_outside_game(runner: Any, tmp_path: Path) -> None:
    result = runner("new", *POCKET, "p.yaml", "--game", "pocket-bo", "--players", "Ann,Bob,Cy")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "p.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[:5] == [
        "# A Pocket Bo series kept by sheetgen. Add games with: sheetgen record FILE",
        "game: pocket-bo",
        "scoring: cards-left",
        "games_to_play: 5",
        "stock: 10",
    ]
    result = runner(
        "record", *POCKET, "p.yaml", "--winner", "Ann", "--left", "Bob=3", "--left", "Cy=11"
    )
    assert result.exit_code == 1
    assert result.output == "Error: p.yaml, game 1: Cy has 11 cards left, but stock piles hold 10\n"
    result = runner(
        "record", *POCKET, "p.yaml", "--winner", "Ann", "--left", "Bob=3", "--left", "Cy=5"
    )
    assert result.exit_code == 0, result.output
    assert (
        result.output.splitlines()[0]
        == "Game 1: Ann went out; Bob 3, Cy 5 cards left count against them."
    )
    result = runner("standings", "p.yaml")
    assert result.exit_code == 1
    assert result.output.startswith("Error: p.yaml, game: no rules for 'pocket-bo'; choose ")


def test_a_copy_of_skip_bo_in_a_rules_dir_works_with_every_command(
    runner: Any, tmp_path: Path
) -> None:
    import shutil

    from sheetgen.resources import rules_dir

    shelf = tmp_path / "shelf"
    shutil.copytree(rules_dir() / "skip-bo", shelf / "our-bo")
    own = ["--rules-dir", str(shelf)]
    assert runner("new", *own, "o.yaml", "--game", "our-bo", "--players", "Ann,Bob").exit_code == 0
    assert runner("record", *own, "o.yaml", "--winner", "Ann", "--left", "Bob=4").exit_code == 0
    for args in (
        ["standings", "o.yaml"],
        ["export", "o.yaml", "--format", "md"],
        ["fill", "o.yaml", "-o", "o.pdf"],
        ["sheet", "--game", "our-bo", "-o", "s.pdf"],
        ["deal", "--game", "our-bo", "--players", "6"],
    ):
        result = runner(args[0], *own, *args[1:])
        assert result.exit_code == 0, (args, result.output)
    assert json.loads(runner("export", *own, "o.yaml").output)["game"] == "our-bo"


def test_games_lists_every_games_toggles(runner: Any) -> None:
    result = runner("games", *POCKET, "--game", "pocket-bo")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"pocket-bo: Pocket Bo, 2 to 3 players ({GAMES / 'pocket-bo'})"
    assert "  discard-piles  discard piles in front of each player [number]" in lines
    result = runner("games")
    assert result.exit_code == 0
    assert "  first-player     who takes the first turn [choice: left-of-dealer, youngest]" in (
        result.output.splitlines()
    )
    assert "pocket-bo" not in result.output
