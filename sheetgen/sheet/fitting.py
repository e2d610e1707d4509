"""Text set to fit a width: wrapped onto a few lines at the largest size that fits, or cut short.

Pure: widths come from a ``measure(text, size, bold)`` function, which must be
linear in the size (reportlab's metrics are). Every word is measured once, each
trial size is a single greedy pass, and cutting a word or a last line short is
a binary search, so a text of n characters costs O(n log n) at worst. Text on
several lines is evened out, so no word is left alone on the last line. A word
longer than a line is broken into even pieces, each but the last ending in a
hyphen, so no scrap of it is left on a line of its own; asked to, words break only between
syllables (the language's hyphenation patterns), or not at all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Literal, NamedTuple

Measure = Callable[[str, float, bool], float]
ELLIPSIS = "…"
HYPHEN = "-"  # ends a line where a word too long for it was broken
STEP = 0.5  # sizes are tried in half points
BALANCE_STEPS = 10  # bisections of the line length when evening out lines
_BREAK_AFTER_HYPHEN = re.compile(r"(?<=-)(?=[^-])")
# Where a word too long for its line may break: nowhere (the text does not fit), between
# syllables only, or anywhere (into even pieces).
Breaks = Literal["words", "syllables", "anywhere"]


class Fitted(NamedTuple):
    """Lines of text at one size; ``cut`` when the text did not fit and ends in an ellipsis."""

    lines: tuple[str, ...]
    size: float
    cut: bool = False
    hyphens: tuple[int, ...] = ()  # the lines that end in a hyphen added where a word broke

    @property
    def line(self) -> str:
        """The text on one line (what a single-line fit gives)."""
        return " ".join(self.lines)


class _Words(NamedTuple):
    """A text split where it may break: at spaces (dropped) and after hyphens (kept)."""

    text: str
    pieces: tuple[str, ...]
    spaced: tuple[bool, ...]  # whether a space comes before the piece
    widths: tuple[float, ...]  # at size 1
    space: float
    bold: bool


# Where a line may break: any white space but a no-break space, which keeps a name with its
# figure ("Dörte Müller-Lüdenscheidt 410": print review 33 found the 410 alone on a line).
NO_BREAK_SPACE = "\N{NO-BREAK SPACE}"
_SPACES = re.compile(r"[^\S\N{NO-BREAK SPACE}]+")


def _split(text: str) -> list[str]:
    return [word for word in _SPACES.split(text) if word]


def _words(text: str, bold: bool, measure: Measure) -> _Words:
    pieces: list[str] = []
    spaced: list[bool] = []
    for word in _split(text):
        # Words joined by a no-break space are kept whole, at their hyphens too: a name
        # and its figure (print review 36: "Dörte Müller-" / "Lüdenscheidt 410").
        kept = NO_BREAK_SPACE in word
        for index, piece in enumerate([word] if kept else _BREAK_AFTER_HYPHEN.split(word)):
            pieces.append(piece)
            spaced.append(index == 0 and bool(pieces[:-1]))
    return _Words(
        " ".join(_split(text)),
        tuple(pieces),
        tuple(spaced),
        tuple(measure(piece, 1.0, bold) for piece in pieces),
        measure(" ", 1.0, bold),
        bold,
    )


def _longest_prefix(text: str, room: float, fits: Callable[[str], float]) -> int:
    """How many leading characters of ``text`` fit in ``room`` (at least one), by bisection."""
    low, high = 1, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if fits(text[:middle]) <= room:
            low = middle
        else:
            high = middle - 1
    return low


def _break(
    words: _Words,
    room: float,
    most: int,
    measure: Measure,
    breaks: Breaks = "anywhere",
    lang: str = "en",
) -> tuple[list[str], bool, tuple[int, ...]]:
    """Greedy lines of at most ``room`` (at size 1), no more than ``most`` of them, whether
    they hold the whole text, and which lines end in a hyphen added to break a word. Stops as
    soon as the limit is reached, or as soon as a word would have to break where ``breaks``
    does not let it (between the syllables of ``lang``'s patterns, or not at all)."""

    def width(part: str) -> float:
        return measure(part, 1.0, words.bold)

    lines: list[str] = []
    added: list[int] = []
    current: list[str] = []
    used = 0.0
    for piece, spaced, wide in zip(words.pieces, words.spaced, words.widths, strict=True):
        gap = words.space if spaced else 0.0
        if current and used + gap + wide <= room:
            current.append(" " + piece if spaced else piece)
            used += gap + wide
            continue
        if current:
            lines.append("".join(current))
            if len(lines) == most:
                return lines, False, tuple(added)
        if breaks == "words" and wide > room:
            return lines, False, tuple(added)
        word, done = piece, 0  # the whole word, and how much of it is on earlier lines
        while wide > room:  # a word longer than the line: pieces, each ending in a hyphen
            cut = (
                _syllable_cut(word, done, room, width, lang)
                if breaks == "syllables"
                else _even_cut(piece, wide, room, width)
            )
            if cut == 0:  # no syllable ends early enough
                return lines, False, tuple(added)
            added.append(len(lines))
            lines.append(piece[:cut] + HYPHEN)
            piece, done = piece[cut:], done + cut
            wide = width(piece)
            if len(lines) == most:
                return lines, False, tuple(added)
        current, used = [piece], wide
    if current:
        lines.append("".join(current))
    return lines, True, tuple(added)


def _even_cut(piece: str, wide: float, room: float, width: Callable[[str], float]) -> int:
    """Where to break ``piece`` (``wide`` at size 1) for lines of ``room``: into as few pieces
    as hold it, as even as can be, the hyphen fitting on each line."""
    hyphen = width(HYPHEN)
    parts = max(2, math.ceil(wide / max(room - hyphen, 1e-9)))
    share = wide / parts

    def hyphenated(part: str) -> float:
        return width(part + HYPHEN)

    cut = _longest_prefix(piece, min(room, share + hyphen), hyphenated)
    if cut + 1 < len(piece) and hyphenated(piece[: cut + 1]) <= room:
        over = width(piece[: cut + 1]) - share
        if over < share - width(piece[:cut]):  # one letter more is nearer an even share
            cut += 1
    return min(cut, len(piece) - 1) if len(piece) > 1 else 1


@lru_cache(maxsize=512)
def syllable_breaks(word: str, lang: str) -> tuple[int, ...]:
    """Where ``word`` may break between syllables, by ``lang``'s hyphenation patterns."""
    import pyphen  # type: ignore[import-untyped]  # only for a word too long for its line

    return tuple(pyphen.Pyphen(lang=lang if lang in pyphen.LANGUAGES else "en").positions(word))


def _syllable_cut(
    word: str, done: int, room: float, width: Callable[[str], float], lang: str
) -> int:
    """Where to break what is left of ``word`` after its first ``done`` characters: at the last
    syllable break (of the whole word) whose head and hyphen fit ``room``; 0 if none does."""
    fitting = [
        at - done
        for at in syllable_breaks(word, lang)
        if at > done and width(word[done:at] + HYPHEN) <= room
    ]
    return max(fitting, default=0)


def _cut(
    words: _Words,
    head: list[str],
    added: tuple[int, ...],
    width: float,
    size: float,
    measure: Measure,
) -> str:
    """The text left after the lines of ``head`` (those in ``added`` ending in a hyphen of
    their own), cut short with an ellipsis to fit ``width``."""
    text, at = words.text, 0
    for index, line in enumerate(head):
        at += len(line) - (1 if index in added else 0)
        if text[at : at + 1] == " ":
            at += 1
    rest = text[at:]

    def width_of(part: str) -> float:
        return measure(part.rstrip() + ELLIPSIS, size, words.bold)

    if not rest or width_of(rest[:1]) > width:
        return ELLIPSIS
    return rest[: _longest_prefix(rest, width, width_of)].rstrip() + ELLIPSIS


def _balanced(
    words: _Words,
    found: list[str],
    added: tuple[int, ...],
    width: float,
    size: float,
    measure: Measure,
    breaks: Breaks = "anywhere",
    lang: str = "en",
) -> Fitted:
    """The same number of lines, made as even as they can be: no word left alone on the last."""
    count = len(found)
    if count < 2:
        return Fitted(tuple(found), size, hyphens=added)
    # Never narrower than the widest word: evening out must not break a word that fitted.
    low, high = min(width, max(width / count, max(words.widths) * size)), width
    for _ in range(BALANCE_STEPS):
        middle = (low + high) / 2
        trial, whole, marks = _break(words, middle / size, count, measure, breaks, lang)
        if whole:
            high, found, added = middle, trial, marks
        else:
            low = middle
    return Fitted(tuple(found), size, hyphens=added)


@lru_cache(maxsize=2048)  # a batch of sheets fits the same reminder, goal and names again and again
def wrap(
    text: str,
    width: float,
    size: float,
    smallest: float,
    measure: Measure,
    *,
    bold: bool = False,
    lines: int = 1,
    breaks: Breaks = "anywhere",
    lang: str = "en",
    balance: bool = True,
) -> Fitted:
    """``text`` on at most ``lines`` lines of ``width``, at the largest size from ``size`` down to
    ``smallest`` (in half points) at which it fits whole; failing that, at ``smallest`` and cut
    short with an ellipsis. Its lines are made as even as they can be, unless not to
    ``balance`` (a footnote across the page fills each line but the last). ``breaks`` says
    where a word too long for a line may break: with "words" it does not fit (names:
    "Oberstaa-tsanwalt" is no way to write anybody's name), with "syllables" only between
    syllables by ``lang``'s hyphenation patterns."""
    flat = " ".join(_split(text))
    if not flat:
        return Fitted((), size)
    if measure(flat, size, bold) <= width:  # the common case: it fits on one line as it is
        return Fitted((flat,), size)
    words = _words(text, bold, measure)
    steps = max(0, int((size - smallest) / STEP + 1e-9))
    sizes = [size - STEP * n for n in range(steps + 1)]
    if sizes[-1] > smallest + 1e-9:
        sizes.append(smallest)

    def settled(found: list[str], added: tuple[int, ...], size: float) -> Fitted:
        if not balance:
            return Fitted(tuple(found), size, hyphens=added)
        return _balanced(words, found, added, width, size, measure, breaks, lang)

    found, whole, added = _break(words, width / sizes[0], lines, measure, breaks, lang)
    if whole:  # the common case: it fits as it is
        return settled(found, added, sizes[0])
    # Fitting only gets easier as the size shrinks: bisect for the first size that fits.
    low, high = 1, len(sizes)
    best: list[str] = []
    best_added: tuple[int, ...] = ()
    while low < high:
        middle = (low + high) // 2
        found, whole, added = _break(words, width / sizes[middle], lines, measure, breaks, lang)
        if whole:
            high, best, best_added = middle, found, added
        else:
            low = middle + 1
    if low < len(sizes):
        return settled(best, best_added, sizes[low])
    small = sizes[-1]
    found, _, added = _break(words, width / small, lines, measure)
    head = found[: lines - 1]
    added = tuple(index for index in added if index < len(head))
    last = _cut(words, head, added, width, small, measure)
    return Fitted((*head, last), small, cut=True, hyphens=added)


def fit(
    text: str, width: float, size: float, smallest: float, measure: Measure, bold: bool = False
) -> Fitted:
    """``text`` on one line of ``width``: shrunk down to ``smallest``, then cut short."""
    return wrap(text, width, size, smallest, measure, bold=bold, lines=1)


# Where wrap_whole lets a word break, tried in turn until the text fits.
BREAKS_IN_TURN: tuple[Breaks, ...] = ("words", "syllables", "anywhere")


def wrap_whole(
    text: str,
    width: float,
    size: float,
    smallest: float,
    measure: Measure,
    *,
    bold: bool = False,
    lines: int = 1,
    lang: str = "en",
    balance: bool = True,
) -> Fitted:
    """``wrap``, keeping every word whole if the text fits so at ``smallest``; else breaking
    a word too long for a line between syllables, and only failing that anywhere."""
    for breaks in BREAKS_IN_TURN:
        fitted = wrap(
            text,
            width,
            size,
            smallest,
            measure,
            bold=bold,
            lines=lines,
            breaks=breaks,
            lang=lang,
            balance=balance,
        )
        if not fitted.cut:
            break
    return fitted
