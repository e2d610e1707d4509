"""Shared fixtures: a click runner, readers for the PDFs sheetgen writes, and the fonts.

Font discovery is pointed at a fontconfig configuration the tests build, so the
suite means the same whatever fonts the machine has: by default it lists an
empty folder (no system font covers anything), and ``system_fonts`` lets a test
name the font files fontconfig should see.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sheetgen import fonts
from sheetgen.cli import cli

# The machine's own fontconfig set-up, before the tests replace it.
MACHINE_ENV = dict(os.environ)


class Runner:
    """Invoke ``sheetgen`` in-process, from a temporary working folder."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._runner = CliRunner()

    def __call__(self, *args: str, input: str | bytes | None = None, **kwargs: Any) -> Result:
        import os

        old = Path.cwd()
        os.chdir(self.cwd)
        try:
            return self._runner.invoke(
                cli, list(args), input=input, catch_exceptions=True, **kwargs
            )
        finally:
            os.chdir(old)


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    """A CLI runner whose working folder is ``tmp_path``."""
    return Runner(tmp_path)


def folder_snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` with its bytes, to prove nothing was written."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, bytes]]:
    return folder_snapshot


def write_fontconfig(folder: Path, font_files: list[Path]) -> Path:
    """A fonts.conf under ``folder`` that offers only ``font_files`` (linked into its own dir)."""
    folder.mkdir(parents=True, exist_ok=True)
    fonts_dir = folder / "fonts"
    fonts_dir.mkdir(exist_ok=True)
    for index, font in enumerate(font_files):
        (fonts_dir / f"{index}-{font.name}").symlink_to(font)
    config = folder / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n'
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        f"<fontconfig><dir>{fonts_dir}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>\n",
        encoding="utf-8",
    )
    return config


@pytest.fixture(scope="session")
def no_system_fonts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fontconfig(tmp_path_factory.mktemp("fontconfig"), [])


@pytest.fixture(autouse=True)
def controlled_fonts(no_system_fonts: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts with no system font and with nothing remembered of one."""
    monkeypatch.setenv("FONTCONFIG_FILE", str(no_system_fonts))
    fonts.clear_caches()
    yield
    fonts.clear_caches()


@pytest.fixture
def system_fonts(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., None]:
    """Let fontconfig see exactly the given font files for the rest of the test."""

    def offer(*font_files: Path) -> None:
        config = write_fontconfig(tmp_path_factory.mktemp("fontconfig"), list(font_files))
        monkeypatch.setenv("FONTCONFIG_FILE", str(config))
        fonts.clear_caches()

    return offer


def machine_font_covering(chars: str) -> Path | None:
    """A TrueType font file on this machine (its own fontconfig) that covers ``chars``."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    charset = " ".join(f"{ord(char):x}" for char in chars)
    done = subprocess.run(
        [fc_list, "--format", "%{file}\n", f":charset={charset}"],
        capture_output=True,
        text=True,
        env=MACHINE_ENV,
        check=False,
    )
    found = sorted(line for line in done.stdout.splitlines() if line.lower().endswith(".ttf"))
    return Path(found[0]) if found else None


@pytest.fixture(autouse=True)
def english_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Documents in English whatever the tester's own locale says (LANGUAGE decides first);
    the tests of other languages ask with --lang or set the variables themselves."""
    monkeypatch.setenv("LANGUAGE", "en")
