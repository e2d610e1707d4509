"""The booklet's HTML: chapters, worked examples and references, with one jinja2 Environment."""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape, unescape
from pathlib import Path
from typing import Any, NamedTuple

from jinja2 import Environment

from sheetgen import __version__
from sheetgen.booklet.context import build_context, day_words
from sheetgen.booklet.flow import CONTENTS_APART, PLAIN, Flow
from sheetgen.booklet.markdown import (
    ContentsEntry,
    first_heading,
    in_text_of_html,
    render_markdown,
)
from sheetgen.booklet.motif import fan_svg
from sheetgen.booklet.pictures import check_picture
from sheetgen.booklet.templating import evaluate, make_environment, render_string, render_template
from sheetgen.booklet.typography import american as american_spelling
from sheetgen.booklet.typography import typeset
from sheetgen.booklet.webfonts import embed_subsets, placeholder
from sheetgen.errors import GameDefinitionError
from sheetgen.fonts import font_files
from sheetgen.game.definition import GameDef, Section
from sheetgen.game.examples import lay_out, load_examples
from sheetgen.game.houserules import HouseRules
from sheetgen.game.language import ENGLISH, Language, written_in
from sheetgen.paper import LETTER, Paper
from sheetgen.resources import templates_dir

CREATOR = f"sheetgen {__version__}"
SHEET_SLOT = "score-sheet"
# What a game's sections may say in all, rendered: weasyprint sets about 15,000
# characters a second here, so a game folder cannot keep a booklet busy for minutes.
MAX_SECTIONS_TEXT = 100_000


class Figure(NamedTuple):
    """A drawn worked example: the SVG (its title is the alternative text) and its caption;
    for a screen also each pile drawn alone, and the alternative text to name them by."""

    svg: str
    caption: str
    # Printed after the section's own text, ahead of its first subsection (the example
    # shows that text, not the subsections').
    before_subsections: bool = False
    # On a screen the piles are set in a row that wraps onto lines on a narrow screen.
    piles: tuple[str, ...] = ()
    alt: str = ""
    # It shows the last items of the list it follows, and stays with them (the style sheet).
    with_list: bool = False


class Chapter(NamedTuple):
    """One rendered section of the booklet."""

    html: str
    headings: tuple[ContentsEntry, ...]
    own_page: bool = False
    picture: str | None = None
    examples: tuple[Figure, ...] = ()
    # For a screen, the table picture redrawn for a phone, if the game draws one.
    narrow_picture: str | None = None
    # Figures printed ahead of the chapter's first subsection, which ``rest`` holds, and
    # whether the table picture is one of them.
    early_examples: tuple[Figure, ...] = ()
    picture_first: bool = False
    rest: str = ""
    # A short chapter is kept on one page rather than split at a page foot.
    keep_together: bool = False


def booklet_environment(game: GameDef, lang: Language = ENGLISH) -> Environment:
    """The one Environment a booklet is rendered with: sheetgen's own templates first, so
    a game folder cannot replace the page around its text (and its Content-Security-
    Policy), then the game's sections (in ``lang``) and folder."""
    return make_environment(
        [templates_dir(), game.text_folder / "sections", game.folder],
        lang=lang,
        # game.folder was resolved once, when the game was loaded: resolved again here, a
        # folder swapped for a link to / in the meantime would make / the game's.
        bounds=[templates_dir().resolve(), game.folder, game.folder],
    )


