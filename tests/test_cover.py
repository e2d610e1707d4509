"""The booklet's cover: the game, the table and the day it agreed its rules, what it is for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4


def cover(html: str) -> str:
    part = html[html.index('<section class="cover">') : html.index('id="house-rules"')]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)).strip()


@pytest.mark.parametrize(
    ("lang", "both", "day_only"),
    [
        ("en", "The Millers, rules agreed on 6 December 2026", "Rules agreed on 6 December 2026"),
        ("de", "The Millers, Regeln vereinbart am 6. Dezember 2026", "Regeln vereinbart am 6. Dezember 2026"),
    ],
)  # fmt: skip
def test_the_cover_names_the_table_and_the_day(
    tmp_path: Path, lang: str, both: str, day_only: str
) -> None:
    ours = tmp_path / "ours.toml"
    ours.write_text('table = "The Millers"\ndate = 2026-12-06\n', encoding="utf-8")
    shown = cover(render_html(resolve(house_rules=ours), paper=A4, lang=language(lang)))
    assert shown.startswith(f"Skip-Bo {both} ")
    ours.write_text("date = 2026-12-06\n", encoding="utf-8")
    shown = cover(render_html(resolve(house_rules=ours), paper=A4, lang=language(lang)))
    assert shown.startswith(f"Skip-Bo {day_only} ")
    shown = cover(render_html(resolve(table="Friday club"), paper=A4, lang=language(lang)))
    assert shown.startswith("Skip-Bo Friday club ")


def test_without_a_table_the_cover_says_what_the_booklet_is_for() -> None:
    shown = cover(render_html(resolve(), paper=A4))
    assert shown.startswith("Skip-Bo The rules as this table plays them: four players")
    assert "agreed" not in shown


def test_a_table_name_is_escaped_on_the_cover() -> None:
    html = render_html(resolve(table="<b>Tom & Jerry</b>"), paper=A4)
    assert "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;" in html
    assert "<b>Tom" not in html


def test_the_quick_reference_lists_a_few_choices_and_points_to_the_cover_for_many() -> None:
    """A quick reference is one page: up to three choices listed, more left to the cover."""
    few = render_html(resolve(options={"must-play-stock": True}), paper=A4)
    quick = few[few.index('-quick-reference"') :]
    assert "This table’s choices.</strong>" in quick and "House rule: whenever" in quick
    heavy = {"players": 6, "partnerships": True, "stock": "short", "deck": "standard",
             "must-play-stock": True, "target": 300}  # fmt: skip
    many = render_html(resolve(options=heavy), paper=A4)
    quick = many[many.index('-quick-reference"') :]
    assert "This table’s choices.</strong> All five are listed on the cover." in quick
    assert "House rule: whenever" not in quick
