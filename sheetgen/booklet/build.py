"""The rules booklet: house rules -> context -> HTML -> PDF, with the score sheet last.

``rules_document`` is the one way in: the booklet in the layout and format
asked for. ``build_context`` derives every value the text needs (the deal, the
most a game can pay, a worked example scored by sheetgen.game.scoring) as plain
data; ``render_html`` renders the game's sections, its sentences and the
shared templates with one jinja2 Environment; ``build_booklet`` turns the HTML
into a PDF with weasyprint, which may fetch only the package's own templates
and fonts, and lays the blank score sheet onto the last page.
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape, unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from jinja2 import Environment

from sheetgen import __version__
from sheetgen.booklet.markdown import (
    ContentsEntry,
    first_heading,
    in_text_of_html,
    render_markdown,
    tie_short_words_in_html,
)
from sheetgen.booklet.pictures import check_picture
from sheetgen.booklet.templating import evaluate, make_environment, render_string, render_template
from sheetgen.errors import ChoiceError
from sheetgen.fonts import font_files
from sheetgen.game.definition import TEAM_SIZE, GameDef, Section
from sheetgen.game.examples import lay_out, load_examples
from sheetgen.game.houserules import HouseRules, differences, official_of
from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoring import Game, ScoringRules, game_points, max_points
from sheetgen.game.seating import Table, deal, make_table
from sheetgen.game.wording import caption, outcome
from sheetgen.paper import Paper
from sheetgen.preview import in_format
from sheetgen.resources import fonts_dir, templates_dir

if TYPE_CHECKING:
    from sheetgen.booklet.compiledcache import KeptResults

CREATOR = f"sheetgen {__version__}"
LAYOUTS = ("pages", "booklet")
FORMATS = ("pdf", "png", "html")
# Share of a full stock pile each loser still holds in the worked example.
EXAMPLE_SHARES = (0.25, 0.4, 0.1, 0.5, 0.3)
SHEET_SLOT = "score-sheet"
# Every page of running text is at least a quarter full, measured on the glyphs; lines as
# laid out stand a little taller than their glyphs, hence 0.28 of the page's height here.
# When the first layout leaves a page emptier, the second is set from its measurements
# (see refit); only if that fails too is the booklet set tighter or looser, in this
# order, and the result whose emptiest page is fullest kept.
MIN_FILL = 0.28
SPACINGS = ("", "tight", "loose", "tighter", "looser")
# A page moved by refit is planned this much fuller than MIN_FILL, for what the
# measurements cannot see (the margin above a heading that now starts a page).
FILL_SAFETY = 0.05
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
log = logging.getLogger(__name__)


class Flow(NamedTuple):
    """How the running text is set on its pages, beyond the style sheet."""

    # One of SPACINGS: how tightly the running text is set.
    spacing: str = ""
    # CSS selectors of elements that start a page.
    breaks: tuple[str, ...] = ()


PLAIN = Flow()


class Figure(NamedTuple):
    """A drawn worked example: the SVG (its title is the alternative text) and its caption."""

    svg: str
    caption: str
    # Printed after the section's own text, ahead of its first subsection (the example
    # shows that text, not the subsections').
    before_subsections: bool = False


class Chapter(NamedTuple):
    """One rendered section of the booklet."""

    html: str
    headings: tuple[ContentsEntry, ...]
    own_page: bool = False
    picture: str | None = None
    examples: tuple[Figure, ...] = ()
    # Figures printed ahead of the chapter's first subsection, which ``rest`` holds.
    early_examples: tuple[Figure, ...] = ()
    rest: str = ""
    # A short chapter is kept on one page rather than split at a page foot.
    keep_together: bool = False


def _example_table(rules: HouseRules, lang: Language) -> Table:
    known = lang.counting.example_names or ENGLISH.counting.example_names
    names = [known[n] if n < len(known) else f"Player {n + 1}" for n in range(rules.players)]
    teams = None
    if rules.partnerships:
        count = rules.players // TEAM_SIZE
        # Lettered as the score sheet heads its team columns.
        teams = {caption(True, k + 1, lang): [names[k], names[k + count]] for k in range(count)}
    return make_table(names, stock=rules.stock, teams=teams, game=rules.definition, deck=rules.deck)


def _example(table: Table, scoring: ScoringRules) -> dict[str, Any]:
    winner = table.sides[0]
    winners = table.members(winner)
    losers = [player for player in table.players if player not in winners]
    left = {player: 0 for player in winners}
    for index, player in enumerate(losers):
        share = EXAMPLE_SHARES[index % len(EXAMPLE_SHARES)]
        left[player] = min(table.stock, max(1, round(table.stock * share)))
    points = game_points(table, Game(winner=winner, left=left), scoring)
    rows = [
        {
            "player": player,
            "side": table.side_of(player),
            "left": left[player],
            "points": left[player] if scoring.cards_left else left[player] * scoring.per_card,
        }
        for player in losers
    ]
    return {
        "winner": winner,
        "rows": rows,
        "cards": sum(left[player] for player in losers),
        "card_points": points - scoring.bonus,
        "points": points,
        "games_to_target": math.ceil(scoring.target / points) if points else 0,
    }


# The table picture: seats along the near and far edges, each seat SEAT_WIDTH wide.
SEAT_WIDTH = 262
SEAT_GAP = 24
PICTURE_WIDTH = 880


def _seats(table: Table) -> list[dict[str, Any]]:
    """Where each player sits in the table picture, clockwise from the near edge.

    Half the players (rounded up) sit along the near edge, the rest along the far
    edge; seen from above, clockwise runs right to left along the near edge and
    left to right along the far one. ``x`` is the left end of the seat's row of piles.
    """
    count = len(table.players)
    near = (count + 1) // 2
    rows = (("near", table.players[:near][::-1]), ("far", table.players[near:]))
    seats = []
    for row, players in rows:
        span = len(players) * SEAT_WIDTH + (len(players) - 1) * SEAT_GAP
        start = (PICTURE_WIDTH - span) / 2
        for index, player in enumerate(players):
            seats.append(
                {
                    "name": player,
                    "team": table.side_of(player) if table.partnership else "",
                    "row": row,
                    "x": start + index * (SEAT_WIDTH + SEAT_GAP),
                }
            )
    return seats


def _others_piles(rules: HouseRules, teams: int, lang: Language) -> str:
    """Whose piles the winner counts: "the other team's stock piles", "the other player's ..."."""
    _ = lang._
    words = lang.game(rules.definition).words
    stock, stocks = words.get("stock", "stock pile"), words.get("stocks", "stock piles")
    if teams:
        other = _("the other team's {stocks}") if teams == 2 else _("the other teams' {stocks}")
    elif rules.players == 2:
        other = _("the other player's {stock}")
    else:
        other = _("the other players' {stocks}")
    return other.format(stock=stock, stocks=stocks)


def extra_title(markdown: str | None, lang: Language = ENGLISH) -> str:
    """The title of the table's own rules: their first heading, else "Our own rules"."""
    first = first_heading(markdown) if markdown is not None else None
    return first.title if first is not None else lang._("Our own rules")


