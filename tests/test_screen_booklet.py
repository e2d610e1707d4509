"""The HTML booklet (``sheetgen rules --format html``) read on a phone and a desktop, in a
real browser: Debian's Chromium driven by Playwright, checked by axe-core.

For every game, in English and German, at 320, 390 and 1280 px wide: no text under 12 px
(a drawing's words included: a table picture is redrawn for a phone rather than shrinking
or scrolling, and a worked example's piles of cards wrap onto lines), every heading larger
than the text, no page wider than the screen, and no axe violation. The
title is the one h1 with the chapters below it in order, the text is the main landmark
and the contents its navigation; every size follows the reader's own font size; a
drawing's long description is read once, its caption is for the eye only.

The tests skip, saying why, only where Chromium is not installed; CI installs it.
"""

from __future__ import annotations

import importlib.resources
import itertools
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

from sheetgen.booklet.build import rules_document
from sheetgen.booklet.html import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

GAMES = ("skip-bo", "skip-bo-board", "spite-and-malice")
LANGS = ("en", "de")
WIDTHS = (320, 390, 1280)
SMALLEST = 12.0  # px
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Debian's Chromium run as the tests need it: no sandbox (CI runs as root), and nothing
# that would reach out to the network.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.skipif(
        not Path(CHROMIUM).is_file(),
        reason=f"Chromium is not installed ({CHROMIUM}); `apt-get install chromium` (CI does)",
    ),
]

# Every piece of text on the page and the size it is drawn at on the screen: an SVG's
# text at its font size times the drawing's scale.
TEXT_SIZES = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const element = node.parentElement;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (!range.getBoundingClientRect().width) continue;
    let size = parseFloat(getComputedStyle(element).fontSize);
    if (element.closest('svg')) {
      const matrix = element.getScreenCTM();
      size *= Math.hypot(matrix.a, matrix.b);
    }
    found.push([size, node.textContent.trim().slice(0, 40)]);
  }
  return found;
}"""
HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map(h => [
  Number(h.tagName[1]), h.textContent.trim(), parseFloat(getComputedStyle(h).fontSize),
  !!h.closest('main')])"""
BODY_SIZE = (
    "() => parseFloat(getComputedStyle(document.querySelector('main .chapter > p')).fontSize)"
)


def axe_source() -> str:
    """axe-core as the Python package axe-playwright-python ships it."""
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text()


FRAMES = """() => [...document.querySelectorAll('.drawing')].map(frame => [
  frame.querySelector('svg').getBoundingClientRect().width, frame.clientWidth,
  frame.getAttribute('tabindex')])"""
# Each table picture's drawings as shown (a hidden one left out): its class, the width its
# content takes and the width it shows, and its drawing's width, in px.
PICTURES = """() => [...document.querySelectorAll('.picture > div')]
  .filter(shown => getComputedStyle(shown).display !== 'none')
  .map(shown => [shown.className, shown.scrollWidth, shown.clientWidth,
    shown.querySelector('svg').getBoundingClientRect().width])"""
# Each worked example drawn as cards: its row of piles (the width it shows and the width
# its content takes) and each pile's box and smallest word, in px.
CARDS = """() => [...document.querySelectorAll('.cards')].map(example => {
  const row = example.querySelector('.piles');
  return {
    shown: row.clientWidth, content: row.scrollWidth, left: row.getBoundingClientRect().left,
    right: row.getBoundingClientRect().right, frames: example.querySelectorAll('.drawing').length,
    piles: [...row.querySelectorAll(':scope > svg')].map(svg => {
      const box = svg.getBoundingClientRect();
      const sizes = [...svg.querySelectorAll('text')].map(text =>
        parseFloat(getComputedStyle(text).fontSize) * Math.hypot(text.getScreenCTM().a,
          text.getScreenCTM().b));
      return [box.left, box.right, box.top, Math.min(...sizes), sizes.length,
        svg.getAttribute('aria-hidden')];
    }),
  };
})"""
CAPTION_SIZE = "() => parseFloat(getComputedStyle(document.querySelector('.caption')).fontSize)"


