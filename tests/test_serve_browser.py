"""``sheetgen serve`` in a real browser: Debian's Chromium driven by Playwright against a
server on loopback, checked by axe-core.

A game recorded on one phone reaches a second phone's page without a reload; the form
works without JavaScript; every page has no axe violation at 390 and 1280 px, in light
and dark, with no text under 12 px and nothing wider than the screen.

The tests skip, saying why, only where Chromium is not installed; CI installs it.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from sheetgen.paper import A4
from sheetgen.series.file import load_series
from sheetgen.serve.access import Access, local_hosts
from sheetgen.serve.run import bind, make_server
from sheetgen.serve.served import Served
from sheetgen.serve.state import ServedSeries
from tests.test_screen_booklet import ARGS, CHROMIUM, axe_source

pytestmark = [
    pytest.mark.skipif(
        not Path(CHROMIUM).is_file(),
        reason=f"Chromium is not installed ({CHROMIUM}); `apt-get install chromium` (CI does)",
    ),
    pytest.mark.xdist_group("serve-browser"),
]

SERIES = """\
title: Friday
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 4, Cy: 7, Di: 2}
  - winner: Cy
    left: {Ann: 3, Bob: 9, Di: 1}
"""
WIDTHS = (390, 1280)
SMALLEST = 12.0
TEXT_SIZES = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!node.textContent.trim() || element.closest('svg')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (!range.getBoundingClientRect().width) continue;
    found.push([parseFloat(getComputedStyle(element).fontSize), node.textContent.trim().slice(0, 40)]);
  }
  return found;
}"""
OPEN: list[Any] = []  # the browser contexts of the running server's test, closed first
KEYED: list[str] = []  # the printed address (with its key) of the server running, if any
# The booklet's preview is a sandboxed frame of its own (the booklet is checked by
# test_screen_booklet): axe checks the page around it.
AXE = (
    "async () => (await axe.run(document, {resultTypes: ['violations'], iframes: false}))"
    ".violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.join(' '))])"
)


