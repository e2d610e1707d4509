"""Every fact of a game comes from its folder: a changed game.toml changes every command."""

from __future__ import annotations

import pickle
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetgen.errors import (
    GameDefinitionError,
    HouseRulesError,
    RuleError,
    SeriesFileError,
    SheetgenError,
)
from sheetgen.game.definition import RULES_PATH_ENV, load_game
from sheetgen.game.houserules import resolve
from sheetgen.game.seating import deal, make_table
from sheetgen.numbers import whole_number
from sheetgen.resources import rules_dir


def copy_skip_bo(folder: Path, name: str, **changes: str) -> Path:
    """rules/skip-bo copied to ``folder/name`` with top-level game.toml lines replaced."""
    game = folder / name
    shutil.copytree(rules_dir() / "skip-bo", game)
    toml = game / "game.toml"
    text = toml.read_text(encoding="utf-8")
    for key, value in changes.items():
        text, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
        assert count == 1, key
    toml.write_text(text, encoding="utf-8")
    return game


@pytest.fixture
def eight_seats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Skip-Bo for up to eight players, offered through SHEETGEN_RULES_PATH."""
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    game = copy_skip_bo(shelf, "big-bo", players="[2, 8]")
    toml = game / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("6 = 20 }", "6 = 20, 7 = 15, 8 = 15 }"), encoding="utf-8")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    return game


@pytest.fixture
def short_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Skip-Bo with a hand of three, offered through SHEETGEN_RULES_PATH."""
    shelf = tmp_path / "hands"
    shelf.mkdir()
    game = copy_skip_bo(shelf, "three-hand", hand="3")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    return game


def test_eight_players_are_seated_by_every_check(eight_seats: Path, runner: Any) -> None:
    game = load_game("big-bo")
    assert (game.min_players, game.max_players) == (2, 8)
    assert resolve(game="big-bo", options={"players": 8}).stock == 15
    assert deal(8, game=game).draw_pile == 162 - 8 * 15
    names = [f"P{n}" for n in range(8)]
    assert make_table(names, game=game).stock == 15
    result = runner("deal", "--game", "big-bo", "--players", "8")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("8 players, 15 cards in each stock pile: 120 dealt")
    assert "The largest stock pile for 8 players is 15 cards." in result.output
    result = runner("deal", "--game", "big-bo", "--players", "9")
    assert result.output == "Error: --players: Skip-Bo is played by 2 to 8 players, not 9\n"
    result = runner("new", "eight.yaml", "--game", "big-bo", "--players", ",".join(names))
    assert result.exit_code == 0, result.output


def test_skip_bo_itself_still_seats_six(runner: Any) -> None:
    result = runner("deal", "--players", "8")
    assert result.exit_code == 1
    assert result.output == "Error: --players: Skip-Bo is played by 2 to 6 players, not 8\n"


@pytest.mark.parametrize(("stock", "fits"), [(36, True), (37, True), (38, False)])
def test_the_hand_decides_the_largest_stock_everywhere(
    short_hand: Path, runner: Any, stock: int, fits: bool
) -> None:
    """With a hand of 3, four players can each hold (162 // 4) - 3 = 37 cards."""
    message = (
        f"--stock: 4 players cannot each be dealt a {stock}-card stock pile from a 162-card "
        "deck: every player must still draw a first hand of 3; choose 1 to 37"
    )
    options = {"players": 4, "stock": str(stock)}
    result = runner("deal", "--game", "three-hand", "--players", "4", "--stock", str(stock))
    if fits:
        assert resolve(game="three-hand", options=options).stock == stock
        assert result.exit_code == 0, result.output
        assert f"{stock} cards in each stock pile" in result.output
    else:
        with pytest.raises(HouseRulesError) as error:
            resolve(game="three-hand", options=options)
        assert str(error.value) == message
        assert result.output == f"Error: {message}\n"
    if not fits:
        rules = runner("rules", "--game", "three-hand", "--players", "4", "--stock", str(stock))
        assert rules.output == f"Error: {message}\n"


def test_a_definition_without_a_stock_size_for_a_seat_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: Any
) -> None:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    game = copy_skip_bo(shelf, "wide", players="[2, 7]")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    result = runner("deal", "--game", "wide", "--players", "2")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {game.resolve() / 'game.toml'}, stock.official: no stock size for 7 players\n"
    )