def observe(browser: Browser, html: str) -> dict[str, Any]:
    """What a reader meets in the booklet ``html``, loaded once: at each width its text
    sizes, headings, width and axe's violations; its sizes at two font sizes of the
    reader's; its landmarks and contents; what a screen reader meets of each drawing."""
    page = browser.new_page(viewport={"width": WIDTHS[0], "height": 900})
    session = page.context.new_cdp_session(page)
    found: dict[str, Any] = {"widths": {}, "font_sizes": {}}
    try:
        page.set_content(html)
        page.evaluate(axe_source())
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            found["widths"][width] = {
                "texts": page.evaluate(TEXT_SIZES),
                "headings": page.evaluate(HEADINGS),
                "body": page.evaluate(BODY_SIZE),
                "page_width": page.evaluate("() => document.documentElement.scrollWidth"),
                "frames": page.evaluate(FRAMES),
                "pictures": page.evaluate(PICTURES),
                "cards": page.evaluate(CARDS),
                "violations": page.evaluate(
                    "async () => (await axe.run(document, {resultTypes: ['violations']}))"
                    ".violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.join(' '))])"
                ),
            }
        page.set_viewport_size({"width": 390, "height": 900})
        for default in (16, 24):
            # The reader's own setting: the browser's default font size.
            session.send("Page.setFontSizes", {"fontSizes": {"standard": default}})
            found["font_sizes"][default] = [
                page.evaluate(BODY_SIZE),
                page.evaluate(HEADINGS)[1][2],
                page.evaluate(CAPTION_SIZE),
            ]
        found["main"] = page.locator("body > main").count(), page.locator("main").count()
        found["contents"] = {}
        for nav in page.get_by_role("navigation").all():
            hrefs = nav.get_by_role("link").evaluate_all(
                "links => links.map(a => a.getAttribute('href'))"
            )
            targets = [page.locator(href).evaluate("e => e.tagName") for href in hrefs]
            found["contents"][nav.get_attribute("aria-labelledby") or ""] = [
                nav.evaluate(
                    "n => document.getElementById(n.getAttribute('aria-labelledby')).textContent"
                ),
                targets,
            ]
        found["drawings"] = [
            [drawing.locator(".caption").inner_text(), drawing.aria_snapshot()]
            for drawing in page.locator(".picture, .cards").all()
        ]
    finally:
        page.close()
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Callable[[], Browser]]:
    """The module's Chromium, launched when first asked for (a worker that finds every
    booklet already observed launches none)."""
    with sync_playwright() as playwright:
        launched: list[Browser] = []

        def get() -> Browser:
            if not launched:
                launched.append(playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS))
            return launched[0]

        yield get
        for each in launched:
            each.close()


@pytest.fixture(
    scope="module",
    # A booklet's tests run on one worker, the booklets on all of them side by side.
    params=[
        pytest.param(
            (g, lang), id=f"{g}-{lang}", marks=pytest.mark.xdist_group(f"screen-{g}-{lang}")
        )
        for g in GAMES
        for lang in LANGS
    ],
)
def seen(
    request: pytest.FixtureRequest, browser: Callable[[], Browser], once: Any
) -> dict[str, Any]:
    """One booklet as ``observe`` finds it, observed once a run for all workers."""
    game, lang = request.param

    def make() -> dict[str, Any]:
        rules = resolve(game=game)
        html = rules_document(rules, paper=A4, fmt="html", lang=language(lang))
        return observe(browser(), html.decode("utf-8"))

    return {"game": game, "lang": lang, **once.value(("screen_booklet", game, lang), make)}


@pytest.mark.parametrize("width", WIDTHS)
def test_no_text_is_under_12_px(seen: dict[str, Any], width: int) -> None:
    texts = seen["widths"][width]["texts"]
    assert [(round(size, 1), text) for size, text in texts if size < SMALLEST] == []
    # The drawings' words are measured too (a stock pile's letter, a special space).
    drawn = {"skip-bo": "S", "skip-bo-board": "1–4"}.get(seen["game"])
    assert drawn is None or any(text == drawn for _, text in texts)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_heading_is_larger_than_the_text(seen: dict[str, Any], width: int) -> None:
    at = seen["widths"][width]
    body = at["body"]
    assert body >= 16
    sizes: dict[int, list[float]] = {}
    for level, _, size, _ in at["headings"]:
        sizes.setdefault(level, []).append(size)
    assert {1, 2, 3} <= set(sizes)
    assert all(size > body for found in sizes.values() for size in found)
    # A deeper heading is never as large as one above it.
    assert max(sizes.get(4, [0])) < min(sizes[3]) and max(sizes[3]) < min(sizes[2])
    assert max(sizes[2]) < min(sizes[1])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_is_never_wider_than_the_screen(seen: dict[str, Any], width: int) -> None:
    assert seen["widths"][width]["page_width"] <= width


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_violation(seen: dict[str, Any], width: int) -> None:
    assert seen["widths"][width]["violations"] == []


