"""House rules: presets, the TOML file and options merge in order and are checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetgen.errors import ChoiceError, HouseRulesError, SheetgenError
from sheetgen.game.definition import load_game
from sheetgen.game.houserules import differences, resolve

SKIP_BO = load_game("skip-bo")


def max_stock(players: int) -> int:
    return SKIP_BO.largest_stock(players, SKIP_BO.official_deck.cards)


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_official_rules_by_default() -> None:
    rules = resolve()
    assert (rules.game, rules.players, rules.stock, rules.target) == ("skip-bo", 4, 30, 500)
    assert rules.series and not rules.partnerships
    assert differences(rules) == []


@pytest.mark.parametrize(("players", "stock"), [(2, 30), (4, 30), (5, 20), (6, 20)])
def test_official_stock_follows_the_player_count(players: int, stock: int) -> None:
    assert resolve(options={"players": players}).stock == stock


def test_layers_override_in_order(tmp_path: Path) -> None:
    path = write(tmp_path, 'preset = "short"\nfirst-player = "youngest"\ntarget = 300\n')
    from_file = resolve(house_rules=path)
    assert (from_file.stock, from_file.first_player, from_file.target) == (10, "youngest", 300)
    overridden = resolve(house_rules=path, options={"stock": "12", "target": 200})
    assert (overridden.stock, overridden.target) == (12, 200)
    assert differences(overridden) == ["stock", "first-player", "target"]


def test_preset_option_beats_the_file_preset(tmp_path: Path) -> None:
    path = write(tmp_path, 'preset = "strict"\n')
    rules = resolve(preset="family", house_rules=path)
    assert (rules.stock, rules.series, rules.must_play_stock) == (10, False, False)


def test_extra_is_read_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "ours.md").write_text("# Ours\n", encoding="utf-8")
    rules = resolve(house_rules=write(tmp_path, 'extra = "ours.md"\n'))
    assert rules.extra == tmp_path / "ours.md"
    assert "extra" in differences(rules)


def test_no_series_lists_no_scoring_differences_and_refuses_figures() -> None:
    rules = resolve(preset="family")
    assert not {"target", "bonus", "per-card"} & set(differences(rules))
    with pytest.raises(HouseRulesError, match="keeps no points without the series"):
        resolve(options={"series": False, "target": 300})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"players": 3, "partnerships": True},
            "--partnerships: teams of two need 4 or 6 players, not 3",
        ),
        (
            {"players": 5, "partnerships": True},
            "--partnerships: teams of two need 4 or 6 players, not 5",
        ),
        ({"target": 0}, "--target: 0 points cannot win a series; give 1 or more"),
        ({"target": -5}, "--target: -5 points cannot win a series; give 1 or more"),
        (
            {"stock": "36"},
            "--stock: 4 players cannot each be dealt a 36-card stock pile from a 162-card deck: "
            "every player must still draw a first hand of 5; choose 1 to 35",
        ),
        (
            {"stock": "lots"},
            "--stock: 'lots' is not a stock pile size; give official, short or a number",
        ),
        (
            {"stock": "0", "players": 6},
            "--stock: a Skip-Bo stock pile needs at least 1 card; choose 1 to 22",
        ),
        ({"players": 7}, "--players: Skip-Bo is played by 2 to 6 players, not 7"),
        ({"deck": "tarot"}, "--deck: Skip-Bo is not played with 'tarot'; choose skip-bo, standard"),
        (
            {"first-player": "oldest"},
            "--first-player: 'oldest' is not a choice for Skip-Bo; choose left-of-dealer, youngest",
        ),
    ],
)
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(SheetgenError) as error:
        resolve(options=options)
    assert str(error.value) == message


def test_bad_file_values_name_the_file_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "players = 5\npartnerships = true\n")
    with pytest.raises(HouseRulesError) as error:
        resolve(house_rules=path)
    assert str(error.value) == f"{path}, partnerships: teams of two need 4 or 6 players, not 5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "colour = 'red'\n",
            "{path}, colour: does not apply to Skip-Bo; its settings are bonus, deck, extra, "
            "first-player, games-to-play, must-play-stock, no-wild-start, partnerships, "
            "per-card, players, scoring, series, stock, target",
        ),
        ("stock = \n", "{path}: not valid TOML (Invalid value (at line 1, column 9))"),
        ("series = 'yes'\n", "{path}, series: Skip-Bo's series is true or false, not 'yes'"),
        ("target = 0\n", "{path}, target: 0 points cannot win a series; give 1 or more"),
        ("game = 'chess'\n", "{path}, game: no rules for 'chess'; choose {games}"),
        ("preset = 'nope'\n", "{path}, preset: Skip-Bo has no preset 'nope'; choose {presets}"),
    ],
)
def test_bad_house_rules_files(tmp_path: Path, text: str, message: str) -> None:
    from sheetgen.game.definition import game_ids, load_game

    path = write(tmp_path, text)
    with pytest.raises(SheetgenError) as error:
        resolve(house_rules=path)
    presets = ", ".join(load_game("skip-bo").preset_names())
    assert str(error.value) == message.format(
        path=path, games=", ".join(game_ids()), presets=presets
    )


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(HouseRulesError) as error:
        resolve(house_rules=tmp_path / "none.toml")
    assert str(error.value) == f"{tmp_path / 'none.toml'}: no such house-rules file"


def test_unknown_preset_option() -> None:
    with pytest.raises(ChoiceError) as error:
        resolve(preset="nope")
    assert str(error.value).startswith("--preset: Skip-Bo has no preset 'nope'; choose ")


def test_toggles_that_do_not_apply_are_refused() -> None:
    with pytest.raises(HouseRulesError) as error:
        resolve(game="skip-bo-board", options={"partnerships": True})
    assert str(error.value).startswith(
        "--partnerships: does not apply to Skip-Bo Board Game; its settings are "
    )


@given(players=st.integers(2, 6), data=st.data())
def test_every_dealable_stock_resolves(players: int, data: st.DataObject) -> None:
    stock = data.draw(st.integers(1, max_stock(players)))
    assert resolve(options={"players": players, "stock": str(stock)}).stock == stock


@given(players=st.integers(2, 6), extra=st.integers(1, 200))
def test_undealable_stock_is_refused(players: int, extra: int) -> None:
    with pytest.raises(HouseRulesError):
        resolve(options={"players": players, "stock": max_stock(players) + extra})


def test_a_house_rules_file_may_spell_keys_as_a_series_file_does(tmp_path: Path) -> None:
    """per_card (as series files write it) is per-card; both in one file is refused."""
    ours = tmp_path / "ours.toml"
    ours.write_text("per_card = 2\ntarget = 300\n", encoding="utf-8")
    assert resolve(house_rules=ours).per_card == 2
    ours.write_text("per_card = 2\nper-card = 3\n", encoding="utf-8")
    with pytest.raises(HouseRulesError, match="given twice, spelt two ways"):
        resolve(house_rules=ours)


def test_a_misspelt_house_rule_gets_a_suggestion(tmp_path: Path) -> None:
    ours = tmp_path / "ours.toml"
    ours.write_text("per-crad = 2\n", encoding="utf-8")
    with pytest.raises(
        HouseRulesError, match=r"is not a setting of Skip-Bo; did you mean per-card\?"
    ):
        resolve(house_rules=ours)


def test_the_table_and_the_day_its_rules_were_agreed(tmp_path: Path) -> None:
    """A house-rules file names its table and the day it agreed its rules; --table wins."""
    import datetime

    ours = tmp_path / "ours.toml"
    ours.write_text('table = "The Millers"\ndate = 2026-12-06\ntarget = 300\n', encoding="utf-8")
    rules = resolve(house_rules=ours)
    assert (rules.table_name, rules.agreed) == ("The Millers", datetime.date(2026, 12, 6))
    assert resolve(house_rules=ours, table="Friday club").table_name == "Friday club"
    assert resolve().table_name is None and resolve().agreed is None


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('date = "next week"\n', "date"),
        ("date = 2026-12-06T10:00:00\n", "date"),
        ("table = 42\n", "table"),
        ('table = "   "\n', "table"),
        ('table = "' + "x" * 200 + '"\n', "table"),
    ],
)
def test_a_bad_table_or_date_is_refused_by_name(tmp_path: Path, text: str, field: str) -> None:
    ours = tmp_path / "ours.toml"
    ours.write_text(text, encoding="utf-8")
    with pytest.raises(HouseRulesError) as caught:
        resolve(house_rules=ours)
    assert caught.value.field == field and str(caught.value.file) == str(ours)


def test_a_file_not_in_utf8_is_refused_at_its_line_and_character(runner: Any) -> None:
    """A house-rules file or a table's own rules saved in the Windows code page (an old
    editor's plain text) is refused where it first goes wrong, with the character it
    holds there, and nothing is written (club secretary's review: the byte offset alone
    sent a reader counting bytes)."""
    (runner.cwd / "ours.toml").write_bytes('players = 3\ntable = "Grüße"\n'.encode("cp1252"))
    (runner.cwd / "ours.md").write_bytes("# Unsere Regeln\n\nÄrger zählt.\n".encode("cp1252"))
    result = runner("rules", "--house-rules", "ours.toml", "-o", "r.pdf")
    assert result.exit_code == 1
    assert result.output == (
        "Error: ours.toml, line 2: is not UTF-8 text: character 12 is the byte 0xFC "
        "('ü' in the Windows code page)\n"
    )
    result = runner("rules", "--extra", "ours.md", "-o", "r.pdf")
    assert result.exit_code == 1
    assert result.output == (
        "Error: ours.md, line 3: is not UTF-8 text: character 1 is the byte 0xC4 "
        "('Ä' in the Windows code page)\n"
    )
    assert not (runner.cwd / "r.pdf").exists()