@contextlib.contextmanager
def running(series_file: Path, pin: str | None = None) -> Iterator[tuple[str, Served]]:
    """A server on a free loopback port, as ``sheetgen serve`` runs one, in a thread."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    served = Served(ServedSeries(series_file), Access(local_hosts(port), pin), A4)
    server = make_server(served)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    if pin is None:
        KEYED.append(f"http://127.0.0.1:{port}/?key={served.access.token}")
    try:
        yield f"http://127.0.0.1:{port}", served
    finally:
        KEYED.clear()
        while OPEN:  # the pages go first, closing their event streams
            OPEN.pop().close()
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def series_file(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_text(SERIES, encoding="utf-8")
    return path


def phone(browser: Browser, width: int = 390, **options: Any) -> Page:
    """A phone (or laptop) that has opened the printed address, as a player does first."""
    context = browser.new_context(viewport={"width": width, "height": 844}, **options)
    OPEN.append(context)
    page = context.new_page()
    if KEYED:
        page.goto(KEYED[0])
    return page


def test_a_game_recorded_on_one_phone_reaches_the_other_without_a_reload(
    browser: Browser, series_file: Path
) -> None:
    with running(series_file) as (url, _):
        first, second = phone(browser), phone(browser, 1280)
        second.goto(url)
        expect(second.locator("#status")).to_contain_text("Live")
        first.goto(url)
        first.get_by_label("Bob", exact=True).first.check()
        steps = first.get_by_role("button", name="One more for Ann")
        for _ in range(3):
            steps.click()
        first.locator("#left-2").fill("5")
        first.locator("#left-3").fill("1")
        expect(first.locator("#preview")).to_have_text("Bob scores 70 points.")
        expect(first.get_by_role("button", name="Check the points")).to_be_hidden()
        loaded = second.evaluate("() => performance.getEntriesByType('navigation').length")
        first.get_by_role("button", name="Save the game").click()
        expect(first.locator(".done")).to_have_text("Game 3 is recorded.")
        # The second page shows game 3 and Bob's 70 points without loading again.
        expect(second.locator("ol.games li").first).to_contain_text("Bob")
        expect(second.locator("table.standings")).to_contain_text("70")
        assert second.evaluate("() => performance.getEntriesByType('navigation').length") == loaded
        assert second.locator("input[name=expected_games]").input_value() == "3"
    assert [game.winner for game in load_series(series_file).games] == ["Ann", "Cy", "Bob"]


def test_a_form_half_filled_when_another_phone_saves_is_refused_not_doubled(
    browser: Browser, series_file: Path
) -> None:
    with running(series_file) as (url, _):
        first, second = phone(browser), phone(browser)
        for page in (first, second):
            page.goto(url)
            expect(page.locator("#status")).to_contain_text("Live")
            page.get_by_label("Di", exact=True).first.check()
            for index, count in enumerate(("1", "2", "3")):
                page.locator(f"#left-{index}").fill(count)
        first.get_by_role("button", name="Save the game").click()
        expect(first.locator(".done")).to_be_visible()
        expect(second.locator("ol.games li")).to_have_count(3)
        second.get_by_role("button", name="Save the game").click()
        expect(second.locator(".error").first).to_contain_text("Nothing was saved")
        expect(second.locator(".error").first).to_be_in_viewport()
    assert len(load_series(series_file).games) == 3


def test_a_winners_own_pile_is_cleared_and_left_out(browser: Browser, series_file: Path) -> None:
    """A count typed before the winner is chosen is cleared when that player wins."""
    with running(series_file) as (url, _):
        page = phone(browser)
        page.goto(url)
        page.locator("#left-0").fill("2")
        page.get_by_label("Ann", exact=True).first.check()
        expect(page.locator("#left-0")).to_be_disabled()
        expect(page.locator("#left-0")).to_have_value("")
        expect(page.get_by_role("button", name="One more for Ann")).to_be_disabled()
        for index, count in ((1, "2"), (2, "3"), (3, "4")):
            page.locator(f"#left-{index}").fill(count)
        expect(page.locator("#preview")).to_have_text("Ann scores 70 points.")
        page.get_by_role("button", name="Save the game").click()
        expect(page.locator(".done")).to_have_text("Game 3 is recorded.")
    assert load_series(series_file).games[-1].left == {"Bob": 2, "Cy": 3, "Di": 4}


def test_recording_works_without_javascript(browser: Browser, series_file: Path) -> None:
    with running(series_file) as (url, _):
        page = phone(browser, java_script_enabled=False)
        page.goto(url)
        page.get_by_label("Di", exact=True).first.check()
        for index, count in enumerate(("1", "2", "3")):
            page.locator(f"#left-{index}").fill(count)
        page.get_by_role("button", name="Check the points").click()
        expect(page.locator(".big")).to_have_text("Di scores 55 points.")
        page.get_by_role("button", name="Save the game").click()
        expect(page.locator(".done")).to_have_text("Game 3 is recorded.")
        page.goto(url + "/undo")
        page.get_by_role("button", name="Remove game 3").click()
        expect(page.locator(".done")).to_have_text("Game 3 is removed.")
    assert len(load_series(series_file).games) == 2


def observe(page: Page) -> dict[str, Any]:
    page.evaluate(axe_source())
    return {
        "violations": page.evaluate(AXE),
        "small": [item for item in page.evaluate(TEXT_SIZES) if item[0] < SMALLEST],
        "width": page.evaluate("() => document.documentElement.scrollWidth"),
        "h1": page.locator("h1").count(),
    }


@pytest.mark.parametrize(("scheme", "locale"), [("light", "en-US"), ("dark", "de-DE")])
def test_every_page_passes_axe_at_phone_and_desktop_width(
    browser: Browser, series_file: Path, scheme: str, locale: str
) -> None:
    with running(series_file) as (url, _):
        page = phone(browser, color_scheme=scheme, locale=locale)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844})
            for path in ("/", "/documents", "/undo", "/games/1", "/nowhere"):
                page.goto(url + path)
                found = observe(page)
                assert found["violations"] == [], (width, path)
                assert found["small"] == [], (width, path)
                assert found["width"] <= width, (width, path)
                assert found["h1"] == 1, (width, path)
                assert page.locator("html").get_attribute("lang") == locale[:2]
            page.goto(url)
            page.get_by_label("Ann", exact=True).first.check()
            for index, count in ((1, "2"), (2, "3"), (3, "4")):
                page.locator(f"#left-{index}").fill(count)
            page.locator("button.save").click()
            expect(page.locator(".done")).to_be_visible()
            assert observe(page)["violations"] == [], (width, "after saving")


def test_the_pin_page_passes_axe_and_lets_a_phone_in(browser: Browser, series_file: Path) -> None:
    with running(series_file, pin="246810") as (url, _):
        page = phone(browser)
        page.goto(url)
        assert page.url.endswith("/pin")
        assert observe(page)["violations"] == []
        page.get_by_label(re.compile("PIN")).fill("246810")
        page.get_by_role("button", name="Open the page").click()
        expect(page.locator("h1")).to_have_text("Standings")


def test_the_booklet_preview_follows_its_form(browser: Browser, series_file: Path) -> None:
    with running(series_file) as (url, _):
        page = phone(browser, 1280)
        page.goto(url + "/documents")
        frame = page.frame_locator("#booklet-preview")
        expect(frame.locator("h1").first).to_be_visible()
        page.get_by_label("Cards to play with").select_option("standard")
        expect(page.locator("#booklet-pdf")).to_have_attribute(
            "href", re.compile("t-deck=standard")
        )
        expect(frame.locator("body")).to_contain_text("House rule: instead of", timeout=10_000)


CHART_TEXT = """() => [...document.querySelectorAll('.chart svg text')]
  .filter(t => t.getBoundingClientRect().height > 0)
  .map(t => {
    const svg = t.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [parseFloat(t.getAttribute('font-size')) * scale, t.textContent];
  })"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_charts_words_are_read_at_a_phones_size(
    browser: Browser, series_file: Path, width: int
) -> None:
    """The race chart's title and subtitle are the page's text; its drawn words (ticks,
    the panels' headings, the note under them) are 12 px or more at 390 and 1280 px wide
    (review: 8 px on a phone, the narrow chart laid out 360 points wide with its title
    inside; print review 35: 11.55 px at 390)."""
    with running(series_file) as (url, _):
        page = phone(browser, width)
        page.goto(url)
        assert page.locator("#chart-heading").inner_text() == "Friday"
        assert "running total after every game" in page.locator(".chart-subtitle").inner_text()
        drawn = page.evaluate(CHART_TEXT)
        assert drawn, "no chart drawn"
        assert "Friday" not in [text for _, text in drawn]
        small = [(round(size, 1), text) for size, text in drawn if size < 11.95]
        assert small == [], small