def game_view(game: GameDef) -> dict[str, Any]:
    """What a template may read of a game: its facts and words, nothing of its folder."""
    return {
        "id": game.id,
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "player_span": game.player_span,
        "hand": game.hand,
        "words": game.words,
        "official_stock": game.official_stock,
        "short_stock": game.short_stock,
        "decks": game.decks,
        "partnership_players": game.partnership_players,
        "laid_out": game.laid_out,
        "draw_left": game.draw_left,
        "standard_rules": game.standard_rules,
        "bonus": game.bonus,
        "per_card": game.per_card,
        "target": game.target,
        "toggles": sorted(game.toggles),
        "lang": game.lang,
    }


def rules_view(rules: HouseRules) -> dict[str, Any]:
    """What a template may read of a table's rules: the values, and every toggle the game
    declares by its name with ``_`` for ``-`` (``rules.first_player``)."""
    return {
        **{key.replace("-", "_"): value for key, value in rules.toggles.items()},
        "game": rules.game,
        "players": rules.players,
        "stock": rules.stock,
        "deck": rules.deck,
        "partnerships": rules.partnerships,
        "series": rules.series,
        "scoring": rules.scoring,
        "target": rules.target,
        "bonus": rules.bonus,
        "per_card": rules.per_card,
        "games_to_play": rules.games_to_play,
        "extra": rules.extra is not None,
    }