def _chapters(
    env: Environment,
    game: GameDef,
    rules: HouseRules,
    context: Mapping[str, Any],
    extra: str | None,
    lang: Language,
) -> list[Chapter]:
    picture = narrow = None
    if game.picture:
        place = str(game.folder / game.picture)
        picture = check_picture(render_template(env, game.picture, context), place)
        if context.get("screen"):
            narrow = check_picture(
                render_template(env, game.picture, {**context, "narrow": True}), place
            )
            narrow = _own_ids(narrow, NARROW_IDS) if narrow != picture else None
    examples = _examples(env, game, rules.deck, context)
    chapters: list[Chapter] = []
    written = 0
    sections: list[Section] = list(game.sections)
    if not any(section.slot == "extra" for section in sections):
        sections.append(Section(file=None, slot="extra"))
    for number, section in enumerate(sections, start=1):
        if section.slot == "extra":
            if extra is not None:
                source = str(rules.extra or "--extra")
                chapters.append(_extra_chapter(extra, source, context["extra_title"], lang))
            continue
        if section.when and not evaluate(
            env, section.when, context, f"{game.folder / 'game.toml'}, sections {number}, when"
        ):
            continue
        assert section.file is not None
        text = render_template(env, section.file, context)
        written += len(text)
        if written > MAX_SECTIONS_TEXT:
            raise GameDefinitionError(
                f"a booklet's sections hold at most {MAX_SECTIONS_TEXT:,} characters in all "
                f"(the longest real booklet has about 11,000); these pass it at {section.file}",
                file=str(game.folder / "game.toml"),
            )
        rendered = render_markdown(text, id_prefix=f"s{number}")
        figures = examples.get(section.file, [])
        early = tuple(figure for figure in figures if figure.before_subsections)
        html, rest = rendered.html, ""
        # The chapter's heading is an h2 (under the booklet's h1 title); its first
        # subsection's, where the early figures go before, the first h3.
        if (early or section.picture == "first") and "<h3" in html:
            cut = html.index("<h3")
            html, rest = html[:cut], html[cut:]
        chapters.append(
            Chapter(
                html,
                rendered.headings,
                own_page=section.own_page,
                picture=picture if section.picture else None,
                narrow_picture=narrow if section.picture else None,
                picture_first=section.picture == "first",
                examples=tuple(figure for figure in figures if figure not in early),
                early_examples=early,
                rest=rest,
            )
        )
    return chapters


def _examples(
    env: Environment, game: GameDef, deck: str, context: Mapping[str, Any]
) -> dict[str, list[Figure]]:
    """The game's worked examples drawn as cards of this table's deck, by the section
    each follows; for a screen also pile by pile (see Figure)."""
    data = load_examples(game.folder, None if game.lang == "en" else game.text_folder)
    faces: dict[str, Any] = data["faces"].get(deck) or next(iter(data["faces"].values()), {})
    drawn: dict[str, list[Figure]] = {}
    place = str(game.text_folder / "examples.toml")
    for example in data["examples"]:
        piles = [
            {
                **pile,
                "label": [
                    render_string(env, line, context, place) for line in pile.get("label", [])
                ],
            }
            for pile in example["piles"]
        ]
        laid_out = lay_out(
            piles,
            faces,
            after=example["after"],
            alt=render_string(env, example["alt"], context, place),
            caption=render_string(env, example["caption"], context, place),
            hand=game.hand,
        )
        svg = check_picture(
            render_template(env, "cards.svg.j2", {"example": laid_out}), "cards.svg.j2"
        )
        early = bool(example.get("before_subsections", False))
        alone: tuple[str, ...] = ()
        if context.get("screen"):
            alone = tuple(
                check_picture(
                    render_template(env, "cards.svg.j2", {"example": laid_out, "alone": pile}),
                    "cards.svg.j2",
                )
                for pile in laid_out.alone()
            )
        drawn.setdefault(example["after"], []).append(
            Figure(
                svg, laid_out.caption, early, alone, laid_out.alt, example.get("with_list") is True
            )
        )
    return drawn


# The ids of a picture redrawn for a phone begin so, apart from the wide one's in the
# same page (a pattern named in a drawing the page hides is not drawn in the other).
NARROW_IDS = "narrow-"
_ID = re.compile(r'(\bid="|url\(#|href="#|aria-labelledby=")([^"\s)]+)')


def _own_ids(svg: str, prefix: str) -> str:
    """``svg`` with each id it defines, and each reference to one, begun with ``prefix``."""
    return _ID.sub(lambda found: f"{found.group(1)}{prefix}{found.group(2)}", svg)


def _motif(env: Environment, game: GameDef, deck: str, lang: Language) -> str:
    """The cover's fan of cards of this table's deck (sheetgen.booklet.motif), as the data
    URL of an image: the page's one picture that is not the game's own, so its words are
    not the booklet's text, and the table picture stays the page's first drawing."""
    data = load_examples(game.folder, None if game.lang == "en" else game.text_folder)
    faces: dict[str, Any] = data["faces"].get(deck) or next(iter(data["faces"].values()), {})
    svg = fan_svg(env, faces, lang._("A fan of five playing cards"))
    return MOTIF_URL + base64.b64encode(svg.encode("utf-8")).decode("ascii")


# How the cover's motif is given to the page (the PDF's fetcher serves exactly that).
MOTIF_URL = "data:image/svg+xml;base64,"


