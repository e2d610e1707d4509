"""The booklet's blank score sheet kept between runs: read back byte for byte as it would be
drawn, drawn afresh whenever anything it is made from changes, and never kept when it
needed one of the machine's fonts."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pagecheck import side_texts

from sheetgen.booklet import build as booklet
from sheetgen.booklet import compiledcache
from sheetgen.booklet.build import rules_document
from sheetgen.fonts import SystemFont, Typeface
from sheetgen.game import language
from sheetgen.game.definition import RULES_PATH_ENV
from sheetgen.game.houserules import HouseRules, resolve
from sheetgen.paper import A4, LETTER
from sheetgen.resources import rules_dir
from sheetgen.sheet import blank as sheet


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # Two drawings of one sheet differ only in their date and /ID without this (the booklet
    # takes the page alone, which a test below reads back from the booklet itself).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    booklet._kept_sheets.cache_clear()
    yield tmp_path / "cache" / "sheetgen" / "sheets"
    booklet._kept_sheets.cache_clear()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options of every sheet actually drawn (not read back) from here on."""
    calls: list[dict[str, Any]] = []
    draw = sheet.blank_sheet

    def counting(**options: Any) -> sheet.BlankSheet:
        calls.append(options)
        return draw(**options)

    monkeypatch.setattr(sheet, "blank_sheet", counting)
    return calls


def _official() -> HouseRules:
    return resolve(game="skip-bo", options={})


def test_a_kept_sheet_is_the_sheet_drawn_afresh(
    cache_home: Path, drawn: list[dict[str, Any]], booklet_pdf: Callable[..., bytes]
) -> None:
    rules = _official()
    first = booklet._sheet_pdf(rules, LETTER)
    assert len(drawn) == 1
    (entry,) = cache_home.iterdir()
    assert entry.stat().st_mode & 0o777 == 0o600
    again = booklet._sheet_pdf(rules, LETTER)
    assert again == first and len(drawn) == 1  # read back, not drawn
    # The whole booklet made with the kept sheet is the one the suite shares.
    assert rules_document(rules, paper=LETTER) == booklet_pdf("skip-bo", LETTER)
    assert len(drawn) == 1


@pytest.mark.parametrize(
    "other",
    [
        {"players": 3},
        {"partnerships": True, "players": 4},
        {"scoring": "cards-left"},
        {"target": 300},
    ],
)
def test_another_table_is_another_sheet(
    cache_home: Path, drawn: list[dict[str, Any]], other: dict[str, Any]
) -> None:
    official = booklet._sheet_pdf(_official(), LETTER)
    changed = booklet._sheet_pdf(resolve(game="skip-bo", options=other), LETTER)
    assert changed != official and len(drawn) == 2
    assert len(list(cache_home.iterdir())) == 2


def test_paper_and_language_are_part_of_the_key(
    cache_home: Path, drawn: list[dict[str, Any]]
) -> None:
    rules = _official()
    sheets = {
        booklet._sheet_pdf(rules, LETTER),
        booklet._sheet_pdf(rules, A4),
        booklet._sheet_pdf(rules, LETTER, language.language("de")),
    }
    assert len(sheets) == 3 and len(drawn) == 3


def test_a_changed_file_of_the_game_is_a_miss(tmp_path: Path, cache_home: Path) -> None:
    game = tmp_path / "skip-bo"
    shutil.copytree(_official().definition.folder, game)
    before = booklet._kept_sheets(game)
    assert before is not None
    booklet._kept_sheets.cache_clear()
    toml = game / "game.toml"
    info = toml.stat()
    os.utime(toml, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    after = booklet._kept_sheets(game)
    assert after is not None and after.prefix != before.prefix


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        b"sheetgen kept result 1\nKEY\n%PDF-1.3\ncut off",
        # Looks like a whole PDF, but pikepdf cannot read it: a miss, never a traceback.
        b"sheetgen kept result 1\nKEY\n%PDF-1.4\ngarbage\n%%EOF\n",
        b"sheetgen kept result 1\nKEY\n" + b"0" * 64 + b"\n%PDF-1.4\ngarbage\n%%EOF\n",
    ],
)
def test_anything_else_in_an_entry_is_drawn_again(
    cache_home: Path, drawn: list[dict[str, Any]], content: bytes
) -> None:
    rules = _official()
    first = booklet._sheet_pdf(rules, LETTER)
    (entry,) = cache_home.iterdir()
    key = entry.name.split("-", 1)[1].removesuffix(".cache")
    entry.write_bytes(content.replace(b"KEY", key.encode()))
    assert booklet._sheet_pdf(rules, LETTER) == first
    assert len(drawn) == 2
    assert entry.read_bytes().endswith(first)  # the good sheet is kept again