def build_context(
    rules: HouseRules, extra_markdown: str | None = None, lang: Language = ENGLISH
) -> dict[str, Any]:
    """Every value the templates may use, derived from the validated house rules, with the
    game's prose in ``lang``.

    ``extra_markdown`` is the table's own rules (``rules.extra_text`` when not
    given); only their title is used here, so the house-rules box can point to it.
    """
    game = lang.game(rules.definition)
    if extra_markdown is None:
        extra_markdown = rules.extra_text
    deck = game.deck(rules.deck)
    dealt = deal(rules.players, rules.stock, game=game, deck=deck.id)
    table = _example_table(rules, lang)
    scoring = rules.scoring
    context: dict[str, Any] = {
        "game": game_view(game),
        "words": {**game.words, **deck.words},
        "rules": rules_view(rules),
        "official": rules_view(official_of(rules)),
        "deck": deck,
        "deal": {
            "players": rules.players,
            "stock": dealt.stock,
            "dealt": dealt.dealt,
            "draw_pile": dealt.draw_pile,
            "after_hands": dealt.after_hands,
            "laid_out": dealt.laid_out,
        },
        "teams": len(table.teams),
        "side": lang._("team") if table.teams else lang._("player"),
        "others_piles": _others_piles(rules, len(table.teams), lang),
        "extra_title": extra_title(extra_markdown, lang),
        "lang": lang.code,
        "quotes": lang.counting.quotes,
        "screen": False,
        "scoring": {
            "way": scoring.way,
            "cards_left": scoring.cards_left,
            "bonus": scoring.bonus,
            "per_card": scoring.per_card,
            "target": scoring.target,
            "games_to_play": scoring.games_to_play,
            "outcome": outcome(scoring, lang),
            "max_points": max_points(table, scoring),
        },
        "example": _example(table, scoring) if rules.series else None,
        "seats": _seats(table),
        "changed": differences(rules),
    }
    # The box lists own rules handed in directly (not through the house rules) with the
    # house rules; where the sources disagree and the table kept the official choice,
    # it says so as a note.
    listed = set(context["changed"])
    if extra_markdown is not None:
        listed.add("extra")
    context["changed"] = [toggle for toggle in game.house_rules if toggle in listed]
    context["noted"] = [
        toggle for toggle in game.house_rules if toggle in game.disputed and toggle not in listed
    ]
    return context


def booklet_environment(game: GameDef, lang: Language = ENGLISH) -> Environment:
    """The one Environment a booklet is rendered with: the game's sections (in ``lang``)
    and folder first, then the shared templates."""
    return make_environment(
        [game.text_folder / "sections", game.folder, templates_dir()], lang=lang
    )