def test_the_title_is_the_one_h1_and_the_chapters_follow_in_order(seen: dict[str, Any]) -> None:
    found = seen["widths"][390]["headings"]
    name = language(seen["lang"]).game(resolve(game=seen["game"]).definition).name
    assert found[0][:2] == [1, name]
    levels = [level for level, *_ in found]
    assert levels.count(1) == 1
    for before, level in itertools.pairwise(levels):
        assert 2 <= level <= before + 1
    assert all(inside_main for *_, inside_main in found)


def test_the_text_is_the_main_landmark_and_the_contents_its_navigation(
    seen: dict[str, Any],
) -> None:
    assert seen["main"] == [1, 1] or seen["main"] == (1, 1)
    ((title, targets),) = seen["contents"].values()
    assert title == language(seen["lang"])._("Contents")
    assert len(targets) >= 8
    # Every entry leads to a chapter's or a section's heading.
    assert set(targets) <= {"H2", "H3"}


def test_sizes_follow_the_readers_own_font_size(seen: dict[str, Any]) -> None:
    normal, larger = seen["font_sizes"][16], seen["font_sizes"][24]
    assert normal[0] == pytest.approx(17)
    assert larger == pytest.approx([size * 1.5 for size in normal])


def test_a_drawing_is_described_once(seen: dict[str, Any]) -> None:
    """A screen reader meets each drawing as a figure named by its caption, holding one
    image named by its long description; the caption says what the drawing shows in a
    line, never the description again (print review 5: captions are figcaptions)."""
    assert seen["drawings"]
    for caption, tree in seen["drawings"]:
        (image,) = [line for line in tree.splitlines() if line.lstrip("- '").startswith("img")]
        assert len(image) > 60
        assert caption not in image and len(caption) < len(image) / 2
        (figure,) = [line for line in tree.splitlines() if line.lstrip("- '").startswith("figure")]
        assert caption.replace("\N{SOFT HYPHEN}", "") in figure


@pytest.mark.parametrize("width", [320, 390])
def test_the_table_picture_is_redrawn_for_a_phone(seen: dict[str, Any], width: int) -> None:
    """Issue 31 item 5: on a phone the table picture is drawn anew, narrower, its words
    still 12 px or more (test_no_text_is_under_12_px), and nothing in it scrolls sideways;
    a desktop shows the wide one."""
    check_redrawn(seen["widths"][width]["pictures"], seen["widths"][1280]["pictures"], width)


def check_redrawn(narrow: list[Any], wide: list[Any], width: int) -> None:
    ((kind, content, shown, drawing),) = narrow
    assert kind == "narrow"
    assert content <= shown and drawing <= shown + 0.5
    assert drawing >= width - 40  # as wide as the text, not shrunk into a corner
    ((kind, _, _, drawing),) = wide
    assert kind == "drawing wide" and drawing >= 34 * 16


@pytest.mark.parametrize("width", [320, 390])
def test_no_drawing_scrolls_in_its_frame_on_a_phone(seen: dict[str, Any], width: int) -> None:
    """Every game's table picture is redrawn (above) and a worked example's cards wrap
    (below): no frame shown on a phone holds a drawing wider than itself."""
    frames = seen["widths"][width]["frames"]
    assert frames
    assert [(w, frame) for w, frame, _ in frames if w > frame + 0.5] == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [4, 6])
def test_a_partnership_table_is_redrawn_for_a_phone(
    browser: Callable[[], Browser], players: int, lang: str
) -> None:
    """Skip-Bo with partnerships draws its table round all four edges; a phone has its
    own drawing of it too, every word 12 px or more."""
    rules = resolve(game="skip-bo", options={"players": players, "partnerships": True})
    html = rules_document(rules, paper=A4, fmt="html", lang=language(lang)).decode("utf-8")
    page = browser().new_page(viewport={"width": 1280, "height": 900})
    try:
        page.set_content(html)
        wide = page.evaluate(PICTURES)
        for width in (320, 390):
            page.set_viewport_size({"width": width, "height": 900})
            check_redrawn(page.evaluate(PICTURES), wide, width)
            texts = page.evaluate(TEXT_SIZES)
            assert [(round(size, 1), text) for size, text in texts if size < SMALLEST] == []
            # The names with their teams are among the words measured.
            assert sum("(" in text and ")" in text for _, text in texts) >= players
    finally:
        page.close()