def test_a_sheet_printed_with_a_machine_font_is_never_kept(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    draw = sheet.blank_sheet

    def with_machine_font(**options: Any) -> sheet.BlankSheet:
        pdf = draw(**options).pdf
        return sheet.BlankSheet(pdf, Typeface((("x", False, SystemFont(Path("/f.ttf"))),)))

    monkeypatch.setattr(sheet, "blank_sheet", with_machine_font)
    booklet._sheet_pdf(_official(), LETTER)
    assert not cache_home.exists() or not list(cache_home.iterdir())


def test_without_a_private_cache_folder_the_sheet_is_drawn_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn: list[dict[str, Any]]
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # anyone may write here, and it is not sticky
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    booklet._kept_sheets.cache_clear()
    try:
        rules = _official()
        assert booklet._sheet_pdf(rules, LETTER) == booklet._sheet_pdf(rules, LETTER)
        assert len(drawn) == 2
        assert list(shared.iterdir()) == []
    finally:
        booklet._kept_sheets.cache_clear()


@pytest.fixture
def own_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """rules/skip-bo copied to a shelf of the table's own games, as ``my-bo``."""
    shelf = tmp_path / "shelf"
    shutil.copytree(rules_dir() / "skip-bo", shelf / "my-bo")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    return shelf / "my-bo"


def _as_if_unchanged(path: Path, text: str) -> None:
    """Write ``text`` (as long as what it replaces) keeping the file's time of change."""
    info = path.stat()
    assert len(text.encode()) == info.st_size
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_the_sheets_words_in_its_language_are_part_of_the_key(
    own_game: Path, cache_home: Path, drawn: list[dict[str, Any]]
) -> None:
    """The German name changed, keeping the file's size and time: the sheet says it."""
    german = language.language("de")
    first = booklet._sheet_pdf(resolve(game="my-bo", options={}), LETTER, german)
    assert "Skip-Bo" in " ".join(side_texts(first))
    toml = own_game / "de" / "game.toml"
    _as_if_unchanged(toml, toml.read_text(encoding="utf-8").replace('"Skip-Bo"', '"Skip-Bu"', 1))
    # A new run: nothing of the game is remembered in this process.
    language._read_layer_toml.cache_clear()
    booklet._kept_sheets.cache_clear()
    second = booklet._sheet_pdf(resolve(game="my-bo", options={}), LETTER, german)
    assert len(drawn) == 2
    assert "Skip-Bu" in " ".join(side_texts(second))


def test_every_folder_of_the_game_counts_for_the_prefix(own_game: Path, cache_home: Path) -> None:
    """A game's words kept in a folder named __pycache__ (a link leads there) or behind a
    link inside the game's folder still change the prefix when they change."""
    hidden = own_game / "__pycache__"
    hidden.mkdir()
    (own_game / "de").rename(hidden / "de")
    (own_game / "de").symlink_to("__pycache__/de")
    before = booklet._kept_sheets(own_game)
    assert before is not None
    booklet._kept_sheets.cache_clear()
    toml = hidden / "de" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    after = booklet._kept_sheets(own_game)
    assert after is not None and after.prefix != before.prefix


def _remove_tree(top: Path) -> None:
    """Remove ``top`` and everything in it, however deep, without recursion."""
    waiting, folders = [top], []
    while waiting:
        folder = waiting.pop()
        folders.append(folder)
        for path in folder.iterdir():
            if path.is_dir() and not path.is_symlink():
                waiting.append(path)
            else:
                path.unlink()
    for folder in reversed(folders):
        folder.rmdir()


def test_a_deep_or_crowded_game_folder_is_not_walked_and_the_sheet_is_drawn(
    own_game: Path, cache_home: Path, drawn: list[dict[str, Any]]
) -> None:
    deep = top = own_game / "x"
    deep.mkdir()
    try:
        for _ in range(1100):  # deeper than Python's recursion limit
            deep = deep / "a"
            deep.mkdir()
        assert booklet._kept_sheets(own_game) is not None
    finally:
        _remove_tree(top)  # pytest's own clean-up (shutil.rmtree) recurses
    booklet._kept_sheets.cache_clear()
    crowd = own_game / "crowd"
    crowd.mkdir()
    for index in range(booklet.MAX_WALKED):
        (crowd / f"{index}.md").touch()
    assert booklet._kept_sheets(own_game) is None
    rules = resolve(game="my-bo", options={})
    assert booklet._sheet_pdf(rules, LETTER) == booklet._sheet_pdf(rules, LETTER)
    assert len(drawn) == 2
    assert not cache_home.exists() or not list(cache_home.iterdir())


def test_a_cache_home_linked_by_another_user_in_a_shared_folder_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link another user planted in /tmp for the cache folder the user names is not
    followed, not even to make the folder it points at (as protected_symlinks)."""
    if os.geteuid() != 0:
        pytest.skip("giving a link to another user needs root")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    chosen = tmp_path / "chosen-by-them"
    link = shared / "cache"
    link.symlink_to(chosen)
    monkeypatch.setenv("XDG_CACHE_HOME", str(link))
    os.lchown(link, 4242, 4242)
    assert compiledcache.private_folder("sheetgen", "sheets") is None
    assert not chosen.exists()
    os.lchown(link, os.geteuid(), os.getegid())  # the user's own link is followed
    assert compiledcache.private_folder("sheetgen", "sheets") == chosen / "sheetgen" / "sheets"