# Own rules up to this many characters (about a third of a page) are kept on one page.
SHORT_EXTRA = 1200


def _extra_chapter(extra: str, source: str, title: str, lang: Language = ENGLISH) -> Chapter:
    """The table's own rules as one chapter, titled by their first heading or ``title``
    ("Our own rules" in the booklet's language).

        A heading that opens the text becomes the chapter's title, and the others keep
        their depth below it; a heading as high as the title becomes a section of the
        chapter. Without an opening heading, the shallowest heading becomes a section.
    """
    first = first_heading(extra)
    if first is None:
        body, shift = extra, None
    else:
        title, body, shift = first.title, first.rest, 1 - first.level
    rendered = render_markdown(body, id_prefix="extra", shift=shift, floor=2, source=source)
    heading = ContentsEntry(1, "extra", title)
    # Text in another language than the booklet's is marked so: hyphenated by its own
    # patterns (or, English, not at all) and read aloud in its own voice.
    own = written_in(extra, lang)
    marked = f' lang="{own.code}"' if own != lang else ""
    opening = f'<h2 id="extra"{marked}>{escape(title)}</h2>\n'
    return Chapter(
        opening + (f"<div{marked}>{rendered.html}</div>" if marked else rendered.html),
        (heading, *rendered.headings),
        keep_together=len(body) <= SHORT_EXTRA,
    )


@dataclass(frozen=True)
class BookletText:
    """A booklet's text rendered once: its context, its one Environment and its chapters,
    ready to be set as a page of HTML in any flow and page size."""

    rules: HouseRules
    game: GameDef
    lang: Language
    screen: bool
    env: Environment
    context: dict[str, Any]
    chapters: list[Chapter]

    def html(
        self,
        paper: Paper,
        page_size_override: tuple[float, float] | None = None,
        flow: Flow = PLAIN,
    ) -> str:
        """The booklet as one HTML document, its pages of ``paper`` (or of the size given)
        and its running text set in ``flow``."""
        game, lang, screen = self.game, self.lang, self.screen
        width, height = page_size_override or paper.portrait
        page = {
            "width": width,
            "height": height,
            "sheet_width": paper.landscape[0],
            "sheet_height": paper.landscape[1],
        }
        definition = game.text_folder / "game.toml"
        # English is written in British spelling; on Letter paper a reader expects American.
        american = lang == ENGLISH and paper.name == LETTER.name
        agreed = self.context["agreed"]
        if american and self.rules.agreed is not None:
            agreed = day_words(self.rules.agreed, lang, american=True)
        html = render_template(
            self.env,
            "booklet.html.j2",
            {
                **self.context,
                "title": lang._("{game} rules").format(game=game.name),
                "creator": CREATOR,
                "chapters": self.chapters,
                "page": page,
                "fonts": {
                    face: _font_url(face, path, screen) for face, path in font_files().items()
                },
                "screen": screen,
                "picture_caption": render_string(
                    self.env, game.picture_caption, self.context, f"{definition}, picture_caption"
                ),
                "sheet_slot": SHEET_SLOT if self.rules.series and not screen else None,
                "spacing": flow.spacing,
                "page_breaks": flow.breaks,
                "near": flow.near,
                "notes_pages": flow.notes,
                "tail_lines": flow.tail,
                "back_in_flow": flow.back_in_flow,
                "back_closer": flow.back_closer,
                "contents_apart": CONTENTS_APART in flow.breaks,
                "suggestions_apart": flow.suggestions_apart,
                "motif": self.context["motif"] if flow.motif else None,
                "motif_height": MOTIF_HEIGHT,
                "motif_size": motif_size(flow.cover_room) if flow.cover_room else None,
                "file_pages": flow.pages,
                "agreed": agreed,
            },
        )
        html = _with_references(_long_first_items(_lead_ins(_kept_with_lists(html))), self.chapters)
        html = typeset(_with_breaks(html, lang), lang)
        if american:
            html = american_spelling(html)
        # A page for a screen carries its fonts, cut down to its own letters.
        return embed_subsets(html, font_files()) if screen else html


