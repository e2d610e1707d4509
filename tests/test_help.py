"""Help a newcomer can read: commands in a sensible order, options in sections, defaults one way."""

from __future__ import annotations

import re
import tomllib

import click
import pytest

from sheetgen.cli import COMMAND_ORDER, cli
from sheetgen.cli.booklet import RULES_SECTIONS
from sheetgen.game.definition import game_ids, load_game


def _help(runner, *args: str) -> str:
    result = runner(*args, "--help", terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


def test_commands_are_listed_in_order_with_whole_descriptions(runner) -> None:
    text = _help(runner).split("Commands:\n", 1)[1]
    names = re.findall(r"^  (\S+)", text, flags=re.M)
    assert names == [name for name in COMMAND_ORDER if name in cli.commands] + sorted(
        set(cli.commands) - set(COMMAND_ORDER)
    )
    assert names[:3] == ["sheet", "fill", "rules"]
    flat = " ".join(text.split())
    for name in names:
        first = " ".join((cli.commands[name].help or "").split("\n\n")[0].split())
        assert f"{name} {first}" in flat
    assert "..." not in text


def test_rules_options_sit_in_sections_in_order(runner) -> None:
    text = _help(runner, "rules")
    headings = re.findall(r"^(\S[^:\n]*):$", text, flags=re.M)
    present = [heading for heading, names in RULES_SECTIONS.items() if names]
    assert headings == [*present, "Other options"]
    for heading, names in RULES_SECTIONS.items():
        body = text.split(f"\n{heading}:\n", 1)[1].split("\n\n", 1)[0]
        for name in names:
            param = next((p for p in cli.commands["rules"].params if p.name == name), None)
            if param is not None:
                assert param.opts[0] in body, (heading, name)
    assert text.split("\nOther options:\n", 1)[1].lstrip().startswith("-h, --help")


def test_an_undeclared_option_still_shows(runner, monkeypatch: pytest.MonkeyPatch) -> None:
    command = cli.commands["rules"]
    extra = click.Option(["--brand-new"], help="Declared after the sections were written.")
    monkeypatch.setattr(command, "params", [*command.params, extra])
    other = _help(runner, "rules").split("\nOther options:\n", 1)[1]
    assert "--brand-new" in other


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_defaults_are_shown_one_way(runner, name: str) -> None:
    text = _help(runner, name)
    assert "(default" not in text
    assert "default:" not in text.replace("[default:", "")
    assert "[default: (" not in text
    command = cli.commands[name]
    for param in command.params:
        if not isinstance(param, click.Option) or param.is_flag or param.required:
            continue
        default = param.get_default(click.Context(command))
        if default is not None and default != () and "UNSET" not in repr(default):
            assert param.show_default, (name, param.opts)


@pytest.mark.parametrize(
    ("option", "shown"),
    [
        ("--first-player", "--first-player [left-of-dealer|youngest]"),
        ("--deck", "--deck [skip-bo|standard|board]"),
        ("--stock", "--stock [official|short|N]"),
        ("--preset", "--preset [family|official|short|strict]"),
    ],
)
def test_rules_choices_are_shown(runner, option: str, shown: str) -> None:
    assert shown in _help(runner, "rules")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--first-player", "oldest"],
            "Error: --first-player: 'oldest' is not a choice for Skip-Bo; choose left-of-dealer, "
            "youngest",
        ),
        (
            ["--deck", "board"],
            "Error: --deck: Skip-Bo is not played with 'board'; choose skip-bo, standard",
        ),
        (
            ["--game", "spite-and-malice", "--preset", "strict"],
            "Error: --preset: Spite and Malice has no preset 'strict'; choose official",
        ),
    ],
)
def test_a_choice_of_another_game_is_refused_by_this_one(
    runner, tmp_path, args: list[str], message: str
) -> None:
    """The help lists every game's choices; the chosen game names its own."""
    result = runner("rules", *args, "-o", "rules.pdf")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == message
    assert list(tmp_path.iterdir()) == []


def test_list_presets(runner, tmp_path) -> None:
    result = runner("rules", "--list-presets")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "Presets for Skip-Bo (sheetgen rules --preset NAME):\n"
        "  official  The rules as Mattel's instruction sheet gives them, with its points\n"
        "            game for an evening of several games.\n"
        "            changes nothing: these are the official rules\n"
        "  family    A relaxed family evening: single games, the basic game of the\n"
        "            published rules, without the points series, and two options of the\n"
        "            published rules: the short game and the youngest player starting.\n"
        "            changes --stock short, --first-player youngest, --no-series\n"
        "  short     The short game of the published rules: ten cards in every stock\n"
        "            pile.\n"
        "            changes --stock short\n"
        "  strict    Two house rules, neither in the published rules, for tables that\n"
        "            like it tight: a stock card that fits must be played at once, and\n"
        "            no stock pile starts with a wild on top.\n"
        "            changes --must-play-stock, --no-wild-start\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", game_ids())
def test_list_presets_reads_every_preset_file(runner, game: str) -> None:
    result = runner("rules", "--game", game, "--list-presets")
    assert result.exit_code == 0, result.output
    definition = load_game(game)
    official = tomllib.loads(definition.preset_path("official").read_text(encoding="utf-8"))
    text = " ".join(result.stdout.split())
    for name in definition.preset_names():
        assert f" {name} " in text
        data = tomllib.loads(definition.preset_path(name).read_text(encoding="utf-8"))
        for key, value in data.items():
            if name != "official" and official.get(key) != value:
                assert re.search(rf"--(no-)?{key}\b", text), (name, key)


def test_the_help_names_no_game_s_numbers() -> None:
    """A game's facts live in its game.toml: the help points at `sheetgen games`, so a game
    folder that changes its player range is never contradicted by the help."""
    import re

    from click.testing import CliRunner

    from sheetgen.cli import cli

    runner = CliRunner()
    for command in ("sheet", "rules", "deal", "new"):
        text = runner.invoke(cli, [command, "--help"], terminal_width=200).output
        assert "sheetgen games" in text or command == "new", command
        assert not re.search(r"\b\d+ to \d+\b|Skip-Bo \d|Malice \d", text), (command, text)


def test_help_reads_as_plain_text_and_describes_every_argument() -> None:
    """No reStructuredText marks in what a user reads; every FILE argument says what it
    takes; a command that reads no game offers no --rules-dir."""
    from click.testing import CliRunner

    from sheetgen.cli import cli

    for name in cli.commands:
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert "`" not in result.output, (name, result.output)
        command = cli.commands[name]
        for param in command.params:
            if param.param_type_name == "argument":
                assert getattr(param, "help", None), (name, param.name)
    assert "--rules-dir" not in CliRunner().invoke(cli, ["printers", "--help"]).output


def test_an_argument_is_listed_once() -> None:
    from click.testing import CliRunner

    from sheetgen.cli import cli

    for name in ("new", "record", "undo", "export", "fill", "standings"):
        output = CliRunner().invoke(cli, [name, "--help"]).output
        options = output[output.index("\nOptions:") :] if "\nOptions:" in output else output
        assert "FILE" not in options.replace("--house-rules FILE", ""), (name, options)
