"""The one jinja2 Environment: escaping by file type, strict names, the filters."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetgen.booklet.templating import (
    cards,
    count,
    evaluate,
    make_environment,
    render_template,
    spell,
)
from sheetgen.errors import GameDefinitionError


@pytest.fixture
def env(tmp_path: Path):  # type: ignore[no-untyped-def]
    for name in ("page.html.j2", "picture.svg.j2", "section.md"):
        (tmp_path / name).write_text("{{ value }}", encoding="utf-8")
    return make_environment([tmp_path])


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("page.html.j2", "&lt;b&gt;Ann &amp; Bob&lt;/b&gt;"),
        ("picture.svg.j2", "&lt;b&gt;Ann &amp; Bob&lt;/b&gt;"),
        ("section.md", "<b>Ann & Bob</b>"),
    ],
)
def test_autoescape_follows_the_file_type(env, name: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    assert render_template(env, name, {"value": "<b>Ann & Bob</b>"}) == expected


def test_undefined_names_fail(env) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(
        GameDefinitionError, match=r"section\.md, line 1: template error: 'value' is undefined"
    ):
        render_template(env, "section.md", {})


def test_when_expressions(env) -> None:  # type: ignore[no-untyped-def]
    assert evaluate(env, "rules.series and players > 3", {"rules": {"series": True}, "players": 4})
    assert not evaluate(env, "players > 3", {"players": 2})


@pytest.mark.parametrize(
    ("number", "noun", "text"),
    [
        (1, "card", "one card"),
        (0, "card", "zero cards"),
        (12, "card", "twelve cards"),
        (30, "card", "30 cards"),
        (1, "game", "one game"),
        (1, "point", "1 point"),
        (5, "point", "5 points"),
        (500, "point", "500 points"),
    ],
)
def test_count_is_grammatical_in_one_number_style(number: int, noun: str, text: str) -> None:
    assert count(number, noun) == text


def test_cards_is_the_count_of_cards() -> None:
    assert cards(1) == "one card"
    assert cards(30) == "30 cards"


@pytest.mark.parametrize(("number", "text"), [(0, "zero"), (4, "four"), (12, "twelve"), (13, "13")])
def test_spell(number: int, text: str) -> None:
    assert spell(number) == text


def test_compiled_templates_are_kept_and_still_bounded(tmp_path: Path) -> None:
    # A second Environment (the next booklet, the next run) takes the compiled code from the
    # cache; the sandbox's checks are in that code, so a cached template is bounded too.
    from sheetgen.booklet.compiledcache import CompiledTemplates
    from sheetgen.booklet.templating import _compiled_templates, render_string

    assert isinstance(make_environment([tmp_path]).bytecode_cache, CompiledTemplates)
    (tmp_path / "greedy.md").write_text("{{ 'x' * 2000000 }}", encoding="utf-8")
    for _ in range(2):
        env = make_environment([tmp_path])
        with pytest.raises(GameDefinitionError, match="repetition longer than"):
            render_template(env, "greedy.md", {})
        with pytest.raises(GameDefinitionError, match="repetition longer than"):
            render_string(env, "{{ 'y' * 3000000 }}", {})
        assert render_string(env, "{{ n | cards }}", {"n": 2}) == "two cards"
    cache = _compiled_templates()
    assert cache is not None
    assert any(cache.folder.glob(f"{cache.prefix}-*.cache"))


def test_compiled_templates_are_kept_apart_by_language(tmp_path: Path) -> None:
    # jinja2 works out a filter on a constant while compiling: German code must never
    # serve an English booklet, nor English code a German one.
    from sheetgen.booklet.templating import render_string
    from sheetgen.game.language import Language

    (tmp_path / "page.md").write_text("{{ 0 | spell }} {{ 1 | cards }}", encoding="utf-8")
    for _ in range(2):
        for code, text in (("de", "null eine Karte"), ("en", "zero one card")):
            env = make_environment([tmp_path], lang=Language(code))
            assert render_template(env, "page.md", {}) == text
            assert render_string(env, "{{ 0 | spell }} {{ 1 | cards }}", {}) == text


def test_a_cache_that_cannot_be_written_is_passed_by(tmp_path: Path) -> None:
    from sheetgen.booklet.compiledcache import CompiledTemplates
    from sheetgen.booklet.templating import render_string

    (tmp_path / "page.md").write_text("{{ n | spell }}", encoding="utf-8")
    env = make_environment([tmp_path])
    env.bytecode_cache = CompiledTemplates(tmp_path / "no such folder", "en-x")
    env.cache = None
    assert render_template(env, "page.md", {"n": 3}) == "three"
    assert render_string(env, "{{ n }} and {{ n }}", {"n": 4}) == "4 and 4"
    assert not (tmp_path / "no such folder").exists()