def booklet_text(
    rules: HouseRules,
    *,
    extra_markdown: str | None = None,
    screen: bool = False,
    lang: Language = ENGLISH,
) -> BookletText:
    """The booklet's text in ``lang``: the context built once, its sentences and chapters
    rendered with one Environment.

    With ``screen`` the text is for reading on a screen: the fonts go inside the page
    as data URLs, so it refers to nothing outside itself, and what is only for paper
    (the score sheet, the printing advice, page numbers) is left out.
    """
    game = lang.game(rules.definition)
    if extra_markdown is None:
        extra_markdown = rules.extra_text
    context = build_context(rules, extra_markdown, lang)
    context["screen"] = screen
    env = booklet_environment(game, lang)
    definition = game.text_folder / "game.toml"
    # The house-rules sentences first: the sections quote them too.
    context["differences"] = [
        render_string(env, game.house_rules[toggle], context, f"{definition}, {toggle}")
        for toggle in context["changed"]
    ]
    notes = [render_string(env, game.house_rules[toggle], context) for toggle in context["noted"]]
    notes += [render_string(env, line, context) for line in game.suggested]
    context["notes"] = [line for line in notes if line.strip()]
    context["picture_labels"] = {
        key: render_string(env, text, context, f"{definition}, picture_labels.{key}")
        for key, text in game.picture_labels.items()
    }
    context["motif"] = _motif(env, game, rules.deck, lang)
    chapters = _chapters(env, game, rules, context, extra_markdown, lang)
    return BookletText(rules, game, lang, screen, env, context, chapters)


def render_html(
    rules: HouseRules,
    *,
    paper: Paper,
    extra_markdown: str | None = None,
    page_size_override: tuple[float, float] | None = None,
    flow: Flow = PLAIN,
    screen: bool = False,
    lang: Language = ENGLISH,
) -> str:
    """The booklet as one HTML document in ``lang`` (fonts and styles from the package only).

    ``flow`` says how the running text is set on its pages (build_booklet measures the
    first layout and may ask for page breaks or another spacing); ``screen`` is as
    ``booklet_text`` says.
    """
    text = booklet_text(rules, extra_markdown=extra_markdown, screen=screen, lang=lang)
    return text.html(paper, page_size_override, flow)


# Text inside these elements is not read as running text: no soft hyphens there.
_NOT_RUNNING = ("head", "svg", "style", "title")
# A heading's title in quotes, as the running text refers to it: "Winning", „Gewinnen“.
_QUOTED = r"(&quot;|&#34;|“|„)({titles})(&quot;|&#34;|”|“)"
RIGHT_SINGLE = "\N{RIGHT SINGLE QUOTATION MARK}"
APOSTROPHES = f"(?:'|&#39;|&\\#x27;|{RIGHT_SINGLE})"


def _with_references(html: str, chapters: Sequence[Chapter]) -> str:
    """``html`` with each heading title the running text quotes ("see "Winning"") made a
    link to that heading; the printed booklet follows it with the page it is on, a
    screen shows a link."""

    def key(title: str) -> str:
        return " ".join(unescape(title).replace(RIGHT_SINGLE, "'").split())

    targets: dict[str, str] = {}
    for chapter in chapters:
        for entry in chapter.headings:
            targets.setdefault(key(entry.title), entry.id)
    if not targets:
        return html
    # An apostrophe in a title may stand escaped in the text, or already curly (print
    # review 34: "see “Our table’s rules”" had no page).
    titles = (
        r"\s+".join(re.escape(_escaped(word)) for word in title.split()).replace("'", APOSTROPHES)
        for title in sorted(targets, key=len, reverse=True)
    )
    quoted = re.compile(_QUOTED.format(titles="|".join(titles)))

    def link(found: re.Match[str]) -> str:
        target = targets[key(found.group(2))]
        # Inside brackets already, the page follows after a comma: (see "Penalties", page 7).
        kind = "xref in-brackets" if found.string.startswith(")", found.end()) else "xref"
        return f'<a class="{kind}" href="#{escape(target)}">{found.group(0)}</a>'

    skip = (*_NOT_RUNNING, "a", "h1", "h2", "h3", "h4")
    return in_text_of_html(html, lambda text: quoted.sub(link, text), skip=skip)


# The motif's height in inches, on a full page and on a folded booklet's half page (its
# corner indices, 14 of its 119 units, at 7 pt or more). A full page's is half as tall
# again as it was (print reviews 13 and 14: an inch tall over 2.5 in of white at the
# foot); every flat booklet's cover still holds what it held.
MOTIF_HEIGHT = (1.4, 0.92)
# On a folded booklet's cover with white under its box of choices (Flow.cover_room), the
# fan grows by this share of that white, to at most MOTIF_TALLEST inches, and stands in the
# middle of the rest, so that the box ends the page (print review 10: the lower third of
# the covers was empty, the fan an inch tall).
MOTIF_GROWTH = 0.5
MOTIF_TALLEST = 2.0


