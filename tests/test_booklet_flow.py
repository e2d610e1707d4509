"""The booklet's flow: house rules resolved once, a plain context, one Environment."""

from __future__ import annotations

from typing import Any

import pytest

from sheetgen.booklet import html as booklet
from sheetgen.booklet import templating
from sheetgen.game import houserules
from sheetgen.game.houserules import differences, official_rules, resolve
from sheetgen.paper import A4


def test_the_official_rules_come_with_the_resolved_ones() -> None:
    rules = resolve(options={"players": 5, "stock": 12, "target": 300})
    assert rules.official == official_rules("skip-bo", 5)
    assert (rules.official.stock, rules.official.target) == (20, 500)
    assert differences(rules) == ["stock", "target"]
    assert official_rules("skip-bo", 4).official is None  # the official rules are their own


def test_rendering_reads_and_resolves_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = resolve(game="spite-and-malice", options={"building-piles": 4})

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the house rules were resolved once already")

    monkeypatch.setattr(houserules, "resolve", refuse)
    monkeypatch.setattr(houserules, "read_toml", refuse)
    html = booklet.render_html(rules, paper=A4)
    assert "Up to four centre stacks may be in play at once instead of three" in html


def test_the_context_is_plain_data_and_renders_no_sentence() -> None:
    context = booklet.build_context(resolve(options={"stock": "short"}))
    # first-player is noted: the rule sheets disagree, so the box always says who starts.
    assert context["changed"] == ["stock"]
    assert context["noted"] == ["first-player"]
    assert "differences" not in context
    assert context["official"]["stock"] == 30 and context["deal"]["stock"] == 10


def test_one_environment_renders_the_whole_booklet(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    real = templating.make_environment

    def counted(search_path: Any, lang: Any, **options: Any) -> Any:
        env = real(search_path, lang, **options)
        made.append(env)
        return env

    monkeypatch.setattr(booklet, "make_environment", counted)
    html = booklet.render_html(resolve(options={"stock": "short", "target": 300}), paper=A4)
    assert len(made) == 1
    assert (
        "House rule: the series is played to 300 points instead of 500." in html
        and "{{" not in html
    )
    assert made[0].autoescape("booklet.html.j2")  # type: ignore[attr-defined]
    assert made[0].undefined is templating.StrictUndefined  # type: ignore[attr-defined]
