"""The one jinja2 Environment sheetgen renders with, and its filters.

HTML, XML, SVG and .j2 templates are autoescaped; Markdown section files and
the one-line sentences of a game definition are not (they are game text that
goes through Markdown, which allows no raw HTML). Undefined names fail loudly.

A game folder is not trusted (``--rules-dir`` may name anyone's download), so the
Environment is jinja2's immutable sandbox: no attributes that start with ``_``, no
Python internals, no changing lists or dicts. On top of the sandbox, the work one
template can ask for is bounded: ``range`` hands out at most RANGE_BUDGET numbers
per Environment, and ``*``, ``+`` and ``**`` refuse results longer than MAX_TEXT
characters or items (or a power above MAX_POWER), as does any call given a number
above MAX_ARGUMENT (``"x".center(10**9)``). Every template error becomes one
:class:`~sheetgen.errors.GameDefinitionError` naming the file and line.

Compiling the templates is a sixth of a booklet's own work, so their compiled code is
kept between runs, as Python keeps ``.pyc`` files: in the user's private cache folder
(:mod:`sheetgen.compiledcache`), keyed by the template's source and by this module,
which decides how it is compiled. A cache that cannot be used is passed by.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    select_autoescape,
)
from jinja2.sandbox import ImmutableSandboxedEnvironment

from sheetgen.compiledcache import CompiledTemplates, private_folder
from sheetgen.errors import GameDefinitionError
from sheetgen.language import ENGLISH, ENGLISH_COUNTING, Language

# Bounds on what one template may ask for (the largest real booklet needs a few hundred).
RANGE_BUDGET = 100_000
MAX_TEXT = 1_000_000
MAX_POWER = 10**30
MAX_ARGUMENT = 100_000


class TemplateLimitError(TemplateError):
    """A template asked for more work or memory than a booklet can need."""


class _ContainedLoader(FileSystemLoader):
    """A FileSystemLoader that refuses a file resolving outside the folder it was found in
    (a symbolic link to /etc/passwd in a game's sections, say)."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Any]:
        source, filename, uptodate = super().get_source(environment, template)
        resolved = Path(filename).resolve()
        if not any(resolved.is_relative_to(Path(root).resolve()) for root in self.searchpath):
            raise TemplateLimitError(
                f"{template} lies outside the game's folder ({resolved}); "
                "a game may use only its own files"
            )
        return source, filename, uptodate


class _BoundedSandbox(ImmutableSandboxedEnvironment):
    """The sandbox with bounded ranges, repetitions, concatenations and powers."""

    intercepted_binops = frozenset({"*", "+", "**"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.range_left = RANGE_BUDGET
        self.globals["range"] = self._range

    def _range(self, *args: int) -> range:
        numbers = range(*args)
        self.range_left -= len(numbers)
        if self.range_left < 0:
            raise TemplateLimitError(
                f"the templates ask range() for more than {RANGE_BUDGET:,} numbers in all"
            )
        return numbers

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self._check_binop(operator, left, right)
        return super().call_binop(context, operator, left, right)

    @staticmethod
    def _check_binop(operator: str, left: Any, right: Any) -> None:
        numbers = isinstance(left, int | float) and isinstance(right, int | float)
        sized = (str, list, tuple)
        if operator == "**" and numbers:
            if abs(right) > 128 or (
                abs(left) > 1 and abs(left) ** min(abs(right), 128) > MAX_POWER
            ):
                raise TemplateLimitError(f"{left!r} ** {right!r} is too large a power")
        elif operator == "*":
            for text, times in ((left, right), (right, left)):
                if (
                    isinstance(text, sized)
                    and isinstance(times, int)
                    and len(text) * times > MAX_TEXT
                ):
                    raise TemplateLimitError(
                        f"a repetition longer than {MAX_TEXT:,} characters or items"
                    )
        elif (
            operator == "+"
            and isinstance(left, sized)
            and isinstance(right, sized)
            and len(left) + len(right) > MAX_TEXT
        ):
            raise TemplateLimitError(f"a text longer than {MAX_TEXT:,} characters")

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ARGUMENT:
                raise TemplateLimitError(
                    f"a call with the number {value} (at most {MAX_ARGUMENT:,})"
                )
        return super().call(__context, __obj, *args, **kwargs)


def spell(number: int) -> str:
    """A small count in English words ("four"), larger ones in digits."""
    return ENGLISH_COUNTING.spell(number)


def plural(word: str, count: int) -> str:
    """``word`` with an "s" unless there is exactly one."""
    return ENGLISH_COUNTING.plural(word, count)


def count(number: int, noun: str, plural: str | None = None, one: str | None = None) -> str:
    """A grammatical count in the booklet's style: ``one card``, ``30 cards``, ``1 point``."""
    return ENGLISH_COUNTING.count(number, noun, plural, one)


def cards(number: int) -> str:
    """``count(number, "card")``, the count the rules text needs most."""
    return ENGLISH_COUNTING.cards(number)


@cache
def _compiled_templates(lang: Language = ENGLISH) -> CompiledTemplates | None:
    """The cache of compiled templates for ``lang``; None where the user has no private
    cache folder."""
    # The sandbox decides at compile time which operators it checks, and jinja2 works out
    # a filter on a constant (``{{ 0 | spell }}``) while compiling, in the language's
    # words: code compiled by another version of this module (or of jinja2), or for
    # another language or another way of counting, is never reused.
    made_by = hashlib.sha256(
        Path(__file__).read_bytes() + jinja2.__version__.encode() + repr(lang.counting).encode()
    )
    folder = private_folder("sheetgen", "templates")
    if folder is None:
        return None
    return CompiledTemplates(folder, f"{lang.code}-{made_by.hexdigest()[:16]}")


def make_environment(search_path: Sequence[Path], lang: Language = ENGLISH) -> Environment:
    """The Environment for every template and section file under ``search_path``, writing
    in ``lang``: its counting filters, and its short strings through jinja2's i18n
    extension (``{{ _("Contents") }}``, ``{% trans %}``)."""
    env = _BoundedSandbox(
        loader=_ContainedLoader([str(path) for path in search_path]),
        autoescape=select_autoescape(
            enabled_extensions=("html", "htm", "xml", "svg", "j2"),
            default_for_string=False,
            default=False,
        ),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=_compiled_templates(lang),
    )
    counting = lang.counting
    env.filters["spell"] = counting.spell
    env.filters["count"] = counting.count
    env.filters["cards"] = counting.cards
    env.filters["quoted"] = counting.quoted
    env.globals["plural"] = counting.plural
    env.install_gettext_translations(lang.translations(), newstyle=True)  # type: ignore[attr-defined]
    return env


def _line_of(exc: BaseException, filename: str | None) -> int | None:
    """The template line an error happened on, from jinja2's rewritten traceback."""
    line = getattr(exc, "lineno", None)
    if isinstance(line, int):
        return line
    trace = exc.__traceback__
    found = None
    while trace is not None:
        code = trace.tb_frame.f_code.co_filename
        if filename and code == filename:
            found = trace.tb_lineno
        trace = trace.tb_next
    return found


def _refused(exc: Exception, place: str, filename: str | None) -> GameDefinitionError:
    line = _line_of(exc, filename)
    where = place if line is None else f"{place}, line {line}"
    if isinstance(exc, OverflowError | MemoryError | RecursionError):
        problem = "the template asks for more work or memory than a booklet can need"
    else:
        problem = str(getattr(exc, "message", None) or exc).splitlines()[0] or type(exc).__name__
    return GameDefinitionError(f"template error: {problem}", file=where)


_FAILURES = (TemplateError, OverflowError, MemoryError, RecursionError, TypeError, ValueError)


def render_template(env: Environment, name: str, context: Mapping[str, Any]) -> str:
    """Render the template file ``name`` with ``context``."""
    filename = None
    try:
        template = env.get_template(name)
        filename = template.filename
        return template.render(context)
    except _FAILURES as exc:
        filename = filename or getattr(exc, "filename", None)
        raise _refused(exc, filename or name, filename) from None


def render_string(
    env: Environment, source: str, context: Mapping[str, Any], place: str = "a sentence"
) -> str:
    """Render a short template held in data, such as a house-rules sentence."""
    try:
        return _from_string(env, source).render(context)
    except _FAILURES as exc:
        raise _refused(exc, place, "<template>") from None


def _from_string(env: Environment, source: str) -> jinja2.Template:
    """``env.from_string(source)``, its compiled code kept in the cache as a file's is."""
    cache = env.bytecode_cache
    if cache is None:
        return env.from_string(source)
    # The name is the text itself (its digest), so each sentence has a place of its own.
    name = "sentence-" + hashlib.sha256(source.encode()).hexdigest()
    bucket = cache.get_bucket(env, name, None, source)
    if bucket.code is None:
        bucket.code = env.compile(source)
        cache.set_bucket(bucket)
    return env.template_class.from_code(env, bucket.code, env.make_globals(None), None)


def evaluate(
    env: Environment, expression: str, context: Mapping[str, Any], place: str = "a when"
) -> bool:
    """Whether a definition's ``when`` expression holds for this context."""
    try:
        return bool(env.compile_expression(expression, undefined_to_none=False)(**context))
    except _FAILURES as exc:
        raise _refused(exc, place, "<template>") from None
