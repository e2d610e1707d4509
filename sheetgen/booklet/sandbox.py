"""The sandbox a game's templates run in, and its budget: what one document's templates
may ask for in numbers, loop passes, text and time, checked before it is made.

jinja2's immutable sandbox already refuses Python internals and changing lists; this
adds the bounds (see ``BoundedSandbox``). Each limit was met by an attacker's one-line
template that took minutes or gigabytes; tests/test_template_sandbox.py holds them all.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from jinja2 import (
    TemplateError,
    nodes,
    pass_context,
    pass_environment,
    pass_eval_context,
)
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

# Bounds on what the templates of one document may ask for (the largest real booklet
# needs a few hundred numbers, a few thousand loop passes and well under a second).
RANGE_BUDGET = 100_000
MAX_TEXT = 1_000_000
MAX_POWER = 10**30
MAX_ARGUMENT = 100_000
MAX_DIGITS = 1_000
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


class TemplateLimitError(TemplateError):
    """A template asked for more work or memory than a booklet can need."""


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


class BoundedSandbox(ImmutableSandboxedEnvironment):
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
        self.filters["_sheetgen_weighed"] = _weighed
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
        if isinstance(made, list | tuple | dict):
            _check_text(made, what="a list")
        elif isinstance(made, str) and len(made) > MAX_TEXT:
            # upper() and title() can make three letters of one ("ΐ" -> "Ϊ́").
            raise TemplateLimitError(f"a text longer than {MAX_TEXT:,} characters")
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
        longest = _weight(args[0]) + len(text) * len(args[0])
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

    def visit_List(self, node: nodes.List) -> nodes.Filter:
        return self._weighed(node)

    def visit_Dict(self, node: nodes.Dict) -> nodes.Filter:
        return self._weighed(node)

    def visit_Tuple(self, node: nodes.Tuple) -> nodes.Node:
        return self._weighed(node) if node.ctx == "load" else self.generic_visit(node)

    def _weighed(self, node: nodes.Expr) -> nodes.Filter:
        """A list, tuple or mapping written in a template, weighed as it is made: ten
        copies of a list of ten copies of ... cost nothing to make and hours to compare."""
        self.generic_visit(node)
        return nodes.Filter(node, "_sheetgen_weighed", [], [], None, None, lineno=node.lineno)

    def visit_Concat(self, node: nodes.Concat) -> nodes.Filter:
        self.generic_visit(node)
        parts = nodes.List(list(node.nodes), lineno=node.lineno)
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
        if filter_.__name__ == "do_join" and values:
            items = values[0] if isinstance(values[0], list | tuple) else list(values[0])
            args = (items, *args[1:])
            values = args
            _check_text_method(str(values[1]) if len(values) > 1 else "", "join", values[:1])
        made = filter_(first, *args, **kwargs) if passes_first else filter_(*args, **kwargs)
        if isinstance(made, list | tuple | dict):
            # map(default=x) | list: a thousand names for one long list weigh a thousand.
            _check_text(made, what="a list")
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


@pass_context
def _weighed(context: Any, value: Any) -> Any:
    """A list, tuple or mapping a template wrote, refused if as text it would pass MAX_TEXT."""
    _check_text(value, what="a list")
    context.environment.spend(_size(value))
    return value


def _finalized(value: Any) -> Any:
    """What ``{{ ... }}`` writes, refused before it is made text if it would pass MAX_TEXT
    (a list of one long text a thousand times)."""
    if not isinstance(value, str):
        _check_text(value)
    return value


def checked_format(translate: Callable[..., Any]) -> Callable[..., Any]:
    """A gettext function of the i18n extension whose message, a %-format, is checked
    first: ``_("%(n)0900000000d", n=1)`` would ask for gigabytes."""

    def checked(*args: Any, **kwargs: Any) -> Any:
        for value in args:
            if isinstance(value, str):
                _check_format(value, kwargs)
        return translate(*args, **kwargs)

    return functools.update_wrapper(checked, translate)
