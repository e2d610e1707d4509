"""The booklet's flow: house rules resolved once, a plain context, one Environment."""

from __future__ import annotations

from typing import Any

import pytest

from sheetgen.booklet import html as booklet
from sheetgen.booklet import templating
from sheetgen.game import houserules
from sheetgen.game.houserules import differences, official_rules, resolve
from sheetgen.paper import A4


def test_the_official_rules_come_with_the_resolved_ones() -> None:
    rules = resolve(options={"players": 5, "stock": 12, "target": 300})
    assert rules.official == official_rules("skip-bo", 5)
    assert (rules.official.stock, rules.official.target) == (20, 500)
    assert differences(rules) == ["stock", "target"]
    assert official_rules("skip-bo", 4).official is None  # the official rules are their own


def test_rendering_reads_and_resolves_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = resolve(game="spite-and-malice", options={"building-piles": 4})

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the house rules were resolved once already")

    monkeypatch.setattr(houserules, "resolve", refuse)
    monkeypatch.setattr(houserules, "read_toml", refuse)
    html = booklet.render_html(rules, paper=A4)
    assert "Up to four centre stacks may be in play at once instead of three" in html


def test_the_context_is_plain_data_and_renders_no_sentence() -> None:
    context = booklet.build_context(resolve(options={"stock": "short"}))
    # first-player is noted: the rule sheets disagree, so the box always says who starts.
    assert context["changed"] == ["stock"]
    assert context["noted"] == ["first-player"]
    assert "differences" not in context
    assert context["official"]["stock"] == 30 and context["deal"]["stock"] == 10


