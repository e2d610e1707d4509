"""The flat booklet's tagged structure, read back as a screen reader meets it (PDF/UA-1).

For every game, in English and German, on Letter and A4, and under a heavy set of
toggles with the table's own rules: the headings run in order from the one H1 (the
cover's title), none is empty, the contents' dots are drawn and never text, each
contents entry is one link, every table has header cells and every figure its
alternative text. The structure is read with pikepdf (the structure tree) and the text
of each marked-content id with pdfplumber.
"""

from __future__ import annotations

import io
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pdfplumber
import pikepdf
import pytest
from conftest import booklet_group

from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4, LETTER

GAMES = ("skip-bo", "skip-bo-board", "spite-and-malice")
PAPERS = {"a4": A4, "letter": LETTER}
PDFUA_PART = "{http://www.aiim.org/pdfua/ns/id/}part"
# Three or more dots in a row (with or without spaces between): a leader written as text.
LEADER = re.compile(r"(\.\s*){3,}")
HEAVY = {
    "players": 6,
    "partnerships": True,
    "stock": "short",
    "deck": "standard",
    "must-play-stock": True,
    "target": 300,
}
OWN_RULES = """# Table talk

Say "Skip-Bo" when you play your last card.

## Late arrivals

| | |
|---|---|
| Arrives before the deal | plays |
| Arrives after the deal | waits for the next game |

### Small print

Nothing else.
"""


@dataclass
class Node:
    """A structure element: its tag, its alternative text, its own text and its children."""

    tag: str
    alt: str | None
    # A table's data cell: whether it names the header cells it belongs to.
    has_headers: bool
    texts: list[str] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    annotations: int = 0

    @property
    def text(self) -> str:
        """The element's words as read, its no-break spaces plain and soft hyphens gone."""
        return " ".join(self._raw().replace("\N{SOFT HYPHEN}", "").split())

    def _raw(self) -> str:
        return "".join(self.texts) + "".join(child._raw() for child in self.children)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, tag: str) -> list[Node]:
        return [node for node in self.walk() if node.tag == tag]


@dataclass
class Tagged:
    """What the tagged file holds: its tree, its annotations and its metadata."""

    root: Node
    lang: str | None
    pdfua_part: str | None
    unparented_annotations: int


def _kids(node: pikepdf.Object) -> list[pikepdf.Object]:
    kids = node.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _texts_by_mcid(data: bytes) -> dict[int, dict[int, str]]:
    """Each page's text by marked-content id."""
    texts: dict[int, dict[int, str]] = {}
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages):
            runs: dict[int, str] = defaultdict(str)
            for char in page.chars:
                if char.get("mcid") is not None:
                    runs[char["mcid"]] += char["text"]
            texts[number] = dict(runs)
    return texts


def read_tagged(data: bytes) -> Tagged:
    texts = _texts_by_mcid(data)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pages = {page.objgen: number for number, page in enumerate(pdf.pages)}

        def build(element: pikepdf.Dictionary, page: int | None) -> Node:
            if "/Pg" in element:
                page = pages[element.Pg.objgen]
            alt = element.get("/Alt")
            attributes = element.get("/A")
            node = Node(
                str(element.S)[1:],
                None if alt is None else str(alt),
                isinstance(attributes, pikepdf.Dictionary) and bool(attributes.get("/Headers")),
            )
            for kid in _kids(element):
                if isinstance(kid, int):
                    assert page is not None
                    node.texts.append(texts[page].get(int(kid), ""))
                elif isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/OBJR":
                    node.annotations += 1
                elif isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                    node.children.append(build(kid, page))
            return node

        tree = pdf.Root.StructTreeRoot
        (document,) = _kids(tree)
        root = build(document, None)
        unparented = sum(
            1
            for page in pdf.pages
            for annotation in page.obj.get("/Annots", [])
            if "/StructParent" not in annotation
        )
        lang = pdf.Root.get("/Lang")
        part = pdf.open_metadata().get(PDFUA_PART)
    return Tagged(root, None if lang is None else str(lang), part, unparented)


