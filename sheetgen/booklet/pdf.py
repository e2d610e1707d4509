"""The booklet's PDF: its HTML laid out by weasyprint and refitted, the score sheet last."""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sheetgen.booklet.figures import figure_moves
from sheetgen.booklet.flow import (
    CONTENTS_APART,
    HOLE_SHARE,
    MIN_FILL,
    PLAIN,
    SPACINGS,
    Flow,
    Moves,
    Page,
    contents_apart,
    fills,
    measure,
    nearby,
    number_blocks,
    ragged_ties,
    refit,
    split_over_pages,
    thin_before_last,
)
from sheetgen.booklet.html import MOTIF_URL, booklet_text
from sheetgen.booklet.justify import justify
from sheetgen.booklet.markdown import tie_short_words_in_html
from sheetgen.booklet.mends import held_examples, held_strips, set_free, stranded_headings
from sheetgen.booklet.tagging import leaders_as_artifacts
from sheetgen.booklet.typography import brands_joined, unbroken, untied, whole_last_words
from sheetgen.game.definition import TEAM_SIZE
from sheetgen.game.houserules import HouseRules
from sheetgen.game.language import ENGLISH, Language
from sheetgen.paper import Paper
from sheetgen.resources import fonts_dir, templates_dir

log = logging.getLogger(__name__)
# The layouts a folded booklet is set in at most, at the end, until its printing box names
# its own count of pages (one, unless that changes the count).
MAX_RECOUNTS = 3
# The most layouts one booklet is set in: the spacings, then the folded booklet's plan.
MAX_LAYOUTS = len(SPACINGS) + 10
# The spacings a folded booklet is tried in when its own would leave more than a page of
# padding, each with the fewest notes pages its own must leave for it (setting closer
# saves a sheet only where two pages or more are padding). A folded booklet keeps one house
# leading: these two set only the space between blocks closer or looser (print reviews 12
# and 13), and what they cannot fill is ruled notes pages.
FOLD_SPACINGS = {"loose": 0, "tight": 2}
# How many times a layout is set again to move figures past the text that fills a page.
FIGURE_ROUNDS = 2
# How many times a layout is set again to take stranded headings over the page.
HEADING_ROUNDS = 2


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