def test_the_official_stock_must_be_dealable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    game = copy_skip_bo(shelf, "greedy", hand="30")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    with pytest.raises(SheetgenError) as error:
        load_game("greedy")
    assert error.value.file == str(game.resolve() / "game.toml")
    assert error.value.field == "stock.official"
    assert isinstance(error.value, GameDefinitionError)
    assert error.value.problem == (
        "3 players cannot each be dealt a 30-card stock pile from a 162-card deck: "
        "every player must still draw a first hand of 30; choose 1 to 24"
    )


# Structured errors ------------------------------------------------------------


def test_an_error_carries_its_place_as_data() -> None:
    error = RuleError("Cy has 31 cards left, but stock piles hold 30", game=3)
    assert str(error) == "game 3: Cy has 31 cards left, but stock piles hold 30"
    placed = error.at(file="series.yaml", field="left Cy")
    assert (
        str(placed) == "series.yaml, game 3, left Cy: Cy has 31 cards left, but stock piles hold 30"
    )
    assert (placed.file, placed.game, placed.field) == ("series.yaml", 3, "left Cy")
    assert isinstance(placed, RuleError)
    assert str(error) == "game 3: Cy has 31 cards left, but stock piles hold 30"
    assert str(placed.within("other.yaml")) == str(placed)
    assert str(SeriesFileError("no such series file").within("a.yaml")) == (
        "a.yaml: no such series file"
    )


def test_an_error_survives_a_trip_to_a_worker_process() -> None:
    error = HouseRulesError("teams of two need 4 or 6 players, not 5", file="h.toml", field="x")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is HouseRulesError
    assert str(back) == str(error) == "h.toml, x: teams of two need 4 or 6 players, not 5"


# One number parser -------------------------------------------------------------


@given(st.integers(-(10**12), 10**12), st.sampled_from(["", " ", "\t"]), st.booleans())
def test_whole_numbers_read_back(number: int, pad: str, plus: bool) -> None:
    text = f"+{number}" if plus and number >= 0 else str(number)
    assert whole_number(f"{pad}{text}{pad}") == number
    assert whole_number(number) == number


@pytest.mark.parametrize("value", [True, 7.0, "7.0", "seven", "", "1 2", "0x10", None, "٣"])
def test_not_whole_numbers(value: object) -> None:
    with pytest.raises(RuleError) as error:
        whole_number(value, "stock")
    assert str(error.value) == f"stock: {value!r} is not a whole number"


def test_far_too_many_digits() -> None:
    with pytest.raises(RuleError) as error:
        whole_number("9" * 5000, "target")
    assert str(error.value) == "target: a number of 5000 digits is far too large"


def _picture_at(shelf: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> str:
    """Skip-Bo on ``shelf`` with its setup section's ``picture = value``; the game's id."""
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    toml = copy_skip_bo(shelf, "placed") / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("picture = true", f"picture = {value}"), encoding="utf-8")
    return "placed"


@pytest.mark.parametrize(("value", "place"), [("true", "last"), ('"first"', "first")])
def test_a_sections_picture_goes_after_its_text_or_ahead_of_its_subsections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, place: str
) -> None:
    sections = load_game(_picture_at(tmp_path, monkeypatch, value)).sections
    assert [section.picture for section in sections if section.picture] == [place]


@pytest.mark.parametrize("value", ['"last"', '"middle"', "1", "[true]"])
def test_a_sections_picture_place_must_be_one_it_knows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    with pytest.raises(GameDefinitionError) as raised:
        load_game(_picture_at(tmp_path, monkeypatch, value))
    assert raised.value.field == "sections 2, picture"
    assert 'true (after the section\'s text) or "first"' in str(raised.value)


def test_a_renamed_key_is_named_with_its_new_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game folder written before picture_alt became picture_caption is told so."""
    monkeypatch.setenv(RULES_PATH_ENV, str(tmp_path))
    toml = copy_skip_bo(tmp_path, "older") / "game.toml"
    text = toml.read_text(encoding="utf-8").replace("picture_caption = ", "picture_alt = ")
    toml.write_text(text, encoding="utf-8")
    with pytest.raises(GameDefinitionError) as raised:
        load_game("older")
    assert raised.value.field == "picture_alt"
    assert raised.value.problem == "is now called picture_caption; rename it (see rules/README.md)"