def _chapters(
    env: Environment,
    game: GameDef,
    rules: HouseRules,
    context: Mapping[str, Any],
    extra: str | None,
    lang: Language,
) -> list[Chapter]:
    picture = None
    if game.picture:
        picture = check_picture(
            render_template(env, game.picture, context), str(game.folder / game.picture)
        )
    examples = _examples(env, game, rules.deck, context)
    chapters: list[Chapter] = []
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
        rendered = render_markdown(text, id_prefix=f"s{number}")
        figures = examples.get(section.file, [])
        early = tuple(figure for figure in figures if figure.before_subsections)
        html, rest = rendered.html, ""
        if early and "<h2" in html:
            cut = html.index("<h2")
            html, rest = html[:cut], html[cut:]
        chapters.append(
            Chapter(
                html,
                rendered.headings,
                own_page=section.own_page,
                picture=picture if section.picture else None,
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
    each follows."""
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
        )
        svg = check_picture(
            render_template(env, "cards.svg.j2", {"example": laid_out}), "cards.svg.j2"
        )
        early = bool(example.get("before_subsections", False))
        drawn.setdefault(example["after"], []).append(Figure(svg, laid_out.caption, early))
    return drawn


# Own rules up to this many characters (about a third of a page) are kept on one page.
SHORT_EXTRA = 1200


def _extra_chapter(extra: str, source: str, title: str, lang: Language = ENGLISH) -> Chapter:
    """The table's own rules as one chapter, titled by their first heading or ``title``
    ("Our own rules" in the booklet's language), their straight quotes made the language's.

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
    opening = f'<h1 id="extra">{escape(title)}</h1>\n'
    return Chapter(
        opening
        + (
            lang.counting.smart_quotes(rendered.html)
            if lang.counting.own_rules_quotes
            else rendered.html
        ),
        (heading, *rendered.headings),
        keep_together=len(body) <= SHORT_EXTRA,
    )


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
    first layout and may ask for page breaks or another spacing). With
    ``screen`` the page is for reading on a screen: the fonts are inside it as data
    URLs, so it refers to nothing outside itself, and what is only for paper (the
    score sheet, the printing advice, page numbers) is left out.
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
    chapters = _chapters(env, game, rules, context, extra_markdown, lang)
    width, height = page_size_override or paper.portrait
    page = {
        "width": width,
        "height": height,
        "sheet_width": paper.landscape[0],
        "sheet_height": paper.landscape[1],
    }
    html = render_template(
        env,
        "booklet.html.j2",
        {
            **context,
            "title": lang._("{game} rules").format(game=game.name),
            "creator": CREATOR,
            "chapters": chapters,
            "page": page,
            "fonts": {face: _font_url(path, screen) for face, path in font_files().items()},
            "screen": screen,
            "picture_alt": render_string(
                env, game.picture_alt, context, f"{definition}, picture_alt"
            ),
            "sheet_slot": SHEET_SLOT if rules.series and not screen else None,
            "spacing": flow.spacing,
            "page_breaks": flow.breaks,
        },
    )
    return _with_breaks(_with_references(html, chapters), lang)


# Text inside these elements is not read as running text: no soft hyphens there.
_NOT_RUNNING = ("head", "svg", "style", "title")
# A heading's title in quotes, as the running text refers to it: "Winning", „Gewinnen“.
_QUOTED = r"(&quot;|&#34;|“|„)({titles})(&quot;|&#34;|”|“)"


def _with_references(html: str, chapters: Sequence[Chapter]) -> str:
    """``html`` with each heading title the running text quotes ("see "Winning"") made a
    link to that heading; the printed booklet follows it with the page it is on, a
    screen shows a link."""
    targets: dict[str, str] = {}
    for chapter in chapters:
        for entry in chapter.headings:
            targets.setdefault(" ".join(entry.title.split()), entry.id)
    if not targets:
        return html
    titles = (
        r"\s+".join(re.escape(_escaped(word)) for word in title.split())
        for title in sorted(targets, key=len, reverse=True)
    )
    quoted = re.compile(_QUOTED.format(titles="|".join(titles)))

    def link(found: re.Match[str]) -> str:
        target = targets[" ".join(unescape(found.group(2)).split())]
        # Inside brackets already, the page follows after a comma: (see "Penalties", page 7).
        kind = "xref in-brackets" if found.string.startswith(")", found.end()) else "xref"
        return f'<a class="{kind}" href="#{escape(target)}">{found.group(0)}</a>'

    skip = (*_NOT_RUNNING, "a", "h1", "h2", "h3", "h4")
    return in_text_of_html(html, lambda text: quoted.sub(link, text), skip=skip)


def _escaped(text: str) -> str:
    """``text`` as markdown-it and jinja2 write it in HTML: ``&`` and angle brackets
    escaped, apostrophes as they are."""
    return escape(text, quote=False)


def _with_breaks(html: str, lang: Language) -> str:
    """The running text of ``html`` with the language's own breaks of long compounds."""
    if not lang.counting.breaks:
        return html
    return in_text_of_html(html, lang.counting.soft_hyphens, skip=_NOT_RUNNING)


def _font_url(path: Path, inside: bool) -> str:
    """The font's file URL, or the font itself as a data URL for a page that stands alone."""
    if not inside:
        return path.as_uri()
    import base64

    return "data:font/ttf;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _allowed_roots() -> tuple[Path, ...]:
    return (templates_dir().resolve(), fonts_dir().resolve())


def asset_path(url: str) -> Path:
    """The package file a URL names; anything outside the package's assets is refused."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    if parsed.scheme != "file":
        raise PermissionError(f"sheetgen fetches nothing from {url}")
    path = Path(unquote(parsed.path)).resolve()
    if not any(path.is_relative_to(root) for root in _allowed_roots()) or not path.is_file():
        raise PermissionError(f"sheetgen fetches nothing from {url}")
    return path


def _fetcher() -> Any:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class AssetFetcher(URLFetcher):  # type: ignore[misc]
        """Serves the package's own templates and fonts, refuses every other URL."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            path = asset_path(url)
            return URLFetcherResponse(url, path.read_bytes(), status=200)

    return AssetFetcher()


class _Block(NamedTuple):
    """A block of a chapter (a heading, paragraph, list, table or figure) that starts on a
    page: where its first line stands, as a share of the page's height."""

    selector: str
    top: float
    heading: bool
    # Whether a page may start here: not after a heading or a lead-in it belongs to, nor
    # inside a chapter kept on one page.
    breakable: bool


@dataclass
class _Page:
    """One page of the running text as laid out: its lines (as shares of its height, top
    and bottom) and the chapter blocks that start on it."""

    cover: bool
    lines: list[tuple[float, float]] = field(default_factory=list)
    starts: list[_Block] = field(default_factory=list)

    @property
    def top(self) -> float:
        return min(start for start, _ in self.lines)

    @property
    def bottom(self) -> float:
        return max(end for _, end in self.lines)

    @property
    def fill(self) -> float:
        return self.bottom - self.top


def _measure(html: Any, document: Any) -> list[_Page]:
    """The pages of running text of a laid-out booklet, in order (the back cover and the
    score sheet, which stand alone by design, are left out, as are page numbers)."""
    from weasyprint.formatting_structure import boxes

    body = next(child for child in html.etree_element if child.tag == "body")
    sections = [child for child in body if isinstance(child.tag, str)]
    # Each block of a chapter: its selector, and whether a page may start before it.
    blocks: dict[Any, tuple[str, bool]] = {}
    for number, section in enumerate(sections, start=1):
        classes = (section.get("class") or "").split()
        if "chapter" not in classes or "back-cover" in classes:
            continue
        children = [child for child in section if isinstance(child.tag, str)]
        for index, child in enumerate(children):
            before = children[index - 1].tag if index else None
            lead_in = before == "p" and child.tag in ("ul", "ol", "table")
            breakable = "keep-together" not in classes and before not in HEADINGS and not lead_in
            selector = f"body > :nth-child({number}) > :nth-child({index + 1})"
            blocks[child] = (selector, breakable)
    cover = sections[0] if sections and "cover" in (sections[0].get("class") or "") else None

    def walk(box: Any, block: Any, page: _Page, tops: dict[Any, float], height: float) -> None:
        """Record the lines of ``box`` on ``page``, and where each chapter block's first
        line stands."""
        if isinstance(box, boxes.MarginBox):
            return
        if cover is not None and box.element is cover:
            page.cover = True
        if box.element in blocks:
            block = box.element
        if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)) or box.element_tag == "svg":
            start = box.position_y / height
            page.lines.append((start, start + box.margin_height() / height))
            if block is not None:
                tops[block] = min(tops.get(block, start), start)
            return
        for child in getattr(box, "children", ()):
            walk(child, block, page, tops, height)

    seen: set[Any] = set()
    pages = []
    for laid in document.pages:
        if laid._page_box.page_type.name in ("back", "sheet"):
            continue
        page = _Page(cover=False)
        tops: dict[Any, float] = {}
        walk(laid._page_box, None, page, tops, laid.height)
        if not page.lines:
            continue
        for element, top in tops.items():
            if element not in seen:  # a block that began on an earlier page goes on here
                selector, breakable = blocks[element]
                page.starts.append(_Block(selector, top, element.tag in HEADINGS, breakable))
        seen.update(tops)
        pages.append(page)
    return pages


