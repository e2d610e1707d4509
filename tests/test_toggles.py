"""Toggles are declared in game.toml: checked when the game loads, set alike by --set and files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from sheetgen.errors import GameDefinitionError
from sheetgen.game.definition import RULES_PATH_ENV, game_ids, load_game
from sheetgen.game.houserules import resolve
from sheetgen.resources import rules_dir


def own_skip_bo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Any) -> Path:
    """rules/skip-bo copied as "own-bo", its game.toml changed by ``edit``."""
    shelf = tmp_path / "shelf"
    shutil.copytree(rules_dir() / "skip-bo", shelf / "own-bo")
    toml = shelf / "own-bo" / "game.toml"
    toml.write_text(edit(toml.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    return toml


def add(text: str) -> Any:
    return lambda toml: toml + "\n" + text


@pytest.mark.parametrize(
    ("edit", "field", "problem"),
    [
        (
            lambda t: t.replace("[toggles.players]\n", '[toggles.players]\nkind = "bool"\n'),
            "toggles.players.kind",
            "players is a players toggle, not 'bool'",
        ),
        (
            add('[toggles.colour]\nhelp = "x"\n'),
            "toggles.colour.kind",
            "missing; give one of bool, choice, number",
        ),
        (
            add('[toggles.colour]\nkind = "text"\n'),
            "toggles.colour.kind",
            "'text' is not a kind; choose bool, choice, number",
        ),
        (
            add('[toggles.colour]\nkind = "choice"\n'),
            "toggles.colour.choices",
            "a choice toggle lists its choices",
        ),
        (
            add('[toggles.colour]\nkind = "choice"\nchoices = ["red"]\ndefault = "blue"\n'),
            "toggles.colour.default",
            "'blue' is not one of its choices",
        ),
        (
            add('[toggles.piles]\nkind = "number"\n'),
            "toggles.piles.default",
            "a number toggle gives its default",
        ),
        (
            add('[toggles.piles]\nkind = "number"\ndefault = 4\nsize = 2\n'),
            "toggles.piles.size",
            "unknown key; a toggle has kind, default, choices, min, help",
        ),
        (
            add('[toggles.Colour]\nkind = "bool"\n'),
            "toggles.Colour",
            "a toggle's name is lower-case words joined by hyphens, not one of date, definition, "
            "game, official, preset, set, table, toggles, value, way",
        ),
        (
            lambda t: t.replace(
                '[toggles.must-play-stock]\nkind = "bool"\n',
                '[toggles.must-play-stuck]\nkind = "bool"\n',
            ),
            "house_rules.must-play-stock",
            "no toggle 'must-play-stock' is declared under [toggles]",
        ),
    ],
)
def test_bad_toggle_declarations_name_the_file_and_the_key(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    runner: Any,
    edit: Any,
    field: str,
    problem: str,
) -> None:
    toml = own_skip_bo(tmp_path, monkeypatch, edit)
    with pytest.raises(GameDefinitionError) as error:
        load_game("own-bo")
    assert (error.value.file, error.value.field, error.value.problem) == (
        str(toml.resolve()),
        field,
        problem,
    )
    result = runner("rules", "--game", "own-bo")
    assert result.exit_code == 1
    assert result.output == f"Error: {toml.resolve()}, {field}: {problem}\n"


def test_a_new_toggle_reaches_the_templates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own_skip_bo(
        tmp_path,
        monkeypatch,
        add('[toggles.wild-kings]\nkind = "bool"\nhelp = "kings are wild too"\n'),
    )
    rules = resolve(game="own-bo", settings={"wild-kings": "on"})
    assert rules.wild_kings is True
    assert rules.value("wild-kings") is True
    assert resolve(game="own-bo").wild_kings is False
    with pytest.raises(AttributeError):
        _ = rules.no_such_toggle


def _values(kind: str, choices: tuple[Any, ...]) -> list[Any]:
    return [True, False] if kind == "bool" else list(choices)


CASES = [
    (game, toggle.name, value)
    for game in game_ids()
    for toggle in load_game(game).toggle_defs.values()
    if toggle.kind in ("bool", "choice", "scoring", "deck")
    for value in _values(toggle.kind, toggle.choices)
]


@pytest.mark.parametrize(("game", "toggle", "value"), CASES)
def test_set_and_a_house_rules_file_agree_on_every_toggle(
    tmp_path: Path, game: str, toggle: str, value: Any
) -> None:
    """Every value of every declared bool or choice toggle, as --set text and as TOML."""
    others = {"players": 4} if toggle == "partnerships" and value is True else {}
    lines = [f'game = "{game}"', f"{toggle} = {_toml(value)}"]
    lines += [f"{key} = {_toml(other)}" for key, other in others.items()]
    path = tmp_path / "house.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = {key: str(item).lower() for key, item in {toggle: value, **others}.items()}
    from_set = resolve(game=game, settings=settings)
    assert resolve(house_rules=path) == from_set
    assert from_set.value(toggle) == value


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def test_set_and_options_in_order(runner: Any, tmp_path: Path) -> None:
    (tmp_path / "ours.toml").write_text('first-player = "youngest"\ntarget = 300\n', "utf-8")
    rules = resolve(
        house_rules=tmp_path / "ours.toml",
        settings={"target": "400", "first-player": "left-of-dealer"},
        options={"target": 200},
    )
    assert (rules.target, rules.first_player) == (200, "left-of-dealer")
    result = runner("rules", "--set", "target=400", "--set", "target=300")
    assert result.output == "Error: --set: target is set twice\n"
    assert re.search(r"--set NAME=VALUE", runner("rules", "--help").output)
