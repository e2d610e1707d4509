"""The booklet's running text as a typesetter sets it: the language's quotation marks and
apostrophes for the straight ones, the game's brand never broken across a line, and on
Letter paper American spelling."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from sheetgen.booklet.markdown import NO_BREAK_SPACE, SHORT_WORDS, in_text_of_html
from sheetgen.game.language import LOCALE_DIR, Language
from sheetgen.tomlfile import load_toml, read_toml_text

# British words and their American spelling, for English documents on Letter paper.
AMERICAN = LOCALE_DIR / "en" / "american.toml"

# Text inside these elements is left exactly as written.
_VERBATIM = frozenset({"style", "code", "pre", "script"})
# Text inside these is not running text: its marks are set, but no markup is added to it.
_NOT_RUNNING = frozenset({"head", "svg", "title"})
# A straight mark as the Markdown renderer or jinja2's escaping may write it.
_DOUBLE = r'"|&quot;|&#34;|&#x22;'
_SINGLE = r"'|&#39;|&#x27;|&apos;"
_MARK = re.compile(rf"({_DOUBLE})|({_SINGLE})")
# After these (or at the start) a mark opens a quotation; after anything else it closes one.
_OPENS_AFTER = " \t\n([{\N{EM DASH}\N{EN DASH}/\N{NO-BREAK SPACE}"
# What reads as code in running text: escaped markup, or jinja2's own delimiters.
# (One group: splitting running text by it puts the code at every odd place.)
_TYPED_CODE = re.compile(r"(&lt;.*&gt;|\{%.*?%\}|\{\{.*?\}\})", re.S)
# A tag of these starts or ends a block: a mark right after it opens.
_BLOCKS = frozenset(
    {"p", "li", "ul", "ol", "div", "br", "td", "th", "tr", "table", "figcaption", "figure",
     "section", "blockquote", "dd", "dt", "dl", "main", "header", "footer", "nav", "body",
     "h1", "h2", "h3", "h4", "h5", "h6"}
)  # fmt: skip
# A name hyphenated with a capital on both sides, written as one word on a line: Skip-Bo,
# SKIP-BO, and the compounds made with it (SKIP-BO-Karte keeps its own break after "BO-").
# The article or number before it stays with it (the span holds both: weasyprint breaks a
# line badly at a no-break space before a no-wrap span).
BRAND = re.compile(
    r"((?<![\w\-])(?:\d+|" + "|".join(SHORT_WORDS) + r")\s)?\b(Skip-Bo|SKIP-BO)\b",
    re.IGNORECASE,
)


def _text_runs(html: str) -> Iterator[tuple[str, str]]:
    """Each piece of ``html`` with what it is: "tag", "verbatim" text, "marks" only (a
    picture's words, a title) or "running" text."""
    parts = re.split(r"(<[^>]*>)", html)
    verbatim = not_running = 0
    for part in parts:
        tag = re.match(r"<(/?)(\w+)", part)
        if tag:
            step = -1 if tag.group(1) else 0 if part.endswith("/>") else 1
            name = tag.group(2).lower()
            verbatim += step if name in _VERBATIM else 0
            not_running += step if name in _NOT_RUNNING else 0
            yield part, "tag"
        elif verbatim or not part:
            yield part, "verbatim"
        else:
            yield part, "marks" if not_running else "running"


def typeset(html: str, lang: Language) -> str:
    """``html`` with the straight quotes and apostrophes of its text (pictures and titles
    too) made the language's marks (English “…” ‘…’ ’, German „…“ ‚…‘ ’), and every brand
    name in its running text kept whole on its line. A mark opens after a space, a bracket
    or a dash (or at the start) and closes elsewhere, looking across tags:
    ``"<a>Winning</a>"`` is “Winning”."""
    opening, closing, inner_opening, inner_closing = lang.counting.quotes
    pieces: list[str] = []
    before = " "
    for part, kind in _text_runs(html):
        if kind in ("tag", "verbatim"):
            pieces.append(part)
            tag = re.match(r"</?(\w+)", part)
            if kind == "verbatim" or (tag and tag.group(1).lower() in _BLOCKS | _NOT_RUNNING):
                before = " "
            continue

        def mark(found: re.Match[str], text: str = part, before: str = before) -> str:
            start = found.start()
            previous = text[start - 1] if start else before
            if previous == ";":  # the end of an entity: &amp; and the like
                previous = "x"
            opens = previous in _OPENS_AFTER
            if found.group(1):
                return opening if opens else closing
            if previous.isalnum():
                return "\N{RIGHT SINGLE QUOTATION MARK}"  # an apostrophe: it's, geht's
            return inner_opening if opens else inner_closing

        # Markup or template code a table typed into its own rules (<img src="...">,
        # {% include "x" %}) prints as typed.
        text = "".join(
            piece if index % 2 else _MARK.sub(mark, piece)
            for index, piece in enumerate(_TYPED_CODE.split(part))
        )
        if kind == "running":
            text = BRAND.sub(r'<span class="brand">\1\2</span>', text)
        pieces.append(text)
        before = part[-1]
    return "".join(pieces)


_BRAND_SPAN = re.compile(r'<span class="brand">([^<]*)</span>')


def brands_joined(html: str) -> str:
    """``html`` for print with each brand span (``typeset``) made plain text that no line
    breaks inside: word joiners round its hyphen and a no-break space before it. Weasyprint
    mis-breaks lines round a no-wrap span: with hyphenation on, a line before one was once
    cut at its first hyphenation point ("Schachtel. Sie ent-" alone on a line)."""

    def joined(found: re.Match[str]) -> str:
        words = found.group(1).replace(" ", "\N{NO-BREAK SPACE}")
        return words.replace("-", "\N{WORD JOINER}-\N{WORD JOINER}")

    return _BRAND_SPAN.sub(joined, html)


# The last word of a paragraph, list item or caption (letters, and the soft hyphens of its
# compound's joints), with what closes the sentence, and a range of numbers (1–12).
# The word is text: not a tag's name (<p><strong>Each turn.</strong></p> ends in a tag).
_LAST_WORD = re.compile(
    r"(?<![\w</\xad])([^\W\d_][^\W\d_\xad]*(?:\xad[^\W\d_]+)+|[^\W\d_]{4,})"
    r"([^\w<>]*</(?:p|li|figcaption)>)"
)
_RANGE = re.compile(r"(?<=\d)([\u2013-])(?=\d)")
# A number joined to its word by a hyphen ("54-card", "3-Spieler"): never broken there.
_NUMBER_WORD = re.compile(r"(?<=\d)-(?=[^\W\d_])")
# A compound whose first part is a short word ("one-sided"): never broken after it (print
# review 35: "the last one- / sided" read as "the last one").
_SHORT_HEAD = re.compile(r"(?<![\w-])([^\W\d_]{1,3})-(?=[^\W\d_])")
# The space after a colon inside a sentence ("This booklet suggests: a king beats"): a
# no-break space, so that no line ends in a colon that reads as a lead-in to the next page.
_AFTER_COLON = re.compile(r"(?<=[^\W\d_]):[ \n](?=\w)")
# The space before a paragraph's, list item's or caption's last word where that word is
# short, or a number: a no-break space there, so that no line holds one short word alone
# ("from.", print review 13: "500.").
_RUNT = re.compile(
    r"(?<=[^\W_])[ \n](?=(?:[^\W\d_]{1,10}|\d{1,4})[^\w<>\s]*</(?:p|li|figcaption)>)"
)
_JOINER = "\N{WORD JOINER}"
# A tag in the booklet's HTML, as ``untied`` passes over it.
_TAG = "<[^<>]*>"


def _kept_whole(word: str) -> str:
    """``word`` never broken: word joiners between its letters, its soft hyphens dropped."""
    return _JOINER.join(word.replace("\xad", ""))


# A folded booklet's back cover, however it is set (``closer`` too): its quick reference is
# fitted to that one page as it is set, so the typography of running text leaves it alone.
_BACK_COVER = '<section class="chapter back-cover'


def _back_cover(html: str) -> tuple[int, int]:
    """Where a folded booklet's back cover stands in ``html`` (its start and end), or an
    empty span at the end if it has none."""
    start = html.find(_BACK_COVER) if '<body class="folded' in html else -1
    end = html.find("</section>", start) if start >= 0 else -1
    return (start, end) if end >= 0 else (len(html), len(html))


def whole_last_words(html: str) -> str:
    """``html`` for print with the last word of each paragraph, list item and caption kept
    whole (no hyphen leaves a fragment alone on the last line: "loszuwer-|den.") and, if it
    is short, with the word before it (no last line of one short word); and a range of
    numbers never broken at its dash ("9–|12"): word joiners between their letters, which
    no line breaks at and the hyphenation patterns do not read as a word, nor at the hyphen
    of "54-card" or "one-sided"; and a colon inside a sentence kept with the word after it."""

    def ends(part: str) -> str:
        return _LAST_WORD.sub(whole, _RUNT.sub(NO_BREAK_SPACE, part))

    def whole(found: re.Match[str]) -> str:
        return _kept_whole(found.group(1)) + found.group(2)

    def text(part: str) -> str:
        part = _AFTER_COLON.sub(":" + NO_BREAK_SPACE, part)
        part = _NUMBER_WORD.sub("-" + _JOINER, part)
        part = _SHORT_HEAD.sub(r"\1-" + _JOINER, part)
        return _RANGE.sub(lambda found: _JOINER + found.group(1) + _JOINER, part)

    start, end = _back_cover(html)
    html = ends(html[:start]) + html[start:end] + ends(html[end:])
    return in_text_of_html(html, text, skip=tuple(_NOT_RUNNING))


def american(html: str) -> str:
    """``html`` with its words in American spelling (color, center) and its commas and full
    stops inside closing quotes, running text, titles and pictures alike; what a style
    sheet or code holds is left as it is."""
    pattern, words = _american_words()

    def respell(found: re.Match[str]) -> str:
        word = found.group(0)
        spelled = words[word.lower()]
        if word.isupper():
            return spelled.upper()
        return spelled.capitalize() if word[0].isupper() else spelled

    def american_text(text: str) -> str:
        # A US reader's comma and full stop stand inside the closing quote (print review
        # 35: “fit to page”, in every Letter booklet).
        return _OUTSIDE_QUOTE.sub(r"\1”", pattern.sub(respell, text))

    return in_text_of_html(html, american_text, skip=("style", "script", "code", "pre"))


_OUTSIDE_QUOTE = re.compile(r"”([.,])")


@cache
def _american_words() -> tuple[re.Pattern[str], dict[str, str]]:
    words = {
        str(british).lower(): str(spelled)
        for british, spelled in load_toml(read_toml_text(AMERICAN))["words"].items()
    }
    alternatives = "|".join(sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE), words


def unbroken(html: str, words: tuple[str, ...]) -> str:
    """``html`` with each of ``words`` never hyphenated in its running text: word joiners
    between its letters (its soft hyphens dropped), as ``whole_last_words`` keeps a
    paragraph's last word."""
    if not words:
        return html
    found = re.compile(
        "|".join(r"(?<!\w)" + "\xad?".join(map(re.escape, word)) + r"(?!\w)" for word in words)
    )

    def text(part: str) -> str:
        return found.sub(lambda hit: _kept_whole(hit.group(0)), part)

    return in_text_of_html(html, text, skip=tuple(_NOT_RUNNING))


def untied(html: str, ties: tuple[tuple[str, ...], ...]) -> str:
    """``html`` with each of ``ties`` loosened: words in a row, the last two tied by a
    no-break space (``tie_short_words``, or the one after a colon), which becomes a plain
    one, so that the short word before it may end a line (``flow.ragged_ties``). The words
    are read as the layout set them: a tag may stand inside one or between two (a
    reference's link, a bold run-in head), and joiners or soft hyphens inside one."""
    if not ties:
        return html
    inside = f"(?:[\xad\u2060]|{_TAG})*"

    def spelled(word: str) -> str:
        return inside.join(map(re.escape, word))

    edge = "[\\w\xad\u2060]"
    between = f"(?:[ \n{NO_BREAK_SPACE}]|{_TAG})+"
    # Not on a folded booklet's back cover (its quick reference may repeat a sentence of
    # the text).
    start, end = _back_cover(html)
    parts = [html[:start], html[end:]]
    for words in ties:
        tie = re.compile(
            f"(?<!{edge})({between.join(map(spelled, words[:-1]))}{inside})"
            f"{NO_BREAK_SPACE}(?={inside}{spelled(words[-1])}(?!{edge}))"
        )
        parts = [tie.sub(lambda hit: hit.group(1) + " ", part) for part in parts]
    return parts[0] + html[start:end] + parts[1]