def _fetcher(drawn: str = "") -> Any:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class AssetFetcher(URLFetcher):  # type: ignore[misc]
        """Serves the package's own templates and fonts, and the one picture sheetgen drew
        for the page (``drawn``, a data URL: the cover's motif); refuses every other URL."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            if drawn and url == drawn:
                svg = base64.b64decode(url.removeprefix(MOTIF_URL))
                kind = {"Content-Type": "image/svg+xml"}
                return URLFetcherResponse(url, svg, status=200, headers=kind)
            path = asset_path(url)
            return URLFetcherResponse(url, path.read_bytes(), status=200)

    return AssetFetcher()


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

    text = booklet_text(rules, extra_markdown=extra_markdown, lang=lang)

    def html_for(flow: Flow) -> str:
        return text.html(paper, page_size_override, flow)

    # One font set-up for every layout: the bundled faces are loaded once.
    fonts = FontConfiguration()
    try:
        folded = page_size_override is not None
        pdf = _set_pages(
            weasyprint,
            fonts,
            html_for,
            folded=folded,
            drawn=text.context["motif"],
            suggests=bool(text.context["notes"]),
        )
    finally:
        _forget_fonts(fonts)
    if rules.series:
        pdf = _lay_sheet(pdf, _sheet_pdf(rules, paper, lang))
    return pdf


def _forget_fonts(fonts: Any) -> None:
    """Remove the folder weasyprint copies a booklet's fonts into. Its FontConfiguration
    removes the folder only when it is collected, which Python does not promise before
    the process ends."""
    import shutil

    folder = getattr(fonts, "_folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _set_pages(  # long: the layouts one booklet is tried in, in the order they are tried
    weasyprint: Any,
    fonts: Any,
    html_for: Callable[[Flow], str],
    *,
    folded: bool = False,
    drawn: str = "",
    suggests: bool = False,
) -> bytes:
    """The booklet's own pages as PDF bytes, its HTML in each flow from ``html_for``, laid
    out as build_booklet describes; a ``folded`` booklet is then planned to fill its sheets
    (see ``_fold``). ``suggests``: whether its cover's box lists the booklet's own
    suggestions, which a crowded folded cover sets under the contents."""

    # The figures set further on (figure_moves), found once for each spacing (the cover
    # ends its own page, so its motif and contents move no figure), and the layouts that
    # took beyond those the plan counts.
    placed: dict[str, Moves] = {}
    extra: list[Moves] = []
    # Each flow's pages as last measured.
    measured: dict[Flow, list[Page]] = {}
    # The white a folded cover gives its fan (Flow.cover_room), found in the first layout
    # and given to every one after it (the cover is a page of its own, so the running text
    # is set as before), and the room each layout was set with.
    room = 0.0
    # A folded booklet's ties that left a line far short in its first layout, loosened in
    # every layout after it (``flow.ragged_ties``: a paragraph breaks its lines alike on
    # every page of the half-page measure, so the first layout finds them all); and the
    # room and ties each layout was set with.
    loose: tuple[tuple[str, ...], ...] = ()
    # The file's pages as the last layout came to, which a folded booklet's printing box
    # names (Flow.pages; 0 for the first layout, whose box weasyprint counts), and the
    # count each layout was given.
    counted = 0

    def set_once(flow: Flow, moves: Moves) -> tuple[Any, list[Page]]:
        nonlocal counted
        given = flow._replace(cover_room=room, pages=counted)
        html = weasyprint.HTML(
            string=untied(
                unbroken(
                    whole_last_words(brands_joined(tie_short_words_in_html(html_for(given)))),
                    flow.whole,
                ),
                loose,
            ),
            base_url=templates_dir().as_uri(),
            url_fetcher=_fetcher(drawn),
        )
        number_blocks(html.etree_element, moves)
        set_free(html.etree_element, flow.free)
        # Laid out plainly: the PDF/UA-1 variant (tagged, with the language, title and figure
        # alternatives a screen reader needs) is asked of write_pdf below, which writes the
        # same bytes for a layout so made, and each of a booklet's layouts is a fifth quicker.
        document = html.render(font_config=fonts)
        # Kept on the layout itself: an id() is reused once a layout set aside is collected,
        # and a stale one set the printing box's count differently from run to run.
        document.sheetgen_set = ((room, loose), counted)
        # The next layout's guess: this one's pages, the booklet's own rounded up to whole
        # sheets, as the plan fills them (a trial short of a sheet is made to fill it).
        sheet = int(document.pages[-1]._page_box.page_type.name == "sheet")
        counted = -(-(len(document.pages) - sheet) // 4) * 4 + sheet if folded else 0
        return document, measure(html, document)

    def lay_out(flow: Flow) -> tuple[float, Any, list[Page]]:
        """``flow`` laid out; a figure that would leave the page before it half empty is
        set after the text that fills that page (at most FIGURE_ROUNDS more layouts)."""
        key = flow.spacing
        moves = placed.get(key, ())
        document, pages = set_once(flow, moves)
        for _ in range(FIGURE_ROUNDS):
            more = figure_moves(pages, moves)
            if more == moves:
                break
            extra.append(more)
            moves = placed[key] = more
            document, pages = set_once(flow, moves)
        measured[flow] = pages
        return min(fills(pages), default=1.0), document, pages

    # A folded booklet's cover is its title, fan and box of choices; its contents open
    # page 2, the text following them (one design whatever the box holds).
    chosen = PLAIN._replace(breaks=(CONTENTS_APART,)) if folded else PLAIN
    tried = [chosen]
    emptiest, document, pages = lay_out(chosen)
    if folded:
        loose = ragged_ties(document)
    # A box of choices so long that the fan has no room to grow, or none at all, keeps the
    # table's choices only: the booklet's own suggestions go under the contents (print
    # review 12: the heavy set's fan 1.3 in tall in English, left off in German).
    crowded = sum(page.choices for page in pages) > 1 or not cover_room(pages, document)
    if folded and crowded and suggests:
        chosen = chosen._replace(suggestions_apart=True)
        tried.append(chosen)
        emptiest, document, pages = lay_out(chosen)
    # A box of choices too long for the cover with the fan of cards above it is set
    # without the fan rather than cut in two.
    if sum(page.choices for page in pages) > 1:
        chosen = chosen._replace(motif=False)
        tried.append(chosen)
        emptiest, document, pages = lay_out(chosen)
        # One too long for the cover even so runs on to page 2, the contents after it.
        if sum(page.choices for page in pages) > 1 and chosen.breaks:
            chosen = chosen._replace(breaks=())
            tried.append(chosen)
            emptiest, document, pages = lay_out(chosen)
    if folded and chosen.motif and CONTENTS_APART in chosen.breaks:
        room = cover_room(pages, document)
    # Contents that run over from the cover open the next page whole (refit), the text
    # following them, even where every page is full enough: contents cut in two are hard
    # to follow.
    cut = sum(page.cover for page in pages) > 1
    if emptiest < MIN_FILL or cut:
        first, before = chosen, pages
        second = refit(pages, chosen)
        if second != chosen:
            tried.append(second)
            found = lay_out(second)
            if found[0] > emptiest or (cut and found[0] >= MIN_FILL):
                emptiest, document, pages = found
                chosen = second
        # The other spacings keep the contents where the second layout put them. They are
        # tried too where the page before the last is left part empty (a balancing break
        # that took half of it): a spacing that pulls the last page back, or gives it
        # enough of its own, is taken instead.
        apart = chosen._replace(breaks=contents_apart(second.breaks))
        for spacing in FOLD_SPACINGS if folded else SPACINGS[1:]:
            if emptiest >= MIN_FILL and not thin_before_last(pages):
                break
            tried.append(apart._replace(spacing=spacing))
            found = lay_out(tried[-1])
            if emptiest < MIN_FILL:
                better = found[0] > emptiest
            else:
                better = found[0] >= MIN_FILL and not thin_before_last(found[2])
            if better:
                emptiest, document, pages = found
                chosen = tried[-1]
        # Only where no spacing fills the last page is the page before left part empty.
        last = refit(before, first, thin=True) if emptiest < MIN_FILL else second
        if last not in tried:
            tried.append(last)
            found = lay_out(last)
            if found[0] > emptiest:
                emptiest, document, pages = found
                chosen = last
    if folded:
        document, chosen = _fill_sheets(lay_out, document, pages, chosen, tried)
        document, chosen = _ruled_tail(lay_out, document, measured[chosen], chosen, tried)

    def set_again(
        flow: Flow, near: tuple[tuple[int, str], ...] | None, full: Judge = _as_full
    ) -> None:
        """Keep ``flow`` (one layout more) where it keeps the booklet's pages, the references
        ``near`` their headings (None: a mend, which the references are set for after), and
        its pages as ``full`` (print review 12: a layout set again for a reference broke a
        page a sixth short)."""
        nonlocal document, chosen
        before = measured.get(chosen, pages)
        tried.append(flow)
        found = lay_out(flow)
        kept = len(found[1].pages) == len(document.pages)
        kept &= near is None or nearby(found[1]) == near
        if kept and full(before, found[2]):
            document, chosen = found[1], flow

    # A card strip that took its list's last lines over the page, leaving the page before
    # short, is set free of them (print review 34), where that keeps the booklet's pages
    # and opens no hole inside the text (the last page may take what moves on).
    # So is an example's drawing or table that took its lead-in over the page with it
    # (print review 40), the subheading and lead-in ending the page before.
    free = held_strips(measured.get(chosen, pages), chosen.free)
    free = held_examples(measured.get(chosen, pages), free, folded=folded)
    if free != chosen.free:
        set_again(chosen._replace(free=free), None, _no_more_holes)
    # A heading with fewer than four lines under it at a page's foot opens the next page
    # instead, where that keeps the booklet's pages and opens no hole (print review 34).
    # Once more where the page it took over strands another (print review 36: "Die
    # Sonderfelder" and three lines, after "Inhalt der Schachtel" went over).
    for _ in range(HEADING_ROUNDS):
        stranded = stranded_headings(measured.get(chosen, pages))
        fresh = tuple(selector for selector in stranded if selector not in chosen.breaks)
        if not fresh:
            break
        tried_from = chosen
        set_again(chosen._replace(breaks=chosen.breaks + fresh), None, _no_more_text_holes)
        if chosen == tried_from:  # refused: the layout stays as it was
            break
    # A reference to a heading on its own page says "below" or "above" instead.
    near = nearby(document)
    if near:
        set_again(chosen._replace(near=near), near)
    # A word hyphenated over a page turn is set whole (print review 9: "Spieler-|stapeln"
    # across pages 10 and 11).
    split = split_over_pages(document)
    if split:
        set_again(chosen._replace(whole=split), chosen.near)
    # A cover set before its room was known, or a folded booklet's text before its ties
    # were loosened, is set again with them (one layout more, only where the first layout
    # was already the last, or a line set anew, by a page number in a reference, leaves a
    # tie of its own far short), where that keeps its pages and leaves them as full.
    if folded:
        loose += tuple(tie for tie in ragged_ties(document) if tie not in loose)
    if document.sheetgen_set[0] != (room, loose):
        before = measured.get(chosen, pages)
        tried.append(chosen)
        found = lay_out(chosen)
        if (
            len(found[1].pages) == len(document.pages)
            and sum(p.choices for p in found[2]) == 1
            and _as_full(before, found[2])
        ):
            document = found[1]

    # A folded booklet's box names the pages the layout before it came to (the first
    # layout's, which weasyprint counted, may have moved as it counted: print review 23):
    # one that named another count, or was counted so, is set again with its own.
    for _ in range(MAX_RECOUNTS if folded else 0):
        if document.sheetgen_set[1] == len(document.pages):
            break
        counted = len(document.pages)
        tried.append(chosen)
        document = lay_out(chosen)[1]
    log.debug(
        "booklet laid out %d time(s), emptiest page %.0f%% full",
        len(tried) + len(extra),
        100 * emptiest,
        extra={"layouts": len(tried) + len(extra), "flow": chosen},
    )
    # A page a little short because what follows is kept together overleaf is set to its
    # foot, where its blocks can take the white and its facing page ends there too (a flat
    # booklet printed on both sides is read two pages at a time as a folded one is).
    justify(document, spreads=True)
    # The bundled faces are already cut down to the letters sheetgen prints, so
    # weasyprint's own subsetting of them is quick.
    pdf: bytes = document.write_pdf(pdf_variant="pdf/ua-1")
    # PDF/UA: the contents' leader dots are drawn, not read aloud.
    return leaders_as_artifacts(pdf)


LayOut = Callable[[Flow], tuple[float, Any, list[Page]]]
# Whether a layout set again (its pages second) is as good as the one before (first).
Judge = Callable[[list[Page], list[Page]], bool]
# The white left under a grown fan's cover for what the measurement cannot see (inches),
# and the least white worth growing the fan for.
COVER_SAFETY = 0.2
COVER_LEAST = 0.3


def cover_room(pages: list[Page], document: Any) -> float:
    """The white (in inches) under the box of choices of a folded booklet's cover standing
    on a page of its own, for its fan to grow into (Flow.cover_room); 0 if too little."""
    cover = pages[0] if pages and pages[0].cover and pages[0].choices else None
    if cover is None:
        return 0.0
    room = (cover.foot - cover.bottom) * document.pages[0].height / 96 - COVER_SAFETY
    return round(room, 2) if room >= COVER_LEAST else 0.0


def _fill_sheets(
    lay_out: LayOut, document: Any, pages: list[Page], flow: Flow, tried: list[Flow]
) -> tuple[Any, Flow]:
    """``document`` (set in ``flow``, measured as ``pages``) set again as ``_fold`` plans,
    until a folded booklet's pages fill whole sheets; where that leaves more than a page
    of white (``white``), or a hole inside the text (``_holes``), the booklet set closer
    or looser is planned too (its last page balanced with the one before where it is
    nearly empty), and the one with the least kept; with the flow it was set in."""
    best = _planned(lay_out, document, pages, flow, tried)
    first = best
    for spacing, fewest in FOLD_SPACINGS.items():
        holed = _holes(best[3]) > 0
        if (best[0] <= 1 and not holed) or len(tried) >= MAX_LAYOUTS:
            break
        if spacing == flow.spacing or (first[2].notes < fewest and not holed):
            continue
        # A balancing break was found for the flow's own spacing: another starts without
        # one (refit finds its own), the contents kept apart if they were.
        apart = contents_apart(flow.breaks)
        trial = flow._replace(spacing=spacing, notes=0, back_in_flow=False, breaks=apart)
        tried.append(trial)
        emptiest, other, pages = lay_out(trial)
        balanced = refit(pages, trial) if emptiest < MIN_FILL else trial
        if balanced != trial and len(tried) < MAX_LAYOUTS:  # a short last page balanced
            trial = balanced
            tried.append(trial)
            emptiest, other, pages = lay_out(trial)
        if emptiest >= MIN_FILL:
            found = _planned(lay_out, other, pages, trial, tried)
            if found[0] < best[0]:
                best = found
    return best[1], best[2]


# White before a heading that opens the next page ends a section: a layout set again to take
# a stranded heading over the page may leave the page it leaves this full (print review 38:
# "Setting up" and two lines at a page's foot was refused for the 15 % it left; review 39:
# at 0.75, "Die Sonderfelder" went over and left 153 pt, ten lines, white: 19 % of the
# fullest page's text).
SECTION_END = 0.83


def _holes(pages: list[Page], *, sections: bool = False) -> float:
    """The white of the pages inside a booklet's running text (``pages``) less than
    HOLE_SHARE as full as the fullest, in pages: not its last page of text, nor the page
    the printing box opens. With ``sections``, a page before one that opens with a heading
    is a hole only where it is less than SECTION_END as full."""
    running = [page for page in pages if not page.cover]
    if len(running) < 2:
        return 0.0
    capacity = max(page.fill for page in running)
    shares = [page.fill / capacity for page in running]
    if running[-1].closing:
        shares.pop()
    bars = [SECTION_END if sections and page.opens_with_heading else HOLE_SHARE for page in running]
    return sum(1 - share for share, bar in zip(shares[:-1], bars[1:], strict=False) if share < bar)


# A folded booklet's last page of text less full than this share of the fullest page ends
# in ruled lines to write on, under a "Notes" title and its line (TAIL_HEAD high, in CSS
# px, with a line to spare) and RULED apart, at least TAIL_LEAST of them (print review 12:
# a last page of text with room for three lines left unruled before a page of notes;
# review 16: two or three ruled lines under "Notes" looked like an accident; review 17: a
# third of Spite and Malice's last page left white where four would go).
TAIL_BELOW = 0.75
TAIL_HEAD = 110.0
RULED = 22 * 96 / 72
TAIL_LEAST = 4


def _ruled_tail(
    lay_out: LayOut, document: Any, pages: list[Page], flow: Flow, tried: list[Flow]
) -> tuple[Any, Flow]:
    """``document`` (set in ``flow``, measured as ``pages``) with the rest of its last page
    of text ruled to write on, where that page ends short and no notes page follows (print
    review 8: a last page of text 37 % full before the back cover; ``_planned`` rules it in
    the layout that adds notes pages); the same if the lines would not fit on it."""
    lines = 0 if flow.tail or len(tried) >= MAX_LAYOUTS else _tail_lines(pages, document, flow)
    if not lines:
        return document, flow
    trial = flow._replace(tail=lines)
    tried.append(trial)
    _, ruled, _ = lay_out(trial)
    if len(ruled.pages) != len(document.pages):
        return document, flow
    return ruled, trial


def _tail_lines(pages: list[Page], document: Any, flow: Flow) -> int:
    """How many ruled lines the rest of the last page of text (of ``document``, measured as
    ``pages``) takes under "Notes", where it ends short; 0 where it does not, or where the
    quick reference runs on after it."""
    running = [page for page in pages if not page.cover]
    if not running or flow.back_in_flow:
        return 0
    capacity = max(page.fill for page in running)
    if running[-1].fill >= TAIL_BELOW * capacity:
        return 0
    room = (capacity - running[-1].fill) * document.pages[0].height
    lines = int((room - TAIL_HEAD) / RULED)
    return lines if lines >= TAIL_LEAST else 0


# A page of running text left part empty (under flow.HOLE_SHARE) inside a folded booklet
# weighs this many times the same white at its end, where the notes pages are: a hole in
# the text is a flaw, white before the notes is not.
HOLE_WEIGHT = 2.0


def white(pages: list[Page], notes: int) -> float:
    """How much of a folded booklet is padding, in pages: its notes pages, the white of its
    last page of running text, and (weighing HOLE_WEIGHT) the white of each page before the
    last that is less than HOLE_SHARE as full as the fullest (the cover and
    contents left out). A page that opens with the printing box is padding too, what the box
    leaves of it: the text ends on the page before."""
    running = [page for page in pages if not page.cover]
    if not running:
        return float(notes)
    capacity = max(page.fill for page in running)
    shares = [page.fill / capacity for page in running]
    closing = 0.0
    if len(shares) > 1 and running[-1].closing:
        closing = 1 - shares.pop()
    return notes + closing + (1 - shares[-1]) + HOLE_WEIGHT * _holes(pages)


# A layout set again to place a reference or a word (``near``, ``whole``) may leave this
# much more white, in pages (``white``), than the one it would replace.
AS_FULL = 0.03


def _as_full(before: list[Page], after: list[Page]) -> bool:
    """Whether ``after`` (a layout set again) leaves no more white inside its text, and on
    its last page, than ``before``."""
    return white(after, 0) <= white(before, 0) + AS_FULL


def _no_more_holes(before: list[Page], after: list[Page]) -> bool:
    """Whether ``after`` leaves no more white inside its text than ``before``."""
    return _holes(after) <= _holes(before) + AS_FULL / HOLE_WEIGHT


def _no_more_text_holes(before: list[Page], after: list[Page]) -> bool:
    """Whether ``after`` leaves no more white inside its text than ``before``, white that
    ends a section left out (``_holes`` with ``sections``)."""
    return _holes(after, sections=True) <= _holes(before, sections=True) + AS_FULL / HOLE_WEIGHT


def _planned(
    lay_out: LayOut, document: Any, pages: list[Page], flow: Flow, tried: list[Flow]
) -> tuple[float, Any, Flow, list[Page]]:
    """How much padding (``white``) ``document`` (set in ``flow``, measured as ``pages``)
    has once planned to fill its sheets, the document set so and its flow."""
    planned = _fold(document, flow)
    while planned is not None and len(tried) < MAX_LAYOUTS:
        # A last page of text that ends short before the notes pages is ruled under "Notes"
        # in the same layout (print review 11); its notes pages go on from there.
        if not planned.tail and planned.notes:
            planned = planned._replace(tail=_tail_lines(pages, document, planned))
        tried.append(planned)
        emptiest, document, pages = lay_out(planned)
        if emptiest < MIN_FILL:  # the quick reference run on leaves a last page nearly empty
            balanced = refit(pages, planned)
            if balanced != planned:
                tried.append(balanced)
                found = lay_out(balanced)
                if found[0] > emptiest:
                    _, document, pages = found
                    planned = balanced
        flow, planned = planned, _fold(document, planned)
    return white(pages, flow.notes), document, flow, pages


def _fold(document: Any, flow: Flow) -> Flow | None:
    """The flow a folded booklet is set in next, planned from ``document`` (set in
    ``flow``); None once its pages fill whole sheets.

    A quick reference longer than the back cover is set closer; one longer still runs on
    in the text instead, and a notes page becomes the back cover; the pages left over to
    the end of the last sheet are ruled notes pages before the back cover, never blank
    ones. A notes page is a whole page, so the text before it stays as it was set.
    """
    from sheetgen.booklet.imposition import PAGES_PER_SHEET

    types = [laid._page_box.page_type.name or "" for laid in document.pages]
    if types.count("back") > 1 and not flow.back_in_flow:
        # One a little too long is set closer first (print review 15: the German heavy
        # set's ran on from the foot of a page of text, its back cover a page of notes).
        if not flow.back_closer:
            return flow._replace(back_closer=True)
        return flow._replace(back_in_flow=True, notes=max(flow.notes, 1))
    pages = len([kind for kind in types if kind != "sheet"])
    if pages % PAGES_PER_SHEET == 0:
        return None
    return flow._replace(notes=flow.notes + -pages % PAGES_PER_SHEET)


def _sheet_pdf(rules: HouseRules, paper: Paper, lang: Language = ENGLISH) -> bytes:
    """The blank score sheet for this table, as ``sheetgen sheet`` draws it."""
    from sheetgen.sheet.blank import blank_sheet

    teams = rules.players // TEAM_SIZE if rules.partnerships else None
    return blank_sheet(
        paper=paper,
        game=rules.definition,
        scoring=rules.scoring,
        players=rules.players,
        teams=teams,
        lang=lang,
        in_words=True,
    ).pdf


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
