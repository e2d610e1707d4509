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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
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
    nodes,
    pass_context,
    pass_environment,
    pass_eval_context,
    select_autoescape,
)
from jinja2.loaders import split_template_path
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from sheetgen.booklet.compiledcache import CompiledTemplates, private_folder
from sheetgen.errors import GameDefinitionError
from sheetgen.game.language import ENGLISH, ENGLISH_COUNTING, Language

# Bounds on what the templates of one document may ask for (the largest real booklet
# needs a few hundred numbers, a few thousand loop passes and well under a second).
RANGE_BUDGET = 100_000
MAX_TEXT = 1_000_000
MAX_POWER = 10**30
MAX_ARGUMENT = 100_000
MAX_DIGITS = 1_000
# A template file: sheetgen's own are under 10 KB, a game's sections a few.
MAX_TEMPLATE_BYTES = 1_000_000
# Loop passes, plus every character or item that an operator, call or filter makes.
WORK_BUDGET = 20_000_000
# What one render may write: a booklet's HTML with its fonts inside is about 2 MB.
MAX_OUTPUT = 16_000_000
MAX_SECONDS = 20.0
# The methods of a text a template may call: none of them makes more text than it is given
# (``replace`` and ``join``, which can, are checked before they run).
TEXT_METHODS = frozenset(
    {
        "capitalize", "casefold", "count", "endswith", "find", "index", "isalnum",
        "isalpha", "isdecimal", "isdigit", "islower", "isnumeric", "isspace", "istitle",
        "isupper", "join", "lower", "lstrip", "partition", "removeprefix", "removesuffix",
        "replace", "rfind", "rindex", "rpartition", "rsplit", "rstrip", "split",
        "splitlines", "startswith", "strip", "swapcase", "title", "upper",
    }
)  # fmt: skip
# jinja2's filters a template may use; the rest (center, indent, format, wordwrap, ...)
# can make far more text than they are given and no booklet needs them.
FILTERS = frozenset(
    {
        "abs", "attr", "capitalize", "d", "default", "dictsort", "e", "escape", "first",
        "float", "forceescape", "groupby", "int", "items", "join", "last", "length", "list",
        "lower", "map", "max", "min", "reject", "rejectattr", "replace", "reverse", "round",
        "safe", "select", "selectattr", "sort", "string", "striptags", "sum", "title",
        "trim", "truncate", "unique", "upper", "wordcount",
    }
)  # fmt: skip
# A %-format's conversions: their widths and precisions decide how long the result is.
_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?")

# What a template may be handed: text, numbers, truth values and nothing, and lists and
# mappings of those. Nothing with a method that reaches the file system, the process or
# the environment (a Path's read_text, say) can be reached from a game's templates.
TemplateData = (
    str | int | float | bool | None | list["TemplateData"] | dict[str | int, "TemplateData"]
)
_PLAIN = frozenset({str, Markup, int, float, bool, type(None)})


class TemplateLimitError(TemplateError):
    """A template asked for more work or memory than a booklet can need."""


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

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Any]:
        for root in self.searchpath:
            filename = os.path.join(root, *split_template_path(template))
            try:
                handle = os.open(filename, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise TemplateLimitError(f"{template}: cannot be read ({exc.strerror})") from None
            with os.fdopen(handle, "rb") as opened:
                return self._checked(opened, root, template, filename)
        raise TemplateNotFound(template)

    @staticmethod
    def _checked(opened: BinaryIO, root: str, template: str, filename: str) -> tuple[str, str, Any]:
        try:  # what was opened, wherever the links on the way led
            resolved = Path(os.readlink(f"/proc/self/fd/{opened.fileno()}"))
        except OSError:  # no /proc: the name as it resolves now
            resolved = Path(filename).resolve()
        if not resolved.is_relative_to(Path(root).resolve()):
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
            raise TemplateLimitError(f"{template} is not UTF-8 text (byte {exc.start})") from None
        changed = found.st_mtime_ns

        def uptodate() -> bool:
            try:
                return os.stat(filename).st_mtime_ns == changed
            except OSError:
                return False

        return source, os.path.normpath(filename), uptodate


def _size(value: object) -> int:
    return len(value) if isinstance(value, str | list | tuple | dict) else 1


def _weight(value: object, limit: int = MAX_TEXT) -> int:
    """About how many characters ``value`` makes as text (a list of one long text a
    thousand times is a thousand long texts), counted only until it passes ``limit``."""
    total = 0
    waiting = [value]
    while waiting and total <= limit:
        item = waiting.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, list | tuple):
            total += 2 + 2 * len(item)
            if total <= limit:
                waiting.extend(item)
        elif isinstance(item, dict):
            total += 2 + 4 * len(item)
            if total <= limit:
                waiting.extend(item.keys())
                waiting.extend(item.values())
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 1
        else:
            total += 8
    return total