def test_one_environment_renders_the_whole_booklet(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    real = templating.make_environment

    def counted(search_path: Any, lang: Any, **options: Any) -> Any:
        env = real(search_path, lang, **options)
        made.append(env)
        return env

    monkeypatch.setattr(booklet, "make_environment", counted)
    html = booklet.render_html(resolve(options={"stock": "short", "target": 300}), paper=A4)
    assert len(made) == 1
    assert (
        "House rule: the series is played to 300 points instead of 500." in html
        and "{{" not in html
    )
    assert made[0].autoescape("booklet.html.j2")  # type: ignore[attr-defined]
    assert made[0].undefined is templating.StrictUndefined  # type: ignore[attr-defined]


def test_a_hole_in_the_text_weighs_more_than_a_notes_page() -> None:
    """A folded booklet's padding (pdf.white): notes pages and the last page's white count
    as they are, a page left part empty inside the text twice; the cover and contents not
    at all."""
    from sheetgen.booklet.flow import Page
    from sheetgen.booklet.pdf import HOLE_WEIGHT, white

    def page(fill: float, cover: bool = False) -> Page:
        return Page(cover=cover, lines=[(0.1, 0.1 + fill)])

    full = [page(0.8, cover=True), page(0.3, cover=True)] + [page(0.8)] * 5
    assert white([*full, page(0.4)], 2) == pytest.approx(2.5)
    holed = [*full[:3], page(0.2), *full[3:], page(0.8)]
    assert white(holed, 0) == pytest.approx(HOLE_WEIGHT * 0.75)
    # The print review's heavy set: set looser it filled its sheets with no notes page but
    # left three pages inside a third to two thirds full; set loose, two notes pages follow
    # a page half full. The notes win.
    looser = [*full[:3], page(0.32), page(0.54), *full[3:], page(0.52), page(0.31)]
    assert white(looser, 0) > white([*full, page(0.53)], 2)


def test_a_page_a_fifth_short_inside_the_text_is_a_hole() -> None:
    """pdf.white and pdf._holes: a page of running text less than HOLE_SHARE as full as the
    fullest is a hole (print review 27: 105 to 119 pt, a fifth of a folded page, were
    left at the foot of three pages of the German booklet); one a tenth short is not, nor
    the last page's white, nor a page that the printing box opens."""
    from sheetgen.booklet.flow import Page
    from sheetgen.booklet.pdf import HOLE_WEIGHT, _holes, white

    def page(fill: float, closing: bool = False) -> Page:
        return Page(cover=False, lines=[(0.1, 0.1 + fill)], closing=closing)

    full = [page(0.8)] * 4
    assert _holes([*full, page(0.72), page(0.8), page(0.3)]) == 0
    assert _holes([*full, page(0.64), page(0.8), page(0.3)]) == pytest.approx(0.2)
    assert white([*full, page(0.64), page(0.8)], 0) == pytest.approx(HOLE_WEIGHT * 0.2)
    # The last page of text, with the printing box opening the page after it, is no hole.
    assert _holes([*full, page(0.3), page(0.5, closing=True)]) == 0


def test_white_that_ends_a_section_is_no_hole_for_a_heading_taken_over() -> None:
    """pdf._holes with ``sections`` (print review 38: "Setting up" and two lines at a page's
    foot, kept there because taking it over left that page 15 % short): white before a page
    that a heading opens ends a section, a hole only under SECTION_END full; white before
    a page that goes on with the text is a hole as before."""
    from sheetgen.booklet.flow import Block, Page
    from sheetgen.booklet.pdf import SECTION_END, _holes, _no_more_text_holes

    def page(fill: float, *, heading: bool = False, indent: float = 0.0) -> Page:
        opening = Block("", 0.1 + indent, heading, True)
        return Page(cover=False, lines=[(0.1, 0.1 + fill)], starts=[opening])

    full = [page(0.8)] * 3
    short = page(0.8 * (SECTION_END + 0.01))
    assert _holes([*full, short, page(0.8, heading=True), page(0.3)], sections=True) == 0
    # Still a hole: before text that goes on, or a heading that does not open its page.
    assert _holes([*full, short, page(0.8), page(0.3)], sections=True) > 0
    indented = page(0.8, heading=True, indent=0.05)
    assert _holes([*full, short, indented, page(0.3)], sections=True) > 0
    # Too short even before a heading; and without ``sections`` as before.
    shorter = page(0.8 * (SECTION_END - 0.05))
    assert _holes([*full, shorter, page(0.8, heading=True), page(0.3)], sections=True) > 0
    assert _holes([*full, short, page(0.8, heading=True), page(0.3)]) > 0
    before = [*full, page(0.8), page(0.8), page(0.3)]
    assert _no_more_text_holes(before, [*full, short, page(0.8, heading=True), page(0.3)])
    assert not _no_more_text_holes(before, [*full, short, page(0.8), page(0.3)])


def test_a_picture_moves_on_with_its_heading_and_lead_in() -> None:
    """figure_moves: where a picture's section (heading, lead-in kept with the picture)
    opens a page and left the page before part empty, the three are set together after
    the text that fills that page; the lead-in may have begun on the page before (the
    last lines of a paragraph go over with what they are kept with)."""
    from sheetgen.booklet.figures import figure_moves
    from sheetgen.booklet.flow import Block, Page

    def block(
        number: int,
        top: float,
        bottom: float,
        *,
        heading: bool = False,
        breakable: bool = False,
        **kind: bool,
    ) -> Block:
        selector = f'[data-block="{number}"]'
        return Block(selector, top, heading, breakable, number=number, bottom=bottom, **kind)

    chapter_opens = block(1, 0.1, 0.15, heading=True, breakable=True, opens=True)
    text = block(2, 0.16, 0.45, breakable=True, splittable=True)
    heading = block(3, 0.5, 0.53, heading=True, breakable=True)
    lead_in = block(4, 0.54, 0.58, splittable=True)  # after a heading: kept with it
    before = Page(cover=False, lines=[(0.1, 0.58)], starts=[chapter_opens, text, heading, lead_in])
    picture = block(5, 0.12, 0.7, figure=True)  # after its lead-in: kept with it
    after = [block(6, 0.72, 0.75, heading=True, breakable=True), block(7, 0.76, 0.9)]
    page = Page(cover=False, lines=[(0.1, 0.9)], starts=[picture, *after])
    following = [block(8, 0.1, 0.3, heading=True, breakable=True), block(9, 0.32, 0.9)]
    rest = Page(cover=False, lines=[(0.1, 0.9)], starts=following)
    # The lead-in's last lines went over with the picture: the group is still whole.
    moved = dict(figure_moves([before, page, rest]))
    assert list(moved) == [3, 4, 5]
    assert moved[4] == 3 and moved[5] == 4  # in their order, after the text that fills
    assert moved[3] == 7  # after the section that fills the page, before the next heading
    # Never inside a section: the rest of it would stand under the group's heading.
    inside = Page(False, [(0.1, 0.9)], [following[0]._replace(heading=False), following[1]])
    assert figure_moves([before, page, inside]) == ()
    # A chapter's own heading never moves, nor a figure kept with one.
    opened = Page(cover=False, lines=[(0.1, 0.2)], starts=[chapter_opens])
    kept = block(2, 0.12, 0.7, figure=True)
    assert figure_moves([opened, Page(False, [(0.1, 0.9)], [kept, *after]), rest]) == ()


def test_a_table_picture_closing_its_chapter_is_set_earlier_in_it() -> None:
    """figure_moves (print review 38: 177 pt white before the six-seat picture): a table
    picture that opens a page, no text of its chapter after it, and left the page before
    a hole is set after the last block of its chapter on that page below which it fits and
    fills it, not after a heading, nor before a block kept with the one before it; a card
    strip is not moved so, nor a picture whose page before is full or that fits nowhere."""
    from sheetgen.booklet.figures import figure_moves
    from sheetgen.booklet.flow import Block, Page

    def block(number: int, top: float, bottom: float, **kind: bool) -> Block:
        kind.setdefault("breakable", True)
        kind.setdefault("heading", False)
        return Block(f'[data-block="{number}"]', top, number=number, bottom=bottom, **kind)

    text = [
        block(1, 0.10, 0.13, heading=True, opens=True),
        block(2, 0.14, 0.35, breakable=False, splittable=True),  # under the chapter heading
        block(3, 0.36, 0.45, splittable=True),
        block(4, 0.47, 0.50, heading=True),
        block(5, 0.51, 0.65, breakable=False, splittable=True),  # under its heading
    ]
    rest = Page(False, [(0.1, 0.9)], [block(9, 0.1, 0.9, chapter=2, opens=True)])

    def moves(height: float, *, picture: bool = True, end: float = 0.65) -> dict[int, int]:
        drawn = block(6, 0.1, 0.1 + height, figure=True, picture=picture)
        after = block(7, 0.12 + height, 0.9, heading=True, chapter=1, opens=True)
        before = Page(False, [(0.1, end)], [*text[:-1], text[-1]._replace(bottom=end)])
        opened = Page(False, [(0.1, 0.9)], [drawn, after])
        return dict(figure_moves([before, opened, rest]))

    # After the paragraph before the subheading: not after the heading, nor its first block.
    assert moves(0.4) == {6: 3}
    # Too tall to follow that paragraph: after the list, before it.
    assert moves(0.45) == {6: 2}
    # Too tall for the page anywhere but at its head; a page that would still be a hole.
    assert moves(0.6) == {}
    assert moves(0.2) == {}
    # A figure that is no table picture, and a page before that is no hole.
    assert moves(0.4, picture=False) == {}
    assert moves(0.4, end=0.8) == {}


def test_a_table_moves_on_only_past_whole_sections() -> None:
    """figure_moves (print review 39: 110 to 133 pt left before "The numbers for this table"
    and a worked example's table): a table under its own heading that opens a page and
    left the page before a hole moves on past the sections after it, which fill that page;
    not past a paragraph, which may name it (the worked example's sum), nor into a section
    (print review 40)."""
    from sheetgen.booklet.figures import figure_moves
    from sheetgen.booklet.flow import Block, Page

    def block(number: int, top: float, bottom: float, **kind: bool) -> Block:
        kind.setdefault("breakable", True)
        kind.setdefault("heading", False)
        return Block(f'[data-block="{number}"]', top, number=number, bottom=bottom, **kind)

    text = [block(1, 0.1, 0.13, heading=True, opens=True), block(2, 0.14, 0.7, breakable=False)]
    before = Page(False, [(0.1, 0.7)], text)
    rest = Page(False, [(0.1, 0.9)], [block(9, 0.1, 0.9, chapter=1, opens=True)])

    def moves(*, section: bool, closing: str = "") -> dict[int, int]:
        heading = block(3, 0.1, 0.13, heading=True)
        table = block(4, 0.14, 0.4, figure=True, table=True, breakable=False)
        # What follows the section after the table: a heading, or a drawing closing the
        # chapter (the table picture or another).
        drawn = {"figure": True, "picture": closing == "picture"}
        after = [
            block(5, 0.42, 0.45, heading=True) if section else block(5, 0.42, 0.5),
            block(6, 0.46, 0.55, breakable=not section, splittable=True),
            block(7, 0.56, 0.6, **(drawn if closing else {"heading": True})),
            block(8, 0.61, 0.9, breakable=False, splittable=True),
        ]
        page = Page(False, [(0.1, 0.9)], [heading, table, *after])
        return dict(figure_moves([before, page, rest]))

    assert moves(section=True) == {3: 6, 4: 3}
    assert moves(section=False) == {}
    # Just before the table picture, which closes the chapter ("Who starts" set before
    # "The numbers for this table": print review 40), but before no other drawing.
    assert moves(section=True, closing="picture") == {3: 6, 4: 3}
    assert moves(section=True, closing="drawing") == {}
    # A group under its own heading with nothing after it on its page or the next (the end
    # of the running text) stays where it is.
    drawn = block(4, 0.14, 0.9, figure=True, breakable=False)
    alone = Page(False, [(0.1, 0.9)], [block(3, 0.1, 0.13, heading=True), drawn])
    short = Page(False, [(0.1, 0.3)], [text[0], text[1]._replace(bottom=0.3)])
    assert figure_moves([short, alone]) == ()


def test_a_group_is_not_moved_where_the_heading_it_passes_would_be_stranded() -> None:
    """figures._fitting (print review 40: "Who starts" and three lines of its paragraph at
    a page's foot, taken over the page again, 92 pt left white): a paragraph split right
    under a heading by a move keeps four lines under it and two for the next page."""
    from sheetgen.booklet.figures import _fitting
    from sheetgen.booklet.flow import Block

    pitch = 0.02

    def following(lines: int) -> list[tuple[Block, float, float]]:
        heading = Block("", 0.5, True, True, 5)
        text = Block("", 0.5, False, False, 6, splittable=True)
        picture = Block("", 0.5, False, True, 7, figure=True, picture=True)
        end = 0.03 + lines * pitch
        return [(heading, 0.0, 0.025), (text, 0.03, end), (picture, end + 0.01, end + 0.3)]

    # Room for the heading and four lines: a paragraph of six splits four and two.
    room = 0.03 + 4 * pitch + 0.001
    assert _fitting(following(6), room, 0, whole=True, pitch=pitch) == 6
    # One of five would split four and one: its last line may not open a page alone.
    assert _fitting(following(5), room, 0, whole=True, pitch=pitch) is None
    # Room for three lines only.
    assert _fitting(following(6), room - pitch, 0, whole=True, pitch=pitch) is None
    # Whole, it fits.
    assert _fitting(following(4), room, 0, whole=True, pitch=pitch) == 6


def test_a_paragraph_is_a_lead_in_only_where_it_ends_in_a_colon() -> None:
    """Print review 11: a paragraph that ends its sentence before a table (the board game's
    "Die Sonderfelder") was tied to it like a lead-in and left a page a third empty."""
    from sheetgen.booklet.html import _lead_ins

    html = (
        "<p>Three things:</p>\n<ul><li>a</li></ul>"
        '<p class="follows-list">Then <em>this</em>:</p><table></table>'
        "<p>A sentence.</p><ol><li>b</li></ol><p>Not before a list:</p><p>x</p>"
    )
    marked = _lead_ins(html)
    assert marked.count('class="lead-in"') == 1
    assert '<p class="follows-list lead-in">Then <em>this</em>:</p>' in marked
    assert "<p>A sentence.</p>" in marked and "<p>Not before a list:</p>" in marked


def test_only_a_lists_long_first_item_may_end_a_page_alone() -> None:
    """Print review 42: the style sheet kept a list's first item with its second, so a long
    first bullet broke two lines before its end, 42 pt short of the page's foot. A first
    item of three lines at least (more than LONG_FIRST_ITEM characters) is marked ``long``
    and may end a page alone; a short one and a later item are not."""
    from sheetgen.booklet.html import LONG_FIRST_ITEM, _long_first_items
    from sheetgen.resources import templates_dir

    long, short = "x " * (LONG_FIRST_ITEM // 2 + 1), "y " * (LONG_FIRST_ITEM // 2)
    html = (
        f"<ul>\n<li><strong>Cards.</strong> {long}</li>\n<li>{long}</li>\n</ul>"
        f"<ol><li>{short}</li><li>{long}</li></ol>"
    )
    marked = _long_first_items(html)
    assert marked.count('class="long"') == 1
    assert marked.startswith('<ul>\n<li class="long"><strong>Cards.</strong>')
    assert f"<ol><li>{short}</li>" in marked
    css = (templates_dir() / "booklet.css").read_text("utf-8")
    assert "> li:first-child:not(.long) { break-after: avoid; }" in css


def test_a_strip_is_set_free_only_where_it_leaves_the_page_before_short() -> None:
    """mends.held_strips: a card strip kept with its list (``strip``) that opens a page below
    the list's run-on lines is set free where the page before is under HELD_SHARE of the
    fullest, or under HELD_SHARE of its own text area where the fullest ends short of its
    foot too (print review 41: 57 pt white before the German king's bullet on Letter, the
    page 0.95 as full as the fullest); not where that page is full, nor where the strip
    stands at the page's head, nor a figure that is no strip; strips already free stay so."""
    from sheetgen.booklet.flow import Block, Page
    from sheetgen.booklet.mends import HELD_SHARE, held_strips

    def page(fill: float, *starts: Block, foot: float = 0.9) -> Page:
        return Page(cover=False, lines=[(0.1, 0.1 + fill)], starts=list(starts), foot=foot)

    def figure(number: int, top: float, strip: bool = True) -> Block:
        return Block("", top, False, False, number, figure=True, strip=strip)

    short = HELD_SHARE * 0.8 - 0.01
    assert held_strips([page(0.8), page(short), page(0.8, figure(7, 0.15))]) == (7,)
    assert held_strips([page(0.8), page(0.79), page(0.8, figure(7, 0.15))]) == ()
    assert held_strips([page(0.8), page(short), page(0.8, figure(7, 0.1))]) == ()
    assert held_strips([page(0.8), page(short), page(0.8, figure(7, 0.15, False))]) == ()
    assert held_strips([page(0.8), page(0.8), page(0.8)], (3,)) == (3,)
    # The fullest page ends 0.05 short of its foot: the page before the strip, 0.95 as full
    # as the fullest, is short of its own foot by more than HELD_SHARE allows.
    fuller = [page(0.75, foot=0.9), page(0.71, foot=0.9), page(0.75, figure(7, 0.15), foot=0.9)]
    assert held_strips(fuller) == (7,)


def test_an_examples_drawing_is_set_free_of_its_lead_in_only_where_it_fills_a_page() -> None:
    """mends.held_examples (print review 40): an example (a subheading, a lead-in of four
    lines or more, its drawing or table) that opens a page after a short one, with room
    there for the subheading and lead-in, has its drawing set free; not where the page
    before is full enough or too short for them, nor where the lead-in has three lines, nor
    a table picture; in a folded booklet only across a spread (the page before an even
    one)."""
    from sheetgen.booklet.flow import Block, Page
    from sheetgen.booklet.mends import HELD_SHARE, LEAD_SAFETY, held_examples

    def example(lines: int = 4, picture: bool = False) -> Page:
        heading = Block("", 0.1, True, True, 5, bottom=0.12)
        lead = Block("", 0.13, False, False, 6, bottom=0.13 + 0.02 * lines, splittable=True)
        drawing = Block("", 0.14 + 0.02 * lines, False, False, 7, figure=True, picture=picture)
        text = [(0.13 + 0.02 * n, 0.15 + 0.02 * n) for n in range(lines)]
        return Page(False, [(0.1, 0.12), *text, (0.2, 0.9)], [heading, lead, drawing])

    def before(fill: float) -> Page:
        return Page(cover=False, lines=[(0.1, 0.1 + fill)])

    cover, full = Page(cover=True, lines=[(0.1, 0.2)]), before(0.8)
    short = 0.8 - (0.14 + 0.08 - 0.1 + LEAD_SAFETY)  # just room for the heading and lead-in
    assert short < HELD_SHARE * 0.8
    assert held_examples([cover, full, before(short), example()]) == (7,)
    assert held_examples([cover, full, before(short - 0.01), example()]) == (7,)
    assert held_examples([cover, full, before(short + 0.01), example()]) == ()
    assert held_examples([cover, full, before(short), example(3)]) == ()
    assert held_examples([cover, full, before(short), example(picture=True)]) == ()
    assert held_examples([cover, full, full, example()]) == ()
    # Folded: page 3 before page 4 turns a leaf; page 4 before page 5 faces it.
    assert held_examples([cover, full, before(short), example()], folded=True) == ()
    pages = [cover, full, full, before(short), example()]
    assert held_examples(pages, folded=True) == (7,)
    assert held_examples(pages, (2,), folded=True) == (2, 7)


def test_a_heading_with_three_lines_under_it_at_a_pages_foot_is_stranded() -> None:
    """mends.stranded_headings: a heading that may start a page, with fewer than four lines
    under it at the page's foot and its section going on over the page, is named; not one
    with four lines, nor one whose section ends there (the next page opens with a
    heading), nor one that opens its page, nor one kept under another heading."""
    from sheetgen.booklet.flow import Block, Page
    from sheetgen.booklet.mends import stranded_headings

    def heading(top: float, breakable: bool = True) -> Block:
        return Block('[data-block="9"]', top, True, breakable, 9, bottom=top + 0.02)

    def page(under: int, *starts: Block) -> Page:
        lines = [(0.8 + 0.02 * n, 0.82 + 0.02 * n) for n in range(under)]
        return Page(cover=False, lines=[(0.1, 0.12), (0.78, 0.8), *lines], starts=list(starts))

    text = Block('[data-block="10"]', 0.1, False, True, 10)
    opening = Block('[data-block="10"]', 0.1, True, True, 10)
    after = Page(cover=False, lines=[(0.1, 0.12)], starts=[text])
    assert stranded_headings([page(3, heading(0.78)), after]) == ('[data-block="9"]',)
    assert stranded_headings([page(4, heading(0.78)), after]) == ()
    ended = Page(cover=False, lines=[(0.1, 0.12)], starts=[opening])
    assert stranded_headings([page(2, heading(0.78)), ended]) == ()
    assert stranded_headings([page(2, heading(0.78, breakable=False)), after]) == ()
    assert stranded_headings([page(2, heading(0.1)), after]) == ()
