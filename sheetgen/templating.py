"""The one jinja2 Environment sheetgen renders with, and its filters.

HTML, XML, SVG and .j2 templates are autoescaped; Markdown section files and
the one-line sentences of a game definition are not (they are game text that
goes through Markdown, which allows no raw HTML). Undefined names fail loudly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def spell(number: int) -> str:
    """A small count in words ("four"), larger ones in digits."""
    if 0 <= number < len(_NUMBER_WORDS):
        return _NUMBER_WORDS[number]
    return str(number)


# The booklet's one number style: counts of things in words up to twelve, figures
# above; points are always figures, as on a score sheet.
_ALWAYS_FIGURES = frozenset({"point"})


def plural(word: str, count: int) -> str:
    """``word`` with an "s" unless there is exactly one."""
    return word if count == 1 else f"{word}s"


def count(number: int, noun: str) -> str:
    """A grammatical count in the booklet's style: ``one card``, ``30 cards``, ``1 point``."""
    shown = str(number) if noun in _ALWAYS_FIGURES else spell(number)
    return f"{shown} {plural(noun, number)}"


def cards(number: int) -> str:
    """``count(number, "card")``, the count the rules text needs most."""
    return count(number, "card")


def make_environment(search_path: Sequence[Path]) -> Environment:
    """The Environment for every template and section file under ``search_path``."""
    env = Environment(
        loader=FileSystemLoader([str(path) for path in search_path]),
        autoescape=select_autoescape(
            enabled_extensions=("html", "htm", "xml", "svg", "j2"),
            default_for_string=False,
            default=False,
        ),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["spell"] = spell
    env.filters["count"] = count
    env.filters["cards"] = cards
    env.globals["plural"] = plural
    return env


def render_template(env: Environment, name: str, context: Mapping[str, Any]) -> str:
    """Render the template file ``name`` with ``context``."""
    return env.get_template(name).render(context)


def render_string(env: Environment, source: str, context: Mapping[str, Any]) -> str:
    """Render a short template held in data, such as a house-rules sentence."""
    return env.from_string(source).render(context)


def evaluate(env: Environment, expression: str, context: Mapping[str, Any]) -> bool:
    """Whether a definition's ``when`` expression holds for this context."""
    return bool(env.compile_expression(expression, undefined_to_none=False)(**context))