def card_examples(seen: dict[str, Any], width: int) -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = seen["widths"][width]["cards"]
    # Skip-Bo and Spite and Malice draw worked examples; the board game draws none.
    assert bool(examples) == (seen["game"] != "skip-bo-board")
    return examples


def lines_of(example: dict[str, Any]) -> int:
    """How many lines the example's piles take."""
    return len({round(top) for _, _, top, *_ in example["piles"]})


@pytest.mark.parametrize("width", [320, 390])
def test_a_card_example_wraps_on_a_phone_rather_than_scrolling_or_shrinking(
    seen: dict[str, Any], width: int
) -> None:
    examples = card_examples(seen, width)
    for example in examples:
        assert example["frames"] == 0  # no frame to scroll in
        assert example["content"] <= example["shown"]
        assert example["right"] <= width
        assert len(example["piles"]) >= 3
        for left, right, _, smallest, words, hidden in example["piles"]:
            assert example["left"] - 0.5 <= left and right <= example["right"] + 0.5
            assert words >= 1 and smallest >= SMALLEST
            # The example is one image to a screen reader: its piles are not read again.
            assert hidden == "true"
    # On a phone the piles of four-pile examples take more than one line.
    assert all(lines_of(example) > 1 for example in examples if len(example["piles"]) >= 4)


def test_a_card_example_sits_on_one_line_on_a_desktop(seen: dict[str, Any]) -> None:
    examples = card_examples(seen, 1280)
    for example in examples:
        assert lines_of(example) == 1
        assert example["content"] <= example["shown"]
        assert all(smallest >= SMALLEST for *_, smallest, _, _ in example["piles"])
    # The same piles at the same size as on a phone: wrapped there, not shrunk.
    for narrow, wide in zip(card_examples(seen, 320), examples, strict=True):
        assert [round(end - start, 1) for start, end, *_ in narrow["piles"]] == [
            round(end - start, 1) for start, end, *_ in wide["piles"]
        ]


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice"])
@pytest.mark.parametrize("lang", LANGS)
def test_print_keeps_one_drawing_per_card_example(game: str, lang: str) -> None:
    """The split piles are for a screen only: printed, each example is one drawing with its
    long description as its title, in a figure with its caption, as before."""
    rules = resolve(game=game)
    printed = render_html(rules, paper=A4, lang=language(lang))
    shown = render_html(rules, paper=A4, lang=language(lang), screen=True)
    figures = re.findall(r'<figure class="cards[^"]*">(.*?)</figure>', printed, re.DOTALL)
    assert len(figures) == 3
    for figure in figures:
        assert figure.count("<svg") == 1 and "<title>" in figure and "<figcaption>" in figure
    assert 'class="piles"' not in printed and 'aria-hidden="true"' not in "".join(figures)
    rows = re.findall(
        r'<div class="piles" role="img" aria-label="[^"]{60,}">(.*?)</div>', shown, re.DOTALL
    )
    assert len(rows) == 3 and shown.count('<figure class="cards">') == 3
    for row in rows:
        assert row.count("<svg") >= 3 and row.count('aria-hidden="true"') == row.count("<svg")
        assert "<title>" not in row


@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_printed_from_a_browser_shows_each_table_picture_once(
    browser: Callable[[], Browser], width: int
) -> None:
    """Print review 19: printed from the browser, the page showed the table picture twice,
    the wide drawing and the phone's (hidden for a screen only). Printed, only the wide one
    shows, whatever the window's width; on a phone's screen, only the phone's."""
    html = rules_document(resolve(game="skip-bo"), paper=A4, fmt="html", lang=language("de"))
    page = browser().new_page(viewport={"width": width, "height": 900})
    shown = "() => [...document.querySelectorAll('.picture svg')].filter(s => s.getBoundingClientRect().width > 0).map(s => s.closest('.narrow') ? 'narrow' : 'wide')"
    try:
        page.set_content(html.decode("utf-8"))
        assert page.evaluate(shown) == (["narrow"] if width < 600 else ["wide"])
        page.emulate_media(media="print")
        assert page.evaluate(shown) == ["wide"]
    finally:
        page.close()