def motif_size(room: float) -> dict[str, str]:
    """The height of a folded cover's fan given ``room`` inches of white under its box, and
    the margins above and below it (the style sheet's own, -0.4em and 0.5em, plus half the
    white the fan leaves), as CSS lengths."""
    grown = min(MOTIF_HEIGHT[1] + MOTIF_GROWTH * room, MOTIF_TALLEST)
    white = (room - (grown - MOTIF_HEIGHT[1])) / 2
    return {
        "height": f"{grown:.3f}in",
        "above": f"calc({white:.3f}in - 0.4em)",
        "below": f"calc({white:.3f}in + 0.5em)",
    }


# A paragraph after a list that is at most this long (two lines) stays on the list's page.
SHORT_AFTER_LIST = 160
_AFTER_LIST = re.compile(r"(</[uo]l>\s*<p)(>(.*?)</p>)", re.DOTALL)


def _plain(fragment: str) -> str:
    """The words of an HTML fragment as read: its tags dropped, its entities read, one
    space between them."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _kept_with_lists(html: str) -> str:
    """``html`` with each short paragraph that follows a list marked ``follows-list``, which
    the style sheet keeps on the page of the list's last items (a one-line paragraph
    alone at the head of a page is cut off from the steps it belongs to)."""

    def mark(found: re.Match[str]) -> str:
        if len(_plain(found.group(3))) > SHORT_AFTER_LIST:
            return found.group(0)
        return f'{found.group(1)} class="follows-list"{found.group(2)}'

    return _AFTER_LIST.sub(mark, html)


# A list's first item longer than this (two lines at the widest measure, so three lines at
# least) may end a page without the second: the style sheet keeps a short one with it.
LONG_FIRST_ITEM = 150
_FIRST_ITEM = re.compile(r"(<[uo]l>\s*<li)>(.*?)</li>", re.DOTALL)


def _long_first_items(html: str) -> str:
    """``html`` with each list's first item of more than LONG_FIRST_ITEM characters marked
    ``long``: it may end a page alone, where a short one stays with the item after it
    (print review 42: a long first bullet broke two lines before its end rather than end
    the page, 42 pt short)."""

    def mark(found: re.Match[str]) -> str:
        if len(_plain(found.group(2))) <= LONG_FIRST_ITEM:
            return found.group(0)
        return f'{found.group(1)} class="long">{found.group(2)}</li>'

    return _FIRST_ITEM.sub(mark, html)


_BEFORE_LIST = re.compile(
    r"<p((?: class=\"[^\"]*\")?)>((?:(?!<p[ >]).)*?)</p>(?=\s*<(?:ul|ol|table)\b)", re.DOTALL
)


def _lead_ins(html: str) -> str:
    """``html`` with each paragraph that leads into the list or table after it (it ends in
    a colon) marked ``lead-in``, which the style sheet keeps with them; a paragraph that
    ends its sentence before a list or table is free to end a page (print review 11: the
    board game's "Die Sonderfelder" left a page a third empty)."""

    def mark(found: re.Match[str]) -> str:
        if not _plain(found.group(2)).endswith(":"):
            return found.group(0)
        classes = " ".join([*re.findall(r'"([^"]*)"', found.group(1)), "lead-in"]).strip()
        return f'<p class="{classes}">{found.group(2)}</p>'

    return _BEFORE_LIST.sub(mark, html)


def _escaped(text: str) -> str:
    """``text`` as markdown-it and jinja2 write it in HTML: ``&`` and angle brackets
    escaped, apostrophes as they are."""
    return escape(text, quote=False)


def _with_breaks(html: str, lang: Language) -> str:
    """The running text of ``html`` with the language's own breaks of long compounds."""
    if not lang.counting.breaks:
        return html
    return in_text_of_html(html, lang.counting.soft_hyphens, skip=_NOT_RUNNING)


def _font_url(face: str, path: Path, inside: bool) -> str:
    """The font's file URL, or for a page that stands alone a placeholder for the font
    itself, cut to the page's letters (``embed_subsets``)."""
    return placeholder(face) if inside else path.as_uri()