@pytest.fixture(scope="module")
def own_rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("own") / "ours.md"
    path.write_text(OWN_RULES, encoding="utf-8")
    return path


CASES = [
    *((game, lang, paper, False) for game in GAMES for lang in ("en", "de") for paper in PAPERS),
    # The heavy set once for each of its games, one in each language.
    ("skip-bo", "en", "a4", True),
    ("spite-and-malice", "de", "a4", True),
]


@pytest.fixture(
    scope="module",
    # A booklet's tests run in one worker (none waits on another making it), the booklets
    # side by side.
    params=[
        pytest.param(
            case,
            id=name,
            marks=pytest.mark.xdist_group(
                booklet_group(
                    case[0], "structure" if case[3] else "official", case[2], "pages", case[1]
                )
            ),
        )
        for case in CASES
        for name in [f"{case[0]}-{case[1]}-{case[2]}{'-heavy' if case[3] else ''}"]
    ],
)
def case(
    request: pytest.FixtureRequest,
    booklet_pdf: Callable[..., bytes],
    own_rules: Path,
    once: Any,
) -> tuple[str, str, bool, Tagged]:
    """The case's booklet read back, once a run for all the run's workers."""
    game, lang, paper, heavy = request.param
    options: dict[str, object] = {}
    if heavy:
        options = {"extra": own_rules}
        if game == "skip-bo":
            options |= HEAVY
        else:
            options |= {"series": True, "stock": 1, "target": 20, "bonus": 25, "per-card": 0}
    key = ("pdf_structure", game, lang, paper, heavy)
    tagged = once.value(
        key, lambda: read_tagged(booklet_pdf(game, PAPERS[paper], lang=lang, **options))
    )
    return game, lang, heavy, tagged


HEADING = re.compile(r"H([1-6])$")


def headings(tagged: Tagged) -> list[tuple[int, str]]:
    return [
        (int(found.group(1)), node.text)
        for node in tagged.root.walk()
        if (found := HEADING.match(node.tag))
    ]


def test_the_file_claims_pdf_ua_and_is_tagged_in_its_language(
    case: tuple[str, str, bool, Tagged],
) -> None:
    _, lang, _, tagged = case
    assert tagged.pdfua_part == "1"
    assert tagged.lang == lang
    assert tagged.root.tag == "Document"


def test_the_cover_title_is_the_one_h1_and_opens_the_headings(
    case: tuple[str, str, bool, Tagged],
) -> None:
    game, lang, _, tagged = case
    found = headings(tagged)
    levels = [level for level, _ in found]
    assert levels.count(1) == 1
    assert found[0] == (1, language(lang).game(resolve(game=game).definition).name)
    # Below it: the house rules, the contents and every chapter at level 2.
    assert found[1][0] == found[2][0] == 2
    assert levels.count(2) >= 8


def test_headings_never_skip_a_level_and_none_is_empty(
    case: tuple[str, str, bool, Tagged],
) -> None:
    found = headings(case[3])
    for (before, _), (level, text) in itertools.pairwise(found):
        assert level <= before + 1, (before, level, text)
    assert all(text.strip() for _, text in found), found


def test_the_tables_own_rules_sit_below_the_title(case: tuple[str, str, bool, Tagged]) -> None:
    _, _, heavy, tagged = case
    found = headings(tagged)
    if heavy:
        at = found.index((2, "Table talk"))
        assert found[at + 1 : at + 3] == [(3, "Late arrivals"), (4, "Small print")]
    else:
        assert not [text for _, text in found if text == "Table talk"]


def _contents(tagged: Tagged, lang: str) -> Node:
    """The list that follows the contents' heading."""
    title = language(lang)._("Contents")
    nodes = list(tagged.root.walk())
    at = next(i for i, node in enumerate(nodes) if node.tag == "H2" and node.text == title)
    return next(node for node in nodes[at + 1 :] if node.tag == "L")