def _check_text(*values: object, what: str = "a text") -> None:
    """Refuse values that together would make more than MAX_TEXT characters of text."""
    if sum(_weight(value) for value in values) > MAX_TEXT:
        raise TemplateLimitError(f"{what} longer than {MAX_TEXT:,} characters")


class _BoundedSandbox(ImmutableSandboxedEnvironment):
    """The sandbox with a budget: ranges, loop passes, what operators, calls and filters
    make, what a render writes and how long the document's templates take are bounded.

    One Environment renders one document: its budget and its clock start when it is made,
    and the clock runs while the document's templates do (``_clock``), not while its
    pages are laid out between renders.
    Loops and ``~`` are bounded by rewriting the parsed template (``_generate``), so that
    a template compiled once, or kept from an earlier run, is bounded too.
    """

    intercepted_binops = frozenset({"*", "+", "**", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.range_left = RANGE_BUDGET
        self.work_left = WORK_BUDGET
        self.seconds_left = MAX_SECONDS
        self.deadline = time.monotonic() + MAX_SECONDS
        self.globals["range"] = self._range
        del self.globals["lipsum"]  # a call can ask it for megabytes of Latin
        self.filters = {name: _bounded(self.filters[name]) for name in FILTERS}
        self.filters["_sheetgen_loop"] = _loop
        self.filters["_sheetgen_joined"] = _joined
        self.concat = self._concat  # type: ignore[method-assign]
        self.finalize = _finalized

    def spend(self, work: int) -> None:
        """Charge ``work`` to the document's budget; past it, or past the clock, stop."""
        self.work_left -= work
        if self.work_left < 0:
            raise TemplateLimitError(
                f"the templates ask for more than {WORK_BUDGET:,} steps of work in all"
            )
        if time.monotonic() > self.deadline:
            raise TemplateLimitError(f"the templates take longer than {MAX_SECONDS:g} seconds")

    def _concat(self, pieces: Iterable[str]) -> str:
        kept: list[str] = []
        length = 0
        for piece in pieces:
            length += len(piece)
            if length > MAX_OUTPUT:
                raise TemplateLimitError(f"a template writes more than {MAX_OUTPUT:,} characters")
            kept.append(piece)
        self.spend(length)
        return "".join(kept)

    def _range(self, *args: int) -> range:
        numbers = range(*args)
        self.range_left -= len(numbers)
        if self.range_left < 0:
            raise TemplateLimitError(
                f"the templates ask range() for more than {RANGE_BUDGET:,} numbers in all"
            )
        return numbers

    def _generate(
        self,
        source: nodes.Template,
        name: str | None,
        filename: str | None,
        defer_init: bool = False,
    ) -> str:
        bounded = _Bounds().visit(source)
        return super()._generate(bounded, name, filename, defer_init)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, str) and attr not in TEXT_METHODS:
            return False
        return super().is_safe_attribute(obj, attr, value)

    def wrap_str_format(self, value: Any) -> None:
        # str.format is not one of TEXT_METHODS: a width in its format ("{:>999999999}")
        # would ask for any amount of memory.
        return None

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self._check_binop(operator, left, right)
        made = super().call_binop(context, operator, left, right)
        self.spend(_size(made))
        return made

    @staticmethod
    def _check_binop(operator: str, left: Any, right: Any) -> None:
        numbers = isinstance(left, int | float) and isinstance(right, int | float)
        sized = (str, list, tuple)
        if operator == "**" and numbers:
            if abs(right) > 128 or (
                abs(left) > 1 and abs(left) ** min(abs(right), 128) > MAX_POWER
            ):
                raise TemplateLimitError(f"{left!r} ** {right!r} is too large a power")
        elif operator == "*" and numbers:
            if _digits(left) + _digits(right) > MAX_DIGITS:
                raise TemplateLimitError(f"a number with more than {MAX_DIGITS:,} digits")
        elif operator == "*":
            for text, times in ((left, right), (right, left)):
                if (
                    isinstance(text, sized)
                    and isinstance(times, int)
                    and max(len(text), _weight(text)) * times > MAX_TEXT
                ):
                    raise TemplateLimitError(
                        f"a repetition longer than {MAX_TEXT:,} characters or items"
                    )
        elif operator == "+" and isinstance(left, sized) and isinstance(right, sized):
            _check_text(left, right)
        elif operator == "%" and isinstance(left, str):
            _check_format(left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_arguments(args, kwargs)
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str):
            _check_text_method(owner, getattr(__obj, "__name__", ""), args)
        __self.spend(1)
        made = super().call(__context, __obj, *args, **kwargs)
        __self.spend(_size(made))
        return made


def _check_arguments(args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ARGUMENT:
            raise TemplateLimitError(f"a call with the number {value} (at most {MAX_ARGUMENT:,})")


def _digits(number: int | float) -> int:
    return int(number).bit_length() // 3 + 1 if isinstance(number, int) else 1


def _check_format(text: str, values: object = ()) -> None:
    """Refuse a %-format whose widths and precisions ask for more than MAX_TEXT characters,
    or whose conversions, each as long as the longest of ``values``, would make more."""
    asked = 0
    conversions = 0
    for conversion in _CONVERSION.finditer(text):
        conversions += 1
        for figure in conversion.groups():
            if figure == "*":
                raise TemplateLimitError("a %-format may not take its width from its values")
            asked += int(figure or 0)
    if asked > MAX_TEXT:
        raise TemplateLimitError(f"a %-format wider than {MAX_TEXT:,} characters")
    if isinstance(values, dict):
        items: Iterable[object] = values.values()
    elif isinstance(values, tuple):
        items = values
    else:
        items = (values,)
    longest = max((_weight(item) for item in items), default=0)
    if conversions and len(text) + conversions * longest > MAX_TEXT:
        raise TemplateLimitError(f"a %-format longer than {MAX_TEXT:,} characters")


def _check_text_method(text: str, method: str, args: Sequence[Any]) -> None:
    """Refuse ``replace`` and ``join`` calls whose result would pass MAX_TEXT."""
    if method == "join" and args and isinstance(args[0], list | tuple):
        longest = sum(len(str(item)) for item in args[0]) + len(text) * len(args[0])
    elif method == "replace" and len(args) >= 2 and isinstance(args[1], str):
        old = str(args[0])
        longest = len(text) + (text.count(old) if old else len(text) + 1) * len(args[1])
    else:
        return
    if longest > MAX_TEXT:
        raise TemplateLimitError(f"a text longer than {MAX_TEXT:,} characters")


class _Bounds(NodeTransformer):
    """Every ``for`` loop's iterable and every ``~`` goes through a filter that charges the
    document's budget."""

    def visit_For(self, node: nodes.For) -> nodes.For:
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, "_sheetgen_loop", [], [], None, None)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Filter:
        self.generic_visit(node)
        parts = nodes.List(node.nodes, lineno=node.lineno)
        return nodes.Filter(parts, "_sheetgen_joined", [], [], None, None, lineno=node.lineno)


def _bounded(filter_: Callable[..., Any]) -> Callable[..., Any]:
    """``filter_`` with its numbers checked, ``replace`` checked before it runs, and what
    it makes charged to the document's budget."""
    passes_first = getattr(filter_, "jinja_pass_arg", None) is not None

    def bounded(first: Any, *args: Any, **kwargs: Any) -> Any:
        environment = getattr(first, "environment", first)
        values = args
        _check_arguments(values[1:], kwargs)
        if values and filter_.__name__ not in _COUNTING_FILTERS:
            _check_text(values[0])
        if filter_.__name__ == "do_sum" and not _numbers(values, kwargs):
            raise TemplateLimitError("sum adds numbers only")
        if filter_.__name__ == "do_replace" and len(values) >= 3:
            _check_text_method(str(values[0]), "replace", (values[1], str(values[2])))
        if filter_.__name__ == "do_join" and values and isinstance(values[0], list | tuple):
            _check_text_method(str(values[1]) if len(values) > 1 else "", "join", values[:1])
        made = filter_(first, *args, **kwargs) if passes_first else filter_(*args, **kwargs)
        environment.spend(_size(made))
        return made

    functools.update_wrapper(bounded, filter_)
    return bounded if passes_first else pass_environment(bounded)


# Filters that go through their value's items without making text of it.
_COUNTING_FILTERS = frozenset(
    {
        "do_first", "do_last", "do_list", "sync_do_list", "do_reverse", "do_sort", "do_unique",
        "do_min", "do_max", "do_map", "sync_do_map", "do_select", "sync_do_select",
        "do_reject", "sync_do_reject", "do_selectattr", "sync_do_selectattr",
        "do_rejectattr", "sync_do_rejectattr", "do_groupby", "sync_do_groupby",
        "do_dictsort", "do_items", "do_default", "do_attr", "do_round", "do_int",
        "do_float", "do_abs", "do_sum", "sync_do_sum", "do_join", "sync_do_join",
        "do_length", "len",
    }
)  # fmt: skip


def _numbers(values: Sequence[Any], kwargs: Mapping[str, Any]) -> bool:
    """Whether a ``sum`` starts from a number (from a list it would join lists, each time
    copying all it has so far; from a number, adding a list fails at once)."""
    start = values[2] if len(values) > 2 else kwargs.get("start", 0)
    return isinstance(start, int | float)


@pass_context
def _loop(context: Any, iterable: Any) -> Iterator[Any]:
    """Every ``for`` loop's iterable, each pass charged to the document's budget."""
    environment = context.environment
    for item in iterable:
        environment.spend(1)
        yield item


@pass_eval_context
def _joined(eval_context: Any, parts: list[Any]) -> str:
    """``~``: its parts joined as text, refused before they are joined if that would pass
    MAX_TEXT, and charged to the document's budget."""
    _check_text(*parts)
    joined = (markup_join if eval_context.autoescape else str_join)(parts)
    eval_context.environment.spend(len(joined))
    return joined


def _finalized(value: Any) -> Any:
    """What ``{{ ... }}`` writes, refused before it is made text if it would pass MAX_TEXT
    (a list of one long text a thousand times)."""
    if not isinstance(value, str):
        _check_text(value)
    return value


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
    for name in ("_", "gettext", "ngettext", "pgettext", "npgettext"):
        translate = env.globals[name]
        assert callable(translate)
        env.globals[name] = _checked_format(translate)
    return env


def _checked_format(translate: Callable[..., Any]) -> Callable[..., Any]:
    """A gettext function of the i18n extension whose message, a %-format, is checked
    first: ``_("%(n)0900000000d", n=1)`` would ask for gigabytes."""

    def checked(*args: Any, **kwargs: Any) -> Any:
        for value in args:
            if isinstance(value, str):
                _check_format(value, kwargs)
        return translate(*args, **kwargs)

    return functools.update_wrapper(checked, translate)


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
    if not isinstance(env, _BoundedSandbox):
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