def refit(pages: list[_Page], flow: Flow) -> Flow:
    """The flow a second layout should have, from the measurements of ``pages`` set in
    ``flow``: the same if nothing can be done.

    Contents that ran over from the cover (a long list of house rules) start a page of
    their own. A last page of running text emptier than MIN_FILL takes over the end of
    the page before it: a page break
    before one of that page's blocks (a heading if one fits), chosen so that both pages
    are well over MIN_FILL and the moved lines fit on the last page. The pages before
    stay exactly as they were, so what the measurements promise holds.
    """
    breaks = flow.breaks
    if sum(page.cover for page in pages) > 1 and CONTENTS_APART not in breaks:
        breaks = (*breaks, CONTENTS_APART)
    running = [page for page in pages if not page.cover]
    if len(running) > 1 and running[-1].fill < MIN_FILL:
        chosen = _balance(running[-2], running[-1], max(page.fill for page in running))
        if chosen is not None:
            breaks = (*breaks, chosen)
    return flow._replace(breaks=breaks)


# The contents' heading on the cover, which refit may start a page with.
CONTENTS_APART = "body > .cover > .toc-title"
# A heading that starts the moved part is preferred to a fuller page by up to this share.
HEADING_PREFERENCE = 0.1


def _balance(before: _Page, last: _Page, capacity: float) -> str | None:
    """The block of ``before`` to start a page with, so that ``last`` is full enough."""
    best: tuple[float, str] | None = None
    for block in before.starts:
        if not block.breakable:
            continue
        kept = [end for start, end in before.lines if end <= block.top + 1e-6]
        if not kept:
            continue
        stays = max(kept) - before.top
        moves = before.bottom - block.top + last.fill
        if min(stays, moves) < MIN_FILL + FILL_SAFETY or moves > capacity - FILL_SAFETY:
            continue
        score = min(stays, moves) + (HEADING_PREFERENCE if block.heading else 0.0)
        if best is None or score > best[0]:
            best = (score, block.selector)
    return None if best is None else best[1]