def test_each_contents_entry_is_one_link_without_dots(case: tuple[str, str, bool, Tagged]) -> None:
    _, lang, _, tagged = case
    entries = _contents(tagged, lang).find("LI")
    assert len(entries) >= 8
    chapters = {text for level, text in headings(tagged) if level in (2, 3)}
    for entry in entries:
        (link,) = entry.find("Link")
        assert not [node for node in link.walk() if node is not link and node.tag == "Link"]
        assert link.annotations == 1
        assert link.text in chapters | {language(lang)._("Score sheet")}, link.text
        # What follows the title is the page number (or where the entry is), never dots.
        rest = entry.text.removeprefix(link.text)
        assert not LEADER.search(entry.text), entry.text
        assert re.fullmatch(r"\d+|[^\d.]+", rest.strip()), rest


def test_no_leader_dots_are_text_anywhere(case: tuple[str, str, bool, Tagged]) -> None:
    dotted = [node.text for node in case[3].root.walk() if node.texts and LEADER.search(node.text)]
    assert dotted == []


def test_every_table_has_header_cells_for_its_data(case: tuple[str, str, bool, Tagged]) -> None:
    _, _, heavy, tagged = case
    tables = tagged.root.find("Table")
    for table in tables:
        assert table.find("TH"), table.text[:60]
        for cell in table.find("TD"):
            assert cell.has_headers, (cell.text, table.text[:60])
    if heavy:
        # The table's own table, written without a header row: each row has its header.
        (late,) = [table for table in tables if "Arrives before the deal" in table.text]
        assert [cell.text for cell in late.find("TH")] == [
            "Arrives before the deal",
            "Arrives after the deal",
        ]


def test_every_figure_has_its_alternative_text(case: tuple[str, str, bool, Tagged]) -> None:
    figures = case[3].root.find("Figure")
    assert figures
    assert all(figure.alt and len(figure.alt) > 20 for figure in figures)


def test_every_link_annotation_is_in_the_structure(case: tuple[str, str, bool, Tagged]) -> None:
    assert case[3].unparented_annotations == 0


def test_the_score_sheet_page_has_no_heading(booklet_pdf: Callable[..., bytes]) -> None:
    """The drawn sheet is an artifact; the page it is laid on carries no (empty) heading,
    but the bookmarks still lead to it."""
    data = booklet_pdf("skip-bo", A4, series=True)
    tagged = read_tagged(data)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        last = len(pdf.pages) - 1
        with pdf.open_outline() as outline:
            top = [item.title for item in outline.root]
            target = outline.root[-1].destination
        assert top[-1] == "Score sheet"
        assert pdf.pages.index(pikepdf.Page(target[0])) == last
        on_last = [
            element
            for element in pdf.Root.StructTreeRoot.ParentTree.Nums[2 * last + 1]
            if isinstance(element, pikepdf.Dictionary)
        ]
    assert on_last == []
    assert headings(tagged)[-1][1] != "Score sheet"


def test_the_leader_dots_are_still_printed_as_artifacts(booklet_pdf: Callable[..., bytes]) -> None:
    """The dots stay on the page as set (the page checks measure them) but carry no
    marked-content id: they are artifacts, outside the structure a screen reader reads."""
    data = booklet_pdf("skip-bo", A4)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = pdf.pages[0].chars
    dots = [char for char in chars if char["text"] == "."]
    assert len(dots) > 100
    # The full stops of the cover's sentences are text; the leaders' hundreds of dots not.
    assert sum(char["mcid"] is None for char in dots) > 100
    assert sum(char["mcid"] is not None for char in dots) < 20


def test_a_full_stop_after_a_link_stays_in_the_text() -> None:
    """Only runs of three or more dot-only spans are leaders: a sentence's full stop after a
    link, a span of its own, is still read."""
    from sheetgen.booklet.build import rules_document

    data = rules_document(resolve(game="skip-bo"), paper=A4)
    tagged = read_tagged(data)
    items = [node.text for node in tagged.root.find("LBody") if "(page" in node.text]
    assert items and all(re.search(r"\(page \d+\)\.$", text) for text in items), items
