"""Rendered Markdown kept between runs: read back instead of rendered again, and anything in
the cache that is not a rendering of this text is passed by."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetgen.booklet import markdown
from sheetgen.booklet.markdown import ContentsEntry, RenderedMarkdown, render_markdown

TEXT = "# Setting up\n\nShuffle the **whole** deck.\n\n## Who starts\n\n- the dealer's left\n"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    markdown._kept.cache_clear()
    yield tmp_path / "sheetgen" / "markdown"
    markdown._kept.cache_clear()


def _refuse(*args: object) -> RenderedMarkdown:
    raise AssertionError("rendered again")


def test_a_rendering_is_kept_and_read_back(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = render_markdown(TEXT, id_prefix="s1")
    assert first.headings == (
        ContentsEntry(1, "s1-setting-up", "Setting up"),
        ContentsEntry(2, "s1-who-starts", "Who starts"),
    )
    assert len(list(cache_home.iterdir())) == 1
    monkeypatch.setattr(markdown, "_render", _refuse)
    assert render_markdown(TEXT, id_prefix="s1") == first
    # Other options are another rendering.
    with pytest.raises(AssertionError, match="rendered again"):
        render_markdown(TEXT, id_prefix="s2")


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        b"sheetgen kept result 1\nKEY\n[1, 2",
        b'sheetgen kept result 1\nKEY\n["<p>planted</p>", [[1, "id", 7]]]',
        b'sheetgen kept result 1\nKEY\n["<p>planted</p>", [[1, "id"]]]',
        b'sheetgen kept result 1\nOTHER\n["<p>planted</p>", []]',
    ],
)
def test_anything_else_in_an_entry_is_a_miss(cache_home: Path, content: bytes) -> None:
    first = render_markdown(TEXT, id_prefix="s1")
    (entry,) = cache_home.iterdir()
    key = entry.name.split("-", 1)[1].removesuffix(".cache")
    entry.write_bytes(content.replace(b"KEY", key.encode()))
    assert render_markdown(TEXT, id_prefix="s1") == first
    assert "planted" not in entry.read_text(errors="replace")


def test_a_kept_rendering_changed_on_disk_is_a_miss(cache_home: Path) -> None:
    """Still valid JSON, still the right key, but not what was kept: its checksum says so."""
    first = render_markdown(TEXT, id_prefix="s1")
    (entry,) = cache_home.iterdir()
    data = entry.read_bytes()
    assert b"Shuffle the" in data
    entry.write_bytes(data.replace(b"Shuffle the", b"Deal out the"))
    assert render_markdown(TEXT, id_prefix="s1") == first
    assert b"Deal out the" not in entry.read_bytes()