def _fills(pages: list[_Page]) -> list[float]:
    return [page.fill for page in pages]


def build_booklet(
    rules: HouseRules,
    *,
    paper: Paper,
    extra_markdown: str | None = None,
    page_size_override: tuple[float, float] | None = None,
    lang: Language = ENGLISH,
) -> bytes:
    """The booklet as PDF bytes in ``lang``; with the points game on, the score sheet is the
    last page.

    The first layout is measured; if a page of it is emptier than MIN_FILL, a second is
    set as ``refit`` plans from those measurements, and only if that fails too are the
    other spacings tried. How many layouts it took is logged (tests count them).
    """
    from sheetgen.booklet.weasy import load_weasyprint

    weasyprint = load_weasyprint()
    from weasyprint.text.fonts import FontConfiguration

    def html_for(flow: Flow) -> str:
        return render_html(
            rules,
            paper=paper,
            extra_markdown=extra_markdown,
            page_size_override=page_size_override,
            flow=flow,
            lang=lang,
        )

    # One font set-up for every layout: the bundled faces are loaded once.
    fonts = FontConfiguration()
    try:
        pdf = _set_pages(weasyprint, fonts, html_for)
    finally:
        _forget_fonts(fonts)
    if rules.series:
        pdf = _lay_sheet(pdf, _sheet_pdf(rules, paper, lang))
    return pdf


