"""The one jinja2 Environment sheetgen renders with, and its filters.

HTML, XML, SVG and .j2 templates are autoescaped; Markdown section files and
the one-line sentences of a game definition are not (they are game text that
goes through Markdown, which allows no raw HTML). Undefined names fail loudly.

A game folder is not trusted (``--rules-dir`` may name anyone's download), so:

- A template is handed plain data only (:func:`template_data`): text, numbers, truth
  values, and lists and mappings of those. No Path, game definition or function, so no
  method of the context reaches the file system, the process or the environment.
- The Environment is jinja2's immutable sandbox: no attributes that start with ``_``, no
  Python internals, no changing lists or dicts; of a text's methods only those in
  TEXT_METHODS, of jinja2's filters only those in FILTERS.
- The work of one document's templates is bounded. ``range`` hands out at most
  RANGE_BUDGET numbers; ``*``, ``+``, ``~`` and ``%`` refuse a result (or a %-format)
  longer than MAX_TEXT characters or items, ``**`` a power above MAX_POWER, a call a
  number above MAX_ARGUMENT; every loop pass and everything an operator, call or filter
  makes is charged to WORK_BUDGET; a render writes at most MAX_OUTPUT characters; and
  the templates stop after MAX_SECONDS.

Every template error becomes one :class:`~sheetgen.errors.GameDefinitionError` naming
the file and line.

Compiling the templates is over a quarter of ``sheetgen rules --format html`` (its warm
runs take 27-37 % less processor time with them kept: ``tests/perf/bench.py --caches``), so
their compiled code is kept between runs, as Python keeps ``.pyc`` files: in the user's
private cache folder (:mod:`sheetgen.booklet.compiledcache`), keyed by the template's
source and by this module, which decides how it is compiled. A cache that cannot be used
is passed by.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import re
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

import jinja2
from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    select_autoescape,
)
from jinja2.loaders import split_template_path
from markupsafe import Markup

from sheetgen.booklet.compiledcache import CompiledTemplates, private_folder
from sheetgen.booklet.sandbox import BoundedSandbox, TemplateLimitError, checked_format
from sheetgen.errors import GameDefinitionError, not_utf8
from sheetgen.folders import real_path
from sheetgen.game.language import ENGLISH, ENGLISH_COUNTING, Language

# A template file: sheetgen's own are under 10 KB, a game's sections a few.
MAX_TEMPLATE_BYTES = 1_000_000

# What a template may be handed: text, numbers, truth values and nothing, and lists and
# mappings of those. Nothing with a method that reaches the file system, the process or
# the environment (a Path's read_text, say) can be reached from a game's templates.
TemplateData = (
    str | int | float | bool | None | list["TemplateData"] | dict[str | int, "TemplateData"]
)
_PLAIN = frozenset({str, Markup, int, float, bool, type(None)})


def template_data(value: object, where: str = "context") -> Any:
    """``value`` as the plain data a template is handed: text, numbers, truth values and
    None as they are; mappings as dicts, sequences and sets as lists; a named tuple or
    dataclass as a dict of its fields and properties. Anything else (a Path, a function,
    a game definition) is a TypeError naming where it was: build the template's view of
    it by hand instead."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, Mapping):
        data: dict[str | int, Any] = {}
        for key, item in value.items():
            if type(key) not in (str, int):
                raise TypeError(f"{where} has the key {key!r}; a template's keys are text")
            data[key] = template_data(item, f"{where}[{key!r}]")
        return data
    fields = getattr(value, "_fields", None)
    if isinstance(value, tuple) and fields is not None:
        named = {name: getattr(value, name) for name in fields}
        return template_data({**named, **_properties(value)}, where)
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [template_data(item, f"{where}[{n}]") for n, item in enumerate(items)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        named = {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
        return template_data({**named, **_properties(value)}, where)
    raise TypeError(f"{where} is a {kind.__name__}; a template is handed plain data only")


def _properties(value: object) -> dict[str, Any]:
    return {
        name: getattr(value, name)
        for name in dir(type(value))
        if not name.startswith("_") and isinstance(getattr(type(value), name), property)
    }


class _ContainedLoader(FileSystemLoader):
    """A FileSystemLoader that reads a template once, from what it opened: a regular file of
    at most MAX_TEMPLATE_BYTES that resolves inside the folder it was found in (not a
    symbolic link to /etc/passwd in a game's sections, a FIFO or a sparse 3 GB file)."""

    def __init__(self, searchpath: Sequence[str], bounds: Sequence[Path]) -> None:
        super().__init__(searchpath)
        # The folder each root's files must really lie in, as it stood when the booklet
        # began (a game's folder is resolved once, when it is loaded): a sections folder
        # that links elsewhere, or a game folder swapped for a link to / during the run,
        # leads to no part of the game.
        self.bounds = list(bounds)

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Any]:
        for root, bound in zip(self.searchpath, self.bounds, strict=True):
            filename = os.path.join(root, *split_template_path(template))
            try:
                handle = os.open(filename, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise TemplateLimitError(f"{template}: cannot be read ({exc.strerror})") from None
            with os.fdopen(handle, "rb") as opened:
                return self._checked(opened, bound, template, filename)
        raise TemplateNotFound(template)

    @staticmethod
    def _checked(
        opened: BinaryIO, bound: Path, template: str, filename: str
    ) -> tuple[str, str, Any]:
        resolved = real_path(opened.fileno(), Path(filename))
        if not resolved.is_relative_to(bound):
            raise TemplateLimitError(
                f"{template} lies outside the game's folder ({resolved}); "
                "a game may use only its own files"
            )
        found = os.fstat(opened.fileno())
        problem = None
        if not stat.S_ISREG(found.st_mode):
            problem = "it is not a file"
        elif found.st_size > MAX_TEMPLATE_BYTES:
            problem = f"it has {found.st_size:,} bytes"
        else:
            raw = opened.read(MAX_TEMPLATE_BYTES + 1)
            if len(raw) > MAX_TEMPLATE_BYTES:
                problem = f"it grew past {MAX_TEMPLATE_BYTES:,} bytes as it was read"
        if problem is not None:
            refused = TemplateLimitError(
                f"a template file holds at most {MAX_TEMPLATE_BYTES:,} bytes of text; {problem}"
            )
            refused.filename = os.path.normpath(filename)  # type: ignore[attr-defined]
            raise refused
        try:
            source = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, problem = not_utf8(exc)
            raise TemplateLimitError(f"{template}, {line}: {problem}") from None
        changed = found.st_mtime_ns

        def uptodate() -> bool:
            try:
                return os.stat(filename).st_mtime_ns == changed
            except OSError:
                return False

        return source, os.path.normpath(filename), uptodate


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


def drawn_lines(
    text: str,
    width: float,
    size: float = 20,
    bold: bool = False,
    *,
    breaks: Callable[[str], str] | None = None,
) -> list[str]:
    """``text`` broken at its spaces into lines no wider than ``width`` units set in the
    bundled DejaVu Sans at ``size`` (the ``lines`` filter: a drawing's words, which SVG
    does not wrap); a word wider than that is broken with a hyphen where the language's
    ``breaks`` (Counting.soft_hyphens) allow ("Karten-/stock"), else stands alone on its
    line."""
    from sheetgen.game.examples import text_width

    lines: list[str] = []
    for word in _broken_words(str(text).split(), width, size, bold, breaks):
        if lines and text_width(f"{lines[-1]} {word}", size, bold=bold) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    # No last word alone on its line when the line before can spare it one ("stock / pile").
    if len(lines) > 1 and " " not in lines[-1] and lines[-2].count(" ") > 1:
        head, _, last = lines[-2].rpartition(" ")
        joined = f"{last} {lines[-1]}"
        if text_width(joined, size, bold=bold) <= width:
            lines[-2:] = [head, joined]
    return lines


def _broken_words(
    words: list[str],
    width: float,
    size: float,
    bold: bool,
    breaks: Callable[[str], str] | None,
) -> list[str]:
    """``words``, each wider than ``width`` cut where ``breaks`` puts a soft hyphen, each
    part but the last ending in a hyphen and as long as fits."""
    from sheetgen.game.examples import text_width

    found: list[str] = []
    for word in words:
        # A word joined by a hyphen of its own breaks there too ("Kartenstock-|Feld"), a
        # brand never ("Skip-Bo").
        joined = re.split(r"(?<=-)(?<!Skip-)(?<!SKIP-)", word)
        parts = [piece for part in joined for piece in _pieces(part, breaks)]
        while len(parts) > 1 and text_width("".join(parts), size, bold=bold) > width:
            cut = next(
                (k for k in range(len(parts) - 1, 0, -1)
                 if text_width(_hyphened(parts[:k]), size, bold=bold) <= width),
                1,
            )  # fmt: skip
            found.append(_hyphened(parts[:cut]))
            parts = parts[cut:]
        found.append("".join(parts))
    return found


SOFT = "\N{SOFT HYPHEN}"


def _pieces(part: str, breaks: Callable[[str], str] | None) -> list[str]:
    """A part of a word (its own hyphen kept at its end) cut where ``breaks`` breaks it."""
    core, hyphen = (part[:-1], "-") if part.endswith("-") else (part, "")
    pieces = (breaks(core) if breaks else core).split(SOFT)
    pieces[-1] += hyphen
    return pieces


def _hyphened(parts: list[str]) -> str:
    """The first ``parts`` of a word broken after them, with the hyphen that ends the line."""
    head = "".join(parts)
    return head if head.endswith("-") else head + "-"


def make_environment(
    search_path: Sequence[Path], lang: Language = ENGLISH, bounds: Sequence[Path] | None = None
) -> Environment:
    """The Environment for every template and section file under ``search_path``, writing
    in ``lang``: its counting filters, and its short strings through jinja2's i18n
    extension (``{{ _("Contents") }}``, ``{% trans %}``). A file found in a root must
    really lie in that root's bound: the root itself, resolved now, unless ``bounds``
    gives folders already resolved (a game's, resolved once when it was loaded)."""
    env = BoundedSandbox(
        loader=_ContainedLoader(
            [str(path) for path in search_path],
            list(bounds) if bounds is not None else [path.resolve() for path in search_path],
        ),
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
    env.filters["number"] = counting.figure
    env.filters["count"] = counting.count
    env.filters["cards"] = counting.cards
    env.filters["quoted"] = counting.quoted
    env.filters["lines"] = functools.partial(drawn_lines, breaks=counting.soft_hyphens)
    env.globals["plural"] = counting.plural
    env.install_gettext_translations(lang.translations(), newstyle=True)  # type: ignore[attr-defined]
    for name in ("_", "gettext", "ngettext", "pgettext", "npgettext"):
        translate = env.globals[name]
        assert callable(translate)
        env.globals[name] = checked_format(translate)
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


@contextlib.contextmanager
def _clock(env: Environment) -> Iterator[None]:
    """Run the document's template clock for one render: MAX_SECONDS in all, however many
    renders the document takes and however long it waits between them."""
    if not isinstance(env, BoundedSandbox):
        yield
        return
    started = time.monotonic()
    env.deadline = started + env.seconds_left
    try:
        yield
    finally:
        env.seconds_left -= time.monotonic() - started


def render_template(env: Environment, name: str, context: Mapping[str, Any]) -> str:
    """Render the template file ``name`` with ``context``."""
    filename = None
    data = template_data(context)
    try:
        with _clock(env):
            template = env.get_template(name)
            filename = template.filename
            return template.render(data)
    except _FAILURES as exc:
        filename = filename or getattr(exc, "filename", None)
        raise _refused(exc, filename or name, filename) from None


def render_string(
    env: Environment, source: str, context: Mapping[str, Any], place: str = "a sentence"
) -> str:
    """Render a short template held in data, such as a house-rules sentence."""
    data = template_data(context)
    try:
        with _clock(env):
            return _from_string(env, source).render(data)
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
    data = template_data(context)
    try:
        with _clock(env):
            return bool(env.compile_expression(expression, undefined_to_none=False)(**data))
    except _FAILURES as exc:
        raise _refused(exc, place, "<template>") from None
