"""The presets of a game as ``rules --list-presets`` shows them: what each is for and what
it changes from the official rules."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from sheetgen.game.definition import DEFAULT_GAME, load_game
from sheetgen.game.houserules import read_toml
from sheetgen.tomlfile import read_toml_text


def presets_text(game: str | None = None) -> str:
    """What each of a game's presets is for and what it changes from the official rules,
    read from the preset files themselves (their opening comment and their keys)."""
    definition = load_game(game or DEFAULT_GAME)
    official = read_toml(definition.preset_path("official"))
    names = sorted(definition.preset_names(), key=lambda name: (name != "official", name))
    width = max(len(name) for name in names)
    lines = [f"Presets for {definition.name} (sheetgen rules --preset NAME):"]
    for name in names:
        path = definition.preset_path(name)
        changes = [
            _as_option(key, value)
            for key, value in read_toml(path).items()
            if name != "official" and official.get(key) != value
        ]
        changed = ", ".join(changes) if changes else "nothing: these are the official rules"
        indent = " " * (width + 4)
        for text, first in (
            (_opening_comment(path), f"  {name.ljust(width)}  "),
            (f"changes {changed}", indent),
        ):
            lines += textwrap.wrap(text, 79, initial_indent=first, subsequent_indent=indent)
    return "\n".join(lines) + "\n"


def _opening_comment(path: Path) -> str:
    """The comment lines a preset file opens with, as one line."""
    words = []
    for line in read_toml_text(path).splitlines():
        if not line.startswith("#"):
            break
        words.append(line.lstrip("#").strip())
    return " ".join(words)


def _as_option(key: str, value: Any) -> str:
    """A preset's setting as the option that would set it."""
    if value is True:
        return f"--{key}"
    if value is False:
        return f"without --{key}" if key.startswith("no-") else f"--no-{key}"
    return f"--{key} {value}"