def _forget_fonts(fonts: Any) -> None:
    """Remove the folder weasyprint copies a booklet's fonts into. Its FontConfiguration
    removes the folder only when it is collected, which a process that ends without
    freeing its objects (sheetgen.start.leave) never does."""
    import shutil

    folder = getattr(fonts, "_folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _set_pages(weasyprint: Any, fonts: Any, html_for: Callable[[Flow], str]) -> bytes:
    """The booklet's own pages as PDF bytes, its HTML in each flow from ``html_for``, laid
    out as build_booklet describes."""

    def lay_out(flow: Flow) -> tuple[float, Any, list[_Page]]:
        html = weasyprint.HTML(
            string=tie_short_words_in_html(html_for(flow)),
            base_url=templates_dir().as_uri(),
            url_fetcher=_fetcher(),
        )
        # PDF/UA-1: tagged, with the language, title and figure alternatives a screen
        # reader needs.
        document = html.render(font_config=fonts, pdf_variant="pdf/ua-1")
        pages = _measure(html, document)
        return min(_fills(pages), default=1.0), document, pages

    tried = [PLAIN]
    emptiest, document, pages = lay_out(PLAIN)
    if emptiest < MIN_FILL:
        second = refit(pages, PLAIN)
        if second != PLAIN:
            tried.append(second)
            found = lay_out(second)
            if found[0] > emptiest:
                emptiest, document, _ = found
        # The other spacings keep the contents where the second layout put them.
        apart = PLAIN._replace(breaks=tuple(b for b in second.breaks if b == CONTENTS_APART))
        for spacing in SPACINGS[1:]:
            if emptiest >= MIN_FILL:
                break
            tried.append(apart._replace(spacing=spacing))
            found = lay_out(tried[-1])
            if found[0] > emptiest:
                emptiest, document, _ = found
    log.debug(
        "booklet laid out %d time(s), emptiest page %.0f%% full",
        len(tried),
        100 * emptiest,
        extra={"layouts": len(tried)},
    )
    # The bundled faces are already cut down to the letters sheetgen prints, so
    # weasyprint's own subsetting of them is quick.
    pdf: bytes = document.write_pdf(pdf_variant="pdf/ua-1")
    return pdf


def check_layout(layout: str, fmt: str) -> None:
    """Refuse a layout or format sheetgen cannot make, or a pair that makes no sense."""
    if layout not in LAYOUTS:
        raise ChoiceError(
            f"{layout!r} is not a layout; choose {' or '.join(LAYOUTS)}", field="layout"
        )
    if fmt not in FORMATS:
        choices = f"{', '.join(FORMATS[:-1])} or {FORMATS[-1]}"
        raise ChoiceError(f"{fmt!r} is not a format; choose {choices}", field="format")
    if fmt == "html" and layout == "booklet":
        raise ChoiceError(
            "a folded booklet is for paper, and an html page is read on a screen; "
            "leave out --layout booklet, or write a pdf to fold",
            field="layout",
        )


def rules_document(
    rules: HouseRules,
    *,
    paper: Paper,
    layout: str = "pages",
    fmt: str = "pdf",
    lang: Language = ENGLISH,
) -> bytes:
    """The rules booklet in ``lang``, laid out for printing: one page per sheet, or folded.

    ``pages`` prints each page on its own sheet of ``paper``; ``booklet`` sets
    half-size pages and imposes them for folding (the score sheet stays whole).
    ``png`` gives a preview of the first sheet as it will print instead of the PDF,
    ``html`` one self-contained page to read on a screen.
    Every choice is checked before anything is rendered.
    """
    check_layout(layout, fmt)
    if fmt == "html":
        return render_html(rules, paper=paper, screen=True, lang=lang).encode("utf-8")
    if layout == "booklet":
        # pikepdf, which imposition needs, loads only for a folded booklet or a score sheet.
        from sheetgen.booklet.imposition import half_paper, impose_saddle_stitch

        half = half_paper(paper)
        pdf = impose_saddle_stitch(
            build_booklet(rules, paper=paper, page_size_override=half.portrait, lang=lang), paper
        )
    else:
        pdf = build_booklet(rules, paper=paper, lang=lang)
    return in_format(pdf, fmt)


def _sheet_pdf(rules: HouseRules, paper: Paper, lang: Language = ENGLISH) -> bytes:
    """The blank score sheet for this table, as ``sheetgen sheet`` draws it, kept between
    runs (see ``_kept_sheets``): drawing it loads reportlab and cuts its fonts, about a
    tenth of the booklet's processor time. A sheet that needed one of the machine's fonts
    is drawn afresh each time: whether that font is still there is the machine's business."""
    import hashlib

    from sheetgen.sheet.blank import blank_sheet

    teams = rules.players // TEAM_SIZE if rules.partnerships else None
    kept = _kept_sheets(rules.definition.folder)
    # Everything the sheet is drawn from, its words in the booklet's language included.
    asked = (
        paper,
        lang.game(rules.definition),
        lang.words(rules.definition),
        lang.code,
        rules.scoring,
        rules.players,
        teams,
    )
    key = hashlib.sha256(repr(asked).encode("utf-8")).hexdigest()
    found = kept.get(key) if kept is not None else None
    if found is not None:
        return found
    drawn = blank_sheet(
        paper=paper,
        game=rules.definition,
        scoring=rules.scoring,
        players=rules.players,
        teams=teams,
        lang=lang,
        in_words=True,
    )
    if kept is not None and not drawn.typeface.chosen:
        kept.put(key, drawn.pdf)
    return drawn.pdf


# A game folder or package with more files or folders than this is not walked for the
# kept sheets' prefix: the booklet draws its sheet afresh instead.
MAX_WALKED = 4096


@cache
def _kept_sheets(game_folder: Path) -> KeptResults | None:
    """Blank score sheets kept between runs, beside the compiled templates, under a prefix
    that changes whenever a file of sheetgen (its code, fonts and catalogues) or of the
    game's folder (whatever links inside it lead to) changes its size or time of change,
    as Python's own ``.pyc`` files are checked, or reportlab's or Babel's version: a kept
    sheet is the one this copy would draw. None where the user has no private cache
    folder, or a folder cannot be read or holds more than MAX_WALKED entries."""
    import hashlib
    import sys

    import reportlab

    from sheetgen.booklet.compiledcache import KeptResults, private_folder

    babel = sys.modules.get("babel")
    made_by = hashlib.sha256(f"{reportlab.Version}\0{getattr(babel, '__version__', '')}\0".encode())
    package = os.path.dirname(__file__)
    waiting = [package, str(game_folder)]
    walked = 0
    try:
        while waiting:
            with os.scandir(waiting.pop()) as found:
                entries = sorted(found, key=lambda entry: entry.name)
            walked += len(entries)
            if walked > MAX_WALKED:
                return None
            for entry in entries:
                if entry.is_dir():  # a link inside the game's folder is followed
                    if not (
                        entry.name == "__pycache__" and entry.path.startswith(package + os.sep)
                    ):
                        waiting.append(entry.path)
                elif entry.is_file():
                    info = entry.stat()
                    made_by.update(f"{entry.path}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    except OSError:
        return None
    folder = private_folder("sheetgen", "sheets")
    if folder is None:
        return None
    return KeptResults(folder, made_by.hexdigest()[:16])


def _lay_sheet(pdf: bytes, sheet: bytes) -> bytes:
    """Paint the blank score sheet onto the booklet's last (empty, landscape) page."""
    import io

    import pikepdf

    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as document, pikepdf.open(io.BytesIO(sheet)) as drawn:
        last = document.pages[-1]
        # weasyprint shares one resource dictionary among all pages; the sheet is the last's.
        shared = last.obj.Resources
        own = pikepdf.Dictionary({**shared.get(pikepdf.Name.XObject, {})})
        last.obj.Resources = pikepdf.Dictionary({**shared, "/XObject": own})
        form = drawn.pages[0].as_form_xobject()
        name = last.add_resource(form, pikepdf.Name.XObject, pikepdf.Name.ScoreSheet)
        # The drawn grid is a form to write on, not text to read aloud: marking it as an
        # artifact keeps the tagged booklet whole, with the page's "Score sheet" heading.
        last.contents_add(b"q\n", prepend=True)
        last.contents_add(b"Q\nq\n/Artifact BMC\n%s Do\nEMC\nQ\n" % str(name).encode())
        # qpdf copies the booklet's compressed streams as they are; a fixed /ID keeps
        # the output reproducible.
        document.save(out, deterministic_id=True)
    return out.getvalue()
